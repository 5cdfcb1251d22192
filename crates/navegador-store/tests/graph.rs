//! The SQLite store as a property graph: the shared conformance suite on a real file, and
//! the mapping of the store's columns and JSON props to Cypher properties.

use std::collections::BTreeMap;

use navegador_graph::{conformance, Direction, GraphRead, GraphWrite, NodeId, Value};
use navegador_store::Store;

/// A fresh store in its own temp directory (kept alive by leaking it: the suite makes a
/// handful per run).
fn fresh() -> Store {
    let dir = tempfile::tempdir().unwrap().keep();
    Store::open(&dir.join("graph.db")).unwrap()
}

#[test]
fn conformance_on_a_sqlite_file() {
    conformance::check_backend(fresh);
}

#[test]
fn columns_and_json_props_map_to_properties() {
    let mut s = fresh();
    let props: BTreeMap<String, Value> = [
        ("name", Value::from("f")),
        ("qualified_name", Value::from("m.f")),
        ("line_start", Value::Int(3)),
        ("docstring", Value::from("hi")),
        ("score", Value::Float(0.5)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let a = s.create_node(&["Function".into(), "Public".into()], props.clone()).unwrap();
    let b = s.create_node(&["Function".into()], BTreeMap::new()).unwrap();
    let e = s
        .create_edge(a, b, "CALLS", [("line".to_string(), Value::Int(7)), ("column".to_string(), Value::Int(2))].into())
        .unwrap();
    let n = GraphRead::node(&s, a).unwrap().unwrap();
    assert_eq!(n.props, props);
    assert_eq!(n.labels, vec!["Function".to_string(), "Public".to_string()]);
    // columns really hold the core properties (the rest of navegador reads them there)
    let (label, name, line): (String, String, i64) = s
        .sqlite_conn().unwrap()
        .query_row("SELECT label, name, line_start FROM nodes WHERE id = ?1", [a.0], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!((label.as_str(), name.as_str(), line), ("Function", "f", 3));
    let col: i64 = s.sqlite_conn().unwrap().query_row("SELECT col FROM edges WHERE id = ?1", [e.0], |r| r.get(0)).unwrap();
    assert_eq!(col, 2);
    let out = GraphRead::edges_of(&s, b, Direction::Incoming, &[]).unwrap();
    assert_eq!(out[0].props.get("column"), Some(&Value::Int(2)));
    assert_eq!(s.node_ids_by_property(Some("Function"), "qualified_name", &"m.f".into()).unwrap(), vec![a]);
    assert_eq!(s.node_ids_by_property(None, "score", &Value::Float(0.5)).unwrap(), vec![a]);
    let st = GraphRead::stats(&s).unwrap();
    assert_eq!(st.indexed_properties, vec!["name", "qualified_name", "file_path"]);
    assert_eq!(st.label_counts.get("Public"), Some(&1));
    // a delete takes the extra labels with it
    s.delete_node(a, true).unwrap();
    assert!(s.node_ids(Some("Public")).unwrap().is_empty());
    assert_eq!(GraphRead::node(&s, NodeId(a.0)).unwrap(), None);
}

#[test]
fn stats_cache_sees_other_connections() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let mut w = Store::open(&path).unwrap();
    w.create_node(&["A".into()], BTreeMap::new()).unwrap();
    let r = Store::open_read_only(&path).unwrap();
    assert_eq!(GraphRead::stats(&r).unwrap().node_count, 1);
    w.create_node(&["A".into()], BTreeMap::new()).unwrap();
    assert_eq!(GraphRead::stats(&r).unwrap().node_count, 2, "a commit elsewhere invalidates the cache");
}

#[test]
fn failed_write_rolls_back() {
    let mut s = fresh();
    let r: Result<(), navegador_graph::GraphError> = s.write_atomically(|g| {
        g.create_node(&["A".into()], BTreeMap::new())?;
        Err(navegador_graph::GraphError::Storage("boom".into()))
    });
    assert!(r.is_err());
    assert!(s.node_ids(None).unwrap().is_empty());
}

/// Several processes (here threads with their own connections) creating the same new graph
/// file at once all succeed: the schema is made in one write transaction, decided under its
/// lock, so no opener sees another's half-made schema ("not a navegador graph").
#[test]
fn concurrent_first_opens_of_a_new_file_all_succeed() {
    for _ in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("graph.db");
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let db = db.clone();
                std::thread::spawn(move || navegador_store::Store::open(&db).map(|_| ()).map_err(|e| e.to_string()))
            })
            .collect();
        for h in handles {
            h.join().unwrap().unwrap();
        }
    }
}

/// The same conformance suite on the PostgreSQL backend (a real server: `scripts/test.sh`
/// starts one with `scripts/pg.sh` and sets NAVEGADOR_TEST_PG); each store a new database.
#[test]
fn conformance_on_postgres() {
    if navegador_store::testing::fresh_postgres("conformance_probe").is_none() {
        return navegador_store::testing::skipped("conformance_on_postgres");
    }
    let n = std::sync::atomic::AtomicUsize::new(0);
    conformance::check_backend(|| {
        let i = n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Store::open(&navegador_store::testing::fresh_postgres(&format!("conformance{i}")).unwrap()).unwrap()
    });
}
