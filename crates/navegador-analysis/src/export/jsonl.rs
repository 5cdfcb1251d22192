//! JSON Lines: one object per line, nodes first, then edges (schema in `docs/export.md`):
//! `{"type":"node","id":1,"labels":["Function"],"properties":{...}}` and
//! `{"type":"edge","id":7,"label":"CALLS","source":1,"target":2,"properties":{...}}`.

use std::io::Write;

use navegador_store::{ExportEdge, ExportNode};
use serde_json::json;

use super::{ExportSummary, Sink};

pub(crate) struct Jsonl<W> {
    out: W,
}

impl<W: Write> Jsonl<W> {
    pub fn new(out: W) -> Self {
        Jsonl { out }
    }
}

impl<W: Write> Sink for Jsonl<W> {
    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        let line = json!({"type": "node", "id": n.id, "labels": n.labels, "properties": n.props});
        writeln!(self.out, "{line}")
    }

    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        let line = json!({"type": "edge", "id": e.id, "label": e.edge_type, "source": e.src, "target": e.dst, "properties": e.props});
        writeln!(self.out, "{line}")
    }

    fn finish(&mut self, _: &mut ExportSummary) -> std::io::Result<()> {
        Ok(())
    }
}
