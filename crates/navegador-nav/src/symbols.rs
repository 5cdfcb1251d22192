//! `code.find_symbol`: definitions by name from the graph (an indexed lookup, no parsing),
//! with their source text on request (`include_source`), read from the workspace and bounded.

use std::collections::HashMap;

use navegador_store::DefinitionRow;
use serde_json::{json, Map, Value};

use crate::workspace::Workspace;

use crate::envelope::{plural, Envelope, ErrorItem};
use crate::workspace::{framework_names, in_scope, language_matches, language_names, language_of};
use crate::{backend_error, index_notes, Context, Start};

pub const KINDS: &[&str] = &["any", "class", "interface", "function", "method", "type", "enum", "constructor", "annotation"];

/// The public kind of a definition (the contract's closed set).
pub fn public_kind(label: &str, kind: Option<&str>) -> &'static str {
    match (label, kind.unwrap_or("")) {
        ("Class", "interface" | "trait" | "protocol") => "interface",
        ("Class", "enum") => "enum",
        ("Class", "type" | "typedef" | "alias") => "type",
        ("Class", "annotation") => "annotation",
        ("Class", _) => "class",
        ("Method", "constructor") => "constructor",
        ("Method", _) => "method",
        _ => "function",
    }
}

pub(crate) fn empty() -> Value {
    json!({"count": 0, "returnedCount": 0, "totalMatched": 0, "items": []})
}

pub fn find_symbol(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut s = Start::new("code.find_symbol", raw, empty());
    let symbol = s.args.required_str("symbol");
    let language = s.args.optional_enum("language", &language_names());
    let framework = s.args.optional_enum("framework", &framework_names());
    let kind = s.args.enum_or("kind", KINDS, "any");
    let mode = s.args.enum_or("match", &["exact", "fuzzy"], "exact");
    let path = s.args.optional_str("path");
    let limit = s.args.int("limit", 50, 1, 200) as usize;
    let include_source = s.args.bool("include_source", false);
    s.detection(language.as_deref(), framework.as_deref());
    let scope = match s.ready(cx.workspace, path.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let want_lang = crate::workspace::effective_language(language.as_deref(), framework.as_deref());
    let fuzzy = mode == "fuzzy";
    let rows = match cx.store {
        None => Vec::new(),
        Some(store) => match store.definitions_named(symbol.trim(), fuzzy, Some(&scope.rel)) {
            Ok(r) => r,
            Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
        },
    };
    let needle = symbol.trim().to_lowercase();
    let mut hits: Vec<(u8, Value, DefinitionRow)> = rows
        .into_iter()
        .filter(|d| in_scope(&d.file_path, &scope.rel))
        .filter(|d| language_matches(language_of(&d.file_path), want_lang.as_deref()))
        .filter_map(|d| {
            let k = public_kind(&d.label, d.kind.as_deref());
            (kind == "any" || kind == k).then(|| {
                let item = json!({"symbol": d.name, "kind": k, "path": d.file_path, "line": d.line, "endLine": d.line_end.max(d.line),
                                  "language": language_of(&d.file_path)});
                (rank(&d.name, symbol.trim(), &needle), item, d)
            })
        })
        .collect();
    // Exact answers in the contract's order; fuzzy ones best match first, then that order.
    hits.sort_by(|a, b| {
        (a.0, &a.2.file_path, a.2.line, &a.2.name, a.1["kind"].as_str()).cmp(&(b.0, &b.2.file_path, b.2.line, &b.2.name, b.1["kind"].as_str()))
    });
    let total = hits.len();
    let mut sources = Sources::new(cx.workspace);
    let items: Vec<Value> = hits
        .into_iter()
        .take(limit)
        .map(|(_, mut item, d)| {
            if include_source {
                item["source"] = sources.of(&d);
            }
            item
        })
        .collect();
    let returned = items.len();
    s.count("returnedCount", Some(returned));
    s.count("totalMatched", Some(total));
    let mut errors = index_notes(cx);
    let mut summary = if returned < total {
        s.meta.truncated = true;
        errors.insert(0, ErrorItem::truncated(returned, Some(total), limit));
        format!("Found {} for '{}' and returned a truncated subset", plural(total, "symbol definition", "symbol definitions"), symbol.trim())
    } else {
        format!("Found {} for '{}'", plural(total, "symbol definition", "symbol definitions"), symbol.trim())
    };
    if sources.left_out > 0 {
        summary.push_str(&format!(
            "; the source of {} is left out (the answer's {} KB source budget is spent: narrow with path or kind)",
            plural(sources.left_out, "definition", "definitions"),
            SOURCE_BUDGET / 1024
        ));
    }
    summary.push('.');
    let data = json!({"count": total, "returnedCount": returned, "totalMatched": total, "items": items});
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}

/// 0 exact, 1 same ignoring case, 2 prefix, 3 contains (fuzzy ranking).
fn rank(name: &str, symbol: &str, needle: &str) -> u8 {
    if name == symbol {
        0
    } else {
        let lower = name.to_lowercase();
        if lower == needle {
            1
        } else if lower.starts_with(needle) {
            2
        } else {
            3
        }
    }
}

/// At most this many lines of one definition's source are shown, and this many bytes.
const SOURCE_LINES: usize = 200;
const SOURCE_ITEM_BYTES: usize = 16 * 1024;
/// The source texts of one answer together stay under this.
const SOURCE_BUDGET: usize = 48 * 1024;

/// Source texts of definitions, each file read once per answer, within the budget.
struct Sources<'a> {
    ws: &'a Workspace,
    files: HashMap<String, Result<String, String>>,
    spent: usize,
    left_out: usize,
}

impl<'a> Sources<'a> {
    fn new(ws: &'a Workspace) -> Self {
        Sources { ws, files: HashMap::new(), spent: 0, left_out: 0 }
    }

    /// `{startLine, endLine, text, truncated, note}`: `text` null with a `note` when the file
    /// cannot give it (gone, binary, changed since indexing) or the budget is spent.
    fn of(&mut self, d: &DefinitionRow) -> Value {
        let (start, end) = (d.line.max(1) as usize, d.line_end.max(d.line).max(1) as usize);
        let mut out = json!({"startLine": start, "endLine": end, "text": null, "truncated": false, "note": null});
        if self.spent >= SOURCE_BUDGET {
            self.left_out += 1;
            out["note"] = json!("left out: the answer's source budget is spent");
            return out;
        }
        let ws = self.ws;
        let file = self.files.entry(d.file_path.clone()).or_insert_with(|| read_source(ws, &d.file_path));
        let text = match file {
            Ok(t) => t,
            Err(why) => {
                out["note"] = json!(why.clone());
                return out;
            }
        };
        let lines: Vec<&str> = text.lines().skip(start - 1).take(end - start + 1).collect();
        if lines.is_empty() {
            out["note"] = json!(format!("the file has fewer than {start} lines: it changed since it was indexed (retry once the index catches up)"));
            return out;
        }
        let mut shown = String::new();
        let mut cut = false;
        for (i, l) in lines.iter().enumerate() {
            if i == SOURCE_LINES || shown.len() + l.len() + 1 > SOURCE_ITEM_BYTES {
                cut = true;
                break;
            }
            shown.push_str(l);
            shown.push('\n');
        }
        self.spent += shown.len();
        if cut {
            let shown_lines = shown.lines().count();
            out["note"] = json!(format!("cut after {shown_lines} of {} lines", end - start + 1));
        }
        out["text"] = json!(shown);
        out["truncated"] = json!(cut);
        out
    }
}

/// A source file's text, or why it cannot be shown (read inside the workspace only).
fn read_source(ws: &Workspace, path: &str) -> Result<String, String> {
    let resolved = ws.resolve(path).map_err(|e| match e.code {
        crate::envelope::code::FILE_NOT_FOUND => "the file is gone since it was indexed (retry once the index catches up)".to_string(),
        _ => "the file resolves outside the workspace root".to_string(),
    })?;
    let bytes = std::fs::read(&resolved.abs).map_err(|e| format!("the file cannot be read: {e}"))?;
    if bytes.iter().take(8192).any(|&b| b == 0) {
        return Err("the file is binary".into());
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
