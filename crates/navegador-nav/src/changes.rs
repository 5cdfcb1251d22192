//! `code.detect_changes`: the `changes` report (what a diff touches: changed symbols, their
//! dependents, tests, owners, rules, risk) in the `code.*` envelope, with the arguments of
//! navegador's `changes` tool. The report is `navegador-analysis`'s, its fields camelCased as
//! the contract's data are; a bad ref, a shallow clone or a patch that does not apply is an
//! `INVALID_INPUT` naming the argument and the fix.

use navegador_analysis::changes::{self, ChangesError, ChangesFailure, ChangesOptions, Source};
use navegador_analysis::Limits;
use serde_json::{json, Map, Value};

use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::{backend_error, index_notes, Context, Start};

pub(crate) const TOOL: &str = "code.detect_changes";

pub(crate) fn empty() -> Value {
    json!({"compared": "", "risk": "low", "files": [], "apart": [], "symbols": [], "symbolsTotal": 0, "byChange": {},
           "reviewers": [], "governing": [], "rules": [], "tests": [], "testsTotal": 0, "untested": [], "untestedTotal": 0,
           "limit": 20, "offset": 0, "notes": []})
}

pub fn detect_changes(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut s = Start::new(TOOL, raw, empty());
    let range = s.args.optional_str("range");
    let base = s.args.optional_str("base");
    let staged = s.args.bool("staged", false);
    // An empty `diff` is the change's fault, not a malformed argument: the answer says what to pass.
    let diff = match raw.get("diff") {
        Some(Value::String(d)) => Some(d.clone()),
        _ => s.args.optional_str("diff"),
    };
    let depth = s.args.int("depth", 3, 1, 8);
    let limit = s.args.int("limit", 20, 1, 200) as usize;
    let offset = s.args.int("offset", 0, 0, 1_000_000) as usize;
    if diff.is_some() && range.is_some() {
        s.args.reject("diff", "Pass `diff` or `range`, not both.".into(), "value_error");
    }
    if (diff.is_some() || range.is_some()) && (staged || base.is_some()) {
        let field = if staged { "staged" } else { "base" };
        s.args.reject(field, "`staged` and `base` apply to the working tree only; a `range` or a `diff` names both sides.".into(), "value_error");
    }
    s.detection(None, None);
    // The diff is echoed by its size: a patch can be long, and the caller has it.
    if let Some(d) = &diff {
        s.args.echo("diff", json!(format!("<{} bytes>", d.len())));
    }
    if let Err(e) = s.check() {
        return e;
    }
    s.meta.resolved_path = Some(".".into());
    let Some(store) = cx.store else {
        let e = ErrorItem::index_incomplete();
        return s.fail("The workspace is not indexed yet.", e);
    };
    let source = match (diff, range) {
        (Some(d), _) => Source::Patch(d),
        (None, Some(r)) => Source::Range(r),
        (None, None) if staged => Source::Staged { base },
        (None, None) => Source::WorkingTree { base },
    };
    let opts = ChangesOptions { depth, limit, offset, ..ChangesOptions::default() };
    let report = match changes::changes(store, cx.workspace.root(), &source, &opts, &Limits::default()) {
        Ok(r) => r,
        Err(ChangesFailure::Change(e)) => return s.fail("The change cannot be read.", change_error(&e, &source)),
        Err(ChangesFailure::Analysis(e)) => return s.fail("Reading the index failed.", backend_error(e)),
    };
    let returned = report.symbols.len();
    let (total, files) = (report.symbols_total, report.files.len());
    s.count("returnedCount", Some(returned));
    s.count("symbolsTotal", Some(total));
    s.count("testsTotal", Some(report.tests_total));
    s.count("untestedTotal", Some(report.untested_total));
    let mut errors = index_notes(cx);
    let found = format!("Found {} in {} (risk {})", plural(total, "changed symbol", "changed symbols"), plural(files, "file", "files"), report.risk.as_str());
    let mut summary = format!("{found}.");
    if report.next_offset.is_some() {
        s.meta.truncated = true;
        errors.insert(0, ErrorItem::truncated(returned, Some(total), limit).suggestion("Increase limit, or pass offset = data.nextOffset for the next page."));
        summary = format!("{found} and returned a truncated subset.");
    }
    let data = camel(serde_json::to_value(&report).expect("a report is plain JSON"), false);
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}

/// A change that cannot be read: the caller's to fix (`INVALID_INPUT` on the argument at
/// fault), but for git itself failing.
fn change_error(e: &ChangesError, source: &Source) -> ErrorItem {
    let message = e.to_string().replace("`navegador changes -`", "the `diff` argument").replace("pipe a unified diff instead", "pass a unified diff instead");
    let field = match (e, source) {
        (ChangesError::Git(_), _) => return ErrorItem::new(code::BACKEND_EXECUTION_FAILED, message).retryable(),
        (_, Source::Patch(_)) => "diff",
        (ChangesError::NotRepository(_), _) => "diff",
        (_, Source::Range(_)) => "range",
        _ => "base",
    };
    ErrorItem::new(code::INVALID_INPUT, message).target(field)
}

/// snake_case keys to camelCase, but for the keys of `byChange` (they are change kinds, the
/// values `change` takes).
fn camel(v: Value, data_keys: bool) -> Value {
    match v {
        Value::Object(m) => m
            .into_iter()
            .map(|(k, x)| {
                let key = if data_keys { k } else { camel_key(&k) };
                let keep = key == "byChange";
                (key, camel(x, keep))
            })
            .collect::<Map<_, _>>()
            .into(),
        Value::Array(items) => Value::Array(items.into_iter().map(|x| camel(x, false)).collect()),
        other => other,
    }
}

fn camel_key(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut up = false;
    for c in k.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_camel_cased_but_change_kinds() {
        let v = camel(json!({"symbols_total": 1, "by_change": {"signature_changed": 1}, "symbols": [{"old_file": "a"}]}), false);
        assert_eq!(v, json!({"symbolsTotal": 1, "byChange": {"signature_changed": 1}, "symbols": [{"oldFile": "a"}]}));
    }
}
