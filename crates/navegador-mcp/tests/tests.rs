//! The public contract of the server: the published tool list (names, descriptions,
//! input and output schemas, annotations) against `tests/mcp/tools.golden.json`, the
//! file the Python client tests compare `tools/list` with too. `UPDATE_GOLDEN=1` rewrites.

use std::path::Path;

use navegador_mcp::{create_mcp_server, ServerOptions};

#[test]
fn tools_list_matches_golden() {
    let dir = tempfile::tempdir().unwrap();
    let server = create_mcp_server(ServerOptions::new(dir.path(), "graph.db"));
    let actual = serde_json::json!({ "tools": serde_json::to_value(server.tools()).unwrap() });
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp/tools.golden.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
    }
    let expected: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&golden).unwrap()).unwrap();
    assert_eq!(expected, actual, "tools/list changed; rerun with UPDATE_GOLDEN=1 and review the diff of {}", golden.display());
}

/// Every tool is read-only but `ingest` and, on a writable server, `query` (it runs
/// CREATE/SET/DELETE there); on a read-only server `query` is read-only too.
#[test]
fn every_tool_but_ingest_and_writable_query_is_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let server = create_mcp_server(ServerOptions::new(dir.path(), "graph.db"));
    let tools = server.tools();
    assert_eq!(tools.len(), 19, "the spec's 11 tools, `changes` and the seven code.* tools");
    assert_eq!(tools.iter().filter(|t| t.name.starts_with("code.")).count(), 7, "the six of the spec and code.detect_changes");
    for t in tools {
        let a = t.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(t.name != "ingest" && t.name != "query"), "{}", t.name);
        assert!(t.output_schema.is_some(), "{} has no output schema", t.name);
    }
    let mut opts = ServerOptions::new(dir.path(), "graph.db");
    opts.read_only = true;
    let server = create_mcp_server(opts);
    for t in server.tools() {
        let a = t.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(t.name != "ingest"), "{} (read-only server)", t.name);
    }
}
