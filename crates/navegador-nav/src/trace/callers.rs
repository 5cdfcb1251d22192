//! `code.trace_callers`: the direct callers of a symbol (one page of them), and with
//! `recursive` the contract's reverse-traversal payload, each list cut to the page size.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::{json, Map, Value};

use super::*;
use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::{backend_error, index_notes, Context};

pub(crate) fn callers_empty(path: &str, symbol: &str) -> Value {
    json!({"target": {"path": path, "symbol": symbol, "language": language_of(path)}, "count": 0, "returnedCount": 0,
           "totalMatched": 0, "byResolution": {"exact": 0, "inferred": 0, "ambiguous": 0},
           "items": [], "recursive": null, "unresolved": [], "unresolvedCount": 0, "externalCount": 0, "dispatchCount": 0})
}

fn caller_record(inc: &Incoming, snippets: &mut Snippets, ws: &Workspace) -> Value {
    let mut v = json!({
        "path": inc.caller.path,
        "line": inc.line.unwrap_or(1).max(1),
        "column": inc.col.map(|c| c + 1),
        "caller": inc.caller.display,
        "callerSymbol": (inc.caller.label != "File").then(|| inc.caller.qualified.clone().unwrap_or_else(|| inc.caller.display.clone())),
        "relation": inc.relation,
        "language": language_of(&inc.caller.path),
        "snippet": snippets.line(ws, &inc.caller.path, inc.line),
        "receiverType": inc.receiver_type,
        "resolution": inc.resolution,
    });
    if let Some(a) = &inc.ambiguity {
        v["ambiguity"] = a.clone();
    }
    v
}

pub fn trace_callers(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut recursive = false;
    let mut max_depth_arg = None;
    let t = begin("code.trace_callers", raw, cx, callers_empty, |s| {
        recursive = s.args.bool("recursive", false);
        max_depth_arg = s.args.optional_int("max_depth", 1, 8);
    });
    let mut t = match t {
        Ok(t) => t,
        Err(e) => return e,
    };
    let f = t.filter;
    let max_depth = max_depth_arg.unwrap_or(3) as usize;
    t.start.args.echo("max_depth", if recursive { json!(max_depth) } else { json!(max_depth_arg) });
    t.start.meta.query = t.start.args.query.clone();
    let ws = cx.workspace;
    let mut snippets = Snippets::default();
    let mut errors = index_notes(cx);
    let name = t.targets.first().map_or_else(|| t.symbol.rsplit(['.', ':']).next().unwrap_or(&t.symbol).to_string(), |s| s.name.clone());
    let unbound = match unbound_named(cx.store, &name, &t.path, &f) {
        Ok(u) => u,
        Err(e) => return t.start.fail("Reading the index failed.", e),
    };
    let target_display = t.targets.first().map_or(t.symbol.clone(), |s| s.display.clone());
    let target_json = json!({"path": t.path, "symbol": target_display, "language": language_of(&t.path)});

    // Every edge into the targets, then what the filter lists, counted by resolution.
    let mut all: Vec<Incoming> = Vec::new();
    let mut walker = cx.store.map(Walker::new);
    if let Some(w) = walker.as_mut() {
        for target in &t.targets {
            match w.incoming(target) {
                Ok(mut v) => all.append(&mut v),
                Err(e) => return t.start.fail("Reading the index failed.", e),
            }
        }
    }
    all.sort_by(|a, b| (&a.caller.path, a.line, a.col).cmp(&(&b.caller.path, b.line, b.col)));
    all.dedup_by(|a, b| a.caller.id == b.caller.id && a.line == b.line && a.col == b.col);
    let mut tally = Tally::default();
    let listed: Vec<&Incoming> = all
        .iter()
        .filter(|i| {
            let via = i.dispatch.as_ref().filter(|_| !i.determined).map(|(_, m)| m.display.as_str());
            tally.count_dispatch(&f, &i.resolution, &i.caller.path, i.has_receiver, via)
        })
        .collect();
    let total = listed.len();
    let items: Vec<Value> = f.page(&listed).iter().map(|i| caller_record(i, &mut snippets, ws)).collect();
    let returned = items.len();

    let mut rec_json = Value::Null;
    let mut summary = format!("Found {} of '{target_display}'", plural(total, "caller", "callers"));
    if let (true, Some(w), Some(root)) = (recursive, walker.as_mut(), t.targets.first().cloned()) {
        // The default budget is for the whole answer: what the flat page leaves of it.
        let items_bytes = serde_json::to_vec(&items).map_or(0, |b| b.len());
        let budget = RECURSIVE_BUDGET.saturating_sub(items_bytes).max(RECURSIVE_BUDGET / 4);
        match recurse(w, &t.targets, root, max_depth, &f, budget, &mut snippets, ws) {
            Ok(r) => {
                summary = format!(
                    "Found {} and {} of '{}' up to depth {max_depth}",
                    plural(r.direct_count, "direct caller", "direct callers"),
                    plural(r.indirect_count, "indirect caller", "indirect callers"),
                    target_display
                );
                if r.pruned {
                    t.start.meta.truncated = true;
                    errors.insert(
                        0,
                        ErrorItem::new(code::RESULT_TRUNCATED, format!("The recursive payload was cut to {} entries per list (limit, at most the contract's safety caps, and at the default limit so that the answer stays near {} KB); the summary counts cover the whole traversal.", r.per_list.min(CAP_NODES), RECURSIVE_BUDGET / 1024))
                            .suggestion("Raise limit, lower max_depth, or trace a more specific symbol.")
                            .detail("maxDepth", json!(max_depth))
                            .detail("nodeCount", r.json["nodeCount"].clone())
                            .detail("pathCount", r.json["pathCount"].clone())
                            .detail("limit", json!(f.limit))
                            .detail("perList", json!(r.per_list)),
                    );
                }
                rec_json = r.json;
            }
            Err(e) => return t.start.fail("Reading the index failed.", e),
        }
    }
    let mut clauses: Vec<String> = Vec::new();
    if returned < total {
        t.start.meta.truncated = true;
        let next = f.offset + returned;
        let mut e = ErrorItem::truncated(returned, Some(total), f.limit).detail("offset", json!(f.offset));
        e = e.suggestion(page_hint(&f, next, total));
        errors.insert(0, e);
    }
    clauses.extend(page_note(&f, total, returned, "caller"));
    clauses.extend(tally.hidden(&f, Some(&name), "call site"));
    if unbound.unresolved > 0 {
        clauses.push(format!("{} named `{name}` could not be resolved (see unresolved)", plural(unbound.unresolved, "call site", "call sites")));
    }
    if unbound.external > 0 {
        clauses.push(format!("{} named `{name}` go to builtins or outside packages (externalCount)", plural(unbound.external, "call site", "call sites")));
    }
    if !clauses.is_empty() {
        summary = format!("{summary}; {}", clauses.join("; "));
    }
    summary.push('.');
    t.start.count("returnedCount", Some(returned));
    t.start.count("totalMatched", Some(total));
    t.start.count("ambiguousCount", Some(tally.by_resolution[2]));
    t.start.count("unresolvedCount", Some(unbound.unresolved));
    t.start.count("externalCount", Some(unbound.external));
    t.start.count("dispatchCount", Some(tally.dispatch));
    if f.exclude_tests {
        t.start.count("excludedTestCount", Some(tally.tests));
    }
    // Large parts are moved in after `json!`, which would deep-copy them.
    let mut data = json!({"target": target_json, "count": returned, "returnedCount": returned, "totalMatched": total,
                          "byResolution": tally.json(), "items": null, "recursive": null, "unresolved": null,
                          "unresolvedCount": unbound.unresolved, "externalCount": unbound.external,
                          "dispatchCount": tally.dispatch});
    data["items"] = Value::Array(items);
    data["recursive"] = rec_json;
    data["unresolved"] = Value::Array(unbound.items);
    Envelope::ok(t.start.tool, summary, data, errors, t.start.meta)
}

struct Recursion {
    json: Value,
    pruned: bool,
    /// How many entries each list was cut to.
    per_list: usize,
    direct_count: usize,
    indirect_count: usize,
}

struct RNode {
    sym: Sym,
    depth: usize,
    parent: Option<usize>,
    via: Option<Incoming>,
    /// Callers were looked up (false at the depth limit).
    expanded: bool,
    has_callers: bool,
    new_children: usize,
}

fn path_to(nodes: &[RNode], mut i: usize) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let n = &nodes[i];
        out.push(json!({"path": n.sym.path, "symbol": n.sym.display, "depth": n.depth}));
        match n.parent {
            Some(p) => i = p,
            None => break,
        }
    }
    out.reverse();
    out
}

/// The keys of the nodes from the root to node `i`.
fn keys_to(nodes: &[RNode], mut i: usize) -> Vec<String> {
    let mut out = vec![nodes[i].sym.key()];
    while let Some(p) = nodes[i].parent {
        out.push(nodes[p].sym.key());
        i = p;
    }
    out.reverse();
    out
}

/// Why a symbol looks like a public entry point (its evidence, named).
/// Decorator names and exposing endpoints' frameworks of the recursion's nodes.
#[derive(Default)]
struct Evidence {
    decorators: HashMap<i64, Vec<String>>,
    exposed: HashMap<i64, Vec<Option<String>>>,
}

fn entry_reasons(w: &mut Walker<'_>, evidence: &Evidence, sym: &Sym, has_callers: bool) -> Result<Vec<String>, ErrorItem> {
    let prefix = relation_prefix(language_of(&sym.path));
    let mut reasons = Vec::new();
    if sym.label != "File" {
        for name in evidence.decorators.get(&sym.id).into_iter().flatten() {
            if is_entry_annotation(&name) {
                reasons.push(format!("{prefix}.method_annotation:@{name}"));
            }
        }
        if sym.label == "Method" {
            if let Some(class) = w.parent(sym.id)? {
                for name in w.class_decorator_names(class.id)? {
                    if matches!(name.rsplit('.').next().unwrap_or(&name), "RestController" | "Controller" | "Component" | "Service" | "Resolver") {
                        reasons.push(format!("{prefix}.controller_annotation:@{name}"));
                    }
                }
            }
        }
        for fw in evidence.exposed.get(&sym.id).into_iter().flatten() {
            let fw = fw.as_deref().unwrap_or("endpoint");
            reasons.push(format!("{prefix}.endpoint_handler:{fw}"));
        }
        if matches!(sym.name.as_str(), "loader" | "action" | "clientLoader" | "clientAction") && is_route_file(&sym.path) {
            reasons.push(format!("{prefix}.loader_symbol"));
        }
        if sym.name == "main" {
            reasons.push(format!("{prefix}.main_function"));
        }
        if sym.name.starts_with("test") || sym.name.starts_with("Test") {
            reasons.push(format!("{prefix}.test_function"));
        }
    }
    if is_route_file(&sym.path) {
        reasons.push(format!("{prefix}.route_file"));
    }
    if !has_callers && reasons.is_empty() {
        reasons.push(format!("{prefix}.no_known_callers"));
    }
    reasons.dedup();
    Ok(reasons)
}

fn is_entry_annotation(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    matches!(
        last,
        "GetMapping" | "PostMapping" | "PutMapping" | "PatchMapping" | "DeleteMapping" | "RequestMapping" | "QueryMapping"
            | "MutationMapping" | "SubscriptionMapping" | "SchemaMapping" | "Get" | "Post" | "Put" | "Patch" | "Delete"
            | "route" | "get" | "post" | "put" | "patch" | "delete" | "websocket" | "command" | "task" | "Scheduled"
            | "EventListener" | "KafkaListener" | "Test" | "main" | "api_view" | "action"
    )
}

fn is_route_file(path: &str) -> bool {
    path.starts_with("app/routes/") || path.contains("/app/routes/") || path.ends_with("app/root.tsx") || path.ends_with("app/root.jsx")
}

fn recurse(
    w: &mut Walker<'_>,
    targets: &[Sym],
    root: Sym,
    max_depth: usize,
    f: &Filter,
    budget: usize,
    snippets: &mut Snippets,
    ws: &Workspace,
) -> Result<Recursion, ErrorItem> {
    let mut nodes: Vec<RNode> = vec![RNode { sym: root.clone(), depth: 0, parent: None, via: None, expanded: false, has_callers: false, new_children: 0 }];
    let mut index: HashMap<i64, usize> = HashMap::from([(root.id, 0)]);
    for t in targets.iter().skip(1) {
        index.insert(t.id, 0); // overloads share the root
    }
    let mut adjacency: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut adjacency_seen: HashSet<(String, String)> = HashSet::new();
    let mut cycles: Vec<Value> = Vec::new();
    let mut records: Vec<(usize, Value)> = Vec::new(); // (depth, classification record)
    let mut chains: BTreeMap<(String, String), (Value, Vec<Value>)> = BTreeMap::new();
    let mut edge_count = 0usize;
    let mut exhausted = false;
    let mut queue: VecDeque<usize> = VecDeque::from([0]);
    let mut leaves: Vec<usize> = Vec::new();
    while let Some(i) = queue.pop_front() {
        if nodes[i].depth >= max_depth {
            // The depth limit: only ask whether there is more (below, for all at once).
            if i != 0 {
                leaves.push(i);
            }
            continue;
        }
        nodes[i].expanded = true;
        let syms: Vec<Sym> = if i == 0 { targets.to_vec() } else { vec![nodes[i].sym.clone()] };
        let mut incoming = Vec::new();
        for s in &syms {
            // Only the edges the answer lists are followed.
            incoming.extend(w.incoming(s)?.into_iter().filter(|i| f.keeps_path(&i.caller.path) && f.lists(&i.resolution, i.determined)));
        }
        nodes[i].has_callers = !incoming.is_empty();
        let key = nodes[i].sym.key();
        let depth = nodes[i].depth + 1;
        for inc in incoming {
            edge_count += 1;
            let ckey = inc.caller.key();
            if adjacency_seen.insert((key.clone(), ckey.clone())) {
                adjacency.entry(key.clone()).or_default().push(ckey.clone());
            }
            // The record is only kept for a new node or an interface chain.
            let wanted = inc.dispatch.is_some() || !index.contains_key(&inc.caller.id);
            let record = if wanted {
                let mut record = caller_record(&inc, snippets, ws);
                let m = record.as_object_mut().unwrap();
                m.insert("symbol".into(), json!(inc.caller.display));
                m.insert("depth".into(), json!(depth));
                m.insert("calls".into(), json!({"path": nodes[i].sym.path, "symbol": nodes[i].sym.display}));
                m.remove("callerSymbol");
                record
            } else {
                Value::Null
            };
            if let Some((kind, bound)) = &inc.dispatch {
                let chain = chains.entry((kind.clone(), bound.key())).or_insert_with(|| {
                    (
                        json!({"kind": kind, "probable": true,
                               "interface": {"name": class_of(&bound.display), "path": bound.path, "symbol": bound.display},
                               "implementation": {"path": inc.callee.path, "symbol": inc.callee.display}}),
                        Vec::new(),
                    )
                });
                chain.1.push(record.clone());
            }
            match index.get(&inc.caller.id) {
                Some(&seen) => {
                    // Already in the tree: a cycle when it is an ancestor of this node.
                    let mut a = Some(i);
                    while let Some(x) = a {
                        if x == seen {
                            // The contract's schema: the keys from the root to the caller,
                            // which closes the cycle.
                            let mut p = keys_to(&nodes, i);
                            p.push(ckey.clone());
                            cycles.push(json!({"fromKey": ckey, "toKey": key, "path": p}));
                            break;
                        }
                        a = nodes[x].parent;
                    }
                }
                None => {
                    if nodes.len() >= MAX_VISITED {
                        exhausted = true;
                        continue;
                    }
                    let ni = nodes.len();
                    index.insert(inc.caller.id, ni);
                    records.push((depth, {
                        let mut r = record;
                        r["pathFromTarget"] = Value::Null;
                        r["__node"] = json!(ni);
                        r
                    }));
                    nodes.push(RNode { sym: inc.caller.clone(), depth, parent: Some(i), via: Some(inc), expanded: false, has_callers: false, new_children: 0 });
                    nodes[i].new_children += 1;
                    queue.push_back(ni);
                }
            }
        }
    }
    let leaf_ids: Vec<i64> = leaves.iter().map(|&i| nodes[i].sym.id).collect();
    let called: HashSet<i64> = w.store.ids_with_calls_into(&leaf_ids, f.min).map_err(backend_error)?.into_iter().collect();
    for &i in &leaves {
        let sym = nodes[i].sym.clone();
        nodes[i].has_callers = w.has_incoming(&sym, Some(called.contains(&sym.id)), f.min, f.include_dispatch)?;
    }
    // Entry-point evidence of every node, read in two statements.
    let ids: Vec<i64> = nodes.iter().skip(1).map(|n| n.sym.id).collect();
    let mut evidence = Evidence::default();
    for (id, name) in w.store.decorator_names_of(&ids).map_err(backend_error)? {
        evidence.decorators.entry(id).or_default().push(name);
    }
    for (id, fw) in w.store.exposing_frameworks_of(&ids).map_err(backend_error)? {
        evidence.exposed.entry(id).or_default().push(fw);
    }
    // Leaves give the paths; nodes cut by the depth limit are `truncated`.
    let mut paths = Vec::new();
    let mut truncated = Vec::new();
    let mut entries = Vec::new();
    let mut entry_nodes = HashSet::new();
    for (i, n) in nodes.iter().enumerate().skip(1) {
        if n.new_children == 0 {
            paths.push(Value::Array(path_to(&nodes, i)));
        }
        if !n.expanded && n.has_callers {
            truncated.push(json!({"key": n.sym.key(), "path": n.sym.path, "symbol": n.sym.display, "depth": n.depth}));
        }
    }
    for i in 1..nodes.len() {
        let (sym, has_callers, cut) = (nodes[i].sym.clone(), nodes[i].has_callers, !nodes[i].expanded && nodes[i].has_callers);
        let reasons = entry_reasons(w, &evidence, &sym, has_callers || cut)?;
        let evidence = reasons.iter().any(|r| !r.ends_with(".no_known_callers"));
        if evidence || !has_callers {
            entry_nodes.insert(i);
            let mut entry = json!({"key": sym.key(), "path": sym.path, "symbol": sym.display, "depth": nodes[i].depth,
                                   "reasons": reasons, "probable": evidence, "pathFromTarget": null});
            entry["pathFromTarget"] = Value::Array(path_to(&nodes, i));
            entries.push(entry);
        }
    }
    let node_count = nodes.len();
    let path_count = paths.len();
    let direct_count = nodes.iter().filter(|n| n.depth == 1).count();
    let indirect_count = nodes.iter().filter(|n| n.depth > 1).count();
    let max_observed = nodes.iter().map(|n| n.depth).max().unwrap_or(0);
    let probable_count = entries.iter().filter(|e| e["probable"] == json!(true)).count();
    let chain_count = chains.len();

    // Each list is cut to `n` entries (the page size, at most the contract's cap); the counts
    // stay whole. At the default page the payload also stays under `budget` bytes:
    // `n` shrinks by a third until it fits (an explicit `limit` is what the caller asked for).
    let listable = CAP_NODES.min(f.limit).min(nodes.len());
    let node_json: Vec<Value> = nodes[..listable]
        .iter()
        .map(|n| {
            json!({"key": n.sym.key(), "path": n.sym.path, "symbol": n.sym.display, "depth": n.depth,
                   "via": n.via.as_ref().map(|v| json!({"relation": v.relation, "line": v.line, "column": v.col.map(|c| c + 1),
                          "snippet": snippets.line(ws, &v.caller.path, v.line), "resolution": v.resolution}))})
        })
        .collect();
    let finish_records = |depth_ok: &dyn Fn(usize, usize) -> bool| -> Vec<Value> {
        records
            .iter()
            .filter(|(d, r)| depth_ok(*d, r["__node"].as_u64().unwrap_or(0) as usize))
            .map(|(_, r)| {
                let mut r = r.clone();
                let ni = r["__node"].as_u64().unwrap_or(0) as usize;
                let m = r.as_object_mut().unwrap();
                m.remove("__node");
                m.insert("pathFromTarget".into(), Value::Array(path_to(&nodes, ni)));
                r
            })
            .collect()
    };
    let direct_records = finish_records(&|d, _| d == 1);
    let indirect_records = finish_records(&|d, _| d > 1);
    let entry_records = finish_records(&|_, ni| entry_nodes.contains(&ni));
    let chain_list: Vec<(Value, Vec<Value>)> = chains
        .into_values()
        .map(|(mut head, callers)| {
            let implementation = head["implementation"].clone();
            head["implementations"] = Value::Array(vec![implementation]);
            (head, callers)
        })
        .collect();
    let summary = json!({"directCallerCount": direct_count, "indirectCallerCount": indirect_count,
                         "probablePublicEntryPointCount": probable_count, "implementationInterfaceChainCount": chain_count});
    let assemble = |n: usize| -> (Value, bool) {
        let mut pruned = exhausted;
        let mut cap = |v: &[Value], contract_cap: usize| {
            let k = contract_cap.min(n).min(v.len());
            pruned |= k < v.len();
            Value::Array(v[..k].to_vec())
        };
        let shown = CAP_NODES.min(n).min(nodes.len());
        let mut adj = adjacency.clone();
        if shown < nodes.len() {
            // The adjacency of the listed nodes only.
            let keys: HashSet<String> = nodes[..shown].iter().map(|n| n.sym.key()).collect();
            adj.retain(|k, _| keys.contains(k));
            for callers in adj.values_mut() {
                callers.retain(|c| keys.contains(c));
            }
        }
        let chain_json: Vec<Value> = chain_list
            .iter()
            .take(CAP_CHAINS.min(n))
            .map(|(head, callers)| {
                let mut head = head.clone();
                head["callers"] = cap(callers, CAP_CALLERS);
                head
            })
            .collect();
        let json = json!({
            "enabled": true,
            "root": node_json[0],
            "maxDepth": max_depth,
            "maxDepthObserved": max_observed,
            "nodeCount": node_count,
            "edgeCount": edge_count,
            "pathCount": path_count,
            "nodes": cap(&node_json, CAP_NODES),
            "adjacency": adj,
            "paths": cap(&paths, CAP_PATHS),
            "cycles": cap(&cycles, CAP_CYCLES),
            "truncated": cap(&truncated, CAP_TRUNCATED),
            "probableEntryPoints": cap(&entries, CAP_ENTRY_POINTS),
            "classifications": {
                "summary": summary,
                "directCallers": cap(&direct_records, CAP_CALLERS),
                "indirectCallers": cap(&indirect_records, CAP_CALLERS),
                "probablePublicEntryPoints": cap(&entry_records, CAP_CALLERS),
                "implementationInterfaceChain": chain_json,
            }
        });
        pruned |= chain_list.len() > CAP_CHAINS.min(n);
        (json, pruned)
    };
    let mut per_list = f.limit;
    let (mut json, mut pruned) = assemble(per_list);
    while !f.limit_given && per_list > 1 && serde_json::to_vec(&json).map_or(0, |b| b.len()) > budget {
        per_list = per_list * 2 / 3;
        (json, pruned) = assemble(per_list);
    }
    Ok(Recursion { json, pruned, per_list, direct_count, indirect_count })
}

