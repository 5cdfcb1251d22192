//! Exports of a small text workspace (`tests/export/fixture.txt`): each format's output is
//! a golden file (`tests/export/*`, `UPDATE_GOLDEN=1` rewrites them), the Cypher export is
//! loaded back through our own engine into an empty graph and compared with the original,
//! and bad input gets its error. The real consumers (Graphviz, networkx, a Mermaid
//! parser) read the exports in `tests/mcp/test_export.py`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use navegador_analysis as analysis;
use navegador_analysis::export::{export, ExportAsk, Format};
use navegador_store::Store;
use serde_json::Value;

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/export")
}

fn indexed() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let (_, store) = common::index_text(dir.path(), &here().join("fixture.txt"));
    (dir, store)
}

fn run(store: &Store, ask: &ExportAsk) -> (String, analysis::export::ExportSummary) {
    let mut out = Vec::new();
    let summary = export(store, ask, &mut out, &mut |_, _, _| {}).unwrap();
    (String::from_utf8(out).unwrap(), summary)
}

fn ask(format: Format, scope: Option<&str>, depth: u32, labels: &[&str]) -> ExportAsk {
    let mut a = ExportAsk::new(format);
    a.scope = scope.map(str::to_string);
    a.depth = depth;
    a.labels = labels.iter().map(|l| l.to_string()).collect();
    a
}

fn golden(name: &str, got: &str) {
    let path = here().join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(got == want, "{name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it):\n{got}");
}

#[test]
fn every_format_matches_its_golden_file() {
    let (_d, store) = indexed();
    for (format, file) in [
        (Format::Graphml, "whole.graphml"),
        (Format::Dot, "whole.dot"),
        (Format::Mermaid, "whole.mmd"),
        (Format::Jsonl, "whole.jsonl"),
        (Format::Cypher, "whole.cypher"),
    ] {
        let (text, summary) = run(&store, &ask(format, None, 1, &[]));
        golden(file, &text);
        assert!(summary.nodes > 10 && summary.edges > 10, "{file}: {summary:?}");
    }
    // A neighbourhood: `Cart.add` and one hop, functions and methods only.
    for (format, file) in [(Format::Jsonl, "scoped.jsonl"), (Format::Mermaid, "scoped.mmd")] {
        let (text, _) = run(&store, &ask(format, Some("Cart.add"), 1, &["Method", "Function"]));
        golden(file, &text);
    }
}

/// The JSON Lines of a graph keyed by what survives a reload: nodes by `nav_id` (or their
/// id), with labels and properties; edges by their ends' keys, type and properties.
fn by_key(jsonl: &str, key: &dyn Fn(&Value) -> i64) -> (BTreeMap<i64, (Value, Value)>, Vec<String>) {
    let mut nodes = BTreeMap::new();
    let mut edges = Vec::new();
    let mut keys = BTreeMap::new();
    for line in jsonl.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "node" {
            let mut props = v["properties"].clone();
            let k = key(&v);
            props.as_object_mut().unwrap().remove("nav_id");
            keys.insert(v["id"].as_i64().unwrap(), k);
            nodes.insert(k, (v["labels"].clone(), props));
        } else {
            let end = |f: &str| keys[&v[f].as_i64().unwrap()];
            edges.push(format!("{} -{}-> {} {}", end("source"), v["label"], end("target"), v["properties"]));
        }
    }
    edges.sort();
    (nodes, edges)
}

#[test]
fn the_cypher_export_loads_back_into_an_empty_graph_unchanged() {
    let (dir, store) = indexed();
    let (cypher, summary) = run(&store, &ask(Format::Cypher, None, 1, &[]));
    let (original, _) = run(&store, &ask(Format::Jsonl, None, 1, &[]));
    let mut copy = Store::open(&dir.path().join("copy.db")).unwrap();
    let mut statements = 0;
    for line in cypher.lines().filter(|l| !l.starts_with("//") && !l.trim().is_empty()) {
        let limits = analysis::QueryLimits { read_only: false, ..Default::default() };
        analysis::query_write(&mut copy, line, &Default::default(), &limits)
            .unwrap_or_else(|e| panic!("{e}\n{line}"));
        statements += 1;
    }
    assert!(statements >= 2);
    let (reloaded, again) = run(&copy, &ask(Format::Jsonl, None, 1, &[]));
    assert_eq!((again.nodes, again.edges), (summary.nodes, summary.edges));
    let (want_nodes, want_edges) = by_key(&original, &|v| v["id"].as_i64().unwrap());
    let (got_nodes, got_edges) = by_key(&reloaded, &|v| v["properties"]["nav_id"].as_i64().unwrap());
    assert_eq!(got_nodes, want_nodes);
    assert_eq!(got_edges, want_edges);
}

#[test]
fn mermaid_is_cut_at_its_limit_and_says_so() {
    let (_d, store) = indexed();
    let mut a = ask(Format::Mermaid, None, 1, &[]);
    a.mermaid_max_nodes = 3;
    let (text, summary) = run(&store, &a);
    assert_eq!(text.lines().filter(|l| l.contains("[\"") && l.trim_start().starts_with('n')).count(), 3);
    assert!(text.contains("%% cut to 3 nodes"), "{text}");
    assert!(summary.notes.iter().any(|n| n.contains("cut to 3 nodes")), "{summary:?}");
}

#[test]
fn a_scope_is_a_path_or_a_name_and_an_unknown_one_is_refused() {
    let (_d, store) = indexed();
    let (file, _) = run(&store, &ask(Format::Jsonl, Some("shop/util.py"), 0, &[]));
    assert!(file.lines().all(|l| l.contains("\"type\":\"edge\"") || l.contains("shop/util.py")), "{file}");
    let (folder, _) = run(&store, &ask(Format::Jsonl, Some("web"), 0, &["File"]));
    assert_eq!(folder.lines().filter(|l| l.contains("\"type\":\"node\"")).count(), 2, "{folder}");
    let mut out = Vec::new();
    let e = export(&store, &ask(Format::Dot, Some("Crat"), 1, &[]), &mut out, &mut |_, _, _| {}).unwrap_err();
    assert!(e.to_string().starts_with("scope `Crat` is neither an indexed file or folder nor a symbol's name"), "{e}");
    let e = export(&store, &ask(Format::Dot, Some("  "), 1, &[]), &mut out, &mut |_, _, _| {}).unwrap_err();
    assert_eq!(e.to_string(), "`scope` must not be empty");
}

#[test]
fn context_markdown_ends_with_a_small_call_graph() {
    let (_d, store) = indexed();
    let b = analysis::context(&store, "shop/cart.py", &Default::default(), &Default::default()).unwrap();
    let md = analysis::context_markdown(&store, &b).unwrap();
    let graph = md.split("## Call graph\n\n```mermaid\n").nth(1).expect("a call graph section");
    assert!(graph.starts_with("flowchart LR\n"), "{graph}");
    assert!(graph.contains("|CALLS|"), "{graph}");
    assert!(graph.contains("shop.util.total") || graph.contains("total"), "{graph}");
}
