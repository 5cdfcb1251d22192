//! The published tool definitions: the original server's own `tools/list` answer
//! (`contract/original-tools.json`, a copy of `navigation-agent-mcp.tools.json`) with the
//! additions of ours written in as patches, so that every field the original had stays
//! (one change of form aside, below) and a client built against it keeps working:
//! - the `language` and `framework` vocabularies cover every language and framework we
//!   support, and are listed once (see the last paragraph);
//! - `trace_callers` records and `trace_symbol` steps carry `resolution`, and both list the
//!   `unresolved` call sites; `trace_symbol` reports its `steps`;
//! - endpoints carry their HTTP `method` (a gRPC one its rpc), and the endpoint kinds gain
//!   `grpc`;
//! - the error-code enum gains `INDEX_INCOMPLETE`;
//! - a seventh tool, `code.detect_changes` (ours), with the original's envelope;
//! - the envelope's `errors` items and `meta` are outlined (the fields a client branches
//!   on: an error's `code` and `message`, `meta.truncated`); docs/code-tools.md spells out
//!   the rest, which every answer still carries.
//!
//! The `language` and `framework` vocabularies (30-odd names each, growing with the packs)
//! are published once, on `code.find_symbol`'s arguments: the other tools take a string
//! (the server's error for an unknown value lists the accepted ones), and the output schemas
//! say `string` (a client reads the value, it need not be told the list; `tools/list` is
//! paid by every session).

use serde_json::{json, Map, Value};

use crate::workspace::{framework_names, language_names};

const ORIGINAL: &str = include_str!("../contract/original-tools.json");

/// One tool as published.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    /// The dotted name (`code.find_symbol`).
    pub name: String,
    pub title: String,
    pub description: String,
    pub input_schema: Map<String, Value>,
    pub output_schema: Map<String, Value>,
}

/// How tool names are spelled: the spec's dotted names, or with underscores for clients
/// that reject dots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameStyle {
    #[default]
    Dotted,
    Underscore,
}

impl NameStyle {
    pub fn apply(self, dotted: &str) -> String {
        match self {
            NameStyle::Dotted => dotted.to_string(),
            NameStyle::Underscore => dotted.replace('.', "_"),
        }
    }
}

/// The original's six tools in its order, then ours.
pub fn tool_specs() -> Vec<ToolSpec> {
    let original: Value = serde_json::from_str(ORIGINAL).expect("the bundled tool list is JSON");
    let tools = original.get("tools").unwrap_or(&original).as_array().expect("a tool array").clone();
    let envelope = tools.iter().find(|t| t["name"] == "code.find_symbol").map(|t| t["outputSchema"].clone()).unwrap_or_default();
    let mut specs: Vec<ToolSpec> = tools
        .into_iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap_or_default().to_string();
            let mut input = t["inputSchema"].clone();
            let mut output = t["outputSchema"].clone();
            widen_vocabulary(&mut input);
            if name != VOCABULARY_HOME {
                point_to_vocabulary(&mut input);
            }
            widen_vocabulary(&mut output);
            open_vocabulary(&mut output);
            add_our_fields(&name, &mut input, &mut output);
            outline_envelope(&mut output);
            describe_inputs(&mut input);
            ToolSpec {
                title: t["title"].as_str().unwrap_or_default().to_string(),
                description: describe(&name, t["description"].as_str().unwrap_or_default()),
                input_schema: input.as_object().cloned().unwrap_or_default(),
                output_schema: output.as_object().cloned().unwrap_or_default(),
                name,
            }
        })
        .collect();
    specs.push(detect_changes(envelope));
    specs
}

/// `code.detect_changes`: the `changes` tool's arguments, and its report (docs/changes.md,
/// camelCased) in the envelope of the original's tools. The data are outlined, not spelt
/// out field by field: `tools/list` is paid by every session.
fn detect_changes(mut envelope: Value) -> ToolSpec {
    let s = |d: &str| json!({"type": "string", "description": d});
    let input = json!({"type": "object", "properties": {
        "range": s("main...HEAD, A..B or a commit; default: the working tree vs HEAD."),
        "base": s("Instead of HEAD."),
        "staged": {"type": "boolean", "default": false},
        "diff": s("A unified diff, instead of git."),
        "depth": {"type": "integer", "default": 3, "minimum": 1, "maximum": 8},
        "limit": {"type": "integer", "default": 20, "minimum": 1, "maximum": 200},
        "offset": {"type": "integer", "default": 0, "minimum": 0, "maximum": 1_000_000}}});
    let list = json!({"type": "array"});
    let data = json!({"type": "object", "description": "The `changes` report, camelCase.",
        "required": ["risk", "files", "symbols", "symbolsTotal", "tests", "testsTotal"],
        "properties": {"risk": {"enum": ["low", "medium", "high", "critical"]}, "files": list, "symbols": list,
                       "symbolsTotal": count(), "tests": list, "testsTotal": count(), "nextOffset": count()}});
    widen_vocabulary(&mut envelope);
    outline_envelope(&mut envelope);
    envelope["properties"]["data"] = data;
    envelope["title"] = json!("ResponseEnvelope[DetectChangesData]");
    if let Some(defs) = envelope.get_mut("$defs").and_then(Value::as_object_mut) {
        defs.retain(|k, _| ["ResponseStatus", "ErrorItem", "ResponseMeta"].contains(&k.as_str()));
    }
    ToolSpec {
        name: "code.detect_changes".into(),
        title: "Detect Changes".into(),
        description: "What a diff touches: changed symbols, dependents, tests, owners, rules, risk.".into(),
        input_schema: input.as_object().cloned().unwrap_or_default(),
        output_schema: envelope.as_object().cloned().unwrap_or_default(),
    }
}

/// The envelope's `errors` items and `meta` as the fields a client branches on (see the
/// module docs): every tool's `tools/list` entry repeated them whole, ~600 bytes each.
fn outline_envelope(output: &mut Value) {
    if let Some(defs) = output.get_mut("$defs").and_then(Value::as_object_mut) {
        if let Some(e) = defs.get_mut("ErrorItem") {
            *e = json!({"type": "object", "required": ["code", "message"],
                        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}});
        }
        if let Some(m) = defs.get_mut("ResponseMeta") {
            *m = json!({"type": "object", "properties": {"truncated": {"type": "boolean"}}});
        }
    }
}

/// Our descriptions: what the tool answers and what it lists by default, in a line or two
/// (every session pays for them in tokens).
fn describe(name: &str, original: &str) -> String {
    match name {
        "code.inspect_tree" => "The workspace file tree (no contents), filtered by depth, extension, name.",
        "code.list_endpoints" => "List backend endpoints and frontend routes.",
        "code.find_symbol" => "Symbol definitions by name (exact or fuzzy), with source on request.",
        "code.search_text" => "Search text or a regex in workspace files; limit counts files.",
        "code.trace_symbol" => "The calls a symbol makes, transitively, and the files they reach (ambiguous counted).",
        "code.trace_callers" => "Callers of a symbol defined in a file (ambiguous and unresolved counted).",
        _ => original,
    }
    .to_string()
}

/// Argument descriptions, said once and short: none where the name, type, enum and
/// default say it all (`language`, `limit`, `regex`, ...).
fn describe_inputs(input: &mut Value) {
    const SAID: &[(&str, Option<&str>)] = &[
        ("path", None),
        ("symbol", None),
        ("query", Some("Text, or a regex with regex: true.")),
        ("language", None),
        ("framework", None),
        ("kind", None),
        ("match", Some("fuzzy: case-insensitive substring.")),
        ("limit", None),
        ("offset", None),
        ("regex", None),
        ("context", Some("Lines before and after each match.")),
        ("include", Some("Glob (rg -g syntax); narrows the language filter.")),
        ("max_depth", None),
        ("extensions", Some("Files with these extensions only (directories stay).")),
        ("file_pattern", Some("Glob on file names.")),
        ("include_hidden", Some("Hidden entries too.")),
        ("include_stats", Some("Size, mtime, isSymlink.")),
        ("recursive", Some("Also indirect callers, up to max_depth (default 3).")),
        ("exclude_tests", None),
    ];
    let Some(props) = input.get_mut("properties").and_then(Value::as_object_mut) else { return };
    for (field, said) in SAID {
        if let Some(p) = props.get_mut(*field).and_then(Value::as_object_mut) {
            match said {
                Some(d) => {
                    p.insert("description".into(), json!(d));
                }
                None => {
                    p.remove("description");
                }
            }
        }
    }
}

/// The tool whose arguments list the `language` and `framework` values.
const VOCABULARY_HOME: &str = "code.find_symbol";

/// `language` and `framework` arguments as plain strings (their values are listed on
/// [`VOCABULARY_HOME`], and an unknown one is refused with the list).
fn point_to_vocabulary(input: &mut Value) {
    let Some(props) = input.get_mut("properties").and_then(Value::as_object_mut) else { return };
    for field in ["language", "framework"] {
        if let Some(p) = props.get_mut(field) {
            *p = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null});
        }
    }
}

/// Output `language` and `framework` values as strings (see the module docs).
fn open_vocabulary(output: &mut Value) {
    if let Some(defs) = output.get_mut("$defs").and_then(Value::as_object_mut) {
        for def in ["PublicLanguage", "PublicFramework"] {
            if let Some(d) = defs.get_mut(def) {
                *d = json!({"type": "string"});
            }
        }
    }
}

/// Extends every language/framework enum (and the descriptions that list them).
fn widen_vocabulary(schema: &mut Value) {
    let langs = language_names();
    let frameworks = framework_names();
    if let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) {
        if let Some(l) = defs.get_mut("PublicLanguage") {
            l["enum"] = json!(langs);
        }
        if let Some(f) = defs.get_mut("PublicFramework") {
            f["enum"] = json!(frameworks);
        }
        if let Some(c) = defs.get_mut("ErrorCode").and_then(|c| c.get_mut("enum")).and_then(Value::as_array_mut) {
            c.push(json!("INDEX_INCOMPLETE"));
        }
    }
    // The enums list the values; the descriptions need not (they did: "hint: a, b, c").
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for field in ["language", "framework"] {
            if let Some(d) = props.get_mut(field).and_then(|p| p.get_mut("description")) {
                if let Some(text) = d.as_str() {
                    let head = text.split(':').next().unwrap_or(text).trim_end_matches('.');
                    *d = json!(format!("{head}."));
                }
            }
        }
    }
}

fn nullable(inner: Value) -> Value {
    json!({"anyOf": [inner, {"type": "null"}], "default": null})
}

fn resolution_schema() -> Value {
    json!({"enum": ["exact", "inferred", "ambiguous"], "type": "string",
           "description": "How sure the call graph is of this edge."})
}

/// Why an `ambiguous` edge's site has several candidates, and how many.
fn ambiguity_schema() -> Value {
    json!({"type": "object", "required": ["reason", "candidates"],
           "description": "Only on ambiguous edges: why the site has several candidates (overloads the arguments do not separate, several implementations in the hierarchy, a receiver of unknown type, a bare name defined in several places) and how many; at most 8 are linked (the nearest), omitted counts the rest.",
           "properties": {"reason": {"enum": ["overloads", "hierarchy", "receiver_unknown", "global_name"], "type": "string"},
                          "candidates": count(), "omitted": count()}})
}

fn unresolved_schema() -> Value {
    json!({"type": "array", "description": "Call sites the index could not resolve to a definition (so an empty answer is not proof of no callers).",
           "items": {"type": "object", "required": ["path", "line", "name"],
                     "properties": {"path": {"type": "string"}, "line": {"type": "integer", "minimum": 1},
                                    "column": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                                    "name": {"type": "string"}, "receiver": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}})
}

fn add_prop(schema: &mut Value, def: &str, field: &str, prop: Value) {
    if let Some(props) = schema.pointer_mut(&format!("/$defs/{def}/properties")).and_then(Value::as_object_mut) {
        props.insert(field.to_string(), prop);
    }
}

fn add_input(schema: &mut Value, field: &str, prop: Value) {
    if let Some(props) = schema.pointer_mut("/properties").and_then(Value::as_object_mut) {
        props.insert(field.to_string(), prop);
    }
}

fn count() -> Value {
    json!({"type": "integer", "minimum": 0})
}

fn by_resolution() -> Value {
    json!({"type": "object", "description": "Edges by resolution, listed or not.",
           "required": ["exact", "inferred", "ambiguous"],
           "properties": {"exact": count(), "inferred": count(), "ambiguous": count()}})
}

/// The arguments both traces take: what is listed (served truth) and one page of it.
fn trace_inputs(input: &mut Value) {
    add_input(input, "include_ambiguous", json!({"type": "boolean", "default": false,
        "description": "List ambiguous edges too (always counted)."}));
    // `min_resolution` is accepted but not published (`tools/list` is paid by every
    // session): `include_ambiguous` is the published way to the same lists, as on the
    // graph tools.
    add_input(input, "include_dispatch", json!({"type": "boolean", "default": false,
        "description": "List possible dispatch too (always counted in dispatchCount)."}));
    add_input(input, "exclude_tests", json!({"type": "boolean", "default": false}));
    add_input(input, "limit", json!({"type": "integer", "default": 25, "minimum": 1, "maximum": 500, "description": "Page size of each list."}));
    add_input(input, "offset", json!({"type": "integer", "default": 0, "minimum": 0, "maximum": 1_000_000}));
}

fn add_our_fields(name: &str, input: &mut Value, output: &mut Value) {
    match name {
        "code.trace_callers" => {
            trace_inputs(input);
            add_prop(output, "TraceCallerRecord", "resolution", resolution_schema());
            add_prop(output, "TraceCallerRecord", "ambiguity", ambiguity_schema());
            add_prop(output, "TraceCallersClassificationRecord", "resolution", resolution_schema());
            add_prop(output, "TraceCallersRecursiveVia", "resolution", nullable(resolution_schema()));
            add_prop(output, "TraceCallersData", "totalMatched", count());
            add_prop(output, "TraceCallersData", "byResolution", by_resolution());
            add_prop(output, "TraceCallersData", "unresolved", unresolved_schema());
            add_prop(output, "TraceCallersData", "unresolvedCount", count());
            add_prop(output, "TraceCallersData", "externalCount", count());
            add_prop(output, "TraceCallersData", "dispatchCount", count());
        }
        "code.trace_symbol" => {
            trace_inputs(input);
            let step = json!({"type": "object", "required": ["fromPath", "fromSymbol", "toPath", "toSymbol", "line"],
                "properties": {"fromPath": {"type": "string"}, "fromSymbol": {"type": "string"},
                               "toPath": {"type": "string"}, "toSymbol": {"type": "string"},
                               "line": {"type": "integer", "minimum": 1}, "resolution": resolution_schema(),
                               "depth": {"type": "integer", "minimum": 1},
                               "via": {"type": "string", "description": "Endpoint of a step across services"},
                               "ambiguity": ambiguity_schema()}});
            add_prop(output, "TraceSymbolData", "totalFileCount", count());
            add_prop(output, "TraceSymbolData", "steps", json!({"type": "array", "items": step}));
            add_prop(output, "TraceSymbolData", "totalStepCount", count());
            add_prop(output, "TraceSymbolData", "byResolution", by_resolution());
            add_prop(output, "TraceSymbolData", "unresolved", unresolved_schema());
            add_prop(output, "TraceSymbolData", "unresolvedCount", count());
            add_prop(output, "TraceSymbolData", "externalCount", count());
            add_prop(output, "TraceSymbolData", "dispatchCount", count());
        }
        "code.find_symbol" => {
            add_input(input, "include_source", json!({"type": "boolean", "default": false,
                "description": "Add source (<= 200 lines)."}));
            let source = json!({"type": "object", "required": ["startLine", "endLine", "text", "truncated"],
                "properties": {"startLine": {"type": "integer", "minimum": 1}, "endLine": {"type": "integer", "minimum": 1},
                               "text": {"type": ["string", "null"]}, "truncated": {"type": "boolean"},
                               "note": {"type": ["string", "null"]}}});
            add_prop(output, "PublicSymbolDefinition", "endLine", json!({"type": "integer", "minimum": 1}));
            add_prop(output, "PublicSymbolDefinition", "source", nullable(source));
        }
        "code.list_endpoints" => {
            add_prop(output, "PublicEndpointItem", "method", nullable(json!({"type": "string"})));
            add_prop(output, "PublicEndpointItem", "consumers", json!({"type": "object", "description": "HTTP client calls linked to it: {count, items: first 3 {file, line, symbol}}."}));
            add_prop(output, "PublicEndpointItem", "test", json!({"type": "boolean", "description": "Registered by a test file."}));
            add_prop(output, "ListEndpointsData", "testCount", json!({"type": "integer", "minimum": 0, "description": "Routes of test files not listed (include_tests)."}));
            add_input(input, "include_tests", json!({"type": "boolean", "default": false}));
            // gRPC methods of `.proto` services (`/package.Service/Method`)
            for schema in [&mut *input, &mut *output] {
                if let Some(kinds) = schema.pointer_mut("/$defs/PublicEndpointKind/enum").and_then(Value::as_array_mut) {
                    let at = kinds.iter().position(|k| k == "graphql").map_or(kinds.len(), |i| i + 1);
                    kinds.insert(at, json!("grpc"));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every property of the original schemas is still there, unchanged but for the widened
    /// enums and descriptions: a client of the original sees a superset.
    #[test]
    fn ours_extend_the_original() {
        let original: Value = serde_json::from_str(ORIGINAL).unwrap();
        let ours = tool_specs();
        assert_eq!(ours.len(), 7);
        assert_eq!(ours[6].name, "code.detect_changes");
        let tools = original.get("tools").unwrap_or(&original).as_array().unwrap();
        for (o, t) in tools.iter().zip(&ours) {
            assert_eq!(o["name"], json!(t.name));
            for (which, root) in [("inputSchema", &t.input_schema), ("outputSchema", &t.output_schema)] {
                let theirs = o[which]["properties"].as_object().unwrap();
                let mine = root["properties"].as_object().unwrap();
                for (k, v) in theirs {
                    let m = &mine[k];
                    assert_eq!(v.get("type"), m.get("type"), "{} {which} {k}", t.name);
                    assert_eq!(v.get("default"), m.get("default"), "{} {which} {k}", t.name);
                }
                assert_eq!(o[which].get("required"), root.get("required"), "{} {which}", t.name);
            }
            let langs = t.input_schema.get("$defs").and_then(|d| d.get("PublicLanguage"));
            if let Some(l) = langs {
                assert!(l["enum"].as_array().unwrap().contains(&json!("python")));
            }
        }
    }

    #[test]
    fn underscore_names() {
        assert_eq!(NameStyle::Underscore.apply("code.find_symbol"), "code_find_symbol");
        assert_eq!(NameStyle::Dotted.apply("code.find_symbol"), "code.find_symbol");
    }
}
