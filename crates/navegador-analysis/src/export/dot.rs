//! DOT for Graphviz: one `digraph`, a node per graph node (`n<id>`, labelled with its
//! label and name, every property an attribute), an edge per relationship (labelled with
//! its type; `inferred` edges dashed, `ambiguous` dotted). Every ID and value is a quoted
//! string, so no name can break the syntax.

use std::io::Write;

use navegador_store::{ExportEdge, ExportNode};

use super::{display_name, text_of, ExportSummary, Sink};

pub(crate) struct Dot<W> {
    out: W,
}

impl<W: Write> Dot<W> {
    pub fn new(out: W) -> Self {
        Dot { out }
    }
}

/// A DOT quoted string: `"` and `\` escaped, line breaks as `\n` (a centred line in a
/// label), other control characters dropped.
pub(crate) fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\r' | '\t' => q.push(' '),
            c if c.is_control() => {}
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Property keys that are Graphviz attributes of their own: written with a `nav_` prefix so
/// a property never restyles the drawing.
const GRAPHVIZ_ATTRS: &[&str] = &["label", "style", "color", "shape", "tooltip", "id", "class", "width", "height", "pos", "url", "href"];

fn attr_key(k: &str) -> String {
    if GRAPHVIZ_ATTRS.contains(&k.to_ascii_lowercase().as_str()) {
        quote(&format!("nav_{k}"))
    } else {
        quote(k)
    }
}

impl<W: Write> Sink for Dot<W> {
    fn begin(&mut self, _: &super::Schema) -> std::io::Result<()> {
        writeln!(self.out, "digraph navegador {{")?;
        writeln!(self.out, "  graph [rankdir=LR];")?;
        writeln!(self.out, "  node [shape=box, fontname=\"Helvetica\", fontsize=10];")?;
        writeln!(self.out, "  edge [fontname=\"Helvetica\", fontsize=8];")
    }

    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        let label = format!("{}\n{}", n.labels.join(":"), display_name(n));
        write!(self.out, "  \"n{}\" [label={}, \"nav_labels\"={}", n.id, quote(&label), quote(&n.labels.join(":")))?;
        for (k, v) in &n.props {
            write!(self.out, ", {}={}", attr_key(k), quote(&text_of(v)))?;
        }
        writeln!(self.out, "];")
    }

    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        write!(self.out, "  \"n{}\" -> \"n{}\" [label={}", e.src, e.dst, quote(&e.edge_type))?;
        match e.props.get("resolution").and_then(|v| v.as_str()) {
            Some("inferred") => write!(self.out, ", style=dashed")?,
            Some("ambiguous") => write!(self.out, ", style=dotted")?,
            _ => {}
        }
        for (k, v) in &e.props {
            write!(self.out, ", {}={}", attr_key(k), quote(&text_of(v)))?;
        }
        writeln!(self.out, "];")
    }

    fn finish(&mut self, _: &mut ExportSummary) -> std::io::Result<()> {
        writeln!(self.out, "}}")
    }
}
