//! Latency benchmark of the graph-backed `code.*` tools (issue 6's speed targets).
//!
//! Usage: `cargo run --release -p navegador-nav --example bench -- ROOT DB [--runs N] [--only TOOL,...]`
//!
//! Opens the graph read-only, samples symbols deterministically (every k-th Method/Function
//! by node id, so the same graph always gives the same sample), warms up with one pass
//! (10 calls for fuzzy),
//! then times each `navegador_nav::call` with `Instant` and prints p50/p95/max per tool and
//! the result sizes (so it is visible that real work was done). The `digest` column hashes
//! every answer's JSON: equal digests before and after an optimization mean equal answers.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use navegador_nav::{call, Context, Workspace};
use navegador_store::Store;
use serde_json::{json, Map, Value};

const FIND_SAMPLES: usize = 200;
const CALLER_SAMPLES: usize = 100;
const FUZZY_SAMPLES: usize = 50;
const ENDPOINT_RUNS: usize = 20;
/// Warm-up calls of the fuzzy case (each a scan); the others warm up with a whole pass.
const FUZZY_WARM_UP: usize = 10;

struct Case {
    tool: &'static str,
    label: String,
    args: Vec<Map<String, Value>>,
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

/// Every k-th row of `rows`, `n` in all (a fixed stride from a fixed offset).
fn every_kth<T: Clone>(rows: &[T], n: usize) -> Vec<T> {
    if rows.len() <= n {
        return rows.to_vec();
    }
    let k = rows.len() / n;
    (0..n).map(|i| rows[(i * k + k / 2) % rows.len()].clone()).collect()
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// A rough size of an answer: the number of items (or nodes for a recursive trace).
fn result_size(tool: &str, env: &Value) -> usize {
    let d = &env["data"];
    match tool {
        "code.list_endpoints" => d["totalCount"].as_u64().unwrap_or(0) as usize,
        "code.find_symbol" => d["totalMatched"].as_u64().unwrap_or(0) as usize,
        _ if !d["recursive"].is_null() => d["recursive"]["nodeCount"].as_u64().unwrap_or(0) as usize,
        _ => d["items"].as_array().map_or(0, Vec::len),
    }
}

fn main() {
    let mut argv = std::env::args().skip(1);
    let (Some(root), Some(db)) = (argv.next(), argv.next()) else {
        eprintln!("usage: bench ROOT DB [--runs N] [--only tool,...]");
        std::process::exit(2);
    };
    let mut runs = 1usize;
    let mut only: Option<Vec<String>> = None;
    while let Some(a) = argv.next() {
        match a.as_str() {
            "--runs" => runs = argv.next().and_then(|x| x.parse().ok()).unwrap_or(1),
            "--only" => only = argv.next().map(|x| x.split(',').map(str::to_string).collect()),
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let store = Store::open_read_only(&PathBuf::from(&db)).expect("open the graph read-only");
    let ws = Workspace::new(&root);
    let cx = Context { workspace: &ws, store: Some(&store), index_complete: true };

    let t0 = Instant::now();
    let conn = store.sqlite_conn().expect("a SQLite graph file");
    let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    let (n_nodes, n_edges, n_files) =
        (count("SELECT count(*) FROM nodes"), count("SELECT count(*) FROM edges"), count("SELECT count(*) FROM files"));
    // Definitions (the find_symbol sample) and methods/functions with callers (the trace
    // sample), both in node id order.
    let defs: Vec<(String, String)> = conn
        .prepare("SELECT name, file_path FROM nodes WHERE label IN ('Method', 'Function') AND file_path IS NOT NULL ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let called: Vec<(String, String)> = conn
        .prepare(
            "SELECT n.name, n.file_path FROM nodes n WHERE n.label IN ('Method', 'Function') AND n.file_path IS NOT NULL
               AND n.id IN (SELECT dst FROM edges WHERE type = 'CALLS') ORDER BY n.id",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let find_sample = every_kth(&defs, FIND_SAMPLES);
    let trace_sample = every_kth(&called, CALLER_SAMPLES);
    eprintln!(
        "graph: {n_nodes} nodes, {n_edges} edges, {n_files} files; {} methods/functions, {} with callers (sampled in {:.1}s)",
        defs.len(),
        called.len(),
        t0.elapsed().as_secs_f64()
    );

    let mut cases = vec![
        Case {
            tool: "code.find_symbol",
            label: "find_symbol exact".into(),
            args: find_sample.iter().map(|(n, _)| obj(json!({"symbol": n}))).collect(),
        },
        Case {
            tool: "code.find_symbol",
            label: "find_symbol fuzzy".into(),
            // Fuzzy is a scan of every name: a quarter of the sample (every 4th) keeps the run short.
            args: find_sample.iter().step_by(FIND_SAMPLES / FUZZY_SAMPLES).map(|(n, _)| obj(json!({"symbol": n, "match": "fuzzy"}))).collect(),
        },
        Case {
            tool: "code.trace_callers",
            label: "trace_callers direct".into(),
            args: trace_sample.iter().map(|(n, p)| obj(json!({"path": p, "symbol": n}))).collect(),
        },
        Case {
            tool: "code.trace_callers",
            label: "trace_callers recursive d3".into(),
            args: trace_sample.iter().map(|(n, p)| obj(json!({"path": p, "symbol": n, "recursive": true, "max_depth": 3}))).collect(),
        },
        Case {
            tool: "code.list_endpoints",
            label: "list_endpoints whole tree".into(),
            args: (0..ENDPOINT_RUNS).map(|_| obj(json!({}))).collect(),
        },
    ];
    if let Some(only) = &only {
        cases.retain(|c| only.iter().any(|o| c.label.starts_with(o.as_str())));
    }

    println!(
        "{:<28} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>18}",
        "tool", "calls", "p50 ms", "p95 ms", "max ms", "mean ms", "items p50", "items max", "digest"
    );
    for case in &cases {
        // Warm-up (page cache, prepared statements).
        let warm = if case.label.contains("fuzzy") { FUZZY_WARM_UP } else { case.args.len() };
        for a in case.args.iter().take(warm) {
            let _ = call(case.tool, a, &cx);
        }
        let mut times = Vec::with_capacity(case.args.len() * runs);
        let mut sizes = Vec::with_capacity(case.args.len());
        let mut h = DefaultHasher::new();
        for run in 0..runs {
            for a in &case.args {
                let t = Instant::now();
                let env = call(case.tool, a, &cx);
                times.push(t.elapsed());
                if run == 0 {
                    let v = serde_json::to_value(&env).unwrap();
                    sizes.push(result_size(case.tool, &v));
                    v.to_string().hash(&mut h);
                }
            }
        }
        times.sort();
        sizes.sort();
        let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
        println!(
            "{:<28} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>18x}",
            case.label,
            times.len(),
            ms(pct(&times, 0.5)),
            ms(pct(&times, 0.95)),
            ms(*times.last().unwrap_or(&Duration::ZERO)),
            ms(mean),
            sizes.get(sizes.len() / 2).copied().unwrap_or(0),
            sizes.last().copied().unwrap_or(0),
            h.finish()
        );
    }
}
