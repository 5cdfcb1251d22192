//! HTTP client call sites as facts, and their links to the endpoints they request.
//!
//! Which calls are client calls is the packs' data (`clients` of a manifest: `[[client]]`
//! rules, `navegador_model::ClientRule`): callee patterns, where the URL and the method
//! are, the factories whose instances carry a base URL. Detection (`detect`) reads one
//! file's text: every call whose callee matches a rule of its language, the file importing
//! the rule's library, becomes a site with its method and URL template, the template
//! normalized to one parameter form (`${id}`, `{id}`, `:id`, `<int:id>`, `%d` -> `{}`) and
//! its base followed through instances, constants of the file and (at link time) imported
//! constants. Sites ride on their File node (`http_calls`) and go with it.
//!
//! Linking (`link`), after every ingest, from what the graph holds: each site is matched
//! against the REST endpoints by method and normalized full path (a suffix of it when the
//! base is unknown) and gets `HTTP_CALLS` edges from its calling function (its file at the
//! top level) with a `confidence` and a `reason`; a site matching nothing stays a site,
//! counted. Recomputed whole and diffed, so an edit on either side moves the link and
//! incremental equals clean.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use navegador_model::{ClientRule, EdgeType, FileFacts, Label, Language, Resolution};
use navegador_store::{IngestTx, StoreError};
use serde_json::{json, Map, Value};

use super::util::{constant_in, normalize_path, parse_args, split_at_top, unquote, Arg};
use super::EndpointFact;

const VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

/// One client call a file makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientCall {
    pub library: String,
    /// `GET`, …; `None`: not said where the index can read it.
    pub method: Option<String>,
    /// The URL template after the base, parameters as `{}` (`/users/{}`); `None`: not
    /// readable (a variable).
    pub url: Option<String>,
    /// The base URL's path when known (`/api`, `/` for an absolute URL without one).
    pub base: Option<String>,
    /// The base as named (`API_URL`, `settings.API_BASE`, `process.env.API_URL`) when its
    /// value is not in this file.
    pub base_expr: Option<String>,
    pub line: u32,
    /// 1-based column where the call starts: two calls on one line are two sites.
    pub column: u32,
    /// The innermost function or method around the call: (qualified name, first line).
    pub caller: Option<(String, u32)>,
    /// A GraphQL operation's root field (`operations.rs`): `method` QUERY / MUTATION /
    /// SUBSCRIPTION, `url` the field's name.
    pub graphql: bool,
    /// The GraphQL document as named at the call (`GET_USER`), when it is one: read from the
    /// file, or (no `url` yet) from the file an import of that name leads to, at link time.
    pub document: Option<String>,
}

impl ClientCall {
    pub(super) fn to_json(&self) -> Value {
        let mut v = json!({"library": self.library, "method": self.method, "url": self.url, "base": self.base,
            "base_expr": self.base_expr, "line": self.line, "column": self.column,
            "caller": self.caller.as_ref().map(|c| &c.0), "caller_line": self.caller.as_ref().map(|c| c.1)});
        if self.graphql {
            v["kind"] = json!("graphql");
            v["document"] = json!(self.document);
        }
        v
    }
}

/// The 1-based column of byte `at`.
pub(super) fn column_of(src: &str, at: usize) -> u32 {
    (at - src[..at].rfind('\n').map_or(0, |i| i + 1) + 1) as u32
}

/// A call as written: its callee with argument lists dropped (`webClient.get().uri`), its
/// argument text with parentheses, where the callee starts and the call ends (bytes).
pub(super) struct Call<'a> {
    pub callee: String,
    pub args: &'a str,
    pub start: usize,
    pub end: usize,
    pub line: u32,
}

/// The client calls of one file, by its language's rules.
pub(super) fn detect(lang: Language, src: &str, facts: &FileFacts, endpoints: &[EndpointFact]) -> Vec<ClientCall> {
    let rules: Vec<&ClientRule> = lang.info().clients.iter().filter(|r| !r.is_graphql() && imported(r, facts)).collect();
    if rules.is_empty() {
        return Vec::new();
    }
    let calls = scan_calls(src);
    let receiver = lang.info().receiver.as_deref();
    // A call a detector read as an endpoint registration is not a client call.
    let registrations: HashSet<u32> = endpoints.iter().map(|e| e.line).collect();
    let mut out = Vec::new();
    let mut instances: HashMap<usize, HashMap<String, Option<Template>>> = HashMap::new();
    for (i, r) in rules.iter().enumerate() {
        if !r.factories.is_empty() {
            instances.insert(i, instances_of(r, &calls, src, receiver));
        }
    }
    let empty = HashMap::new();
    'calls: for c in &calls {
        if registrations.contains(&c.line) {
            continue;
        }
        let segs = segments(&c.callee, receiver);
        for (i, r) in rules.iter().enumerate() {
            let inst = instances.get(&i).unwrap_or(&empty);
            for p in &r.calls {
                let Some(m) = matches(p, &segs, inst) else { continue };
                let args = parse_args(&without_line_comments(c.args));
                let url_arg = args.positional.get(r.url as usize);
                let url_arg = match (url_arg, &r.url_option) {
                    (Some(Arg::Obj(fields)), Some(o)) => fields.iter().find(|(k, _)| k == o).map(|(_, v)| v),
                    (None, Some(o)) => args.get(o),
                    (a, _) => a,
                };
                let method = m
                    .verb
                    .or_else(|| r.method_arg.and_then(|a| args.positional.get(a as usize)).and_then(|a| verb_in(&a.text())))
                    .or_else(|| r.method_option.as_deref().and_then(|o| option(&args, o)).and_then(|a| verb_in(&a.text())))
                    .or_else(|| r.method.clone());
                let mut t = url_arg.and_then(|a| template(&arg_text(a, c.args)));
                // A wildcard receiver (`*.get`) needs a URL-shaped argument: `list.get(0)`
                // is no request.
                let shaped = t.as_ref().is_some_and(|t| t.base_expr.is_some() || t.rest.starts_with('/') || m.instance.is_some());
                if p.contains('*') && !shaped {
                    continue;
                }
                if let Some(inst) = m.instance.as_ref().and_then(|n| inst.get(n)).and_then(Option::as_ref) {
                    t = Some(match t {
                        Some(t) if t.base.is_none() && t.base_expr.is_none() => Template { rest: t.rest, ..inst.clone() },
                        Some(t) => t,
                        None => Template { rest: String::new(), ..inst.clone() },
                    });
                }
                let (base, base_expr, url) = match t {
                    Some(t) => resolve_in_file(t, src),
                    None => (None, None, None),
                };
                if r.url_required && url.is_none() {
                    continue;
                }
                out.push(ClientCall {
                    library: r.library.clone(),
                    method,
                    url,
                    base,
                    base_expr,
                    line: c.line,
                    column: column_of(src, c.start),
                    caller: caller_of(facts, c.start),
                    graphql: false,
                    document: None,
                });
                continue 'calls;
            }
        }
    }
    if rules.iter().any(|r| !r.elements.is_empty()) {
        for e in scan_elements(src) {
            let segs = segments(&e.name, None);
            let Some(r) = rules.iter().enumerate().find_map(|(i, r)| {
                let inst = instances.get(&i).unwrap_or(&empty);
                let m = r.elements.iter().find_map(|p| matches(p, &segs, inst))?;
                // a named element is the library's when the file imports that name from it
                let own = m.instance.is_some() || r.imports.is_empty() || imports_name_from(r, facts, &segs[0]);
                own.then_some(*r)
            }) else {
                continue;
            };
            let attr = |name: Option<&str>| name.and_then(|n| e.attrs.iter().find(|(k, _)| k == n)).map(|(_, v)| v.as_str());
            let method = attr(r.method_option.as_deref()).and_then(verb_in).or_else(|| r.method.clone());
            // an attribute's value: a string, or an expression with a literal part (not a
            // bare name: `action={save}` is a function)
            let t = attr(r.url_option.as_deref()).and_then(|v| match v.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
                Some(expr) => template(expr).filter(|t| !t.rest.is_empty()),
                None => template(v),
            });
            let (base, base_expr, url) = match t {
                Some(t) => resolve_in_file(t, src),
                None if r.url_required => continue,
                None => (None, None, None),
            };
            out.push(ClientCall {
                library: r.library.clone(),
                method,
                url,
                base,
                base_expr,
                line: e.line,
                column: column_of(src, e.start),
                caller: caller_of(facts, e.start),
                graphql: false,
                document: None,
            });
        }
    }
    out
}

/// Whether the file binds `name` by an import of one of the rule's modules.
fn imports_name_from(r: &ClientRule, facts: &FileFacts, name: &str) -> bool {
    facts.imports.iter().any(|i| {
        i.local_name() == Some(name)
            && r.imports.iter().any(|m| i.module == *m || i.module.starts_with(&format!("{m}/")) || i.module.ends_with(&format!("/{m}")))
    })
}

/// A JSX element's opening tag as written: its name (`Form`, `fetcher.Form`), its
/// attributes with their values as written (`"/users"`, `{`/u/${id}`}`; a bare attribute
/// `""`), where its `<` is.
pub(super) struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub start: usize,
    pub line: u32,
}

/// The JSX opening tags of a text: a `<` right before a name, not after a name or a closing
/// bracket (`Array<Form>` is a type argument, `i<n` a comparison), and attributes up to `>`
/// or `/>`. Strings and comment lines are skipped; a tag that does not parse is no element.
pub(super) fn scan_elements(src: &str) -> Vec<Element> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut quote: Option<u8> = None;
    let mut line = 1u32;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            if quote.is_some_and(|q| q != b'`') {
                quote = None;
            }
            i += 1;
            continue;
        }
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'<' if b.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_' || *n == b'$') => {
                let before = src[..i].trim_end();
                // (after the last character that is no word's, whatever its width: `，<T`)
                let start = before.char_indices().rev().find(|&(_, ch)| !(ch.is_alphanumeric() || ch == '_' || ch == '$')).map_or(0, |(k, ch)| k + ch.len_utf8());
                let word = &before[start..];
                let keyword = matches!(word, "return" | "yield" | "await" | "case" | "default" | "else" | "do" | "in" | "of");
                let prev = before.bytes().next_back();
                if keyword || !prev.is_some_and(|p| p.is_ascii_alphanumeric() || matches!(p, b'_' | b'$' | b')' | b']' | b'.')) {
                    if let Some((e, end)) = element_at(src, i, line) {
                        line += src[i..end].matches('\n').count() as u32;
                        out.push(e);
                        i = end;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The opening tag starting at `<` (byte `at`) and the byte after it.
fn element_at(src: &str, at: usize, line: u32) -> Option<(Element, usize)> {
    let b = src.as_bytes();
    let name_end = (at + 1..b.len()).find(|&k| !(b[k].is_ascii_alphanumeric() || matches!(b[k], b'_' | b'$' | b'.' | b'-'))).unwrap_or(b.len());
    let name = src[at + 1..name_end].to_string();
    let mut attrs = Vec::new();
    let mut k = name_end;
    loop {
        while k < b.len() && b[k].is_ascii_whitespace() {
            k += 1;
        }
        match b.get(k)? {
            b'>' => return Some((Element { name, attrs, start: at, line }, k + 1)),
            b'/' if b.get(k + 1) == Some(&b'>') => return Some((Element { name, attrs, start: at, line }, k + 2)),
            b'{' => k = balanced_brace(b, k)?,
            c if c.is_ascii_alphabetic() || *c == b'_' => {
                let s = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || matches!(b[k], b'_' | b'-' | b':')) {
                    k += 1;
                }
                let key = src[s..k].to_string();
                let mut j = k;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if b.get(j) != Some(&b'=') {
                    attrs.push((key, String::new()));
                    continue;
                }
                j += 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                let v0 = j;
                match b.get(j)? {
                    q @ (b'"' | b'\'') => {
                        let close = src[j + 1..].find(*q as char)? + j + 1;
                        k = close + 1;
                    }
                    b'{' => k = balanced_brace(b, j)?,
                    _ => return None,
                }
                attrs.push((key, src[v0..k].to_string()));
            }
            _ => return None,
        }
        if k - at > 4000 {
            return None;
        }
    }
}

/// The byte after the `}` closing the `{` at `open` (strings skipped), within 2000 bytes.
fn balanced_brace(b: &[u8], open: usize) -> Option<usize> {
    matching(b, open, 2000).map(|i| i + 1)
}

/// The file imports the rule's library (a module starting with one of `imports`), or the
/// rule is a global's.
pub(super) fn imported(r: &ClientRule, facts: &FileFacts) -> bool {
    r.imports.is_empty()
        || facts.imports.iter().any(|i| {
            r.imports.iter().any(|m| {
                i.module == *m || i.module.starts_with(&format!("{m}/")) || i.module.starts_with(&format!("{m}.")) || i.module.ends_with(&format!("/{m}"))
            })
        })
}

/// An argument list without its `// …` line comments (a comment after `{` of a call
/// written over several lines); `//` after a non-space (`https://`) is kept.
fn without_line_comments(args: &str) -> String {
    args.lines()
        .map(|l| match l.find(" //").or_else(|| l.trim_start().starts_with("//").then_some(0)) {
            Some(i) if !l[..i].contains(['"', '\'', '`']) || l[..i].matches(['"', '\'', '`']).count() % 2 == 0 => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The innermost function or method whose range holds byte `at`.
pub(super) fn caller_of(facts: &FileFacts, at: usize) -> Option<(String, u32)> {
    let at = at as u32;
    facts
        .symbols
        .iter()
        .filter(|s| matches!(s.label, Label::Function | Label::Method) && s.range.start_byte <= at && at < s.range.end_byte)
        .min_by_key(|s| s.range.end_byte - s.range.start_byte)
        .map(|s| (s.qualified_name.clone(), s.range.start_line))
}

/// The value of an option named `o` in the call: a named argument (`method="POST"`) or a
/// field of an object argument (`{ method: 'POST' }`).
fn option<'a>(args: &'a super::util::Args, o: &str) -> Option<&'a Arg> {
    args.get(o).or_else(|| {
        args.positional.iter().find_map(|a| match a {
            Arg::Obj(fields) => fields.iter().find(|(k, _)| k == o).map(|(_, v)| v),
            _ => None,
        })
    })
}

/// An argument's source text (a string literal quoted again, so `template` reads one form).
fn arg_text(a: &Arg, _args: &str) -> String {
    match a {
        Arg::Str(s) => format!("\"{}\"", s.replace('"', "\\\"")),
        Arg::Other(s) => s.clone(),
        a => a.text(),
    }
}

/// The HTTP method a text names: `"POST"`, `'post'`, `HttpMethod.POST`, `http.MethodPost`,
/// `HttpMethod.Post`.
fn verb_in(text: &str) -> Option<String> {
    let t = unquote(text).unwrap_or_else(|| text.to_string());
    let last = t.rsplit(['.', ':']).next().unwrap_or(&t);
    let last = last.strip_prefix("Method").filter(|s| !s.is_empty()).unwrap_or(last);
    let l = last.to_ascii_lowercase();
    VERBS.contains(&l.as_str()).then(|| l.to_ascii_uppercase())
}

/// The callee's segments, a leading receiver (`this`, `self`) dropped.
pub(super) fn segments(callee: &str, receiver: Option<&str>) -> Vec<String> {
    let mut segs: Vec<String> = callee.split('.').filter(|s| !s.is_empty()).map(str::to_string).collect();
    if segs.len() > 1 && receiver.is_some_and(|r| segs[0] == r) {
        segs.remove(0);
    }
    segs
}

pub(super) struct Matched {
    verb: Option<String>,
    instance: Option<String>,
}

/// Whether callee segments match a pattern (anchored both ends).
pub(super) fn matches(pattern: &str, segs: &[String], instances: &HashMap<String, Option<Template>>) -> Option<Matched> {
    let pat: Vec<&str> = pattern.split('.').collect();
    if pat.len() != segs.len() {
        return None;
    }
    let mut m = Matched { verb: None, instance: None };
    for (p, s) in pat.iter().zip(segs) {
        if *p == "*" {
            continue;
        }
        if *p == "{instance}" {
            if !instances.contains_key(s.as_str()) {
                return None;
            }
            m.instance = Some(s.clone());
            continue;
        }
        let slot = ["{verb}", "{Verb}", "{VERB}"].iter().find_map(|v| p.find(v).map(|i| (i, *v)));
        match slot {
            Some((i, v)) => {
                let (pre, post) = (&p[..i], &p[i + v.len()..]);
                let mid = s.strip_prefix(pre).and_then(|r| r.strip_suffix(post))?;
                let verb = VERBS.iter().find(|w| {
                    let cased = match v {
                        "{verb}" => w.to_string(),
                        "{VERB}" => w.to_ascii_uppercase(),
                        _ => format!("{}{}", w[..1].to_ascii_uppercase(), &w[1..]),
                    };
                    cased == mid
                })?;
                m.verb = Some(verb.to_ascii_uppercase());
            }
            None if p == s => {}
            None => return None,
        }
    }
    Some(m)
}

/// The names the file binds to calls of the rule's factories (`const api = axios.create(…)`,
/// `this.webClient = WebClient.builder().baseUrl(…).build()`, `with httpx.Client(…) as c`),
/// each with the base URL the call gives.
fn instances_of(r: &ClientRule, calls: &[Call<'_>], src: &str, receiver: Option<&str>) -> HashMap<String, Option<Template>> {
    let mut out = HashMap::new();
    let none = HashMap::new();
    for c in calls {
        let segs = segments(&c.callee, receiver);
        if !r.factories.iter().any(|f| matches(f, &segs, &none).is_some()) {
            continue;
        }
        let args = parse_args(c.args);
        let base = r
            .base_option
            .as_deref()
            .and_then(|o| option(&args, o))
            .or_else(|| r.base_arg.and_then(|i| args.positional.get(i as usize)))
            .and_then(|a| template(&arg_text(a, c.args)))
            .map(|t| Template { base: None, base_expr: t.base_expr, rest: t.rest })
            .map(|t| {
                // The instance's base is the whole template (`baseURL: API + '/v1'`).
                let (b, e, u) = resolve_in_file(t, src);
                Template { base: b.map(|b| join_paths(&b, u.as_deref().unwrap_or(""))).or_else(|| e.is_none().then(|| u.clone().unwrap_or_default())), base_expr: e.clone(), rest: if e.is_some() { u.unwrap_or_default() } else { String::new() } }
            });
        if let Some(name) = bound_name(src, c) {
            out.insert(name, base);
        }
    }
    out
}

/// The name an assignment or a `with … as` binds the call's value to.
fn bound_name(src: &str, c: &Call<'_>) -> Option<String> {
    let ident = |s: &str| -> Option<String> {
        let s = s.trim();
        let s = match s.find(':') {
            Some(i) if !s[i..].starts_with("::") => &s[..i],
            _ => s,
        };
        let s = s.trim_end();
        let start = s.rfind(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$')).map_or(0, |i| i + 1);
        let name = &s[start..];
        (!name.is_empty() && !name.chars().next().is_some_and(|ch| ch.is_ascii_digit())).then(|| name.to_string())
    };
    // `x = <call>` / `x := <call>`: the statement's text before the callee.
    let line_start = src[..c.start].rfind(['\n', ';', '{', '(', ',']).map_or(0, |i| i + 1);
    let before = src[line_start..c.start].trim_end();
    let before = before.strip_suffix("await").unwrap_or(before).trim_end();
    let before = before.strip_suffix("new").unwrap_or(before).trim_end();
    if let Some(lhs) = before.strip_suffix('=').filter(|l| !l.ends_with(['=', '!', '<', '>'])) {
        return ident(lhs.trim_end_matches(':'));
    }
    // `with httpx.Client(…) as client:` / `async with aiohttp.ClientSession() as session:`
    let after = &src[c.end..];
    let after = after.trim_start();
    if let Some(rest) = after.strip_prefix("as ") {
        let end = rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_')).unwrap_or(rest.len());
        return (end > 0).then(|| rest[..end].to_string());
    }
    None
}

/// A URL as a call writes it: the named base it starts with, and the rest with its
/// parameters as `{}`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Template {
    /// A known base path (from an instance).
    base: Option<String>,
    base_expr: Option<String>,
    rest: String,
}

/// Reads a URL expression: a literal, a template (`${id}`, f-string `{id}`, C# `$"{id}"`),
/// a concatenation (`BASE + "/users/" + id`), a format call (`fmt.Sprintf("/u/%d", id)`,
/// `"/u/%s" % id`, `"/u/{}".format(id)`).
fn template(text: &str) -> Option<Template> {
    let t = text.trim();
    for f in ["fmt.Sprintf(", "String.format(", "string.Format(", "url.format("] {
        if let Some(inner) = t.strip_prefix(f).and_then(|r| r.strip_suffix(')')) {
            let first = parse_args(&format!("({inner})")).positional.into_iter().next()?;
            let s = match first {
                Arg::Str(s) => s,
                _ => return None,
            };
            return Some(Template { base: None, base_expr: None, rest: printf_params(&s) });
        }
    }
    let parts = split_at_top(t, '+');
    let mut base_expr = None;
    let mut rest = String::new();
    for (i, p) in parts.iter().enumerate() {
        let p = p.trim();
        let formatted = strip_format_call(p);
        let printf = formatted.len() != p.len() && p[formatted.len()..].trim_start().starts_with('%');
        if let Some(s) = literal(formatted) {
            let (lead, body) = s;
            let body = if printf { printf_params(&body) } else { body };
            if i == 0 {
                if let Some(l) = lead {
                    base_expr = Some(l);
                }
            }
            rest.push_str(&body);
        } else if i == 0 {
            base_expr = Some(p.to_string());
        } else {
            rest.push_str("{}");
        }
    }
    if base_expr.is_none() && rest.is_empty() {
        return None;
    }
    Some(Template { base: None, base_expr, rest })
}

/// `"/u/%s" % id` and `"/u/{}".format(id)`: the string part.
fn strip_format_call(p: &str) -> &str {
    if let Some(i) = p.rfind(".format(") {
        if p.ends_with(')') {
            return &p[..i];
        }
    }
    if let Some(i) = p.find(" % ") {
        return p[..i].trim_end();
    }
    p
}

/// `%d`, `%s`, `%v` -> `{}`.
fn printf_params(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '%' {
            while it.peek().is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | '#')) {
                it.next();
            }
            if it.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                it.next();
                out.push_str("{}");
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A string literal's text with its interpolations as `{}`, and the expression of an
/// interpolation it starts with (a base: `${API}/users`).
fn literal(p: &str) -> Option<(Option<String>, String)> {
    let (prefix_len, open) = {
        let q = p.find(['"', '\'', '`'])?;
        (q, p[q..].chars().next()?)
    };
    let prefix = &p[..prefix_len];
    if !prefix.chars().all(|c| c.is_ascii_alphabetic() || c == '$' || c == '@') || prefix.len() > 2 {
        return None;
    }
    let inner = p[prefix_len + 1..].strip_suffix(open)?;
    let interpolates = open == '`' || prefix.contains(['f', 'F', '$']);
    if !interpolates {
        return Some((None, unquote(p).unwrap_or_else(|| inner.to_string())));
    }
    let mut out = String::new();
    let mut lead = None;
    let mut i = 0;
    let b = inner.as_bytes();
    while i < b.len() {
        let js = open == '`' && b[i] == b'$' && b.get(i + 1) == Some(&b'{');
        let py = open != '`' && b[i] == b'{' && b.get(i + 1) != Some(&b'{');
        if js || py {
            let from = if js { i + 2 } else { i + 1 };
            let mut depth = 1;
            let mut j = from;
            while j < b.len() && depth > 0 {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let expr = inner[from..j.saturating_sub(1).max(from)].trim();
            if i == 0 && out.is_empty() {
                lead = Some(expr.to_string());
            } else {
                out.push_str("{}");
            }
            i = j;
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    Some((lead, out))
}

/// A template's base resolved where this file says it: a constant of the file, an absolute
/// URL's host dropped. Returns (base path, base expression left for the link, URL rest).
fn resolve_in_file(t: Template, src: &str) -> (Option<String>, Option<String>, Option<String>) {
    let mut base = t.base;
    let mut expr = t.base_expr;
    let mut rest = t.rest;
    if let Some(e) = &expr {
        let name = e.rsplit('.').next().unwrap_or(e);
        if let Some(v) = constant_in(src, name) {
            let (b, r) = split_origin(&v);
            base = Some(join_paths(base.as_deref().unwrap_or("/"), &if b { r } else { v.clone() }));
            expr = None;
        }
    }
    if base.is_none() && expr.is_none() {
        let (absolute, r) = split_origin(&rest);
        if absolute {
            base = Some("/".into());
            rest = r;
        }
    }
    let rest = rest.split(['?', '#']).next().unwrap_or("").to_string();
    (base, expr, Some(rest))
}

/// `http://host:8000/api` -> (true, `/api`); anything else unchanged.
pub(super) fn split_origin(u: &str) -> (bool, String) {
    for s in ["http://", "https://", "//"] {
        if let Some(r) = u.strip_prefix(s) {
            return (true, r.find('/').map_or("/".to_string(), |i| r[i..].to_string()));
        }
    }
    (false, u.to_string())
}

fn join_paths(a: &str, b: &str) -> String {
    normalize_path(&format!("{a}/{b}"))
}

/// Every call of the text: callee (argument lists dropped) and argument text. Strings are
/// skipped; a line starting with a comment marker is skipped.
pub(super) fn scan_calls(src: &str) -> Vec<Call<'_>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut quote: Option<u8> = None;
    let mut line = 1u32;
    let mut line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            if quote.is_some_and(|q| q != b'`' && q != b'3') {
                quote = None;
            }
            i += 1;
            continue;
        }
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if line_start && !c.is_ascii_whitespace() {
            line_start = false;
            let rest = &src[i..];
            if rest.starts_with("//") || rest.starts_with('#') || rest.starts_with("/*") || rest.starts_with("* ") {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' => {
                if let Some((callee, start)) = callee_before(src, i) {
                    if let Some(end) = matching_paren(b, i) {
                        out.push(Call { callee, args: &src[i..=end], start, end: end + 1, line });
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The callee ending just before the `(` at `open`: names, `.`, `?.`, `!`, call groups
/// (kept as `()`), a generic argument list right before the parenthesis skipped.
fn callee_before(src: &str, open: usize) -> Option<(String, usize)> {
    let b = src.as_bytes();
    let mut j = open;
    // `get<User[]>(`: skip a type argument list.
    if j > 0 && b[j - 1] == b'>' {
        j = matching_open(b, j, (b'<', b'>'), b"();\n=", usize::MAX)?;
    }
    let end = j;
    let mut parts: Vec<String> = Vec::new();
    let mut cur_end = j;
    loop {
        // a name
        let mut k = cur_end;
        while k > 0 && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_' || b[k - 1] == b'$' || b[k - 1] == b'&') {
            k -= 1;
        }
        if k == cur_end {
            break;
        }
        let name = src[k..cur_end].trim_start_matches('&').to_string();
        parts.push(name);
        j = k;
        // a `.`, `?.`, `!.` before it, then a name or a call group
        let mut d = j;
        if d > 0 && b[d - 1] == b'.' {
            d -= 1;
            if d > 0 && (b[d - 1] == b'?' || b[d - 1] == b'!') {
                d -= 1;
            }
        } else {
            break;
        }
        if d > 0 && b[d - 1] == b')' {
            // a call group: find its `(`
            let Some(k) = matching_open(b, d, (b'(', b')'), b"", 2000) else { break };
            // the group belongs to the name before it
            parts.push(String::from("()"));
            cur_end = k;
            j = k;
            continue;
        }
        cur_end = d;
        if cur_end == 0 {
            break;
        }
    }
    if parts.is_empty() || j == end {
        return None;
    }
    // reversed: names and `()` markers, a marker following (in source order) its name
    parts.reverse();
    let mut segs: Vec<String> = Vec::new();
    for p in parts {
        match segs.last_mut() {
            Some(prev) if p == "()" => prev.push_str("()"),
            _ if p == "()" => {}
            _ => segs.push(p),
        }
    }
    Some((segs.join("."), j))
}

/// The `open` bracket matching the `close` one at `end - 1`, scanning backwards: None when
/// a `stop` byte comes first, or nothing matches within `limit` bytes.
fn matching_open(b: &[u8], end: usize, (open, close): (u8, u8), stop: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (0..end).rev() {
        if end - k > limit {
            return None;
        }
        let c = b[k];
        if c == close {
            depth += 1;
        } else if c == open {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(k);
            }
        } else if stop.contains(&c) {
            return None;
        }
    }
    None
}

/// The `)` closing the `(` at `open` (strings skipped), within 4000 bytes.
fn matching_paren(b: &[u8], open: usize) -> Option<usize> {
    matching(b, open, 4000)
}

/// Where the bracket at `open` closes, strings (`"`, `'`, `` ` ``, with `\` escapes)
/// skipped, looking at most `window` bytes ahead.
fn matching(b: &[u8], open: usize, window: usize) -> Option<usize> {
    navegador_model::brackets::matching(b, open, &navegador_model::brackets::Brackets { quotes: true, window, ..Default::default() })
}

/// `/users/{}`-form segments of a path: a parameter in any framework's syntax (`{id}`,
/// `:id`, `<int:id>`, `*rest`, `${id}`) is `{}`.
pub fn path_segments(p: &str) -> Vec<String> {
    p.split(['?', '#'])
        .next()
        .unwrap_or("")
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| if s.contains('{') || s.starts_with([':', '<', '*', '$']) || s.starts_with('(') { "{}".to_string() } else { s.to_string() })
        .collect()
}

/// The normalized form of an endpoint's or a call's path (`/users/{}`).
pub fn normalize_template(p: &str) -> String {
    format!("/{}", path_segments(p).join("/"))
}

/// How well a call's path matches an endpoint's: (confidence, reason), or none.
fn score(call: &[String], suffix: bool, method: Option<&str>, ep: &[String], ep_method: Option<&str>) -> Option<(f64, &'static str)> {
    if let (Some(a), Some(b)) = (method, ep_method) {
        if a != b {
            return None;
        }
    }
    if suffix {
        if ep.len() < call.len() || !call.iter().any(|s| s != "{}") {
            return None;
        }
    } else if ep.len() != call.len() {
        return None;
    }
    let tail = &ep[ep.len() - call.len()..];
    let mut literal_for_param = false;
    for (c, e) in call.iter().zip(tail) {
        if c == e {
            continue;
        }
        if e == "{}" {
            literal_for_param = true;
            continue;
        }
        return None;
    }
    let (mut conf, mut reason) = (1.0, "exact template match");
    if literal_for_param {
        conf -= 0.1;
        reason = "a literal for a parameter";
    }
    if suffix {
        conf -= 0.2;
        reason = if literal_for_param { "suffix match (base unknown), a literal for a parameter" } else { "suffix match (base unknown)" };
    }
    if method.is_none() {
        conf -= 0.2;
        reason = "method unknown";
    }
    Some((conf, reason))
}

/// One REST endpoint as the link sees it.
struct Target {
    id: i64,
    method: Option<String>,
    segs: Vec<String>,
}

/// What a link pass did: edges written, sites in all, sites linked to no endpoint.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Linked {
    pub edges: u64,
    pub sites: u64,
    pub unmatched: u64,
}

/// Brings every `HTTP_CALLS` and `GRAPHQL_CALLS` edge in line with the files' client sites
/// and the endpoints.
pub(super) fn link(tx: &IngestTx<'_>, root: &Path) -> Result<Linked, StoreError> {
    let mut out = Linked::default();
    let files = tx.files_with_http_calls()?;
    type Site = (i64, i64, EdgeType, (u32, u32));
    let mut have: HashMap<Site, Map<String, Value>> = HashMap::new();
    for ty in [EdgeType::HttpCalls, EdgeType::GraphqlCalls] {
        for (src, dst, at, props) in tx.edges_of_type(ty)? {
            have.insert((src, dst, ty, at), props);
        }
    }
    if files.is_empty() {
        for (src, dst, ty, at) in have.into_keys() {
            tx.delete_edge_at(src, dst, ty, at)?;
        }
        return Ok(out);
    }
    let endpoints = tx.endpoint_nodes()?;
    let live = |e: &&navegador_store::NodeRow, kind: &str| {
        e.props.get("kind").and_then(Value::as_str) == Some(kind) && e.props.get("test").and_then(Value::as_bool) != Some(true)
    };
    let targets: Vec<Target> = endpoints
        .iter()
        .filter(|e| live(e, super::REST))
        .filter_map(|e| {
            let p = e.props.get("path").and_then(Value::as_str)?;
            Some(Target { id: e.id, method: e.props.get("method").and_then(Value::as_str).map(str::to_string), segs: path_segments(p) })
        })
        .collect();
    // GraphQL root fields by (operation type, field)
    let mut fields: HashMap<(String, String), Vec<i64>> = HashMap::new();
    for e in endpoints.iter().filter(|e| live(e, super::GRAPHQL)) {
        let s = |k: &str| e.props.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        fields.entry((s("method"), s("path"))).or_default().push(e.id);
    }
    let documents = if files.iter().any(|(_, _, p)| has_document_refs(p)) { Documents::read(tx)? } else { Documents::default() };
    let mut want: Vec<(i64, i64, EdgeType, (u32, u32), Map<String, Value>, Resolution)> = Vec::new();
    for (file_id, file, props) in &files {
        let Some(sites) = props.get("http_calls").and_then(Value::as_array) else { continue };
        let syms = tx.symbols_in_file(file)?;
        let imports = tx.imports_in_file(file)?;
        for s in sites {
            out.sites += 1;
            let line = s.get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
            let column = s.get("column").and_then(Value::as_u64).unwrap_or(0) as u32;
            let caller = s.get("caller").and_then(Value::as_str);
            let caller_line = s.get("caller_line").and_then(Value::as_u64).unwrap_or(0) as u32;
            let src = caller
                .and_then(|q| {
                    let hits: Vec<_> = syms.iter().filter(|(x, _)| x.qualified_name == q && matches!(x.label, Label::Function | Label::Method)).collect();
                    hits.iter().find(|(_, l)| *l == caller_line).or(hits.first()).map(|(x, _)| x.id)
                })
                .unwrap_or(*file_id);
            if s.get("kind").and_then(Value::as_str) == Some("graphql") {
                // the fields: the site's own, or those of the document it names, read from
                // the file an import of that name leads to
                let (selected, how): (Vec<(String, String)>, &str) = match (s.get("method").and_then(Value::as_str), s.get("url").and_then(Value::as_str)) {
                    (Some(m), Some(f)) => (vec![(m.to_string(), f.to_string())], "root field match"),
                    _ => match s.get("document").and_then(Value::as_str) {
                        Some(d) => documents.imported(tx, &imports, d)?,
                        None => (Vec::new(), ""),
                    },
                };
                let mut linked = false;
                for (m, f) in selected {
                    let Some(ids) = fields.get(&(m.clone(), f.clone())) else { continue };
                    linked = true;
                    let n = ids.len();
                    for id in ids.iter().take(5) {
                        let (conf, reason, res) =
                            if n > 1 { (1.0 / n as f64, format!("ambiguous: {n} endpoints match ({how})"), Resolution::Ambiguous) } else { (1.0, how.to_string(), Resolution::Exact) };
                        let mut p = Map::new();
                        p.insert("confidence".into(), json!((conf * 100.0).round() / 100.0));
                        p.insert("reason".into(), json!(reason));
                        p.insert("library".into(), s.get("library").cloned().unwrap_or(Value::Null));
                        p.insert("field".into(), json!(format!("{m}.{f}")));
                        want.push((src, *id, EdgeType::GraphqlCalls, (line, column), p, res));
                    }
                }
                if !linked {
                    out.unmatched += 1;
                }
                continue;
            }
            let Some(url) = s.get("url").and_then(Value::as_str) else {
                out.unmatched += 1;
                continue;
            };
            let mut base = s.get("base").and_then(Value::as_str).map(str::to_string);
            if let (None, Some(e)) = (&base, s.get("base_expr").and_then(Value::as_str)) {
                if let Some(v) = super::mounts::value_of(tx, root, file, e, &imports)? {
                    let (_, r) = split_origin(&v);
                    base = Some(r);
                }
            }
            let unknown_base = base.is_none() && s.get("base_expr").and_then(Value::as_str).is_some() || base.is_none() && !url.starts_with('/');
            let full = match &base {
                Some(b) => join_paths(b, url),
                None => url.to_string(),
            };
            let segs = path_segments(&full);
            let method = s.get("method").and_then(Value::as_str);
            let mut best: Vec<(&Target, f64, &'static str)> = Vec::new();
            for t in &targets {
                let Some((c, r)) = score(&segs, unknown_base, method, &t.segs, t.method.as_deref()) else { continue };
                match best.first().map(|b| b.1) {
                    Some(b) if c < b => {}
                    Some(b) if c > b => best = vec![(t, c, r)],
                    _ => best.push((t, c, r)),
                }
            }
            if best.is_empty() {
                out.unmatched += 1;
                continue;
            }
            let n = best.len();
            for (t, c, r) in best.into_iter().take(5) {
                let (conf, reason, res) = if n > 1 {
                    (c / n as f64, format!("ambiguous: {n} endpoints match ({r})"), Resolution::Ambiguous)
                } else {
                    (c, r.to_string(), if c >= 1.0 { Resolution::Exact } else { Resolution::Inferred })
                };
                let mut p = Map::new();
                p.insert("confidence".into(), json!((conf * 100.0).round() / 100.0));
                p.insert("reason".into(), json!(reason));
                p.insert("library".into(), s.get("library").cloned().unwrap_or(Value::Null));
                p.insert("url".into(), json!(full));
                want.push((src, t.id, EdgeType::HttpCalls, (line, column), p, res));
            }
        }
    }
    // one edge per (caller, endpoint, site): the same call listed twice links once
    want.sort_by(|a, b| (a.0, a.1, a.2.as_str(), a.3).cmp(&(b.0, b.1, b.2.as_str(), b.3)));
    want.dedup_by(|a, b| (a.0, a.1, a.2, a.3) == (b.0, b.1, b.2, b.3));
    for (src, dst, ty, at, props, res) in want {
        if let Some(old) = have.remove(&(src, dst, ty, at)) {
            if old == props {
                continue;
            }
            tx.delete_edge_at(src, dst, ty, at)?;
        }
        tx.insert_edge_with_props(src, dst, ty, Some(res), Some(at), &props)?;
        out.edges += 1;
    }
    for (src, dst, ty, at) in have.into_keys() {
        tx.delete_edge_at(src, dst, ty, at)?;
    }
    Ok(out)
}

/// Whether a file's sites name GraphQL documents to read from other files.
fn has_document_refs(props: &Map<String, Value>) -> bool {
    props.get("http_calls").and_then(Value::as_array).is_some_and(|a| a.iter().any(|s| s.get("url").is_none_or(Value::is_null) && s.get("document").is_some_and(Value::is_string)))
}

/// The GraphQL documents files bind to names (`graphql_documents`), by file.
#[derive(Default)]
struct Documents {
    by_file: HashMap<String, Map<String, Value>>,
}

impl Documents {
    fn read(tx: &IngestTx<'_>) -> Result<Documents, StoreError> {
        let mut by_file = HashMap::new();
        for (_, file, mut props) in tx.files_with_prop("graphql_documents")? {
            if let Some(Value::Object(d)) = props.remove("graphql_documents") {
                by_file.insert(file, d);
            }
        }
        Ok(Documents { by_file })
    }

    fn fields(v: &Value) -> Vec<(String, String)> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p.get(0)?.as_str()?.to_string(), p.get(1)?.as_str()?.to_string())))
            .collect()
    }

    /// The fields of the document `name` that an import of the file binds: in the file the
    /// resolved import leads to; else the one document of that name in the workspace.
    fn imported(&self, tx: &IngestTx<'_>, imports: &[(i64, String, Option<String>, Option<String>)], name: &str) -> Result<(Vec<(String, String)>, &'static str), StoreError> {
        for (id, _, imported, alias) in imports {
            if alias.as_deref().or(imported.as_deref()) != Some(name) {
                continue;
            }
            let original = imported.as_deref().unwrap_or(name);
            for t in tx.import_targets(*id)? {
                let Some(d) = t.file_path.as_deref().and_then(|f| self.by_file.get(f)) else { continue };
                let key = if t.label == "File" { original } else { t.name.as_deref().unwrap_or(original) };
                if let Some(v) = d.get(key) {
                    return Ok((Self::fields(v), "root field match (document imported)"));
                }
            }
        }
        let named: Vec<&Value> = self.by_file.values().filter_map(|d| d.get(name)).collect();
        if let [v] = named.as_slice() {
            return Ok((Self::fields(v), "root field match (document found by name)"));
        }
        Ok((Vec::new(), ""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_normalized() {
        let t = |s: &str| template(s).map(|t| (t.base_expr, t.rest));
        assert_eq!(t("`/users/${id}`"), Some((None, "/users/{}".into())));
        assert_eq!(t("`${API}/users/${id}/posts`"), Some((Some("API".into()), "/users/{}/posts".into())));
        assert_eq!(t("f\"{BASE}/items/{item_id}\""), Some((Some("BASE".into()), "/items/{}".into())));
        assert_eq!(t("BASE_URL + \"/users/\" + id"), Some((Some("BASE_URL".into()), "/users/{}".into())));
        assert_eq!(t("fmt.Sprintf(\"/users/%d\", id)"), Some((None, "/users/{}".into())));
        assert_eq!(t("\"/u/%s\" % uid"), Some((None, "/u/{}".into())));
        assert_eq!(t("$\"/api/users/{id}\""), Some((None, "/api/users/{}".into())));
        assert_eq!(normalize_template("/users/:id/<int:pk>/{name}/*rest?x=1"), "/users/{}/{}/{}/{}");
    }

    #[test]
    fn callees_drop_arguments() {
        let calls = scan_calls("const x = this.webClient.get().uri(\"/a/{id}\", id).retrieve();\n// fetch('/no')\nhttp.get<User[]>('/b')");
        let names: Vec<&str> = calls.iter().map(|c| c.callee.as_str()).collect();
        assert!(names.contains(&"this.webClient.get().uri"), "{names:?}");
        assert!(names.contains(&"http.get"), "{names:?}");
        assert!(!names.contains(&"fetch"), "{names:?}");
    }

    #[test]
    fn jsx_elements_are_tags_not_types() {
        let src = "const a: Array<Form> = [];\nif (i<n) x();\nreturn <Form method=\"post\" action={`/u/${id}`} {...rest} disabled>\n// <form action=\"/no\">\nconst s = \"<form action='/no'>\";\n<fetcher.Form\n  action='/x' />";
        let got: Vec<(String, Vec<(String, String)>, u32)> = scan_elements(src).into_iter().map(|e| (e.name, e.attrs, e.line)).collect();
        let attrs = |v: &[(&str, &str)]| v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                ("Form".into(), attrs(&[("method", "\"post\""), ("action", "{`/u/${id}`}"), ("disabled", "")]), 3),
                ("fetcher.Form".into(), attrs(&[("action", "'/x'")]), 6),
            ]
        );
    }

    #[test]
    fn a_tag_after_a_wide_character_is_read() {
        // a full-width comma before `<` (a Chinese doc comment of a `.d.ts`): no byte index
        // inside it
        let got: Vec<String> = scan_elements("x = a，<Form action=\"/u\" />").into_iter().map(|e| e.name).collect();
        assert_eq!(got, vec!["Form".to_string()]);
    }

    #[test]
    fn paths_score() {
        let s = |a: &str| path_segments(a);
        assert_eq!(score(&s("/users/{}"), false, Some("GET"), &s("/users/{id}"), Some("GET")).map(|x| x.1), Some("exact template match"));
        assert_eq!(score(&s("/users/{}"), false, Some("POST"), &s("/users/{id}"), Some("GET")), None);
        assert_eq!(score(&s("/users"), true, Some("GET"), &s("/api/v1/users"), Some("GET")).map(|x| x.1), Some("suffix match (base unknown)"));
        assert_eq!(score(&s("/users/42"), false, Some("GET"), &s("/users/{id}"), Some("GET")).map(|x| x.1), Some("a literal for a parameter"));
        assert_eq!(score(&s("/{}"), true, Some("GET"), &s("/users/{id}"), Some("GET")), None);
    }
}
