//! Per-language hooks: what a query cannot express, registered by each pack (`src/packs.rs`).

use navegador_model::{FileFacts, ImportFact, Label, RefFact, RefKind, SymbolFact, SymbolIdx};
use tree_sitter::{Node, Point};

use crate::extract::leading_comment;

/// What a pack adds in Rust to its queries and manifest.
pub(crate) struct Hooks {
    /// The docstring of a definition node, if the language keeps it inside the node.
    pub inner_doc: fn(Node, &[u8]) -> Option<String>,
    /// Whether a definition is visible outside its module.
    pub exported: fn(Node, &str, &[u8]) -> bool,
    /// The module path declared in the file (Java `package`), for `module.rule = "declared"`.
    pub declared_module: fn(Node, &[u8]) -> Option<String>,
    /// A last per-language pass over the assembled facts, for what needs more than a
    /// query: receiver types of locals and parameters, export lists, and the like.
    pub post: fn(Node, &str, &mut FileFacts),
    /// Rewrites source the grammar cannot parse into source it can, byte for byte the same
    /// length (so every line and column stays), before parsing; `None` keeps it as is.
    pub prepare: fn(&str) -> Option<String>,
}

impl Hooks {
    /// A pack without hooks: its queries and manifest say everything.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const NONE: Hooks = Hooks {
        inner_doc: no_doc,
        exported: |_, _, _| false,
        declared_module: no_module,
        post: |_, _, _| {},
        prepare: no_prepare,
    };
}

fn no_doc(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_module(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_prepare(_: &str) -> Option<String> {
    None
}
fn text<'a>(n: Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

// ---- Python -------------------------------------------------------------------------

pub(crate) static PYTHON: Hooks = Hooks {
    inner_doc: python_doc,
    exported: |_, name, _| !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__")),
    declared_module: no_module,
    post: python_post,
    prepare: no_prepare,
};

/// A module- or class-level variable assigned a call (`apps = Apps(...)`, `objects =
/// Manager()`) records the callee as its `class_name`: the resolver takes it as the
/// variable's type when it names a class declared in the same file (a constructor call).
fn python_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for sym in facts.symbols.iter_mut().filter(|s| s.label == Label::Variable && s.class_name.is_none()) {
        let Some(assign) = def_node(root, sym).filter(|n| n.kind() == "assignment") else { continue };
        let Some(call) = assign.child_by_field_name("right").filter(|r| r.kind() == "call") else { continue };
        let Some(f) = call.child_by_field_name("function").filter(|f| matches!(f.kind(), "identifier" | "attribute")) else {
            continue;
        };
        sym.class_name = Some(text(f, b).to_string());
    }
}

/// A Python docstring: the first statement of the body, when it is a string.
fn python_doc(node: Node, src: &[u8]) -> Option<String> {
    let def = if node.kind() == "decorated_definition" {
        node.child_by_field_name("definition")?
    } else {
        node
    };
    let body = def.child_by_field_name("body")?;
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    let mut c = s.walk();
    for part in s.named_children(&mut c) {
        if part.kind() == "string_content" {
            out.push_str(text(part, src));
        }
    }
    Some(clean_doc(&out))
}

// ---- JavaScript / TypeScript ---------------------------------------------------------

fn js_exported(node: Node, _: &str, _: &[u8]) -> bool {
    // `export @dec class C`, `export default function () {}`: the export statement is the
    // definition; `exports.f = function () {}` (CommonJS) only matches at module level.
    if matches!(node.kind(), "export_statement" | "assignment_expression") {
        return true;
    }
    let mut cur = node.parent();
    // `export function f`, `export const f = ...`, `export default class`.
    for _ in 0..3 {
        match cur {
            Some(p) if p.kind() == "export_statement" => return true,
            Some(p) if matches!(p.kind(), "lexical_declaration" | "variable_declaration" | "variable_declarator") => cur = p.parent(),
            _ => return false,
        }
    }
    false
}

/// The node at a fact's position (1-based line, byte column), innermost first.
fn node_at(root: Node, line: u32, column: u32) -> Option<Node> {
    let p = Point { row: line.saturating_sub(1) as usize, column: column as usize };
    root.descendant_for_point_range(p, p)
}

/// The definition node of a symbol: the parent of its name node.
fn def_node<'t>(root: Node<'t>, sym: &SymbolFact) -> Option<Node<'t>> {
    root.descendant_for_byte_range(sym.name_range.start_byte as usize, sym.name_range.end_byte as usize)?
        .parent()
}

/// A binding found in a scope: `Some(None)` when it is there but its type is unknown (it
/// still shadows outer bindings of the name).
type JsBinding = Option<Option<String>>;

/// Declared types of the names of an order-free scope (a module, a class body), by the scope
/// node's id: built once per scope so that many calls in one big scope stay linear.
#[derive(Default)]
struct ScopeCache(std::collections::HashMap<usize, std::collections::HashMap<String, Option<String>>>);

impl ScopeCache {
    fn get(&mut self, scope: Node, name: &str, build: impl FnOnce(Node) -> Vec<(String, Option<String>)>) -> JsBinding {
        let names = self.0.entry(scope.id()).or_insert_with(|| {
            let mut m = std::collections::HashMap::new();
            for (k, v) in build(scope) {
                m.entry(k).or_insert(v);
            }
            m
        });
        names.get(name).cloned()
    }
}

/// JS/TS after assembly: method kinds (getter, setter, static), names exported by an export
/// list or `module.exports`, and the receiver types of calls on typed or `new`-initialized
/// locals, parameters and `this.` fields.
fn js_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    mark_default_export(root, b, facts);
    for sig in facts.symbols.iter_mut().filter_map(|s| s.signature.as_mut()) {
        // `@Component({…}) class C`: decorators are facts of their own, not the signature.
        if sig.starts_with('@') {
            *sig = strip_annotations(sig).to_string();
        }
    }
    // `const f = async () => …`, `export default async () => …`, `h = async () => …` in a
    // class: `async` is after the name.
    for sym in facts.symbols.iter_mut().filter(|s| matches!(s.label, Label::Function | Label::Method) && !s.is_async) {
        let f = def_node(root, sym)
            .filter(|d| matches!(d.kind(), "variable_declarator" | "export_statement" | "field_definition" | "public_field_definition"))
            .and_then(|d| d.child_by_field_name("value"));
        let f = f.map(|v| match v.kind() {
            "call_expression" => v.child_by_field_name("arguments").and_then(|a| a.named_child(0)).unwrap_or(v),
            _ => v,
        });
        if let Some(f) = f {
            let mut c = f.walk();
            sym.is_async = f.children(&mut c).any(|ch| ch.kind() == "async");
        }
    }
    for sym in facts.symbols.iter_mut().filter(|s| s.kind == Some("method")) {
        let Some(def) = def_node(root, sym).filter(|d| d.kind() == "method_definition") else { continue };
        let mut c = def.walk();
        for ch in def.children(&mut c).take_while(|ch| ch.start_byte() < sym.name_range.start_byte as usize) {
            match ch.kind() {
                "get" => sym.kind = Some("getter"),
                "set" => sym.kind = Some("setter"),
                "static" => sym.kind = Some("static"),
                _ => {}
            }
        }
    }

    // `const C = memo((props) => …)`: the call of `memo` runs in the enclosing scope, not in C.
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        let Some(call) = def_node(root, sym)
            .filter(|d| sym.label == Label::Function && d.kind() == "variable_declarator")
            .and_then(|d| d.child_by_field_name("value"))
            .filter(|v| v.kind() == "call_expression")
        else {
            continue;
        };
        let Some(inner) = call.child_by_field_name("arguments").and_then(|a| a.named_child(0)) else { continue };
        let start = inner.start_position();
        let parent = sym.parent;
        for r in facts.refs.iter_mut().filter(|r| r.from == Some(i as SymbolIdx)) {
            if ((r.line - 1) as usize, r.column as usize) < (start.row, start.column) {
                r.from = parent;
            }
        }
    }

    let mut exported: Vec<&str> = Vec::new();
    let mut c = root.walk();
    for st in root.named_children(&mut c) {
        match st.kind() {
            // `export { a, b as c };` and `export default a;` (no `from`: those are re-exports)
            "export_statement" if st.child_by_field_name("source").is_none() => {
                if let Some(v) = st.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                    exported.push(text(v, b));
                }
                let mut c2 = st.walk();
                for clause in st.named_children(&mut c2).filter(|n| n.kind() == "export_clause") {
                    let mut c3 = clause.walk();
                    for spec in clause.named_children(&mut c3) {
                        if let Some(n) = spec.child_by_field_name("name") {
                            exported.push(text(n, b));
                        }
                    }
                }
            }
            // `module.exports = X`, `module.exports = { a, b: c }`, `exports.x = y`
            "expression_statement" => {
                let Some(a) = st.named_child(0).filter(|a| a.kind() == "assignment_expression") else { continue };
                let (Some(l), Some(r)) = (a.child_by_field_name("left"), a.child_by_field_name("right")) else { continue };
                let lt = text(l, b);
                if !(lt == "module.exports" || lt.starts_with("module.exports.") || lt.starts_with("exports.")) {
                    continue;
                }
                match r.kind() {
                    "identifier" => exported.push(text(r, b)),
                    "object" => {
                        let mut c2 = r.walk();
                        for p in r.named_children(&mut c2) {
                            match p.kind() {
                                "shorthand_property_identifier" => exported.push(text(p, b)),
                                "pair" => {
                                    if let Some(v) = p.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                                        exported.push(text(v, b));
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for sym in facts.symbols.iter_mut().filter(|s| s.parent.is_none()) {
        if exported.contains(&sym.name.as_str()) {
            sym.is_exported = true;
        }
    }
    // Members of an exported class are exported unless `#private`, `private` or `protected`.
    for i in 0..facts.symbols.len() {
        let Some(p) = facts.symbols[i].parent else { continue };
        let (parent, sym) = (&facts.symbols[p as usize], &facts.symbols[i]);
        if parent.label != Label::Class || !parent.is_exported || sym.name.starts_with('#') {
            continue;
        }
        let hidden = def_node(root, sym).is_some_and(|d| {
            let mut c = d.walk();
            let hidden = d
                .children(&mut c)
                .any(|ch| ch.kind() == "accessibility_modifier" && text(ch, b) != "public");
            hidden
        });
        facts.symbols[i].is_exported = !hidden;
    }

    let mut cache = ScopeCache::default();
    for r in facts.refs.iter_mut().filter(|r| r.kind == RefKind::Call && r.receiver.is_some()) {
        let Some(member) = node_at(root, r.line, r.column).and_then(|n| n.parent()) else { continue };
        if member.kind() != "member_expression" {
            continue;
        }
        let Some(obj) = member.child_by_field_name("object") else { continue };
        let ty = match obj.kind() {
            "identifier" => js_binding(obj, text(obj, b), b, &mut cache).flatten(),
            "new_expression" => obj.child_by_field_name("constructor").map(|c| text(c, b).to_string()),
            "member_expression" => {
                let this = obj.child_by_field_name("object").is_some_and(|o| o.kind() == "this");
                let prop = obj.child_by_field_name("property").map(|p| text(p, b));
                match prop {
                    Some(p) if this => js_this_field(obj, p, b),
                    _ => None,
                }
            }
            _ => None,
        };
        r.receiver_type = ty.filter(|t| !is_type_parameter(obj, t, b));
    }
}

fn ts_post(root: Node, src: &str, facts: &mut FileFacts) {
    js_post(root, src, facts);
    parameter_properties(root, src.as_bytes(), facts);
    for sym in &mut facts.symbols {
        // The grammar's type annotation node includes its colon.
        if let Some(t) = &mut sym.type_annotation {
            *t = t.trim_start_matches(':').trim_start().to_string();
        }
        // overload signatures end in `;`
        if let Some(sig) = &mut sym.signature {
            if let Some(head) = sig.strip_suffix(';') {
                *sig = head.trim_end().to_string();
            }
        }
        // `type T = { … }`: the aliased type is the body, not the signature.
        if sym.kind == Some("type") {
            if let Some(sig) = &mut sym.signature {
                if let Some((head, _)) = sig.split_once(" =") {
                    *sig = head.to_string();
                }
            }
        }
    }
}


/// Inserts a symbol at `at`, renumbering the parents and reference owners after it.
fn insert_symbol(facts: &mut FileFacts, at: usize, sym: SymbolFact) {
    let shift = |i: &mut SymbolIdx| {
        if *i as usize >= at {
            *i += 1;
        }
    };
    for s in &mut facts.symbols {
        s.parent.as_mut().map(shift);
    }
    for r in &mut facts.refs {
        r.from.as_mut().map(shift);
    }
    facts.symbols.insert(at, sym);
}

/// `constructor(private readonly http: Http)` declares a field `http` of the class: one
/// `Variable` per parameter property, right after the constructor, with the parameter's
/// decorators (`@Inject(TOKEN)`).
fn parameter_properties(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut i = 0;
    while i < facts.symbols.len() {
        let ctor = &facts.symbols[i];
        let def = def_node(root, ctor).filter(|d| ctor.kind == Some("constructor") && d.kind() == "method_definition");
        let (Some(params), Some(class)) = (def.and_then(|d| d.child_by_field_name("parameters")), ctor.parent) else {
            i += 1;
            continue;
        };
        let (class_q, class_exported) = {
            let c = &facts.symbols[class as usize];
            (c.qualified_name.clone(), c.is_exported)
        };
        let mut fields = Vec::new();
        let mut c = params.walk();
        for p in params.named_children(&mut c) {
            let mut c2 = p.walk();
            let mods: Vec<Node> = p
                .children(&mut c2)
                .filter(|m| matches!(m.kind(), "accessibility_modifier" | "readonly" | "override_modifier"))
                .collect();
            let name = p.child_by_field_name("pattern").filter(|n| n.kind() == "identifier");
            let (Some(name), false) = (name, mods.is_empty()) else { continue };
            let hidden = mods.iter().any(|m| m.kind() == "accessibility_modifier" && text(*m, b) != "public");
            let mut c3 = p.walk();
            let decorators = p
                .children(&mut c3)
                .filter(|d| d.kind() == "decorator")
                .filter_map(|d| {
                    let e = d.named_child(0)?;
                    let (n, args) = match e.kind() {
                        "call_expression" => (e.child_by_field_name("function")?, e.child_by_field_name("arguments")),
                        _ => (e, None),
                    };
                    let args = args.map(|a| text(a, b).split_whitespace().collect::<Vec<_>>().join(" "));
                    Some((text(n, b).to_string(), args, d.start_position().row as u32 + 1))
                })
                .collect();
            let n = text(name, b).to_string();
            fields.push(SymbolFact {
                label: Label::Variable,
                kind: None,
                qualified_name: format!("{class_q}.{n}"),
                name: n,
                parent: Some(class),
                range: crate::extract::span(p),
                name_range: crate::extract::span(name),
                docstring: None,
                signature: None,
                class_name: None,
                type_annotation: p.child_by_field_name("type").map(|t| {
                    let t = text(t, b).trim_start_matches(':').trim_start();
                    t.split_whitespace().collect::<Vec<_>>().join(" ")
                }),
                is_async: false,
                is_exported: class_exported && !hidden,
                is_default_export: false,
                decorators,
            });
        }
        i += 1;
        for f in fields {
            insert_symbol(facts, i, f);
            i += 1;
        }
    }
}

/// Whether `name` is a type parameter of a class, interface or method around `at`
/// (`T item; item.m()` says nothing about a class `T`).
fn is_type_parameter(at: Node, name: &str, b: &[u8]) -> bool {
    let mut cur = at.parent();
    while let Some(n) = cur {
        if let Some(tps) = n.child_by_field_name("type_parameters") {
            let mut c = tps.walk();
            let found = tps.named_children(&mut c).any(|tp| {
                let id = tp.child_by_field_name("name").or_else(|| tp.named_child(0));
                id.is_some_and(|i| text(i, b) == name)
            });
            if found {
                return true;
            }
        }
        cur = n.parent();
    }
    false
}

/// The named type of a TS type (annotation): `Foo`, `ns.Foo`, `Foo<T>` -> `Foo`.
fn ts_type_name(t: Node, b: &[u8]) -> Option<String> {
    match t.kind() {
        "type_annotation" => ts_type_name(t.named_child(0)?, b),
        "type_identifier" | "nested_type_identifier" => Some(text(t, b).to_string()),
        "generic_type" => ts_type_name(t.child_by_field_name("name")?, b),
        _ => None,
    }
}

/// The type of a declared variable: its annotation, else `new C(…)` in its initializer.
fn js_declared(d: Node, b: &[u8]) -> Option<String> {
    if let Some(t) = d.child_by_field_name("type") {
        return ts_type_name(t, b);
    }
    let v = d.child_by_field_name("value")?;
    let v = if v.kind() == "await_expression" { v.named_child(0)? } else { v };
    match v.kind() {
        "new_expression" => {
            let c = v.child_by_field_name("constructor")?;
            matches!(c.kind(), "identifier" | "member_expression").then(|| text(c, b).to_string())
        }
        "as_expression" | "satisfies_expression" => ts_type_name(v.named_child(1)?, b),
        _ => None,
    }
}

/// The innermost binding of `name` visible at `at`: locals declared before it, parameters.
fn js_binding(at: Node, name: &str, b: &[u8], cache: &mut ScopeCache) -> JsBinding {
    let mut cur = at.parent();
    while let Some(n) = cur {
        match n.kind() {
            // Module-level bindings are visible from functions declared above them.
            "program" => return cache.get(n, name, |p| js_declarators(p, None, b)),
            "statement_block" | "class_static_block" | "switch_case" | "switch_default" => {
                if let Some((_, t)) = js_declarators(n, Some(at), b).into_iter().find(|(k, _)| k == name) {
                    return Some(t);
                }
            }
            "for_statement" | "for_in_statement" => {
                let head = n.child_by_field_name("initializer").or_else(|| n.child_by_field_name("left"));
                if let Some(h) = head {
                    if h.kind() == "identifier" && text(h, b) == name {
                        return Some(None);
                    }
                    let mut c = h.walk();
                    for d in h.named_children(&mut c) {
                        if d.child_by_field_name("name").is_some_and(|x| text(x, b) == name) {
                            return Some(js_declared(d, b));
                        }
                    }
                }
            }
            "catch_clause" if n.child_by_field_name("parameter").is_some_and(|p| text(p, b) == name) => {
                return Some(n.child_by_field_name("type").and_then(|t| ts_type_name(t, b)));
            }
            "function_declaration" | "function_expression" | "arrow_function" | "method_definition"
            | "generator_function_declaration" | "generator_function" => {
                if n.child_by_field_name("parameter").is_some_and(|p| text(p, b) == name) {
                    return Some(None);
                }
                if let Some(ps) = n.child_by_field_name("parameters") {
                    let mut c = ps.walk();
                    for p in ps.named_children(&mut c) {
                        let pat = match p.kind() {
                            "required_parameter" | "optional_parameter" => p.child_by_field_name("pattern"),
                            "identifier" => Some(p),
                            "assignment_pattern" => p.child_by_field_name("left"),
                            _ => None,
                        };
                        if pat.is_some_and(|x| x.kind() == "identifier" && text(x, b) == name) {
                            return Some(p.child_by_field_name("type").and_then(|t| ts_type_name(t, b)));
                        }
                    }
                }
            }
            _ => {}
        }
        cur = n.parent();
    }
    None
}

/// The variables a block declares (before `before`, if given), with their declared types.
fn js_declarators(block: Node, before: Option<Node>, b: &[u8]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut c = block.walk();
    for st in block.named_children(&mut c).take_while(|st| before.is_none_or(|a| st.start_byte() < a.start_byte())) {
        let decl = match st.kind() {
            "export_statement" => st.child_by_field_name("declaration"),
            _ => Some(st),
        };
        let Some(decl) = decl.filter(|d| matches!(d.kind(), "lexical_declaration" | "variable_declaration")) else { continue };
        let mut c2 = decl.walk();
        for d in decl.named_children(&mut c2).filter(|d| d.kind() == "variable_declarator") {
            if let Some(x) = d.child_by_field_name("name").filter(|x| x.kind() == "identifier") {
                out.push((text(x, b).to_string(), js_declared(d, b)));
            }
        }
    }
    out
}

/// The type of `this.name` in the class around `at`: a typed or `new`-initialized field, a
/// constructor parameter property (`constructor(private repo: Repo)`), or `this.name = new C()`
/// in the constructor.
fn js_this_field(at: Node, name: &str, b: &[u8]) -> Option<String> {
    let mut body = at.parent();
    while let Some(n) = body.filter(|n| n.kind() != "class_body") {
        body = n.parent();
    }
    let body = body?;
    let mut c = body.walk();
    for m in body.named_children(&mut c) {
        match m.kind() {
            "public_field_definition" | "field_definition" => {
                let key = m.child_by_field_name("name").or_else(|| m.child_by_field_name("property"));
                if key.is_some_and(|k| text(k, b) == name) {
                    return js_declared(m, b);
                }
            }
            "method_definition" if m.child_by_field_name("name").is_some_and(|k| text(k, b) == "constructor") => {
                if let Some(ps) = m.child_by_field_name("parameters") {
                    let mut c2 = ps.walk();
                    for p in ps.named_children(&mut c2) {
                        let pat = p.child_by_field_name("pattern");
                        if p.kind() != "identifier" && pat.is_some_and(|x| text(x, b) == name) {
                            return p.child_by_field_name("type").and_then(|t| ts_type_name(t, b));
                        }
                    }
                }
                let Some(block) = m.child_by_field_name("body") else { continue };
                let mut c2 = block.walk();
                for st in block.named_children(&mut c2) {
                    let Some(a) = st.named_child(0).filter(|a| a.kind() == "assignment_expression") else { continue };
                    let (Some(l), Some(r)) = (a.child_by_field_name("left"), a.child_by_field_name("right")) else { continue };
                    if text(l, b) == format!("this.{name}") && r.kind() == "new_expression" {
                        return r.child_by_field_name("constructor").map(|c| text(c, b).to_string());
                    }
                }
            }
            _ => {}
        }
    }
    None
}

pub(crate) static JAVASCRIPT: Hooks = Hooks {
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: js_post,
    prepare: no_prepare,
};

pub(crate) static TYPESCRIPT: Hooks = Hooks {
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: ts_post,
    prepare: ts_prepare,
};

pub(crate) static TSX: Hooks = Hooks {
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: ts_post,
    prepare: tsx_prepare,
};

/// TypeScript that tree-sitter-typescript 0.23 rejects although `tsc` accepts it, rewritten
/// in place (ASCII for ASCII, same length): variance annotations on type parameters
/// (`<in out K>`, `<out A>`: the keywords become spaces) and, in `.ts` files only, call
/// signatures of an object type written one per line without separators (`{\n <A>(a: A): A\n
/// <A, B>(…): B\n}`: the grammar reads the `<` as a comparison or type arguments of the
/// previous member; the first indentation byte becomes the `;` that `tsc` infers), and escaped
/// backticks in template literal types. Effect writes every dual API this way; left alone,
/// most of such a file is one syntax error.
fn ts_prepare(src: &str) -> Option<String> {
    let mut b = src.as_bytes().to_vec();
    let changed = blank_variance(&mut b) | separate_call_signatures(&mut b) | unescape_backticks(&mut b);
    if changed { String::from_utf8(b).ok() } else { None }
}

/// TSX: variance and escaped backticks (a line starting with `<` is JSX there).
fn tsx_prepare(src: &str) -> Option<String> {
    let mut b = src.as_bytes().to_vec();
    if blank_variance(&mut b) | unescape_backticks(&mut b) { String::from_utf8(b).ok() } else { None }
}

/// The grammar takes no escape inside a template literal *type*
/// (`` type M = `use \`Self\`` ``): an escaped backtick becomes `''`, anywhere (in a string
/// or a regular expression it changes nothing the extractor reads).
fn unescape_backticks(b: &mut [u8]) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'`' {
                b[i] = b'\'';
                b[i + 1] = b'\'';
                changed = true;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    changed
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

fn blank_variance(b: &mut [u8]) -> bool {
    let n = b.len();
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut changed = false;
    for i in 0..n {
        if b[i] != b'<' && b[i] != b',' {
            continue;
        }
        let mut k = i + 1;
        while k < n && ws(b[k]) {
            k += 1;
        }
        let mut blank: Vec<(usize, usize)> = Vec::new();
        for _ in 0..2 {
            for kw in [&b"in"[..], &b"out"[..]] {
                if b[k..].starts_with(kw) && k + kw.len() < n && ws(b[k + kw.len()]) {
                    blank.push((k, k + kw.len()));
                    k += kw.len();
                    while k < n && ws(b[k]) {
                        k += 1;
                    }
                    break;
                }
            }
        }
        if blank.is_empty() || k >= n || !(b[k].is_ascii_alphabetic() || b[k] == b'_' || b[k] == b'$') {
            continue;
        }
        let mut m = k;
        while m < n && is_ident_byte(b[m]) {
            m += 1;
        }
        while m < n && ws(b[m]) {
            m += 1;
        }
        if b[m..].starts_with(b"extends") || (m < n && matches!(b[m], b',' | b'>' | b'=')) {
            for (a, e) in blank {
                b[a..e].fill(b' ');
            }
            changed = true;
        }
    }
    changed
}

fn separate_call_signatures(b: &mut [u8]) -> bool {
    let mut changed = false;
    let mut prev_end: Option<u8> = None; // last byte of the previous code line
    let mut prev_arrow = false;
    let mut start = 0;
    while start < b.len() {
        let end = b[start..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| start + p);
        let line = &b[start..end];
        let trimmed = line.trim_ascii();
        if !trimmed.is_empty() {
            let indented = matches!(line[0], b' ' | b'\t');
            let opens_signature = trimmed[0] == b'<'
                && (trimmed.len() == 1 || trimmed[1].is_ascii_alphabetic() || trimmed[1] == b'_' || trimmed[1] == b'$');
            let after_member = prev_end.is_some_and(|c| is_ident_byte(c) || matches!(c, b')' | b']' | b'>' | b'}')) && !prev_arrow;
            if indented && opens_signature && after_member {
                b[start] = b';';
                changed = true;
            }
            let t = b[start..end].trim_ascii();
            let comment = t.starts_with(b"*") || t.starts_with(b"/*") || t.starts_with(b"//") || t.ends_with(b"*/");
            if !comment {
                prev_end = t.last().copied();
                prev_arrow = t.ends_with(b"=>");
            }
        }
        start = end + 1;
    }
    changed
}

// ---- Java -----------------------------------------------------------------------------

fn has_modifier(node: Node, src: &[u8], word: &str) -> bool {
    let mut c = node.walk();
    let found = node
        .children(&mut c)
        .find(|ch| ch.kind() == "modifiers")
        .is_some_and(|m| text(m, src).split_whitespace().any(|w| w == word));
    found
}

/// Java visibility: `public`, or a member of an interface or annotation type (implicitly
/// public), or an enum constant.
fn java_exported(n: Node, _: &str, src: &[u8]) -> bool {
    has_modifier(n, src, "public")
        || n.kind() == "enum_constant"
        || n.parent().is_some_and(|p| matches!(p.kind(), "interface_body" | "annotation_type_body"))
}

pub(crate) static JAVA: Hooks = Hooks {
    inner_doc: no_doc,
    exported: java_exported,
    declared_module: |root, src| {
        let mut c = root.walk();
        let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_declaration")?;
        let mut c2 = pkg.walk();
        let name = pkg
            .named_children(&mut c2)
            .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))?;
        Some(text(name, src).to_string())
    },
    post: java_post,
    prepare: no_prepare,
};

/// Java after assembly: `static` methods, annotations shared by the fields of one declaration,
/// signatures without annotations, and the declared types of call receivers.
fn java_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let def = def_node(root, &facts.symbols[i]);
        let sym = &mut facts.symbols[i];
        if sym.kind == Some("method") && def.is_some_and(|d| d.kind() == "method_declaration" && has_modifier(d, b, "static")) {
            sym.kind = Some("static");
        }
        // `@Inject private A a, b;`: the extractor hangs the annotation on one declarator.
        if sym.label == Label::Variable && !sym.decorators.is_empty() {
            let (range, decs) = (sym.range, sym.decorators.clone());
            // Symbols are in source order: the other declarators are the neighbours.
            let lo = facts.symbols[..i].iter().rposition(|o| o.range != range).map_or(0, |p| p + 1);
            for other in facts.symbols[lo..].iter_mut().take_while(|o| o.range == range) {
                if other.decorators.is_empty() {
                    other.decorators = decs.clone();
                }
            }
        }
        if let Some(sig) = &mut facts.symbols[i].signature {
            *sig = strip_annotations(sig).trim_end_matches(';').trim_end().to_string();
        }
    }
    let mut cache = ScopeCache::default();
    for r in facts.refs.iter_mut().filter(|r| r.kind == RefKind::Call && r.receiver.is_some()) {
        let Some(call) = node_at(root, r.line, r.column).and_then(|n| n.parent()) else { continue };
        if call.kind() != "method_invocation" {
            continue;
        }
        let Some(obj) = call.child_by_field_name("object") else { continue };
        let ty = match obj.kind() {
            "identifier" => java_binding(obj, text(obj, b), b, &mut cache).flatten(),
            "object_creation_expression" => obj.child_by_field_name("type").and_then(|t| java_type_name(t, b)),
            "field_access" if obj.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                let field = obj.child_by_field_name("field").map_or("", |f| text(f, b));
                java_field(obj, field, b, &mut cache)
            }
            _ => None,
        };
        r.receiver_type = ty.filter(|t| !is_type_parameter(obj, t, b));
    }
}

/// `@A("x") @B public void f()` -> `public void f()`.
fn strip_annotations(sig: &str) -> &str {
    let mut s = sig.trim_start();
    while let Some(rest) = s.strip_prefix('@') {
        if rest.starts_with("interface") {
            break;
        }
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(rest.len());
        let mut after = rest[end..].trim_start();
        if after.starts_with('(') {
            let mut depth = 0;
            let mut close = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            after = &after[close..];
        }
        s = after.trim_start();
    }
    s
}

/// The class named by a Java type: `Foo`, `a.b.Foo`, `List<Foo>` -> `List`; none for
/// primitives and arrays.
fn java_type_name(t: Node, b: &[u8]) -> Option<String> {
    match t.kind() {
        "type_identifier" | "scoped_type_identifier" => Some(text(t, b).to_string()),
        "generic_type" => java_type_name(t.named_child(0)?, b),
        _ => None,
    }
}

/// The type of a declarator under a declared type; `var x = new Foo()` reads the initializer.
fn java_declared(ty: Option<Node>, declarator: Node, b: &[u8]) -> Option<String> {
    let ty = ty?;
    if declarator.child_by_field_name("dimensions").is_some() {
        return None;
    }
    if text(ty, b) == "var" {
        let v = declarator.child_by_field_name("value").filter(|v| v.kind() == "object_creation_expression")?;
        return java_type_name(v.child_by_field_name("type")?, b);
    }
    java_type_name(ty, b)
}

/// The fields (and interface constants) a class body declares, with their declared types.
fn java_fields(body: Node, b: &[u8]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut c = body.walk();
    for f in body.named_children(&mut c).filter(|f| matches!(f.kind(), "field_declaration" | "constant_declaration")) {
        let ty = f.child_by_field_name("type");
        let mut c2 = f.walk();
        for d in f.children_by_field_name("declarator", &mut c2) {
            if let Some(n) = d.child_by_field_name("name") {
                out.push((text(n, b).to_string(), java_declared(ty, d, b)));
            }
        }
    }
    out
}

/// The declarator of `name` among a declaration's declarators, with the declaration's type.
fn java_find_declarator(decl: Node, name: &str, b: &[u8]) -> JsBinding {
    let ty = decl.child_by_field_name("type");
    let mut c = decl.walk();
    let found = decl
        .children_by_field_name("declarator", &mut c)
        .find(|d| d.child_by_field_name("name").is_some_and(|n| text(n, b) == name));
    found.map(|d| java_declared(ty, d, b))
}

/// The innermost binding of `name` visible at `at`: locals declared before it, loop and
/// resource variables, catch and lambda parameters, method parameters, fields of enclosing
/// classes and record components.
fn java_binding(at: Node, name: &str, b: &[u8], cache: &mut ScopeCache) -> JsBinding {
    let mut cur = at.parent();
    while let Some(n) = cur {
        match n.kind() {
            "block" | "constructor_body" | "switch_block_statement_group" => {
                let mut c = n.walk();
                for st in n.named_children(&mut c).take_while(|st| st.start_byte() < at.start_byte()) {
                    if st.kind() == "local_variable_declaration" {
                        if let Some(t) = java_find_declarator(st, name, b) {
                            return Some(t);
                        }
                    }
                }
            }
            "for_statement" => {
                let mut c = n.walk();
                for init in n.children_by_field_name("init", &mut c) {
                    if init.kind() == "local_variable_declaration" {
                        if let Some(t) = java_find_declarator(init, name, b) {
                            return Some(t);
                        }
                    }
                }
            }
            "enhanced_for_statement" if n.child_by_field_name("name").is_some_and(|x| text(x, b) == name) => {
                return Some(n.child_by_field_name("type").and_then(|t| java_type_name(t, b)));
            }
            "try_with_resources_statement" => {
                if let Some(res) = n.child_by_field_name("resources") {
                    let mut c = res.walk();
                    for r in res.named_children(&mut c) {
                        if r.child_by_field_name("name").is_some_and(|x| text(x, b) == name) {
                            return Some(java_declared(r.child_by_field_name("type"), r, b));
                        }
                    }
                }
            }
            "catch_clause" => {
                let mut c = n.walk();
                for p in n.named_children(&mut c).filter(|p| p.kind() == "catch_formal_parameter") {
                    if p.child_by_field_name("name").is_some_and(|x| text(x, b) == name) {
                        let mut c2 = p.walk();
                        // `catch (A | B e)`: e's type is neither A nor B
                        let ty = p
                            .named_children(&mut c2)
                            .find(|t| t.kind() == "catch_type" && t.named_child_count() == 1)
                            .and_then(|t| t.named_child(0));
                        return Some(ty.and_then(|t| java_type_name(t, b)));
                    }
                }
            }
            "lambda_expression" | "method_declaration" | "constructor_declaration" | "record_declaration" => {
                if let Some(ps) = n.child_by_field_name("parameters") {
                    if ps.kind() == "identifier" && text(ps, b) == name {
                        return Some(None);
                    }
                    let mut c = ps.walk();
                    for p in ps.named_children(&mut c) {
                        let pname = match p.kind() {
                            "formal_parameter" => p.child_by_field_name("name"),
                            "identifier" => Some(p),
                            _ => None,
                        };
                        if pname.is_some_and(|x| text(x, b) == name) {
                            return Some(p.child_by_field_name("type").and_then(|t| java_type_name(t, b)));
                        }
                    }
                }
            }
            "class_body" | "enum_body_declarations" | "interface_body" => {
                if let Some(t) = cache.get(n, name, |body| java_fields(body, b)) {
                    return Some(t);
                }
            }
            _ => {}
        }
        cur = n.parent();
    }
    None
}

/// The type of `this.name`: a field (or record component) of the class around `at`.
fn java_field(at: Node, name: &str, b: &[u8], cache: &mut ScopeCache) -> Option<String> {
    let mut cur = at.parent();
    while let Some(n) = cur {
        if matches!(n.kind(), "class_body" | "enum_body_declarations") {
            if let Some(t) = cache.get(n, name, |body| java_fields(body, b)) {
                return t;
            }
            // a record component, seen from the record's body
            n.parent().filter(|p| p.kind() == "record_declaration")?;
            return java_binding(n, name, b, cache).flatten();
        }
        cur = n.parent();
    }
    None
}

// ---- Go -------------------------------------------------------------------------------

pub(crate) static GO: Hooks = Hooks {
    inner_doc: go_doc,
    exported: |_, name, _| name.chars().next().is_some_and(char::is_uppercase),
    declared_module: |root, src| {
        let mut c = root.walk();
        let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_clause")?;
        let mut c2 = pkg.walk();
        let name = pkg.named_children(&mut c2).find(|n| n.kind() == "package_identifier")?;
        Some(text(name, src).to_string())
    },
    post: go_post,
    prepare: no_prepare,
};

/// `// doc` above `var x = 1` / `const X = 1`: the comment sits above the keyword, outside
/// the spec the definition spans (in a `( … )` group it is above the spec itself).
fn go_doc(node: Node, src: &[u8]) -> Option<String> {
    if !matches!(node.kind(), "var_spec" | "const_spec") {
        return None;
    }
    let decl = node.parent().filter(|p| matches!(p.kind(), "var_declaration" | "const_declaration"))?;
    let mut c = decl.walk();
    let specs = decl.named_children(&mut c).filter(|n| n.kind() == node.kind()).count();
    if specs != 1 {
        return None;
    }
    leading_comment(decl, std::str::from_utf8(src).ok()?)
}

/// Predeclared types: `string(b)` is a conversion, not a call.
const GO_TYPES: &[&str] = &[
    "bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
    "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64",
    "uintptr", "any",
];

fn go_post(root: Node, src: &str, facts: &mut FileFacts) {
    for sym in &mut facts.symbols {
        if sym.label != Label::Class {
            continue;
        }
        // The type's head (`type Server struct`), not its members; the underlying type of
        // a type spec is not an annotation of a class.
        sym.type_annotation = None;
        if let Some(sig) = sym.signature.take() {
            let head = match sym.kind {
                Some("struct" | "interface") => sig.split('{').next().unwrap_or(&sig).trim_end(),
                _ => sig.as_str(),
            };
            sym.signature = Some(if head.starts_with("type ") { head.to_string() } else { format!("type {head}") });
        }
    }
    // Conversions to predeclared types are not calls, nor are their arguments values passed.
    let in_conversion = |line: u32, column: u32| {
        let p = tree_sitter::Point { row: line.saturating_sub(1) as usize, column: column as usize };
        let mut cur = root.descendant_for_point_range(p, p);
        while let Some(n) = cur {
            if n.kind() == "call_expression" {
                return n.child_by_field_name("function").is_some_and(|f| GO_TYPES.contains(&text(f, src.as_bytes())));
            }
            cur = n.parent();
        }
        false
    };
    facts.refs.retain(|r| match r.kind {
        RefKind::Call => !(r.receiver.is_none() && GO_TYPES.contains(&r.name.as_str())),
        RefKind::Reference => !in_conversion(r.line, r.column),
        _ => true,
    });
    let scopes = Scopes {
        functions: &["function_declaration", "method_declaration"],
        bind: go_bind,
        self_type: |_, _| None,
    };
    bind_receivers(root, src, facts, &scopes);
}

fn go_bind(n: Node, src: &str, out: &mut Vec<Binding>) {
    let mut c = n.walk();
    match n.kind() {
        "parameter_declaration" | "variadic_parameter_declaration" => {
            let ty = n.child_by_field_name("type").and_then(|t| go_type(t, src));
            for name in n.children_by_field_name("name", &mut c) {
                out.push(Binding::new(name, src, ty.clone()));
            }
        }
        "var_spec" | "const_spec" => {
            let ty = n.child_by_field_name("type").and_then(|t| go_type(t, src));
            let values = n.child_by_field_name("value").map(named_children).unwrap_or_default();
            for (i, name) in n.children_by_field_name("name", &mut c).enumerate() {
                let t = ty.clone().or_else(|| values.get(i).and_then(|v| go_expr_type(*v, src)));
                out.push(Binding::new(name, src, t));
            }
        }
        "short_var_declaration" | "range_clause" => {
            let left = n.child_by_field_name("left").map(named_children).unwrap_or_default();
            let right = n.child_by_field_name("right").map(named_children).unwrap_or_default();
            let pairwise = n.kind() == "short_var_declaration" && left.len() == right.len();
            for (i, name) in left.iter().enumerate() {
                if name.kind() == "identifier" {
                    let t = if pairwise { go_expr_type(right[i], src) } else { None };
                    out.push(Binding::new(*name, src, t));
                }
            }
        }
        _ => {}
    }
}

/// The named type of a Go type expression: `T`, `*T`, `pkg.T`, `T[int]`.
fn go_type(mut t: Node, src: &str) -> Option<String> {
    // A loop, not recursion: `********T` must not exhaust the stack.
    loop {
        t = match t.kind() {
            "type_identifier" | "qualified_type" => return Some(text(t, src.as_bytes()).to_string()),
            "pointer_type" | "parenthesized_type" => t.named_child(0)?,
            "generic_type" => t.child_by_field_name("type")?,
            _ => return None,
        };
    }
}

/// The type of `T{…}` and `&T{…}`.
fn go_expr_type(mut e: Node, src: &str) -> Option<String> {
    loop {
        e = match e.kind() {
            "composite_literal" => return go_type(e.child_by_field_name("type")?, src),
            "unary_expression" => e.child_by_field_name("operand")?,
            _ => return None,
        };
    }
}

// ---- Rust -----------------------------------------------------------------------------

pub(crate) static RUST: Hooks = Hooks {
    inner_doc: no_doc,
    exported: |n, _, _| {
        let mut c = n.walk();
        let public = n.children(&mut c).any(|ch| ch.kind() == "visibility_modifier");
        public
    },
    declared_module: no_module,
    post: rust_post,
    prepare: no_prepare,
};

fn rust_post(root: Node, src: &str, facts: &mut FileFacts) {
    walk(root, &mut |n| {
        if n.kind() == "use_declaration" {
            if let Some(arg) = n.child_by_field_name("argument") {
                rust_use(arg, "", None, src, &mut facts.imports, 0);
            }
        }
    });
    // Attributes and doc comments are siblings before an item, not inside it.
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let (decorators, doc) = rust_item_head(node, src);
        let inherited = match facts.symbols[i].parent.map(|p| &facts.symbols[p as usize]) {
            // Methods of a trait and variants of an enum are as visible as it is.
            Some(p) if matches!((facts.symbols[i].label, p.kind), (Label::Method, Some("trait")) | (Label::Variable, Some("enum"))) => {
                Some(p.is_exported)
            }
            _ => None,
        };
        let owner = rust_outer_impl_owner(node, src, facts);
        let sym = &mut facts.symbols[i];
        sym.decorators = decorators;
        sym.docstring = doc;
        if let Some(e) = inherited {
            sym.is_exported = e;
        }
        if sym.label == Label::Class {
            sym.type_annotation = None;
        }
        if let Some(sig) = &mut sym.signature {
            if sig.ends_with(';') {
                sig.pop();
            }
        }
        // `impl Trait for crate::T` / `impl Trait for T` with `use crate::T` above, T declared in
        // another file: the method is named under T's own path.
        if let (Some(path), None) = (owner, sym.parent) {
            sym.qualified_name = format!("{path}::{}", sym.name);
        }
    }
    let owners: Vec<Option<String>> = facts
        .refs
        .iter()
        .map(|r| {
            if r.kind != RefKind::Implements || r.from.is_some() {
                return None;
            }
            let p = tree_sitter::Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
            rust_outer_impl_owner(root.descendant_for_point_range(p, p)?, src, facts)
        })
        .collect();
    for (r, owner) in facts.refs.iter_mut().zip(owners) {
        if owner.is_some() {
            r.receiver_type = owner;
        }
    }
    // `Some(x)`, `Ok(())` build prelude values; `Wrapper(x)`, `Error::NotFound(e)` build a
    // tuple struct or variant: a `new` of it, not a call.
    facts.refs.retain(|r| !(r.kind == RefKind::Call && r.receiver.is_none() && matches!(r.name.as_str(), "Some" | "Ok" | "Err")));
    for r in &mut facts.refs {
        if r.kind == RefKind::Call && r.name.chars().next().is_some_and(char::is_uppercase) {
            r.kind = RefKind::New;
        }
    }
    // A function passed as a value is snake_case: `None`, `Ordering::Less`, `MAX` are not.
    facts
        .refs
        .retain(|r| r.kind != RefKind::Reference || r.name.chars().next().is_some_and(|c| c.is_lowercase() || c == '_'));
    rust_macro_calls(root, src, facts);
    let scopes = Scopes {
        functions: &["function_item"],
        bind: rust_bind,
        self_type: rust_self_type,
    };
    bind_receivers(root, src, facts, &scopes);
}

/// Calls inside macro arguments (`println!("{}", f(x))`, `assert_eq!(s.get(k), v)`): the
/// grammar leaves them as token trees, so a name directly followed by `( … )` is read as a
/// call, `a.m( … )` with receiver `a`, `a::b::f( … )` with receiver `a::b`. The macro
/// itself is not a call.
fn rust_macro_calls(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    let mut found = Vec::new();
    walk(root, &mut |m| {
        if m.kind() != "macro_invocation" {
            return;
        }
        walk(m, &mut |tt| {
            if tt.kind() != "token_tree" {
                return;
            }
            let mut c = tt.walk();
            let kids: Vec<Node> = tt.children(&mut c).collect();
            for i in 0..kids.len().saturating_sub(1) {
                let (n, next) = (kids[i], kids[i + 1]);
                if n.kind() != "identifier" || next.kind() != "token_tree" || !text(next, b).starts_with('(') {
                    continue;
                }
                let before = |k: usize| i.checked_sub(k).map(|j| kids[j]);
                let receiver = match before(1).map(|p| p.kind()) {
                    Some(".") => before(2).map(|r| text(r, b).to_string()),
                    Some("::") => {
                        let mut parts = Vec::new();
                        let mut k = 2;
                        while let Some(seg) = before(k).filter(|s| matches!(s.kind(), "identifier" | "self" | "super" | "crate")) {
                            parts.push(text(seg, b));
                            if before(k + 1).map(|p| p.kind()) != Some("::") {
                                break;
                            }
                            k += 2;
                        }
                        parts.reverse();
                        Some(parts.join("::"))
                    }
                    _ => None,
                };
                found.push((n, receiver));
            }
        });
    });
    for (n, receiver) in found {
        let name = text(n, b).to_string();
        if receiver.is_none() && matches!(name.as_str(), "Some" | "Ok" | "Err" | "if" | "while" | "match" | "in" | "return") {
            continue;
        }
        let at = n.start_byte() as u32;
        let from = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.label, Label::Function | Label::Method) && s.range.start_byte <= at && at < s.range.end_byte)
            .min_by_key(|(_, s)| s.range.end_byte - s.range.start_byte)
            .map(|(i, _)| i as u32);
        let upper = name.chars().next().is_some_and(char::is_uppercase);
        facts.refs.push(RefFact {
            kind: if upper { RefKind::New } else { RefKind::Call },
            from,
            name,
            receiver: receiver.filter(|r| !r.is_empty()),
            receiver_type: None,
            line: n.start_position().row as u32 + 1,
            column: n.start_position().column as u32,
        });
    }
    facts.refs.sort_by_key(|r| (r.line, r.column));
}

/// `#[attr(args)]` items and `///` / `/** */` doc comments directly above an item; for a
/// `mod x { … }` without outer docs, its inner `//!` docs.
/// Decorators as `SymbolFact` keeps them: (name, arguments, line).
type Decorators = Vec<(String, Option<String>, u32)>;

fn rust_item_head(node: Node, src: &str) -> (Decorators, Option<String>) {
    let b = src.as_bytes();
    let (mut decorators, mut docs) = (Vec::new(), Vec::new());
    let mut expect_row = node.start_position().row;
    let mut cur = node.prev_sibling();
    while let Some(p) = cur {
        if p.end_position().row + 1 < expect_row {
            break;
        }
        match p.kind() {
            "attribute_item" => {
                if let Some(attr) = p.named_child(0) {
                    let name = attr.named_child(0).map_or("", |n| text(n, b)).to_string();
                    let args = attr
                        .child_by_field_name("arguments")
                        .map(|a| squash_ws(text(a, b)))
                        .or_else(|| attr.child_by_field_name("value").map(|v| format!("= {}", squash_ws(text(v, b)))));
                    decorators.push((name, args, p.start_position().row as u32 + 1));
                }
            }
            "line_comment" | "block_comment" => {
                if p.child_by_field_name("outer").is_some() {
                    docs.push(text(p, b).trim_end());
                }
            }
            _ => break,
        }
        expect_row = p.start_position().row;
        cur = p.prev_sibling();
    }
    decorators.reverse();
    docs.reverse();
    if docs.is_empty() && node.kind() == "mod_item" {
        if let Some(body) = node.child_by_field_name("body") {
            let mut c = body.walk();
            docs = body
                .named_children(&mut c)
                .take_while(|n| matches!(n.kind(), "line_comment" | "block_comment"))
                .filter(|n| n.child_by_field_name("inner").is_some())
                .map(|n| text(n, b).trim_end())
                .collect();
        }
    }
    let doc = clean_doc(&docs.join("\n"));
    (decorators, (!doc.is_empty()).then_some(doc))
}

fn squash_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One `ImportFact` per name a `use` binds: `use a::{b, c::{d as e}, f::*}` gives
/// `a`/`b`, `a::c`/`d` as `e`, `a::f`/`*`; `a::{self}` binds `a`.
fn rust_use(n: Node, prefix: &str, alias: Option<&str>, src: &str, out: &mut Vec<ImportFact>, depth: u32) {
    // Real use trees are shallow; a pathological one stops here rather than on the stack.
    if depth > 200 {
        return;
    }
    let b = src.as_bytes();
    let join = |a: &str, z: &str| match (a.is_empty(), z.is_empty()) {
        (true, _) => z.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{z}"),
    };
    let mut push = |module: String, name: Option<String>| {
        out.push(ImportFact {
            module,
            name,
            alias: alias.map(str::to_string),
            line: n.start_position().row as u32 + 1,
            column: n.start_position().column as u32,
        });
    };
    match n.kind() {
        "scoped_identifier" => {
            let path = n.child_by_field_name("path").map_or("", |p| text(p, b));
            let name = n.child_by_field_name("name").map_or("", |p| text(p, b));
            if name == "self" {
                // `use a::b::self` (only valid in a list, but be lenient)
                return rust_use_self(&join(prefix, path), alias, n, out);
            }
            push(join(prefix, path), Some(name.to_string()));
        }
        "identifier" | "crate" | "super" | "metavariable" => {
            if prefix.is_empty() {
                push(text(n, b).to_string(), None);
            } else {
                push(prefix.to_string(), Some(text(n, b).to_string()));
            }
        }
        "self" => rust_use_self(prefix, alias, n, out),
        "use_as_clause" => {
            let a = n.child_by_field_name("alias").map(|a| text(a, b));
            if let Some(path) = n.child_by_field_name("path") {
                rust_use(path, prefix, a, src, out, depth + 1);
            }
        }
        "use_wildcard" => {
            let path = n.named_child(0).map_or("", |p| text(p, b));
            push(join(prefix, path), Some("*".to_string()));
        }
        "scoped_use_list" => {
            let path = n.child_by_field_name("path").map_or("", |p| text(p, b));
            if let Some(list) = n.child_by_field_name("list") {
                rust_use(list, &join(prefix, path), None, src, out, depth + 1);
            }
        }
        "use_list" => {
            for child in named_children(n) {
                rust_use(child, prefix, None, src, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn rust_use_self(prefix: &str, alias: Option<&str>, n: Node, out: &mut Vec<ImportFact>) {
    let (module, name) = match prefix.rsplit_once("::") {
        Some((m, last)) => (m.to_string(), Some(last.to_string())),
        None => (prefix.to_string(), None),
    };
    out.push(ImportFact {
        module,
        name,
        alias: alias.map(str::to_string),
        line: n.start_position().row as u32 + 1,
        column: n.start_position().column as u32,
    });
}

fn rust_bind(n: Node, src: &str, out: &mut Vec<Binding>) {
    match n.kind() {
        "parameter" => {
            let ty = n.child_by_field_name("type").and_then(|t| rust_type(t, src));
            if let Some(p) = n.child_by_field_name("pattern") {
                bind_pattern(p, src, ty, out);
            }
        }
        "self_parameter" => {
            let mut c = n.walk();
            let s = n.children(&mut c).find(|c| c.kind() == "self");
            if let Some(s) = s {
                out.push(Binding::new(s, src, rust_self_type(n, src)));
            }
        }
        "let_declaration" => {
            let ty = n
                .child_by_field_name("type")
                .and_then(|t| rust_type(t, src))
                .or_else(|| n.child_by_field_name("value").and_then(|v| rust_expr_type(v, src)));
            if let Some(p) = n.child_by_field_name("pattern") {
                bind_pattern(p, src, ty, out);
            }
        }
        "closure_parameters" => {
            for p in named_children(n).into_iter().filter(|p| p.kind() != "parameter") {
                bind_pattern(p, src, None, out);
            }
        }
        "for_expression" | "let_condition" | "match_arm" => {
            if let Some(p) = n.child_by_field_name("pattern") {
                bind_pattern(p, src, None, out);
            }
        }
        _ => {}
    }
}

/// Binds the names of a pattern: `x` gets the type, the parts of `(a, b)` or `Some(x)` none.
fn bind_pattern(p: Node, src: &str, ty: Option<String>, out: &mut Vec<Binding>) {
    if p.kind() == "identifier" {
        out.push(Binding::new(p, src, ty));
        return;
    }
    walk(p, &mut |n| {
        let is_type = n.parent().and_then(|q| q.child_by_field_name("type")).is_some_and(|t| t == n);
        if n.kind() == "identifier" && !is_type {
            out.push(Binding::new(n, src, None));
        }
    });
}

/// The path of the type an `impl` block outside its type's file is for, when the file
/// says it: `impl X for crate::a::T`, or `impl X for T` with `use crate::a::T`.
fn rust_outer_impl_owner(n: Node, src: &str, facts: &FileFacts) -> Option<String> {
    let mut cur = n.parent();
    let imp = loop {
        let p = cur?;
        if p.kind() == "impl_item" {
            break p;
        }
        if matches!(p.kind(), "function_item" | "mod_item" | "trait_item") && p != n {
            return None;
        }
        cur = p.parent();
    };
    let written = rust_type(imp.child_by_field_name("type")?, src)?;
    let name = written.rsplit("::").next().unwrap_or(&written).to_string();
    // Declared in this file: the generic extractor names it already.
    if facts.symbols.iter().any(|s| s.label == Label::Class && s.name == name && s.parent.is_none()) {
        return None;
    }
    let path = if written.contains("::") {
        written
    } else {
        let i = facts.imports.iter().find(|i| i.local_name() == Some(name.as_str()) && i.name.is_some())?;
        format!("{}::{}", i.module, i.name.as_deref()?)
    };
    Some(rust_absolute(&path, facts.module.as_deref().unwrap_or("crate")))
}

/// `self::x` / `super::x` against the file's module; `crate::x` and external paths as is.
fn rust_absolute(path: &str, module: &str) -> String {
    let mut base: Vec<&str> = module.split("::").collect();
    let mut rest = path;
    loop {
        if let Some(r) = rest.strip_prefix("self::") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("super::") {
            if base.len() > 1 {
                base.pop();
            }
            rest = r;
        } else {
            break;
        }
    }
    if rest.len() == path.len() {
        return path.to_string();
    }
    format!("{}::{rest}", base.join("::"))
}

/// `Foo`, `&mut Foo`, `Box<Foo>` / `Rc<Foo>` / `Arc<Foo>` -> `Foo`; `Vec<Foo>` -> `Vec`.
fn rust_type(mut t: Node, src: &str) -> Option<String> {
    // A loop, not recursion: `&&&…T` must not exhaust the stack.
    loop {
        t = match t.kind() {
            "type_identifier" | "scoped_type_identifier" => return Some(text(t, src.as_bytes()).to_string()),
            "reference_type" => t.child_by_field_name("type")?,
            "dynamic_type" | "abstract_type" => t.child_by_field_name("trait")?,
            "generic_type" => {
                let base = t.child_by_field_name("type")?;
                if matches!(text(base, src.as_bytes()), "Box" | "Rc" | "Arc") {
                    t.child_by_field_name("type_arguments")?.named_child(0)?
                } else {
                    base
                }
            }
            _ => return None,
        };
    }
}

/// `Foo::new(..)`, `Foo::<T>::new(..)`, `Foo { .. }`, `&Foo { .. }` -> `Foo`.
fn rust_expr_type(e: Node, src: &str) -> Option<String> {
    let b = src.as_bytes();
    match e.kind() {
        "call_expression" => {
            let f = e.child_by_field_name("function")?;
            let f = if f.kind() == "generic_function" { f.child_by_field_name("function")? } else { f };
            let path = f.filter_kind("scoped_identifier")?.child_by_field_name("path")?;
            let ty = crate_strip_generics(text(path, b));
            let last = ty.rsplit("::").next().unwrap_or(ty);
            last.chars().next().is_some_and(char::is_uppercase).then(|| ty.to_string())
        }
        "struct_expression" => Some(crate_strip_generics(text(e.child_by_field_name("name")?, b)).to_string()),
        "reference_expression" => {
            let mut v = e.child_by_field_name("value")?;
            while v.kind() == "reference_expression" {
                v = v.child_by_field_name("value")?;
            }
            rust_expr_type(v, src)
        }
        _ => None,
    }
}

fn crate_strip_generics(s: &str) -> &str {
    let cut = s.find("::<").or_else(|| s.find('<')).unwrap_or(s.len());
    &s[..cut]
}

/// The type `self` / `Self` stands for at `n`: the impl's type or the trait.
fn rust_self_type(n: Node, src: &str) -> Option<String> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            "impl_item" => return rust_type(p.child_by_field_name("type")?, src),
            "trait_item" => return Some(text(p.child_by_field_name("name")?, src.as_bytes()).to_string()),
            _ => cur = p.parent(),
        }
    }
    None
}

trait FilterKind: Sized {
    fn filter_kind(self, kind: &str) -> Option<Self>;
}
impl FilterKind for Node<'_> {
    fn filter_kind(self, kind: &str) -> Option<Self> {
        (self.kind() == kind).then_some(self)
    }
}

// ---- C --------------------------------------------------------------------------------

pub(crate) static C: Hooks = Hooks {
    inner_doc: no_doc,
    exported: |n, _, src| {
        // The storage class sits on the declaration, above a declarator-only typedef name.
        let n = if n.kind() == "type_identifier" { n.parent().unwrap_or(n) } else { n };
        let mut c = n.walk();
        let is_static = n
            .children(&mut c)
            .any(|ch| ch.kind() == "storage_class_specifier" && text(ch, src) == "static");
        !is_static
    },
    declared_module: no_module,
    post: c_post,
    prepare: no_prepare,
};

fn c_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let sym = &mut facts.symbols[i];
        // A class is no annotated value; a function's return type is in its signature.
        if matches!(sym.label, Label::Class | Label::Function) {
            sym.type_annotation = None;
        }
        match (sym.label, node.kind()) {
            // A prototype: a Function with kind=declaration; its definition, if any, is
            // the Function of the same name without a kind.
            (Label::Function, "declaration") => {
                sym.kind = Some("declaration");
                sym.signature = sym.signature.take().map(|s| s.trim_end_matches(';').trim_end().to_string());
            }
            // `typedef struct s {…} s_t;`: the alias spans its name; doc and head come
            // from the typedef.
            (Label::Class, "type_identifier") => {
                if let Some(def) = node.parent().filter(|p| p.kind() == "type_definition") {
                    sym.docstring = leading_comment(def, src);
                    let ty = def.child_by_field_name("type").map_or("", |t| {
                        let head = text(t, b);
                        head.split('{').next().unwrap_or(head).trim_end()
                    });
                    sym.signature = Some(format!("typedef {} {}", squash_ws(ty), sym.name));
                }
            }
            (Label::Class, "type_definition") => {
                let sig = text(node, b);
                let sig = match sig.split_once('{') {
                    Some((head, _)) => format!("{} {{ … }} {}", squash_ws(head), sym.name),
                    None => squash_ws(sig.trim_end_matches(';')),
                };
                sym.signature = Some(sig);
            }
            // `struct s {…} v;`: the variable spans its declarator; its type is `struct s`.
            (Label::Variable, "identifier" | "init_declarator" | "pointer_declarator") => {
                if let Some(t) = node.parent().and_then(|p| p.child_by_field_name("type")) {
                    let head = text(t, b);
                    sym.type_annotation = Some(squash_ws(head.split('{').next().unwrap_or(head)));
                }
            }
            (Label::Variable, "declaration" | "field_declaration") => {
                // `char *name` is a `char *`, `int v[3]` an `int[]`.
                let mut d = node.child_by_field_name("declarator");
                let mut suffix = String::new();
                while let Some(x) = d {
                    match x.kind() {
                        "init_declarator" => {}
                        "pointer_declarator" => suffix.push('*'),
                        "array_declarator" => suffix.push_str("[]"),
                        "function_declarator" => {
                            suffix = "(*)()".to_string();
                            break;
                        }
                        _ => break,
                    }
                    d = x.child_by_field_name("declarator");
                }
                if let Some(t) = &sym.type_annotation {
                    if !suffix.is_empty() {
                        let sep = if suffix.starts_with('*') { " " } else { "" };
                        sym.type_annotation = Some(format!("{t}{sep}{suffix}"));
                    }
                }
            }
            _ => {}
        }
    }
    let scopes = Scopes {
        functions: &["function_definition"],
        bind: c_bind,
        self_type: |_, _| None,
    };
    bind_receivers(root, src, facts, &scopes);
}

fn c_bind(n: Node, src: &str, out: &mut Vec<Binding>) {
    if !matches!(n.kind(), "parameter_declaration" | "declaration") {
        return;
    }
    let ty = n.child_by_field_name("type").and_then(|t| match t.kind() {
        "type_identifier" => Some(text(t, src.as_bytes()).to_string()),
        "struct_specifier" | "union_specifier" => Some(text(t.child_by_field_name("name")?, src.as_bytes()).to_string()),
        _ => None,
    });
    let mut c = n.walk();
    for d in n.children_by_field_name("declarator", &mut c) {
        let mut d = Some(d);
        while let Some(x) = d {
            if x.kind() == "identifier" {
                out.push(Binding::new(x, src, ty.clone()));
                break;
            }
            // A prototype inside a function binds no local.
            if x.kind() == "function_declarator" {
                break;
            }
            d = x.child_by_field_name("declarator");
        }
    }
}

// ---- Locals and receiver types (Go, Rust, C) ------------------------------------------

/// A name bound inside a function (parameter, receiver, local) and its type, if written.
struct Binding {
    name: String,
    ty: Option<String>,
    at: usize,
}

impl Binding {
    fn new(n: Node, src: &str, ty: Option<String>) -> Binding {
        Binding { name: text(n, src.as_bytes()).to_string(), ty, at: n.start_byte() }
    }
}

/// What `bind_receivers` needs to know of a language.
struct Scopes {
    /// Node kinds of a function: its outermost one bounds the locals of a site.
    functions: &'static [&'static str],
    /// The bindings a node introduces (called on every node of a function).
    bind: fn(Node, &str, &mut Vec<Binding>),
    /// What `Self` stands for at a node (Rust).
    self_type: fn(Node, &str) -> Option<String>,
}

/// Reads receiver types off the enclosing function (`x.M()` where `x` is the receiver, a
/// typed parameter, `x := T{}`, `let x = T::new()`, `let x: T`) and drops "function used
/// as a value" sites that name a local or parameter: those are data, not functions.
/// Scopes are approximate: the nearest binding above the site in the same top-level
/// function wins.
fn bind_receivers(root: Node, src: &str, facts: &mut FileFacts, scopes: &Scopes) {
    let mut cache: std::collections::HashMap<usize, Vec<Binding>> = std::collections::HashMap::new();
    let mut drop = vec![false; facts.refs.len()];
    for (ri, r) in facts.refs.iter_mut().enumerate() {
        if !matches!(r.kind, RefKind::Call | RefKind::Reference) {
            continue;
        }
        let p = tree_sitter::Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
        let Some(site) = root.descendant_for_point_range(p, p) else { continue };
        if let Some(recv) = r.receiver.as_deref() {
            if recv == "Self" {
                r.receiver_type = (scopes.self_type)(site, src);
                continue;
            }
        }
        let mut func = None;
        let mut cur = Some(site);
        while let Some(n) = cur {
            if scopes.functions.contains(&n.kind()) {
                func = Some(n);
            }
            cur = n.parent();
        }
        let Some(func) = func else { continue };
        let bindings = cache.entry(func.id()).or_insert_with(|| {
            let mut out = Vec::new();
            walk(func, &mut |n| (scopes.bind)(n, src, &mut out));
            out
        });
        let at = site.start_byte();
        let lookup = |name: &str| bindings.iter().filter(|b| b.name == name && b.at <= at).max_by_key(|b| b.at);
        match r.receiver.as_deref() {
            Some(recv) if recv.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                if let Some(b) = lookup(recv) {
                    r.receiver_type = match b.ty.as_deref() {
                        Some("Self") => (scopes.self_type)(site, src),
                        t => t.map(str::to_string),
                    };
                    // `x.f` passed as a value, `x` a local of unknown type: most likely a field.
                    drop[ri] = r.kind == RefKind::Reference && r.receiver_type.is_none();
                }
            }
            // `x.f.m()`, `self.f.m()`: the declared type of field f, when this file declares x's type.
            Some(recv) => {
                let Some((base, field)) = recv.split_once('.').filter(|(b, f)| is_ident(b) && is_ident(f)) else { continue };
                let Some(b) = lookup(base) else { continue };
                let owner = match b.ty.as_deref() {
                    Some("Self") => (scopes.self_type)(site, src),
                    t => t.map(str::to_string),
                };
                if let Some(owner) = owner {
                    r.receiver_type = field_type(&facts.symbols, &owner, field);
                }
            }
            // A local called (`done()`, a closure, a function pointer parameter) or passed on
            // is not a use of any symbol.
            None => drop[ri] = lookup(&r.name).is_some(),
        }
    }
    let mut i = 0;
    facts.refs.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The named type of field `field` of the class `owner` declared in this file:
/// `*http.ServeMux` -> `http.ServeMux`, `Option<Conn>` -> `Option`, `Box<Conn>` -> `Conn`.
fn field_type(symbols: &[SymbolFact], owner: &str, field: &str) -> Option<String> {
    let owner = owner.rsplit(['.', ':']).next().unwrap_or(owner);
    let class = symbols.iter().position(|s| s.label == Label::Class && s.name == owner)? as u32;
    let f = symbols.iter().find(|s| s.label == Label::Variable && s.parent == Some(class) && s.name == field)?;
    let mut t = f.type_annotation.as_deref()?.trim();
    loop {
        let before = t;
        t = t.trim_start_matches(['*', '&']).trim_start();
        t = t.strip_prefix("mut ").unwrap_or(t);
        for wrapper in ["Box<", "Rc<", "Arc<"] {
            if let Some(inner) = t.strip_prefix(wrapper) {
                t = inner.strip_suffix('>').unwrap_or(inner);
            }
        }
        if t == before {
            break;
        }
    }
    let t = t[..t.find(['<', '[', ' ']).unwrap_or(t.len())].trim();
    let named = !t.is_empty()
        && !matches!(t, "map" | "chan" | "func" | "struct" | "interface" | "dyn" | "impl")
        && t.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':'));
    named.then(|| t.to_string())
}

/// The node a symbol was read from: the ancestor of its name that spans its range.
fn symbol_node<'t>(root: Node<'t>, sym: &SymbolFact) -> Option<Node<'t>> {
    let (s, e) = (sym.range.start_byte as usize, sym.range.end_byte as usize);
    let mut n = root.descendant_for_byte_range(sym.name_range.start_byte as usize, sym.name_range.end_byte as usize)?;
    loop {
        if n.start_byte() == s && n.end_byte() == e {
            return Some(n);
        }
        n = n.parent()?;
    }
}

fn named_children(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// Pre-order walk without recursion (deeply nested input must not overflow the stack).
fn walk<'t>(n: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    let mut c = n.walk();
    loop {
        f(c.node());
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.node() == n {
                return;
            }
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
        }
    }
}

/// Strips comment markers and common indentation from a doc comment or docstring.
pub(crate) fn clean_doc(raw: &str) -> String {
    let lines: Vec<&str> = raw
        .lines()
        .map(|l| {
            let t = l.trim();
            let t = t
                .strip_prefix("/**")
                .or_else(|| t.strip_prefix("/*!"))
                .or_else(|| t.strip_prefix("/*"))
                .or_else(|| t.strip_prefix("///"))
                .or_else(|| t.strip_prefix("//!"))
                .or_else(|| t.strip_prefix("//"))
                .or_else(|| t.strip_prefix("#"))
                .unwrap_or(t);
            let t = t.strip_suffix("*/").unwrap_or(t);
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end()
        })
        .collect();
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    lines[start..end].join("\n")
}

/// `export default class C`, `export default function f`, `export default C;`: marks the
/// symbol that `import x from` binds.
fn mark_default_export(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut c = root.walk();
    for stmt in root.named_children(&mut c).filter(|n| n.kind() == "export_statement") {
        let mut c2 = stmt.walk();
        if !stmt.children(&mut c2).any(|ch| ch.kind() == "default") {
            continue;
        }
        let target = if let Some(decl) = stmt.child_by_field_name("declaration") {
            decl.child_by_field_name("name").map(|n| (n.start_byte() as u32, None))
        } else {
            stmt.child_by_field_name("value")
                .filter(|v| v.kind() == "identifier")
                .map(|v| (0, Some(text(v, b).to_string())))
        };
        let anonymous = stmt.start_byte() as u32;
        for s in facts.symbols.iter_mut().filter(|s| s.parent.is_none()) {
            let hit = match &target {
                Some((at, None)) => s.name_range.start_byte == *at,
                Some((_, Some(name))) => &s.name == name && s.label != Label::Variable,
                None => s.name == "default" && s.range.start_byte >= anonymous && s.range.end_byte <= stmt.end_byte() as u32,
            };
            if hit {
                s.is_default_export = true;
            }
        }
    }
}
