//! The registered procedures (`CALL db.labels()`): their names, output fields and whether
//! they only read. The engine classifies a `CALL` by this table, never by its text: a
//! registered read procedure runs under the read-only policy, anything else is refused.

use navegador_graph::{GraphError, GraphRead, Value};

/// One registered procedure.
pub struct Procedure {
    pub name: &'static str,
    /// The fields of each record, in order (what `YIELD` may name).
    pub outputs: &'static [&'static str],
    /// True when the procedure has no side effect (allowed in read-only mode).
    pub read_only: bool,
    records: fn(&dyn GraphRead) -> Result<Vec<Vec<Value>>, GraphError>,
}

impl Procedure {
    /// The procedure's records over `g`, one value per output field.
    pub fn records(&self, g: &dyn GraphRead) -> Result<Vec<Vec<Value>>, GraphError> {
        (self.records)(g)
    }
}

fn one_column(names: Vec<String>) -> Vec<Vec<Value>> {
    names.into_iter().map(|n| vec![Value::String(n)]).collect()
}

const PROCEDURES: &[Procedure] = &[
    Procedure {
        name: "db.labels",
        outputs: &["label"],
        read_only: true,
        records: |g| Ok(one_column(g.schema()?.labels)),
    },
    Procedure {
        name: "db.relationshipTypes",
        outputs: &["relationshipType"],
        read_only: true,
        records: |g| Ok(one_column(g.schema()?.rel_types)),
    },
    Procedure {
        name: "db.propertyKeys",
        outputs: &["propertyKey"],
        read_only: true,
        records: |g| {
            let s = g.schema()?;
            let mut keys = s.node_property_keys;
            keys.extend(s.edge_property_keys);
            keys.sort();
            keys.dedup();
            Ok(one_column(keys))
        },
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
