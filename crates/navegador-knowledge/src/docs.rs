//! Markdown documents (`docs/**/*.md`, found by ingest) and wiki pages (`navegador wiki
//! ingest DIR`): one Document or WikiPage node per file, identified by its path; every
//! backticked name or path, and every relative link, that matches code becomes a DOCUMENTS
//! link.

use navegador_model::{EdgeType, Label};
use navegador_store::{IngestTx, Link, LinkTarget};
use serde_json::{json, Map};

use crate::markdown::{self, Mention};
use navegador_store::StoreError;

/// Content longer than this is cut (the full text stays in the file).
const MAX_CONTENT: usize = 64 * 1024;

/// One parsed markdown file.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub title: String,
    pub content: String,
    pub mentions: Vec<Mention>,
}

/// Reads a markdown file: the title is the front matter `title`, else the first heading,
/// else the file name.
pub fn parse(path: &str, text: &str) -> Doc {
    let lines: Vec<&str> = text.lines().collect();
    let (mut title, body_start) = match markdown::front_matter(&lines) {
        Ok(Some(fm)) => (fm.pairs.iter().find(|(k, _, _)| k == "title").map(|(_, v, _)| v.clone()), fm.body_start),
        _ => (None, 0),
    };
    if title.is_none() {
        title = lines.iter().skip(body_start).find_map(|l| markdown::heading(l).map(|(_, h)| h.to_string()));
    }
    let title = title.unwrap_or_else(|| {
        let file = path.rsplit('/').next().unwrap_or(path);
        file.strip_suffix(".md").unwrap_or(file).to_string()
    });
    let mut content = text.to_string();
    if content.len() > MAX_CONTENT {
        let mut cut = MAX_CONTENT;
        while !content.is_char_boundary(cut) {
            cut -= 1;
        }
        content.truncate(cut);
    }
    Doc { title, content, mentions: markdown::mentions(text) }
}

/// Writes a Document or WikiPage (updated in place when its path is known) and its links.
/// `origin` is `doc` or `wiki`.
pub fn write(tx: &IngestTx<'_>, label: Label, path: &str, doc: &Doc, origin: &str) -> Result<i64, StoreError> {
    let mut props = Map::new();
    props.insert("path".into(), json!(path));
    props.insert("title".into(), json!(doc.title));
    props.insert("content".into(), json!(doc.content));
    props.insert("source".into(), json!(origin));
    props.insert("source_path".into(), json!(path));
    let (id, _) = tx.upsert_knowledge(label, &doc.title, Some(path), props)?;
    tx.delete_links(origin, Some(path))?;
    for m in &doc.mentions {
        tx.add_link(&Link {
            id: 0,
            knode: id,
            edge_type: EdgeType::Documents,
            code_is_src: false,
            target: LinkTarget::Mention(m.text.clone()),
            origin: origin.into(),
            origin_path: Some(path.to_string()),
            line: Some(m.line),
            source: Some(format!("{origin}:{path}:{}", m.line)),
        })?;
    }
    Ok(id)
}
