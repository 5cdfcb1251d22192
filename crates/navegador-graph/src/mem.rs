//! `MemGraph`: an in-memory `GraphRead + GraphWrite`, the reference backend for tests.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use crate::{
    Direction, Edge, EdgeId, GraphError, GraphRead, GraphStats, GraphWrite, Node, NodeId, Schema,
    Value,
};

/// An in-memory property graph. Ids are assigned in increasing order and never reused.
#[derive(Clone, Debug, Default)]
pub struct MemGraph {
    nodes: BTreeMap<NodeId, Node>,
    edges: BTreeMap<EdgeId, Edge>,
    out: BTreeMap<NodeId, Vec<EdgeId>>,
    inc: BTreeMap<NodeId, Vec<EdgeId>>,
    /// Label index: nodes per label.
    by_label: BTreeMap<String, BTreeSet<NodeId>>,
    /// Property index: nodes per (key, scalar value), see `index_key`.
    by_prop: BTreeMap<(String, String), BTreeSet<NodeId>>,
    next_node: i64,
    next_edge: i64,
    /// `stats()` result, dropped by every write.
    stats_cache: OnceLock<GraphStats>,
}

impl MemGraph {
    pub fn new() -> Self {
        Self::default()
    }

    /// All nodes, ascending by id.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.values()
    }

    /// All edges, ascending by id.
    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.edges.values()
    }

    fn node_mut(&mut self, id: NodeId) -> Result<&mut Node, GraphError> {
        self.nodes.get_mut(&id).ok_or(GraphError::NodeNotFound(id))
    }

    fn index_prop(&mut self, id: NodeId, key: &str, value: &Value, add: bool) {
        let Some(vk) = index_key(value) else { return };
        let k = (key.to_string(), vk);
        if add {
            self.by_prop.entry(k).or_default().insert(id);
        } else if let Some(s) = self.by_prop.get_mut(&k) {
            s.remove(&id);
            if s.is_empty() {
                self.by_prop.remove(&k);
            }
        }
    }

    fn unindex_label(&mut self, id: NodeId, label: &str) {
        if let Some(s) = self.by_label.get_mut(label) {
            s.remove(&id);
            if s.is_empty() {
                self.by_label.remove(label);
            }
        }
    }

    fn check_storable(key: &str, value: &Value) -> Result<(), GraphError> {
        if value.is_null() || value.is_storable() {
            Ok(())
        } else {
            Err(GraphError::InvalidProperty {
                key: key.to_string(),
                reason: "only scalars and lists of scalars can be stored".into(),
            })
        }
    }
}

/// Index key of a scalar such that Cypher-equal values share it (`1` and `1.0`).
fn index_key(v: &Value) -> Option<String> {
    Some(match v {
        Value::Int(i) => format!("n{i}"),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("n{}", *f as i64),
        Value::Float(f) => format!("f{f:?}"),
        Value::String(s) => format!("s{s}"),
        Value::Bool(b) => format!("b{b}"),
        _ => return None,
    })
}

impl GraphRead for MemGraph {
    fn node(&self, id: NodeId) -> Result<Option<Node>, GraphError> {
        Ok(self.nodes.get(&id).cloned())
    }

    fn edge(&self, id: EdgeId) -> Result<Option<Edge>, GraphError> {
        Ok(self.edges.get(&id).cloned())
    }

    fn node_ids(&self, label: Option<&str>) -> Result<Vec<NodeId>, GraphError> {
        Ok(match label {
            Some(l) => self
                .by_label
                .get(l)
                .map(|s| s.iter().copied().collect())
                .unwrap_or_default(),
            None => self.nodes.keys().copied().collect(),
        })
    }

    fn node_ids_by_property(
        &self,
        label: Option<&str>,
        key: &str,
        value: &Value,
    ) -> Result<Vec<NodeId>, GraphError> {
        let matches = |n: &Node| n.props.get(key).is_some_and(|v| v.property_equals(value));
        let has_label = |n: &Node| label.is_none_or(|l| n.labels.iter().any(|x| x == l));
        if let Some(vk) = index_key(value) {
            return Ok(self
                .by_prop
                .get(&(key.to_string(), vk))
                .into_iter()
                .flatten()
                .filter(|id| has_label(&self.nodes[id]) && matches(&self.nodes[id]))
                .copied()
                .collect());
        }
        Ok(match label {
            Some(l) => self
                .by_label
                .get(l)
                .into_iter()
                .flatten()
                .filter(|id| matches(&self.nodes[id]))
                .copied()
                .collect(),
            None => self
                .nodes
                .values()
                .filter(|n| matches(n))
                .map(|n| n.id)
                .collect(),
        })
    }

    fn edges_of(
        &self,
        node: NodeId,
        direction: Direction,
        types: &[String],
    ) -> Result<Vec<Edge>, GraphError> {
        let mut ids: Vec<EdgeId> = Vec::new();
        if matches!(direction, Direction::Outgoing | Direction::Both) {
            ids.extend(self.out.get(&node).into_iter().flatten());
        }
        if matches!(direction, Direction::Incoming | Direction::Both) {
            for id in self.inc.get(&node).into_iter().flatten() {
                // A self-loop is already listed as outgoing.
                if direction == Direction::Both && self.edges[id].src == node {
                    continue;
                }
                ids.push(*id);
            }
        }
        Ok(ids
            .into_iter()
            .map(|id| &self.edges[&id])
            .filter(|e| types.is_empty() || types.contains(&e.rel_type))
            .cloned()
            .collect())
    }

    fn stats(&self) -> Result<GraphStats, GraphError> {
        Ok(self
            .stats_cache
            .get_or_init(|| self.compute_stats())
            .clone())
    }

    fn schema(&self) -> Result<Schema, GraphError> {
        self.compute_schema()
    }
}

impl MemGraph {
    fn compute_stats(&self) -> GraphStats {
        let mut s = GraphStats {
            node_count: self.nodes.len() as u64,
            ..Default::default()
        };
        for n in self.nodes.values() {
            for l in &n.labels {
                *s.label_counts.entry(l.clone()).or_default() += 1;
            }
        }
        let mut srcs: BTreeMap<&str, BTreeSet<NodeId>> = BTreeMap::new();
        let mut dsts: BTreeMap<&str, BTreeSet<NodeId>> = BTreeMap::new();
        for e in self.edges.values() {
            *s.edge_counts.entry(e.rel_type.clone()).or_default() += 1;
            srcs.entry(&e.rel_type).or_default().insert(e.src);
            dsts.entry(&e.rel_type).or_default().insert(e.dst);
        }
        for (t, c) in &s.edge_counts {
            let c = *c as f64;
            s.avg_out_degree
                .insert(t.clone(), c / srcs[t.as_str()].len().max(1) as f64);
            s.avg_in_degree
                .insert(t.clone(), c / dsts[t.as_str()].len().max(1) as f64);
        }
        s
    }

    fn compute_schema(&self) -> Result<Schema, GraphError> {
        let mut labels = BTreeSet::new();
        let mut types = BTreeSet::new();
        let mut nkeys = BTreeSet::new();
        let mut ekeys = BTreeSet::new();
        let mut per_label: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut per_type: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for n in self.nodes.values() {
            labels.extend(n.labels.iter().cloned());
            nkeys.extend(n.props.keys().cloned());
            let unlabelled = [String::new()];
            let ls = if n.labels.is_empty() { &unlabelled[..] } else { &n.labels[..] };
            for l in ls {
                if !n.props.is_empty() {
                    per_label.entry(l.clone()).or_default().extend(n.props.keys().cloned());
                }
            }
        }
        for e in self.edges.values() {
            types.insert(e.rel_type.clone());
            ekeys.extend(e.props.keys().cloned());
            if !e.props.is_empty() {
                per_type.entry(e.rel_type.clone()).or_default().extend(e.props.keys().cloned());
            }
        }
        let lists = |m: BTreeMap<String, BTreeSet<String>>| -> BTreeMap<String, Vec<String>> {
            m.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect()
        };
        Ok(Schema {
            labels: labels.into_iter().collect(),
            rel_types: types.into_iter().collect(),
            node_property_keys: nkeys.into_iter().collect(),
            edge_property_keys: ekeys.into_iter().collect(),
            label_property_keys: lists(per_label),
            type_property_keys: lists(per_type),
        })
    }
}

impl GraphWrite for MemGraph {
    fn create_node(
        &mut self,
        labels: &[String],
        props: BTreeMap<String, Value>,
    ) -> Result<NodeId, GraphError> {
        self.stats_cache = OnceLock::new();
        for (k, v) in &props {
            Self::check_storable(k, v)?;
        }
        let id = NodeId(self.next_node);
        self.next_node += 1;
        let mut ls: Vec<String> = Vec::new();
        for l in labels {
            if !ls.contains(l) {
                ls.push(l.clone());
            }
        }
        let props: BTreeMap<String, Value> =
            props.into_iter().filter(|(_, v)| !v.is_null()).collect();
        for (k, v) in &props {
            self.index_prop(id, k, v, true);
        }
        for l in &ls {
            self.by_label.entry(l.clone()).or_default().insert(id);
        }
        self.nodes.insert(
            id,
            Node {
                id,
                labels: ls,
                props,
            },
        );
        Ok(id)
    }

    fn create_edge(
        &mut self,
        src: NodeId,
        dst: NodeId,
        rel_type: &str,
        props: BTreeMap<String, Value>,
    ) -> Result<EdgeId, GraphError> {
        self.stats_cache = OnceLock::new();
        for n in [src, dst] {
            if !self.nodes.contains_key(&n) {
                return Err(GraphError::NodeNotFound(n));
            }
        }
        for (k, v) in &props {
            Self::check_storable(k, v)?;
        }
        let id = EdgeId(self.next_edge);
        self.next_edge += 1;
        let props = props.into_iter().filter(|(_, v)| !v.is_null()).collect();
        self.edges.insert(
            id,
            Edge {
                id,
                src,
                dst,
                rel_type: rel_type.to_string(),
                props,
            },
        );
        self.out.entry(src).or_default().push(id);
        self.inc.entry(dst).or_default().push(id);
        Ok(id)
    }

    fn set_node_property(&mut self, id: NodeId, key: &str, value: Value) -> Result<(), GraphError> {
        self.stats_cache = OnceLock::new();
        Self::check_storable(key, &value)?;
        let n = self.node_mut(id)?;
        let old = if value.is_null() {
            n.props.remove(key)
        } else {
            n.props.insert(key.to_string(), value.clone())
        };
        if let Some(old) = old {
            self.index_prop(id, key, &old, false);
        }
        self.index_prop(id, key, &value, true);
        Ok(())
    }

    fn set_edge_property(&mut self, id: EdgeId, key: &str, value: Value) -> Result<(), GraphError> {
        self.stats_cache = OnceLock::new();
        Self::check_storable(key, &value)?;
        let e = self
            .edges
            .get_mut(&id)
            .ok_or(GraphError::EdgeNotFound(id))?;
        if value.is_null() {
            e.props.remove(key);
        } else {
            e.props.insert(key.to_string(), value);
        }
        Ok(())
    }

    fn add_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError> {
        self.stats_cache = OnceLock::new();
        let n = self.node_mut(id)?;
        if n.labels.iter().any(|l| l == label) {
            return Ok(false);
        }
        n.labels.push(label.to_string());
        self.by_label
            .entry(label.to_string())
            .or_default()
            .insert(id);
        Ok(true)
    }

    fn remove_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError> {
        self.stats_cache = OnceLock::new();
        let n = self.node_mut(id)?;
        let before = n.labels.len();
        n.labels.retain(|l| l != label);
        let removed = n.labels.len() != before;
        self.unindex_label(id, label);
        Ok(removed)
    }

    fn delete_node(&mut self, id: NodeId, detach: bool) -> Result<usize, GraphError> {
        self.stats_cache = OnceLock::new();
        if !self.nodes.contains_key(&id) {
            return Err(GraphError::NodeNotFound(id));
        }
        let mut touching: Vec<EdgeId> = self.out.get(&id).cloned().unwrap_or_default();
        for e in self.inc.get(&id).into_iter().flatten() {
            if !touching.contains(e) {
                touching.push(*e);
            }
        }
        if !touching.is_empty() && !detach {
            return Err(GraphError::NodeHasEdges(id));
        }
        for e in &touching {
            self.delete_edge(*e)?;
        }
        if let Some(n) = self.nodes.remove(&id) {
            for l in &n.labels {
                self.unindex_label(id, l);
            }
            for (k, v) in &n.props {
                self.index_prop(id, k, v, false);
            }
        }
        self.out.remove(&id);
        self.inc.remove(&id);
        Ok(touching.len())
    }

    fn delete_edge(&mut self, id: EdgeId) -> Result<(), GraphError> {
        self.stats_cache = OnceLock::new();
        let e = self.edges.remove(&id).ok_or(GraphError::EdgeNotFound(id))?;
        if let Some(v) = self.out.get_mut(&e.src) {
            v.retain(|x| *x != id);
        }
        if let Some(v) = self.inc.get_mut(&e.dst) {
            v.retain(|x| *x != id);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(kv: &[(&str, Value)]) -> BTreeMap<String, Value> {
        kv.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    #[test]
    fn passes_the_backend_conformance_suite() {
        crate::conformance::check_backend(MemGraph::new);
    }

    #[test]
    fn create_query_and_delete() {
        let mut g = MemGraph::new();
        let a = g
            .create_node(&["Fn".into()], props(&[("name", "a".into())]))
            .unwrap();
        let b = g
            .create_node(&["Fn".into(), "Pub".into()], props(&[("name", "b".into())]))
            .unwrap();
        let e = g.create_edge(a, b, "CALLS", BTreeMap::new()).unwrap();
        g.create_edge(a, a, "SELF", BTreeMap::new()).unwrap();
        assert_eq!(g.node_ids(Some("Pub")).unwrap(), vec![b]);
        assert_eq!(
            g.node_ids_by_property(Some("Fn"), "name", &"b".into())
                .unwrap(),
            vec![b]
        );
        assert_eq!(g.edges_of(a, Direction::Both, &[]).unwrap().len(), 2);
        assert_eq!(
            g.edges_of(b, Direction::Incoming, &["CALLS".into()])
                .unwrap()[0]
                .id,
            e
        );
        let s = g.stats().unwrap();
        assert_eq!(s.label_counts["Fn"], 2);
        assert_eq!(s.edge_counts["CALLS"], 1);
        assert_eq!(g.delete_node(a, false), Err(GraphError::NodeHasEdges(a)));
        assert_eq!(g.delete_node(a, true).unwrap(), 2);
        assert!(g.edges_of(b, Direction::Both, &[]).unwrap().is_empty());
        assert_eq!(
            g.schema().unwrap().labels,
            vec!["Fn".to_string(), "Pub".to_string()]
        );
    }

    #[test]
    fn properties_and_labels() {
        let mut g = MemGraph::new();
        let a = g.create_node(&[], BTreeMap::new()).unwrap();
        g.set_node_property(a, "x", Value::Int(1)).unwrap();
        assert_eq!(
            g.node_ids_by_property(None, "x", &Value::Float(1.0))
                .unwrap(),
            vec![a]
        );
        g.set_node_property(a, "x", Value::Null).unwrap();
        assert!(g.node(a).unwrap().unwrap().props.is_empty());
        assert!(g.add_label(a, "L").unwrap());
        assert!(!g.add_label(a, "L").unwrap());
        assert!(g.remove_label(a, "L").unwrap());
        assert!(g
            .set_node_property(a, "m", Value::Map(BTreeMap::new()))
            .is_err());
    }
}
