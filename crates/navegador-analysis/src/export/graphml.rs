//! GraphML (Gephi, yEd, networkx): every property key declared once with its type
//! (`long`, `double`, `boolean`, `string`; lists and maps as JSON text), then the nodes
//! (`n<id>`) and edges. Reserved keys: a node's `labels` (joined by `:`) and `label` (its
//! name for display, which Gephi and yEd show), an edge's `label` (its type). A property
//! with a reserved name is written as `property.<name>`. Text is XML-escaped; characters
//! XML 1.0 cannot carry (control characters) become U+FFFD.

use std::io::Write;

use navegador_store::{ExportEdge, ExportNode};
use serde_json::Value;

use super::{display_name, text_of, ExportSummary, Kind, Schema, Sink};

pub(crate) struct Graphml<W> {
    out: W,
    node_ids: std::collections::HashMap<String, String>,
    edge_ids: std::collections::HashMap<String, String>,
}

impl<W: Write> Graphml<W> {
    pub fn new(out: W) -> Self {
        Graphml { out, node_ids: Default::default(), edge_ids: Default::default() }
    }
}

/// XML text or attribute value.
pub(crate) fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => o.push('\u{FFFD}'),
            c => o.push(c),
        }
    }
    o
}

fn type_name(k: Kind) -> &'static str {
    match k {
        Kind::Boolean => "boolean",
        Kind::Long => "long",
        Kind::Double => "double",
        Kind::String => "string",
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        other => text_of(other),
    }
}

const NODE_RESERVED: &[&str] = &["labels", "label"];
const EDGE_RESERVED: &[&str] = &["label"];

fn attr_name(k: &str, reserved: &[&str]) -> String {
    if reserved.contains(&k) {
        format!("property.{k}")
    } else {
        k.to_string()
    }
}

impl<W: Write> Sink for Graphml<W> {
    fn begin(&mut self, schema: &Schema) -> std::io::Result<()> {
        let o = &mut self.out;
        writeln!(o, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            o,
            r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">"#
        )?;
        writeln!(o, r#"  <key id="labels" for="node" attr.name="labels" attr.type="string"/>"#)?;
        writeln!(o, r#"  <key id="label" for="node" attr.name="label" attr.type="string"/>"#)?;
        writeln!(o, r#"  <key id="type" for="edge" attr.name="label" attr.type="string"/>"#)?;
        for (i, (k, kind)) in schema.node_keys.iter().enumerate() {
            let id = format!("n{i}");
            writeln!(o, r#"  <key id="{id}" for="node" attr.name="{}" attr.type="{}"/>"#, escape(&attr_name(k, NODE_RESERVED)), type_name(*kind))?;
            self.node_ids.insert(k.clone(), id);
        }
        for (i, (k, kind)) in schema.edge_keys.iter().enumerate() {
            let id = format!("e{i}");
            writeln!(o, r#"  <key id="{id}" for="edge" attr.name="{}" attr.type="{}"/>"#, escape(&attr_name(k, EDGE_RESERVED)), type_name(*kind))?;
            self.edge_ids.insert(k.clone(), id);
        }
        writeln!(o, r#"  <graph id="navegador" edgedefault="directed">"#)
    }

    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        let o = &mut self.out;
        write!(o, r#"    <node id="n{}"><data key="labels">{}</data><data key="label">{}</data>"#, n.id, escape(&n.labels.join(":")), escape(&display_name(n)))?;
        for (k, v) in &n.props {
            if let (Some(id), false) = (self.node_ids.get(k), v.is_null()) {
                write!(o, r#"<data key="{id}">{}</data>"#, escape(&value_text(v)))?;
            }
        }
        writeln!(o, "</node>")
    }

    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        let o = &mut self.out;
        write!(o, r#"    <edge id="e{}" source="n{}" target="n{}"><data key="type">{}</data>"#, e.id, e.src, e.dst, escape(&e.edge_type))?;
        for (k, v) in &e.props {
            if let (Some(id), false) = (self.edge_ids.get(k), v.is_null()) {
                write!(o, r#"<data key="{id}">{}</data>"#, escape(&value_text(v)))?;
            }
        }
        writeln!(o, "</edge>")
    }

    fn finish(&mut self, _: &mut ExportSummary) -> std::io::Result<()> {
        writeln!(self.out, "  </graph>")?;
        writeln!(self.out, "</graphml>")
    }
}
