//! What `tools/list` publishes, made small: every session loads it into the model's context,
//! so each byte is paid for once per session. The rewrites keep the set of valid documents
//! exactly as it was (a client validates the same answers), they only drop what does not
//! validate and say the same thing shorter:
//! - annotations: `title`, `$schema`, `format` and `examples` everywhere; on output
//!   schemas also `description` and `default` (no model needs them to read an answer);
//! - `additionalProperties: true` (the default);
//! - a definition used once is written where it is used; unused ones are dropped; the
//!   others are named by the shortest unique end of their names;
//! - `anyOf [X, {type: null}]` is `X` with `null` added to its `type` (or `enum`) when
//!   X's other keywords only constrain values of its own type;
//! - `anyOf [{type: T, ...}, {type: T}]` is `{type: T}` (the first is a subset);
//! - a subschema written in several places (within one schema) is written once, as a
//!   definition the places name by `$ref`, when that is shorter.
//!
//! [`outline`] goes further for answers whose shape is documented elsewhere (navegador's
//! 11 tools, `docs/mcp.md`): their type, an object. Still true of every answer, no longer
//! complete; [`lean_flags`] leaves off their flags' `default: false`.

use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::{Map, Value};

/// Which side of a tool a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Arguments: descriptions and defaults are kept (they tell the model what to send).
    Input,
    Output,
}

/// Keywords that only constrain instances of one JSON type (a `null` passes them).
const TYPE_SPECIFIC: &[&str] = &[
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
    "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
    "properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties",
    "propertyNames", "dependentRequired", "dependentSchemas",
];
/// Keywords that hold one subschema.
const ONE_SCHEMA: &[&str] =
    &["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"];
/// Keywords that hold a map of subschemas.
const SCHEMA_MAP: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/// Keywords that hold a list of subschemas.
const SCHEMA_LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Rewrites a published schema in place (see the module docs).
pub fn compact(schema: &mut Map<String, Value>, side: Side) {
    inline_single_use(schema);
    shorten_definition_names(schema);
    let mut v = Value::Object(std::mem::take(schema));
    walk(&mut v, side);
    if let Value::Object(m) = v {
        *schema = m;
    }
    share_repeated(schema);
}

/// Writes each subschema that stands in several places once, in `$defs`, while that makes
/// the schema shorter (the repeat that saves most first). Each tool's schema stays
/// standalone: definitions are shared within it, never across tools.
fn share_repeated(schema: &mut Map<String, Value>) {
    loop {
        let mut seen: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
        for_each_subschema(&Value::Object(schema.clone()), &mut |sub| {
            *seen.entry(sub.to_string()).or_default() += 1;
        });
        let defs_cost = if schema.contains_key("$defs") { 0 } else { r#""$defs":{},"#.len() };
        let taken = |n: &str| schema.get("$defs").is_some_and(|d| d.get(n).is_some());
        let best = seen
            .iter()
            .filter(|(_, n)| **n > 1)
            .filter_map(|(text, n)| {
                let body: Value = serde_json::from_str(text).ok()?;
                let name = definition_name(&body, taken);
                let by_ref = format!(r#"{{"$ref":"{}"}}"#, pointer(&name)).len();
                let saved = n * text.len().saturating_sub(by_ref);
                let cost = name.len() + 4 + text.len() + defs_cost;
                (saved > cost).then(|| (saved - cost, name, body))
            })
            .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)));
        let Some((_, name, body)) = best else { return };
        let mut root = Value::Object(std::mem::take(schema));
        replace_subschema(&mut root, &body, &serde_json::json!({"$ref": pointer(&name)}));
        let Value::Object(mut m) = root else { return };
        if let Value::Object(defs) = m.entry("$defs").or_insert_with(|| Value::Object(Map::new())) {
            defs.insert(name, body);
        }
        *schema = m;
    }
}

/// A short name for a shared subschema: its JSON type (`Int`, `StrNull`, `List`, `Enum`),
/// numbered when taken.
fn definition_name(body: &Value, taken: impl Fn(&str) -> bool) -> String {
    let short = |t: &str| match t {
        "integer" => "Int",
        "number" => "Num",
        "string" => "Str",
        "boolean" => "Bool",
        "array" => "List",
        "object" => "Obj",
        "null" => "Null",
        _ => "Schema",
    };
    let base = match body.get("type") {
        _ if body.get("enum").is_some() => "Enum".to_string(),
        Some(Value::String(t)) => short(t).to_string(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(short).collect(),
        _ => "Schema".to_string(),
    };
    (1..).map(|i| if i == 1 { base.clone() } else { format!("{base}{i}") }).find(|n| !taken(n)).expect("some name is free")
}

/// Calls `f` on every subschema below the root (a definition's own body excepted: it is
/// already written once), in document order.
fn for_each_subschema(v: &Value, f: &mut dyn FnMut(&Value)) {
    let Value::Object(m) = v else { return };
    for (k, s) in m {
        let is_def = k == "$defs" || k == "definitions";
        let children: Vec<&Value> = match s {
            Value::Object(map) if SCHEMA_MAP.contains(&k.as_str()) => map.values().collect(),
            Value::Array(list) if SCHEMA_LIST.contains(&k.as_str()) => list.iter().collect(),
            x if ONE_SCHEMA.contains(&k.as_str()) => vec![x],
            _ => continue,
        };
        for c in children {
            if c.is_object() && !is_def {
                f(c);
            }
            for_each_subschema(c, f);
        }
    }
}

/// Replaces every subschema equal to `body` (outside `$defs` bodies themselves) by `by`.
fn replace_subschema(v: &mut Value, body: &Value, by: &Value) {
    let Value::Object(m) = v else { return };
    for (k, s) in m.iter_mut() {
        let (is_map, is_def) = (SCHEMA_MAP.contains(&k.as_str()), k == "$defs" || k == "definitions");
        let children: Vec<&mut Value> = match s {
            Value::Object(map) if is_map => map.values_mut().collect(),
            Value::Array(list) if SCHEMA_LIST.contains(&k.as_str()) => list.iter_mut().collect(),
            x if ONE_SCHEMA.contains(&k.as_str()) => vec![x],
            _ => continue,
        };
        for c in children {
            if !is_def && c == body {
                *c = by.clone();
            } else {
                replace_subschema(c, body, by);
            }
        }
    }
}

/// Compacts both schemas of a tool, and its annotations: the title once (the tool's), and
/// on a read-only tool no `destructiveHint` / `idempotentHint` (the spec gives them meaning
/// only when `readOnlyHint` is false).
pub fn compact_tool(tool: &mut Tool) {
    if let Some(a) = tool.annotations.as_mut() {
        if a.title.is_some() && a.title == tool.title {
            a.title = None;
        }
        if a.read_only_hint == Some(true) {
            a.destructive_hint = None;
            a.idempotent_hint = None;
        }
    }
    let mut input = (*tool.input_schema).clone();
    compact(&mut input, Side::Input);
    tool.input_schema = Arc::new(input);
    if let Some(out) = tool.output_schema.as_ref() {
        let mut out = (**out).clone();
        compact(&mut out, Side::Output);
        tool.output_schema = Some(Arc::new(out));
    }
}

/// The top-level shape of a schema: its JSON type (an object for every tool here). Every
/// document the full schema accepts, this one accepts.
pub fn outline(schema: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), schema.get("type").cloned().unwrap_or_else(|| "object".into()));
    out
}

/// Drops `default: false` from the boolean arguments of an input schema: an absent flag
/// is off (said once, in the tools' docs), so the default only restates it.
pub fn lean_flags(schema: &mut Map<String, Value>) {
    for p in schema.get_mut("properties").and_then(Value::as_object_mut).into_iter().flatten().map(|(_, p)| p) {
        if let Some(m) = p.as_object_mut() {
            if m.get("type").and_then(Value::as_str) == Some("boolean") && m.get("default") == Some(&Value::Bool(false)) {
                m.remove("default");
            }
        }
    }
}

fn walk(v: &mut Value, side: Side) {
    let Value::Object(m) = v else { return };
    let annotations: &[&str] =
        if side == Side::Output { &["title", "$schema", "format", "examples", "description", "default"] } else { &["title", "$schema", "format", "examples"] };
    for a in annotations {
        m.remove(*a);
    }
    if m.get("additionalProperties") == Some(&Value::Bool(true)) {
        m.remove("additionalProperties");
    }
    // An absent optional argument is null anyway.
    if m.get("default") == Some(&Value::Null) {
        m.remove("default");
    }
    for k in ONE_SCHEMA {
        if let Some(s) = m.get_mut(*k) {
            walk(s, side);
        }
    }
    for k in SCHEMA_MAP {
        if let Some(Value::Object(map)) = m.get_mut(*k) {
            for s in map.values_mut() {
                walk(s, side);
            }
        }
    }
    for k in SCHEMA_LIST {
        if let Some(Value::Array(list)) = m.get_mut(*k) {
            for s in list.iter_mut() {
                walk(s, side);
            }
        }
    }
    fold_any_of(m);
    // `{enum: [strings], type: string}`: the enum says the type.
    if let (Some(Value::String(t)), Some(Value::Array(values))) = (m.get("type"), m.get("enum")) {
        if values.iter().all(|v| json_type(v) == t) {
            m.remove("type");
        }
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The two `anyOf` rewrites of the module docs, when they apply.
fn fold_any_of(m: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = m.get("anyOf") else { return };
    let mut branches = branches.clone();
    // A bare `{type: T}` absorbs every other branch of type T.
    let bare: Vec<Value> = branches
        .iter()
        .filter(|b| b.as_object().is_some_and(|o| o.len() == 1 && o.get("type").is_some_and(Value::is_string)))
        .cloned()
        .collect();
    for b in &bare {
        let t = b["type"].as_str().unwrap_or_default().to_string();
        let mut kept_one = false;
        branches.retain(|x| {
            if only_type(x) != Some(t.as_str()) {
                return true;
            }
            if x == b && !kept_one {
                kept_one = true;
                return true;
            }
            false
        });
    }
    let null = serde_json::json!({"type": "null"});
    let replacement = match branches.as_slice() {
        [only] => only.as_object().cloned(),
        [a, b] if *a == null || *b == null => {
            let x = if *a == null { b } else { a };
            nullable(x.as_object())
        }
        _ => None,
    };
    match replacement {
        Some(r) if r.keys().all(|k| !m.contains_key(k) || k == "anyOf") => {
            m.remove("anyOf");
            m.extend(r);
        }
        _ => {
            m.insert("anyOf".into(), Value::Array(branches));
        }
    }
}

/// The one JSON type every value of a subschema has, when it says so: its `type`, or the
/// type of all its `enum` values.
fn only_type(x: &Value) -> Option<&'static str> {
    match x.get("type") {
        Some(Value::String(t)) => ["null", "boolean", "integer", "number", "string", "array", "object"].into_iter().find(|k| k == t),
        Some(_) => None,
        None => {
            let values = x.get("enum")?.as_array()?;
            let t = json_type(values.first()?);
            values.iter().all(|v| json_type(v) == t).then_some(t)
        }
    }
}

/// `X` that also accepts `null`, when X can say it without `anyOf`.
fn nullable(x: Option<&Map<String, Value>>) -> Option<Map<String, Value>> {
    let x = x?;
    if let Some(Value::Array(values)) = x.get("enum") {
        // `{enum: [...], type: T}`: the enum alone says it; add null to it.
        if x.keys().any(|k| k != "enum" && k != "type") || values.contains(&Value::Null) {
            return None;
        }
        let mut out = Map::new();
        let mut values = values.clone();
        values.push(Value::Null);
        out.insert("enum".into(), Value::Array(values));
        return Some(out);
    }
    let t = x.get("type")?.as_str()?;
    if x.keys().any(|k| k != "type" && !TYPE_SPECIFIC.contains(&k.as_str())) {
        return None;
    }
    let mut out = x.clone();
    out.insert("type".into(), serde_json::json!([t, "null"]));
    Some(out)
}

/// Writes each definition referenced once where it is referenced, drops unreferenced ones.
fn inline_single_use(schema: &mut Map<String, Value>) {
    loop {
        let Some(Value::Object(defs)) = schema.get("$defs") else { return };
        let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        count_refs(&Value::Object(schema.clone()), &mut counts);
        let unused: Vec<String> = defs.keys().filter(|k| !counts.contains_key(&pointer(k))).cloned().collect();
        let single = defs.iter().find(|(k, body)| {
            let p = pointer(k);
            counts.get(&p) == Some(&1) && !body.to_string().contains(&format!("\"{p}\""))
        });
        let single = single.map(|(k, b)| (k.clone(), b.clone()));
        let defs = schema.get_mut("$defs").and_then(Value::as_object_mut).expect("checked above");
        for k in &unused {
            defs.remove(k);
        }
        let Some((name, body)) = single else {
            if defs.is_empty() {
                schema.remove("$defs");
            }
            if unused.is_empty() {
                return;
            }
            continue;
        };
        defs.remove(&name);
        let mut root = Value::Object(std::mem::take(schema));
        replace_ref(&mut root, &pointer(&name), &body);
        if let Value::Object(m) = root {
            *schema = m;
        }
    }
}

/// Each definition named by the shortest run of its last CamelCase words (two when it has
/// more) that no other definition ends with: `TraceCallersRecursiveNode` -> `RecursiveNode`.
fn shorten_definition_names(schema: &mut Map<String, Value>) {
    let Some(Value::Object(defs)) = schema.get("$defs") else { return };
    let names: Vec<String> = defs.keys().cloned().collect();
    let words = |n: &str| -> Vec<usize> { n.char_indices().filter(|(i, c)| *i > 0 && c.is_uppercase()).map(|(i, _)| i).collect() };
    let mut renames: Vec<(String, String)> = Vec::new();
    for n in &names {
        let starts = words(n);
        let min_words = if starts.len() >= 2 { 2 } else { 1 };
        let short = (min_words..=starts.len())
            .map(|k| &n[starts[starts.len() - k]..])
            .find(|cand| names.iter().filter(|o| o.ends_with(*cand)).count() == 1 && !names.iter().any(|o| o == cand && o != n));
        if let Some(short) = short.filter(|s| s.len() < n.len()) {
            renames.push((n.clone(), short.to_string()));
        }
    }
    if renames.is_empty() {
        return;
    }
    let mut text = Value::Object(std::mem::take(schema));
    rename_refs(&mut text, &renames);
    if let Value::Object(mut m) = text {
        if let Some(Value::Object(defs)) = m.get_mut("$defs") {
            for (old, new) in &renames {
                if let Some(body) = defs.remove(old) {
                    defs.insert(new.clone(), body);
                }
            }
        }
        *schema = m;
    }
}

fn rename_refs(v: &mut Value, renames: &[(String, String)]) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match (k.as_str(), &*x) {
                    ("$ref", Value::String(r)) => {
                        if let Some((_, new)) = renames.iter().find(|(old, _)| *r == pointer(old)) {
                            *x = Value::String(pointer(new));
                        }
                    }
                    _ => rename_refs(x, renames),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename_refs(x, renames)),
        _ => {}
    }
}

fn pointer(def: &str) -> String {
    format!("#/$defs/{def}")
}

fn count_refs(v: &Value, counts: &mut std::collections::HashMap<String, usize>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => *counts.entry(r.clone()).or_default() += 1,
                    _ => count_refs(x, counts),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| count_refs(x, counts)),
        _ => {}
    }
}

/// Replaces the one `{"$ref": target, ...}` by the definition (merged with its siblings when
/// they share no keyword with it; else as `allOf`, which is what `$ref` beside siblings means).
fn replace_ref(v: &mut Value, target: &str, body: &Value) -> bool {
    match v {
        Value::Object(m) => {
            if m.get("$ref").and_then(Value::as_str) == Some(target) {
                m.remove("$ref");
                let b = body.as_object().cloned().unwrap_or_default();
                if b.keys().all(|k| !m.contains_key(k)) {
                    m.extend(b);
                } else {
                    m.insert("allOf".into(), Value::Array(vec![Value::Object(b)]));
                }
                return true;
            }
            m.values_mut().any(|x| replace_ref(x, target, body))
        }
        Value::Array(a) => a.iter_mut().any(|x| replace_ref(x, target, body)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(side: Side, before: Value, after: Value) {
        let mut m = before.as_object().unwrap().clone();
        compact(&mut m, side);
        assert_eq!(Value::Object(m), after);
    }

    #[test]
    fn annotations_go_and_nullable_unions_fold() {
        check(
            Side::Output,
            json!({"title": "T", "type": "object", "additionalProperties": true, "properties": {
                "title": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": null, "description": "d"},
                "lang": {"anyOf": [{"enum": ["a", "b"], "type": "string"}, {"type": "null"}]},
                "code": {"anyOf": [{"enum": ["X", "Y"], "type": "string"}, {"type": "string"}]},
                "obj": {"anyOf": [{"$ref": "#/$defs/O"}, {"type": "null"}]},
                "again": {"$ref": "#/$defs/O"}},
                "$defs": {"O": {"type": "object", "title": "O", "format": "x", "properties": {"n": {"type": "integer", "format": "uint"}}},
                          "Unused": {"type": "string"}}}),
            json!({"type": "object", "properties": {
                "title": {"type": ["integer", "null"], "minimum": 1},
                "lang": {"enum": ["a", "b", null]},
                "code": {"type": "string"},
                "obj": {"anyOf": [{"$ref": "#/$defs/O"}, {"type": "null"}]},
                "again": {"$ref": "#/$defs/O"}},
                "$defs": {"O": {"type": "object", "properties": {"n": {"type": "integer"}}}}}),
        );
    }

    #[test]
    fn inputs_keep_descriptions_and_single_use_definitions_are_inlined() {
        check(
            Side::Input,
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
                "kind": {"$ref": "#/$defs/K", "default": "any", "description": "Kind."},
                "n": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "description": "N."}},
                "$defs": {"K": {"enum": ["any", "rest"], "type": "string", "title": "K"}}}),
            json!({"type": "object", "properties": {
                "kind": {"enum": ["any", "rest"], "default": "any", "description": "Kind."},
                "n": {"type": ["integer", "null"], "description": "N."}}}),
        );
    }

    #[test]
    fn a_union_that_cannot_fold_stays() {
        // `not` constrains null too: folding would change what validates.
        let s = json!({"type": "object", "properties": {"x": {"anyOf": [{"type": "string", "not": {"const": "a"}}, {"type": "null"}]}}});
        check(Side::Output, s.clone(), s);
        // A self-referencing definition stays a definition.
        let s = json!({"$ref": "#/$defs/T", "$defs": {"T": {"type": "object", "properties": {"c": {"items": {"$ref": "#/$defs/T"}, "type": "array"}}}}});
        check(Side::Output, s.clone(), s);
    }

    #[test]
    fn definition_names_are_shortened_where_unique() {
        check(
            Side::Output,
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/TraceCallersRecursiveNode"}, "b": {"$ref": "#/$defs/TraceCallersRecursiveNode"},
                   "c": {"$ref": "#/$defs/OtherNode"}, "d": {"$ref": "#/$defs/OtherNode"}},
                   "$defs": {"TraceCallersRecursiveNode": {"type": "string"}, "OtherNode": {"type": "integer"}}}),
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/RecursiveNode"}, "b": {"$ref": "#/$defs/RecursiveNode"},
                   "c": {"$ref": "#/$defs/OtherNode"}, "d": {"$ref": "#/$defs/OtherNode"}},
                   "$defs": {"RecursiveNode": {"type": "string"}, "OtherNode": {"type": "integer"}}}),
        );
    }

    #[test]
    fn a_repeated_subschema_is_written_once_when_shorter() {
        let count = json!({"type": "integer", "minimum": 0});
        let props: Map<String, Value> = ["a", "b", "c", "d"].iter().map(|k| (k.to_string(), count.clone())).collect();
        let mut inner = props.clone();
        inner.insert("s".into(), json!({"type": "string"}));
        let before = json!({"type": "object", "properties": {"n": {"type": "object", "properties": inner}, "m": {"type": "object", "properties": props},
                            "one": {"type": "string"}}});
        let mut m = before.as_object().unwrap().clone();
        compact(&mut m, Side::Output);
        let int = json!({"$ref": "#/$defs/Int"});
        assert_eq!(m["$defs"], json!({"Int": count}));
        assert_eq!(m["properties"]["m"]["properties"]["a"], int);
        assert_eq!(m["properties"]["n"]["properties"]["d"], int);
        // `{type: string}` twice is shorter written in place.
        assert_eq!(m["properties"]["one"], json!({"type": "string"}));
        assert!(Value::Object(m.clone()).to_string().len() < before.to_string().len());
        // Compacting again changes nothing; a name already defined is not reused.
        let again = m.clone();
        compact(&mut m, Side::Output);
        assert_eq!(m, again);
        assert_eq!(definition_name(&count, |n| n == "Int"), "Int2");
    }

    #[test]
    fn outline_keeps_the_type() {
        let s = json!({"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"type": "integer"}},
            "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}});
        assert_eq!(Value::Object(outline(s.as_object().unwrap())), json!({"type": "object"}));
    }

    #[test]
    fn flags_off_by_default_say_no_default() {
        let mut s = json!({"type": "object", "properties": {"a": {"type": "boolean", "default": false},
            "b": {"type": "boolean", "default": true}, "c": {"type": "integer", "default": 0}}});
        lean_flags(s.as_object_mut().unwrap());
        assert_eq!(s, json!({"type": "object", "properties": {"a": {"type": "boolean"},
            "b": {"type": "boolean", "default": true}, "c": {"type": "integer", "default": 0}}}));
    }
}
