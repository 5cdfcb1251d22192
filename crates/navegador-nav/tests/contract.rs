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

/// `name` is a folder of `tests/fixtures`, or `endpoints/<framework>`: one of the index
/// crate's endpoint fixtures (`crates/navegador-index/tests/endpoints/<framework>.txt`).
pub fn indexed(name: &str) -> Indexed {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name.replace('/', "-"));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match name.strip_prefix("endpoints/") {
        Some(fw) => {
            std::fs::create_dir_all(&root).unwrap();
            let text = std::fs::read_to_string(manifest.join("../navegador-index/tests/endpoints").join(format!("{fw}.txt"))).unwrap();
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

/// The recursive payload's safety caps: 300 direct callers (each an entry point) give 301
/// nodes and 300 paths; the arrays are cut to the contract's caps, the answer is `partial`
/// with `RESULT_TRUNCATED`, and the summary counts stay those of the whole traversal.
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
    assert_eq!(flat["status"], "ok");
    assert_eq!(flat["data"]["count"], 300);

    let rec = call("code.trace_callers", &args(serde_json::json!({"path": "fan.py", "symbol": "target", "recursive": true})), &cx)
        .to_value();
    assert_eq!(rec["status"], "partial", "{rec}");
    assert_eq!(rec["meta"]["truncated"], true);
    let err = &rec["errors"][0];
    assert_eq!(err["code"], "RESULT_TRUNCATED");
    assert_eq!(err["details"]["nodeCount"], 301);
    assert_eq!(err["details"]["pathCount"], 300);
    assert_eq!(err["details"]["maxDepth"], 3);
    let r = &rec["data"]["recursive"];
    assert_eq!(r["nodeCount"], 301);
    assert_eq!(r["pathCount"], 300);
    assert_eq!(r["nodes"].as_array().unwrap().len(), 200);
    assert_eq!(r["paths"].as_array().unwrap().len(), 50);
    assert_eq!(r["probableEntryPoints"].as_array().unwrap().len(), 50);
    let c = &r["classifications"];
    assert_eq!(c["summary"]["directCallerCount"], 300);
    assert_eq!(c["summary"]["indirectCallerCount"], 0);
    assert_eq!(c["directCallers"].as_array().unwrap().len(), 100);
    assert_eq!(rec["summary"], "Found 300 direct callers and 0 indirect callers of 'target' up to depth 3.");
}
