//! Helpers of the detectors: paths, string literals, annotation/decorator argument text,
//! tree walking.

use navegador_lang::tree_sitter::Node;

/// `/a/b`: segments joined by one `/`, a leading `/`, no trailing `/` (the root is `/`).
pub fn normalize_path(p: &str) -> String {
    let segs: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
    format!("/{}", segs.join("/"))
}

/// `base` joined with `p`, normalized.
pub(crate) fn join(base: &str, p: &str) -> String {
    normalize_path(&format!("{base}/{p}"))
}

/// The value of a string literal as written in Java, Python, JS/TS or Go source; `None` when
/// it is not a plain literal (an f-string or template with substitutions, a concatenation).
pub(crate) fn unquote(text: &str) -> Option<String> {
    let t = text.trim();
    let t = t.trim_start_matches(['r', 'R', 'b', 'B', 'u', 'U']);
    for q in ["\"\"\"", "'''", "\"", "'", "`"] {
        if t.len() >= 2 * q.len() && t.starts_with(q) && t.ends_with(q) {
            let inner = &t[q.len()..t.len() - q.len()];
            if q == "`" && inner.contains("${") {
                return None;
            }
            if inner.contains(q) && !inner.contains('\\') {
                return None; // "a" + "b"
            }
            return Some(inner.replace("\\\"", "\"").replace("\\'", "'"));
        }
    }
    None
}

/// One argument of an annotation or call, read from its text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Arg {
    Str(String),
    List(Vec<Arg>),
    Obj(Vec<(String, Arg)>),
    Other(String),
}

impl Arg {
    /// The strings of a string or a list of strings.
    pub fn strings(&self) -> Vec<String> {
        match self {
            Arg::Str(s) => vec![s.clone()],
            Arg::List(v) => v.iter().flat_map(Arg::strings).collect(),
            _ => Vec::new(),
        }
    }
    /// The items of a list, or the value itself.
    pub fn items(&self) -> Vec<&Arg> {
        match self {
            Arg::List(v) => v.iter().collect(),
            a => vec![a],
        }
    }
    pub fn text(&self) -> String {
        match self {
            Arg::Str(s) | Arg::Other(s) => s.clone(),
            Arg::List(v) => v.iter().map(Arg::text).collect::<Vec<_>>().join(","),
            Arg::Obj(_) => String::new(),
        }
    }
}

/// Positional and named arguments.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Args {
    pub positional: Vec<Arg>,
    pub named: Vec<(String, Arg)>,
}

impl Args {
    pub fn get(&self, key: &str) -> Option<&Arg> {
        self.named.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The first positional argument, or the first of `keys` given by name.
    pub fn first_or(&self, keys: &[&str]) -> Option<&Arg> {
        for k in keys {
            if let Some(a) = self.get(k) {
                return Some(a);
            }
        }
        match self.positional.first() {
            Some(Arg::Obj(fields)) => keys.iter().find_map(|k| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v)),
            a => a,
        }
    }
}

/// Splits at top-level commas (outside brackets and strings), trimmed, empty parts dropped.
fn split_top(s: &str) -> Vec<&str> {
    split_at_top(s, ',').into_iter().map(str::trim).filter(|p| !p.is_empty()).collect()
}

/// Splits at each `sep` outside strings (`"`, `'`, `` ` ``, with `\` escapes) and brackets.
pub(crate) fn split_at_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, 0usize, None::<char>);
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `key = value` / `key=value` / `key: value` at the top of a piece.
fn split_named(piece: &str) -> Option<(&str, &str)> {
    let end = piece.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    if end == 0 {
        return None;
    }
    let rest = piece[end..].trim_start();
    let rest = if let Some(r) = rest.strip_prefix('=') {
        if r.starts_with('=') {
            return None;
        }
        r
    } else {
        rest.strip_prefix(':')?
    };
    Some((&piece[..end], rest.trim()))
}

pub(crate) fn parse_value(v: &str) -> Arg {
    let v = v.trim();
    if let Some(s) = unquote(v) {
        return Arg::Str(s);
    }
    let bracketed = |o: char, c: char| v.starts_with(o) && v.ends_with(c);
    if bracketed('[', ']') || bracketed('{', '}') || bracketed('(', ')') {
        let inner = &v[1..v.len() - 1];
        let pieces = split_top(inner);
        if v.starts_with('{') && !pieces.is_empty() && pieces.iter().all(|p| split_named(p).is_some_and(|(_, r)| !r.is_empty()) && !p.starts_with('"')) {
            // A JS object (`{ path: 'users' }`), not a Java array of constants.
            if pieces.iter().any(|p| p.contains(':')) {
                return Arg::Obj(pieces.iter().filter_map(|p| split_named(p)).map(|(k, r)| (k.to_string(), parse_value(r))).collect());
            }
        }
        return Arg::List(pieces.into_iter().map(parse_value).collect());
    }
    Arg::Other(v.to_string())
}

/// Reads an argument list as written, with or without its parentheses.
pub(crate) fn parse_args(text: &str) -> Args {
    let t = text.trim();
    let t = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')).unwrap_or(t);
    let mut args = Args::default();
    for piece in split_top(t) {
        match split_named(piece) {
            Some((k, v)) if !piece.starts_with(['"', '\'', '`']) => args.named.push((k.to_string(), parse_value(v))),
            _ => args.positional.push(parse_value(piece)),
        }
    }
    args
}

/// The string a constant named `name` is initialized with in `src` (`USERS = "/users"`,
/// `static final String USERS = "/users";`), if exactly that form is there.
pub(crate) fn constant_in(src: &str, name: &str) -> Option<String> {
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut from = 0;
    while let Some(i) = src[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before_ok = src[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = src[from..].trim_start();
        if !before_ok {
            continue;
        }
        let Some(rest) = rest.strip_prefix('=').filter(|r| !r.starts_with('=')) else { continue };
        let rest = rest.trim_start();
        let end = rest.find([';', '\n']).unwrap_or(rest.len());
        if let Some(s) = unquote(rest[..end].trim()) {
            return Some(s);
        }
    }
    None
}

/// The last `.`-separated segment (`org.x.GetMapping` -> `GetMapping`).
pub(crate) fn last_segment(s: &str) -> &str {
    s.rsplit('.').next().unwrap_or(s)
}

pub(crate) fn text<'a>(n: Node, src: &'a str) -> &'a str {
    src.get(n.byte_range()).unwrap_or("")
}

pub(crate) fn named_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// Every node of a subtree in pre-order, bounded (a pathological file stops early).
pub(crate) fn descendants<'t>(root: Node<'t>, kind: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 2_000_000 {
            break;
        }
        if n.kind() == kind {
            out.push(n);
        }
        let kids = named_children(n);
        stack.extend(kids.into_iter().rev());
    }
    out
}

pub(crate) fn line_of(n: Node) -> u32 {
    n.start_position().row as u32 + 1
}

pub(crate) fn col_of(n: Node) -> u32 {
    n.start_position().column as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_are_read() {
        let a = parse_args("(value = {\"/a\", \"/b\"}, method = RequestMethod.POST)");
        assert_eq!(a.get("value").unwrap().strings(), vec!["/a", "/b"]);
        assert_eq!(a.get("method").unwrap().text(), "RequestMethod.POST");
        let a = parse_args("(\"/{id}\")");
        assert_eq!(a.positional[0], Arg::Str("/{id}".into()));
        let a = parse_args("(\"/p\", methods=[\"GET\", 'POST'])");
        assert_eq!(a.get("methods").unwrap().strings(), vec!["GET", "POST"]);
        let a = parse_args("({ path: 'users', version: '1' })");
        assert_eq!(a.first_or(&["path"]).unwrap().strings(), vec!["users"]);
        assert_eq!(normalize_path("users//{id}/"), "/users/{id}");
        assert_eq!(normalize_path(""), "/");
    }
}
