//! Values stored in and returned from the graph: Cypher's property and result types.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::{EdgeId, NodeId};

/// A node with its labels and properties.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: NodeId,
    pub labels: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

/// A directed, typed edge with properties.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub id: EdgeId,
    pub src: NodeId,
    pub dst: NodeId,
    pub rel_type: String,
    pub props: BTreeMap<String, Value>,
}

/// An alternating sequence of nodes and edges; `nodes.len() == edges.len() + 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// A Cypher value. Properties hold only the first seven variants; nodes, relationships
/// and paths appear in query results (shared, so rows copy them cheaply).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
    Node(Arc<Node>),
    Relationship(Arc<Edge>),
    Path(Arc<Path>),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Cypher equality for property lookups: numbers compare by value (`1 = 1.0`),
    /// lists and maps element-wise, null equals nothing.
    pub fn property_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Float(b)) | (Value::Float(b), Value::Int(a)) => {
                (*a as f64) == *b
            }
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.property_equals(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && va.property_equals(vb))
            }
            (Value::Null, _) | (_, Value::Null) => false,
            (Value::Node(a), Value::Node(b)) => a.id == b.id,
            (Value::Relationship(a), Value::Relationship(b)) => a.id == b.id,
            _ => self == other,
        }
    }

    /// Whether the value may be stored as a property (scalars and homogeneous lists of them).
    pub fn is_storable(&self) -> bool {
        match self {
            Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::String(_) => true,
            Value::List(items) => items.iter().all(|v| {
                matches!(
                    v,
                    Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::String(_)
                )
            }),
            _ => false,
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::String(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::String(v)
    }
}
