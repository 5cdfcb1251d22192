//! Scala: imports split into module and name (`import a.b.C`, `import a.b.{C, D => E}`,
//! `import a.b._` / `a.b.*`), which the grammar gives as a flat list of identifiers; chained
//! `package a` / `package b` clauses are the package `a.b`; a companion `object X` beside
//! `class X` (or `trait X`) is one class with it, its members `static`; signatures end where
//! the body starts.

use navegador_model::{FileFacts, ImportFact, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: scala_post,
    prepare: no_prepare,
};

fn scala_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    chained_packages(root, b, facts);
    companions(root, facts);
    let mut imports = Vec::new();
    walk(root, &mut |n| {
        if n.kind() == "import_declaration" {
            imports_of(n, b, &mut imports);
        }
    });
    facts.imports = imports;
    // A signature is the head: `def f(x: Int): Int = …` is `def f(x: Int): Int`
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let sym = &mut facts.symbols[i];
        let Some(sig) = &mut sym.signature else { continue };
        if let Some(body) = node.child_by_field_name("body") {
            let head = src.get(node.start_byte()..body.start_byte()).unwrap_or("");
            let head = squash_ws(head.trim_end().trim_end_matches(['=', ':']).trim_end());
            if !head.is_empty() && head.len() < sig.len() {
                *sig = head;
            }
        }
        *sig = strip_annotations(sig).to_string();
    }
}

/// `package a.b` then `package c` (no braces) is package `a.b.c`: the extractor took the
/// first clause; the names under it move to the whole one.
fn chained_packages(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut c = root.walk();
    let parts: Vec<String> = root
        .named_children(&mut c)
        .filter(|n| n.kind() == "package_clause" && n.child_by_field_name("body").is_none())
        .filter_map(|n| n.child_by_field_name("name").map(|p| text(p, b).split_whitespace().collect()))
        .collect();
    if parts.len() < 2 {
        return;
    }
    let full = parts.join(".");
    let Some(old) = facts.module.replace(full.clone()) else { return };
    let prefix = format!("{old}.");
    for sym in &mut facts.symbols {
        if let Some(rest) = sym.qualified_name.strip_prefix(&prefix) {
            sym.qualified_name = format!("{full}.{rest}");
        }
    }
}

/// `class Item` and its companion `object Item` (same scope, same name) are one class:
/// the object's members are the class's `static` ones (`Item.empty()`, as Java calls them),
/// and the class keeps the first's place.
fn companions(root: Node, facts: &mut FileFacts) {
    let is_object = |facts: &FileFacts, i: usize| def_node(root, &facts.symbols[i]).is_some_and(|n| n.kind() == "object_definition");
    let mut i = 0;
    while i < facts.symbols.len() {
        let s = &facts.symbols[i];
        let pair = (s.label == Label::Class)
            .then(|| {
                (i + 1..facts.symbols.len()).find(|&j| {
                    let t = &facts.symbols[j];
                    t.label == Label::Class && t.qualified_name == s.qualified_name && t.parent == s.parent && is_object(facts, j) != is_object(facts, i)
                })
            })
            .flatten();
        let Some(j) = pair else {
            i += 1;
            continue;
        };
        let object = if is_object(facts, i) { i } else { j };
        for m in &mut facts.symbols {
            if m.parent == Some(object as u32) && m.label == Label::Method && m.kind == Some("method") {
                m.kind = Some("static");
            }
        }
        if object == i {
            // the class's own head is the one to keep: `case class Item(…)`, not `object Item`
            let (kind, sig, doc) = (facts.symbols[j].kind, facts.symbols[j].signature.clone(), facts.symbols[j].docstring.clone());
            let s = &mut facts.symbols[i];
            (s.kind, s.signature, s.docstring) = (kind, sig, doc.or(s.docstring.take()));
        }
        fold_symbol(facts, i, j);
        i += 1;
    }
}

/// One import per name: `import a.b.C` -> module `a.b`, name `C`; `import a.b._` (or `*`)
/// -> name `*`; `import a.b.{C, D => E, F => _}` -> `C`, `D` as `E` (a hidden `F` imports
/// nothing); `import a.b.C as D` (Scala 3) -> alias `D`; `import a, b` gives each. Module +
/// `.` + name is the target's qualified name, as for Java.
fn imports_of(imp: Node, b: &[u8], out: &mut Vec<ImportFact>) {
    let line = imp.start_position().row as u32 + 1;
    let column = imp.start_position().column as u32;
    let mut path: Vec<&str> = Vec::new();
    let mut push = |module: String, name: Option<String>, alias: Option<String>| {
        if !module.is_empty() || name.is_some() {
            out.push(ImportFact { module, name, alias, line, column });
        }
    };
    let mut c = imp.walk();
    let kids: Vec<Node> = imp.children(&mut c).collect();
    let mut pending = false;
    for (i, k) in kids.iter().enumerate() {
        let field = imp.field_name_for_child(i as u32);
        match k.kind() {
            "identifier" if field == Some("path") => {
                path.push(text(*k, b));
                pending = true;
            }
            "namespace_wildcard" => {
                push(path.join("."), Some("*".into()), None);
                pending = false;
            }
            "namespace_selectors" => {
                let mut sc = k.walk();
                for s in k.named_children(&mut sc) {
                    match s.kind() {
                        "identifier" | "operator_identifier" => push(path.join("."), Some(text(s, b).into()), None),
                        "namespace_wildcard" => push(path.join("."), Some("*".into()), None),
                        "arrow_renamed_identifier" | "as_renamed_identifier" => {
                            let name = s.child_by_field_name("name").map(|n| text(n, b).to_string());
                            let alias = s.child_by_field_name("alias").map(|n| text(n, b).to_string());
                            if alias.as_deref() != Some("_") {
                                push(path.join("."), name, alias);
                            }
                        }
                        _ => {}
                    }
                }
                pending = false;
            }
            "as_renamed_identifier" => {
                let name = k.child_by_field_name("name").map(|n| text(n, b).to_string());
                let alias = k.child_by_field_name("alias").map(|n| text(n, b).to_string());
                push(path.join("."), name, alias);
                pending = false;
            }
            "," => {
                if pending {
                    split_last(&path, &mut push);
                }
                path.clear();
                pending = false;
            }
            _ => {}
        }
    }
    if pending {
        split_last(&path, &mut push);
    }
}

fn split_last(path: &[&str], push: &mut impl FnMut(String, Option<String>, Option<String>)) {
    match path.split_last() {
        Some((last, rest)) if !rest.is_empty() => push(rest.join("."), Some(last.to_string()), None),
        Some((last, _)) => push(last.to_string(), None, None),
        None => {}
    }
}
