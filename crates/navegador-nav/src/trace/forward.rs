//! `code.trace_symbol`: the calls followed forward from a symbol (its nested functions, a
//! class's methods), breadth first, and the files they reach; one page of each list.

use std::collections::{HashSet, VecDeque};

use serde_json::{json, Map, Value};

use super::*;
use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::{backend_error, index_notes, Context};

pub(crate) fn symbol_empty(path: &str, symbol: &str) -> Value {
    json!({"entrypoint": {"path": path, "symbol": symbol, "language": language_of(path)}, "fileCount": 0, "totalFileCount": 0,
           "items": [], "steps": [], "totalStepCount": 0, "byResolution": {"exact": 0, "inferred": 0, "ambiguous": 0},
           "unresolved": [], "unresolvedCount": 0, "externalCount": 0, "dispatchCount": 0})
}

pub fn trace_symbol(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let t = match begin("code.trace_symbol", raw, cx, symbol_empty, |_| {}) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let f = t.filter;
    let mut s = t.start;
    let mut errors = index_notes(cx);
    let display = t.targets.first().map_or(t.symbol.clone(), |x| x.display.clone());
    let entry = json!({"path": t.path, "symbol": display, "language": language_of(&t.path)});
    let mut files: Vec<String> = vec![t.path.clone()];
    let mut file_set: HashSet<String> = HashSet::from([t.path.clone()]);
    let mut steps: Vec<Value> = Vec::new();
    let mut step_total = 0usize;
    let mut tally = Tally::default();
    let mut unbound = Unbound::default();
    let mut cut = false;
    if let Some(store) = cx.store {
        let mut w = Walker::new(store);
        let mut seen: HashSet<i64> = HashSet::new();
        // (symbol, depth); a class stands for its methods, a function for its nested ones.
        let mut queue: VecDeque<(Sym, usize)> = t.targets.iter().map(|x| (x.clone(), 0)).collect();
        let fail = |s: &Start<'_>, e: ErrorItem| s.fail("Reading the index failed.", e);
        while let Some((sym, depth)) = queue.pop_front() {
            if !seen.insert(sym.id) {
                continue;
            }
            if seen.len() > FORWARD_MAX_SYMBOLS {
                cut = true;
                break;
            }
            let children = match store.children_of(sym.id) {
                Ok(c) => c,
                Err(e) => return fail(&s, backend_error(e)),
            };
            for c in children {
                queue.push_back((Sym::of(&c), depth));
            }
            let out = match store.calls_from(sym.id) {
                Ok(o) => o,
                Err(e) => return fail(&s, backend_error(e)),
            };
            // One step listed (`via`: the endpoint a step across services requests).
            let mut add = |to: &Sym, resolution: &str, line: u32, via: Option<&str>, ambiguity: Option<Value>| {
                step_total += 1;
                if steps.len() < MAX_STEPS {
                    let mut step = json!({"fromPath": sym.path, "fromSymbol": sym.display, "toPath": to.path, "toSymbol": to.display,
                                          "line": line, "resolution": resolution, "depth": depth + 1});
                    if let Some(via) = via {
                        step["via"] = json!(via);
                    }
                    if let Some(a) = ambiguity {
                        step["ambiguity"] = a;
                    }
                    steps.push(step);
                }
                if file_set.insert(to.path.clone()) {
                    files.push(to.path.clone());
                }
            };
            for e in out {
                let Ok(Some(to)) = w.sym(e.dst) else { continue };
                let resolution = e.resolution.clone().unwrap_or_else(|| "ambiguous".into());
                // Only the steps the answer lists are followed.
                if !tally.count(&f, &resolution, &to.path, e.receiver.is_some()) {
                    continue;
                }
                let line = e.line.unwrap_or(1).max(1);
                add(&to, &resolution, line, None, ambiguity(&e));
                // A call bound to an interface or base method may run any implementation.
                let impls = match w.hierarchy_methods(&to, &[true]) {
                    Ok(v) => v,
                    Err(e) => return fail(&s, e),
                };
                // Known when the bound method has no body and one implementation; any
                // other implementation is only possible (counted, `include_dispatch`).
                let bound_bodyless = match store.node(to.id) {
                    Ok(Some(row)) => w.bodyless(&row).unwrap_or(false),
                    _ => false,
                };
                let bodies = impls.iter().filter(|(_, (_, _, bodyless))| !bodyless).count();
                let mut next = vec![to.clone()];
                for (_, (_, m, bodyless)) in impls {
                    let weak = weaker(e.resolution.as_deref(), "inferred");
                    let determined = bound_bodyless && !bodyless && bodies == 1;
                    let via = (!determined).then_some(to.display.as_str());
                    if !tally.count_dispatch(&f, &weak, &m.path, e.receiver.is_some(), via) {
                        continue;
                    }
                    add(&m, &weak, line, None, None);
                    next.push(m);
                }
                for n in next {
                    if depth + 1 < FORWARD_DEPTH {
                        queue.push_back((n, depth + 1));
                    } else if !seen.contains(&n.id) {
                        cut = true;
                    }
                }
            }
            // Across services: a client call requesting an endpoint (`HTTP_CALLS`) goes on
            // to the handlers the endpoint exposes, one step `via` `GET /path`; a GraphQL
            // operation's root field (`GRAPHQL_CALLS`) to its resolvers, `via` `QUERY user`.
            let mut requests = Vec::new();
            for ty in ["HTTP_CALLS", "GRAPHQL_CALLS"] {
                match store.edges_of(sym.id, true, Some(ty)) {
                    Ok(r) => requests.extend(r),
                    Err(e) => return fail(&s, backend_error(e)),
                }
            }
            for r in requests {
                let Ok(Some(endpoint)) = store.node(r.dst) else { continue };
                let prop = |k: &str| endpoint.props.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                let via = format!("{} {}", prop("method"), prop("path")).trim().to_string();
                let handlers = match store.edges_of(r.dst, true, Some("EXPOSES")) {
                    Ok(h) => h,
                    Err(e) => return fail(&s, backend_error(e)),
                };
                for h in handlers {
                    let Ok(Some(to)) = w.sym(h.dst) else { continue };
                    let resolution = r.resolution.clone().unwrap_or_else(|| "inferred".into());
                    if !tally.count(&f, &resolution, &to.path, false) {
                        continue;
                    }
                    add(&to, &resolution, r.line.unwrap_or(1).max(1), Some(&via), None);
                    if depth + 1 < FORWARD_DEPTH {
                        queue.push_back((to, depth + 1));
                    } else if !seen.contains(&to.id) {
                        cut = true;
                    }
                }
            }
            for (status, external) in [("unresolved", false), (EXTERNAL, true)] {
                match store.sites_from(Some(sym.id), &sym.path, status) {
                    Ok(sites) => unbound.add(&sites, None, &f, external),
                    Err(e) => return fail(&s, backend_error(e)),
                }
            }
        }
    }
    files[1..].sort();
    let file_total = files.len();
    let items: Vec<Value> = f.page(&files).iter().map(|p| json!({"path": p, "language": language_of(p)})).collect();
    let shown_steps: Vec<Value> = f.page(&steps).to_vec();
    let n = items.len();
    s.count("returnedCount", Some(n));
    s.count("stepCount", Some(shown_steps.len()));
    s.count("totalStepCount", Some(step_total));
    s.count("ambiguousCount", Some(tally.by_resolution[2]));
    s.count("unresolvedCount", Some(unbound.unresolved));
    s.count("externalCount", Some(unbound.external));
    s.count("dispatchCount", Some(tally.dispatch));
    let mut summary = format!(
        "Traced '{display}' forward to {} over {}",
        plural(file_total, "related file", "related files"),
        plural(step_total, "call", "calls")
    );
    let mut clauses: Vec<String> = Vec::new();
    if n < file_total || shown_steps.len() < step_total {
        s.meta.truncated = true;
        let next = f.offset + f.limit;
        let mut e = ErrorItem::truncated(shown_steps.len(), Some(step_total), f.limit)
            .detail("offset", json!(f.offset))
            .detail("totalFiles", json!(file_total));
        e = e.suggestion(page_hint(&f, next, step_total.max(file_total)));
        errors.insert(0, e);
        clauses.extend(page_note(&f, step_total.max(file_total), shown_steps.len().max(n), "call and file"));
    }
    if cut {
        s.meta.truncated = true;
        errors.push(
            ErrorItem::new(code::RESULT_TRUNCATED, format!("The forward trace stopped at depth {FORWARD_DEPTH} or {FORWARD_MAX_SYMBOLS} symbols; deeper calls are not counted."))
                .suggestion("Trace one of the listed callees to go further.")
                .detail("maxDepth", json!(FORWARD_DEPTH))
                .detail("returned", json!(shown_steps.len())),
        );
        clauses.push(format!("stopped at depth {FORWARD_DEPTH}"));
    }
    clauses.extend(tally.hidden(&f, None, "call"));
    if unbound.unresolved > 0 {
        clauses.push(format!("{} could not be resolved (see unresolved)", plural(unbound.unresolved, "call site", "call sites")));
    }
    if unbound.external > 0 {
        clauses.push(format!("{} go to builtins or outside packages (externalCount)", plural(unbound.external, "call", "calls")));
    }
    if !clauses.is_empty() {
        summary = format!("{summary}; {}", clauses.join("; "));
    }
    summary.push('.');
    let data = json!({"entrypoint": entry, "fileCount": n, "totalFileCount": file_total, "items": items, "steps": shown_steps,
                      "totalStepCount": step_total, "byResolution": tally.json(), "unresolved": unbound.items,
                      "unresolvedCount": unbound.unresolved, "externalCount": unbound.external, "dispatchCount": tally.dispatch});
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}
