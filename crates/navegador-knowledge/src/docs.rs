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
    /// When the file last changed (`2024-05-01T12:00:00Z`), for wiki pages.
    pub updated_at: Option<String>,
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
    Doc { title, content, mentions: markdown::mentions(text), updated_at: None }
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
    props.insert("updated_at".into(), json!(doc.updated_at));
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

/// Seconds since the Unix epoch as an RFC 3339 UTC timestamp (civil-from-days, Howard
/// Hinnant's algorithm; no date library for one field).
pub fn utc_date_time(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_date_time() {
        assert_eq!(super::utc_date_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc_date_time(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::utc_date_time(1_764_460_800 + 3_723), "2025-11-30T01:02:03Z");
    }
}
