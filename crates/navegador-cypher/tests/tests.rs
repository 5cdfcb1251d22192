//! Integration tests of the Cypher engine: data-driven query checks over a small code
//! graph, the read-only policy, limits (complexity, time, rows, cancellation), error
//! positions, and a bounded-time robustness run over mutated queries.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use navegador_cypher::{execute, execute_read, explain, CypherError, QueryOptions, QueryResult};
use navegador_graph::{GraphRead, MemGraph, Value};

#[path = "common/counts.rs"]
mod counts;

// Memory budgets measure what a query holds through the counting allocator.
#[global_allocator]
static ALLOC: navegador_cypher::memory::CountingAlloc = navegador_cypher::memory::CountingAlloc;

/// A tiny code graph: files, functions and calls.
const FIXTURE: &str = "
CREATE (m:File {file_path: 'src/main.rs'}), (l:File {file_path: 'src/lib.rs'}),
       (main:Function {name: 'main', qualified_name: 'app::main', line: 1}),
       (parse:Function {name: 'parse', qualified_name: 'app::parse', line: 10}),
       (run:Function:Public {name: 'run', qualified_name: 'app::run', line: 20}),
       (helper:Function {name: 'helper', qualified_name: 'app::util::helper', line: 30}),
       (cfg:Struct {name: 'Config', qualified_name: 'app::Config'}),
       (m)-[:CONTAINS]->(main), (l)-[:CONTAINS]->(parse), (l)-[:CONTAINS]->(run),
       (l)-[:CONTAINS]->(helper), (l)-[:CONTAINS]->(cfg),
       (main)-[:CALLS {count: 2}]->(run), (run)-[:CALLS {count: 1}]->(parse),
       (parse)-[:CALLS {count: 3}]->(helper), (run)-[:CALLS {count: 1}]->(helper),
       (parse)-[:USES]->(cfg)
";

fn fixture() -> MemGraph {
    let mut g = MemGraph::new();
    execute(&mut g, FIXTURE, &write_opts()).expect("fixture loads");
    g
}

fn write_opts() -> QueryOptions {
    QueryOptions {
        read_only: false,
        ..QueryOptions::default()
    }
}

fn render(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::String(s) => format!("'{s}'"),
        Value::List(l) => format!("[{}]", l.iter().map(render).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", render(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Node(n) => format!(
            "({}{})",
            n.labels.iter().map(|l| format!(":{l}")).collect::<String>(),
            n.props
                .get("name")
                .map(|v| format!(" {}", render(v)))
                .unwrap_or_default()
        ),
        Value::Relationship(r) => format!("[:{}]", r.rel_type),
        Value::Path(p) => format!("<path of {}>", p.edges.len()),
    }
}

fn table(r: &QueryResult) -> String {
    let mut s = r.columns.join(" | ");
    for row in &r.rows {
        s.push('\n');
        s.push_str(&row.iter().map(render).collect::<Vec<_>>().join(" | "));
    }
    s
}

/// Runs `query` read-only on the fixture and compares the result table with `expected`
/// (header line, then one line per row; leading indentation is ignored).
fn check(query: &str, expected: &str) {
    let g = fixture();
    let r = execute_read(&g, query, &QueryOptions::default())
        .unwrap_or_else(|e| panic!("{query}\nfailed: {e}"));
    let want: Vec<&str> = expected.trim().lines().map(str::trim).collect();
    assert_eq!(table(&r), want.join("\n"), "query: {query}");
}

#[test]
fn queries_over_the_code_graph() {
    let cases: &[(&str, &str)] = &[
        ("MATCH (f:Function {name: 'run'}) RETURN f.qualified_name", "f.qualified_name\n'app::run'"),
        ("MATCH (f:Function) WHERE f.name = 'parse' RETURN f.line AS line", "line\n10"),
        (
            "MATCH (a)-[:CALLS]->(b) RETURN a.name, b.name ORDER BY a.name, b.name",
            "a.name | b.name\n'main' | 'run'\n'parse' | 'helper'\n'run' | 'helper'\n'run' | 'parse'",
        ),
        (
            "MATCH (:Function {name: 'main'})-[:CALLS*1..3]->(x) RETURN DISTINCT x.name ORDER BY x.name",
            "x.name\n'helper'\n'parse'\n'run'",
        ),
        ("MATCH (f:File)-[:CONTAINS]->(x) RETURN f.file_path, count(x) AS n ORDER BY n DESC", "f.file_path | n\n'src/lib.rs' | 4\n'src/main.rs' | 1"),
        ("MATCH (x:Function|Struct) RETURN count(*) AS c", "c\n5"),
        ("MATCH (f:Function) WHERE NOT (f)<-[:CALLS]-() RETURN f.name", "f.name\n'main'"),
        ("MATCH (f:Function) WHERE f.name STARTS WITH 'h' OR f.name ENDS WITH 'un' RETURN f.name ORDER BY f.name", "f.name\n'helper'\n'run'"),
        ("MATCH (f:Function) WHERE f.qualified_name =~ 'app::util::.*' RETURN f.name", "f.name\n'helper'"),
        ("MATCH (f:Function) RETURN collect(f.name) AS names ORDER BY names", "names\n['main', 'parse', 'run', 'helper']"),
        ("MATCH (f:Function {name: 'run'}) RETURN [(f)-[:CALLS]->(c) | c.name] AS callees", "callees\n['parse', 'helper']"),
        ("MATCH (f:Function {name: 'run'}) RETURN f {.name, .line, kind: labels(f)} AS m", "m\n{kind: ['Function', 'Public'], line: 20, name: 'run'}"),
        ("MATCH p = (:Function {name: 'main'})-[:CALLS*]->(:Function {name: 'helper'}) RETURN length(p) AS len ORDER BY len", "len\n2\n3"),
        ("OPTIONAL MATCH (x:Nothing) RETURN x", "x\nnull"),
        ("UNWIND [3, 1, 2] AS x WITH x WHERE x > 1 RETURN x ORDER BY x", "x\n2\n3"),
        ("RETURN 1 AS x UNION RETURN 1 AS x", "x\n1"),
        ("RETURN 1 AS x UNION ALL RETURN 1 AS x", "x\n1\n1"),
        ("RETURN CASE WHEN 1 < 2 THEN 'yes' ELSE 'no' END AS c, [x IN range(1, 5) WHERE x % 2 = 1 | x * 10] AS l", "c | l\n'yes' | [10, 30, 50]"),
        ("RETURN all(x IN [1, 2] WHERE x > 0) AS a, any(x IN [1, 2] WHERE x > 1) AS b, none(x IN [] WHERE true) AS c, single(x IN [1, 2] WHERE x = 2) AS d", "a | b | c | d\ntrue | true | true | true"),
        ("MATCH (f:Function) WHERE EXISTS { (f)-[:USES]->(:Struct) } RETURN f.name", "f.name\n'parse'"),
        ("RETURN toUpper('a') + toString(1) AS s, substring('hello', 1, 3) AS t, split('a,b', ',') AS u, 7 / 2 AS i, 7 / 2.0 AS f", "s | t | u | i | f\n'A1' | 'ell' | ['a', 'b'] | 3 | 3.5"),
        ("RETURN null = null AS a, null OR true AS b, 1 IN [1, null] AS c, 2 IN [1, null] AS d", "a | b | c | d\nnull | true | true | null"),
        ("RETURN [1, 2, 3][1..] AS s, [1, 2, 3][-1] AS l, {a: 1}.a AS m", "s | l | m\n[2, 3] | 3 | 1"),
        ("MATCH (a:Function)-[r:CALLS]->(b) RETURN sum(r.count) AS s, avg(r.count) AS a, min(r.count) AS mn, max(r.count) AS mx", "s | a | mn | mx\n7 | 1.75 | 1 | 3"),
        ("MATCH (f:Function) RETURN f.name ORDER BY f.line DESC SKIP 1 LIMIT 2", "f.name\n'run'\n'parse'"),
        (
            "MATCH (f:Function) WHERE f.name IN ['run', 'main', null] RETURN f.name ORDER BY f.name",
            "f.name\n'main'\n'run'",
        ),
        ("MATCH (x:Struct|File) RETURN count(*) AS c", "c\n3"),
        // bare counts come from the graph's statistics; the rest is matched
        ("MATCH (f:Function) RETURN count(*) AS c, count(f) AS d", "c | d\n4 | 4"),
        ("MATCH ()-[r:CALLS]->() RETURN count(r) AS n", "n\n4"),
        ("MATCH (n:Nothing) RETURN count(*) AS n", "n\n0"),
        ("MATCH (a)-[:CALLS]->(a) RETURN count(*) AS n", "n\n0"),
        ("MATCH ()-[:CALLS]-() RETURN count(*) AS n", "n\n8"),
        (
            "MATCH (f:Function) RETURN f.name, COUNT { (f)-[:CALLS]->() } AS out, COUNT { MATCH (f)<-[:CALLS]-(c) WHERE c.name <> 'main' RETURN c } AS inn ORDER BY f.name",
            "f.name | out | inn\n'helper' | 0 | 2\n'main' | 1 | 0\n'parse' | 1 | 1\n'run' | 2 | 0",
        ),
        ("MATCH (f:Function {name: 'main'}) RETURN elementId(f) = toString(id(f)) AS same", "same\ntrue"),
        (
            "MATCH (a)-[:CALLS]->(f:Function {name: 'run'})-[:CALLS]->(b) RETURN a.name, b.name ORDER BY b.name",
            "a.name | b.name\n'main' | 'helper'\n'main' | 'parse'",
        ),
        (
            "MATCH (x:File)-[:CONTAINS]->()-[:CALLS]->(:Function {name: 'helper'})<-[c:CALLS]-(y) RETURN x.file_path, y.name, c.count ORDER BY y.name",
            "x.file_path | y.name | c.count\n'src/lib.rs' | 'parse' | 3\n'src/lib.rs' | 'run' | 1",
        ),
        (
            "MATCH p = shortestPath((:Function {name: 'main'})-[:CALLS*]->(:Function {name: 'helper'})) RETURN length(p) AS len",
            "len\n2",
        ),
        (
            "MATCH (a:Function {name: 'main'}), (b:Function {name: 'helper'}) MATCH p = allShortestPaths((a)-[*]-(b)) RETURN [n IN nodes(p) | n.name] AS via",
            "via\n['main', 'run', 'helper']",
        ),
    ];
    for (q, want) in cases {
        check(q, want);
    }
}

#[test]
fn parameters_are_bound() {
    let g = fixture();
    let mut params = BTreeMap::new();
    params.insert("name".to_string(), Value::from("helper"));
    let opts = QueryOptions {
        params,
        ..QueryOptions::default()
    };
    let r = execute_read(
        &g,
        "MATCH (n:Function {name: $name}) RETURN n.line AS line",
        &opts,
    )
    .unwrap();
    assert_eq!(table(&r), "line\n30");
}

#[test]
fn writes_report_side_effects() {
    let mut g = fixture();
    let r = execute(
        &mut g,
        "MATCH (f:Function {name: 'helper'}) SET f.dead = true, f:Unused CREATE (f)-[:NOTE]->(:Note {text: 'x'}) RETURN f.dead AS d",
        &write_opts(),
    )
    .unwrap();
    assert_eq!(table(&r), "d\ntrue");
    assert_eq!(
        (
            r.stats.nodes_created,
            r.stats.relationships_created,
            r.stats.labels_added
        ),
        (1, 1, 2)
    );
    let r = execute(
        &mut g,
        "MERGE (n:Note {text: 'x'}) ON MATCH SET n.seen = 1 RETURN n.seen AS s",
        &write_opts(),
    )
    .unwrap();
    assert_eq!(table(&r), "s\n1");
    // Each row sees the writes of the rows before it.
    let r = execute(
        &mut g,
        "UNWIND [1, 2, 3] AS i MATCH (n:Note) SET n.seen = n.seen + i RETURN n.seen AS s",
        &write_opts(),
    )
    .unwrap();
    assert_eq!(table(&r), "s\n7\n7\n7");
    let r = execute(&mut g, "MATCH (n:Note) DETACH DELETE n", &write_opts()).unwrap();
    assert_eq!(
        (r.stats.nodes_deleted, r.stats.relationships_deleted),
        (1, 1)
    );
    let err = execute(&mut g, "MATCH (n:File) DELETE n", &write_opts()).unwrap_err();
    assert_eq!(err.class(), "ConstraintVerificationFailed");
}

#[test]
fn procedures_list_what_the_graph_has() {
    let cases: &[(&str, &str)] = &[
        ("CALL db.labels()", "label\n'File'\n'Function'\n'Public'\n'Struct'"),
        ("CALL db.labels() YIELD label RETURN label ORDER BY label DESC LIMIT 1", "label\n'Struct'"),
        (
            "CALL db.relationshipTypes() YIELD relationshipType AS t WHERE t STARTS WITH 'C' RETURN t",
            "t\n'CALLS'\n'CONTAINS'",
        ),
        ("CALL db.relationshipTypes", "relationshipType\n'CALLS'\n'CONTAINS'\n'USES'"),
        ("CALL db.propertyKeys()", "propertyKey\n'count'\n'file_path'\n'line'\n'name'\n'qualified_name'"),
        // a read procedure inside a query, per input row
        (
            "UNWIND [1, 2] AS i CALL db.labels() YIELD label WITH i, label WHERE label = 'File' RETURN i, label",
            "i | label\n1 | 'File'\n2 | 'File'",
        ),
        (
            "CALL db.labels() YIELD label MATCH (n) WHERE label IN labels(n) RETURN label, count(n) AS n ORDER BY label",
            "label | n\n'File' | 2\n'Function' | 4\n'Public' | 1\n'Struct' | 1",
        ),
    ];
    for (q, want) in cases {
        check(q, want);
    }
    let refused: &[(&str, &str)] = &[
        ("CALL db.labels(1)", "SyntaxError"),
        ("CALL db.labels() YIELD name RETURN name", "SyntaxError"),
        ("CALL db.labels() MATCH (n) RETURN n", "SyntaxError"),
        ("MATCH (label) CALL db.labels() YIELD label RETURN label", "SyntaxError"),
    ];
    for (q, class) in refused {
        let err = execute_read(&fixture(), q, &QueryOptions::default()).unwrap_err();
        assert_eq!(err.class(), *class, "{q}: {err}");
    }
    // an unregistered procedure: refused in read-only mode, not found when writes are allowed
    let mut g = fixture();
    let err = execute(&mut g, "CALL db.nothing()", &write_opts()).unwrap_err();
    assert_eq!(err.class(), "ProcedureError", "{err}");
}

/// A counting query answered from degrees is planned by what it reads (a row per node of
/// the label), not by the scan it replaces (each node times its degree): EXPLAIN shows the
/// operator, and a complexity limit between the two lets it run and refuses the scan.
#[test]
fn counted_queries_are_estimated_by_what_they_read() {
    let mut g = MemGraph::new();
    let make = "UNWIND range(1, 200) AS i CREATE (f:Function {name: 'f' + toString(i)}) \
                WITH f UNWIND range(1, 5) AS j CREATE (:Caller)-[:CALLS]->(f)";
    execute(&mut g, make, &write_opts()).unwrap();
    let top = "MATCH (f:Function)<-[:CALLS]-() RETURN f.name AS f, count(*) AS n ORDER BY n DESC LIMIT 10";
    let scan = "MATCH (f:Function)<-[:CALLS]-() WHERE true RETURN f.name AS f, count(*) AS n ORDER BY n DESC LIMIT 10";
    let plan = explain(&g, top).unwrap();
    let op = plan.ops.iter().find(|o| o.name == "DegreeCountFromStore").unwrap_or_else(|| panic!("{}", plan.render()));
    assert_eq!(op.estimate, 200.0, "{}", plan.render());
    assert_eq!(op.detail, "(:Function)<-[:CALLS]-");
    let scanned = explain(&g, scan).unwrap();
    assert!(scanned.peak().unwrap().estimate >= 1000.0, "{}", scanned.render());
    let limited = QueryOptions { max_complexity: 500, ..QueryOptions::default() };
    let r = execute_read(&g, top, &limited).unwrap();
    assert_eq!(r.rows.len(), 10);
    let err = execute_read(&g, scan, &limited).unwrap_err();
    assert!(matches!(err, CypherError::TooComplex { .. }), "{err}");
    // EXPLAIN in the query text plans as the run does; a graph that may be written scans
    let r = execute_read(&g, &format!("EXPLAIN {top}"), &QueryOptions::default()).unwrap();
    assert!(r.rows.iter().any(|row| format!("{row:?}").contains("DegreeCountFromStore")), "{:?}", r.rows);
    let r = execute(&mut g, &format!("EXPLAIN {top}"), &write_opts()).unwrap();
    assert!(!r.rows.iter().any(|row| format!("{row:?}").contains("DegreeCountFromStore")), "{:?}", r.rows);
    for (q, name) in [
        ("MATCH (n) RETURN labels(n) AS l, count(*)", "NodeCountFromStore"),
        ("MATCH ()-[r]->() RETURN type(r), count(*)", "RelationshipCountFromStore"),
    ] {
        let plan = explain(&g, q).unwrap();
        let op = plan.ops.iter().find(|o| o.name == name).unwrap_or_else(|| panic!("{}", plan.render()));
        assert!(op.estimate <= 2.0, "{}", plan.render());
    }
}

/// Counts by label, by relationship type and per node (`pushdown.rs`) give the scan's rows;
/// the three whole-graph aggregations of issue 12 answer as their scans do here, and on the
/// stores (`navegador-store/tests/graph.rs`).
#[test]
fn counting_aggregations_answer_as_their_scans() {
    counts::check_counts(&mut MemGraph::new());
    let g = fixture();
    let cases: &[(&str, &str)] = &[
        (
            "MATCH (n) RETURN labels(n)[0] AS l, count(*) ORDER BY count(*) DESC, l",
            "l | count(*)\n'Function' | 4\n'File' | 2\n'Struct' | 1",
        ),
        (
            "MATCH ()-[r]->() RETURN type(r), count(*)",
            "type(r) | count(*)\n'CALLS' | 4\n'CONTAINS' | 5\n'USES' | 1",
        ),
        (
            "MATCH (f:Function)<-[:CALLS]-() RETURN f.name, count(*) AS n ORDER BY n DESC, f.name LIMIT 2",
            "f.name | n\n'helper' | 2\n'parse' | 1",
        ),
    ];
    for (q, want) in cases {
        let r = execute_read(&g, q, &QueryOptions::default()).unwrap();
        let want: Vec<&str> = want.lines().collect();
        assert_eq!(table(&r), want.join("\n"), "{q}");
    }
    // budgets still apply: a cancelled query stops
    let cancel = Arc::new(AtomicBool::new(true));
    let opts = QueryOptions { cancel: Some(cancel), ..QueryOptions::default() };
    assert!(execute_read(&g, "MATCH (f)<-[:CALLS]-() RETURN f.name, count(*)", &opts).is_err());
    // no sites in a graph without a code index
    let r = execute_read(&g, "CALL db.unresolved()", &QueryOptions::default()).unwrap();
    assert_eq!(r.columns, ["file", "line", "column", "name", "kind", "receiver", "reason", "caller"]);
    assert!(r.rows.is_empty());
}

/// `(code, suggestions)` of each warning for `query` on the fixture.
fn warnings(query: &str) -> Vec<(String, Vec<String>)> {
    let r = execute_read(&fixture(), query, &QueryOptions::default()).unwrap_or_else(|e| panic!("{query}: {e}"));
    r.warnings.iter().map(|w| (w.code.to_string(), w.suggestions.clone())).collect()
}

#[test]
fn names_the_graph_lacks_are_warned_with_the_closest() {
    let w = |code: &str, s: &[&str]| (code.to_string(), s.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    let cases: Vec<(&str, Vec<(String, Vec<String>)>)> = vec![
        ("MATCH (f:Func) RETURN f", vec![w("UnknownLabelWarning", &["Function"])]),
        ("MATCH (f:function) RETURN f", vec![w("UnknownLabelWarning", &["Function"])]),
        ("MATCH ()-[:CALL]->() RETURN 1", vec![w("UnknownRelationshipTypeWarning", &["CALLS"])]),
        ("MATCH (f:File) RETURN f.path", vec![w("UnknownPropertyKeyWarning", &["file_path"])]),
        ("MATCH (f:Function) RETURN f.qualifiedName", vec![w("UnknownPropertyKeyWarning", &["qualified_name"])]),
        // keys are checked against the labels the variable was matched with
        ("MATCH (f:File) RETURN f.qualified_name", vec![w("UnknownPropertyKeyWarning", &[])]),
        ("MATCH (f:Function {nmae: 'x'}) RETURN f", vec![w("UnknownPropertyKeyWarning", &["name"])]),
        ("MATCH ()-[r:CALLS]->() RETURN r.conut", vec![w("UnknownPropertyKeyWarning", &["count"])]),
        ("MATCH (n) WHERE n:Strct RETURN n", vec![w("UnknownLabelWarning", &["Struct"])]),
        ("MATCH (a) WITH a AS b RETURN b.nam", vec![w("UnknownPropertyKeyWarning", &["name"])]),
        (
            "MATCH (f:Function) WHERE EXISTS { (f)-[:CALS]->(:Fn) } RETURN f",
            vec![w("UnknownRelationshipTypeWarning", &["CALLS"]), w("UnknownLabelWarning", &[])],
        ),
        ("MATCH (x:Zebra) RETURN x", vec![w("UnknownLabelWarning", &[])]),
        // what exists, or what the query itself writes, is not warned about
        ("MATCH (f:Function)-[c:CALLS]->(g) RETURN f.name, c.count, g.line", vec![]),
        ("MATCH (f:Function:Public) RETURN f.name", vec![]),
        ("UNWIND [{a: 1}] AS m RETURN m.a", vec![]),
        ("MATCH p = (:Function)-[:CALLS*]->() RETURN length(p)", vec![]),
    ];
    for (q, want) in cases {
        assert_eq!(warnings(q), want, "query: {q}");
    }
    let mut g = fixture();
    let r = execute(&mut g, "CREATE (n:Zebra {stripes: 3}) WITH n MATCH (m:Zebra) RETURN m.stripes", &write_opts()).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // the query still runs and says why it is empty, once per name, with a position
    let r = execute_read(&fixture(), "MATCH (a:Func), (b:Func) RETURN a, b", &QueryOptions::default()).unwrap();
    assert!(r.rows.is_empty());
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].message, "no node in the graph has the label :Func; did you mean `:Function`?");
    assert_eq!(r.warnings[0].position.as_ref().map(|p| (p.line, p.column)), Some((1, 7)));
}

#[test]
fn read_only_refuses_side_effects_however_spelled() {
    let refused: &[(&str, &str)] = &[
        ("CREATE (n)", "CREATE"),
        ("cReAtE (n) RETURN n", "CREATE"),
        ("MATCH (n) /* harmless? */ DETACH\n DELETE n", "DETACH DELETE"),
        ("MATCH (n) // comment\nDELETE n", "DELETE"),
        ("MATCH (n) SET n.x = 1 RETURN n", "SET"),
        ("MATCH (n) REMOVE n:Function RETURN n", "REMOVE"),
        ("MERGE (n:Function {name: 'x'}) RETURN n", "MERGE"),
        ("UNWIND [1, 2] AS x CREATE (:T {x: x})", "CREATE"),
        ("FOREACH (x IN [1] | CREATE (:T))", "FOREACH"),
        ("CALL db.createLabel('X')", "CALL db.createLabel"),
        ("CALL db.Labels()", "CALL db.Labels"),
        ("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DETACH DELETE n', {}) YIELD batches RETURN batches", "CALL apoc.periodic.iterate"),
        ("LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", "LOAD CSV"),
        ("RETURN 1 AS x UNION MATCH (n) DETACH DELETE n RETURN 1 AS x", "DETACH DELETE"),
        ("MATCH (n) WITH n SKIP 0 SET n.x = 1", "SET"),
        ("EXPLAIN CREATE (n)", "CREATE"),
    ];
    for (q, clause) in refused {
        let mut g = fixture();
        let before = g.stats().unwrap();
        let err = execute(&mut g, q, &QueryOptions::default()).unwrap_err();
        match &err {
            CypherError::ReadOnly { clause: c } => assert_eq!(c, clause, "query: {q}"),
            other => panic!("{q}: expected a read-only refusal, got {other}"),
        }
        assert_eq!(g.stats().unwrap(), before, "graph changed by {q}");
        // A read-only handle refuses even when the options would allow writes.
        let err = execute_read(&g, q, &write_opts()).unwrap_err();
        assert!(matches!(err, CypherError::ReadOnly { .. }), "{q}: {err}");
    }
    // Writes hidden in a subquery are rejected by the parser.
    let err = execute_read(
        &fixture(),
        "MATCH (n) WHERE EXISTS { MATCH (n) DETACH DELETE n RETURN 1 } RETURN n",
        &write_opts(),
    )
    .unwrap_err();
    assert_eq!(err.class(), "SyntaxError", "{err}");
    let allowed = [
        "RETURN 'CREATE (n) DETACH DELETE n' AS s",
        "MATCH (n {name: 'delete'}) RETURN n",
        "// CREATE (n)\nRETURN 1",
        "/* SET n.x = 1 */ MATCH (`create`:Function) RETURN count(`create`)",
        "MATCH (n) WHERE n.name CONTAINS 'merge' RETURN n",
    ];
    for q in allowed {
        execute_read(&fixture(), q, &QueryOptions::default())
            .unwrap_or_else(|e| panic!("{q}: {e}"));
    }
}

fn dense_graph(n: usize) -> MemGraph {
    let mut g = MemGraph::new();
    execute(
        &mut g,
        &format!("UNWIND range(1, {n}) AS i CREATE (:Fn {{name: 'f' + toString(i)}})"),
        &write_opts(),
    )
    .unwrap();
    execute(
        &mut g,
        "MATCH (a:Fn), (b:Fn) WHERE a.name < b.name CREATE (a)-[:CALLS]->(b)",
        &write_opts(),
    )
    .unwrap();
    g
}

#[test]
fn complexity_limit_refuses_expensive_plans() {
    let g = dense_graph(30);
    let opts = QueryOptions {
        max_complexity: 1_000,
        ..QueryOptions::default()
    };
    let cases: &[(&str, Option<&str>)] = &[
        ("MATCH (a:Fn {name: 'f1'}) RETURN a.name", None),
        (
            "MATCH (a:Fn), (b:Fn), (c:Fn) RETURN count(*)",
            Some("CartesianProduct"),
        ),
        (
            "MATCH (a:Fn)-[:CALLS*]->(b) RETURN count(*)",
            Some("VarLengthExpand"),
        ),
        (
            "MATCH (a:Fn {name: 'f1'})-[:CALLS]->(b) RETURN b.name",
            None,
        ),
    ];
    for (q, driver) in cases {
        let r = execute_read(&g, q, &opts);
        match (driver, r) {
            (None, Ok(_)) => {}
            (
                Some(d),
                Err(CypherError::TooComplex {
                    operator,
                    estimate,
                    limit,
                }),
            ) => {
                assert!(operator.contains(d), "{q}: driven by {operator}");
                assert!(estimate > limit);
                let msg = CypherError::TooComplex {
                    estimate,
                    operator,
                    limit,
                }
                .to_string();
                assert!(msg.contains("estimated"), "{msg}");
            }
            (d, r) => panic!("{q}: expected {d:?}, got {:?}", r.map(|x| x.rows.len())),
        }
    }
    let plan = explain(&g, "MATCH (a:Fn {name: 'f1'})-[:CALLS]->(b) RETURN b").unwrap();
    let text = plan.render();
    assert!(
        text.contains("NodeIndexSeek") && text.contains("Expand"),
        "{text}"
    );
    // A selective node in the middle of a chain is where matching starts.
    let text = explain(
        &g,
        "MATCH (a:Fn)-[:CALLS]->(f:Fn {name: 'f9'})-[:CALLS]->(b:Fn) RETURN a, b",
    )
    .unwrap()
    .render();
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.contains("NodeIndexSeek")),
        "{text}"
    );
    assert!(!text.contains("NodeByLabelScan"), "{text}");
    let text = explain(&g, "MATCH (f:Fn) WHERE f.name IN ['f1', 'f2'] RETURN f")
        .unwrap()
        .render();
    assert!(text.contains("NodeIndexSeek"), "{text}");
    let r = execute_read(
        &g,
        "EXPLAIN MATCH (a:Fn), (b:Fn) RETURN a",
        &QueryOptions::default(),
    )
    .unwrap();
    assert_eq!(r.columns, vec!["plan".to_string()]);
    assert!(r
        .rows
        .iter()
        .any(|row| matches!(&row[0], Value::String(s) if s.contains("CartesianProduct"))));
}

#[test]
fn time_budget_row_cap_and_cancellation() {
    let g = dense_graph(40);
    // Unbounded expansion over a dense DAG: stopped by the time budget. No row cap here:
    // on an idle machine the default cap of 10,000 rows ended the query before 200 ms.
    let opts = QueryOptions {
        timeout: Duration::from_millis(200),
        max_rows: usize::MAX,
        ..QueryOptions::default()
    };
    let started = std::time::Instant::now();
    let err =
        execute_read(&g, "MATCH p = (a)-[*]->(b) RETURN p LIMIT 100000000", &opts).unwrap_err();
    assert!(matches!(err, CypherError::Timeout(_)), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // A huge LIMIT is capped by max_rows and reported.
    let opts = QueryOptions {
        max_rows: 10,
        ..QueryOptions::default()
    };
    let r = execute_read(
        &g,
        "MATCH (a:Fn), (b:Fn) RETURN a.name, b.name LIMIT 9223372036854775807",
        &opts,
    )
    .unwrap();
    assert_eq!(r.rows.len(), 10);
    assert!(r.truncated);
    let r = execute_read(&g, "MATCH (a:Fn) RETURN a.name LIMIT 3", &opts).unwrap();
    assert!(!r.truncated);
    // Memory is bounded too: huge lists are refused, not built.
    let err = execute_read(
        &g,
        "RETURN size([x IN range(1, 100000000) | [x]]) AS n",
        &QueryOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(err, CypherError::MemoryLimit { .. }), "{err}");
    // A raised cancellation flag stops the query.
    let cancel = Arc::new(AtomicBool::new(true));
    let opts = QueryOptions {
        cancel: Some(cancel),
        ..QueryOptions::default()
    };
    let err = execute_read(&g, "MATCH (a), (b), (c) RETURN count(*)", &opts).unwrap_err();
    assert!(matches!(err, CypherError::Cancelled), "{err}");
}

/// How a hostile query must end.
#[derive(Debug)]
enum End {
    /// It answers (with this many rows).
    Rows(usize),
    /// At the memory budget, in an operator whose name contains this.
    Memory(&'static str),
    /// At the time budget.
    Time,
    /// At the time or the memory budget, whichever the machine's speed reaches first (a
    /// loop that copies a growing string: a quiet machine gets to 64 MiB within 3 s).
    TimeOrMemory,
    /// Refused by the complexity limit, at an operator whose description contains this.
    TooComplex(&'static str),
    /// Refused before running: a parameter is missing.
    MissingParameter,
}

fn disjoint_patterns(k: usize) -> String {
    let parts: Vec<String> = (0..k).map(|i| format!("(n{i}:Nope)")).collect();
    format!("MATCH {} RETURN 1", parts.join(", "))
}

/// The queries of issue 14 that took the server down, and their relatives: each must end
/// as stated, with a clear error, inside its budgets (time: within 10% of it).
#[test]
fn hostile_queries_end_within_their_budgets() {
    assert!(
        navegador_cypher::memory::accounting_active(),
        "the counting allocator must be installed for memory budgets"
    );
    let g = dense_graph(60);
    let budget = Duration::from_secs(3);
    let cases: Vec<(String, u64, End)> = vec![
        ("RETURN size(reduce(s = 'a', x IN range(1, 40) | s + s)) AS n".into(), 0, End::Memory("string concatenation")),
        ("RETURN size(reduce(l = [1], x IN range(1, 40) | l + l)) AS n".into(), 0, End::Memory("list concatenation")),
        ("RETURN size(reduce(l = [1], x IN range(1, 24) | l + l)) AS n".into(), 0, End::Memory("list concatenation")),
        ("RETURN size(reduce(s = '', x IN range(1, 2000000) | s + 'aaaaaaaaaa')) AS n".into(), 0, End::TimeOrMemory),
        ("RETURN size([x IN range(1, 1000000) WHERE reduce(a = 0, y IN range(1, 100) | a + y) > 0]) AS n".into(), 0, End::Time),
        ("RETURN size([x IN range(1, 100000000) | x]) AS n".into(), 0, End::Memory("range()")),
        ("RETURN size(split(reduce(s = 'a', x IN range(1, 22) | s + s), '')) AS n".into(), 0, End::Memory("")),
        // An aggregation reads the rows as they come: it holds its groups, not the rows.
        ("MATCH (a), (b), (c) RETURN count(*) AS n".into(), 0, End::Rows(1)),
        ("MATCH (a), (b), (c) RETURN a.name, b.name, c.name ORDER BY a.name".into(), 0, End::Memory("MATCH")),
        ("MATCH (a), (b), (c) WITH a, b, c WHERE a <> b RETURN count(*) AS n".into(), 0, End::Memory("MATCH")),
        ("MATCH (a), (b), (c) WITH a, b, c RETURN count(*) AS n".into(), 0, End::Memory("MATCH")),
        ("MATCH (a), (b), (c), (d) WHERE a.name = b.name + c.name + d.name RETURN count(*) AS n".into(), 0, End::Time),
        ("UNWIND range(1, 1999999) AS x WITH x ORDER BY x DESC RETURN x LIMIT 1".into(), 0, End::Memory("")),
        ("MATCH (a:Fn), (b:Fn) WITH a, b LIMIT 50 WHERE $missing RETURN 1".into(), 0, End::MissingParameter),
        (disjoint_patterns(2_000), 0, End::Rows(0)),
        (disjoint_patterns(10_000), 0, End::Rows(0)),
        // The complexity estimate covers expression loops and what is nested in expressions.
        ("RETURN size(reduce(s = 'a', x IN range(1, 40) | s + s)) AS n".into(), 1_000, End::TooComplex("Reduce")),
        ("UNWIND range(1, 1999999) AS x WITH x ORDER BY x DESC RETURN x LIMIT 1".into(), 100_000, End::TooComplex("Range")),
        ("MATCH (a:Fn) WITH collect(a) AS l UNWIND l AS x UNWIND l AS y RETURN count(*) AS n".into(), 1_000, End::TooComplex("Unwind y")),
        ("MATCH (a:Fn) RETURN [(a)-[:CALLS*]->(b) | b.name] AS l".into(), 1_000, End::TooComplex("in a pattern comprehension")),
        ("MATCH (a:Fn) WHERE EXISTS { (a)-[:CALLS*]->(b) } RETURN a".into(), 1_000, End::TooComplex("in EXISTS")),
        ("MATCH (a:Fn) RETURN COUNT { MATCH (a)-[:CALLS*]->(b) RETURN b } AS n".into(), 1_000, End::TooComplex("in COUNT")),
        ("MATCH (a:Fn) WHERE (a)-[:CALLS*]->() RETURN a".into(), 1_000, End::TooComplex("in a pattern predicate")),
        ("RETURN [x IN range(1, 1000) | [y IN range(1, 1000) | y]] AS l".into(), 100_000, End::TooComplex("Range")),
        ("RETURN [x IN range(1, 100) | [x, x, x, x, x, x, x, x, x, x, x, x]] AS l".into(), 1_000, End::TooComplex("ListComprehension")),
        ("RETURN size(reduce(s = '', x IN range(1, 2000000) | s + 'a')) AS n".into(), 1_000_000, End::TooComplex("Reduce")),
        // ... and lets small queries through.
        ("RETURN reduce(s = 0, x IN range(1, 10) | s + x) AS n".into(), 1_000, End::Rows(1)),
        ("MATCH (a:Fn {name: 'f1'}) RETURN [(a)-[:CALLS]->(b) | b.name][0..3] AS l".into(), 1_000, End::Rows(1)),
    ];
    for (q, max_complexity, want) in &cases {
        let opts = QueryOptions {
            timeout: budget,
            max_memory: 64 << 20,
            max_complexity: *max_complexity,
            max_rows: usize::MAX,
            ..QueryOptions::default()
        };
        let before = navegador_cypher::memory::thread_allocated();
        let started = std::time::Instant::now();
        let r = execute_read(&g, q, &opts);
        let took = started.elapsed();
        let short = &q[..q.len().min(80)];
        match (want, &r) {
            (End::Rows(n), Ok(r)) => assert_eq!(r.rows.len(), *n, "{short}"),
            (End::Memory(op), Err(CypherError::MemoryLimit { limit, operator })) => {
                assert_eq!(*limit, 64 << 20, "{short}");
                assert!(operator.contains(op), "{short}: stopped in {operator}");
                let msg = r.as_ref().unwrap_err().to_string();
                assert!(msg.contains("memory budget of 64 MiB"), "{msg}");
            }
            (End::Time | End::TimeOrMemory, Err(CypherError::Timeout(t))) => assert_eq!(*t, budget),
            (End::TimeOrMemory, Err(CypherError::MemoryLimit { limit, .. })) => assert_eq!(*limit, 64 << 20, "{short}"),
            (End::TooComplex(op), Err(CypherError::TooComplex { operator, .. })) => {
                assert!(operator.contains(op), "{short}: driven by {operator}");
                assert!(
                    took < Duration::from_millis(500),
                    "{short}: refused after {took:?}"
                );
            }
            (
                End::MissingParameter,
                Err(CypherError::Semantic {
                    code: "ParameterMissing",
                    message,
                }),
            ) => {
                assert!(message.contains("$missing"), "{message}");
                assert!(
                    took < Duration::from_millis(100),
                    "{short}: reported after {took:?}"
                );
            }
            (want, got) => panic!(
                "{short}: expected {want:?}, got {:?}",
                got.as_ref().map(|r| r.rows.len())
            ),
        }
        assert!(
            took <= budget + budget / 10,
            "{short}: ended after {took:?}"
        );
        drop(r);
        // What the query held is given back.
        let after = navegador_cypher::memory::thread_allocated();
        assert!(
            after - before < 1 << 20,
            "{short}: {} bytes still held",
            after - before
        );
    }
}

#[test]
fn cancellation_stops_every_loop() {
    let g = dense_graph(60);
    let queries = [
        "RETURN size(reduce(s = '', x IN range(1, 2000000) | s + 'aaaaaaaaaa')) AS n",
        "RETURN all(x IN range(1, 1000000) WHERE reduce(a = 0, y IN range(1, 1000) | a + y) > 0) AS b",
        "MATCH (a), (b), (c), (d) WHERE a.name = b.name + c.name + d.name RETURN count(*) AS n",
        "UNWIND range(1, 100000) AS x WITH x ORDER BY [y IN range(1, 100) | x] RETURN count(*) AS n",
    ];
    for q in queries {
        let cancel = Arc::new(AtomicBool::new(false));
        let opts = QueryOptions {
            timeout: Duration::from_secs(60),
            max_memory: 0,
            cancel: Some(cancel.clone()),
            ..QueryOptions::default()
        };
        let flag = cancel.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
            std::time::Instant::now()
        });
        let err = execute_read(&g, q, &opts).unwrap_err();
        let raised = raiser.join().unwrap();
        assert!(matches!(err, CypherError::Cancelled), "{q}: {err}");
        let late = raised.elapsed();
        assert!(
            late < Duration::from_millis(300),
            "{q}: stopped {late:?} after the flag"
        );
    }
}

#[test]
fn concurrent_queries_share_a_memory_pool() {
    let g = dense_graph(10);
    // A pool of one query's first chunk: a query that needs more is refused, not let
    // through.
    let pool = navegador_cypher::memory::MemoryPool::new(navegador_cypher::memory::FIRST_CHUNK);
    let opts = |timeout_ms: u64| QueryOptions {
        timeout: Duration::from_millis(timeout_ms),
        max_memory: 256 << 20,
        memory_pool: Some(pool.clone()),
        ..QueryOptions::default()
    };
    let err = execute_read(&g, "RETURN size(range(1, 1000000)) AS n", &opts(2000)).unwrap_err();
    assert!(matches!(err, CypherError::MemoryBusy { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("1 MiB of memory shared by concurrent queries"),
        "{err}"
    );
    assert_eq!(pool.reserved(), 0, "the refused query gave its chunk back");
    // While one query holds the pool, another waits for it until its own deadline ...
    let busy = {
        let opts = opts(1500);
        let g = dense_graph(10);
        std::thread::spawn(move || {
            execute_read(
                &g,
                "RETURN size([x IN range(1, 10000) WHERE reduce(a = 0, y IN range(1, 10000) | a + y) < 0]) AS n",
                &opts,
            )
        })
    };
    let waited = std::time::Instant::now();
    while pool.reserved() == 0 {
        assert!(
            waited.elapsed() < Duration::from_secs(1),
            "the busy query did not start"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let started = std::time::Instant::now();
    let err = execute_read(&g, "RETURN 1 AS n", &opts(300)).unwrap_err();
    assert!(
        matches!(&err, CypherError::MemoryBusy { operator, .. } if operator == "the wait for memory"),
        "{err}"
    );
    assert!(started.elapsed() >= Duration::from_millis(250));
    let _ = busy.join().unwrap();
    // ... and runs once it is free.
    assert_eq!(pool.reserved(), 0);
    let r = execute_read(&g, "RETURN 1 AS n", &opts(300)).unwrap();
    assert_eq!(r.rows.len(), 1);
}

#[test]
fn reserved_words_cannot_name_variables() {
    // openCypher reserves them as variables; the binding says so, with the way out.
    let refused: &[(&str, usize, &str)] = &[
        ("WITH 1 AS delete RETURN delete", 11, "delete"),
        ("MATCH (set:File) RETURN set", 8, "set"),
        ("MATCH (detach:File) RETURN detach", 8, "detach"),
        ("UNWIND [1] AS where RETURN 1", 15, "where"),
        ("MATCH ()-[match]->() RETURN 1", 11, "match"),
        ("MATCH return = ()-->() RETURN 1", 7, "return"),
        ("RETURN [null IN [1] | 1] AS l", 0, ""),
        ("RETURN reduce(end = 0, x IN [1] | 1) AS r", 15, "end"),
        ("RETURN any(case IN [1] WHERE true) AS a", 0, ""),
    ];
    for (q, column, word) in refused {
        match navegador_cypher::parse(q) {
            Err(CypherError::Syntax { pos, message, .. }) if *column > 0 => {
                assert_eq!(pos.column, *column, "{q}: {message}");
                assert!(
                    message.contains(&format!("`{word}` is a reserved word")),
                    "{q}: {message}"
                );
                assert!(message.contains("backticks"), "{message}");
            }
            Err(CypherError::Syntax { .. }) => {}
            other => panic!("{q}: expected a syntax error, got {other:?}"),
        }
    }
    // Quoted, they are names like any other; as labels, types and keys they are allowed.
    check("WITH 1 AS `delete` RETURN `delete` AS d", "d\n1");
    check("UNWIND [1, 2] AS `set` RETURN sum(`set`) AS s", "s\n3");
    check("RETURN {set: 1, delete: 2}.delete AS d", "d\n2");
    check(
        "MATCH (f:Function {name: 'main'})-[c:CALLS]->() RETURN c.count AS n",
        "n\n2",
    );
    // `[true IN list]` is a list holding a test, not a comprehension over `true`.
    check("RETURN [true IN [true, false]] AS l", "l\n[true]");
    // Words an expression can read back stay usable as variables.
    check(
        "WITH 1 AS count, 2 AS exists RETURN count + exists AS n",
        "n\n3",
    );
}

#[test]
fn syntax_errors_point_at_the_problem() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("MATCH (n RETURN n", 1, 10, "expected ')'"),
        ("MATCH (n)\nRETURN n.", 2, 10, "expected a property name"),
        ("RETURN 'unterminated", 1, 8, "unterminated string"),
        ("MATCH (n) WHERE RETURN n", 1, 17, "expected an expression"),
        ("RETURN 9223372036854775808", 1, 8, "too large"),
        (
            "MATCH (a)-[:T*1..]->(b) RETURN a b",
            1,
            34,
            "expected a clause",
        ),
    ];
    for (q, line, column, msg) in cases {
        match navegador_cypher::parse(q) {
            Err(CypherError::Syntax {
                pos,
                message,
                rendered,
                ..
            }) => {
                assert_eq!((pos.line, pos.column), (*line, *column), "{q}: {message}");
                assert!(message.contains(msg), "{q}: {message}");
                let caret_line = rendered.lines().last().unwrap_or("");
                assert_eq!(caret_line.len(), *column, "{rendered}");
                assert!(caret_line.ends_with('^'));
            }
            other => panic!("{q}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 20_000;
    let cases = [
        format!("RETURN {}1{}", "(".repeat(n), ")".repeat(n)),
        format!("RETURN {}1{}", "[".repeat(n), "]".repeat(n)),
        format!("RETURN {}", vec!["1"; n].join(" + ")),
        format!("RETURN {}true", "NOT ".repeat(n)),
        format!("RETURN {}1", "-".repeat(n)),
        format!("RETURN {}", "{a: ".repeat(n)),
        format!("MATCH {}", vec!["()"; n].join("-->")),
        format!("RETURN x{}", ".a".repeat(n)),
        format!("RETURN x{}", "[0]".repeat(n)),
        format!("RETURN 1{}", " IS NULL".repeat(n)),
    ];
    for q in &cases {
        let err = navegador_cypher::parse(q).unwrap_err();
        assert_eq!(err.class(), "SyntaxError", "{}", &q[..40]);
    }
}

/// Deterministic xorshift generator: the robustness run is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_queries_never_panic() {
    let seeds = [
        "MATCH (a:Function {name: 'run'})-[r:CALLS*1..3]->(b) WHERE b.line > 5 RETURN a, r, b ORDER BY b.name LIMIT 5",
        "MATCH p = (a)-->(b)<--(c) RETURN nodes(p), relationships(p), length(p)",
        "UNWIND [1, 2.5, 'x', null, [1], {a: 1}] AS v RETURN v, v + 1, v[0], v.a, toString(v), size(v)",
        "WITH [x IN range(0, 10) WHERE x % 2 = 0 | x ^ 2] AS l RETURN l[1..-1], head(l), last(l), reverse(l)",
        "MATCH (n) OPTIONAL MATCH (n)-[r]-(m) WITH n, count(m) AS c WHERE c > 0 RETURN n {.name, c: c} ORDER BY c DESC",
        "RETURN CASE $x WHEN 1 THEN 'a' ELSE 'b' END, all(x IN [1] WHERE x > 0), exists { (n)-->() }",
        "MATCH (n:Function) RETURN DISTINCT labels(n), keys(n), properties(n), id(n) UNION ALL RETURN 1, 2, 3, 4",
        "RETURN 0x1F, 0o17, .5e3, 'a\\u0041\\n', `weird name`, -9223372036854775808, 1 <> 2 = true",
        "MATCH (a)-[r]->(b) RETURN type(r), startNode(r) = a, endNode(r), coalesce(r.count, 0) * 2 / 3 % 4",
        "RETURN substring('abc', 1), left('abc', 2), right('abc', 5), replace('aaa', 'a', 'b'), trim('  x '), sqrt(-1), abs(-3), round(2.5), sign(-0.5), ceil(1.1), floor(-1.1)",
    ];
    let tokens = [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "-",
        "->",
        "<-",
        "*",
        "..",
        ":",
        "|",
        ",",
        ".",
        "$x",
        "'s'",
        "1",
        "null",
        "MATCH",
        "RETURN",
        "WITH",
        "WHERE",
        "UNWIND",
        "AS",
        "ORDER BY",
        "count(*)",
        "n",
        "=~",
        "IN",
        "CASE",
        "END",
        "\u{e9}",
        "\u{2212}",
        "`",
        "/*",
        "\"",
        "\\",
        "0x",
        "1e",
        "9999999999999999999999",
    ];
    let g = fixture();
    let mut params = BTreeMap::new();
    params.insert("x".to_string(), Value::Int(1));
    let opts = QueryOptions {
        timeout: Duration::from_millis(50),
        max_rows: 50,
        params,
        ..QueryOptions::default()
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0;
    for _ in 0..3000 {
        let mut q: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(q.len() + 1);
            match rng.below(4) {
                0 if !q.is_empty() => {
                    let len = 1 + rng.below(8);
                    let end = (at + len).min(q.len());
                    q.drain(at.min(q.len())..end);
                }
                1 => {
                    let t = tokens[rng.below(tokens.len())];
                    for (k, c) in t.chars().enumerate() {
                        q.insert(at + k, c);
                    }
                }
                2 if !q.is_empty() => {
                    let src = rng.below(q.len());
                    let len = (1 + rng.below(12)).min(q.len() - src);
                    let piece: Vec<char> = q[src..src + len].to_vec();
                    for (k, c) in piece.into_iter().enumerate() {
                        q.insert(at + k, c);
                    }
                }
                _ => q.insert(at, (b' ' + rng.below(95) as u8) as char),
            }
        }
        let q: String = q.into_iter().collect();
        if navegador_cypher::parse(&q).is_ok() {
            parsed += 1;
            let _ = execute_read(&g, &q, &opts);
        }
    }
    assert!(
        parsed > 100,
        "the mutations should keep some queries valid ({parsed})"
    );
}

#[test]
fn results_render_as_json() {
    let g = fixture();
    let r = execute_read(
        &g,
        "MATCH (a:Function {name: 'main'})-[c:CALLS]->(b) RETURN a.name AS name, c.count AS n, 0.0 / 0.0 AS nan, [1, 'x', null] AS l, {k: true} AS m",
        &QueryOptions::default(),
    )
    .unwrap();
    let json = navegador_cypher::result_to_json(&r).to_string();
    assert_eq!(
        json,
        r#"{"columns":["name","n","nan","l","m"],"rows":[["main",2,"NaN",[1,"x",null],{"k":true}]],"stats":{"labels_added":0,"labels_removed":0,"nodes_created":0,"nodes_deleted":0,"properties_set":0,"relationships_created":0,"relationships_deleted":0},"truncated":false}"#
    );
    let r = execute_read(
        &g,
        "MATCH p = (a:Function {name: 'main'})-[:CALLS]->(b) RETURN a, p",
        &QueryOptions::default(),
    )
    .unwrap();
    let node = navegador_cypher::value_to_json(&r.rows[0][0]);
    assert_eq!(node["labels"], serde_json::json!(["Function"]));
    assert_eq!(node["properties"]["qualified_name"], "app::main");
    let path = navegador_cypher::value_to_json(&r.rows[0][1]);
    assert_eq!(path["relationships"][0]["type"], "CALLS");
    assert_eq!(path["nodes"].as_array().map(Vec::len), Some(2));
}

#[test]
fn deepest_accepted_expressions_evaluate_on_a_small_stack() {
    let shapes: Vec<Box<dyn Fn(usize) -> String>> = vec![
        Box::new(|n| format!("RETURN {}1{}", "[".repeat(n), "]".repeat(n))),
        Box::new(|n| format!("RETURN {}1{}", "{a: ".repeat(n), "}".repeat(n))),
        Box::new(|n| format!("RETURN {}1{}", "1 + (".repeat(n), ")".repeat(n))),
        Box::new(|n| {
            format!(
                "RETURN {}1{}",
                "size([x IN [1] | ".repeat(n),
                "])".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "RETURN {}1{}",
                "CASE WHEN true THEN ".repeat(n),
                " END".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "MATCH (a:Function) RETURN {}1{}",
                "[(a)-[:CALLS]->(b) | ".repeat(n),
                "]".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "RETURN {}true{}",
                "all(x IN [1] WHERE ".repeat(n),
                ")".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "MATCH (a:Function) RETURN {}true{}",
                "EXISTS { MATCH (a)-->(b) WHERE ".repeat(n),
                " }".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "MATCH (a:Function) WHERE {}true{} RETURN a",
                "(a)-->() AND (".repeat(n),
                ")".repeat(n)
            )
        }),
    ];
    let g = fixture();
    for shape in &shapes {
        let n = (1..=120)
            .rev()
            .find(|n| navegador_cypher::parse(&shape(*n)).is_ok())
            .expect("some depth parses");
        let q = shape(n);
        // Test threads have a 2 MiB stack: evaluation at the parser's limit must fit.
        execute_read(&g, &q, &QueryOptions::default()).unwrap_or_else(|e| panic!("depth {n}: {e}"));
    }
}

/// The openCypher TCK, when its feature files are beside the repository (`shared/tck`,
/// or `NAVEGADOR_TCK_FEATURES`): every scenario that is not skipped must pass.
#[test]
fn tck_scenarios_pass() {
    let dir = std::env::var_os("NAVEGADOR_TCK_FEATURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tck/features")
        });
    if !dir.is_dir() {
        eprintln!(
            "TCK features not found at {}; skipping the conformance run",
            dir.display()
        );
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cypher-tck"))
        .arg("--verbose")
        .arg(&dir)
        .output()
        .expect("run cypher-tck");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    let (passed, failed) = last
        .split_once(" passed, ")
        .and_then(|(p, f)| {
            Some((
                p.parse::<usize>().ok()?,
                f.strip_suffix(" failed")?.parse::<usize>().ok()?,
            ))
        })
        .unwrap_or_else(|| panic!("unexpected summary line: {last}\n{text}"));
    let failures: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert_eq!(failed, 0, "TCK failures:\n{}", failures.join("\n"));
    assert!(
        passed >= 2400,
        "fewer TCK scenarios ran than expected: {last}"
    );
}

#[test]
fn shortest_paths_use_breadth_first_search() {
    let mut g = MemGraph::new();
    execute(
        &mut g,
        "CREATE (a:N {n: 'a'})-[:E]->(b:N {n: 'b'})-[:E]->(d:N {n: 'd'}), (a)-[:E]->(c:N {n: 'c'})-[:E]->(d), (d)-[:E]->(e:N {n: 'e'}), (a)-[:E]->(x:N {n: 'x'})-[:E]->(y:N {n: 'y'})-[:E]->(e)",
        &write_opts(),
    )
    .unwrap();
    let q = |query: &str| table(&execute_read(&g, query, &QueryOptions::default()).unwrap());
    assert_eq!(
        q("MATCH p = allShortestPaths((:N {n: 'a'})-[:E*]->(:N {n: 'e'})) RETURN [x IN nodes(p) | x.n] AS via ORDER BY via"),
        "via\n['a', 'b', 'd', 'e']\n['a', 'c', 'd', 'e']\n['a', 'x', 'y', 'e']"
    );
    assert_eq!(
        q("MATCH p = shortestPath((:N {n: 'a'})-[:E*]->(:N {n: 'e'})) RETURN length(p) AS len"),
        "len\n3"
    );
    assert_eq!(
        q("MATCH p = shortestPath((:N {n: 'e'})<-[:E*..2]-(s:N)) RETURN s.n AS s, length(p) AS len ORDER BY s"),
        "s | len\n'b' | 2\n'c' | 2\n'd' | 1\n'x' | 2\n'y' | 1"
    );
    assert_eq!(
        q("MATCH p = shortestPath((:N {n: 'a'})-[:E*]-(:N {n: 'y'})) RETURN [x IN nodes(p) | x.n] AS via"),
        "via\n['a', 'x', 'y']"
    );
}
