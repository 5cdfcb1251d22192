//! In-code annotations: a comment `navegador: rule <Name>`, `concept <Name>`,
//! `decision <Name>` or `domain <Name>` directly above a definition links it (comments,
//! blank lines, decorators and attributes may sit between). With no definition below, the
//! file is linked. Unknown names create the knowledge node.

use navegador_model::{EdgeType, Label};
use navegador_store::{IngestTx, Link, LinkTarget, NodeRow};
use serde_json::{json, Map};

use navegador_store::StoreError;

/// The marker that starts an annotation inside a comment.
pub const MARKER: &str = "navegador:";

/// One annotation as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub label: Label,
    pub name: String,
    pub line: u32,
}

/// The annotations of a source text.
pub fn scan(text: &str) -> Vec<Annotation> {
    let mut out = Vec::new();
    if !text.contains(MARKER) {
        return out;
    }
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find(MARKER) else { continue };
        // Only comment punctuation may precede the marker.
        if !line[..at].chars().all(|c| c.is_whitespace() || "#/*-;!\"'".contains(c)) || line[..at].trim().is_empty() {
            continue;
        }
        let rest = line[at + MARKER.len()..].trim();
        let Some((kind, name)) = rest.split_once(char::is_whitespace) else { continue };
        let label = match kind.to_lowercase().as_str() {
            "rule" => Label::Rule,
            "concept" => Label::Concept,
            "decision" => Label::Decision,
            "domain" => Label::Domain,
            _ => continue,
        };
        let name = name.trim().trim_end_matches("*/").trim_end_matches("\"\"\"").trim_end_matches("-->").trim();
        if !name.is_empty() {
            out.push(Annotation { label, name: name.to_string(), line: i as u32 + 1 });
        }
    }
    out
}

fn is_code_line(l: &str) -> bool {
    let t = l.trim();
    !(t.is_empty()
        || t.starts_with("//")
        || t.starts_with('#') && !t.starts_with("#[")
        || t.starts_with("/*")
        || t.starts_with('*')
        || t.starts_with("--")
        || t.starts_with('@')
        || t.starts_with("#["))
}

/// The definition an annotation at `line` is above: the first one starting after it, up
/// to the next line of code.
pub fn target<'a>(text: &str, line: u32, defs: &'a [NodeRow]) -> Option<&'a NodeRow> {
    let next_code = text.lines().enumerate().skip(line as usize).find(|(_, l)| is_code_line(l)).map(|(i, _)| i as u32 + 1)?;
    defs.iter().find(|d| d.line_start.is_some_and(|s| s > line && s <= next_code))
}

/// Re-reads a file's annotations into links (replacing the file's previous ones).
pub fn refresh_file(tx: &IngestTx<'_>, path: &str, text: &str) -> Result<usize, StoreError> {
    tx.delete_links("annotation", Some(path))?;
    let found = scan(text);
    if found.is_empty() {
        return Ok(0);
    }
    let defs = tx.reader().definitions_in(path)?;
    for a in &found {
        let (label, qname) = match target(text, a.line, &defs) {
            Some(d) => (d.label.clone(), d.qualified_name.clone().or(d.name.clone()).unwrap_or_default()),
            None => ("File".to_string(), path.to_string()),
        };
        // An existing node (an ADR's decision, a hand-added rule) is linked, not rewritten.
        let knode = match tx.reader().knowledge_by_key(a.label, &a.name)? {
            Some(n) => n.id,
            None => {
                let mut props = Map::new();
                props.insert("source".into(), json!("annotation"));
                tx.upsert_knowledge(a.label, &a.name, None, props)?.0
            }
        };
        let (edge_type, code_is_src) = match a.label {
            Label::Decision => (EdgeType::Governs, false),
            Label::Domain => (EdgeType::BelongsTo, true),
            _ => (EdgeType::Annotates, false),
        };
        tx.add_link(&Link {
            id: 0,
            knode,
            edge_type,
            code_is_src,
            target: LinkTarget::Exact { label, qualified_name: qname, file_path: path.to_string() },
            origin: "annotation".into(),
            origin_path: Some(path.to_string()),
            line: Some(a.line),
            source: Some("annotation".into()),
        })?;
    }
    Ok(found.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_in_comments_only() {
        let got = scan("# navegador: rule No SQL in views\nx = 'navegador: rule Nope'\n// navegador: concept Order\n/* navegador: decision Use Postgres */\n# navegador: owner x\n");
        let got: Vec<_> = got.iter().map(|a| (a.label, a.name.as_str(), a.line)).collect();
        assert_eq!(got, vec![(Label::Rule, "No SQL in views", 1), (Label::Concept, "Order", 3), (Label::Decision, "Use Postgres", 4)]);
    }
}
