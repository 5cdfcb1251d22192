//! `code.search_text` and `code.inspect_tree`: the filesystem tools, on ripgrep's crates
//! in-process (`navegador-search`), with the contract's filters, counts and caps.

use navegador_search::{SearchError, SearchRequest, TreeRequest};
use serde_json::{json, Map, Value};

use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::workspace::{effective_language, extensions_of, framework_names, language_names};
use crate::{Context, Start};

/// The entry cap of `inspect_tree`.
const TREE_CAP: usize = 2_000;

fn bad_glob(field: &str, msg: String) -> ErrorItem {
    ErrorItem::new(code::INVALID_INPUT, format!("`{field}` is not a valid glob: {msg}"))
        .suggestion("Use a glob such as '*.tsx' or 'src/**'.")
        .target(field.to_string())
        .detail("issues", json!([{"field": field, "message": msg, "type": "glob"}]))
}

pub(crate) fn search_empty() -> Value {
    json!({"fileCount": 0, "matchCount": 0, "totalFileCount": 0, "totalMatchCount": 0, "items": []})
}

fn io_error(e: impl std::fmt::Display) -> ErrorItem {
    ErrorItem::new(code::BACKEND_EXECUTION_FAILED, format!("Reading the workspace failed: {e}."))
        .suggestion("Check the path's permissions and retry.")
        .retryable()
}

pub fn search_text(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut s = Start::new("code.search_text", raw, search_empty());
    let query = s.args.required_str("query");
    let path = s.args.optional_str("path");
    let language = s.args.optional_enum("language", &language_names());
    let framework = s.args.optional_enum("framework", &framework_names());
    let include = s.args.optional_str("include");
    let regex = s.args.bool("regex", false);
    let context = s.args.int("context", 1, 0, 10) as usize;
    let limit = s.args.int("limit", 50, 1, 200) as usize;
    s.detection(language.as_deref(), framework.as_deref());
    let scope = match s.ready(cx.workspace, path.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let extensions = effective_language(language.as_deref(), framework.as_deref()).map(|l| extensions_of(&l));
    let req = SearchRequest { query: query.clone(), regex, context, limit, include, extensions, language_of: crate::workspace::language_of };
    let out = match navegador_search::search_text(cx.workspace.root(), &scope.abs, &req) {
        Ok(o) => o,
        Err(SearchError::InvalidRegex(msg)) => {
            let e = ErrorItem::new(code::INVALID_INPUT, format!("The query is not a valid regular expression: {msg}"))
                .suggestion("Fix the pattern, or pass regex: false to search for the text literally.")
                .target("query")
                .detail("issues", json!([{"field": "query", "message": msg, "type": "regex"}]));
            return s.fail("Invalid regular expression.", e);
        }
        Err(SearchError::InvalidGlob(msg)) => return s.fail("Request validation failed.", bad_glob("include", msg)),
        Err(SearchError::Io(msg)) => return s.fail("Searching the workspace failed.", io_error(msg)),
    };
    let mut data = serde_json::to_value(&out.data).expect("search data is JSON");
    let budget_cut = !s.args.given("limit") && fit_budget(&mut data);
    let n = |k: &str| data[k].as_u64().unwrap_or(0) as usize;
    let (files, matches, total_files, total_matches) = (n("fileCount"), n("matchCount"), n("totalFileCount"), n("totalMatchCount"));
    s.count("returnedFileCount", Some(files));
    s.count("totalFileCount", Some(total_files));
    s.count("returnedMatchCount", Some(matches));
    s.count("totalMatchCount", Some(total_matches));
    let mut errors = Vec::new();
    let mut summary =
        format!("Found {} in {} for '{}'.", plural(total_matches, "match", "matches"), plural(total_files, "file", "files"), query);
    if out.truncated || budget_cut {
        s.meta.truncated = true;
        let mut e = ErrorItem::truncated(files, Some(total_files), limit);
        if budget_cut {
            e = e
                .suggestion(format!("The default answer stops near {} KB: pass limit (files) to get more, or narrow with path or include.", SEARCH_BUDGET / 1024))
                .detail("returnedMatches", json!(matches));
        }
        errors.push(e);
        summary = summary.trim_end_matches('.').to_string() + " and returned a truncated subset.";
    }
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}

/// At the default `limit`, a search answer lists files (and a file its matches) until about
/// this many bytes; the totals still count everything.
const SEARCH_BUDGET: usize = 14 * 1024;

/// Cuts `items` (and the first item's matches, when it alone is too big) to the budget and
/// recounts `fileCount` / `matchCount`; true when anything was cut.
fn fit_budget(data: &mut Value) -> bool {
    let Some(items) = data.get_mut("items").and_then(Value::as_array_mut) else { return false };
    let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
    let mut spent = 0;
    let mut keep = 0;
    let mut cut = false;
    for item in items.iter_mut() {
        let sz = size(item);
        if spent + sz <= SEARCH_BUDGET {
            spent += sz;
            keep += 1;
            continue;
        }
        if keep == 0 {
            // One file bigger than the budget: its first matches.
            if let Some(matches) = item.get_mut("matches").and_then(Value::as_array_mut) {
                let mut used = 0;
                let mut m = 0;
                while m < matches.len() && (m == 0 || used + size(&matches[m]) <= SEARCH_BUDGET) {
                    used += size(&matches[m]);
                    m += 1;
                }
                matches.truncate(m);
            }
            keep = 1;
        }
        cut = true;
        break;
    }
    items.truncate(keep);
    let listed: usize = items.iter().map(|i| i["matches"].as_array().map_or(0, Vec::len)).sum();
    let files = items.len();
    data["fileCount"] = json!(files);
    data["matchCount"] = json!(listed);
    cut
}

pub(crate) fn tree_empty(root: &str) -> Value {
    json!({"root": root, "entryCount": 0, "items": []})
}

pub fn inspect_tree(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut s = Start::new("code.inspect_tree", raw, tree_empty("."));
    let path = s.args.optional_str("path");
    let max_depth = s.args.int("max_depth", 3, 0, 20) as usize;
    let extensions = match s.args.optional_str_list("extensions") {
        None => None,
        Some(raw_ext) => match navegador_search::normalize_extensions(&raw_ext) {
            Ok(e) => Some(e),
            Err(msg) => {
                s.args.reject("extensions", msg, "value_error");
                None
            }
        },
    };
    s.args.echo("extensions", json!(extensions));
    let file_pattern = s.args.optional_str("file_pattern");
    let include_stats = s.args.bool("include_stats", false);
    let include_hidden = s.args.bool("include_hidden", false);
    s.meta.detection.insert("includeHidden".into(), json!(include_hidden.to_string()));
    s.meta.detection.insert("stats".into(), json!(include_stats.to_string()));
    let scope = match s.ready(cx.workspace, path.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    s.empty = tree_empty(&scope.rel);
    let req = TreeRequest { max_depth, extensions, file_pattern, include_stats, include_hidden };
    let out = match navegador_search::inspect_tree(cx.workspace.root(), &scope.abs, &req) {
        Ok(o) => o,
        Err(SearchError::InvalidGlob(msg)) => return s.fail("Request validation failed.", bad_glob("file_pattern", msg)),
        Err(SearchError::InvalidRegex(msg)) | Err(SearchError::Io(msg)) => {
            return s.fail("Inspecting the tree failed.", io_error(msg));
        }
    };
    let data = serde_json::to_value(&out.data).expect("tree data is JSON");
    let entries = data["entryCount"].as_u64().unwrap_or(0) as usize;
    s.count("returnedCount", Some(entries));
    s.count("totalMatched", out.total_matched);
    let mut errors = Vec::new();
    let mut summary = format!("Inspected {} under '{}'.", plural(entries, "entry", "entries"), scope.rel);
    if out.truncated {
        s.meta.truncated = true;
        errors.push(ErrorItem::truncated(entries, out.total_matched, TREE_CAP));
        summary = summary.trim_end_matches('.').to_string() + " and returned a truncated subset.";
    }
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}
