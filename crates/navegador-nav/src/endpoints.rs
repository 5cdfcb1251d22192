//! `code.list_endpoints`: the `Endpoint` nodes the ingest found (Spring, React Router,
//! Express, NestJS, FastAPI, Flask, Django, net/http, gin, chi), filtered, deduplicated and
//! counted over the whole matched set before the limit.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::envelope::{plural, Envelope, ErrorItem};
use crate::workspace::{framework_names, in_scope, language_names};
use crate::{backend_error, index_notes, Context, Start};

/// The consumers an endpoint item lists (the rest counted).
const CONSUMERS_LISTED: usize = 3;

pub(crate) fn empty() -> Value {
    json!({"totalCount": 0, "returnedCount": 0, "counts": {"byKind": {}, "byLanguage": {}, "byFramework": {}}, "items": []})
}

pub fn list_endpoints(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut s = Start::new("code.list_endpoints", raw, empty());
    let path = s.args.optional_str("path");
    let language = s.args.optional_enum("language", &language_names());
    let framework = s.args.optional_enum("framework", &framework_names());
    let kind = s.args.enum_or("kind", &["any", "graphql", "grpc", "rest", "route"], "any");
    let limit = s.args.int("limit", 50, 1, 200) as usize;
    let include_tests = s.args.bool("include_tests", false);
    s.detection(language.as_deref(), framework.as_deref());
    let scope = match s.ready(cx.workspace, path.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    // Only an explicit `language` filters here: a framework already names its endpoints, and
    // some (Express) are written in more than the language they imply.
    let want_lang = language.clone();
    let rows = match cx.store.map(|st| st.endpoints()).transpose() {
        Ok(r) => r.unwrap_or_default(),
        Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
    };
    let mut matched: Vec<_> = rows
        .into_iter()
        .filter(|e| in_scope(&e.file, &scope.rel))
        .filter(|e| want_lang.as_deref().is_none_or(|l| e.language == l))
        .filter(|e| framework.as_deref().is_none_or(|f| e.framework == f))
        .filter(|e| kind == "any" || e.kind == kind)
        .collect();
    // Routes a test file registers are not the application's: counted, listed on request.
    let in_tests = matched.iter().filter(|e| e.test).count();
    if !include_tests {
        matched.retain(|e| !e.test);
    }
    matched.sort_by(|a, b| {
        (&a.kind, &a.path, &a.file, a.line, &a.name, &a.method).cmp(&(&b.kind, &b.path, &b.file, b.line, &b.name, &b.method))
    });
    matched.dedup_by(|a, b| a.kind == b.kind && a.path == b.path && a.file == b.file && a.line == b.line && a.name == b.name && a.method == b.method);
    let total = matched.len();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_language: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_framework: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &matched {
        *by_kind.entry(&e.kind).or_default() += 1;
        *by_language.entry(&e.language).or_default() += 1;
        *by_framework.entry(&e.framework).or_default() += 1;
    }
    // The client calls linked to each endpoint (`HTTP_CALLS`): counted, the first few listed.
    let consumers = match cx.store.map(|st| st.endpoint_consumers()).transpose() {
        Ok(c) => c.unwrap_or_default(),
        Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
    };
    let items: Vec<Value> = matched
        .iter()
        .take(limit)
        .map(|e| {
            let mut item = json!({"name": e.name, "kind": e.kind, "path": e.path, "file": e.file, "line": e.line, "language": e.language,
                   "framework": e.framework, "method": e.method});
            if e.test {
                item["test"] = json!(true);
            }
            if let Some(c) = consumers.get(&(e.file.clone(), e.line, e.name.clone())) {
                let first: Vec<Value> =
                    c.iter().take(CONSUMERS_LISTED).map(|(f, l, sym)| json!({"file": f, "line": l, "symbol": sym})).collect();
                item["consumers"] = json!({"count": c.len(), "items": first});
            }
            item
        })
        .collect();
    let returned = items.len();
    s.count("returnedCount", Some(returned));
    s.count("totalCount", Some(total));
    let mut errors = index_notes(cx);
    let mut summary = format!("Found {}", plural(total, "endpoint", "endpoints"));
    if returned < total {
        s.meta.truncated = true;
        errors.insert(0, ErrorItem::truncated(returned, Some(total), limit));
        summary.push_str(" and returned a truncated subset");
    }
    let hidden = if include_tests { 0 } else { in_tests };
    if hidden > 0 {
        summary.push_str(&format!("; {} registered by test files not listed (include_tests)", plural(hidden, "route", "routes")));
    }
    summary.push('.');
    s.count("testCount", Some(hidden));
    let data = json!({"totalCount": total, "returnedCount": returned, "testCount": hidden,
                      "counts": {"byKind": by_kind, "byLanguage": by_language, "byFramework": by_framework}, "items": items});
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}
