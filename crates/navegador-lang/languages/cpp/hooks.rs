//! C++: what the queries cannot say — method kinds (constructor, destructor, static,
//! declaration), private and protected members (an access section is a label before
//! them, not a node around them), the whole path of an out-of-line definition
//! (`void a::T::m()` is `a::T::m`), namespace names, and `using a::b::C;` split into
//! module and name.

use navegador_model::{FileFacts, ImportFact, Label};
use tree_sitter::Node;

use navegador_model::brackets::{matching, Brackets};

use crate::hooks::*;
use crate::preprocess::{code_mask, is_macro, is_word, skip_ws, word_end};

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
    let blanked = blank_inline_conditionals(src, &conditionals, b",(=");
    let text = blanked.as_deref().unwrap_or(src);
    let rewritten = cpp_rewrites(text);
    let text = rewritten.as_deref().unwrap_or(text);
    grammar_shapes(text).or(rewritten).or(blanked)
}

/// Same-length rewrites of C++ that tree-sitter-cpp 0.23.4 (the newest release) does not
/// read, into shapes it reads with the same facts (names are read from the original text,
/// so a name rewritten in place keeps its spelling):
/// - pointer-to-member types and operators: `R (C::*)(A)`, `R (C::*m)(A)` read as `R (   *)(A)`,
///   a plain function pointer; `(obj->*m)(x)`, `(obj.*m)(x)` as `(obj-> m)(x)`;
/// - an explicit operator call `x.operator T()`, `p->operator==(y)`, `operator=(o);` (a
///   statement): the operator's name reads as one identifier (`operator_T`, `operator__`);
/// - a lambda's init-capture with braces, `[d{std::move(x)}]` as `[d=std::move(x) ]`,
///   `[v = {a, b}]` as `[v = (a, b)]`;
/// - `using a::b, a::c;` (C++17) as `using a::b; a::c;` (the post hook imports each name);
/// - a macro declaring a method from its return type, name, parenthesized parameters and
///   parenthesized specifiers, gMock's `MOCK_METHOD(void, f, (int x), (const, override));`,
///   as the declaration it stands for, `void f (int x) const override ;`.
fn grammar_shapes(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let (code, _) = code_mask(b);
    let mut out = b.to_vec();
    let live = |k: usize| code.get(k).copied().unwrap_or(false);
    // the last code byte before `i` (spaces skipped)
    let before = |i: usize| (0..i).rev().find(|&k| live(k) && !b[k].is_ascii_whitespace());
    let how = Brackets { code: Some(&code), window: 8192, ..Default::default() };
    let mut i = 0;
    while i < b.len() {
        if !live(i) {
            i += 1;
            continue;
        }
        let c = b[i];
        // `(C::*` / `(a::C::*`: a pointer to a member of C
        if c == b'(' {
            let n = skip_ws(b, i + 1);
            let mut k = n;
            let mut scoped = false;
            while k < b.len() && (is_word(b[k]) || b[k] == b':') {
                scoped |= b[k] == b':';
                k += 1;
            }
            if scoped && k > n && b[k - 1] == b':' && b.get(skip_ws(b, k)) == Some(&b'*') && !b[n].is_ascii_digit() {
                out[n..k].fill(b' ');
            }
        }
        // `->*`, `.*`: member pointers applied
        if c == b'*' && i >= 2 && (b[i - 1] == b'.' || b[i - 1] == b'>' && b[i - 2] == b'-') {
            let obj = if b[i - 1] == b'.' { i - 1 } else { i - 2 };
            let named = before(obj).is_some_and(|k| b[k] == b')' || b[k] == b']' || is_word(b[k]) && !(0..=k).rev().take_while(|&j| is_word(b[j]) || b[j] == b'.').last().is_some_and(|s| b[s].is_ascii_digit()));
            if named && b.get(i + 1).is_some_and(|&c| is_word(c) || c == b'(') {
                out[i] = b' ';
            }
        }
        if c.is_ascii_alphabetic() && (i == 0 || !is_word(b[i - 1])) {
            let e = word_end(b, i);
            let word = &b[i..e];
            if word == b"operator" {
                operator_call(b, &live, &before, &mut out, i, e);
            } else if word == b"using" {
                using_list(b, &live, &mut out, e);
            } else if is_macro(word) && before(i).is_none_or(|k| matches!(b[k], b';' | b'{' | b'}' | b':')) {
                mock_declaration(b, &how, &mut out, i, e);
            }
            i = e;
            continue;
        }
        if c == b'[' && before(i).is_some_and(|k| matches!(b[k], b'(' | b',' | b'=' | b'{' | b';' | b'}') || b[..=k].ends_with(b"return")) {
            if let Some(close) = matching(b, i, &Brackets { all_kinds: true, stop: b";", ..how }) {
                let after = skip_ws(b, close + 1);
                if matches!(b.get(after), Some(b'(' | b'{' | b'<')) || b[after..].starts_with(b"mutable") || b[after..].starts_with(b"->") {
                    init_captures(b, &how, &mut out, i, close);
                }
            }
        }
        i += 1;
    }
    (out != b).then(|| String::from_utf8(out).expect("only ASCII bytes were replaced"))
}

/// `x.operator T()`, `p->operator==(y)`, `operator=(o);` (`operator` at `i..e`): what names the
/// operator, up to the call's `(`, reads `_` (`operator()(x)`: its `()` too).
fn operator_call(b: &[u8], live: &impl Fn(usize) -> bool, before: &impl Fn(usize) -> Option<usize>, out: &mut [u8], i: usize, e: usize) {
    let member = before(i).is_some_and(|k| b[k] == b'.' || b[k] == b'>' && k > 0 && b[k - 1] == b'-');
    let symbolic = b.get(skip_ws(b, e)).is_some_and(|&c| b"=!<>+-*/%&|^~[(,".contains(&c));
    let statement = before(i).is_none_or(|k| matches!(b[k], b';' | b'{' | b'}'));
    if !member && !symbolic {
        // `operator U() && = delete;`: a conversion's `= delete` / `= default`, which the
        // grammar does not read, is blanked (the declaration stays)
        let Some(open) = (e..b.len().min(e + 256)).find(|&k| live(k) && matches!(b[k], b'(' | b';' | b'{')).filter(|&k| b[k] == b'(') else { return };
        let Some(close) = (open..b.len().min(open + 256)).find(|&k| live(k) && b[k] == b')') else { return };
        let mut k = skip_ws_lines(b, close + 1);
        loop {
            let we = word_end(b, k);
            if matches!(&b[k..we], b"const" | b"volatile" | b"noexcept") {
                k = skip_ws_lines(b, we);
            } else if b.get(k) == Some(&b'&') {
                k = skip_ws_lines(b, k + 1);
            } else {
                break;
            }
        }
        if b.get(k) == Some(&b'=') && b.get(k + 1) != Some(&b'=') {
            let w = skip_ws_lines(b, k + 1);
            let we = word_end(b, w);
            if matches!(&b[w..we], b"delete" | b"default") && b.get(skip_ws_lines(b, we)) == Some(&b';') {
                out[k..we].fill(b' ');
            }
        }
        return;
    }
    if !(member || statement) {
        return;
    }
    let mut k = e;
    if b[k..].starts_with(b"()") || b[k..].starts_with(b"[]") {
        k += 2;
    }
    while k < b.len() && live(k) && b[k] != b'(' && (is_word(b[k]) || b" \t=!<>+-*/%&|^~[]:".contains(&b[k])) {
        k += 1;
    }
    if b.get(k) == Some(&b'(') && k > e {
        for j in e..k {
            if !is_word(b[j]) {
                out[j] = b'_';
            }
        }
    }
}

/// `using a::b, a::c;` (after `using` at `e`): the commas read `;`.
fn using_list(b: &[u8], live: &impl Fn(usize) -> bool, out: &mut [u8], e: usize) {
    let Some(semi) = (e..b.len().min(e + 4096)).find(|&k| live(k) && !(is_word(b[k]) || b[k].is_ascii_whitespace() || matches!(b[k], b':' | b','))) else { return };
    let first = skip_ws_lines(b, e);
    if b[semi] != b';' || &b[first..word_end(b, first)] == b"namespace" {
        return;
    }
    for k in e..semi {
        if b[k] == b',' && live(k) {
            out[k] = b';';
        }
    }
}

/// A lambda's captures `b[open..=close]`: `d{x}` reads `d=x `, `v = {a, b}` `v = (a, b)`.
fn init_captures(b: &[u8], how: &Brackets, out: &mut [u8], open: usize, close: usize) {
    let mut k = open + 1;
    while k < close {
        if b[k] == b'{' {
            let Some(end) = matching(b, k, &Brackets { all_kinds: true, ..*how }).filter(|&e| e < close) else { return };
            let p = (open + 1..k).rev().find(|&j| !b[j].is_ascii_whitespace());
            match p.map(|j| b[j]) {
                Some(c) if is_word(c) => {
                    out[k] = b'=';
                    out[end] = b' ';
                }
                Some(b'=') if b[k + 1..end].iter().all(u8::is_ascii_whitespace) => {
                    out[k] = b'0';
                    out[end] = b' ';
                }
                Some(b'=') => {
                    out[k] = b'(';
                    out[end] = b')';
                }
                _ => return,
            }
            k = end + 1;
        } else if matches!(b[k], b'(' | b'[') {
            let Some(end) = matching(b, k, &Brackets { all_kinds: true, ..*how }).filter(|&e| e < close) else { return };
            k = end + 1;
        } else {
            k += 1;
        }
    }
}

/// `MOCK_METHOD(R, f, (A a, B b), (const, override));` (the macro at `i..e`, at a
/// statement's start): a return type (parenthesized when it holds commas), a name, a
/// parenthesized parameter list and optionally parenthesized specifiers, read as the
/// declaration `R f (A a, B b) const override ;`; what the specifiers hold besides `const`,
/// `override`, `noexcept` and `final` (gMock's `Calltype(…)`, `ref(&)`) is blanked.
fn mock_declaration(b: &[u8], how: &Brackets, out: &mut [u8], i: usize, e: usize) {
    let open = skip_ws(b, e);
    if b.get(open) != Some(&b'(') {
        return;
    }
    let Some(close) = matching(b, open, &Brackets { all_kinds: true, stop: b";{}", ..*how }) else { return };
    if b.get(skip_ws(b, close + 1)) != Some(&b';') {
        return;
    }
    // the arguments at the top level
    let mut args = Vec::new();
    let mut k = open + 1;
    let mut from = k;
    while k < close {
        match b[k] {
            b'(' | b'[' | b'{' | b'<' => {
                let Some(end) = matching(b, k, &Brackets { all_kinds: true, ..*how }).filter(|&e| e < close) else { return };
                k = end + 1;
            }
            b',' => {
                args.push((from, k));
                k += 1;
                from = k;
            }
            _ => k += 1,
        }
    }
    args.push((from, close));
    let trimmed = |&(s, t): &(usize, usize)| {
        let s = skip_ws_lines(b, s);
        let t = (s..t).rev().find(|&j| !b[j].is_ascii_whitespace()).map_or(s, |j| j + 1);
        (s, t)
    };
    let args: Vec<(usize, usize)> = args.iter().map(trimmed).collect();
    let parenthesized = |(s, t): (usize, usize)| t > s + 1 && b[s] == b'(' && b[t - 1] == b')';
    if !matches!(args.len(), 3 | 4) || !parenthesized(args[2]) || args.len() == 4 && !parenthesized(args[3]) {
        return;
    }
    let (n0, n1) = args[1];
    if n1 == n0 || word_end(b, n0) != n1 || b[n0].is_ascii_digit() || args[0].1 == args[0].0 {
        return;
    }
    if args.get(3).is_some_and(|&(s, t)| b[s..t].contains(&b'\n')) {
        return;
    }
    out[i..=open].fill(b' ');
    if parenthesized(args[0]) {
        out[args[0].0] = b' ';
        out[args[0].1 - 1] = b' ';
    }
    out[args[0].1..n0].iter_mut().filter(|c| **c == b',').for_each(|c| *c = b' ');
    out[n1..args[2].0].iter_mut().filter(|c| **c == b',').for_each(|c| *c = b' ');
    if let Some(&(s, t)) = args.get(3) {
        out[args[2].1..s].iter_mut().filter(|c| **c == b',').for_each(|c| *c = b' ');
        // (in the order C++ wants them: `(override, const)` reads `const override`)
        let mut kept: Vec<&[u8]> = Vec::new();
        let mut j = s;
        while j < t {
            let we = word_end(b, j);
            if we > j && matches!(&b[j..we], b"const" | b"override" | b"noexcept" | b"final") {
                kept.push(&b[j..we]);
                j = we;
            } else {
                j += 1;
            }
        }
        let rank = |w: &[u8]| [b"const".as_slice(), b"noexcept", b"override", b"final"].iter().position(|r| *r == w);
        kept.sort_by_key(|w| rank(w));
        out[s..t].fill(b' ');
        let mut at = s + 1;
        for w in kept {
            out[at..at + w.len()].copy_from_slice(w);
            at += w.len() + 1;
        }
    }
    out[close] = b' ';
}

fn skip_ws_lines(b: &[u8], from: usize) -> usize {
    from + b[from.min(b.len())..].iter().take_while(|c| c.is_ascii_whitespace()).count()
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
                    // gMock's `MOCK_METHOD(R, f, (A), (const))`, read as `R f (A) const`
                    // (`grammar_shapes`): the signature is the macro's, as written
                    let start = node.start_byte();
                    let mut k = start;
                    while k > 0 && (b[k - 1].is_ascii_whitespace() || b[k - 1] == b'(') {
                        k -= 1;
                    }
                    let word = (0..k).rev().take_while(|&j| is_word(b[j])).last();
                    if let Some(w) = word.filter(|&w| is_macro(&b[w..k]) && b[k..start].contains(&b'(')) {
                        sym.signature = sym.signature.take().map(|s| format!("{}{s}", squash_ws(&src[w..start])));
                    }
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
    // `using a::b, a::c;`, read as `using a::b; a::c;` (`grammar_shapes`): each name after a
    // comma is imported too
    let mut listed = Vec::new();
    walk(root, &mut |n| {
        if n.kind() != "using_declaration" || n.end_byte() == 0 || b.get(n.end_byte() - 1) != Some(&b',') || in_class.contains(&(n.start_position().row as u32 + 1)) {
            return;
        }
        // (each name after it is an expression statement, or at the top level the name
        // alone, its `;` a sibling)
        let mut next = n.next_named_sibling();
        while let Some(s) = next {
            let id = if s.kind() == "expression_statement" { s.named_child(0) } else { Some(s) };
            let Some(id) = id.filter(|c| matches!(c.kind(), "identifier" | "qualified_identifier")) else { break };
            let p = id.start_position();
            listed.push(ImportFact { module: squash_ws(text(id, b)), name: None, alias: None, line: p.row as u32 + 1, column: p.column as u32 });
            if b.get(skip_ws_lines(b, id.end_byte())) != Some(&b',') {
                break;
            }
            next = s.next_named_sibling();
        }
    });
    facts.imports.extend(listed);
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
