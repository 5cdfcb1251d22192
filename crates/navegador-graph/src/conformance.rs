//! A conformance suite every `GraphWrite` backend runs, so the SQLite store and
//! `MemGraph` agree on the contract the Cypher engine relies on.
//!
//! Call `check_backend(|| MyStore::new_empty())` from a test; it panics with a message
//! naming the broken expectation.

use std::collections::BTreeMap;

use crate::{Direction, GraphError, GraphWrite, Node, NodeId, Value};

fn props(kv: &[(&str, Value)]) -> BTreeMap<String, Value> {
    kv.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

fn labels(ls: &[&str]) -> Vec<String> {
    ls.iter().map(|s| s.to_string()).collect()
}

/// Runs every check against fresh, empty graphs made by `new`.
pub fn check_backend<G: GraphWrite>(new: impl Fn() -> G) {
    nodes_and_lookups(&mut new());
    edges_and_directions(&mut new());
    property_updates(&mut new());
    deletes(&mut new());
    stats_and_schema(&mut new());
    partial_reads_degrees_and_label_groups(&mut new());
}

/// `nodes_with_keys`, `degrees` and `label_groups` agree with what `nodes` and `edges_of`
/// give (a backend that answers them its own way answers the same).
fn partial_reads_degrees_and_label_groups(g: &mut dyn GraphWrite) {
    let a = g
        .create_node(&labels(&["F"]), props(&[("name", "a".into()), ("doc", "d".into()), ("line_start", Value::Int(3))]))
        .unwrap();
    let b = g.create_node(&labels(&["F", "P"]), props(&[("name", "b".into())])).unwrap();
    let c = g.create_node(&[], BTreeMap::new()).unwrap();
    let d = g.create_node(&labels(&["F"]), BTreeMap::new()).unwrap();
    g.create_edge(a, b, "CALLS", BTreeMap::new()).unwrap();
    g.create_edge(a, a, "CALLS", BTreeMap::new()).unwrap();
    g.create_edge(b, a, "USES", BTreeMap::new()).unwrap();
    g.create_edge(c, a, "CALLS", BTreeMap::new()).unwrap();
    let missing = NodeId(d.0 + 1000);
    let ids = [a, c, missing, b, a];
    let full = g.nodes(&ids).unwrap();
    for keys in [vec![], vec!["name".to_string()], vec!["doc".to_string(), "line_start".to_string(), "nope".to_string()]] {
        let want: Vec<Option<Node>> = full
            .iter()
            .cloned()
            .map(|n| {
                n.map(|mut n| {
                    n.props.retain(|k, _| keys.contains(k));
                    n
                })
            })
            .collect();
        assert_eq!(g.nodes_with_keys(&ids, &keys).unwrap(), want, "nodes with keys {keys:?}");
    }
    let all = [a, b, c, d, missing];
    for dir in [Direction::Outgoing, Direction::Incoming, Direction::Both] {
        for types in [vec![], vec!["CALLS".to_string()], vec!["USES".to_string(), "NONE".to_string()]] {
            let want: Vec<u64> = all.iter().map(|&n| g.edges_of(n, dir, &types).unwrap().len() as u64).collect();
            assert_eq!(g.degrees(&all, dir, &types).unwrap(), want, "degrees {dir:?} {types:?}");
        }
    }
    assert_eq!(g.degrees(&[a], Direction::Both, &[]).unwrap(), vec![4], "a self-loop once");
    assert_eq!(
        g.label_groups().unwrap(),
        vec![(vec![], 1), (labels(&["F"]), 2), (labels(&["F", "P"]), 1)],
        "label lists, sorted"
    );
    g.remove_label(b, "F").unwrap();
    assert_eq!(g.label_groups().unwrap(), vec![(vec![], 1), (labels(&["F"]), 2), (labels(&["P"]), 1)]);
    assert_eq!(g.unresolved_sites().unwrap(), vec![], "no reference sites in a bare graph");
}

fn nodes_and_lookups(g: &mut dyn GraphWrite) {
    let a = g
        .create_node(
            &labels(&["Function"]),
            props(&[("name", "a".into()), ("line", Value::Int(1))]),
        )
        .unwrap();
    let b = g
        .create_node(
            &labels(&["Function", "Public"]),
            props(&[("name", "b".into()), ("line", Value::Float(2.0))]),
        )
        .unwrap();
    let c = g.create_node(&[], BTreeMap::new()).unwrap();
    assert!(a != b && b != c, "ids must be distinct");
    let n = g.node(b).unwrap().expect("created node is readable");
    assert_eq!(
        n.labels,
        labels(&["Function", "Public"]),
        "labels keep creation order"
    );
    assert_eq!(n.props.get("name"), Some(&Value::from("b")));
    let missing = NodeId(i64::MAX);
    let list = [c, a, missing, b, a];
    let one_by_one: Vec<Option<Node>> = list.iter().map(|&id| g.node(id).unwrap()).collect();
    assert_eq!(
        g.nodes(&list).unwrap(),
        one_by_one,
        "nodes() reads a list as node() reads each: in order, a missing id as None, a repeated one twice"
    );
    assert_eq!(g.nodes(&[]).unwrap(), Vec::<Option<Node>>::new());
    assert_eq!(
        g.node(NodeId(i64::MAX)).unwrap(),
        None,
        "unknown ids read as None"
    );
    let mut all = g.node_ids(None).unwrap();
    all.sort();
    assert_eq!(all, vec![a, b, c], "node_ids(None) lists every node");
    assert_eq!(
        g.node_ids(Some("Public")).unwrap(),
        vec![b],
        "node_ids filters by label"
    );
    assert!(g.node_ids(Some("Nothing")).unwrap().is_empty());
    let by = |g: &dyn GraphWrite, label: Option<&str>, key: &str, v: Value| {
        let mut ids = g.node_ids_by_property(label, key, &v).unwrap();
        ids.sort();
        ids
    };
    assert_eq!(by(g, Some("Function"), "name", "a".into()), vec![a]);
    assert_eq!(by(g, None, "name", "b".into()), vec![b]);
    assert_eq!(
        by(g, Some("Public"), "name", "a".into()),
        Vec::<NodeId>::new(),
        "label and property both apply"
    );
    assert_eq!(
        by(g, None, "line", Value::Float(1.0)),
        vec![a],
        "property lookup uses Cypher equality (1 = 1.0)"
    );
    assert_eq!(
        by(g, None, "line", Value::Int(2)),
        vec![b],
        "property lookup uses Cypher equality (2.0 = 2)"
    );
    assert!(
        by(g, None, "name", Value::Null).is_empty(),
        "null equals nothing"
    );
}

fn edges_and_directions(g: &mut dyn GraphWrite) {
    let a = g.create_node(&labels(&["F"]), BTreeMap::new()).unwrap();
    let b = g.create_node(&labels(&["F"]), BTreeMap::new()).unwrap();
    let calls = g
        .create_edge(a, b, "CALLS", props(&[("count", Value::Int(2))]))
        .unwrap();
    let uses = g.create_edge(b, a, "USES", BTreeMap::new()).unwrap();
    let selfloop = g.create_edge(a, a, "CALLS", BTreeMap::new()).unwrap();
    let e = g.edge(calls).unwrap().expect("created edge is readable");
    assert_eq!((e.src, e.dst, e.rel_type.as_str()), (a, b, "CALLS"));
    assert_eq!(e.props.get("count"), Some(&Value::Int(2)));
    let ids = |v: Vec<crate::Edge>| {
        let mut ids: Vec<_> = v.into_iter().map(|e| e.id).collect();
        ids.sort();
        ids
    };
    assert_eq!(
        ids(g.edges_of(a, Direction::Outgoing, &[]).unwrap()),
        vec![calls, selfloop]
    );
    assert_eq!(
        ids(g.edges_of(a, Direction::Incoming, &[]).unwrap()),
        vec![uses, selfloop]
    );
    assert_eq!(
        ids(g.edges_of(a, Direction::Both, &[]).unwrap()),
        vec![calls, uses, selfloop],
        "Both lists a self-loop once"
    );
    assert_eq!(
        ids(g
            .edges_of(a, Direction::Both, &["USES".to_string()])
            .unwrap()),
        vec![uses],
        "type filter"
    );
    assert_eq!(
        ids(g
            .edges_of(
                b,
                Direction::Incoming,
                &["CALLS".to_string(), "USES".to_string()]
            )
            .unwrap()),
        vec![calls],
        "several types are alternatives"
    );
    assert!(matches!(
        g.create_edge(a, NodeId(i64::MAX), "X", BTreeMap::new()),
        Err(GraphError::NodeNotFound(_))
    ));
}

fn property_updates(g: &mut dyn GraphWrite) {
    let a = g.create_node(&[], props(&[("x", Value::Int(1))])).unwrap();
    let b = g.create_node(&[], BTreeMap::new()).unwrap();
    let e = g.create_edge(a, b, "T", BTreeMap::new()).unwrap();
    g.set_node_property(
        a,
        "y",
        Value::List(vec![Value::from("p"), Value::from("q")]),
    )
    .unwrap();
    g.set_node_property(a, "x", Value::Null).unwrap();
    let n = g.node(a).unwrap().unwrap();
    assert_eq!(n.props.get("x"), None, "setting null removes the property");
    assert_eq!(
        n.props.get("y"),
        Some(&Value::List(vec![Value::from("p"), Value::from("q")])),
        "lists round-trip"
    );
    g.set_edge_property(e, "w", Value::Float(0.5)).unwrap();
    assert_eq!(
        g.edge(e).unwrap().unwrap().props.get("w"),
        Some(&Value::Float(0.5))
    );
    g.set_edge_property(e, "w", Value::Null).unwrap();
    assert!(g.edge(e).unwrap().unwrap().props.is_empty());
    assert!(
        g.add_label(a, "L").unwrap(),
        "adding a new label reports true"
    );
    assert!(
        !g.add_label(a, "L").unwrap(),
        "adding an existing label reports false"
    );
    assert_eq!(g.node_ids(Some("L")).unwrap(), vec![a]);
    assert!(g.remove_label(a, "L").unwrap());
    assert!(!g.remove_label(a, "L").unwrap());
    assert!(
        g.node_ids(Some("L")).unwrap().is_empty(),
        "label index follows removals"
    );
    assert!(
        g.set_node_property(a, "m", Value::Map(BTreeMap::new()))
            .is_err(),
        "maps are not storable"
    );
}

fn deletes(g: &mut dyn GraphWrite) {
    let a = g.create_node(&[], BTreeMap::new()).unwrap();
    let b = g.create_node(&[], BTreeMap::new()).unwrap();
    let c = g.create_node(&[], BTreeMap::new()).unwrap();
    let e1 = g.create_edge(a, b, "T", BTreeMap::new()).unwrap();
    g.create_edge(c, a, "T", BTreeMap::new()).unwrap();
    assert_eq!(
        g.delete_node(a, false),
        Err(GraphError::NodeHasEdges(a)),
        "connected nodes need detach"
    );
    assert!(
        g.node(a).unwrap().is_some(),
        "a refused delete changes nothing"
    );
    g.delete_edge(e1).unwrap();
    assert_eq!(g.edge(e1).unwrap(), None);
    assert!(
        g.edges_of(b, Direction::Both, &[]).unwrap().is_empty(),
        "deleted edges leave adjacency"
    );
    assert_eq!(
        g.delete_node(a, true).unwrap(),
        1,
        "detach delete reports removed edges"
    );
    assert!(g.edges_of(c, Direction::Both, &[]).unwrap().is_empty());
    assert_eq!(g.node(a).unwrap(), None);
    assert!(matches!(
        g.delete_edge(e1),
        Err(GraphError::EdgeNotFound(_))
    ));
    g.delete_node(b, false).unwrap();
    assert_eq!(g.node_ids(None).unwrap(), vec![c]);
}

fn stats_and_schema(g: &mut dyn GraphWrite) {
    let a = g
        .create_node(&labels(&["F"]), props(&[("name", "a".into())]))
        .unwrap();
    let b = g.create_node(&labels(&["F"]), BTreeMap::new()).unwrap();
    let s = g.create_node(&labels(&["S"]), BTreeMap::new()).unwrap();
    g.create_edge(a, b, "CALLS", props(&[("n", Value::Int(1))]))
        .unwrap();
    g.create_edge(a, s, "CALLS", BTreeMap::new()).unwrap();
    let e_uses = g.create_edge(b, s, "USES", BTreeMap::new()).unwrap();
    let st = g.stats().unwrap();
    assert_eq!(st.node_count, 3);
    assert_eq!(st.label_counts.get("F"), Some(&2));
    assert_eq!(st.edge_counts.get("CALLS"), Some(&2));
    assert_eq!(st.edge_count(), 3);
    assert_eq!(
        st.avg_out_degree.get("CALLS"),
        Some(&2.0),
        "CALLS: 2 edges from 1 source"
    );
    assert_eq!(
        st.avg_in_degree.get("CALLS"),
        Some(&1.0),
        "CALLS: 2 edges into 2 targets"
    );
    let sc = g.schema().unwrap();
    assert_eq!(sc.labels, labels(&["F", "S"]), "schema lists sorted labels");
    assert_eq!(sc.rel_types, labels(&["CALLS", "USES"]));
    assert_eq!(sc.node_property_keys, labels(&["name"]));
    assert_eq!(sc.edge_property_keys, labels(&["n"]));
    assert_eq!(sc.label_property_keys.get("F"), Some(&labels(&["name"])), "keys per label");
    assert_eq!(sc.label_property_keys.get("S"), None, "a label whose nodes have no properties");
    assert_eq!(sc.type_property_keys.get("CALLS"), Some(&labels(&["n"])), "keys per type");
    assert_eq!(sc.type_property_keys.get("USES"), None);
    // Counts follow every write: labels added and removed, properties set and removed,
    // nodes and relationships deleted.
    g.add_label(s, "T").unwrap();
    g.add_label(a, "T").unwrap();
    g.set_node_property(s, "kind", "x".into()).unwrap();
    g.set_edge_property(e_uses, "w", Value::Int(2)).unwrap();
    let st = g.stats().unwrap();
    assert_eq!(st.label_counts.get("T"), Some(&2));
    assert_eq!(st.label_counts.get("S"), Some(&1));
    let sc = g.schema().unwrap();
    assert_eq!(sc.label_property_keys.get("T"), Some(&labels(&["kind", "name"])), "keys under an added label");
    assert_eq!(sc.label_property_keys.get("S"), Some(&labels(&["kind"])));
    assert_eq!(sc.type_property_keys.get("USES"), Some(&labels(&["w"])));
    g.remove_label(a, "F").unwrap(); // a's first label goes; T takes its place
    g.set_node_property(s, "kind", Value::Null).unwrap();
    g.delete_node(b, true).unwrap();
    let st = g.stats().unwrap();
    assert_eq!(st.node_count, 2);
    assert_eq!(st.label_counts.get("F"), None, "no node carries F any more");
    assert_eq!(st.label_counts.get("T"), Some(&2));
    assert_eq!(st.edge_counts.get("USES"), None, "deleted with b");
    assert_eq!(st.edge_counts.get("CALLS"), Some(&1));
    assert_eq!(st.avg_in_degree.get("CALLS"), Some(&1.0));
    let sc = g.schema().unwrap();
    assert_eq!(sc.labels, labels(&["S", "T"]));
    assert_eq!(sc.rel_types, labels(&["CALLS"]));
    assert_eq!(sc.label_property_keys.get("T"), Some(&labels(&["name"])));
    assert_eq!(sc.label_property_keys.get("S"), None);
    assert_eq!(sc.edge_property_keys, Vec::<String>::new(), "the CALLS edge left has no properties");
}
