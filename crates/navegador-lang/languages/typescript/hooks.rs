//! TypeScript and TSX: the JavaScript hook plus constructor parameter properties,
//! annotation and signature trims, and `prepare`, which rewrites what
//! tree-sitter-typescript 0.23 rejects although `tsc` accepts it.

use navegador_model::FileFacts;
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) fn ts_post(root: Node, src: &str, facts: &mut FileFacts) {
    super::javascript::post(root, src, facts);
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


/// `constructor(private readonly http: Http)` declares a field `http` of the class: one
/// `Variable` per parameter property, right after the constructor, with the parameter's
/// decorators (`@Inject(TOKEN)`).
fn parameter_properties(root: Node, b: &[u8], facts: &mut FileFacts) {
    parameter_fields(root, b, facts, "method_definition", ".", |params| {
        let mut c = params.walk();
        let mut out = Vec::new();
        for p in params.named_children(&mut c) {
            let mut c2 = p.walk();
            let mods: Vec<Node> = p
                .children(&mut c2)
                .filter(|m| matches!(m.kind(), "accessibility_modifier" | "readonly" | "override_modifier"))
                .collect();
            let name = p.child_by_field_name("pattern").filter(|n| n.kind() == "identifier");
            let (Some(name), false) = (name, mods.is_empty()) else { continue };
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
            out.push(ParamField {
                param: p,
                name,
                type_annotation: p.child_by_field_name("type").map(|t| squash_ws(text(t, b).trim_start_matches(':').trim_start())),
                hidden: mods.iter().any(|m| m.kind() == "accessibility_modifier" && text(*m, b) != "public"),
                decorators,
            });
        }
        out
    });
}

pub(crate) static HOOKS: Hooks = Hooks {
    post: ts_post,
    prepare: ts_prepare,
};

pub(crate) static TSX: Hooks = Hooks {
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
