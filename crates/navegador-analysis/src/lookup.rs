//! From what an agent types (a name, a qualified name, a file path) to one node, or to
//! the candidates when there are several.

use navegador_store::{NodeRow, Store};

use crate::types::{Candidate, ContextNode};
use crate::{AnalysisError, Result};

/// Labels that are sites rather than definitions: matched only when nothing else is (an
/// Endpoint is named after its handler, which is the definition meant).
const SITE_LABELS: &[&str] = &["Import", "Decorator", "Endpoint"];

/// Normalises a user-supplied workspace-relative path (`./a/b.py`). A `\` is kept: on
/// Unix it is part of a file name (`navegador_model::path`).
pub(crate) fn norm_path(p: &str) -> String {
    let mut p = p.trim();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_start_matches('/').to_string()
}

fn file_matches(node_file: Option<&str>, file: &str) -> bool {
    node_file.is_some_and(|f| f == file || f.ends_with(&format!("/{file}")))
}

/// Finds the one node `name` means among `labels` (any label when empty).
pub(crate) fn resolve(
    store: &Store,
    name: &str,
    file: Option<&str>,
    labels: &[&str],
    what: &'static str,
) -> Result<NodeRow> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AnalysisError::Empty { field: "name" });
    }
    let file = file.map(norm_path).filter(|f| !f.is_empty());
    let mut rows = store.nodes_by_name_or_qname(name)?;
    if rows.is_empty() {
        // `Class.method`, `pkg.mod.func`, `mod::Type`: match by the last segment, then
        // require the qualified name to end with what was typed.
        if let Some(last) = name.rsplit(['.', ':', '#']).next().filter(|l| !l.is_empty() && *l != name) {
            rows = store
                .nodes_by_name_or_qname(last)?
                .into_iter()
                .filter(|r| r.qualified_name.as_deref().is_some_and(|q| q.ends_with(name)))
                .collect();
        }
    }
    // A path names a File.
    if rows.is_empty() && (name.contains('/') || name.contains('.')) {
        if let Some(n) = store.file_node(&norm_path(name))? {
            rows.push(n);
        }
    }
    if !labels.is_empty() {
        rows.retain(|r| labels.contains(&r.label.as_str()));
    } else if rows.iter().any(|r| !SITE_LABELS.contains(&r.label.as_str())) {
        rows.retain(|r| !SITE_LABELS.contains(&r.label.as_str()));
    }
    let all = rows.clone();
    if let Some(f) = &file {
        rows.retain(|r| file_matches(r.file_path.as_deref(), f));
    }
    match rows.len() {
        1 => Ok(rows.pop().unwrap()),
        0 => {
            let mut suggestions: Vec<String> = all
                .iter()
                .map(|r| format!("{} in {}", r.qualified_name.as_deref().unwrap_or(name), r.file_path.as_deref().unwrap_or("?")))
                .take(5)
                .collect();
            if suggestions.is_empty() {
                let last = name.rsplit(['.', ':', '#']).next().unwrap_or(name);
                suggestions = store.names_like(last, 5)?.into_iter().map(|n| format!("`{n}`")).collect();
            }
            Err(AnalysisError::NotFound { what, name: name.to_string(), file, suggestions })
        }
        _ => {
            // Rows with the exact qualified name typed win over bare-name matches.
            let exact: Vec<&NodeRow> = rows.iter().filter(|r| r.qualified_name.as_deref() == Some(name)).collect();
            if exact.len() == 1 {
                return Ok(exact[0].clone());
            }
            Err(AnalysisError::Ambiguous { name: name.to_string(), candidates: rows.iter().map(candidate).collect() })
        }
    }
}

pub(crate) fn candidate(r: &NodeRow) -> Candidate {
    Candidate {
        node_type: r.label.clone(),
        name: r.name.clone().unwrap_or_default(),
        qualified_name: r.qualified_name.clone(),
        file_path: r.file_path.clone(),
        line_start: r.line_start,
    }
}

fn prop(r: &NodeRow, key: &str) -> Option<String> {
    match r.props.get(key)? {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The agent's view of a stored node.
pub(crate) fn context_node(r: &NodeRow) -> ContextNode {
    ContextNode {
        id: r.id,
        node_type: r.label.clone(),
        name: r.name.clone().unwrap_or_default(),
        qualified_name: r.qualified_name.clone(),
        file_path: r.file_path.clone(),
        line_start: r.line_start,
        line_end: r.line_end,
        language: prop(r, "language"),
        kind: prop(r, "kind"),
        docstring: prop(r, "docstring"),
        signature: prop(r, "signature"),
        description: prop(r, "description"),
        domain: prop(r, "domain"),
        status: prop(r, "status"),
        rationale: prop(r, "rationale"),
        alternatives: prop(r, "alternatives"),
        date: prop(r, "date"),
        relation: None,
        distance: None,
    }
}

/// The name an edge end is shown by: the qualified name, else the name.
pub(crate) fn display_name(r: &NodeRow) -> String {
    r.qualified_name.clone().or_else(|| r.name.clone()).unwrap_or_default()
}
