//! Rust: `use` trees, attributes and doc comments (siblings of an item), impls of types
//! declared in other files, tuple-struct constructors as `new`, calls inside macro
//! arguments.

use navegador_model::{FileFacts, ImportFact, Label, RefFact, RefKind};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
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
            arity: None,
            arg_types: None,
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
