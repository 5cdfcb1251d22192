//! Cypher that loads the export into an empty graph (Neo4j through `cypher-shell -f`, or
//! navegador's own engine): one statement per line, in batches of [`BATCH`] rows
//! (`UNWIND [...] AS r CREATE (n:Label) SET n = r`), nodes first, then edges matched by
//! the `nav_id` property each node carries (the export's id for it). Strings are quoted
//! with `'` and escaped (`\\`, `\'`, `\n`, `\r`, `\t`, `\uXXXX`), names that are not plain
//! identifiers in backticks; lists of scalars stay lists, maps and lists of maps become
//! JSON text (a graph property holds scalars and lists only).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

use navegador_store::{ExportEdge, ExportNode};
use serde_json::{Map, Value};

use super::{ExportSummary, Sink};

/// Rows per statement.
pub(crate) const BATCH: usize = 500;

pub(crate) struct Cypher<W> {
    out: W,
    /// Node rows waiting, per label set.
    nodes: BTreeMap<Vec<String>, Vec<String>>,
    /// Edge rows waiting, per (type, source label, target label).
    edges: BTreeMap<(String, String, String), Vec<String>>,
}

impl<W: Write> Cypher<W> {
    pub fn new(out: W) -> Self {
        Cypher { out, nodes: BTreeMap::new(), edges: BTreeMap::new() }
    }

    fn flush_nodes(&mut self, labels: &[String]) -> std::io::Result<()> {
        let Some(rows) = self.nodes.remove(labels) else { return Ok(()) };
        let labels: String = labels.iter().map(|l| format!(":{}", name(l))).collect();
        writeln!(self.out, "UNWIND [{}] AS r CREATE (n{labels}) SET n = r;", rows.join(", "))
    }

    fn flush_edges(&mut self, key: &(String, String, String)) -> std::io::Result<()> {
        let Some(rows) = self.edges.remove(key) else { return Ok(()) };
        let (t, a, b) = key;
        let with = |l: &str| if l.is_empty() { String::new() } else { format!(":{}", name(l)) };
        writeln!(
            self.out,
            "UNWIND [{}] AS r MATCH (a{} {{nav_id: r.s}}), (b{} {{nav_id: r.d}}) CREATE (a)-[e:{}]->(b) SET e = r.p;",
            rows.join(", "),
            with(a),
            with(b),
            name(t)
        )
    }
}

/// A label, type or key: as it is when an identifier, else in backticks.
pub(crate) fn name(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        s.to_string()
    } else {
        format!("`{}`", s.replace('`', "``"))
    }
}

/// A Cypher string literal.
pub(crate) fn string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('\'');
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\'' => o.push_str("\\'"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('\'');
    o
}

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let t = n.to_string();
            if n.is_f64() && !t.contains(['.', 'e', 'E']) {
                format!("{t}.0")
            } else {
                t
            }
        }
        Value::String(s) => string(s),
        Value::Array(a) if a.iter().all(|x| !x.is_array() && !x.is_object()) => {
            format!("[{}]", a.iter().map(literal).collect::<Vec<_>>().join(", "))
        }
        other => string(&other.to_string()),
    }
}

fn map(m: &Map<String, Value>, first: Option<(&str, String)>) -> String {
    let mut parts: Vec<String> = first.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
    parts.extend(m.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| format!("{}: {}", name(k), literal(v))));
    format!("{{{}}}", parts.join(", "))
}

impl<W: Write> Sink for Cypher<W> {
    fn begin(&mut self, _: &super::Schema) -> std::io::Result<()> {
        writeln!(self.out, "// navegador export: load into an empty graph (cypher-shell -f FILE, or navegador query --write per line).")?;
        writeln!(self.out, "// Each node carries nav_id, the export's id for it; in Neo4j, index it per label first for a large graph:")?;
        writeln!(self.out, "// CREATE INDEX IF NOT EXISTS FOR (n:Function) ON (n.nav_id);")
    }

    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        let row = map(&n.props, Some(("nav_id", n.id.to_string())));
        let rows = self.nodes.entry(n.labels.clone()).or_default();
        rows.push(row);
        if rows.len() >= BATCH {
            self.flush_nodes(&n.labels.clone())?;
        }
        Ok(())
    }

    fn end_nodes(&mut self) -> std::io::Result<()> {
        let keys: Vec<Vec<String>> = self.nodes.keys().cloned().collect();
        for k in keys {
            self.flush_nodes(&k)?;
        }
        Ok(())
    }

    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        let key = (e.edge_type.clone(), e.src_label.clone(), e.dst_label.clone());
        let row = format!("{{s: {}, d: {}, p: {}}}", e.src, e.dst, map(&e.props, None));
        let rows = self.edges.entry(key.clone()).or_default();
        rows.push(row);
        if rows.len() >= BATCH {
            self.flush_edges(&key)?;
        }
        Ok(())
    }

    fn finish(&mut self, _: &mut ExportSummary) -> std::io::Result<()> {
        let keys: Vec<(String, String, String)> = self.edges.keys().cloned().collect();
        for k in keys {
            self.flush_edges(&k)?;
        }
        Ok(())
    }
}
