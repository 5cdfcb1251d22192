//! JSON rendering of values and results for the CLI and the MCP server.

use navegador_graph::{Edge, Node, Value};
use serde_json::{json, Map, Number, Value as Json};

use crate::QueryResult;

fn node_json(n: &Node) -> Json {
    json!({ "id": n.id.0, "labels": n.labels, "properties": props(&n.props) })
}

fn edge_json(e: &Edge) -> Json {
    json!({ "id": e.id.0, "type": e.rel_type, "start": e.src.0, "end": e.dst.0, "properties": props(&e.props) })
}

fn props(m: &std::collections::BTreeMap<String, Value>) -> Json {
    Json::Object(
        m.iter()
            .map(|(k, v)| (k.clone(), value_to_json(v)))
            .collect::<Map<_, _>>(),
    )
}

/// Converts a value: nodes become `{id, labels, properties}`, relationships
/// `{id, type, start, end, properties}`, paths `{nodes, relationships}`; NaN and
/// infinities (not representable in JSON) become strings.
pub fn value_to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number((*i).into()),
        Value::Float(f) => Number::from_f64(*f)
            .map_or_else(|| Json::String(crate::eval::format_float(*f)), Json::Number),
        Value::String(s) => Json::String(s.clone()),
        Value::List(l) => Json::Array(l.iter().map(value_to_json).collect()),
        Value::Map(m) => props(m),
        Value::Node(n) => node_json(n),
        Value::Relationship(e) => edge_json(e),
        Value::Path(p) => json!({
            "nodes": p.nodes.iter().map(node_json).collect::<Vec<_>>(),
            "relationships": p.edges.iter().map(edge_json).collect::<Vec<_>>(),
        }),
    }
}

/// `{columns, rows: [[...]], truncated, stats}`.
pub fn result_to_json(r: &QueryResult) -> Json {
    json!({
        "columns": r.columns,
        "rows": r.rows.iter().map(|row| row.iter().map(value_to_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "truncated": r.truncated,
        "stats": {
            "nodes_created": r.stats.nodes_created,
            "nodes_deleted": r.stats.nodes_deleted,
            "relationships_created": r.stats.relationships_created,
            "relationships_deleted": r.stats.relationships_deleted,
            "properties_set": r.stats.properties_set,
            "labels_added": r.stats.labels_added,
            "labels_removed": r.stats.labels_removed,
        },
    })
}
