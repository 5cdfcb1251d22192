//! Cypher value semantics: ternary equality, comparison, the total order used by
//! ORDER BY / DISTINCT / grouping, and type names for error messages.

use std::cmp::Ordering;

use navegador_graph::Value;

pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NULL",
        Value::Bool(_) => "BOOLEAN",
        Value::Int(_) => "INTEGER",
        Value::Float(_) => "FLOAT",
        Value::String(_) => "STRING",
        Value::List(_) => "LIST",
        Value::Map(_) => "MAP",
        Value::Node(_) => "NODE",
        Value::Relationship(_) => "RELATIONSHIP",
        Value::Path(_) => "PATH",
    }
}

/// `a = b` with Cypher's three-valued logic: `None` is null.
pub fn equals(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Int(x), Value::Int(y)) => Some(x == y),
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => {
            Some(*x as f64 == *y)
        }
        (Value::Float(x), Value::Float(y)) => Some(x == y),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::String(x), Value::String(y)) => Some(x == y),
        (Value::List(x), Value::List(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.iter().zip(y) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    _ => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        (Value::Map(x), Value::Map(y)) => {
            if x.len() != y.len() || x.keys().zip(y.keys()).any(|(p, q)| p != q) {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.values().zip(y.values()) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    _ => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        (Value::Node(x), Value::Node(y)) => Some(x.id == y.id),
        (Value::Relationship(x), Value::Relationship(y)) => Some(x.id == y.id),
        (Value::Path(x), Value::Path(y)) => Some(
            x.nodes.len() == y.nodes.len()
                && x.nodes.iter().zip(&y.nodes).all(|(p, q)| p.id == q.id)
                && x.edges.iter().zip(&y.edges).all(|(p, q)| p.id == q.id),
        ),
        _ => Some(false),
    }
}

/// `a < b` style comparison: `None` when the values are not comparable (result null).
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Int(x), Value::Float(y)) => (*x as f64).partial_cmp(y),
        (Value::Float(x), Value::Int(y)) => x.partial_cmp(&(*y as f64)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y) {
                match compare(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

fn rank(v: &Value) -> u8 {
    match v {
        Value::Map(_) => 0,
        Value::Node(_) => 1,
        Value::Relationship(_) => 2,
        Value::List(_) => 3,
        Value::Path(_) => 4,
        Value::String(_) => 5,
        Value::Bool(_) => 6,
        Value::Int(_) | Value::Float(_) => 7,
        Value::Null => 8,
    }
}

/// The total order of ORDER BY (ascending): maps, nodes, relationships, lists, paths,
/// strings, booleans, numbers (NaN last), null. Equal under it means "equivalent"
/// for DISTINCT and grouping.
pub fn total_cmp(a: &Value, b: &Value) -> Ordering {
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let x = as_f64(a);
            let y = as_f64(b);
            match (x.is_nan(), y.is_nan()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal).then_with(|| {
                    // 1 and 1.0 are equivalent only when exactly equal.
                    match (a, b) {
                        (Value::Int(i), Value::Float(_))
                            if (*i as f64) == y && (y as i64) != *i =>
                        {
                            Ordering::Less
                        }
                        _ => Ordering::Equal,
                    }
                }),
            }
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y) {
                match total_cmp(p, q) {
                    Ordering::Equal => {}
                    o => return o,
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Map(x), Value::Map(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            kx.cmp(&ky).then_with(|| {
                for (p, q) in x.values().zip(y.values()) {
                    match total_cmp(p, q) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                Ordering::Equal
            })
        }
        (Value::Node(x), Value::Node(y)) => x.id.cmp(&y.id),
        (Value::Relationship(x), Value::Relationship(y)) => x.id.cmp(&y.id),
        (Value::Path(x), Value::Path(y)) => {
            let a: Vec<_> = x.nodes.iter().map(|n| n.id).collect();
            let b: Vec<_> = y.nodes.iter().map(|n| n.id).collect();
            let c: Vec<_> = x.edges.iter().map(|n| n.id).collect();
            let d: Vec<_> = y.edges.iter().map(|n| n.id).collect();
            a.cmp(&b).then(c.cmp(&d))
        }
        _ => Ordering::Equal,
    }
}

pub fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// A wrapper ordering values by `total_cmp`, for sorted maps of group keys.
#[derive(Clone, Debug)]
pub struct Key(pub Vec<Value>);

impl PartialEq for Key {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Key {
    fn cmp(&self, o: &Self) -> Ordering {
        for (a, b) in self.0.iter().zip(&o.0) {
            match total_cmp(a, b) {
                Ordering::Equal => {}
                x => return x,
            }
        }
        self.0.len().cmp(&o.0.len())
    }
}
