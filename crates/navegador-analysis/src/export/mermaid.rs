//! Mermaid flowcharts for a pull request or a markdown answer: node ids are `n<id>` (only
//! letters and digits, so no name can break the syntax), labels quoted with Mermaid's
//! entity codes for `"`, `#`, `<`, `>` and backticks, edges labelled with their type
//! (`inferred` dashed). A diagram holds at most `max_nodes` nodes and twice as many edges
//! (renderers give up on larger ones: GitHub's stops at 500 edges); what is cut is counted
//! in a `%%` comment and in a note node the reader sees.

use std::collections::HashSet;
use std::io::Write;

use navegador_store::{ExportEdge, ExportNode};

use super::{display_name, ExportSummary, Sink};

/// Label text safe inside `["..."]`.
pub(crate) fn label(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => o.push_str("#quot;"),
            '#' => o.push_str("#35;"),
            '<' => o.push_str("#lt;"),
            '>' => o.push_str("#gt;"),
            '`' => o.push_str("#96;"),
            c if c.is_control() => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// An id made of letters, digits and `_` only.
pub(crate) fn id(s: &str) -> String {
    let body: String = s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("n{body}")
}

/// An edge label: letters, digits and `_` (relationship types are written so already).
pub(crate) fn edge_label(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// One edge line; `dashed` for an inferred edge.
pub(crate) fn edge_line(from: &str, to: &str, label: &str, dashed: bool) -> String {
    let arrow = if dashed { "-.->" } else { "-->" };
    format!("  {from} {arrow}|{}| {to}", edge_label(label))
}

pub(crate) struct Mermaid<W> {
    out: W,
    max_nodes: usize,
    kept: HashSet<i64>,
    edges: usize,
    cut_nodes: u64,
    cut_edges: u64,
}

impl<W: Write> Mermaid<W> {
    pub fn new(out: W, max_nodes: usize) -> Self {
        Mermaid { out, max_nodes: max_nodes.max(1), kept: HashSet::new(), edges: 0, cut_nodes: 0, cut_edges: 0 }
    }
}

impl<W: Write> Sink for Mermaid<W> {
    fn begin(&mut self, _: &super::Schema) -> std::io::Result<()> {
        writeln!(self.out, "flowchart LR")
    }

    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        if self.kept.len() >= self.max_nodes {
            self.cut_nodes += 1;
            return Ok(());
        }
        self.kept.insert(n.id);
        writeln!(self.out, "  n{}[\"{} {}\"]", n.id, label(&n.labels.join(":")), label(&display_name(n)))
    }

    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        if !self.kept.contains(&e.src) || !self.kept.contains(&e.dst) || self.edges >= 2 * self.max_nodes {
            self.cut_edges += 1;
            return Ok(());
        }
        self.edges += 1;
        let dashed = e.props.get("resolution").and_then(|v| v.as_str()) == Some("inferred");
        writeln!(self.out, "{}", edge_line(&format!("n{}", e.src), &format!("n{}", e.dst), &e.edge_type, dashed))
    }

    fn finish(&mut self, summary: &mut ExportSummary) -> std::io::Result<()> {
        if self.cut_nodes + self.cut_edges > 0 {
            let note = format!(
                "cut to {} nodes and {} edges: {} nodes and {} edges not shown",
                self.kept.len(),
                self.edges,
                self.cut_nodes,
                self.cut_edges
            );
            writeln!(self.out, "  %% {note}; narrow with --scope, --depth or --labels")?;
            writeln!(self.out, "  cut[\"{}\"]", label(&format!("… {note}")))?;
            summary.notes.push(format!("the Mermaid diagram was {note}; narrow it with --scope, --depth or --labels"));
        }
        Ok(())
    }
}
