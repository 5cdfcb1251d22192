//! `code.find_symbol`: definitions by name from the graph (an indexed lookup, no parsing).

use navegador_store::DefinitionRow;
use serde_json::{json, Map, Value};

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
                let item = json!({"symbol": d.name, "kind": k, "path": d.file_path, "line": d.line, "language": language_of(&d.file_path)});
                (rank(&d.name, symbol.trim(), &needle), item, d)
            })
        })
        .collect();
    // Exact answers in the contract's order; fuzzy ones best match first, then that order.
    hits.sort_by(|a, b| {
        (a.0, &a.2.file_path, a.2.line, &a.2.name, a.1["kind"].as_str()).cmp(&(b.0, &b.2.file_path, b.2.line, &b.2.name, b.1["kind"].as_str()))
    });
    let total = hits.len();
    let items: Vec<Value> = hits.into_iter().take(limit).map(|h| h.1).collect();
    let returned = items.len();
    s.count("returnedCount", Some(returned));
    s.count("totalMatched", Some(total));
    let mut errors = index_notes(cx);
    let summary = if returned < total {
        s.meta.truncated = true;
        errors.insert(0, ErrorItem::truncated(returned, Some(total), limit));
        format!("Found {} for '{}' and returned a truncated subset.", plural(total, "symbol definition", "symbol definitions"), symbol.trim())
    } else {
        format!("Found {} for '{}'.", plural(total, "symbol definition", "symbol definitions"), symbol.trim())
    };
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
