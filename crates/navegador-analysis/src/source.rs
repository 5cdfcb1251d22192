//! A symbol's source text for `include_source`: read from the workspace (never outside
//! it: the stored path is workspace-relative, symlinks are not followed), bounded in
//! lines, and when the file cannot give text (binary, vanished, shorter than the index
//! says) a reason instead, never a failed answer.

use std::path::{Component, Path};

use navegador_store::NodeRow;

use crate::types::SourceText;

/// The source of `node` (its whole file for a File), at most `max_lines` lines.
pub(crate) fn source_of(root: &Path, node: &NodeRow, max_lines: usize) -> SourceText {
    let file = node.file_path.clone().unwrap_or_default();
    let (start, end) = match (node.label.as_str(), node.line_start, node.line_end) {
        ("File", _, _) | (_, None, _) => (1, u32::MAX),
        (_, Some(a), b) => (a.max(1), b.unwrap_or(a).max(a)),
    };
    let mut out = SourceText { file_path: file.clone(), line_start: start, line_end: start, text: String::new(), truncated: false, unavailable: None };
    match read(root, &file) {
        Err(why) => out.unavailable = Some(why),
        Ok(bytes) => {
            if bytes.contains(&0) {
                out.unavailable = Some(format!("{file} is a binary file; no source text to show"));
                return out;
            }
            let text = String::from_utf8_lossy(&bytes);
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if (start as usize) > lines.len() {
                out.unavailable = Some(format!(
                    "{file} has {} lines now, the index says the symbol starts at line {start}: the file changed since it was indexed; re-index",
                    lines.len()
                ));
                return out;
            }
            let last = (end as usize).min(lines.len());
            let shown = (last + 1 - start as usize).min(max_lines);
            out.truncated = shown < last + 1 - start as usize || (end != u32::MAX && end as usize > lines.len());
            out.line_end = start + shown as u32 - 1;
            out.text = lines[start as usize - 1..start as usize - 1 + shown].concat();
        }
    }
    out
}

/// The bytes of a workspace-relative file, refusing anything that would leave the root.
fn read(root: &Path, rel: &str) -> Result<Vec<u8>, String> {
    let p = Path::new(rel);
    if rel.is_empty() || p.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(format!("`{rel}` is not a workspace-relative path; no source text read"));
    }
    // No component may be a symlink: nothing outside the root is read.
    let mut cur = root.to_path_buf();
    for c in p.components() {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => return Err(format!("{rel} goes through a symbolic link; its source is not read")),
            Ok(_) => {}
            Err(_) => return Err(format!("{rel} no longer exists in the workspace; re-index to drop it from the graph")),
        }
    }
    std::fs::read(&cur).map_err(|e| format!("cannot read {rel}: {e}"))
}
