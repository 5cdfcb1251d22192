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
    if !src.contains("NS_ENUM") && !src.contains("NS_OPTIONS") && !src.contains("NS_CLOSED_ENUM") {
        return None;
    }
    let mut out = src.as_bytes().to_vec();
    let mut changed = false;
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
