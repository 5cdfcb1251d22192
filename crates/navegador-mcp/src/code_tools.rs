//! The `code.*` navigation tools as MCP tools: their published definitions come from
//! `navegador-nav` (the original server's schemas, extended), and each call is answered
//! there on a blocking thread, after the live index (when the server keeps one) has caught
//! up with the files. Every answer is the contract's envelope, as structured content and as
//! the same JSON in a text block; `status: "error"` envelopes are ordinary results (the
//! original server's behaviour), so clients read `status` and `errors`.

use std::sync::Arc;

use navegador_nav::{call, failure, tool_specs, uses_graph, Context, ErrorItem, NameStyle, Workspace};
use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{Map, Value};

use crate::tools::{Call, Handler, Reply, ToolDef, ToolError};
use crate::NavegadorServer;

/// The `code.*` tools, named in `style`.
pub fn code_tools(style: NameStyle) -> Vec<ToolDef> {
    tool_specs()
        .into_iter()
        .map(|spec| {
            let annotations = ToolAnnotations::with_title(spec.title.clone())
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(false);
            let mut tool = Tool::new(style.apply(&spec.name), spec.description.clone(), Arc::new(spec.input_schema.clone()))
                .with_title(spec.title.clone())
                .with_raw_output_schema(Arc::new(spec.output_schema.clone()))
                .with_annotations(annotations);
            // Published compacted; the output schemas stay equivalent to the contract's.
            crate::schema::compact_tool(&mut tool);
            let dotted: Arc<str> = spec.name.into();
            let handler: Handler = Arc::new(move |c: Call| {
                let dotted = dotted.clone();
                Box::pin(async move {
                    let server = c.server.clone();
                    let args = c.args;
                    let name = dotted.clone();
                    match tokio::task::spawn_blocking(move || answer(&server, &name, &args)).await {
                        Ok(envelope) => Reply { structured: envelope, text: None }.into(),
                        Err(e) => ToolError::msg(format!("internal error in `{dotted}`: {e}; the server keeps serving, retry or report it")).into(),
                    }
                })
            });
            ToolDef { tool, handler }
        })
        .collect()
}

/// One answer, from a blocking thread.
pub fn answer(server: &NavegadorServer, tool: &str, args: &Map<String, Value>) -> Value {
    let opts = server.options();
    let workspace = Workspace::new(&opts.workspace_root);
    if !uses_graph(tool) {
        let cx = Context { workspace: &workspace, store: None, index_complete: true };
        return call(tool, args, &cx).to_value();
    }
    let freshness = server.live_index().map(|l| l.ensure_fresh());
    let complete = freshness.is_none_or(|f| f.complete);
    if !navegador_store::graph_may_exist(&opts.db_path) {
        // No graph yet: the first index has not committed (or nobody indexed).
        let cx = Context { workspace: &workspace, store: None, index_complete: false };
        return call(tool, args, &cx).to_value();
    }
    let result = server.with_reader(|store| {
        let cx = Context { workspace: &workspace, store: Some(store), index_complete: complete };
        Ok(call(tool, args, &cx).to_value())
    });
    match result {
        Ok(v) => v,
        // The first index is creating the file: answer as if there were no graph yet.
        Err(_) if !complete => {
            let cx = Context { workspace: &workspace, store: None, index_complete: false };
            call(tool, args, &cx).to_value()
        }
        Err(e) => {
            let message = e.message.replace(&*opts.workspace_root.to_string_lossy(), "<workspace>");
            let item = ErrorItem::new(navegador_nav::code::BACKEND_EXECUTION_FAILED, format!("The index cannot be read: {message}"))
                .suggestion("Re-index the workspace (`navegador ingest --clear`), then retry.");
            failure(tool, args, "Reading the index failed.", item).to_value()
        }
    }
}
