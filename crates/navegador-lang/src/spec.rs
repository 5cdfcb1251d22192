//! Per-language specs: grammar, query file and the few hooks a query cannot express.

use navegador_model::{FileFacts, Label, Language, RefKind, Span, SymbolFact, SymbolIdx};
use tree_sitter::{Node, Point};

/// What the generic extractor needs to know about one language.
pub(crate) struct LangSpec {
    pub grammar: fn() -> tree_sitter::Language,
    pub query: &'static str,
    /// Separator of qualified names (`.` or `::`).
    pub sep: &'static str,
    /// Names that make a method a constructor.
    pub constructors: &'static [&'static str],
    /// The docstring of a definition node, if the language keeps it inside the node.
    pub inner_doc: fn(Node, &[u8]) -> Option<String>,
    /// Whether a definition is visible outside its module.
    pub exported: fn(Node, &str, &[u8]) -> bool,
    /// The module path declared in the file (Java `package`, Go `package`), if any.
    pub declared_module: fn(Node, &[u8]) -> Option<String>,
    /// A last per-language pass over the assembled facts, for what needs more than a
    /// query: receiver types of locals and parameters, export lists, and the like.
    pub post: fn(Node, &str, &mut FileFacts),
}

pub(crate) fn spec(lang: Language) -> &'static LangSpec {
    match lang {
        Language::Python => &PYTHON,
        Language::JavaScript => &JAVASCRIPT,
        Language::TypeScript => &TYPESCRIPT,
        Language::Tsx => &TSX,
        Language::Java => &JAVA,
        Language::Go => &GO,
        Language::Rust => &RUST,
        Language::C => &C,
    }
}

fn no_doc(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_module(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_post(_: Node, _: &str, _: &mut FileFacts) {}
fn text<'a>(n: Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

// ---- Python -------------------------------------------------------------------------

static PYTHON: LangSpec = LangSpec {
    grammar: || tree_sitter_python::LANGUAGE.into(),
    query: include_str!("../queries/python.scm"),
    sep: ".",
    constructors: &["__init__", "__new__"],
    inner_doc: python_doc,
    exported: |_, name, _| !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__")),
    declared_module: no_module,
    post: no_post,
};

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
type Binding = Option<Option<String>>;

/// Declared types of the names of an order-free scope (a module, a class body), by the scope
/// node's id: built once per scope so that many calls in one big scope stay linear.
#[derive(Default)]
struct ScopeCache(std::collections::HashMap<usize, std::collections::HashMap<String, Option<String>>>);

impl ScopeCache {
    fn get(&mut self, scope: Node, name: &str, build: impl FnOnce(Node) -> Vec<(String, Option<String>)>) -> Binding {
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

fn span_of(n: Node) -> Span {
    let (s, e) = (n.start_position(), n.end_position());
    Span {
        start_byte: n.start_byte() as u32,
        end_byte: n.end_byte() as u32,
        start_line: s.row as u32 + 1,
        start_col: s.column as u32,
        end_line: e.row as u32 + 1,
        end_col: e.column as u32,
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
                range: span_of(p),
                name_range: span_of(name),
                docstring: None,
                signature: None,
                class_name: None,
                type_annotation: p.child_by_field_name("type").map(|t| {
                    let t = text(t, b).trim_start_matches(':').trim_start();
                    t.split_whitespace().collect::<Vec<_>>().join(" ")
                }),
                is_async: false,
                is_exported: class_exported && !hidden,
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
fn js_binding(at: Node, name: &str, b: &[u8], cache: &mut ScopeCache) -> Binding {
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

static JAVASCRIPT: LangSpec = LangSpec {
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    query: include_str!("../queries/javascript.scm"),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: js_post,
};

/// `typescript.scm` then `javascript.scm` up to a section line of the latter: the part
/// every TypeScript grammar accepts, or up to the JSX patterns' end for TSX.
const TS_AND_JS: &str =
    concat!(include_str!("../queries/typescript.scm"), "\n", include_str!("../queries/javascript.scm"));

const fn cut_at(s: &'static str, line: &str) -> &'static str {
    let (b, m) = (s.as_bytes(), line.as_bytes());
    let mut i = 0;
    while i + m.len() <= b.len() {
        let mut j = 0;
        while j < m.len() && b[i + j] == m[j] {
            j += 1;
        }
        if j == m.len() {
            let (head, _) = b.split_at(i);
            return match std::str::from_utf8(head) {
                Ok(h) => h,
                Err(_) => panic!("section line inside a character"),
            };
        }
        i += 1;
    }
    panic!("section line missing from javascript.scm")
}

static TYPESCRIPT: LangSpec = LangSpec {
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    query: cut_at(TS_AND_JS, "; ---- JSX (also TSX) ----"),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: ts_post,
};

static TSX: LangSpec = LangSpec {
    grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
    query: cut_at(TS_AND_JS, "; ---- JavaScript grammar only ----"),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: ts_post,
};

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

static JAVA: LangSpec = LangSpec {
    grammar: || tree_sitter_java::LANGUAGE.into(),
    query: include_str!("../queries/java.scm"),
    sep: ".",
    constructors: &[],
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
fn java_find_declarator(decl: Node, name: &str, b: &[u8]) -> Binding {
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
fn java_binding(at: Node, name: &str, b: &[u8], cache: &mut ScopeCache) -> Binding {
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

static GO: LangSpec = LangSpec {
    grammar: || tree_sitter_go::LANGUAGE.into(),
    query: include_str!("../queries/go.scm"),
    sep: ".",
    constructors: &[],
    inner_doc: no_doc,
    exported: |_, name, _| name.chars().next().is_some_and(char::is_uppercase),
    declared_module: |root, src| {
        let mut c = root.walk();
        let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_clause")?;
        let mut c2 = pkg.walk();
        let name = pkg.named_children(&mut c2).find(|n| n.kind() == "package_identifier")?;
        Some(text(name, src).to_string())
    },
    post: no_post,
};

// ---- Rust -----------------------------------------------------------------------------

static RUST: LangSpec = LangSpec {
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    query: include_str!("../queries/rust.scm"),
    sep: "::",
    constructors: &[],
    inner_doc: no_doc,
    exported: |n, _, _| {
        let mut c = n.walk();
        let public = n.children(&mut c).any(|ch| ch.kind() == "visibility_modifier");
        public
    },
    declared_module: no_module,
    post: no_post,
};

// ---- C --------------------------------------------------------------------------------

static C: LangSpec = LangSpec {
    grammar: || tree_sitter_c::LANGUAGE.into(),
    query: include_str!("../queries/c.scm"),
    sep: "::",
    constructors: &[],
    inner_doc: no_doc,
    exported: |n, _, src| {
        let mut c = n.walk();
        let is_static = n
            .children(&mut c)
            .any(|ch| ch.kind() == "storage_class_specifier" && text(ch, src) == "static");
        !is_static
    },
    declared_module: no_module,
    post: no_post,
};

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

/// The module path a file's location implies, before any declaration in the file.
///
/// Python `pkg/sub/mod.py` -> `pkg.sub.mod` (`__init__.py` names its package, a leading
/// `src/` is dropped); Rust `src/a/b.rs` -> `crate::a::b`; JS/TS and C use the path
/// without extension (their imports are paths); Java has only its declared `package`.
pub fn module_path_for(lang: Language, path: &str) -> String {
    let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
    match lang {
        // A Java file without a `package` is in the unnamed package.
        Language::Java => String::new(),
        Language::Python => {
            let stem = stem.strip_prefix("src/").unwrap_or(stem);
            let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
            let stem = if stem == "__init__" { "" } else { stem };
            stem.replace('/', ".")
        }
        Language::Rust => {
            let mut parts: Vec<&str> = stem.split('/').collect();
            if let Some(i) = parts.iter().position(|p| *p == "src") {
                parts.drain(..=i);
            }
            if matches!(parts.last(), Some(&"lib") | Some(&"main") | Some(&"mod")) {
                parts.pop();
            }
            let mut out = String::from("crate");
            for p in parts {
                out.push_str("::");
                out.push_str(p);
            }
            out
        }
        Language::Go => path.rsplit_once('/').map_or("", |(d, _)| d).to_string(),
        _ => stem.to_string(),
    }
}
