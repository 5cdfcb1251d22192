//! From what an agent types (a name, a qualified name, a file path) to one node, or to
//! the candidates when there are several.

use navegador_model::is_test_path;
use navegador_store::{NodeRow, Store};

use crate::types::{Candidate, ContextNode, Selector};
use crate::{AnalysisError, Result, Target};

/// Labels that are sites rather than definitions: matched only when nothing else is (an
/// Endpoint is named after its handler, which is the definition meant).
pub(crate) const SITE_LABELS: &[&str] = &["Import", "Decorator", "Endpoint"];

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

/// The segments of a qualified name as typed or stored: `a.b.C.m`, `a::b::m`, `C#m`,
/// `pkg/mod.f` all split where a language separates scopes.
fn segments(q: &str) -> Vec<&str> {
    q.split(['.', ':', '#', '/', '\\']).filter(|s| !s.is_empty()).collect()
}

/// True when the typed name's segments are the last segments of `qualified` (whole
/// segments: `Field.deconstruct` is `...fields.Field.deconstruct`, never
/// `...CharField.deconstruct`).
fn ends_with_segments(qualified: &str, typed: &[&str]) -> bool {
    let q = segments(qualified);
    q.len() >= typed.len() && q[q.len() - typed.len()..] == *typed
}

/// The nodes a name names: its exact name or qualified name, else (`Class.method`,
/// `pkg.mod.func`, `mod::Type`) the nodes named by its last segment whose qualified name
/// ends with all its segments.
pub(crate) fn named(store: &Store, name: &str) -> Result<Vec<NodeRow>> {
    let rows = store.nodes_by_name_or_qname(name)?;
    let typed = segments(name);
    if !rows.is_empty() || typed.len() < 2 {
        return Ok(rows);
    }
    Ok(store
        .nodes_by_name_or_qname(typed[typed.len() - 1])?
        .into_iter()
        .filter(|r| r.qualified_name.as_deref().is_some_and(|q| ends_with_segments(q, &typed)))
        .collect())
}

/// Splits a trailing `:LINE` off a name or path (`app/models.py:12`).
pub(crate) fn split_line(s: &str) -> (&str, Option<u32>) {
    match s.rsplit_once(':') {
        Some((head, tail)) if !head.is_empty() && !head.ends_with(':') && !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) => {
            (head, tail.parse().ok())
        }
        _ => (s, None),
    }
}

/// A resolved target and what the lookup had to decide to find it.
pub(crate) struct Found {
    pub row: NodeRow,
    pub notes: Vec<String>,
}

/// Finds the one node `target` means among `labels` (any label when empty). Several
/// matches are narrowed by `file` and `line`, then by an exact qualified name, then by
/// preferring the one definition outside tests (said in a note); otherwise the answer is
/// the candidates, each with the arguments that select it.
pub(crate) fn resolve(store: &Store, target: &Target<'_>, labels: &[&str], what: &'static str) -> Result<Found> {
    let (name, name_line) = split_line(target.name.trim());
    if name.is_empty() {
        return Err(AnalysisError::Empty { field: "name" });
    }
    let (file, file_line) = match target.file.map(str::trim).filter(|f| !f.is_empty()) {
        Some(f) => {
            let (f, l) = split_line(f);
            (Some(norm_path(f)), l)
        }
        None => (None, None),
    };
    let line = target.line.or(file_line).or(name_line);
    let mut rows = named(store, name)?;
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
    if let Some(l) = line {
        // The definitions that hold the line; of those, the innermost.
        let holding: Vec<NodeRow> = rows
            .iter()
            .filter(|r| r.line_start.is_some_and(|a| a <= l) && r.line_end.or(r.line_start).is_some_and(|b| l <= b))
            .cloned()
            .collect();
        let span = |r: &NodeRow| r.line_end.unwrap_or(0).saturating_sub(r.line_start.unwrap_or(0));
        let inner = holding.iter().map(span).min();
        rows = holding.into_iter().filter(|r| Some(span(r)) == inner).collect();
    }
    match rows.len() {
        1 => Ok(Found { row: rows.pop().unwrap(), notes: Vec::new() }),
        0 => {
            let mut suggestions: Vec<String> = all
                .iter()
                .map(|r| {
                    let at = r.line_start.map(|l| format!(":{l}")).unwrap_or_default();
                    format!("{} in {}{at}", r.qualified_name.as_deref().unwrap_or(name), r.file_path.as_deref().unwrap_or("?"))
                })
                .take(5)
                .collect();
            if suggestions.is_empty() {
                let typed = segments(name);
                let last = typed.last().copied().unwrap_or(name);
                suggestions = store.names_like(last, 5)?.into_iter().map(|n| format!("`{n}`")).collect();
            }
            let file = match (file, line) {
                (Some(f), Some(l)) => Some(format!("{f} at line {l}")),
                (None, Some(l)) => Some(format!("any file at line {l}")),
                (f, None) => f,
            };
            Err(AnalysisError::NotFound { what, name: name.to_string(), file, suggestions })
        }
        _ => {
            // Rows with the exact qualified name typed win over bare-name matches.
            let exact: Vec<&NodeRow> = rows.iter().filter(|r| r.qualified_name.as_deref() == Some(name)).collect();
            if exact.len() == 1 {
                return Ok(Found { row: exact[0].clone(), notes: Vec::new() });
            }
            // One definition in source, the others in tests: the source one is meant.
            let (tests, source): (Vec<&NodeRow>, Vec<&NodeRow>) =
                rows.iter().partition(|r| r.file_path.as_deref().is_some_and(is_test_path));
            if source.len() == 1 && file.is_none() {
                let others: Vec<String> = tests
                    .iter()
                    .take(3)
                    .map(|r| format!("{} in {}", display_name(r), r.file_path.as_deref().unwrap_or("?")))
                    .collect();
                let more = if tests.len() > 3 { format!(" and {} more", tests.len() - 3) } else { String::new() };
                let note = format!(
                    "`{name}` also names {} node{} in tests ({}{more}); pass `file` to pick one",
                    tests.len(),
                    if tests.len() == 1 { "" } else { "s" },
                    others.join(", ")
                );
                return Ok(Found { row: source[0].clone(), notes: vec![note] });
            }
            Err(ambiguous(name, &rows))
        }
    }
}

/// Candidates listed in a "matches several nodes" answer (all are counted).
const MAX_CANDIDATES: usize = 20;

/// The "matches several nodes" answer: source before tests, each candidate with the
/// fewest arguments that select it (a qualified name; `file` when the name is shared;
/// `line` when file and name are too, as for overloads).
pub(crate) fn ambiguous(name: &str, rows: &[NodeRow]) -> AnalysisError {
    let mut rows: Vec<&NodeRow> = rows.iter().collect();
    rows.sort_by_key(|r| (r.file_path.as_deref().is_some_and(is_test_path), r.file_path.clone(), r.line_start));
    let key = |r: &NodeRow| r.qualified_name.clone().or(r.name.clone()).unwrap_or_default();
    let candidates = rows
        .iter()
        .take(MAX_CANDIDATES)
        .map(|r| {
            let q = key(r);
            let same_name: Vec<&&NodeRow> = rows.iter().filter(|o| key(o) == q).collect();
            let need_file = same_name.len() > 1;
            let need_line = same_name.iter().filter(|o| o.file_path == r.file_path).count() > 1;
            let mut c = candidate(r);
            c.select = Selector {
                name: q,
                file: if need_file || need_line { r.file_path.clone() } else { None },
                line: if need_line { r.line_start } else { None },
            };
            c
        })
        .collect();
    AnalysisError::Ambiguous { name: name.to_string(), candidates, total: rows.len() }
}

pub(crate) fn candidate(r: &NodeRow) -> Candidate {
    Candidate {
        node_type: r.label.clone(),
        name: r.name.clone().unwrap_or_default(),
        qualified_name: r.qualified_name.clone(),
        file_path: r.file_path.clone(),
        line_start: r.line_start,
        signature: prop(r, "signature"),
        select: Selector { name: display_name(r), file: r.file_path.clone(), line: None },
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
        resolution: None,
    }
}

/// A related node as listed beside a target: the first line of its docstring only (the
/// whole one is an answer about that node), no `language` when it is the target's, and a
/// File as its path alone (its qualified name is the path, its lines the whole file).
pub(crate) fn related_node(r: &NodeRow, target_language: Option<&str>) -> ContextNode {
    let mut n = context_node(r);
    if let Some(d) = &n.docstring {
        let first = d.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
        n.docstring = (!first.is_empty()).then(|| clip(first, 120));
    }
    if n.language.is_some() && n.language.as_deref() == target_language {
        n.language = None;
    }
    if n.node_type == "File" {
        n.qualified_name = None;
        n.line_start = None;
        n.line_end = None;
    }
    n
}

/// `s` cut to at most `max` characters, an ellipsis marking the cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// The name an edge end is shown by: the qualified name, else the name.
pub(crate) fn display_name(r: &NodeRow) -> String {
    r.qualified_name.clone().or_else(|| r.name.clone()).unwrap_or_default()
}
