//! A context bundle as markdown a person can read: a heading for the target, its related
//! nodes grouped by relation, the relationships, and what could not be seen.

use std::fmt::Write as _;

use crate::types::{ContextBundle, ContextNode};

fn place(n: &ContextNode) -> String {
    match (&n.file_path, n.line_start, n.line_end) {
        (Some(f), Some(a), Some(b)) if a != b => format!("{f}:{a}-{b}"),
        (Some(f), Some(a), _) => format!("{f}:{a}"),
        (Some(f), None, _) => f.clone(),
        _ => String::new(),
    }
}

fn title(n: &ContextNode) -> String {
    n.qualified_name.clone().unwrap_or_else(|| n.name.clone())
}

/// Renders a bundle as markdown.
pub fn bundle_markdown(b: &ContextBundle) -> String {
    let mut s = String::new();
    let t = &b.target;
    let _ = writeln!(s, "# {} `{}`\n", t.node_type, title(t));
    let mut facts = vec![place(t)];
    facts.extend(t.language.clone());
    facts.extend(t.kind.clone());
    facts.retain(|f| !f.is_empty());
    if !facts.is_empty() {
        let _ = writeln!(s, "{}\n", facts.join(" · "));
    }
    if let Some(sig) = &t.signature {
        let _ = writeln!(s, "```\n{sig}\n```\n");
    }
    for text in [&t.docstring, &t.description, &t.rationale].into_iter().flatten() {
        let _ = writeln!(s, "> {}\n", text.replace('\n', "\n> "));
    }
    if !b.outline.is_empty() {
        let _ = writeln!(s, "## Outline\n\n```");
        for l in &b.outline {
            let _ = writeln!(s, "{l}");
        }
        let _ = writeln!(s, "```\n");
    }
    if let Some(src) = &b.source {
        if !src.text.is_empty() {
            let _ = writeln!(s, "## Source ({}:{}-{})\n\n```\n{}```\n", src.file_path, src.line_start, src.line_end, src.text);
        }
    }
    if !b.nodes.is_empty() {
        let _ = writeln!(s, "## Related nodes\n");
        let mut relations: Vec<&str> = Vec::new();
        for n in &b.nodes {
            let r = n.relation.as_deref().unwrap_or("related");
            if !relations.contains(&r) {
                relations.push(r);
            }
        }
        for r in relations {
            let _ = writeln!(s, "### {r}\n");
            for n in b.nodes.iter().filter(|n| n.relation.as_deref().unwrap_or("related") == r) {
                let dist = n.distance.filter(|d| *d > 1).map(|d| format!(" (distance {d})")).unwrap_or_default();
                let at = place(n);
                let at = if at.is_empty() { String::new() } else { format!(" — {at}") };
                let sig = n.signature.as_deref().map(|g| format!(": `{}`", g.split_whitespace().collect::<Vec<_>>().join(" "))).unwrap_or_default();
                let amb = if n.resolution.as_deref() == Some("ambiguous") { " (ambiguous)" } else { "" };
                let _ = writeln!(s, "- {} `{}`{at}{dist}{amb}{sig}", n.node_type, title(n));
            }
            s.push('\n');
        }
    }
    if !b.edges.is_empty() {
        let _ = writeln!(s, "## Relationships\n");
        for e in &b.edges {
            let mut extra = Vec::new();
            extra.extend(e.resolution.clone());
            if let (Some(f), Some(l)) = (&e.file_path, e.line) {
                extra.push(format!("{f}:{l}"));
            }
            let extra = if extra.is_empty() { String::new() } else { format!(" ({})", extra.join(", ")) };
            let (from, to) = b.edge_names(e);
            let _ = writeln!(s, "- `{from}` —{}→ `{to}`{extra}", e.edge_type);
        }
        s.push('\n');
    }
    let m = &b.metadata;
    if m.unresolved_count > 0 {
        let _ = writeln!(s, "## Unresolved ({})\n", m.unresolved_count);
        for u in &m.unresolved {
            let from = u.from.as_deref().map(|f| format!(" in `{f}`")).unwrap_or_default();
            let _ = writeln!(s, "- {} `{}` at {}:{}{from}", u.kind, u.name, u.file_path, u.line);
        }
        s.push('\n');
    }
    if !m.notes.is_empty() {
        let _ = writeln!(s, "## Notes\n");
        for n in &m.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    s.trim_end().to_string() + "\n"
}

/// Most calls drawn in a `context` call graph (GitHub renders up to 500 edges; a reader
/// takes in far fewer).
const CALL_GRAPH_EDGES: usize = 30;

/// `context` as markdown: the bundle, then a Mermaid call graph of the file's symbols (the
/// calls among them, out of them and into them; `exact` and `inferred` edges, inferred
/// dashed), at most [`CALL_GRAPH_EDGES`] edges, with a line saying how many were left out.
pub fn context_markdown(store: &navegador_store::Store, b: &ContextBundle) -> crate::Result<String> {
    let mut s = bundle_markdown(b);
    let Some(file) = b.target.file_path.as_deref() else { return Ok(s) };
    if let Some(graph) = call_graph(store, file)? {
        s.push_str("\n## Call graph\n\n```mermaid\n");
        s.push_str(&graph);
        s.push_str("```\n");
    }
    Ok(s)
}

fn call_graph(store: &navegador_store::Store, file: &str) -> crate::Result<Option<String>> {
    use crate::export::mermaid;
    use std::collections::{BTreeMap, HashSet};
    let rows = store.nodes_in_file(file)?;
    let local: HashSet<i64> = rows.iter().map(|r| r.id).collect();
    let mut seen = HashSet::new();
    let (mut inner, mut outer) = (Vec::new(), Vec::new());
    for r in &rows {
        for outgoing in [true, false] {
            for e in store.edges_of(r.id, outgoing, Some("CALLS"))? {
                if !crate::MinResolution::Inferred.admits(e.resolution.as_deref()) || !seen.insert((e.src, e.dst)) {
                    continue;
                }
                if local.contains(&e.src) && local.contains(&e.dst) {
                    inner.push(e);
                } else {
                    outer.push(e);
                }
            }
        }
    }
    let total = inner.len() + outer.len();
    if total == 0 {
        return Ok(None);
    }
    let shown: Vec<_> = inner.into_iter().chain(outer).take(CALL_GRAPH_EDGES).collect();
    let mut names: BTreeMap<i64, String> = BTreeMap::new();
    for e in &shown {
        for id in [e.src, e.dst] {
            if names.contains_key(&id) {
                continue;
            }
            let name = match rows.iter().find(|r| r.id == id) {
                Some(r) => r.qualified_name.clone().or_else(|| r.name.clone()).unwrap_or_default(),
                None => store
                    .node(id)?
                    .map(|r| {
                        let n = r.qualified_name.or(r.name).unwrap_or_default();
                        match r.file_path {
                            Some(f) => format!("{n} ({f})"),
                            None => n,
                        }
                    })
                    .unwrap_or_default(),
            };
            names.insert(id, name);
        }
    }
    let mut g = String::from("flowchart LR\n");
    for (id, name) in &names {
        let _ = writeln!(g, "  {}[\"{}\"]", mermaid::id(&id.to_string()), mermaid::label(name));
    }
    for e in &shown {
        let dashed = e.resolution.as_deref() == Some("inferred");
        let _ = writeln!(g, "{}", mermaid::edge_line(&mermaid::id(&e.src.to_string()), &mermaid::id(&e.dst.to_string()), "CALLS", dashed));
    }
    if total > shown.len() {
        let _ = writeln!(g, "  %% {} of {total} calls shown", shown.len());
        let _ = writeln!(g, "  more[\"… {} more calls; full=true lists them\"]", total - shown.len());
    }
    Ok(Some(g))
}
