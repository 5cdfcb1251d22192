//! The `code.*` contract on fixture workspaces: each case in `cases.txt` (tool, arguments)
//! is answered and compared with its golden envelope in `golden/<name>.json`
//! (`UPDATE_GOLDEN=1` rewrites them). The workspace is a copy of `fixtures/<ws>`, indexed
//! by the real ingest into a real SQLite file.

use std::path::{Path, PathBuf};

use navegador_nav::{call, Context, Workspace};
use navegador_store::Store;
use serde_json::{Map, Value};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

/// A fixture workspace copied to a temp dir and indexed.
pub struct Indexed {
    pub _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub store: Store,
}

/// Lays out a multi-file fixture (`//- path` lines start each file), as the index crate's
/// endpoint fixtures are written.
fn lay_out(text: &str, root: &Path) {
    let mut current: Option<(String, String)> = None;
    let flush = |c: &mut Option<(String, String)>| {
        if let Some((path, body)) = c.take() {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        }
    };
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("//- ") {
            flush(&mut current);
            current = Some((path.trim().to_string(), String::new()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(&mut current);
}

/// `name` is a folder of `tests/fixtures`, or `endpoints/<framework>` / `clients/<pair>`:
/// one of the index crate's multi-file fixtures (`crates/navegador-index/tests/<kind>/<name>.txt`:
/// endpoints of a framework, or a client and the service it calls).
pub fn indexed(name: &str) -> Indexed {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name.replace('/', "-"));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match name.split_once('/').filter(|(kind, _)| matches!(*kind, "endpoints" | "clients")) {
        Some((kind, fixture)) => {
            std::fs::create_dir_all(&root).unwrap();
            let text = std::fs::read_to_string(manifest.join("../navegador-index/tests").join(kind).join(format!("{fixture}.txt"))).unwrap();
            lay_out(&text, &root);
        }
        None => copy_dir(&manifest.join("tests/fixtures").join(name), &root),
    }
    // What git would not keep in the fixture: an ignored file and a dependency folder.
    std::fs::write(root.join("ignored.txt"), "fetchOrder in an ignored file\n").unwrap();
    std::fs::create_dir_all(root.join("node_modules/pkg")).unwrap();
    std::fs::write(root.join("node_modules/pkg/index.js"), "export const fetchOrder = 1;\n").unwrap();
    let db = root.join(".navegador/graph.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let mut store = Store::open(&db).unwrap();
    navegador_index::ingest(&root, &mut store, &Default::default(), &navegador_index::NoProgress, None).unwrap();
    Indexed { _dir: dir, root, store }
}

/// Volatile values (modification times) made stable for golden files.
fn stabilize(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "modifiedAt" && x.is_string() {
                    *x = Value::String("<mtime>".into());
                } else {
                    stabilize(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(stabilize),
        _ => {}
    }
}

#[test]
fn contract_cases_match_their_golden_envelopes() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut current: Option<(String, Indexed)> = None;
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut seen = std::collections::HashSet::new();
    for line in cases.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut parts = line.splitn(4, ' ');
        let (ws, name, tool, args) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap_or("{}"));
        if current.as_ref().is_none_or(|(w, _)| w != ws) {
            current = Some((ws.to_string(), indexed(ws)));
        }
        let (_, ix) = current.as_ref().unwrap();
        let args: Map<String, Value> = serde_json::from_str(args).unwrap_or_else(|e| panic!("case {name}: bad JSON: {e}"));
        let workspace = Workspace::new(&ix.root);
        let cx = Context { workspace: &workspace, store: Some(&ix.store), index_complete: true };
        let mut got = call(tool, &args, &cx).to_value();
        stabilize(&mut got);
        let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
        assert!(!text.contains(ix.root.to_str().unwrap()), "case {name}: an absolute path leaked:\n{text}");
        assert!(seen.insert(name.to_string()), "case name {name} is used twice in cases.txt");
        let golden = here.join("golden").join(format!("{name}.json"));
        ran += 1;
        if update {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(want) if want == text => {}
            Ok(want) => failures.push(format!("case {name} differs from {}:\n--- want\n{want}\n--- got\n{text}", golden.display())),
            Err(_) => failures.push(format!("case {name}: no golden file {} (run with UPDATE_GOLDEN=1)", golden.display())),
        }
    }
    assert!(ran > 0);
    assert!(failures.is_empty(), "{} of {ran} cases failed:\n{}", failures.len(), failures.join("\n"));
}

/// The recursive payload's budget: 300 direct callers (each an entry point) give 301 nodes
/// and 300 paths. By default each list is cut to the page size (`limit` 25); with a big
/// `limit`, to the contract's caps. Either way the answer is `partial` with
/// `RESULT_TRUNCATED`, and the summary counts stay those of the whole traversal.
#[test]
fn recursive_payload_is_capped_and_counts_stay_true() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("fan");
    std::fs::create_dir_all(&root).unwrap();
    let mut src = String::from("def target():\n    return 1\n\n");
    for i in 0..300 {
        src.push_str(&format!("def caller_{i}():\n    return target()\n\n"));
    }
    std::fs::write(root.join("fan.py"), src).unwrap();
    let db = root.join(".navegador/graph.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let mut store = Store::open(&db).unwrap();
    navegador_index::ingest(&root, &mut store, &Default::default(), &navegador_index::NoProgress, None).unwrap();
    let workspace = Workspace::new(&root);
    let cx = Context { workspace: &workspace, store: Some(&store), index_complete: true };
    let args = |v: Value| v.as_object().unwrap().clone();

    let flat = call("code.trace_callers", &args(serde_json::json!({"path": "fan.py", "symbol": "target"})), &cx).to_value();
    assert_eq!(flat["status"], "partial", "one page of 300");
    assert_eq!(flat["data"]["count"], 25);
    assert_eq!(flat["data"]["totalMatched"], 300);
    let all = call("code.trace_callers", &args(serde_json::json!({"path": "fan.py", "symbol": "target", "limit": 500})), &cx).to_value();
    assert_eq!(all["status"], "ok");
    assert_eq!(all["data"]["count"], 300);
    let last = call("code.trace_callers", &args(serde_json::json!({"path": "fan.py", "symbol": "target", "offset": 290})), &cx).to_value();
    assert_eq!(last["data"]["count"], 10);
    assert_eq!(last["data"]["items"][0]["caller"], "caller_290");

    // At the default limit the payload is also cut so that the answer stays near 15 KB (fewer entries per list).
    let rec = call("code.trace_callers", &args(serde_json::json!({"path": "fan.py", "symbol": "target", "recursive": true})), &cx).to_value();
    let per_list = rec["errors"].as_array().unwrap().iter().find_map(|e| e["details"]["perList"].as_u64()).unwrap() as usize;
    assert!(per_list < 25, "{per_list}");
    assert!(serde_json::to_vec(&rec["data"]["recursive"]).unwrap().len() <= 15 * 1024);
    for (limit, nodes, paths, entries, callers) in [(None, per_list, per_list, per_list, per_list), (Some(25), 25, 25, 25, 25), (Some(500), 200, 50, 50, 100)] {
        let mut a = serde_json::json!({"path": "fan.py", "symbol": "target", "recursive": true});
        if let Some(l) = limit {
            a["limit"] = serde_json::json!(l);
        }
        let rec = call("code.trace_callers", &args(a), &cx).to_value();
        assert_eq!(rec["status"], "partial", "{rec}");
        assert_eq!(rec["meta"]["truncated"], true);
        let err = &rec["errors"][0];
        assert_eq!(err["code"], "RESULT_TRUNCATED");
        let r = &rec["data"]["recursive"];
        let rec_err = rec["errors"].as_array().unwrap().iter().find(|e| e["details"]["nodeCount"].is_number()).unwrap();
        assert_eq!(rec_err["details"]["nodeCount"], 301);
        assert_eq!(rec_err["details"]["pathCount"], 300);
        assert_eq!(rec_err["details"]["maxDepth"], 3);
        assert_eq!(r["nodeCount"], 301);
        assert_eq!(r["pathCount"], 300);
        assert_eq!(r["nodes"].as_array().unwrap().len(), nodes);
        assert_eq!(r["paths"].as_array().unwrap().len(), paths);
        assert_eq!(r["probableEntryPoints"].as_array().unwrap().len(), entries);
        let shown: std::collections::HashSet<&str> = r["nodes"].as_array().unwrap().iter().map(|n| n["key"].as_str().unwrap()).collect();
        for (k, callers) in r["adjacency"].as_object().unwrap() {
            assert!(shown.contains(k.as_str()) && callers.as_array().unwrap().iter().all(|c| shown.contains(c.as_str().unwrap())));
        }
        let c = &r["classifications"];
        assert_eq!(c["summary"]["directCallerCount"], 300);
        assert_eq!(c["summary"]["indirectCallerCount"], 0);
        assert_eq!(c["directCallers"].as_array().unwrap().len(), callers);
        assert!(rec["summary"].as_str().unwrap().starts_with("Found 300 direct callers and 0 indirect callers of 'target' up to depth 3"), "{}", rec["summary"]);
    }
}

fn call_on(ix: &Indexed, complete: bool, tool: &str, args: Value) -> Value {
    let workspace = Workspace::new(&ix.root);
    let cx = Context { workspace: &workspace, store: Some(&ix.store), index_complete: complete };
    call(tool, args.as_object().unwrap(), &cx).to_value()
}

/// `include_source` on files that changed after indexing: gone, binary, shorter. Each is a
/// note on the item, never a failed answer.
#[test]
fn source_of_a_changed_file_is_a_note() {
    let ix = indexed("answers");
    std::fs::remove_file(ix.root.join("pkg/long.py")).unwrap();
    std::fs::write(ix.root.join("pkg/deco.py"), b"\x00\x01\x02 binary now").unwrap();
    std::fs::write(ix.root.join("pkg/views.py"), "# emptied\n").unwrap();
    for (symbol, note) in [
        ("long_function", "the file is gone since it was indexed"),
        ("setupmethod", "the file is binary"),
        ("configure", "the file has fewer than 5 lines"),
    ] {
        let env = call_on(&ix, true, "code.find_symbol", serde_json::json!({"symbol": symbol, "include_source": true}));
        assert_eq!(env["status"], "ok", "{env}");
        let source = &env["data"]["items"][0]["source"];
        assert!(source["text"].is_null(), "{source}");
        assert!(source["note"].as_str().unwrap().starts_with(note), "{source}");
    }
}

/// While the first index builds, graph answers carry `INDEX_INCOMPLETE`, failures included
/// (a symbol "not found" may not be indexed yet); a fault of the arguments does not.
#[test]
fn first_index_answers_say_incomplete() {
    let ix = indexed("answers");
    let codes = |env: &Value| env["errors"].as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let env = call_on(&ix, false, "code.trace_callers", serde_json::json!({"path": "pkg/query.py", "symbol": "nothing_here"}));
    assert_eq!(env["status"], "error");
    assert_eq!(codes(&env), ["SYMBOL_NOT_FOUND", "INDEX_INCOMPLETE"]);
    let env = call_on(&ix, false, "code.find_symbol", serde_json::json!({"symbol": "union"}));
    assert_eq!((env["status"].as_str(), codes(&env)), (Some("partial"), vec!["INDEX_INCOMPLETE".to_string()]));
    let env = call_on(&ix, false, "code.list_endpoints", serde_json::json!({}));
    assert_eq!(codes(&env), ["INDEX_INCOMPLETE"]);
    let env = call_on(&ix, false, "code.trace_symbol", serde_json::json!({"path": "pkg/query.py", "symbol": "fetch", "limit": 0}));
    assert_eq!(codes(&env), ["INVALID_INPUT"]);
    let env = call_on(&ix, false, "code.search_text", serde_json::json!({"query": "join"}));
    assert!(codes(&env).is_empty(), "the filesystem tools do not wait for the index");
}
