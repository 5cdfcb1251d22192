//! cypher-tck: runs the openCypher TCK feature files against the engine on a `MemGraph`.
//!
//! Usage: `cypher-tck [--verbose] [--filter TEXT] FEATURES_DIR`. Prints passed/failed/skipped
//! per folder and ends with the line `N passed, N failed`. Skipped: temporal features
//! (temporal types are out of scope) and scenarios that need a registered procedure.

mod expected;
mod gherkin;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use navegador_cypher::{execute, CypherError, QueryOptions, QueryResult};
use navegador_graph::{MemGraph, Value};

#[global_allocator]
static ALLOC: navegador_cypher::memory::CountingAlloc = navegador_cypher::memory::CountingAlloc;

enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose" || a == "-v");
    let filter = args
        .iter()
        .position(|a| a == "--filter")
        .and_then(|i| args.get(i + 1).cloned());
    let dir = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with('-') && (*i == 0 || args[i - 1] != "--filter"))
        .map(|(_, a)| a.clone())
        .next()
        .unwrap_or_else(|| "/work/shared/tck/features".into());
    // Deep recursion in the engine is bounded, but debug builds use large frames.
    let code = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(Path::new(&dir), verbose, filter.as_deref()))
        .expect("spawn runner thread")
        .join()
        .unwrap_or(2);
    std::process::exit(code);
}

fn feature_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            feature_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "feature") {
            out.push(p);
        }
    }
}

fn run(dir: &Path, verbose: bool, filter: Option<&str>) -> i32 {
    let mut files = Vec::new();
    feature_files(dir, &mut files);
    if files.is_empty() {
        eprintln!("no .feature files under {}", dir.display());
        return 2;
    }
    let graphs_dir = dir.parent().map(|p| p.join("graphs")).unwrap_or_default();
    let mut per_folder: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    let mut skip_reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    std::panic::set_hook(Box::new(|_| {}));
    for f in &files {
        let rel = f.strip_prefix(dir).unwrap_or(f);
        let folder = rel
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let fname = rel
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        for sc in gherkin::parse_feature(&text) {
            let label = format!("{fname} {}", sc.name);
            if filter.is_some_and(|flt| !label.contains(flt)) {
                continue;
            }
            let outcome = if folder.contains("temporal") {
                Outcome::Skip("temporal types are out of scope".into())
            } else if uses_temporal(&sc) {
                Outcome::Skip("uses temporal functions (out of scope)".into())
            } else {
                match std::panic::catch_unwind(|| run_scenario(&sc, &graphs_dir)) {
                    Ok(o) => o,
                    Err(p) => {
                        let msg = p
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        Outcome::Fail(format!("panic: {msg}"))
                    }
                }
            };
            let e = per_folder.entry(folder.clone()).or_default();
            match outcome {
                Outcome::Pass => e[0] += 1,
                Outcome::Fail(why) => {
                    e[1] += 1;
                    failures.push(format!("{folder}/{label}: {why}"));
                }
                Outcome::Skip(why) => {
                    e[2] += 1;
                    *skip_reasons.entry(why).or_default() += 1;
                }
            }
        }
    }
    if verbose {
        for f in &failures {
            println!("FAIL {f}");
        }
        println!();
    }
    let (mut p, mut fl, mut s) = (0, 0, 0);
    let (mut cp, mut cf) = (0, 0);
    for (folder, [a, b, c]) in &per_folder {
        println!("{folder:<42} {a:>4} passed {b:>4} failed {c:>4} skipped");
        p += a;
        fl += b;
        s += c;
        if folder.starts_with("clauses") || folder.starts_with("expressions") {
            cp += a;
            cf += b;
        }
    }
    for (why, n) in &skip_reasons {
        println!("skipped {n}: {why}");
    }
    if cp + cf > 0 {
        println!(
            "clauses+expressions: {cp} passed, {cf} failed ({:.1}%)",
            100.0 * cp as f64 / (cp + cf) as f64
        );
    }
    println!("total skipped: {s}");
    println!("{p} passed, {fl} failed");
    i32::from(fl > 0)
}

fn uses_temporal(sc: &gherkin::Scenario) -> bool {
    let re = regex::Regex::new(
        r"(?i)\b(date|datetime|localdatetime|localtime|time|duration)\s*(\.\w+\s*)?\(",
    )
    .expect("valid regex");
    sc.steps
        .iter()
        .any(|s| s.doc.as_deref().is_some_and(|d| re.is_match(d)))
}

fn opts(params: &BTreeMap<String, Value>) -> QueryOptions {
    QueryOptions {
        read_only: false,
        max_complexity: 0,
        timeout: Duration::from_secs(10),
        max_rows: usize::MAX,
        params: params.clone(),
        ..QueryOptions::default()
    }
}

type Snapshot = (
    BTreeSet<i64>,
    BTreeSet<i64>,
    BTreeSet<String>,
    BTreeSet<(bool, i64, String, String)>,
);

fn snapshot(g: &MemGraph) -> Snapshot {
    let mut props = BTreeSet::new();
    let mut labels = BTreeSet::new();
    for n in g.nodes() {
        labels.extend(n.labels.iter().cloned());
        for (k, v) in &n.props {
            props.insert((true, n.id.0, k.clone(), expected::render(v, false)));
        }
    }
    for e in g.edges() {
        for (k, v) in &e.props {
            props.insert((false, e.id.0, k.clone(), expected::render(v, false)));
        }
    }
    (
        g.nodes().map(|n| n.id.0).collect(),
        g.edges().map(|e| e.id.0).collect(),
        labels,
        props,
    )
}

fn diff(a: &Snapshot, b: &Snapshot) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    m.insert("+nodes", b.0.difference(&a.0).count());
    m.insert("-nodes", a.0.difference(&b.0).count());
    m.insert("+relationships", b.1.difference(&a.1).count());
    m.insert("-relationships", a.1.difference(&b.1).count());
    m.insert("+labels", b.2.difference(&a.2).count());
    m.insert("-labels", a.2.difference(&b.2).count());
    m.insert("+properties", b.3.difference(&a.3).count());
    m.insert("-properties", a.3.difference(&b.3).count());
    m
}

fn run_scenario(sc: &gherkin::Scenario, graphs_dir: &Path) -> Outcome {
    let mut g = MemGraph::new();
    let mut params = BTreeMap::new();
    let mut result: Option<Result<QueryResult, CypherError>> = None;
    let mut before: Option<Snapshot> = None;
    for st in &sc.steps {
        let t = st.text.as_str();
        if t == "an empty graph" || t == "any graph" {
            continue;
        }
        if let Some(name) = t
            .strip_prefix("the ")
            .and_then(|r| r.strip_suffix(" graph"))
        {
            let path = graphs_dir.join(name).join(format!("{name}.cypher"));
            let Ok(q) = std::fs::read_to_string(&path) else {
                return Outcome::Skip(format!("named graph {name} not found"));
            };
            if let Err(e) = execute(&mut g, &q, &opts(&params)) {
                return Outcome::Fail(format!("loading graph {name}: {e}"));
            }
            continue;
        }
        if t.starts_with("there exists a procedure") {
            return Outcome::Skip(
                "needs a registered procedure (procedures are not supported)".into(),
            );
        }
        if t.starts_with("having executed") {
            let q = st.doc.clone().unwrap_or_default();
            if let Err(e) = execute(&mut g, &q, &opts(&params)) {
                return Outcome::Fail(format!("setup query failed: {e}"));
            }
            continue;
        }
        if t.starts_with("parameters are") {
            for row in &st.table {
                if row.len() >= 2 {
                    match expected::parse(&row[1]) {
                        Ok(v) => {
                            params.insert(row[0].clone(), v);
                        }
                        Err(e) => return Outcome::Fail(e),
                    }
                }
            }
            continue;
        }
        if t.starts_with("executing query") || t.starts_with("executing control query") {
            let q = st.doc.clone().unwrap_or_default();
            before = Some(snapshot(&g));
            result = Some(execute(&mut g, &q, &opts(&params)));
            continue;
        }
        if t.starts_with("the result should be empty") {
            match &result {
                Some(Ok(r)) if r.rows.is_empty() => continue,
                Some(Ok(r)) => {
                    return Outcome::Fail(format!("expected no rows, got {}", r.rows.len()))
                }
                Some(Err(e)) => return Outcome::Fail(format!("unexpected error: {e}")),
                None => return Outcome::Fail("no query executed".into()),
            }
        }
        if t.starts_with("the result should be") {
            let ordered = t.contains("in order");
            let sort_lists = t.contains("ignoring element order for lists");
            let r = match &result {
                Some(Ok(r)) => r,
                Some(Err(e)) => return Outcome::Fail(format!("unexpected error: {e}")),
                None => return Outcome::Fail("no query executed".into()),
            };
            let Some((head, rows)) = st.table.split_first() else {
                return Outcome::Fail("missing table".into());
            };
            if head != &r.columns {
                return Outcome::Fail(format!("columns {:?}, expected {:?}", r.columns, head));
            }
            let mut want = Vec::new();
            for row in rows {
                let mut cells = Vec::new();
                for c in row {
                    match expected::parse(c) {
                        Ok(v) => cells.push(expected::render(&v, sort_lists)),
                        Err(e) => return Outcome::Fail(e),
                    }
                }
                want.push(cells);
            }
            let mut got: Vec<Vec<String>> = r
                .rows
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|v| expected::render(v, sort_lists))
                        .collect()
                })
                .collect();
            if !ordered {
                want.sort();
                got.sort();
            }
            if want != got {
                let show = |v: &Vec<Vec<String>>| {
                    v.iter()
                        .take(6)
                        .map(|r| r.join(" | "))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                return Outcome::Fail(format!(
                    "rows differ: got [{}], expected [{}]",
                    show(&got),
                    show(&want)
                ));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("a ").or_else(|| t.strip_prefix("an ")) {
            if let Some((class, _)) = rest.split_once(" should be raised") {
                let detail = rest.rsplit(':').next().unwrap_or("").trim();
                match &result {
                    Some(Err(e)) if e.class() == class => continue,
                    Some(Err(e)) => {
                        return Outcome::Fail(format!(
                            "expected {class} ({detail}), got {} : {e}",
                            e.class()
                        ))
                    }
                    Some(Ok(_)) => {
                        return Outcome::Fail(format!(
                            "expected {class} ({detail}), query succeeded"
                        ))
                    }
                    None => return Outcome::Fail("no query executed".into()),
                }
            }
        }
        if t.starts_with("the side effects should be") || t.starts_with("no side effects") {
            let (Some(b), Some(Ok(_))) = (&before, &result) else {
                if let Some(Err(e)) = &result {
                    return Outcome::Fail(format!("unexpected error: {e}"));
                }
                continue;
            };
            let actual = diff(b, &snapshot(&g));
            let mut want: BTreeMap<String, usize> = BTreeMap::new();
            for row in &st.table {
                if row.len() >= 2 {
                    want.insert(row[0].clone(), row[1].parse().unwrap_or(0));
                }
            }
            for (k, v) in &actual {
                let w = want.get(*k).copied().unwrap_or(0);
                if w != *v {
                    return Outcome::Fail(format!("side effect {k}: got {v}, expected {w}"));
                }
            }
            continue;
        }
        if t.starts_with("a ") || t.starts_with("an ") {
            continue;
        }
        return Outcome::Fail(format!("unknown step: {t}"));
    }
    if let Some(Err(e)) = &result {
        // An error nobody expected.
        let expected_error = sc.steps.iter().any(|s| s.text.contains("should be raised"));
        if !expected_error {
            return Outcome::Fail(format!("unexpected error: {e}"));
        }
    }
    Outcome::Pass
}
