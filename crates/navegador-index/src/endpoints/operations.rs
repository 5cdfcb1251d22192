//! GraphQL operations as client sites, and the resolvers that serve a schema's root fields.
//!
//! Which calls send a GraphQL document is the packs' data (`[[client]]` rules with `kind =
//! "graphql"`): callee patterns (`useQuery`, `*.query`), the tags of templates holding a
//! document (`gql`, `graphql`), `<file>` for a file that is one (`.graphql` operations).
//! Each root field an operation selects is a site (`method` QUERY / MUTATION /
//! SUBSCRIPTION, `url` the field's name): at the call sending it (the document inline, a
//! template bound to a name in the file, or a name imported: `document`, followed at link
//! time), at a template no call of a rule sends, or at the operation of a `.graphql` file.
//!
//! Resolvers, by general rules read from the facts and the text: a method annotated
//! `@QueryMapping` / `@MutationMapping` / `@SubscriptionMapping` / `@SchemaMapping(typeName
//! = "Query")` (Spring for GraphQL), `@Query()` / `@Mutation()` of TypeGraphQL and
//! `@nestjs/graphql`, a method of a class named for a root type (`resolve_<field>` of
//! graphene, a decorated `@strawberry.field`), and the keys of a resolver map's
//! `Query: { user: … }` object (JavaScript servers). A root field's endpoint `EXPOSES`
//! each resolver of its name (compared without case and `_`: strawberry's `user_by_id`
//! serves `userById`).

use std::collections::HashMap;

use navegador_model::{ClientRule, FileFacts, Label, Language, RefKind};

use super::clients::{caller_of, imported, matches, scan_calls, segments, ClientCall};
use super::util::{last_segment, parse_args, Arg};

/// One operation of a document: its type (`QUERY`, …) and root fields with their byte
/// offsets in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Operation {
    pub op: &'static str,
    pub start: usize,
    pub fields: Vec<(String, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'a> {
    Name(&'a str),
    Punct(u8),
}

/// GraphQL tokens with their offsets: names and punctuation; strings, comments, commas
/// and `${…}` interpolations of a template skipped.
fn tokens(doc: &str) -> Vec<(Tok<'_>, usize)> {
    let b = doc.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' {
            i += 1;
        } else if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'$' && b.get(i + 1) == Some(&b'{') {
            let mut depth = 0;
            while i < b.len() {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if c == b'"' {
            let block = doc[i..].starts_with("\"\"\"");
            i += if block { 3 } else { 1 };
            while i < b.len() {
                if b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if block && doc[i..].starts_with("\"\"\"") {
                    i += 3;
                    break;
                }
                if !block && (b[i] == b'"' || b[i] == b'\n') {
                    i += 1;
                    break;
                }
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Name(&doc[s..i]), s));
        } else {
            out.push((Tok::Punct(c), i));
            i += 1;
        }
    }
    out
}

/// The token after the bracket group opening at `i` (`(`…`)`, `{`…`}`, `[`…`]`).
fn skip_group(t: &[(Tok<'_>, usize)], i: usize) -> usize {
    let (open, close) = match t.get(i) {
        Some((Tok::Punct(b'('), _)) => (b'(', b')'),
        Some((Tok::Punct(b'{'), _)) => (b'{', b'}'),
        Some((Tok::Punct(b'['), _)) => (b'[', b']'),
        _ => return i + 1,
    };
    let mut depth = 0;
    let mut j = i;
    while j < t.len() {
        match t[j].0 {
            Tok::Punct(c) if c == open => depth += 1,
            Tok::Punct(c) if c == close => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// The operations of a GraphQL document (`query Q($id: ID!) { user(id: $id) { name } }`,
/// the `{ users { id } }` shorthand), each with its root fields (aliases read through,
/// `__typename` and fragment spreads left out). Fragments and type definitions are skipped.
pub(crate) fn operations(doc: &str) -> Vec<Operation> {
    let t = tokens(doc);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let (op, start) = match t[i] {
            (Tok::Name("query"), s) => ("QUERY", s),
            (Tok::Name("mutation"), s) => ("MUTATION", s),
            (Tok::Name("subscription"), s) => ("SUBSCRIPTION", s),
            (Tok::Punct(b'{'), s) => ("QUERY", s),
            (Tok::Punct(b'('), _) | (Tok::Punct(b'['), _) => {
                i = skip_group(&t, i);
                continue;
            }
            _ => {
                // a fragment, a type definition, a directive's name: up to its body, skipped
                i += 1;
                while i < t.len() && !matches!(t[i].0, Tok::Punct(b'{') | Tok::Name("query" | "mutation" | "subscription" | "fragment")) {
                    i = if matches!(t[i].0, Tok::Punct(b'(')) { skip_group(&t, i) } else { i + 1 };
                }
                if matches!(t.get(i), Some((Tok::Punct(b'{'), _))) {
                    i = skip_group(&t, i);
                }
                continue;
            }
        };
        // the operation's name, variables and directives, up to its selection set
        while i < t.len() && !matches!(t[i].0, Tok::Punct(b'{')) {
            i = if matches!(t[i].0, Tok::Punct(b'(')) { skip_group(&t, i) } else { i + 1 };
        }
        let end = skip_group(&t, i);
        let mut fields = Vec::new();
        let mut j = i + 1;
        while j + 1 < end {
            match t[j] {
                (Tok::Punct(b'.'), _) => {
                    // `...Fragment`, `... on Query { … }`
                    while j < end && matches!(t[j].0, Tok::Punct(b'.')) {
                        j += 1;
                    }
                    if matches!(t.get(j), Some((Tok::Name("on"), _))) {
                        // an inline fragment on the root type: its fields are the root's
                        j += 2;
                        if matches!(t.get(j), Some((Tok::Punct(b'{'), _))) {
                            j += 1;
                        }
                    } else {
                        j += 1;
                    }
                }
                (Tok::Name(n), at) => {
                    let (name, at) = match (t.get(j + 1), t.get(j + 2)) {
                        (Some((Tok::Punct(b':'), _)), Some((Tok::Name(real), at2))) => {
                            j += 2;
                            (*real, *at2)
                        }
                        _ => (n, at),
                    };
                    if name != "__typename" {
                        fields.push((name.to_string(), at));
                    }
                    j += 1;
                }
                (Tok::Punct(b'@'), _) => j += 2,
                (Tok::Punct(b'(' | b'{' | b'['), _) => j = skip_group(&t, j),
                _ => j += 1,
            }
        }
        if !fields.is_empty() {
            out.push(Operation { op, start, fields });
        }
        i = end;
    }
    out
}

/// A template holding a document: where its tag starts, its text, the name it is bound to.
struct TemplateDoc<'a> {
    start: usize,
    body: &'a str,
    bound: Option<String>,
    library: &'a str,
}

/// The `tag`…`` and `tag(`…`)` templates of a text (`gql`, `graphql`).
fn templates<'a>(src: &'a str, tags: &[(&'a str, &'a str)]) -> Vec<TemplateDoc<'a>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    for (tag, library) in tags {
        for (at, _) in src.match_indices(tag) {
            if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b'$' || b[at - 1] == b'.') {
                continue;
            }
            let mut k = at + tag.len();
            if b.get(k) == Some(&b'(') {
                k += 1;
            }
            if b.get(k) != Some(&b'`') {
                continue;
            }
            let body_start = k + 1;
            let mut j = body_start;
            let mut depth = 0;
            while j < b.len() {
                match b[j] {
                    b'\\' => j += 1,
                    b'$' if b.get(j + 1) == Some(&b'{') => {
                        depth += 1;
                        j += 1;
                    }
                    b'}' if depth > 0 => depth -= 1,
                    b'`' if depth == 0 => break,
                    _ => {}
                }
                j += 1;
            }
            let body = &src[body_start..j.min(b.len())];
            out.push(TemplateDoc { start: at, body, bound: bound_to(src, at), library });
        }
    }
    out.sort_by_key(|t| t.start);
    out
}

/// The name a declaration binds the value starting at `at` to (`const GET_USER = gql`…``,
/// `export const Q: DocumentNode = …`); not an object's key or an argument.
fn bound_to(src: &str, at: usize) -> Option<String> {
    let start = src[..at].rfind(['\n', ';', '{', '(', ',', '}']).map_or(0, |i| i + 1);
    let before = src[start..at].trim_end();
    let lhs = before.strip_suffix('=').filter(|l| !l.ends_with(['=', '!', '<', '>']))?.trim_end();
    let lhs = match lhs.find(':') {
        Some(i) => &lhs[..i],
        None => lhs,
    }
    .trim_end();
    let from = lhs.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).map_or(0, |i| i + 1);
    let name = &lhs[from..];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then(|| name.to_string())
}

/// Byte offset -> (1-based line, 1-based column).
fn position(src: &str, at: usize) -> (u32, u32) {
    let before = &src[..at.min(src.len())];
    let line = before.bytes().filter(|&c| c == b'\n').count() as u32 + 1;
    let col = at - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col as u32)
}

/// The fields (operation type, root field) of a parsed document.
fn selected(doc: &str) -> Vec<(&'static str, String)> {
    operations(doc).into_iter().flat_map(|o| o.fields.into_iter().map(move |(f, _)| (o.op, f))).collect()
}

/// What one file holds of GraphQL operations: its client sites, and the documents it binds
/// to names (`GET_USER` -> its (type, root field) pairs), which other files may import.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub sites: Vec<ClientCall>,
    pub documents: Vec<(String, Vec<(&'static str, String)>)>,
}

fn site(library: &str, op: &str, field: Option<&str>, (line, column): (u32, u32), caller: Option<(String, u32)>, document: Option<&str>) -> ClientCall {
    ClientCall {
        library: library.to_string(),
        method: Some(op.to_string()).filter(|m| !m.is_empty()),
        url: field.map(str::to_string),
        base: None,
        base_expr: None,
        line,
        column,
        caller,
        graphql: true,
        document: document.map(str::to_string),
    }
}

/// The GraphQL client sites of one file, by its language's `kind = "graphql"` rules.
pub(super) fn detect(lang: Language, src: &str, facts: &FileFacts) -> Found {
    let rules: Vec<&ClientRule> = lang.info().clients.iter().filter(|r| r.is_graphql() && imported(r, facts)).collect();
    let mut out = Found::default();
    if rules.is_empty() {
        return out;
    }
    // `.graphql` operations: the file is the document, each operation its own caller.
    if let Some(r) = rules.iter().find(|r| r.tags.iter().any(|t| t == "<file>")) {
        for o in operations(src) {
            let caller = caller_of(facts, o.start);
            for (f, at) in &o.fields {
                out.sites.push(site(&r.library, o.op, Some(f), position(src, *at), caller.clone(), None));
            }
        }
        return out;
    }
    let tags: Vec<(&str, &str)> = rules.iter().flat_map(|r| r.tags.iter().map(|t| (t.as_str(), r.library.as_str()))).collect();
    let docs = templates(src, &tags);
    if docs.is_empty() && !rules.iter().any(|r| !r.calls.is_empty()) {
        return out;
    }
    let mut named: HashMap<String, Vec<(&'static str, String)>> = HashMap::new();
    for d in &docs {
        if let Some(n) = &d.bound {
            let fields = selected(d.body);
            out.documents.push((n.clone(), fields.clone()));
            named.insert(n.clone(), fields);
        }
    }
    let imports_name = |n: &str| facts.imports.iter().any(|i| i.local_name() == Some(n));
    let mut consumed = vec![false; docs.len()];
    let receiver = lang.info().receiver.as_deref();
    let none = HashMap::new();
    let calls = if rules.iter().any(|r| !r.calls.is_empty()) { scan_calls(src) } else { Vec::new() };
    'calls: for c in &calls {
        let segs = segments(&c.callee, receiver);
        for r in rules.iter().filter(|r| !r.calls.is_empty()) {
            let Some(p) = r.calls.iter().find(|p| matches(p, &segs, &none).is_some()) else { continue };
            let args_at = c.args.as_ptr() as usize - src.as_ptr() as usize;
            let pos = position(src, c.start);
            let caller = caller_of(facts, c.start);
            let mut fields: Vec<(&'static str, String)> = Vec::new();
            for (i, d) in docs.iter().enumerate() {
                if !consumed[i] && d.bound.is_none() && d.start > args_at && d.start < c.end {
                    consumed[i] = true;
                    fields.extend(selected(d.body));
                }
            }
            // documents named in the arguments: positional, or an option of an object
            let args = parse_args(c.args);
            let mut names: Vec<String> = Vec::new();
            for a in &args.positional {
                match a {
                    Arg::Other(n) => names.push(n.clone()),
                    Arg::Obj(fs) => {
                        names.extend(fs.iter().filter(|(k, _)| matches!(k.as_str(), "query" | "mutation" | "subscription" | "document")).map(|(_, v)| v.text()))
                    }
                    _ => {}
                }
            }
            let names: Vec<String> = names.into_iter().filter(|n| !n.is_empty() && n.chars().all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')).collect();
            let mut imported_doc = None;
            for n in &names {
                if let Some(fs) = named.get(n) {
                    fields.extend(fs.iter().cloned());
                } else if imported_doc.is_none() && imports_name(n) {
                    imported_doc = Some(n.clone());
                }
            }
            if fields.is_empty() {
                // a name from another file, followed at link time; or, for a named callee, a
                // document not readable here (a site without a field)
                if imported_doc.is_some() || !p.contains('*') {
                    out.sites.push(site(&r.library, "", None, pos, caller, imported_doc.as_deref()));
                }
                continue 'calls;
            }
            let doc_name = names.iter().find(|n| named.contains_key(*n)).map(String::as_str);
            for (op, f) in fields {
                out.sites.push(site(&r.library, op, Some(&f), pos, caller.clone(), doc_name));
            }
            continue 'calls;
        }
    }
    // templates no call sends, and bound to no name: sites of their own
    for (i, d) in docs.iter().enumerate() {
        if consumed[i] || d.bound.is_some() {
            continue;
        }
        let caller = caller_of(facts, d.start);
        let pos = position(src, d.start);
        for o in operations(d.body) {
            for (f, _) in &o.fields {
                out.sites.push(site(d.library, o.op, Some(f), pos, caller.clone(), None));
            }
        }
    }
    out
}

/// One resolver a file defines: (type of operation, field, the serving symbol's index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolver {
    pub op: &'static str,
    /// The field as the schema names it (a Python resolver's name camel-cased, as strawberry
    /// and graphene do by default, unless a `name` says it).
    pub field: String,
    pub symbol: u32,
    /// The `framework` of the endpoint it defines in a code-first server.
    pub framework: &'static str,
    /// Code-first: the resolver declares the field itself (an annotation, a decorator, a
    /// graphene `ObjectType`), so without a schema field it is the endpoint. A resolver map's
    /// key only serves a field a schema declares.
    pub defines: bool,
}

/// The root type an operation type's fields belong to, and back.
const ROOTS: [(&str, &str); 3] = [("Query", "QUERY"), ("Mutation", "MUTATION"), ("Subscription", "SUBSCRIPTION")];

fn root_op(type_name: &str) -> Option<&'static str> {
    ROOTS.iter().find(|(t, _)| *t == type_name).map(|(_, o)| *o)
}

/// The annotations naming a root field's resolver by their own name (Spring for GraphQL),
/// and those naming it only with the file importing a GraphQL server library (TypeGraphQL,
/// NestJS: `@Query` is also Spring Data's JPQL).
const MAPPINGS: [(&str, &str); 3] = [("QueryMapping", "QUERY"), ("MutationMapping", "MUTATION"), ("SubscriptionMapping", "SUBSCRIPTION")];
const SERVER_IMPORTS: [&str; 3] = ["type-graphql", "@nestjs/graphql", "graphql"];

/// `user_by_id` -> `userById` (strawberry's and graphene's default field names).
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for (i, c) in name.chars().enumerate() {
        if c == '_' && i > 0 {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The resolvers of one file (the module comment's rules). Each rule asks what its
/// framework asks of the class too: a Spring `@Controller`, a `@Resolver()` class
/// (TypeGraphQL, NestJS), a class decorated `@<pkg>.type` for `@<pkg>.field` (strawberry),
/// a graphene `ObjectType` named for a root type for `resolve_<field>`.
pub(crate) fn resolvers(src: &str, facts: &FileFacts) -> Vec<Resolver> {
    if !ROOTS.iter().any(|(t, _)| src.contains(t)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let server = facts.imports.iter().any(|i| SERVER_IMPORTS.iter().any(|m| i.module == *m || i.module.starts_with(&format!("{m}/"))));
    let nest = facts.imports.iter().any(|i| i.module == "@nestjs/graphql");
    let string_of = |a: Option<&Arg>| match a {
        Some(Arg::Str(s)) => Some(s.clone()),
        _ => None,
    };
    for (i, s) in facts.symbols.iter().enumerate() {
        if !matches!(s.label, Label::Function | Label::Method) {
            continue;
        }
        let ci = s.parent.filter(|p| facts.symbols[*p as usize].label == Label::Class);
        let class = ci.map(|p| &facts.symbols[p as usize]);
        let class_op = class.and_then(|c| root_op(&c.name));
        let class_has = |want: &dyn Fn(&str) -> bool| class.is_some_and(|c| c.decorators.iter().any(|(n, _, _)| want(n)));
        let mut found = None;
        for (dname, dargs, _) in &s.decorators {
            let last = last_segment(dname);
            let args = parse_args(dargs.as_deref().unwrap_or(""));
            let named = || string_of(args.get("name")).or_else(|| string_of(args.get("field")));
            let controller = || class_has(&|n| matches!(last_segment(n), "Controller" | "RestController"));
            if let Some((_, op)) = MAPPINGS.iter().find(|(m, _)| *m == last) {
                if controller() {
                    found = Some((*op, named().or_else(|| string_of(args.get("value"))).or_else(|| string_of(args.positional.first())), "spring", false));
                }
            } else if matches!(last, "SchemaMapping" | "BatchMapping") {
                let op = string_of(args.get("typeName")).and_then(|t| root_op(&t));
                if let (Some(op), true) = (op, controller()) {
                    found = Some((op, named().or_else(|| string_of(args.get("value"))), "spring", false));
                }
            } else if server && root_op(last).is_some() && dname == last && class_has(&|n| last_segment(n) == "Resolver") {
                let opt = args.positional.iter().find_map(|a| match a {
                    Arg::Obj(fs) => fs.iter().find(|(k, _)| k == "name").and_then(|(_, v)| string_of(Some(v))),
                    Arg::Str(s) => Some(s.clone()),
                    _ => None,
                });
                found = root_op(last).map(|op| (op, opt, if nest { "nestjs" } else { "graphql" }, false));
            } else if let Some(pkg) = dname.strip_suffix(&format!(".{last}")).filter(|_| matches!(last, "field" | "mutation" | "subscription")) {
                let op = match last {
                    "mutation" => Some("MUTATION"),
                    "subscription" => Some("SUBSCRIPTION"),
                    _ => class_op,
                };
                let typed = class_has(&|n| n == format!("{pkg}.type"));
                if let (Some(op), true) = (op, typed) {
                    found = Some((op, named(), "graphql", true));
                }
            }
            if found.is_some() {
                break;
            }
        }
        if found.is_none() {
            let object_type = ci.is_some_and(|c| facts.refs.iter().any(|r| r.kind == RefKind::Inherits && r.from == Some(c) && last_segment(&r.name) == "ObjectType"));
            if let (Some(op), Some(f), true) = (class_op, s.name.strip_prefix("resolve_"), object_type) {
                found = Some((op, Some(camel(f)), "graphql", false));
            }
        }
        if let Some((op, field, framework, camel_case)) = found {
            let field = field.unwrap_or_else(|| if camel_case { camel(&s.name) } else { s.name.clone() });
            out.push(Resolver { op, field, symbol: i as u32, framework, defines: true });
        }
    }
    out.extend(resolver_maps(src, facts));
    out
}

/// `Query: { user: (_, a) => …, users() { … } }` (also `"Query": {`): each key of the
/// object is the resolver of that root field when a function of the file of that name
/// starts on the key's line.
fn resolver_maps(src: &str, facts: &FileFacts) -> Vec<Resolver> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    for (ty, op) in ROOTS {
        for (at, _) in src.match_indices(ty) {
            if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b'.') {
                continue;
            }
            let mut k = at + ty.len();
            if matches!(b.get(k), Some(b'"' | b'\'')) && at > 0 && b[at - 1] == b[k] {
                k += 1;
            }
            let rest = src[k..].trim_start();
            let Some(rest) = rest.strip_prefix(':') else { continue };
            let Some(body) = rest.trim_start().strip_prefix('{') else { continue };
            let body_at = src.len() - body.len();
            // the keys at depth 1 of the object
            let mut depth = 0i32;
            let mut quote: Option<u8> = None;
            let mut key_start: Option<usize> = Some(body_at);
            let mut j = body_at;
            while j < b.len() {
                let c = b[j];
                if let Some(q) = quote {
                    if c == b'\\' {
                        j += 1;
                    } else if c == q {
                        quote = None;
                    }
                    j += 1;
                    continue;
                }
                match c {
                    b'"' | b'\'' | b'`' if depth > 0 => quote = Some(c),
                    b'{' | b'(' | b'[' => {
                        if depth == 0 {
                            if let Some(s) = key_start.take() {
                                key(src, s, j, op, facts, &mut out);
                            }
                        }
                        depth += 1;
                    }
                    b'}' | b')' | b']' => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    b':' if depth == 0 => {
                        if let Some(s) = key_start.take() {
                            key(src, s, j, op, facts, &mut out);
                        }
                    }
                    b',' if depth == 0 => key_start = Some(j + 1),
                    _ => {}
                }
                j += 1;
            }
        }
    }
    out
}

/// The key written in `src[from..to]` (`user`, `async users`, `"user"`), matched to a
/// function of the file starting on its line.
fn key(src: &str, from: usize, to: usize, op: &'static str, facts: &FileFacts, out: &mut Vec<Resolver>) {
    let text = src[from..to].trim();
    let name = text.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("").trim_matches(['"', '\'', '*']);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return;
    }
    let at = from + src[from..to].find(name).unwrap_or(0);
    let (line, _) = position(src, at);
    if let Some(i) = facts.symbols.iter().position(|s| matches!(s.label, Label::Function | Label::Method) && s.name == name && s.range.start_line == line) {
        out.push(Resolver { op, field: name.to_string(), symbol: i as u32, framework: "graphql", defines: false });
    }
}

/// A field name as resolvers may spell it: without case and `_` (`user_by_id`, `userById`).
pub(crate) fn field_key(f: &str) -> String {
    f.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_list_their_root_fields() {
        let ops = |d: &str| operations(d).into_iter().map(|o| (o.op, o.fields.into_iter().map(|f| f.0).collect::<Vec<_>>())).collect::<Vec<_>>();
        assert_eq!(ops("query GetUser($id: ID!) { user(id: $id) { id name } me: viewer { id } __typename }"), vec![("QUERY", vec!["user".to_string(), "viewer".to_string()])]);
        assert_eq!(ops("{ users { id } }"), vec![("QUERY", vec!["users".to_string()])]);
        assert_eq!(
            ops("fragment F on User { id }\nmutation M @x(a: 1) { createUser(name: \"a{\") { ...F } }\nsubscription { onUser { id } }"),
            vec![("MUTATION", vec!["createUser".to_string()]), ("SUBSCRIPTION", vec!["onUser".to_string()])]
        );
        assert_eq!(ops("type Query { user: User }"), vec![]);
        assert_eq!(ops("query Q { ...Frag ... on Query { a } b(x: [1, 2]) ${FRAG} }"), vec![("QUERY", vec!["a".to_string(), "b".to_string()])]);
    }

    #[test]
    fn templates_bind_names() {
        let src = "export const GET_USER: DocumentNode = gql`query { user { id } }`;\nuseQuery(gql`{ users { id } }`);\nconst x = graphql(`mutation { m }`);";
        let t = templates(src, &[("gql", "gql"), ("graphql", "relay")]);
        let got: Vec<(Option<String>, &str)> = t.iter().map(|t| (t.bound.clone(), t.body)).collect();
        assert_eq!(
            got,
            vec![(Some("GET_USER".into()), "query { user { id } }"), (None, "{ users { id } }"), (Some("x".into()), "mutation { m }")]
        );
        assert_eq!(field_key("user_by_id"), field_key("userById"));
    }
}
