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

#[path = "../../navegador-cypher/tests/common/counts.rs"]
mod counts;

/// Counting aggregations answered from the catalog, the label index and the adjacency
/// indexes (`nodes_with_keys`, `degrees`, `label_groups`) give the scan's rows on a real
/// file, and on PostgreSQL when a server is there.
#[test]
fn counting_aggregations_answer_as_their_scans() {
    counts::check_counts(&mut fresh());
    if let Some(url) = navegador_store::testing::fresh_postgres("counts") {
        counts::check_counts(&mut Store::open(&url).unwrap());
    }
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

/// The bytes of a file and whether SQLite left a `-wal` beside it.
fn snapshot(path: &std::path::Path) -> (Vec<u8>, bool) {
    (std::fs::read(path).unwrap(), std::path::PathBuf::from(format!("{}-wal", path.display())).exists())
}

/// A file that is not a navegador graph is refused and left byte for byte as it was: no
/// WAL switch, no schema, also not by a rebuild (`ingest --clear`).
#[test]
fn foreign_files_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("app.db");
    let c = rusqlite::Connection::open(&foreign).unwrap();
    c.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);").unwrap();
    drop(c);
    let text = dir.path().join("notes.db");
    std::fs::write(&text, "these are my notes, not a database\n".repeat(200)).unwrap();
    for (path, want) in [(&foreign, "not a navegador graph"), (&text, "not a SQLite file")] {
        let before = snapshot(path);
        for e in [
            Store::open(path).err().unwrap(),
            Store::open_read_only(path).err().unwrap(),
            Store::open_for_rebuild(path).err().unwrap(),
        ] {
            assert!(e.to_string().contains(want), "{}: {e}", path.display());
            assert!(e.to_string().contains("pass another --db"), "{e}");
        }
        assert_eq!(snapshot(path), before, "{} was modified", path.display());
    }
}

/// A graph with garbage in the middle of the file: the writer's open checks it (`PRAGMA
/// quick_check`, beside the caller) and the first commit fails with the fix;
/// a rebuild moves the damaged file aside, whole, and starts a new graph in its place.
#[test]
fn damaged_graphs_are_detected_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    {
        let mut s = Store::open(&path).unwrap();
        s.write_atomically(|g| -> Result<(), navegador_graph::GraphError> {
            for i in 0..3000 {
                let props = [("name".to_string(), Value::from(format!("node number {i} with a longer name")))].into();
                g.create_node(&["Function".into()], props)?;
            }
            Ok(())
        })
        .unwrap();
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    let mid = bytes.len() / 2 / page * page;
    assert!(bytes.len() / page > 40, "the graph is big enough to damage its middle");
    bytes[mid..mid + 8 * page].fill(0xA5);
    std::fs::write(&path, &bytes).unwrap();

    let mut s = Store::open(&path).unwrap();
    // (A transaction that writes nothing ends without the verdict: nothing reaches the file.)
    let tx = s.begin().unwrap();
    tx.set_meta("probe", "1").unwrap();
    let e = tx.commit().err().expect("the damage is found before anything is committed");
    let msg = e.to_string();
    assert!(matches!(e, navegador_store::StoreError::Damaged { .. }), "{msg}");
    assert!(msg.contains("is damaged") && msg.contains("navegador ingest --clear"), "{msg}");
    let r: Result<(), navegador_graph::GraphError> = s.write_atomically(|_| Ok(()));
    assert!(r.is_err(), "every later write is refused too");
    assert!(s.begin().is_err(), "at once, now that it is known");
    drop(s);

    let (mut s, aside) = Store::open_for_rebuild(&path).unwrap();
    let aside = aside.expect("the damaged file was moved aside");
    assert_eq!(std::fs::read(&aside).unwrap(), bytes, "kept whole");
    s.begin().unwrap().commit().unwrap();
    assert!(s.node_ids(None).unwrap().is_empty(), "a new, empty graph");
    // A whole graph opens for a rebuild as it is.
    let (_, none) = Store::open_for_rebuild(&path).unwrap();
    assert_eq!(none, None);
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

/// A graph of the schema before the catalog (version 5) is refused with the fix, whether
/// opened to write or to read, and left as it was.
#[test]
fn a_graph_of_the_schema_before_the_catalog_names_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    drop(Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("UPDATE meta SET value = '5' WHERE key = 'schema_version'; DROP TABLE graph_counts;").unwrap();
    drop(c);
    for msg in [Store::open(&path).err().unwrap().to_string(), Store::open_read_only(&path).err().unwrap().to_string()] {
        assert!(msg.contains("schema version 5") && msg.contains("navegador ingest --clear"), "{msg}");
    }
    let (mut s, aside) = Store::open_for_rebuild(&path).unwrap();
    assert!(aside.is_none());
    assert!(s.catalog_drift().unwrap().is_empty());
}

/// The typed columns resolution reads (schema v8) follow every Cypher write that changes
/// a node's label or properties, on both backends: `props` stays the source of truth.
#[test]
fn cypher_writes_keep_the_typed_columns() {
    let mut stores = vec![("SQLite", fresh())];
    if let Some(url) = navegador_store::testing::fresh_postgres("typed_columns") {
        stores.push(("PostgreSQL", Store::open(&url).unwrap()));
    }
    for (backend, mut s) in stores {
        let props = BTreeMap::from([
            ("name".to_string(), Value::String("f".into())),
            ("file_path".to_string(), Value::String("a.py".into())),
            ("kind".to_string(), Value::String("method".into())),
            ("signature".to_string(), Value::String("def f(x)".into())),
            ("is_exported".to_string(), Value::Bool(true)),
        ]);
        let id = s.create_node(&["Function".to_string()], props).unwrap();
        assert_eq!(s.typed_drift().unwrap(), 0, "{backend}: after CREATE");
        s.set_node_property(id, "kind", Value::String("function".into())).unwrap();
        s.set_node_property(id, "is_exported", Value::Bool(false)).unwrap();
        assert_eq!(s.typed_drift().unwrap(), 0, "{backend}: after SET");
        s.set_node_property(id, "signature", Value::Null).unwrap();
        assert_eq!(s.typed_drift().unwrap(), 0, "{backend}: after REMOVE");
        s.add_label(id, "Extra").unwrap();
        s.remove_label(id, "Function").unwrap();
        assert_eq!(s.typed_drift().unwrap(), 0, "{backend}: after a label change");
        let imp = BTreeMap::from([
            ("name".to_string(), Value::String("os".into())),
            ("module".to_string(), Value::String("os.path".into())),
            ("alias".to_string(), Value::String("p".into())),
        ]);
        s.create_node(&["Import".to_string()], imp).unwrap();
        assert_eq!(s.typed_drift().unwrap(), 0, "{backend}: after CREATE of an import");
    }
}
