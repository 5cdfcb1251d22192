//! Kotlin: imports split into module and name (`import a.b.C as D`), which the grammar
//! gives as one flat list of identifiers; an unnamed companion object is `Companion` and
//! its functions are `static`; a top-level extension function is a method of its receiver
//! type declared outside it; annotations the grammar misreads as an annotated expression
//! before a declaration are the declaration's; signatures without annotations; a
//! property's declared type (`class A(val repo: Repo)`: field `repo` of type `Repo`).

use navegador_model::{FileFacts, ImportFact, Label, RefFact, RefKind};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: kotlin_post,
    prepare: no_prepare,
};

/// `import a.b.C` -> module `a.b`, name `C`; `import a.b.*` -> module `a.b`, name `*`;
/// `import a.b.C as D` -> alias `D`. Module + `.` + name is the target's qualified name,
/// as for Java.
fn kotlin_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    let mut imports = Vec::new();
    let mut c = root.walk();
    for imp in root.named_children(&mut c).filter(|n| n.kind() == "import") {
        let mut ic = imp.walk();
        let kids: Vec<Node> = imp.children(&mut ic).collect();
        let Some(path) = kids.iter().find(|k| k.kind() == "qualified_identifier") else { continue };
        let star = kids.iter().any(|k| k.kind() == "*");
        let alias = kids.iter().skip_while(|k| k.kind() != "as").find(|k| k.kind() == "identifier").map(|a| text(*a, b).to_string());
        let full = text(*path, b).split_whitespace().collect::<String>();
        let (module, name) = match (star, full.rsplit_once('.')) {
            (true, _) => (full.clone(), "*".to_string()),
            (false, Some((m, n))) => (m.to_string(), n.to_string()),
            (false, None) => (full.clone(), String::new()),
        };
        imports.push(ImportFact {
            module,
            name: (!name.is_empty()).then_some(name),
            alias,
            line: imp.start_position().row as u32 + 1,
            column: imp.start_position().column as u32,
        });
    }
    facts.imports = imports;
    // a property's type is its declaration's: `class A(val repo: Repo)`, `val x: Foo`
    for sym in facts.symbols.iter_mut().filter(|s| s.label == Label::Variable && s.type_annotation.is_none()) {
        sym.type_annotation = property_type(root, sym).map(|t| squash_ws(text(t, b)));
    }
    // `companion object { … }` is the object `Companion`: the query names it by its
    // keyword; the names under it follow
    for i in 0..facts.symbols.len() {
        let in_companion = facts.symbols[i].parent.is_some_and(|p| {
            let p = &facts.symbols[p as usize];
            p.kind == Some("class") && def_node(root, p).is_some_and(|n| n.kind() == "companion_object")
        });
        if in_companion && facts.symbols[i].kind == Some("method") {
            facts.symbols[i].kind = Some("static");
        }
        if facts.symbols[i].name != "companion" || def_node(root, &facts.symbols[i]).is_none_or(|n| n.kind() != "companion_object") {
            continue;
        }
        let old = facts.symbols[i].qualified_name.clone();
        let new = format!("{}Companion", &old[..old.len() - "companion".len()]);
        facts.symbols[i].name = "Companion".to_string();
        for sym in &mut facts.symbols {
            if sym.qualified_name == old {
                sym.qualified_name = new.clone();
            } else if let Some(rest) = sym.qualified_name.strip_prefix(&format!("{old}.")) {
                sym.qualified_name = format!("{new}.{rest}");
            }
            if sym.class_name.as_deref() == Some("companion") {
                sym.class_name = Some("Companion".to_string());
            }
        }
    }
    // `fun Foo.bar()`: a method of `Foo` declared outside it (`class_name`, as Go receivers),
    // still named and imported under its package (`import a.b.bar`)
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        if sym.label != Label::Function || sym.parent.is_some() {
            continue;
        }
        let Some(node) = def_node(root, sym).filter(|n| n.kind() == "function_declaration") else { continue };
        let Some(name) = node.child_by_field_name("name") else { continue };
        let mut c = node.walk();
        let receiver = node
            .children(&mut c)
            .take_while(|k| k.id() != name.id())
            .filter(|k| matches!(k.kind(), "user_type" | "nullable_type" | "parenthesized_type"))
            .last();
        let Some(receiver) = receiver else { continue };
        let ty = text(receiver, b).trim_start_matches('(');
        let ty = ty.split(['<', '?', ')']).next().unwrap_or("").trim();
        let ty = ty.rsplit('.').next().unwrap_or(ty);
        if ty.is_empty() {
            continue;
        }
        // `import a.Order as O; fun O.total()` extends `Order`
        let ty = facts.imports.iter().find(|m| m.alias.as_deref() == Some(ty)).and_then(|m| m.name.clone()).unwrap_or_else(|| ty.to_string());
        let sym = &mut facts.symbols[i];
        sym.label = Label::Method;
        sym.kind = Some("extension");
        sym.class_name = Some(ty);
    }
    misread_annotations(root, b, facts);
    // The grammar names no `body` field: a signature ends where the class or function
    // body starts (`fun f(x: Int): Int = …` is `fun f(x: Int): Int`).
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let sym = &mut facts.symbols[i];
        let Some(sig) = &mut sym.signature else { continue };
        let mut c = node.walk();
        let body = node.children(&mut c).find(|k| matches!(k.kind(), "class_body" | "enum_class_body" | "function_body"));
        if let Some(head) = body.and_then(|b| src.get(node.start_byte()..b.start_byte())) {
            let head = squash_ws(head);
            if head.len() < sig.len() {
                *sig = head;
            }
        }
        *sig = strip_annotations(sig).to_string();
    }
}

/// `@A\n@B("/x")\nclass C` after some declarations is read by tree-sitter-kotlin-ng as an
/// expression `@A @B ("/x")` followed by `class C`: the annotations (the parenthesized
/// expression is the last one's arguments) belong to the declaration that follows.
fn misread_annotations(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut chains = Vec::new();
    walk(root, &mut |n| {
        if n.kind() == "annotated_expression" && n.parent().is_some_and(|p| p.kind() != "annotated_expression") {
            chains.push(n);
        }
    });
    for n in chains {
        let Some(decl) = n.next_named_sibling() else { continue };
        if !matches!(decl.kind(), "class_declaration" | "object_declaration" | "function_declaration" | "property_declaration") {
            continue;
        }
        let mut found: Vec<(String, Option<String>, u32)> = Vec::new();
        let mut at: Vec<(u32, u32)> = Vec::new();
        let mut cur = Some(n);
        while let Some(e) = cur.take() {
            let mut ec = e.walk();
            for k in e.named_children(&mut ec) {
                match k.kind() {
                    "annotation" => {
                        let mut ac = k.walk();
                        let Some(inner) = k.named_children(&mut ac).next() else { continue };
                        let (name, args) = match inner.kind() {
                            "constructor_invocation" => {
                                let mut ic = inner.walk();
                                let kids: Vec<Node> = inner.named_children(&mut ic).collect();
                                let name = kids.iter().find(|x| x.kind() == "user_type").copied();
                                let args = kids.iter().find(|x| x.kind() == "value_arguments").map(|x| squash_ws(text(*x, b)));
                                (name, args)
                            }
                            _ => (Some(inner), None),
                        };
                        if let Some(name) = name {
                            found.push((text(name, b).to_string(), args, k.start_position().row as u32 + 1));
                            at.push((name.start_position().row as u32 + 1, name.start_position().column as u32));
                        }
                    }
                    "annotated_expression" => cur = Some(k),
                    "parenthesized_expression" => {
                        if let Some(last) = found.last_mut().filter(|l| l.1.is_none()) {
                            last.1 = Some(squash_ws(text(k, b)));
                        }
                    }
                    _ => {}
                }
            }
        }
        let (from, to) = (decl.start_byte(), decl.end_byte());
        let Some(si) = facts.symbols.iter().position(|s| s.range.start_byte as usize == from && s.range.end_byte as usize == to) else { continue };
        // each application is also a use of the annotation, as the extractor records it
        for ((name, _, _), (line, column)) in found.iter().zip(&at) {
            let (receiver, name) = match name.rsplit_once('.') {
                Some((r, n)) => (Some(r.to_string()), n.to_string()),
                None => (None, name.clone()),
            };
            facts.refs.push(RefFact { kind: RefKind::Decorator, from: Some(si as u32), name, receiver, receiver_type: None, arity: None, arg_types: None, line: *line, column: *column });
        }
        let sym = &mut facts.symbols[si];
        found.extend(sym.decorators.drain(..));
        sym.decorators = found;
    }
}

/// The declared type of a property (a `val`/`var` constructor parameter, a property
/// declaration): the type node after its name, if one is written.
fn property_type<'t>(root: Node<'t>, sym: &navegador_model::SymbolFact) -> Option<Node<'t>> {
    let name = root.descendant_for_byte_range(sym.name_range.start_byte as usize, sym.name_range.end_byte as usize)?;
    let decl = name.parent().filter(|p| matches!(p.kind(), "class_parameter" | "variable_declaration"))?;
    let mut c = decl.walk();
    let found = decl
        .named_children(&mut c)
        .skip_while(|n| n.id() != name.id())
        .skip(1)
        .find(|n| n.kind().ends_with("_type"));
    found
}
