//! Decorators are uses: `@d` and `@d(...)` (and annotations) apply the definition `d`, so
//! they belong in the answers about `d` (`function`, `class`, `explain`, `blast_radius`)
//! as `decorated` nodes, each with how sure the binding is.
//!
//! The graph keeps each application as a `Decorator` node that `DECORATES` its symbol,
//! named as written. Binding that name to a definition follows the file's scope: what the
//! resolver made of the call at that line (a factory `@d(...)` is a call), a top-level
//! definition of the file, a name bound by one of its resolved imports; a name bound to
//! something else is not a use. An unbound name is `inferred` when one definition has it
//! and `ambiguous` otherwise, as for calls.

use std::collections::HashMap;

use navegador_store::{NodeRow, Store};

use crate::Result;

/// One application of a decorator definition.
pub(crate) struct Application {
    /// The `Decorator` node (file and line of the `@`).
    pub decorator: NodeRow,
    /// What it decorates.
    pub decorated: NodeRow,
    pub resolution: &'static str,
}

/// Every application of `def` (a function, method or class) as a decorator.
pub(crate) fn applications(store: &Store, def: &NodeRow) -> Result<Vec<Application>> {
    let Some(name) = def.name.as_deref() else { return Ok(Vec::new()) };
    if !matches!(def.label.as_str(), "Function" | "Method" | "Class") {
        return Ok(Vec::new());
    }
    let uses = store.decorator_uses(name)?;
    if uses.is_empty() {
        return Ok(Vec::new());
    }
    let unique = store
        .nodes_by_name_or_qname(name)?
        .iter()
        .filter(|r| r.name.as_deref() == Some(name) && matches!(r.label.as_str(), "Function" | "Method" | "Class"))
        .count()
        == 1;
    // Factory decorators are calls: what the resolver bound at (file, line).
    let calls: Vec<_> = store.calls_into(def.id)?.into_iter().filter(|c| c.edge_type == "CALLS").collect();
    let srcs: HashMap<i64, NodeRow> =
        store.nodes_by_ids(&calls.iter().map(|c| c.src).collect::<Vec<_>>())?.into_iter().map(|n| (n.id, n)).collect();
    let mut called_at: HashMap<(String, u32), &'static str> = HashMap::new();
    for c in &calls {
        if let (Some(f), Some(l)) = (srcs.get(&c.src).and_then(|n| n.file_path.clone()), c.line) {
            called_at.insert((f, l), resolution_str(c.resolution.as_deref()));
        }
    }
    let mut binder = Binder { store, imports: HashMap::new() };
    let mut out = Vec::new();
    for (decorator, decorated) in uses {
        let (Some(file), Some(line)) = (decorator.file_path.clone(), decorator.line_start) else { continue };
        let resolution = match called_at.get(&(file.clone(), line)) {
            Some(r) => Some(*r),
            None => binder.bind(&decorator, &file, def, unique)?,
        };
        if let Some(resolution) = resolution {
            out.push(Application { decorator, decorated, resolution });
        }
    }
    Ok(out)
}

fn resolution_str(r: Option<&str>) -> &'static str {
    match r {
        Some("exact") => "exact",
        Some("inferred") => "inferred",
        _ => "ambiguous",
    }
}

/// Reads of one file's scope, cached across the applications of one answer.
struct Binder<'s> {
    store: &'s Store,
    /// Per file: (local name, what the import resolved to).
    imports: HashMap<String, Vec<(String, Vec<NodeRow>)>>,
}

impl Binder<'_> {
    /// Whether the decorator named as written in `file` means `def`: `Some(resolution)`,
    /// or `None` when the name is bound to something else there.
    fn bind(&mut self, decorator: &NodeRow, file: &str, def: &NodeRow, unique: bool) -> Result<Option<&'static str>> {
        let written = decorator.name.as_deref().unwrap_or_default();
        let segs: Vec<&str> = written.split('.').filter(|s| !s.is_empty()).collect();
        let Some(&first) = segs.first() else { return Ok(None) };
        // A definition of this file.
        let local = self.store.top_level_named(file, first)?;
        if !local.is_empty() {
            let hit = match segs.as_slice() {
                [_] => local.iter().any(|l| l.id == def.id),
                [_, member] => {
                    let mut hit = false;
                    for l in local.iter().filter(|l| l.label == "Class") {
                        hit |= self.store.children_named(l.id, member)?.iter().any(|m| m.id == def.id);
                    }
                    hit
                }
                _ => false,
            };
            return Ok(hit.then_some("exact"));
        }
        // A name bound by an import of this file.
        let rest = &segs[1..];
        let mut bound = false;
        for (local, targets) in self.imports_of(file)? {
            if local != first {
                continue;
            }
            bound = true;
            for t in targets {
                if t.id == def.id && rest.is_empty() {
                    return Ok(Some("exact"));
                }
                if !rest.is_empty() && member_of(&t, def, rest) {
                    return Ok(Some("exact"));
                }
            }
        }
        if bound {
            return Ok(None);
        }
        Ok(Some(if unique { "inferred" } else { "ambiguous" }))
    }

    fn imports_of(&mut self, file: &str) -> Result<Vec<(String, Vec<NodeRow>)>> {
        if !self.imports.contains_key(file) {
            let mut v = Vec::new();
            for i in self.store.imports_of_file(file)? {
                let prop = |k: &str| i.props.get(k).and_then(|v| v.as_str()).map(str::to_string);
                let module = prop("module").unwrap_or_default();
                let local = prop("alias").or_else(|| prop("imported").filter(|n| n != "*")).unwrap_or_else(|| {
                    // `import a.b` binds `a`; `import "x/y/pkg"` (Go) binds `pkg`.
                    let m = module.trim_end_matches('/');
                    if m.contains('/') { m.rsplit('/').next().unwrap_or(m).to_string() } else { m.split('.').next().unwrap_or(m).to_string() }
                });
                let mut targets = Vec::new();
                for e in self.store.edges_of(i.id, true, Some("IMPORTS"))? {
                    if e.resolution.is_some() {
                        targets.extend(self.store.node(e.dst)?);
                    }
                }
                v.push((local, targets));
            }
            self.imports.insert(file.to_string(), v);
        }
        Ok(self.imports[file].clone())
    }
}

/// True when `def` is `rest` (a dotted path) inside the imported `target` (a file, module
/// or class).
fn member_of(target: &NodeRow, def: &NodeRow, rest: &[&str]) -> bool {
    let Some(q) = def.qualified_name.as_deref() else { return false };
    let tail = rest.join(".");
    match target.label.as_str() {
        "File" => def.file_path == target.file_path && (q == tail || q.ends_with(&format!(".{tail}"))),
        _ => target.qualified_name.as_deref().is_some_and(|t| q == format!("{t}.{tail}")),
    }
}
