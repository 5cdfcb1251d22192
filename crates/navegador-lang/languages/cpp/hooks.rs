//! C++: what the queries cannot say — method kinds (constructor, destructor, static,
//! declaration), private and protected members (an access section is a label before
//! them, not a node around them), the whole path of an out-of-line definition
//! (`void a::T::m()` is `a::T::m`), namespace names, and `using a::b::C;` split into
//! module and name.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;
use crate::preprocess::{is_word, skip_ws};

pub(crate) static HOOKS: Hooks = Hooks {
    post: cpp_post,
    prepare: cpp_prepare,
};

/// Rewrites (same length) what tree-sitter-cpp rejects and the `[preprocess]` rules do not
/// cover: the conditional-compilation lines in the middle of an expression, a parameter list
/// or an initializer (`JSObjectRef obj\n#ifndef NDEBUG\n, counter\n#endif`, `.x =\n#if A\n
/// true,`: both branches stay, as arguments), then default arguments, `__has_include` and
/// the file's own `extern "C"` guards. The annotation macros are the manifest's
/// (`[preprocess] macros`).
fn cpp_prepare(src: &str) -> Option<String> {
    let conditionals = ["#if", "#ifdef", "#ifndef", "#elif", "#elifdef", "#elifndef", "#else", "#endif"];
    match blank_inline_conditionals(src, &conditionals, b",(=") {
        Some(blanked) => Some(cpp_rewrites(&blanked).unwrap_or(blanked)),
        None => cpp_rewrites(src),
    }
}

/// A default argument `x = {})`, `x = {false},`, which the grammar reads as a compound
/// literal without its type, becomes `x = 0 )`, `x = (false),`; `#if __has_include("a/b.h")`,
/// which it rejects, `__has_include(_a_b_h_)`; `#ifdef __cplusplus` / `extern "C" {` /
/// `#endif` and its closing `}` are blanked (braces the grammar cannot pair across the
/// conditional); a C++20 bit-field's default (`bool dirty_ : 1 = false;`, which
/// tree-sitter-cpp 0.23.4, the newest release, rejects) is blanked.
fn cpp_rewrites(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut put = |from: usize, to: usize, byte: u8| {
        let o = out.get_or_insert_with(|| b.to_vec());
        o[from..to].fill(byte);
    };
    for (i, _) in src.match_indices('=') {
        if b.get(i + 1) == Some(&b'=') || (i > 0 && b"=!<>+-*/%&|^".contains(&b[i - 1])) {
            continue;
        }
        let open = skip_ws(b, i + 1);
        if b.get(open) != Some(&b'{') {
            continue;
        }
        if let Some(close) = b[open + 1..].iter().position(|&c| c == b'}' || c == b'{' || c == b';' || c == b'\n').map(|k| open + 1 + k) {
            let end = skip_ws(b, close + 1);
            if b[close] == b'}' && matches!(b.get(end), Some(b')' | b',')) {
                if b[open + 1..close].iter().all(|c| c.is_ascii_whitespace()) {
                    put(open, open + 1, b'0');
                    put(close, close + 1, b' ');
                } else {
                    put(open, open + 1, b'(');
                    put(close, close + 1, b')');
                }
            }
        }
    }
    for (w1, _) in src.match_indices("__has_include").map(|(i, w)| (i + w.len(), w)) {
        let open = skip_ws(b, w1);
        if b.get(open) == Some(&b'(') && !b.get(w1).is_some_and(|&c| is_word(c)) {
            let mut j = open + 1;
            while j < b.len() && b[j] != b')' && b[j] != b'\n' {
                if !is_word(b[j]) && b[j] != b' ' {
                    put(j, j + 1, b'_');
                }
                j += 1;
            }
        }
    }
    let lines: Vec<(usize, &str)> = src.split_inclusive('\n').scan(0, |at, l| {
        let start = *at;
        *at += l.len();
        Some((start, l))
    }).collect();
    for w in lines.windows(3) {
        let guard = w[0].1.trim();
        if (guard == "#ifdef __cplusplus" || guard == "#if defined(__cplusplus)") && w[2].1.trim_start().starts_with("#endif") {
            let body = w[1].1.trim();
            if body == "extern \"C\" {" || body == "}" || body == "} // extern \"C\"" {
                let (at, l) = w[1];
                put(at, at + l.trim_end().len(), b' ');
            }
        }
    }
    for &(at, l) in &lines {
        if let Some((from, to)) = bit_field_default(l) {
            put(at + from, at + to, b' ');
        }
    }
    out.map(|o| String::from_utf8(o).expect("only ASCII bytes were replaced"))
}

fn cpp_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let parent = facts.symbols[i].parent.map(|p| (facts.symbols[p as usize].kind, facts.symbols[p as usize].qualified_name.clone()));
        let outer = facts.symbols[i].parent.map(|p| facts.symbols[p as usize].label);
        let sym = &mut facts.symbols[i];
        if matches!(sym.label, Label::Class | Label::Function | Label::Method | Label::Module) {
            sym.type_annotation = None;
        }
        let declaration = matches!(node.kind(), "declaration" | "field_declaration");
        // `operator bool() const` is named `operator bool`
        if let Some(cast) = node.child_by_field_name("declarator").filter(|d| d.kind() == "operator_cast") {
            if let Some(t) = cast.child_by_field_name("type") {
                sym.name = format!("operator {}", squash_ws(text(t, b)));
                if let Some((q, _)) = sym.qualified_name.rsplit_once("::") {
                    sym.qualified_name = format!("{q}::{}", sym.name);
                } else {
                    sym.qualified_name = sym.name.clone();
                }
            }
        }
        match sym.label {
            Label::Module => {
                // `namespace a::b {…}` is named b, qualified …::a::b
                if let Some(last) = sym.name.rsplit("::").next() {
                    sym.name = last.trim().to_string();
                }
            }
            Label::Function | Label::Method => {
                if declaration {
                    sym.kind = Some("declaration");
                    sym.signature = sym.signature.take().map(|s| s.trim_end_matches(';').trim_end().to_string());
                }
                if sym.label == Label::Method && !declaration {
                    let owner = sym.class_name.as_deref().map(|c| c.rsplit("::").next().unwrap_or(c));
                    sym.kind = Some(if sym.name.starts_with('~') {
                        "destructor"
                    } else if owner == Some(sym.name.as_str()) {
                        "constructor"
                    } else if has_static(node, b) {
                        "static"
                    } else {
                        "method"
                    });
                }
                // `void a::T::m() {…}` outside T's body: qualified by the path as written
                // (relative to the namespaces it is written in)
                if let Some(path) = qualified_declarator(node, b) {
                    let mut names = Vec::new();
                    let mut up = node.parent();
                    while let Some(n) = up {
                        if let Some(name) = n.child_by_field_name("name").filter(|_| n.kind() == "namespace_definition") {
                            names.push(squash_ws(text(name, b)));
                        }
                        up = n.parent();
                    }
                    names.reverse();
                    names.push(path);
                    sym.qualified_name = names.join("::");
                }
            }
            _ => {}
        }
        // `private:` / `protected:` members (a class's are private until a label says
        // otherwise) are not visible outside it
        if matches!(outer, Some(Label::Class)) && !matches!(parent.as_ref().and_then(|p| p.0), Some("enum")) {
            // (a `static` member is the class's, not file-local)
            if let Some(access) = access_of(node, b) {
                sym.is_exported = access == "public";
            }
        }
    }
    // `using a::b::C;` -> module a::b, name C; a `using` in a class body (`using Base::f;`)
    // re-declares a member and imports nothing
    let mut in_class = Vec::new();
    walk(root, &mut |n| {
        if n.kind() == "using_declaration" && n.parent().is_some_and(|p| p.kind() == "field_declaration_list") {
            in_class.push(n.start_position().row as u32 + 1);
        }
    });
    facts.imports.retain(|imp| !in_class.contains(&imp.line));
    // A prototype inside a function (`std::thread t(run);`) declares a local.
    let local = |f: &FileFacts, i: usize| {
        f.symbols[i].kind == Some("declaration")
            && f.symbols[i].parent.is_some_and(|p| matches!(f.symbols[p as usize].label, Label::Function | Label::Method))
    };
    let gone: Vec<bool> = (0..facts.symbols.len()).map(|i| local(facts, i)).collect();
    if gone.iter().any(|g| *g) {
        remove_symbols(facts, &gone);
    }
    // `#if __has_include(…)` / `defined(X)` test the preprocessor, they call nothing
    facts.refs.retain(|r| !(r.from.is_none() && PREPROCESSOR_TESTS.contains(&r.name.as_str())));
    // `T<int>::make()`: the receiver is the template T
    for r in &mut facts.refs {
        if let Some(recv) = r.receiver.as_mut().filter(|r| r.contains('<')) {
            *recv = drop_template_args(recv);
        }
    }
    for imp in &mut facts.imports {
        if imp.name.is_none() {
            if let Some((m, n)) = imp.module.rsplit_once("::") {
                let (m, n) = (m.trim().to_string(), n.trim().to_string());
                imp.module = m;
                imp.name = Some(n);
            }
        }
    }
}

/// Removes the symbols marked `gone` (none of which is another's parent); what they held
/// moves to their parent.
fn remove_symbols(facts: &mut FileFacts, gone: &[bool]) {
    let mut new_idx = Vec::with_capacity(gone.len());
    let mut n = 0;
    for &g in gone {
        new_idx.push(n);
        if !g {
            n += 1;
        }
    }
    let parents: Vec<Option<u32>> = facts.symbols.iter().map(|s| s.parent).collect();
    let map = |i: u32| -> Option<u32> {
        let mut i = Some(i);
        while let Some(j) = i.filter(|&j| gone[j as usize]) {
            i = parents[j as usize];
        }
        i.map(|j| new_idx[j as usize])
    };
    for r in &mut facts.refs {
        r.from = r.from.and_then(map);
    }
    let mut k = 0;
    facts.symbols.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
    for s in &mut facts.symbols {
        s.parent = s.parent.and_then(map);
    }
}

/// What a `#if` condition calls.
const PREPROCESSOR_TESTS: &[&str] =
    &["defined", "__has_include", "__has_include_next", "__has_builtin", "__has_feature", "__has_attribute", "__has_cpp_attribute", "__has_extension"];

fn has_static(node: Node, b: &[u8]) -> bool {
    named_children(node).iter().any(|c| c.kind() == "storage_class_specifier" && text(*c, b) == "static")
}

/// The access section a member is in: the last `public:` / `private:` / `protected:` label
/// before it in its class body, or the default of the class (`class`: private, `struct`
/// and `union`: public).
fn access_of(node: Node, b: &[u8]) -> Option<&'static str> {
    let mut n = node;
    while let Some(p) = n.parent().filter(|p| p.kind() == "template_declaration") {
        n = p;
    }
    let body = n.parent().filter(|p| p.kind() == "field_declaration_list")?;
    let mut prev = n.prev_sibling();
    while let Some(p) = prev {
        if p.kind() == "access_specifier" {
            return Some(match text(p, b).trim() {
                "private" => "private",
                "protected" => "protected",
                _ => "public",
            });
        }
        prev = p.prev_sibling();
    }
    Some(if body.parent().is_some_and(|c| c.kind() == "class_specifier") { "private" } else { "public" })
}

/// The path of an out-of-line definition's name (`a::T<int>::m` -> `a::T::m`).
fn qualified_declarator(node: Node, b: &[u8]) -> Option<String> {
    if node.kind() != "function_definition" {
        return None;
    }
    let mut d = node.child_by_field_name("declarator")?;
    for _ in 0..8 {
        match d.kind() {
            "function_declarator" | "pointer_declarator" => d = d.child_by_field_name("declarator")?,
            "reference_declarator" => d = d.named_child(0)?,
            "qualified_identifier" => return Some(drop_template_args(text(d, b))),
            _ => return None,
        }
    }
    None
}

/// `a::T<int, U<V>>::m` -> `a::T::m`.
fn drop_template_args(s: &str) -> String {
    if s.contains("operator") {
        return squash_ws(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out
}

/// In `T name : 3 = v;` (a member line), the range of ` = v`.
fn bit_field_default(l: &str) -> Option<(usize, usize)> {
    let b = l.as_bytes();
    let semi = l.rfind(';')?;
    if l.contains(['(', '"', '?', '{']) || l.trim_start().starts_with(['#', '/']) {
        return None;
    }
    let colon = (1..semi).find(|&k| b[k] == b':' && b[k - 1] != b':' && b.get(k + 1) != Some(&b':'))?;
    let digits = skip_ws(b, colon + 1);
    let end = digits + b[digits..semi].iter().take_while(|c| c.is_ascii_digit()).count();
    let eq = skip_ws(b, end);
    (end > digits && b.get(eq) == Some(&b'=') && b[..colon].iter().any(|&c| is_word(c))).then_some((eq, semi))
}
