//! Objective-C: a method is named by its whole selector (`initWithName:style:`), and so is
//! a message send's callee; methods declared in an `@interface` or `@protocol` are
//! `kind=declaration` (the `@implementation`'s definition is the callee), `+` methods
//! `static`; `NS_ENUM(T, Name)` / `NS_OPTIONS(T, Name)` are read as `enum Name`. C's rules
//! (prototypes, typedefs) apply first.

use navegador_model::{FileFacts, Label, RefKind};
use tree_sitter::{Node, Point};

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: objc_post,
    prepare: objc_prepare,
};

fn objc_post(root: Node, src: &str, facts: &mut FileFacts) {
    super::c::c_post(root, src, facts);
    let b = src.as_bytes();
    for sym in facts.symbols.iter_mut().filter(|s| s.label == Label::Method) {
        let Some(node) = symbol_node(root, sym) else { continue };
        if !matches!(node.kind(), "method_definition" | "method_declaration") {
            continue;
        }
        let sel = method_selector(node, b);
        if let Some(prefix) = sym.qualified_name.strip_suffix(sym.name.as_str()) {
            sym.qualified_name = format!("{prefix}{sel}");
        }
        sym.name = sel;
        let class_method = node.child(0).is_some_and(|c| c.kind() == "+");
        sym.kind = Some(match node.kind() {
            "method_declaration" => "declaration",
            _ if class_method => "static",
            _ => "method",
        });
        let head = text(node, b);
        sym.signature = Some(squash_ws(head.split('{').next().unwrap_or(head).trim_end().trim_end_matches(';')));
    }
    // a class-like's signature is its head: `@interface Cart : NSObject <Pricing>`
    for sym in facts.symbols.iter_mut().filter(|s| s.label == Label::Class) {
        let Some(node) = symbol_node(root, sym) else { continue };
        if matches!(node.kind(), "class_interface" | "class_implementation" | "protocol_declaration") {
            let head = text(node, b).lines().next().unwrap_or("");
            sym.signature = Some(squash_ws(head.split('{').next().unwrap_or(head)));
        }
    }
    for r in facts.refs.iter_mut().filter(|r| matches!(r.kind, RefKind::Call | RefKind::Reference)) {
        let at = Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
        let Some(mut n) = root.descendant_for_point_range(at, at) else { continue };
        while n.kind() != "message_expression" {
            match n.parent() {
                Some(p) if p.start_byte() <= n.start_byte() && n.kind() != "compound_statement" => n = p,
                _ => break,
            }
        }
        // `@selector(add:to:)` names the method `add:to:`
        if let Some(sel) = root.descendant_for_point_range(at, at).and_then(|x| x.parent()).filter(|p| p.kind() == "selector_expression") {
            let t = text(sel, b);
            if let (Some(o), Some(c)) = (t.find('('), t.rfind(')')) {
                r.name = t[o + 1..c].split_whitespace().collect();
            }
            continue;
        }
        let first = n.child_by_field_name("method");
        if n.kind() == "message_expression" && first.is_some_and(|m| m.start_position() == at) {
            r.name = message_selector(n, b);
        }
    }
}

/// `- (id)initWithName:(NSString *)n style:(int)s` -> `initWithName:style:`; `- (void)go`
/// -> `go`.
fn method_selector(node: Node, b: &[u8]) -> String {
    let mut sel = String::new();
    for c in named_children(node) {
        match c.kind() {
            "identifier" => sel.push_str(text(c, b)),
            "method_parameter" => sel.push(':'),
            "keyword_declarator" => {
                if let Some(id) = named_children(c).into_iter().find(|k| k.kind() == "identifier") {
                    sel.push_str(text(id, b));
                }
                sel.push(':');
            }
            _ => {}
        }
    }
    sel
}

/// `[c add:x to:y]` -> `add:to:`; `[c count]` -> `count`.
fn message_selector(n: Node, b: &[u8]) -> String {
    let mut c = n.walk();
    let parts: Vec<&str> = n.children_by_field_name("method", &mut c).map(|m| text(m, b)).collect();
    let args = named_children(n).len() > parts.len() + 1;
    if args { parts.iter().map(|p| format!("{p}:")).collect() } else { parts.concat() }
}

/// `typedef NS_ENUM(NSInteger, Mode) {` -> `enum Mode {` in place (same length).
fn objc_prepare(src: &str) -> Option<String> {
    let mut out = src.as_bytes().to_vec();
    let mut changed = member_macros(src.as_bytes(), &mut out);
    changed |= cpp_scopes(src.as_bytes(), &mut out);
    // (on what the passes above made of the text: a member macro's selector is a method's)
    let cur = out.clone();
    changed |= argument_colons(&cur, &mut out);
    changed |= leading_attributes(src.as_bytes(), &mut out);
    for mac in ["NS_ENUM(", "NS_OPTIONS(", "NS_CLOSED_ENUM(", "NS_ERROR_ENUM("] {
        let mut from = 0;
        while let Some(i) = src[from..].find(mac).map(|i| i + from) {
            from = i + mac.len();
            let Some(close) = src[from..].find(')').map(|c| c + from) else { break };
            let args = &src[from..close];
            let Some((_, name)) = args.rsplit_once(',') else { continue };
            if args.contains(['\n', '(']) {
                continue;
            }
            // `typedef` before it on the line goes: `enum Name {…};` declares the enum
            let line_start = src[..i].rfind('\n').map_or(0, |l| l + 1);
            if let Some(t) = src[line_start..i].find("typedef").map(|t| t + line_start) {
                out[t..t + 7].fill(b' ');
            }
            out[i..=close].fill(b' ');
            out[i..i + 4].copy_from_slice(b"enum");
            let name = name.trim();
            let at = close - name.len();
            out[at..close].copy_from_slice(name.as_bytes());
            changed = true;
        }
    }
    changed.then(|| String::from_utf8(out).expect("ASCII replaced by ASCII"))
}

/// Upper-case macro calls that stand for members of an `@implementation` (at its top level,
/// starting a line: `RCT_EXPORT_MODULE()`, `RCT_CONVERTER(T, name, getter);`,
/// `RCT_NOT_IMPLEMENTED(- (instancetype)init)`), rewritten in place (same length, lines
/// kept). One followed by a body is a method head: `RCT_EXPORT_METHOD(add:(id)x) {…}` and
/// `RCT_REMAP_METHOD(js, add:(id)x) {…}` are `-(void)add:(id)x {…}` (the last argument, a
/// keyword selector, is the method), `RCT_CUSTOM_VIEW_PROPERTY(color, T, V) {…}` (no
/// selector) is `-(void)color {…}`, a method named by its first argument. Any other is
/// blanked with its `;`: members the macro expands to, which no text names.
fn member_macros(b: &[u8], out: &mut [u8]) -> bool {
    if !b.windows(15).any(|w| w == b"@implementation") {
        return false;
    }
    let (code, _) = crate::preprocess::code_mask(b);
    let (mut inside, mut depth, mut changed, mut initializer) = (false, 0i32, false, false);
    let mut i = 0;
    while i < b.len() {
        if !code[i] {
            i += 1;
            continue;
        }
        match b[i] {
            b'@' if b[i..].starts_with(b"@implementation") => inside = true,
            b'@' if b[i..].starts_with(b"@end") && depth == 0 => inside = false,
            b'{' => {
                if depth == 0 {
                    initializer = b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).is_some_and(|k| b[k] == b'=');
                }
                depth += 1;
            }
            b'}' => {
                depth -= 1;
                // `static int f(…) {…};` in an `@implementation`: the `;` is none of its members
                let next = b[i + 1..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| i + 1 + k);
                if inside && depth == 0 && !initializer && next.is_some_and(|k| b[k] == b';') {
                    out[next.unwrap()] = b' ';
                    changed = true;
                }
            }
            b'#' => {
                // a directive line (with its `\` continuations) is the preprocessor's
                while i < b.len() && !(b[i] == b'\n' && b[i.saturating_sub(1)] != b'\\') {
                    i += 1;
                }
                continue;
            }
            c if inside && depth == 0 && (c.is_ascii_alphabetic() || c == b'_') && (i == 0 || out[..i].iter().rev().take_while(|&&c| c != b'\n').all(|c| *c == b' ' || *c == b'\t')) => {
                let e = crate::preprocess::word_end(b, i);
                let open = crate::preprocess::skip_ws(b, e);
                // an upper-case macro; or any call no type comes before (`setColor(Top)`,
                // from a lower-case `#define`), where a C function's head would start
                let before = b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).map(|k| b[k]);
                let member = crate::preprocess::is_macro(&b[i..e]) || before.is_some_and(|c| matches!(c, b';' | b'}' | b')'));
                if member && b.get(open) == Some(&b'(') {
                    if let Some(close) = matching_paren(b, &code, open) {
                        rewrite_member_macro(b, &code, out, i, open, close);
                        changed = true;
                        i = close;
                        continue;
                    }
                }
                i = e;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    changed
}

/// One member macro call `b[at..close]`, its `(` at `open`.
fn rewrite_member_macro(b: &[u8], code: &[bool], out: &mut [u8], at: usize, open: usize, close: usize) {
    let blank = |out: &mut [u8], from: usize, to: usize| out[from..to].iter_mut().filter(|c| **c != b'\n').for_each(|c| *c = b' ');
    let body = b[close..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| close + k);
    if body.is_some_and(|k| b[k] == b'{') {
        // the last top-level argument, if it is a keyword selector `add:(id)x …`
        let mut depth = 0;
        let mut last = open + 1;
        for k in (open + 1..close - 1).filter(|&k| code[k]) {
            match b[k] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => last = k + 1,
                _ => {}
            }
        }
        let arg = &b[last..close - 1];
        let first = arg.iter().position(|c| !c.is_ascii_whitespace()).map_or(close - 1, |k| last + k);
        let selector = arg.contains(&b':') && b.get(first).is_some_and(|&c| crate::preprocess::is_word(c));
        if selector && first - at >= 7 {
            blank(out, at, first);
            out[at..at + 7].copy_from_slice(b"-(void)");
            out[close - 1] = b' ';
            return;
        }
        // no selector: the method is named by the first argument, where it stands
        let name = crate::preprocess::skip_ws(b, open + 1);
        let name_end = crate::preprocess::word_end(b, name);
        if name_end > name && name >= at + 7 && !b[name].is_ascii_digit() {
            blank(out, at, close);
            out[at..at + 7].copy_from_slice(b"-(void)");
            out[name..name_end].copy_from_slice(&b[name..name_end]);
            return;
        }
    }
    let end = match body {
        Some(k) if b[k] == b';' && !b[close..k].contains(&b'\n') => k + 1,
        _ => close,
    };
    blank(out, at, end);
}

/// Objective-C++ (`.mm`) read by the Objective-C grammar: a qualified name `facebook::react::T`
/// becomes one identifier `facebook__react__T` (so `std::shared_ptr<T>` reads as a generic
/// type), a reference `const T &x` reads as a pointer, `using namespace a::b;` is blanked, and so are a `namespace a {` head and its
/// closing `}` (what it holds is read as the file's top level). In place, same length.
fn cpp_scopes(b: &[u8], out: &mut [u8]) -> bool {
    if !b.windows(2).any(|w| w == b"::") {
        return false;
    }
    let (code, _) = crate::preprocess::code_mask(b);
    let word = |c: u8| crate::preprocess::is_word(c);
    let mut changed = false;
    let mut closes = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if !code[i] {
            i += 1;
            continue;
        }
        let at_word = i == 0 || !word(b[i - 1]);
        match b[i] {
            b'#' if at_word => {
                // a directive line is the preprocessor's
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b':' if b.get(i + 1) == Some(&b':') && b.get(i + 2).is_some_and(|&c| word(c) || c == b'~') => {
                let joined = i > 0 && word(b[i - 1]);
                out[i..i + 2].copy_from_slice(if joined { b"__" } else { b"  " });
                changed = true;
                i += 2;
                continue;
            }
            // a reference parameter `const T &name` / `(T &)name` reads as a pointer
            b'&' if b[i - 1] == b' ' && b.get(i + 1).is_some_and(|&c| word(c) || c == b')') => {
                let before = b[..i].iter().rposition(|&c| c != b' ').map(|k| b[k]);
                if before.is_some_and(|c| word(c) || c == b'>') {
                    out[i] = b'*';
                    changed = true;
                }
            }
            b'{' => {
                depth += 1;
            }
            b'}' => {
                if closes.last() == Some(&depth) {
                    closes.pop();
                    out[i] = b' ';
                    changed = true;
                }
                depth = depth.saturating_sub(1);
            }
            b'u' if at_word && b[i..].starts_with(b"using namespace ") => {
                if let Some(end) = b[i..].iter().position(|&c| c == b';' || c == b'\n').filter(|&k| b[i + k] == b';') {
                    out[i..=i + end].fill(b' ');
                    changed = true;
                    i += end + 1;
                    continue;
                }
            }
            b'n' if at_word && b[i..].starts_with(b"namespace") && b.get(i + 9).is_some_and(|&c| !word(c)) => {
                // `namespace a::b {` / `namespace {`: the head and, later, its `}`
                let head = b[i..].iter().position(|&c| matches!(c, b'{' | b';' | b'=')).map(|k| i + k);
                if let Some(open) = head.filter(|&k| b[k] == b'{') {
                    out[i..=open].iter_mut().filter(|c| **c != b'\n').for_each(|c| *c = b' ');
                    depth += 1;
                    closes.push(depth);
                    changed = true;
                    i = open + 1;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    changed
}

/// A `:` among a call's arguments that no `?` opens is no C: the call is a macro pasting
/// its arguments into a message or a literal, `RCT_FORWARD(scrollViewDidScroll : view)`
/// into `[listener scrollViewDidScroll : view]`, `ADD_EVENT(t, @"ph" : @"M", @"tid" : x)`
/// into `@{…}`. Each such `:` reads `,` (a space after the call's first selector piece), and
/// the selector piece before it is blanked, so the call's arguments are expressions. Only
/// directly inside a call's parentheses (a word before the `(` that is no keyword, no
/// `@selector`, no `asm` or `_Generic`), not inside a message `[…]`, a block or literal
/// `{…}`, nor on a directive line; `::` is C++'s scope. In place, same length.
fn argument_colons(b: &[u8], out: &mut [u8]) -> bool {
    if !b.contains(&b':') {
        return false;
    }
    let (code, _) = crate::preprocess::code_mask(b);
    let word = |c: u8| crate::preprocess::is_word(c);
    // open brackets: (is a call's `(`, the `?` not yet closed by a `:` inside it)
    let mut open: Vec<(u8, bool, usize)> = Vec::new();
    let mut changed = false;
    let mut line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if !code[i] {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // a directive line (with its `\` continuations) is the preprocessor's
            while i < b.len() && !(b[i] == b'\n' && b[i.saturating_sub(1)] != b'\\') {
                i += 1;
            }
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        match c {
            b'(' => {
                let before = b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).filter(|&k| word(b[k]));
                let call = before.is_some_and(|k| {
                    let start = b[..=k].iter().rposition(|&c| !word(c)).map_or(0, |s| s + 1);
                    let name = &b[start..=k];
                    let at = start > 0 && b[start - 1] == b'@';
                    !at && !b[start].is_ascii_digit() && !NOT_CALLS.contains(&name)
                });
                open.push((b'(', call, 0));
            }
            b'[' | b'{' => open.push((c, false, 0)),
            b')' | b']' | b'}' => {
                open.pop();
            }
            b'?' => {
                if let Some(top) = open.last_mut() {
                    top.2 += 1;
                }
            }
            b':' if b.get(i + 1) == Some(&b':') => {
                i += 2;
                continue;
            }
            b':' if i > 0 && b[i - 1] == b':' => {}
            b':' => match open.last_mut() {
                Some(top) if top.2 > 0 => top.2 -= 1,
                Some((b'(', true, _)) => {
                    // a selector piece before it (`a : b withView : c`) names no value: blanked,
                    // and the `:` a comma only after an argument (`  b          , c`)
                    out[i] = b',';
                    let end = b[..i].iter().rposition(|c| !c.is_ascii_whitespace());
                    if let Some(end) = end.filter(|&k| word(b[k])) {
                        let start = b[..end].iter().rposition(|&c| !word(c)).map_or(0, |s| s + 1);
                        let before = b[..start].iter().rposition(|c| !c.is_ascii_whitespace()).map(|k| b[k]);
                        out[start..=end].fill(b' ');
                        if !before.is_some_and(|c| word(c) || matches!(c, b')' | b']' | b'"')) {
                            out[i] = b' ';
                        }
                    }
                    changed = true;
                }
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    changed
}

/// `__attribute__((…))` starting a line, blanked here (the `[preprocess]` `blank_calls`
/// would blank it too) so that a macro after it starts the line as the `macros` rule reads
/// one: `__attribute__((used)) RCT_EXTERN void f(…)`. In place, same length.
fn leading_attributes(b: &[u8], out: &mut [u8]) -> bool {
    if !b.windows(13).any(|w| w == b"__attribute__") {
        return false;
    }
    let (code, _) = crate::preprocess::code_mask(b);
    let mut changed = false;
    let mut at = 0;
    for line in b.split_inclusive(|&c| c == b'\n') {
        let lead = line.iter().take_while(|c| **c == b' ' || **c == b'\t').count();
        let i = at + lead;
        at += line.len();
        if !code.get(i).is_some_and(|&c| c) || !b[i..].starts_with(b"__attribute__") {
            continue;
        }
        let open = crate::preprocess::skip_ws(b, i + 13);
        if b.get(open) != Some(&b'(') {
            continue;
        }
        if let Some(close) = matching_paren(b, &code, open).filter(|&c| !b[i..c].contains(&b'\n')) {
            out[i..close].fill(b' ');
            changed = true;
        }
    }
    changed
}

/// Words before a `(` that make it no call whose arguments `argument_colons` reads.
const NOT_CALLS: &[&[u8]] = &[b"_Generic", b"for", b"while", b"if", b"switch", b"catch", b"return", b"asm", b"__asm", b"__asm__", b"sizeof", b"typeof", b"decltype", b"alignas"];

/// After the `)` matching the `(` at `open`, in code (strings, comments and blocks inside).
fn matching_paren(b: &[u8], code: &[bool], open: usize) -> Option<usize> {
    let how = navegador_model::brackets::Brackets { code: Some(code), stop_words: &[b"@end"], ..Default::default() };
    navegador_model::brackets::matching(b, open, &how).map(|k| k + 1)
}
