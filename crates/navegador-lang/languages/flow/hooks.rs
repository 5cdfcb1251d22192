//! Flow: the TSX grammar reads Flow-typed JavaScript once the syntax only Flow has is
//! rewritten into TypeScript's, in place and byte for byte the same length (every line and
//! column stays). What is a token rewrite is the manifest's (`[preprocess] replace`, applied
//! after this hook: `{|` `|}`, `opaque type`, `import typeof`, `%checks`, `declare export`,
//! `export type *`, an inline `interface {`); this is what needs a bracket's extent or the
//! tokens around it. Outside comments and strings:
//! - an inexact object's `...` (before `}` `,` `|` `)`) becomes spaces;
//! - a spread in an object type, `{...Props, a: T}` (a capitalized or `$` type), is
//!   blanked with its comma; another spread in an object, `{...props}`, becomes a member
//!   `{_: props}` (in a literal or a pattern it stays valid JavaScript);
//! - the maybe type `?T` (a `?` after `:` `<` `,` `(` `|` `&` `=` `>` `[`) loses its `?`;
//! - variance `+p:` / `-p:` on a member loses its sign;
//! - a function type's one unparenthesized parameter `: T => U` takes the spaces around
//!   it as parentheses, `:(T)=> U`; an unnamed rest parameter `(...A) => R` is named,
//!   `(_: A) => R`;
//!
//! - then, with brackets' extents: a function type's (or a line-leading method signature's)
//!   parameter list with an unnamed parameter (`(boolean) => void`) becomes one parameter
//!   `_`; type parameters lose variance and bounds (`<+T: B>`), `Foo<>` its `<>`; a `type
//!   T;` without a definition is blanked.
//!
//! - a spread of a union in an object type (`...\n | {|a: A|} | {|b: B|},`) is blanked;
//!   the maybe `?` after a type's `>` stays (a conditional type's `?`), after `=>` it goes;
//!   a type's one parameter right after a `(`, `(Event => void)`, becomes `(_    )=>`;
//!   a mapped type's `+[K in keyof (…)]:` loses its sign;
//! - a cast `(value: T)` in an expression loses its `: T`; a function type's parameter that
//!   is an object type (`({x: number}) => void`) is an unnamed parameter.
//!
//! Still unread (a syntax error, facts outside it kept): `T => U` without spaces.

use crate::hooks::Hooks;

pub(crate) static HOOKS: Hooks = Hooks {
    post: super::typescript::ts_post,
    prepare: flow_prepare,
};

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

fn ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

fn flow_prepare(src: &str) -> Option<String> {
    let mut b = src.as_bytes().to_vec();
    let (code, comment) = crate::preprocess::code_mask(&b);
    let n = b.len();
    let orig = b.clone();
    // the code byte before `i` (spaces and comments skipped)
    let prev = |i: usize| -> u8 {
        let mut k = i;
        while k > 0 {
            k -= 1;
            if !ws(orig[k]) && !comment[k] {
                return orig[k];
            }
        }
        b'\n'
    };
    let line_start = |i: usize| -> bool {
        let mut k = i;
        while k > 0 && matches!(orig[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k == 0 || orig[k - 1] == b'\n'
    };
    // open brackets: (byte, whether a `{` opens an object type or literal)
    let mut stack: Vec<(u8, bool)> = Vec::new();
    let mut i = 0;
    while i < n {
        if !code[i] {
            i += 1;
            continue;
        }
        match orig[i] {
            b'{' => {
                let object = matches!(prev(i), b'=' | b':' | b'<' | b'&' | b'|' | b'(' | b',' | b'[' | b'?');
                stack.push((b'{', object));
                if orig.get(i + 1) == Some(&b'|') {
                    i += 1;
                }
            }
            b'(' if orig[i + 1..].starts_with(b"...") && matches!(prev(i), b':' | b'<' | b'|' | b'&') && !named_item(&orig[i + 1..]) => {
                // a function type's unnamed rest parameter: `(...Args) => R` is `(_: Args) => R`
                stack.push((b'(', false));
                b[i + 1..i + 4].copy_from_slice(b"_: ");
                i += 4;
                continue;
            }
            b'(' | b'[' => stack.push((orig[i], false)),
            c if is_ident(c) && !c.is_ascii_digit() && i >= 2 && b[i - 1] == b' ' && (i < 2 || !is_ident(orig[i - 1])) => {
                // a function type's one unparenthesized parameter, `: T => U`: the spaces
                // around it become its parentheses, `:(T)=> U` (an arrow function stays one)
                let e = i + orig[i..].iter().position(|&c| !is_ident(c)).unwrap_or(n - i);
                let before = b[..i - 1].iter().rposition(|&c| !ws(c)).map(|k| b[k]);
                if e + 2 < n && orig[e] == b' ' && orig[e + 1..].starts_with(b"=>") && code[e] && matches!(before, Some(b':' | b'=' | b',' | b'|' | b'&' | b'<' | b'('))
                {
                    b[i - 1] = b'(';
                    b[e] = b')';
                }
                i = e;
                continue;
            }
            c if (c.is_ascii_alphabetic() || c == b'$') && i >= 1 && orig[i - 1] == b'(' && matches!(prev(i - 1), b':' | b'=' | b',' | b'|' | b'&' | b'<' | b'(') => {
                // the same right after a `(`, `(Event => void)`, for a type (capitalized or a
                // primitive, not a value arrow's `(x => x)`): `T ` becomes `(_ )`
                let e = i + orig[i..].iter().position(|&c| !is_ident(c)).unwrap_or(n - i);
                let typed = c.is_ascii_uppercase() || c == b'$' || PRIMITIVES.contains(&&orig[i..e]);
                if typed && e - i >= 2 && e + 2 < n && orig[e] == b' ' && orig[e + 1..].starts_with(b"=>") && code[e] {
                    b[i] = b'(';
                    b[i + 1] = b'_';
                    b[i + 2..e].fill(b' ');
                    b[e] = b')';
                }
                i = e;
                continue;
            }
            b'}' | b')' | b']' => {
                stack.pop();
            }
            b'.' if orig[i..].starts_with(b"...") && (i == 0 || orig[i - 1] != b'.') => {
                let mut k = i + 3;
                while k < n && ws(orig[k]) {
                    k += 1;
                }
                let union = orig[k] == b'|' && orig.get(k + 1) != Some(&b'}');
                if k >= n || (matches!(orig[k], b'}' | b',' | b'|' | b')') && !union) {
                    b[i..i + 3].fill(b' ');
                } else if stack.last() == Some(&(b'{', true)) && matches!(prev(i), b'{' | b',' | b'|') {
                    if orig[k].is_ascii_uppercase() || orig[k] == b'$' || union {
                        // a type's spread (`...ViewProps,`): gone, with its comma
                        let e = spread_end(&orig, k);
                        for c in &mut b[i..e] {
                            if *c != b'\n' {
                                *c = b' ';
                            }
                        }
                        i = e;
                        continue;
                    }
                    b[i..i + 3].copy_from_slice(b"_: ");
                }
                i += 3;
                continue;
            }
            b'?' => {
                let next = orig.get(i + 1).copied().unwrap_or(b' ');
                // after `=>` (a function type's return), not after a type's `>` (`A<B> ? C : D`)
                let arrow = prev(i) == b'>' && (0..i).rev().find(|&k| !ws(orig[k]) && !comment[k]).is_some_and(|k| k > 0 && orig[k - 1] == b'=');
                if (matches!(prev(i), b':' | b'<' | b',' | b'(' | b'|' | b'&' | b'=' | b'[') || arrow) && !matches!(next, b'.' | b'?' | b':') {
                    b[i] = b' ';
                }
            }
            b'+' | b'-' if (matches!(prev(i), b'{' | b',' | b';' | b'|') || line_start(i)) && variance_member(&orig[i + 1..]) => b[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    structural(&orig, &mut b, &code);
    if b == orig { None } else { String::from_utf8(b).ok() }
}

/// Flow's primitive types: alone in a parameter list they are a type, not a name.
const PRIMITIVES: &[&[u8]] = &[b"void", b"null", b"boolean", b"number", b"string", b"mixed", b"any", b"empty", b"undefined", b"symbol", b"bigint"];

/// Whether a parameter (`a`, `a?: T`, `...rest: T`, `a = 1`, a pattern `{…}` / `[…]`)
/// starts `s`, rather than a type without a name (`boolean`, `Array<T>`, `?T`, `A | B`).
fn named_item(s: &[u8]) -> bool {
    let mut k = s.iter().position(|&c| !ws(c)).unwrap_or(s.len());
    if s[k..].starts_with(b"...") {
        k += 3;
        k += s[k..].iter().position(|&c| !ws(c)).unwrap_or(s.len() - k);
    }
    match s.get(k) {
        None => true,
        Some(b'{' | b'[') => true,
        Some(&c) if is_ident(c) && !c.is_ascii_digit() => {
            let e = k + s[k..].iter().position(|&c| !is_ident(c)).unwrap_or(s.len() - k);
            let mut j = e + s[e..].iter().position(|&c| !ws(c)).unwrap_or(s.len() - e);
            if s.get(j) == Some(&b'?') {
                j += 1;
                j += s[j..].iter().position(|&c| !ws(c)).unwrap_or(s.len() - j);
            }
            match s.get(j) {
                None | Some(b',' | b')') => !PRIMITIVES.contains(&&s[k..e]),
                Some(b':') => true,
                Some(b'=') => s.get(j + 1) != Some(&b'>'),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Where the `:` of a cast `value: T` in `b[from..to]` is: the first at the top level (not
/// `::`, not a ternary's, whose `?` comes first; `?.` and `??` are no ternary), after a value,
/// with no top-level `,`; the value has no top-level `<` `>` `=` `;` (JSX, an assignment),
/// comments and strings are skipped.
fn cast_colon(b: &[u8], code: &[bool], from: usize, to: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut colon = None;
    for k in from..to {
        if !code[k] {
            continue;
        }
        match b[k] {
            b'<' | b'>' | b'=' | b';' if depth == 0 && colon.is_none() => return None,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return None,
            b'?' if depth == 0 && colon.is_none() && !matches!(b.get(k + 1), Some(b'.' | b'?')) && b[k - 1] != b'?' => return None,
            b':' if depth == 0 && colon.is_none() && b.get(k + 1) != Some(&b':') && b[k - 1] != b':' => colon = Some(k),
            _ => {}
        }
    }
    colon.filter(|&c| b[from..c].iter().any(|&x| !ws(x)))
}

/// Whether a parameter list's item is an object type, not a pattern: `{x: number}`,
/// `{colorScheme: ?Name}` (a member's value is a primitive, a maybe or generic type, a
/// function or union type), on the original text.
fn object_type(s: &[u8]) -> bool {
    let t = s.iter().position(|&c| !ws(c)).unwrap_or(s.len());
    let z = s.iter().rposition(|&c| !ws(c)).map_or(t, |p| p + 1);
    if s.get(t) != Some(&b'{') || s[z - 1] != b'}' {
        return false;
    }
    items(s, t + 1, z - 1).iter().any(|&(a, e)| {
        let m = &s[a..e];
        let Some(c) = m.iter().position(|&c| c == b':') else { return false };
        let v = &m[c + 1..];
        let v0 = v.iter().position(|&c| !ws(c)).unwrap_or(v.len());
        let v = &v[v0..v.iter().rposition(|&c| !ws(c)).map_or(v0, |p| p + 1).max(v0)];
        v.first() == Some(&b'?') || PRIMITIVES.contains(&v) || v.windows(2).any(|w| w == b"=>") || v.contains(&b'|') || v.contains(&b'<')
    })
}

/// The end (exclusive) of the bracket opened at `open` (`(`, `<`, `{`, `[`): after its
/// matching close, within 8 KiB, skipping comments and strings (`=>` is no bracket).
fn matching(b: &[u8], code: &[bool], open: usize) -> Option<usize> {
    // (a type's `<…>` holds no `;`)
    let stop: &[u8] = if b[open] == b'<' { b";" } else { b"" };
    let how = navegador_model::brackets::Brackets { code: Some(code), window: 8192, stop, all_kinds: true, ..Default::default() };
    navegador_model::brackets::matching(b, open, &how).map(|k| k + 1)
}

/// The items of the list `b[from..to]` split at its top-level commas: (start, end).
fn items(b: &[u8], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, from);
    for k in from..to {
        match b[k] {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b'>' if b[k - 1] == b'=' => {}
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                out.push((start, k));
                start = k + 1;
            }
            _ => {}
        }
    }
    if b[start..to].iter().any(|&c| !ws(c)) {
        out.push((start, to));
    }
    out
}

fn blank(b: &mut [u8], from: usize, to: usize) {
    for c in &mut b[from..to] {
        if *c != b'\n' {
            *c = b' ';
        }
    }
}

/// The rewrites that need a bracket's extent, on the text the first pass left:
/// - a function type's parameter list with an unnamed parameter (`(boolean) => void`,
///   `(Instance | null) => mixed`, `(string, number) => R`) becomes one parameter `_`;
///   so does a method signature's at a line's start (`ignoreLogs(Array<P>): void;`);
/// - type parameters lose their variance and bounds (`<+T: Base = D>` is `< T = D>`); an
///   empty argument list `Foo<>` is `Foo`;
/// - an inline `interface {…}` type is an object type;
/// - `declare export` is `export declare`; a `declare`d or opaque `type T;` without a
///   definition is blanked; `export type * from` is `export * from`.
fn structural(orig: &[u8], b: &mut [u8], code: &[bool]) {
    let n = b.len();
    let mut i = 0;
    while i < n {
        if !code[i] {
            i += 1;
            continue;
        }
        let before = b[..i].iter().rposition(|&c| !ws(c)).map(|k| b[k]);
        match b[i] {
            b'(' => {
                let Some(end) = matching(b, code, i) else {
                    i += 1;
                    continue;
                };
                let after = end + b[end..].iter().position(|&c| !ws(c)).unwrap_or(n - end);
                let arrow = b[after..].starts_with(b"=>");
                // a method signature: `name(…): T` starting its line
                let head = b[..i].iter().rposition(|&c| !is_ident(c)).map_or(0, |k| k + 1);
                let line = b[..head].iter().rev().take_while(|&&c| c == b' ' || c == b'\t' || c == b'+' || c == b'-').count();
                let signature = head < i && b.get(after) == Some(&b':') && (head == line || b[head - line - 1] == b'\n');
                if (arrow || signature) && items(b, i + 1, end - 1).iter().any(|&(s, e)| !named_item(&b[s..e]) || object_type(&orig[s..e])) {
                    blank(b, i + 1, end - 1);
                    if let Some(k) = (i + 1..end - 1).find(|&k| b[k] == b' ') {
                        b[k] = b'_';
                    }
                    i = end;
                    continue;
                }
                // a cast `(value: T)`: in an expression (not a call's or a declaration's
                // list, not an arrow's parameters or one with a return type), its `: T` blanked
                let word = b[..i].iter().rposition(|&c| !ws(c)).map(|z| &b[b[..=z].iter().rposition(|&c| !is_ident(c)).map_or(0, |a| a + 1)..=z]);
                let keyword = word.is_some_and(|w| [&b"return"[..], b"await", b"yield", b"typeof", b"void", b"in", b"of", b"case", b"throw", b"else", b"delete"].contains(&w));
                let call = !keyword && before.is_some_and(|c| is_ident(c) || matches!(c, b')' | b']' | b'>'));
                if !call && !arrow && !matches!(b.get(after), Some(b':' | b'{')) {
                    if let Some(colon) = cast_colon(b, code, i + 1, end - 1) {
                        blank(b, colon, end - 1);
                        i = end;
                        continue;
                    }
                }
            }
            b'<' => {
                let next = i + 1 + b[i + 1..].iter().position(|&c| !ws(c)).unwrap_or(n - i - 1);
                if b.get(next) == Some(&b'>') && i > 0 && is_ident(b[i - 1]) {
                    b[i] = b' ';
                    b[next] = b' ';
                } else if matches!(b.get(next), Some(b'+' | b'-')) || bounded_param(&b[next..]) {
                    if let Some(end) = matching(b, code, i) {
                        for (s, e) in items(b, i + 1, end - 1) {
                            let mut k = s + b[s..e].iter().position(|&c| !ws(c)).unwrap_or(0);
                            if matches!(b[k], b'+' | b'-') {
                                b[k] = b' ';
                                k += b[k..e].iter().position(|&c| !ws(c)).unwrap_or(0);
                            }
                            if bounded_param(&b[k..e]) {
                                let colon = k + b[k..e].iter().position(|&c| c == b':').unwrap_or(0);
                                let default = items_default(b, colon, e);
                                blank(b, colon, default);
                            }
                        }
                    }
                }
            }
            b't' if word_at(b, i, b"type") && line_words_before(orig, i) => {
                if next_word(b, i + 4).is_some() {
                    // `type T;` / `type T: Super;` (declared or opaque, no definition)
                    let stop = b[i..].iter().position(|&c| c == b';' || c == b'\n').map(|p| i + p);
                    if let Some(semi) = stop.filter(|&s| b[s] == b';' && !b[i..s].contains(&b'=')) {
                        let start = i - b[..i].iter().rev().take_while(|&&c| c != b'\n').count();
                        blank(b, start, semi + 1);
                        i = semi + 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The words before `i` on its line are only `declare`, `export`, `opaque` (or none): a
/// type statement's head.
fn line_words_before(b: &[u8], i: usize) -> bool {
    let start = i - b[..i].iter().rev().take_while(|&&c| c != b'\n').count();
    let head = &b[start..i];
    head.split(|&c| ws(c)).filter(|w| !w.is_empty()).all(|w| [&b"declare"[..], b"export", b"opaque"].contains(&w))
}

/// `T:` (a bounded type parameter), not `a::b`.
fn bounded_param(s: &[u8]) -> bool {
    let e = s.iter().position(|&c| !is_ident(c)).unwrap_or(s.len());
    let j = e + s[e..].iter().position(|&c| !ws(c)).unwrap_or(s.len() - e);
    e > 0 && !s[0].is_ascii_digit() && s.get(j) == Some(&b':') && s.get(j + 1) != Some(&b':')
}

/// Where a bound that starts at `from` ends: a default's `=` (not `=>`) or `to`.
fn items_default(b: &[u8], from: usize, to: usize) -> usize {
    let mut depth = 0i32;
    for k in from..to {
        match b[k] {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b'>' if b[k - 1] == b'=' => {}
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b'=' if depth == 0 && b.get(k + 1) != Some(&b'>') => return k,
            _ => {}
        }
    }
    to
}

/// Where a spread's type that starts at `k` ends: after its `,`, or at the `}` / `|}` that
/// closes the object (brackets nested inside skipped; `=>` is no bracket).
fn spread_end(b: &[u8], mut k: usize) -> usize {
    let mut depth = 0i32;
    while k < b.len() {
        match b[k] {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' if k > 0 && b[k - 1] == b'=' => {}
            b'>' | b')' | b']' => depth -= 1,
            b'}' if depth == 0 => return k,
            b'|' if depth == 0 && b.get(k + 1) == Some(&b'}') => return k,
            b'}' => depth -= 1,
            b',' if depth == 0 => return k + 1,
            _ => {}
        }
        k += 1;
    }
    k
}

/// `name:`, `name?:` or `[k: K]:` after a variance sign.
fn variance_member(rest: &[u8]) -> bool {
    let mut k = 0;
    if rest.first() == Some(&b'[') {
        // `[k: K]:`, or a mapped type's `[K in keyof (…)]:` over lines
        let mut depth = 0i32;
        k = rest.iter().take(2000).position(|&c| {
            depth += match c {
                b'[' | b'(' | b'{' => 1,
                b']' | b')' | b'}' => -1,
                _ => 0,
            };
            depth == 0 || c == b';'
        }).filter(|&p| rest[p] == b']').map_or(0, |p| p + 1);
        if k == 0 {
            return false;
        }
    } else {
        while k < rest.len() && is_ident(rest[k]) {
            k += 1;
        }
        if k == 0 || rest[0].is_ascii_digit() {
            return false;
        }
    }
    if rest.get(k) == Some(&b'?') {
        k += 1;
    }
    while k < rest.len() && matches!(rest[k], b' ' | b'\t') {
        k += 1;
    }
    rest.get(k) == Some(&b':')
}

fn word_at(b: &[u8], i: usize, w: &[u8]) -> bool {
    b[i..].starts_with(w) && (i == 0 || !is_ident(b[i - 1])) && !b.get(i + w.len()).is_some_and(|&c| is_ident(c))
}

/// The identifier after `i` and the spaces there.
fn next_word(b: &[u8], i: usize) -> Option<&[u8]> {
    let s = i + b.get(i..)?.iter().position(|&c| !ws(c))?;
    let e = s + b[s..].iter().position(|&c| !is_ident(c)).unwrap_or(b.len() - s);
    (e > s && s > i).then(|| &b[s..e])
}

#[cfg(test)]
mod tests {

    #[test]
    fn definitions_keep_their_positions_after_the_rewrite() {
        // every rewrite shortens or moves tokens in place: names are where the file has them
        let src = "// @flow\nexport opaque type Id = string;\ntype P = {| +a: ?string, ...B |};\nconst v = (x: any);\n  export function   f(p: ({x: number}) => void): ?Id { return (p: any); }\nclass   C { m(cb: Event => void): void {} }\n";
        let lang = crate::registry().detect("a.js", src.as_bytes()).expect("a flow file");
        let facts = crate::extract("a.js", src, lang, &Default::default());
        assert!(facts.diagnostics.is_empty(), "{:?}", facts.diagnostics);
        for (name, line) in [("f", 5), ("C", 6), ("m", 6)] {
            let sym = facts.symbols.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name} in {:?}", facts.symbols));
            let at = sym.name_range.start_byte as usize;
            assert_eq!((&src[at..at + name.len()], sym.name_range.start_line), (name, line), "{name}");
        }
    }

    #[test]
    fn flow_syntax_becomes_typescript_of_the_same_length() {
        for (flow, ts) in [
            ("type P = {| +a: ?string, -b?: number |};", "type P = {   a:  string,  b?: number } ;"),
            ("type Q = {...P, c: T, ...};", "type Q = {      c: T,    };"),
            ("type R = {...$ReadOnly<{a: A, b: B}>, ...Base};", "type R = {                                   };"),
            ("export opaque type Id = string;", "export type        Id = string;"),
            ("import typeof X from 'x';", "import type   X from 'x';"),
            ("function f(x: mixed): boolean %checks {}", "function f(x: mixed): boolean         {}"),
            ("f(...args); const {a, ...rest} = o; x = a ? b : c; y = {...o};", "f(...args); const {a, ...rest} = o; x = a ? b : c; y = {_: o};"),
            ("type F = {f: number => mixed, g: (...Array<T>) => void};", "type F = {f:(_     )=> mixed, g: (_: Array<T>) => void};"),
            ("const inc = x => x + 1;", "const inc =(x)=> x + 1;"),
            ("// {| ?x |} in a comment\nlet s = '{|';", "// {| ?x |} in a comment\nlet s = '{|';"),
            ("type L = {f: (...args: Array<E>) => R};", "type L = {f: (...args: Array<E>) => R};"),
            ("type C = (boolean) => void | ((I | null) => mixed);", "type C = (_      ) => void | ((_       ) => mixed);"),
            ("const add = (a, {b}, c = 1) => a;", "const add = (a, {b}, c = 1) => a;"),
            ("type I = {\n  ignore(Array<P>): void;\n};", "type I = {\n  ignore(_       ): void;\n};"),
            ("function f<+S: Base, T: {a: A} = D>(x: Box<>): S {}", "function f< S      , T         = D>(x: Box  ): S {}"),
            ("type E = Error & interface {a: A};", "type E = Error & {          a: A};"),
            ("declare export function f(): T;\ndeclare export opaque type Id;\nexport type * from './m';", "export declare function f(): T;\n                              \nexport *      from './m';"),
            ("type U = {a: A, ...\n  | {|b: B|}\n  | {|c: C|},\n  d: D};", "type U = {a: A,    \n            \n             \n  d: D};"),
            ("type F = (x: void => interface {}, y: Mod | (void => Mod)) => void;", "type F = (x:(_   )=> {          }, y: Mod | ((_  )=> Mod)) => void;"),
            ("m(x: (void => interface {})) {}\ny = (Event => void);", "m(x: ((_  )=> {          })) {}\ny = ((_   )=> void);"),
            ("type C = A extends B<infer V>\n  ? V\n  : () => ?T;", "type C = A extends B<infer V>\n  ? V\n  : () =>  T;"),
            ("f((x: any), {a: (y: ?T)}); return (z: A<B>).c; c ? (d ? e : g) : h; (a: A) => a;", "f((x     ), {a: (y    )}); return (z      ).c; c ? (d ? e : g) : h; (a: A) => a;"),
            ("type S = {f: ({x: number, y: number}) => void, g: ({c: ?N}) => void};\nconst h = ({a: b}) => b;", "type S = {f: (_                     ) => void, g: (_      ) => void};\nconst h = ({a: b}) => b;"),
            ("type M<P> = {\n  +[K in keyof (P &\n    Q)]: any,\n};", "type M<P> = {\n   [K in keyof (P &\n    Q)]: any,\n};"),
        ] {
            // the hook, then the manifest's `[preprocess] replace` rules: what the grammar reads
            let src = format!("// @flow\n{flow}");
            let lang = crate::registry().detect("a.js", src.as_bytes()).expect("a flow file");
            let out = crate::extract::prepared(lang, &src).unwrap_or_else(|| src.clone());
            assert_eq!(&out[9..], ts, "{flow}");
            assert_eq!(out.len(), src.len());
        }
    }
}
