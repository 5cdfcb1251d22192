//! `navegador query`, `schema` and `check` on a small ingested Python workspace.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::bin;

/// Ingests a workspace of two modules: `domain/core.py` calls `infra/db.py` (a layering
/// violation for the rule below), CODEOWNERS assigns `domain/` to @alice.
fn workspace() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let files = [
        (".github/CODEOWNERS", "/domain/ @alice\n"),
        ("domain/core.py", "from infra.db import save\n\ndef place(order):\n    return save(order)\n\ndef total(xs):\n    return sum(xs)\n"),
        ("infra/db.py", "def save(x):\n    return helper(x)\n\ndef helper(x):\n    return x\n"),
    ];
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let db = root.join(".navegador/graph.db");
    let out = bin().arg("ingest").arg(&root).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (tmp, db)
}

fn run(db: &Path, args: &[&str]) -> Output {
    bin().args(args).arg("--db").arg(db).env_remove("NAVEGADOR_DB").output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn query_rows_params_and_refusals() {
    let (_tmp, db) = workspace();
    // rows as objects, through the CALLS edges resolution made
    let v = json(&run(
        &db,
        &["query", "MATCH (a:Function)-[:CALLS]->(b:Function) RETURN a.name AS caller, b.name AS callee ORDER BY caller", "--format", "json"],
    ));
    assert_eq!(v, serde_json::json!([{"caller": "place", "callee": "save"}, {"caller": "save", "callee": "helper"}]));
    // parameters: JSON when it parses, a string otherwise
    let v = json(&run(
        &db,
        &["query", "MATCH (f:Function {name: $n}) RETURN f.file_path AS file, $k + 1 AS k", "--param", "n=helper", "--param", "k=41", "--format", "json"],
    ));
    assert_eq!(v, serde_json::json!([{"file": "infra/db.py", "k": 42}]));
    // the table format has a header and a row count
    let o = run(&db, &["query", "MATCH (f:Function) RETURN f.name AS name ORDER BY name LIMIT 2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "name\n------\nhelper\nplace\n(2 rows)\n");
    // a write is refused unless --write, and the graph is untouched
    let o = run(&db, &["query", "CREATE (:Function {name: 'x'})"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("read-only query refused: CREATE"), "{}", stderr(&o));
    let o = run(&db, &["query", "CREATE (:Note:Extra {name: 'x'}) RETURN 1 AS one", "--write", "--format", "json"]);
    assert_eq!(json(&o), serde_json::json!([{"one": 1}]));
    let v = json(&run(&db, &["query", "MATCH (n:Extra) RETURN labels(n) AS l", "--format", "json"]));
    assert_eq!(v, serde_json::json!([{"l": ["Note", "Extra"]}]));
    // a syntax error shows line, column and a caret on stderr
    let o = run(&db, &["query", "MATCH (n RETURN n"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("line 1, column 10") && err.contains("MATCH (n RETURN n\n         ^"), "{err}");
    // EXPLAIN prints the plan with estimates
    let o = run(&db, &["query", "EXPLAIN MATCH (f:Function)-[:CALLS*1..3]->(g) RETURN g"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("est"), "{}", stdout(&o));
    // an unbounded expansion over a cartesian product is refused by the complexity limit
    let o = run(&db, &["query", "MATCH (a), (b), (c) MATCH (a)-[*]-(b) RETURN count(*)", "--max-complexity", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("query too complex"), "{}", stderr(&o));
    // a cut result says so
    let o = run(&db, &["query", "MATCH (n) RETURN n", "--max-rows", "1", "--format", "json"]);
    assert_eq!(json(&o).as_array().unwrap().len(), 1);
    assert!(stderr(&o).contains("result cut at 1 rows"), "{}", stderr(&o));
}

#[test]
fn schema_lists_labels_types_and_keys() {
    let (_tmp, db) = workspace();
    let v = json(&run(&db, &["schema", "--json"]));
    assert_eq!(v["labels"]["Function"], 4, "{v}");
    assert_eq!(v["relationship_types"]["CALLS"], 2, "{v}");
    assert_eq!(v["node_properties"]["name"].as_u64().is_some(), true, "{v}");
    assert!(v["relationship_properties"]["resolution"].as_u64().unwrap() >= 2, "{v}");
    let o = run(&db, &["schema"]);
    assert!(stdout(&o).starts_with("labels:\n"), "{}", stdout(&o));
}

#[test]
fn check_reports_violations_with_owners() {
    let (_tmp, db) = workspace();
    let add = |args: &[&str]| {
        let o = run(&db, args);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    add(&["add", "rule", "Functions are named", "--severity", "critical", "--constraint", "MATCH (f:Function) WHERE f.name IS NULL RETURN f"]);
    let o = run(&db, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("ok    rule \"Functions are named\" (critical)"), "{}", stdout(&o));
    add(&[
        "add",
        "rule",
        "Domain does not call infra",
        "--severity",
        "critical",
        "--rationale",
        "the domain stays testable without a database",
        "--constraint",
        "MATCH (a:Function)-[:CALLS]->(b:Function) WHERE a.file_path STARTS WITH 'domain/' AND b.file_path STARTS WITH 'infra/' RETURN a, b.name AS callee",
    ]);
    let o = run(&db, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("FAIL  rule \"Domain does not call infra\" (critical): 1 violation"), "{out}");
    assert!(out.contains("why: the domain stays testable without a database"), "{out}");
    assert!(out.contains("callee=save") && out.contains("owners: Person alice"), "{out}");
    let v = json_any(&run(&db, &["check", "--json"]));
    assert_eq!(v["critical_violations"], 1, "{v}");
    // a constraint that does not parse names its rule and exits 2
    add(&["add", "rule", "Broken", "--constraint", "MATCH (f RETURN f"]);
    let o = run(&db, &["check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("ERROR rule \"Broken\": its constraint cannot run: syntax error"), "{}", stdout(&o));
}

fn json_any(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}
