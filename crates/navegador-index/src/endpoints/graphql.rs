//! GraphQL schemas: each field of a root operation type is an endpoint of kind `graphql`,
//! `method` QUERY / MUTATION / SUBSCRIPTION and `path` the field's name, handled by the
//! field itself. The root types are `Query`, `Mutation` and `Subscription`, or those a
//! `schema { query: Root }` of the same file names; `extend type Query { … }` adds fields.
//! A `schema` block in another file than the root type it renames is not seen.

use navegador_model::{FileFacts, Label};

use super::{EndpointFact, Handler, GRAPHQL};

pub(crate) fn detect(src: &str, facts: &FileFacts) -> Vec<EndpointFact> {
    let mut roots = vec![("Query".to_string(), "QUERY"), ("Mutation".to_string(), "MUTATION"), ("Subscription".to_string(), "SUBSCRIPTION")];
    for (op, ty) in schema_roots(src) {
        if let Some(r) = roots.iter_mut().find(|(_, m)| m.eq_ignore_ascii_case(&op)) {
            r.0 = ty;
        }
    }
    let mut out = Vec::new();
    for (i, f) in facts.symbols.iter().enumerate() {
        let Some(p) = f.parent.map(|p| &facts.symbols[p as usize]) else { continue };
        if f.label != Label::Variable || p.label != Label::Class || p.kind != Some("class") {
            continue;
        }
        let Some((_, method)) = roots.iter().find(|(name, _)| *name == p.name) else { continue };
        out.push(EndpointFact {
            name: f.name.clone(),
            kind: GRAPHQL,
            method: Some(method.to_string()),
            path: Some(f.name.clone()),
            framework: "graphql",
            line: f.range.start_line,
            handler: Handler::Symbol(i as u32),
            router: None,
        });
    }
    out
}

/// `schema { query: Root mutation: Changes }` (and `extend schema`) -> (`query`, `Root`), …
fn schema_roots(src: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find("schema") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + 6..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') || rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(body) = rest.trim_start().strip_prefix('{').or_else(|| {
            // directives between `schema` and `{`
            let o = rest.find('{')?;
            (!rest[..o].contains('}')).then(|| &rest[o + 1..])
        }) else {
            continue;
        };
        let Some(end) = body.find('}') else { break };
        let words: Vec<&str> = body[..end].split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
        let mut it = words.iter().peekable();
        while let Some(w) = it.next() {
            let (op, ty) = match w.split_once(':') {
                Some((op, "")) => (op, it.next().copied().unwrap_or("")),
                Some((op, ty)) => (op, ty),
                None if it.peek() == Some(&&":") => {
                    it.next();
                    (*w, it.next().copied().unwrap_or(""))
                }
                None => continue,
            };
            if !ty.is_empty() {
                out.push((op.to_string(), ty.to_string()));
            }
        }
        rest = &body[end..];
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn schema_blocks_rename_the_root_types() {
        let cases = [
            ("schema { query: Root mutation: Changes }", vec![("query", "Root"), ("mutation", "Changes")]),
            ("extend schema @link(url: \"x\") {\n  subscription : Events\n}", vec![("subscription", "Events")]),
            ("type Schema { schemaVersion: Int }", vec![]),
        ];
        for (src, want) in cases {
            let got = super::schema_roots(src);
            let want: Vec<(String, String)> = want.into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            assert_eq!(got, want, "{src}");
        }
    }
}
