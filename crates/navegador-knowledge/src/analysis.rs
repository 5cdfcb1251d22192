//! Questions agents ask of the knowledge layer, as plain structs (the CLI and the MCP
//! server render them): why is this code like this (`get_rationale`), who owns it
//! (`find_owners`), what belongs to a concept or domain (`members`), and search.

use navegador_model::{EdgeType, Label};
use navegador_store::{NodeRow, Reader, SearchHit, KNOWLEDGE_LABELS};

use crate::{describe, KnowledgeError, Result};

/// Finds the node a name means: code first (name, qualified name or path, in `file` when
/// given), else knowledge (case-insensitive). Several code matches are an error listing
/// them.
pub fn resolve_subject(r: &Reader<'_>, name: &str, file: Option<&str>) -> Result<NodeRow> {
    let mut code = r.code_named(name, file)?;
    match code.len() {
        1 => return Ok(code.remove(0)),
        0 => {}
        _ => {
            // One class and its same-named constructor file, etc.: prefer a unique definition
            // over the File node.
            let defs: Vec<NodeRow> = code.iter().filter(|n| n.label != "File").cloned().collect();
            if defs.len() == 1 {
                return Ok(defs.into_iter().next().unwrap());
            }
            return Err(KnowledgeError::Ambiguous { name: name.into(), candidates: code.iter().map(describe).collect() });
        }
    }
    if file.is_none() {
        if let Some(k) = r.knowledge_named(None, name)?.into_iter().next() {
            return Ok(k);
        }
    }
    Err(KnowledgeError::NotFound { name: name.into(), file: file.map(str::to_string) })
}

/// A Decision or Rule that bears on a node.
#[derive(Debug, Clone)]
pub struct RationaleEntry {
    pub node: NodeRow,
    /// GOVERNS, ANNOTATES or DOCUMENTS.
    pub edge_type: String,
    /// How it reaches the subject: `direct`, `class <qname>`, `file <path>`, `domain <name>`.
    pub via: String,
    pub rationale: Option<String>,
}

/// The answer of [`get_rationale`].
#[derive(Debug, Clone)]
pub struct Rationale {
    pub subject: NodeRow,
    /// For code: the decisions and rules that govern, annotate or document it, nearest first.
    pub entries: Vec<RationaleEntry>,
    /// For a knowledge node (Decision, Rule, Document, ...): what it governs, annotates or
    /// documents.
    pub governs: Vec<(String, NodeRow)>,
}

fn prop(n: &NodeRow, k: &str) -> Option<String> {
    n.props.get(k).and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The subject itself, its enclosing definitions, its file, and the domains any of them
/// belong to, each with how it was reached.
fn anchors(r: &Reader<'_>, subject: &NodeRow) -> Result<Vec<(NodeRow, String)>> {
    let mut out = vec![(subject.clone(), "direct".to_string())];
    if subject.file_path.is_some() && subject.label != "File" {
        for a in r.ancestors(subject.id)? {
            let q = a.qualified_name.clone().or(a.name.clone()).unwrap_or_default();
            out.push((a.clone(), format!("{} {q}", a.label.to_lowercase())));
        }
        if let Some(f) = r.file_node(subject.file_path.as_deref().unwrap_or_default())? {
            let p = f.file_path.clone().unwrap_or_default();
            out.push((f, format!("file {p}")));
        }
    }
    let mut domains = Vec::new();
    for (a, _) in &out {
        for n in r.neighbors(a.id, true, &[EdgeType::BelongsTo])? {
            if n.node.label == "Domain" && !domains.iter().any(|(d, _): &(NodeRow, String)| d.id == n.node.id) {
                let name = n.node.name.clone().unwrap_or_default();
                domains.push((n.node, format!("domain {name}")));
            }
        }
    }
    out.extend(domains);
    Ok(out)
}

/// For a code node, the Decision and Rule nodes that govern, annotate or document it,
/// directly or through its class, file or domain, with their rationale; for a knowledge
/// node (a Decision or Rule, a document), itself with what it governs or documents.
pub fn get_rationale(r: &Reader<'_>, name: &str, file: Option<&str>) -> Result<Rationale> {
    let subject = resolve_subject(r, name, file)?;
    let kinds = [EdgeType::Governs, EdgeType::Annotates, EdgeType::Documents];
    // Knowledge (a decision, rule, document, concept): what it governs, annotates or
    // documents, besides the decisions and rules that bear on it.
    let governs = if subject.file_path.is_none() {
        r.neighbors(subject.id, true, &kinds)?.into_iter().map(|n| (n.edge_type, n.node)).collect()
    } else {
        Vec::new()
    };
    let mut entries: Vec<RationaleEntry> = Vec::new();
    for (anchor, via) in anchors(r, &subject)? {
        for n in r.neighbors(anchor.id, false, &kinds)? {
            if !matches!(n.node.label.as_str(), "Decision" | "Rule") || entries.iter().any(|e| e.node.id == n.node.id) {
                continue;
            }
            let rationale = prop(&n.node, "rationale").or_else(|| prop(&n.node, "description"));
            entries.push(RationaleEntry { node: n.node, edge_type: n.edge_type, via: via.clone(), rationale });
        }
    }
    Ok(Rationale { subject, entries, governs })
}

/// A Person or Domain owning a node.
#[derive(Debug, Clone)]
pub struct Owner {
    pub node: NodeRow,
    /// Where the claim comes from: `codeowners:<pattern>`, `annotation`, `domain`.
    pub source: String,
    /// How it reaches the subject: `direct`, `class <qname>`, `file <path>`, `domain <name>`.
    pub via: String,
}

/// Person and Domain nodes owning a node, nearest first: its own, its class's, its file's
/// (CODEOWNERS), then its domains'.
pub fn find_owners(r: &Reader<'_>, name: &str, file: Option<&str>) -> Result<(NodeRow, Vec<Owner>)> {
    let subject = resolve_subject(r, name, file)?;
    let mut owners: Vec<Owner> = Vec::new();
    for (anchor, via) in anchors(r, &subject)? {
        if anchor.label == "Domain" && anchor.id != subject.id && !owners.iter().any(|o| o.node.id == anchor.id) {
            owners.push(Owner { node: anchor.clone(), source: "domain".into(), via: via.clone() });
        }
        for n in r.neighbors(anchor.id, true, &[EdgeType::AssignedTo])? {
            if n.node.label != "Person" || owners.iter().any(|o| o.node.id == n.node.id) {
                continue;
            }
            let source = n.edge_props.get("source").and_then(|v| v.as_str()).unwrap_or("annotation").to_string();
            owners.push(Owner { node: n.node, source, via: via.clone() });
        }
    }
    Ok((subject, owners))
}

/// A node related to a concept or domain, and how.
#[derive(Debug, Clone)]
pub struct Member {
    pub node: NodeRow,
    pub edge_type: String,
    /// The member is the edge's source (it points at the subject).
    pub incoming: bool,
}

/// Everything belonging to a Concept or Domain (or any knowledge node): the nodes joined
/// to it by an edge, either way, by label then name.
pub fn members(r: &Reader<'_>, label: Label, name: &str) -> Result<(NodeRow, Vec<Member>)> {
    let subject = r
        .knowledge_named(Some(label), name)?
        .into_iter()
        .next()
        .ok_or_else(|| KnowledgeError::NotFound { name: name.into(), file: None })?;
    let mut out: Vec<Member> = Vec::new();
    for (incoming, list) in [(true, r.neighbors(subject.id, false, &[])?), (false, r.neighbors(subject.id, true, &[])?)] {
        for n in list {
            out.push(Member { node: n.node, edge_type: n.edge_type, incoming });
        }
    }
    out.sort_by(|a, b| (&a.node.label, &a.node.name, a.node.id).cmp(&(&b.node.label, &b.node.name, b.node.id)));
    Ok((subject, out))
}

/// What `search` looks through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchScope {
    /// Files and definitions (names, qualified names, docstrings, signatures).
    Code,
    /// Code plus documents and wiki pages.
    CodeAndDocs,
    /// Knowledge nodes only.
    Knowledge,
    /// Everything.
    All,
}

/// Ranked search (`navegador_store`'s `search.rs`): exact names first, then source before
/// tests, definitions before files and variables, names whose words hold the query's
/// words, name prefixes, then BM25-ranked text matches. The best `limit` hits.
pub fn search(r: &Reader<'_>, query: &str, scope: SearchScope, limit: usize, exclude_tests: bool) -> Result<Vec<SearchHit>> {
    const CODE: [Label; 7] =
        [Label::File, Label::Module, Label::Class, Label::Function, Label::Method, Label::Variable, Label::Endpoint];
    let labels: Vec<Label> = match scope {
        SearchScope::Code => CODE.to_vec(),
        SearchScope::CodeAndDocs => CODE.iter().chain(&[Label::Document, Label::WikiPage]).copied().collect(),
        SearchScope::Knowledge => KNOWLEDGE_LABELS.to_vec(),
        SearchScope::All => Vec::new(),
    };
    Ok(r.search(query, &labels, limit, exclude_tests)?)
}
