//! The counting aggregations of `tests/counts.txt`, shared by the engine's tests (on
//! `MemGraph`) and the store's (on SQLite and PostgreSQL): each query, answered from counts
//! and degrees where it can be (`pushdown.rs`), against the scan it stands for.

use navegador_cypher::{execute, execute_read, QueryOptions, QueryResult};
use navegador_graph::{GraphRead, GraphWrite};

/// Loads the graph of `counts.txt` into `g` (empty) and checks every query of it.
pub fn check_counts(g: &mut dyn GraphWrite) {
    let text = include_str!("../counts.txt");
    let (graph, queries) = text.split_once("# queries").expect("counts.txt has a `# queries` line");
    let create: Vec<&str> = graph.lines().filter(|l| !l.starts_with('#')).collect();
    let writes = QueryOptions { read_only: false, ..QueryOptions::default() };
    execute(g, &create.join("\n"), &writes).expect("the graph of counts.txt loads");
    let g: &dyn GraphRead = g;
    let run = |q: &str| execute_read(g, q, &QueryOptions::default()).unwrap_or_else(|e| panic!("{q}\nfailed: {e}"));
    let mut checked = 0;
    for q in queries.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fast = run(&q.replace("{scan} ", ""));
        let scan = run(&q.replace("{scan}", "WHERE true"));
        let ordered = q.contains("ORDER BY");
        let rows = |r: &QueryResult| {
            let mut v: Vec<String> = r.rows.iter().map(|row| format!("{row:?}")).collect();
            if !ordered {
                v.sort();
            }
            v
        };
        assert_eq!(fast.columns, scan.columns, "{q}");
        assert_eq!(rows(&fast), rows(&scan), "{q}");
        checked += 1;
    }
    assert!(checked >= 20, "counts.txt lost its queries");
}
