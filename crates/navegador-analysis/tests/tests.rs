//! Answers of the analysis layer on the shared fixture repository (`tests/mcp/fixture`,
//! also driven through MCP by the Python tests). Data-driven: each case is a line of
//! `tests/cases.txt`; all answers are rendered to `tests/answers.golden` (ids removed,
//! since they follow ingest order) and compared. `UPDATE_GOLDEN=1` rewrites the file.

use std::path::{Path, PathBuf};

use navegador_analysis as analysis;
use navegador_analysis::Limits;
use navegador_index::{IngestConfig, NoProgress};
use navegador_store::Store;
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp/fixture").canonicalize().unwrap()
}

fn indexed() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("graph.db");
    let mut store = Store::open(&db).unwrap();
    let r = analysis::ingest(&fixture(), &mut store, &IngestConfig::default(), &NoProgress, None).unwrap();
    assert_eq!(r.files, 7, "{r:?}");
    drop(store);
    let store = Store::open_read_only(&db).unwrap();
    (dir, store)
}

/// Drops ids (they follow ingest order) so answers compare across runs.
fn strip_ids(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in ["id", "source", "target"] {
                if m.get(k).is_some_and(Value::is_number) {
                    m.remove(k);
                }
            }
            m.values_mut().for_each(strip_ids);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_ids),
        _ => {}
    }
}

/// Runs one case line: `tool arg=value ...`.
fn run(store: &Store, line: &str) -> String {
    // `query <cypher>`: the rest of the line is the query.
    if let Some(cypher) = line.strip_prefix("query ") {
        let r = analysis::query_read(store, cypher, &Default::default(), &analysis::QueryLimits::default());
        return match r {
            Ok(a) => serde_json::to_string_pretty(&serde_json::to_value(a).unwrap()).unwrap(),
            Err(e) => format!("error: {e}"),
        };
    }
    let mut parts = line.split_whitespace();
    let tool = parts.next().unwrap();
    let mut name = String::new();
    let mut file: Option<String> = None;
    let mut depth = 1u32;
    let mut markdown = false;
    let mut all = false;
    let mut limit = 20i64;
    for p in parts {
        let (k, v) = p.split_once('=').unwrap();
        match k {
            "name" => name = v.replace('~', " "), // `~` stands for a space
            "file" => file = Some(v.to_string()),
            "depth" => depth = v.parse().unwrap(),
            "format" => markdown = v == "markdown",
            "all" => all = v == "true",
            "limit" => limit = v.parse().unwrap(),
            _ => panic!("unknown argument {k}"),
        }
    }
    let limits = Limits::default();
    let f = file.as_deref();
    let answer: Result<Value, _> = match tool {
        "function" => analysis::function(store, &name, f, depth, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "class" => analysis::class(store, &name, f, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "explain" => analysis::explain(store, &name, f, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "context" if markdown => {
            return analysis::context(store, f.unwrap(), &limits).map(|b| analysis::bundle_markdown(&b)).unwrap();
        }
        "context" => analysis::context(store, f.unwrap(), &limits).map(|b| serde_json::to_value(b).unwrap()),
        "blast_radius" => {
            analysis::blast_radius(store, &name, f, depth, &limits).map(|b| serde_json::to_value(b).unwrap())
        }
        "search" => {
            let layers = if all { analysis::SearchLayers::All } else { analysis::SearchLayers::Code };
            analysis::search(store, &name, layers, limit).map(|b| serde_json::to_value(b).unwrap())
        }
        "search_knowledge" => analysis::search(store, &name, analysis::SearchLayers::Knowledge, limit)
            .map(|b| serde_json::to_value(b).unwrap()),
        "get_rationale" => analysis::get_rationale(store, &name, f).map(|b| serde_json::to_value(b).unwrap()),
        "find_owners" => analysis::find_owners(store, &name, f).map(|b| serde_json::to_value(b).unwrap()),
        _ => panic!("unknown tool {tool}"),
    };
    match answer {
        Ok(mut v) => {
            strip_ids(&mut v);
            serde_json::to_string_pretty(&v).unwrap()
        }
        Err(e) => {
            let mut out = format!("error: {e}");
            if let analysis::AnalysisError::Ambiguous { candidates, .. } = e {
                for c in candidates {
                    out.push_str(&format!("\n  candidate {} {:?} {:?}", c.node_type, c.qualified_name, c.file_path));
                }
            }
            out
        }
    }
}

#[test]
fn answers_match_golden() {
    let (_dir, store) = indexed();
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let mut out = String::new();
    for line in cases.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        out.push_str(&format!("=== {line}\n{}\n\n", run(&store, line)));
    }
    let golden = here.join("answers.golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &out).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    if expected != out {
        let first = expected.lines().zip(out.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "answers differ from {} (first at line {}: {:?}); rerun with UPDATE_GOLDEN=1 and review the diff",
            golden.display(),
            first + 1,
            out.lines().nth(first)
        );
    }
}

/// Facts the golden file must keep showing, asserted directly so a careless
/// `UPDATE_GOLDEN=1` cannot bless a regression.
#[test]
fn key_facts() {
    let (_dir, store) = indexed();
    let l = Limits::default();
    // Callers and callees with resolution and line.
    let b = analysis::function(&store, "User.rename", None, 1, &l).unwrap();
    let callee = |q: &str| b.edges.iter().any(|e| e.edge_type == "CALLS" && e.target_name == q && e.resolution.as_deref() == Some("exact"));
    assert!(callee("app.util.clean") && callee("app.util.log") && callee("app.base.Base.save"), "{:#?}", b.edges);
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("caller") && n.name == "promote"));
    // Depth 2 reaches a caller's caller.
    let b = analysis::function(&store, "validate", None, 2, &l).unwrap();
    assert!(b.nodes.iter().any(|n| n.name == "__init__" && n.distance == Some(2)), "{:#?}", b.nodes);
    // Ambiguity lists the candidates; `file` picks one.
    match analysis::function(&store, "clean", None, 1, &l) {
        Err(analysis::AnalysisError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 2),
        other => panic!("{other:?}"),
    }
    let b = analysis::function(&store, "clean", Some("app/util.py"), 1, &l).unwrap();
    assert_eq!(b.target.qualified_name.as_deref(), Some("app.util.clean"));
    // Clamping is said.
    let b = analysis::function(&store, "log", None, 1000, &l).unwrap();
    assert_eq!(b.metadata.depth, Some(l.max_depth));
    assert!(b.metadata.notes.iter().any(|n| n.contains("clamped")));
    // Class hierarchy both ways, and interfaces.
    let b = analysis::class(&store, "User", None, &l).unwrap();
    let rel = |r: &str, n: &str| b.nodes.iter().any(|x| x.relation.as_deref() == Some(r) && x.name == n);
    assert!(rel("base", "Base") && rel("subclass", "Admin") && rel("member", "rename"), "{:#?}", b.nodes);
    let b = analysis::class(&store, "Square", None, &l).unwrap();
    assert!(b.nodes.iter().any(|x| x.relation.as_deref() == Some("interface") && x.name == "Shape"), "{:#?}", b.nodes);
    // A file's context: imports both ways.
    let b = analysis::context(&store, "app/models.py", &l).unwrap();
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("imports") && n.file_path.as_deref() == Some("app/base.py")));
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("imported_by") && n.file_path.as_deref() == Some("app/views.py")));
    // Blast radius: ordered by distance, with paths, unresolved sites counted.
    let r = analysis::blast_radius(&store, "Base.save", None, 3, &l).unwrap();
    let d: Vec<u32> = r.items.iter().map(|i| i.node.distance.unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
    let handler = r.items.iter().find(|i| i.node.name == "handler").expect("views.handler calls obj.save()");
    assert_eq!(handler.path.first().unwrap().name, "app.base.Base.save");
    assert!(r.unresolved_count > 0 || r.items.len() > 0);
    let r = analysis::blast_radius(&store, "log", None, 3, &l).unwrap();
    assert!(r.items.iter().any(|i| i.node.name == "make"), "{:#?}", r.items);
}
