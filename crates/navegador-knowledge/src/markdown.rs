//! Just enough markdown for knowledge sources: headings, front matter, and the code a
//! text mentions (backticked names and paths, relative links). No dependency: ADRs and docs
//! are read line by line, and anything unusual is left as text.

/// Something a document names that may be code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub text: String,
    pub line: u32,
}

/// The body after a `---` front matter block, with the block's `key: value` pairs.
pub struct FrontMatter {
    pub pairs: Vec<(String, String, u32)>,
    /// 0-based index of the first body line.
    pub body_start: usize,
}

/// Reads a YAML-ish front matter block: `key: value`, `key: [a, b]`, or `key:` followed by
/// `- item` lines. Returns `Ok(None)` when there is none, `Err((line, message))` when it is
/// malformed.
pub fn front_matter(lines: &[&str]) -> Result<Option<FrontMatter>, (u32, String)> {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Ok(None);
    }
    let mut pairs: Vec<(String, String, u32)> = Vec::new();
    for (i, raw) in lines.iter().enumerate().skip(1) {
        let line_no = i as u32 + 1;
        let l = raw.trim_end();
        if l == "---" || l == "..." {
            return Ok(Some(FrontMatter { pairs, body_start: i + 1 }));
        }
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(item) = t.strip_prefix("- ") {
            match pairs.last_mut() {
                Some((_, v, _)) if raw.starts_with(' ') || raw.starts_with('-') => {
                    if !v.is_empty() {
                        v.push_str(", ");
                    }
                    v.push_str(unquote(item.trim()));
                    continue;
                }
                _ => return Err((line_no, format!("malformed front matter: list item {t:?} without a key"))),
            }
        }
        let Some((k, v)) = t.split_once(':') else {
            return Err((line_no, format!("malformed front matter: expected `key: value`, found {t:?}")));
        };
        let k = k.trim();
        if k.is_empty() || !k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ') {
            return Err((line_no, format!("malformed front matter: bad key {k:?}")));
        }
        let v = v.trim();
        let v = if let Some(inner) = v.strip_prefix('[') {
            let Some(inner) = inner.strip_suffix(']') else {
                return Err((line_no, format!("malformed front matter: unclosed list in {t:?}")));
            };
            inner.split(',').map(|s| unquote(s.trim())).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ")
        } else {
            unquote(v).to_string()
        };
        pairs.push((k.to_lowercase(), v, line_no));
    }
    Err((1, "malformed front matter: no closing `---`".into()))
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    for q in ['"', '\''] {
        if s.len() >= 2 && s.starts_with(q) && s.ends_with(q) {
            return &s[1..s.len() - 1];
        }
    }
    s
}

/// A heading: (level, text).
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let level = t.chars().take_while(|&c| c == '#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    if !rest.starts_with(' ') {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim()))
}

/// Whether a line opens or closes a fenced code block.
pub fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The code a line mentions: backticked names or paths and relative link targets.
pub fn mentions_in_line(line: &str, line_no: u32, out: &mut Vec<Mention>) {
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('`') else { break };
        if let Some(m) = clean_mention(&after[..end]) {
            out.push(Mention { text: m, line: line_no });
        }
        rest = &after[end + 1..];
    }
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        let external = target.contains("://") || target.starts_with("mailto:") || target.ends_with(".md");
        if !external {
            if let Some(m) = clean_mention(target) {
                out.push(Mention { text: m, line: line_no });
            }
        }
        rest = &after[end + 1..];
    }
}

/// Relative link targets of a line (`[t](0002-x.md)` -> `0002-x.md`).
pub fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].trim().to_string());
        rest = &after[end + 1..];
    }
    out
}

/// A mention worth resolving: an identifier path (`a.b.C`, `mod::f`, `f()`) or a file path;
/// not prose, options or shell commands.
fn clean_mention(raw: &str) -> Option<String> {
    let mut t = raw.trim();
    t = t.strip_suffix("()").unwrap_or(t);
    t = t.strip_prefix("./").unwrap_or(t);
    t = t.strip_prefix('/').unwrap_or(t);
    if t.is_empty() || t.len() > 200 || t.starts_with('-') || t.starts_with('.') || t.contains("://") {
        return None;
    }
    let ok = t.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '/' | '-' | '$'));
    if !ok || !t.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return None;
    }
    Some(t.trim_end_matches(['.', ':', '/']).to_string())
}

/// The code mentioned anywhere in a text, outside fenced blocks.
pub fn mentions(text: &str) -> Vec<Mention> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if is_fence(line) {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            mentions_in_line(line, i as u32 + 1, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_names_and_paths_not_prose() {
        let m = mentions("Use `orders.place()` and `src/db.py`, see [x](src/app.py) and [adr](0002-a.md).\n`--clear` `a b` `http://x`\n```\n`inside`\n```\n");
        let got: Vec<_> = m.iter().map(|m| (m.text.as_str(), m.line)).collect();
        assert_eq!(got, vec![("orders.place", 1), ("src/db.py", 1), ("src/app.py", 1)]);
    }

    #[test]
    fn front_matter_forms() {
        let lines: Vec<&str> = "---\nstatus: accepted\ndeciders: [alice, \"bob\"]\ntags:\n  - a\n  - b\n---\n# T".lines().collect();
        let fm = front_matter(&lines).unwrap().unwrap();
        let kv: Vec<_> = fm.pairs.iter().map(|(k, v, _)| (k.as_str(), v.as_str())).collect();
        assert_eq!(kv, vec![("status", "accepted"), ("deciders", "alice, bob"), ("tags", "a, b")]);
        assert_eq!(fm.body_start, 7);
        let bad: Vec<&str> = "---\nstatus accepted\n---\n".lines().collect();
        assert_eq!(front_matter(&bad).err().map(|e| e.0), Some(2));
        let open: Vec<&str> = "---\nstatus: x\n".lines().collect();
        assert!(front_matter(&open).is_err());
    }
}
