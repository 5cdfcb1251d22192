//! Decorators are uses: `@d` and `@d(...)` (and annotations) apply the definition `d`, so
//! the answers about `d` (`function`, `class`, `explain`, `blast_radius`) list the
//! decorated symbols as `decorated`. The index makes each application a reference site of
//! kind `decorator` from the decorated symbol, bound like any other reference (a
//! `REFERENCES` edge decorated -> `d` with its resolution); this module picks those edges
//! out so they are shown, and followed, as decorator uses rather than plain references.

use std::collections::HashSet;

use navegador_store::{NodeRow, Store};

use crate::Result;

/// One application of a decorator definition.
pub(crate) struct Application {
    /// The decorated symbol.
    pub decorated: NodeRow,
    pub resolution: Option<String>,
    /// The line of the `@`.
    pub line: Option<u32>,
}

/// Every application of `def` (a function, method or class) as a decorator.
pub(crate) fn applications(store: &Store, def: &NodeRow) -> Result<Vec<Application>> {
    if !matches!(def.label.as_str(), "Function" | "Method" | "Class") {
        return Ok(Vec::new());
    }
    let sites: Vec<_> = store.calls_into(def.id)?.into_iter().filter(|c| c.site_kind.as_deref() == Some("decorator")).collect();
    if sites.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = sites.iter().map(|c| c.src).collect::<HashSet<_>>().into_iter().collect();
    let mut nodes: Vec<NodeRow> = store.nodes_by_ids(&ids)?;
    nodes.sort_by_key(|n| n.id);
    Ok(sites
        .into_iter()
        .filter_map(|c| {
            let i = nodes.binary_search_by_key(&c.src, |n| n.id).ok()?;
            Some(Application { decorated: nodes[i].clone(), resolution: c.resolution, line: c.line })
        })
        .collect())
}
