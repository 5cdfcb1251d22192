//! The registered procedures (`CALL db.labels()`, `CALL db.unresolved()`): their names,
//! output fields and whether they only read. The engine classifies a `CALL` by this table, never by its text: a
//! registered read procedure runs under the read-only policy, anything else is refused.

use navegador_graph::{GraphError, GraphRead, Value};

/// One registered procedure.
pub struct Procedure {
    pub name: &'static str,
    /// The fields of each record, in order (what `YIELD` may name).
    pub outputs: &'static [&'static str],
    /// True when the procedure has no side effect (allowed in read-only mode).
    pub read_only: bool,
    records: fn(&dyn GraphRead, &[usize]) -> Result<Vec<Vec<Value>>, GraphError>,
}

impl Procedure {
    /// The procedure's records over `g`, one value per output field; only the fields at
    /// `wanted` (indexes into `outputs`) need be filled, the others may be null.
    pub fn records(&self, g: &dyn GraphRead, wanted: &[usize]) -> Result<Vec<Vec<Value>>, GraphError> {
        (self.records)(g, wanted)
    }
}

/// `db.unresolved()`: the reference sites without an edge, the enclosing symbol's node
/// read (in lists) only when `caller` is yielded.
fn unresolved(g: &dyn GraphRead, wanted: &[usize]) -> Result<Vec<Vec<Value>>, GraphError> {
    let sites = g.unresolved_sites()?;
    let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::String);
    let mut callers: Vec<Value> = vec![Value::Null; sites.len()];
    if wanted.contains(&7) {
        let ids: Vec<(usize, navegador_graph::NodeId)> =
            sites.iter().enumerate().filter_map(|(i, s)| Some((i, s.caller?))).collect();
        for chunk in ids.chunks(512) {
            let list: Vec<navegador_graph::NodeId> = chunk.iter().map(|(_, id)| *id).collect();
            for ((i, _), n) in chunk.iter().zip(g.nodes(&list)?) {
                if let Some(n) = n {
                    callers[*i] = Value::Node(std::sync::Arc::new(n));
                }
            }
        }
    }
    Ok(sites
        .into_iter()
        .zip(callers)
        .map(|(s, caller)| {
            vec![
                Value::String(s.file),
                Value::Int(s.line),
                Value::Int(s.column),
                Value::String(s.name),
                Value::String(s.kind),
                text(&s.receiver),
                Value::String(s.reason),
                caller,
            ]
        })
        .collect())
}

fn one_column(names: Vec<String>) -> Vec<Vec<Value>> {
    names.into_iter().map(|n| vec![Value::String(n)]).collect()
}

const PROCEDURES: &[Procedure] = &[
    Procedure {
        name: "db.labels",
        outputs: &["label"],
        read_only: true,
        records: |g, _| Ok(one_column(g.schema()?.labels)),
    },
    Procedure {
        name: "db.relationshipTypes",
        outputs: &["relationshipType"],
        read_only: true,
        records: |g, _| Ok(one_column(g.schema()?.rel_types)),
    },
    Procedure {
        name: "db.propertyKeys",
        outputs: &["propertyKey"],
        read_only: true,
        records: |g, _| {
            let s = g.schema()?;
            let mut keys = s.node_property_keys;
            keys.extend(s.edge_property_keys);
            keys.sort();
            keys.dedup();
            Ok(one_column(keys))
        },
    },
    Procedure {
        name: "db.unresolved",
        outputs: &["file", "line", "column", "name", "kind", "receiver", "reason", "caller"],
        read_only: true,
        records: unresolved,
    },
];

/// The registered procedure named exactly `name`.
pub fn lookup(name: &str) -> Option<&'static Procedure> {
    PROCEDURES.iter().find(|p| p.name == name)
}

/// The names of all registered procedures.
pub fn names() -> impl Iterator<Item = &'static str> {
    PROCEDURES.iter().map(|p| p.name)
}
