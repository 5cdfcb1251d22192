//! The `[preprocess]` rules of a manifest: source a C-family grammar cannot parse before
//! the preprocessor runs is blanked, byte for byte (spaces, newlines kept, so every line and
//! column stays), after the pack's `prepare` hook and before parsing. Rules are data; this
//! applies them the same way for every pack that declares them.

/// `[preprocess]` of a manifest.
#[derive(Debug, Clone, Default)]
pub(crate) struct Preprocess {
    /// Identifiers blanked wherever they stand (`forceinline`, `HIDDEN`).
    pub blank: Vec<String>,
    /// Identifiers blanked with their parenthesized arguments (`__attribute__((…))`).
    pub blank_calls: Vec<String>,
    /// Token rewrites outside comments and strings (`"opaque type -> type"`): the tokens
    /// of `find` (words at word boundaries, punctuation as written), with any whitespace
    /// between them, become `to` padded with spaces (never longer than the match); a first
    /// token `[chars]` is a condition, the code byte before the match is one of `chars`.
    pub replace: Vec<Replace>,
    /// Calls whose arguments after the first are types (`va_arg(ap, const char *)`): those
    /// arguments are blanked with their commas.
    pub type_arguments: Vec<String>,
    /// Macros never defined for this language (C: `__cplusplus`): the first branch of
    /// `#ifdef M` / `#if defined(M)` is blanked, an `#else` branch read.
    pub undefined: Vec<String>,
    /// A conditional (`#if` … `#endif`) or `#include` that follows an unfinished line
    /// (one ending in a word, `,`, `(`, `=` or `{`: inside an initializer, an expression or
    /// a body) is read with its first branch only; its directive lines are blanked.
    pub inline_conditionals: bool,
    /// Upper-case macros (three or more of `A-Z 0-9 _`): one that starts a line before a
    /// declaration (`TS_PUBLIC void *f(…)`, `HIDDEN uint32_t x`) is blanked; so is an
    /// upper-case call that is a whole line without `;` (`LOG("skip", x)`) or stands
    /// before a word (a cast macro `CAST((T *))p`).
    pub macros: bool,
}

/// One `replace` rule of `[preprocess]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Replace {
    /// The code byte before the match must be one of these (none: any).
    after: Vec<u8>,
    find: Vec<String>,
    to: String,
}

impl Replace {
    /// `"[=:] interface { -> {"`: the rule, or why it is not one.
    pub(crate) fn parse(rule: &str) -> Result<Replace, String> {
        let (find, to) = rule.split_once("->").ok_or("a replace rule is `find -> to`")?;
        let mut tokens: Vec<String> = Vec::new();
        for word in find.split_whitespace() {
            // `{|` is two tokens, `opaque` one
            let mut rest = word;
            while !rest.is_empty() {
                let n = if rest.as_bytes()[0].is_ascii_alphanumeric() || rest.starts_with(['_', '$']) {
                    rest.bytes().position(|c| !(is_word(c) || c == b'$')).unwrap_or(rest.len())
                } else {
                    rest.len()
                };
                tokens.push(rest[..n].to_string());
                rest = &rest[n..];
            }
        }
        let mut after = Vec::new();
        if let Some(cond) = tokens.first().and_then(|t| t.strip_prefix('[')).and_then(|t| t.strip_suffix(']')) {
            after = cond.as_bytes().to_vec();
            tokens.remove(0);
        }
        let to = to.trim().to_string();
        if tokens.is_empty() {
            return Err("a replace rule needs something to find".into());
        }
        if to.len() > tokens.iter().map(String::len).sum::<usize>() + tokens.len() - 1 {
            return Err(format!("`{}` is longer than what it replaces", to));
        }
        Ok(Replace { after, find: tokens, to })
    }

    /// The end of this rule's match at `i`, if it matches there.
    fn matches(&self, b: &[u8], i: usize) -> Option<usize> {
        let mut k = i;
        for (n, t) in self.find.iter().enumerate() {
            if n > 0 {
                k += b[k..].iter().take_while(|c| c.is_ascii_whitespace()).count();
            }
            let t = t.as_bytes();
            if !b[k..].starts_with(t) {
                return None;
            }
            let word = |c: u8| is_word(c) || c == b'$';
            if word(t[0]) && k > 0 && word(b[k - 1]) || word(t[t.len() - 1]) && b.get(k + t.len()).is_some_and(|&c| word(c)) {
                return None;
            }
            k += t.len();
        }
        Some(k)
    }
}

impl Preprocess {
    pub(crate) fn is_empty(&self) -> bool {
        self.replace.is_empty()
            && self.blank.is_empty() && self.blank_calls.is_empty() && self.type_arguments.is_empty() && self.undefined.is_empty() && !self.inline_conditionals && !self.macros
    }

    /// `src` with the rules applied, `None` when nothing changed.
    pub(crate) fn apply(&self, src: &str) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut b = src.as_bytes().to_vec();
        if !self.replace.is_empty() {
            let orig = b.clone();
            self.replacements(&orig, &mut b);
        }
        if !self.undefined.is_empty() || self.inline_conditionals {
            self.conditionals(src.as_bytes(), &mut b);
        }
        if !self.blank.is_empty() || !self.blank_calls.is_empty() || !self.type_arguments.is_empty() || self.macros {
            let orig = b.clone();
            self.words(&orig, &mut b);
        }
        (b != src.as_bytes()).then(|| String::from_utf8(b).expect("only ASCII bytes were blanked"))
    }

    fn replacements(&self, b: &[u8], out: &mut [u8]) {
        let (code, _) = code_mask(b);
        let mut last = b'\n';
        let mut i = 0;
        while i < b.len() {
            if !code[i] {
                i += 1;
                continue;
            }
            let rule = self.replace.iter().find_map(|r| {
                let end = r.matches(b, i).filter(|&e| code[e - 1] && !b[i..i + r.to.len()].contains(&b'\n'))?;
                (r.after.is_empty() || r.after.contains(&last)).then_some((r, end))
            });
            if let Some((r, end)) = rule {
                fill_keep_lines(&mut out[i..end]);
                out[i..i + r.to.len()].copy_from_slice(r.to.as_bytes());
                last = b[end - 1];
                i = end;
                continue;
            }
            if !b[i].is_ascii_whitespace() {
                last = b[i];
            }
            i += 1;
        }
    }

    fn conditionals(&self, src: &[u8], out: &mut [u8]) {
        struct Group {
            inline: bool,
            skipping: bool,
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut last = b';';
        let mut continued = false;
        let mut at = 0;
        for line in src.split_inclusive(|&c| c == b'\n') {
            let t = trim(line);
            let len = line.len() - line.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
            let blank = |out: &mut [u8]| out[at..at + len].fill(b' ');
            let skipping = groups.iter().any(|g| g.skipping);
            let directive = t.strip_prefix(b"#").map(|d| {
                let d = trim(d);
                let e = d.iter().position(|c| !c.is_ascii_alphabetic()).unwrap_or(d.len());
                (&d[..e], trim(&d[e..]))
            });
            if continued {
                blank(out);
                continued = t.ends_with(b"\\");
            } else if let Some((word, rest)) = directive {
                let unfinished = last.is_ascii_alphanumeric() || b"_,(={".contains(&last);
                match word {
                    b"if" | b"ifdef" | b"ifndef" => {
                        let dead = (word == b"ifdef" && self.undefined.iter().any(|m| rest == m.as_bytes()))
                            || (word == b"if" && self.undefined.iter().any(|m| defined(rest, m)));
                        let inline = self.inline_conditionals && unfinished;
                        if inline || dead || skipping {
                            blank(out);
                            continued = t.ends_with(b"\\");
                        }
                        groups.push(Group { inline: inline || dead, skipping: dead });
                    }
                    b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                        if let Some(g) = groups.last_mut() {
                            if g.inline {
                                blank(out);
                                continued = t.ends_with(b"\\");
                                // a dead first branch gives way to the next; a live one ends the reading
                                g.skipping = !g.skipping;
                            } else if skipping {
                                blank(out);
                            }
                        }
                    }
                    b"endif" => {
                        if groups.pop().is_some_and(|g| g.inline) || skipping {
                            blank(out);
                        }
                    }
                    b"include" if self.inline_conditionals && unfinished || skipping => blank(out),
                    _ if skipping => blank(out),
                    _ => last = b';',
                }
            } else if skipping {
                blank(out);
            } else if let Some(&c) = strip_comment(t).last() {
                last = c;
            }
            at += line.len();
        }
    }

    fn words(&self, b: &[u8], out: &mut [u8]) {
        each_word(b, |i, e, line_start| {
            let word = &b[i..e];
            let open = skip_ws(b, e);
            let call_end = (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten();
            if self.blank.iter().any(|w| w.as_bytes() == word) {
                out[i..e].fill(b' ');
            } else if let Some(end) = call_end.filter(|_| self.blank_calls.iter().any(|w| w.as_bytes() == word)) {
                fill_keep_lines(&mut out[i..end]);
                return end;
            } else if let Some(end) = call_end.filter(|_| self.type_arguments.iter().any(|w| w.as_bytes() == word)) {
                // `va_arg(ap, const char *)`: the arguments after the first, with their commas
                if let Some(comma) = top_comma(b, open + 1, end - 1) {
                    fill_keep_lines(&mut out[comma..end - 1]);
                }
                return end;
            } else if self.macros && is_macro(word) {
                if let Some(end) = call_end {
                    let after = skip_ws(b, end);
                    // a statement (`LOG("x")` ends no expression: `CHECK(c)\n << "why"` stays)
                    let alone = line_start
                        && matches!(b.get(after), None | Some(b'\n' | b'\r'))
                        && statement_before(b, i)
                        && b[after..].iter().find(|c| !c.is_ascii_whitespace()).is_none_or(|&c| is_word(c) || matches!(c, b'}' | b'#' | b'/'));
                    let cast = b.get(after).is_some_and(|&c| is_word(c)) && after == end;
                    if alone || cast {
                        fill_keep_lines(&mut out[i..end]);
                        return end;
                    }
                } else if line_start {
                    // `MACRO type name`, `MACRO type *name`, `MACRO static …`: a word, then a
                    // declarator; or a line that is only `MACRO` (`NS_ASSUME_NONNULL_BEGIN`),
                    // not an enum's last member
                    let next_end = word_end(b, open);
                    // (`YG_EXPORT void\nYGNodeFree(…)`: the declarator may start the next line)
                    let t1 = skip_ws_lines(b, next_end);
                    let typed = next_end > open && b.get(t1).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'(' | b'&' | b':' | b'<'));
                    let lone = matches!(b.get(open), None | Some(b'\n' | b'\r')) && statement_before(b, i) && statement_after(b, open);
                    if typed || lone {
                        out[i..e].fill(b' ');
                    }
                }
            } else if self.macros && matches!(word, b"static" | b"extern" | b"inline" | b"virtual" | b"friend" | b"class" | b"struct" | b"union") {
                // `static INLINE_IF_POSSIBLE void f()`, `extern RN_EXPORT std::mutex m;`,
                // `class JSI_EXPORT Name {`: an annotation macro after the keyword
                let m1 = word_end(b, open);
                let n0 = skip_ws(b, m1);
                let tagged = matches!(word, b"class" | b"struct" | b"union");
                let n1 = word_end(b, n0);
                let name_follows = if tagged {
                    let after = skip_ws_lines(b, n1);
                    n1 > n0 && matches!(b.get(after), Some(b'{' | b':' | b'f'))
                } else {
                    // a type, then a declarator: `static MACRO void f`, not `static BOOL x;`
                    n1 > n0 && b.get(skip_ws(b, n1)).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'&' | b':' | b'<'))
                };
                if m1 > open && is_macro(&b[open..m1]) && name_follows {
                    out[open..m1].fill(b' ');
                }
            }
            e
        });
        if self.macros {
            // a field name passed to a macro, `sort_by(list, .symbol, x)`: a name
            let mut i = 0;
            while let Some(k) = b[i..].iter().position(|&c| c == b'.').map(|k| i + k) {
                let e = word_end(b, k + 1);
                let before = b[..k].iter().rposition(|c| !c.is_ascii_whitespace()).map(|p| b[p]);
                if e > k + 1 && !b[k + 1].is_ascii_digit() && matches!(before, Some(b'(' | b',')) && matches!(b.get(skip_ws(b, e)), Some(b',' | b')')) {
                    out[k] = b' ';
                }
                i = e.max(k + 1);
            }
        }
    }
}

/// Calls `f(start, end, line_start)` for each identifier of `b` outside preprocessor
/// directives (their text is the preprocessor's: a `#define`'s name and body stay as
/// written, `\` continuation lines included); `f` returns where the scan goes on (`end`, or
/// past what it consumed). `line_start`: only spaces before it on its line.
pub(crate) fn each_word(b: &[u8], mut f: impl FnMut(usize, usize, bool) -> usize) {
    let n = b.len();
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            // the directive, through its continuation lines
            while i < n {
                let eol = b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p);
                let continued = b[i..eol].iter().rposition(|c| !c.is_ascii_whitespace()).is_some_and(|p| b[i + p] == b'\\');
                i = eol;
                if !continued {
                    break;
                }
                i += 1;
            }
            continue;
        }
        if !(c.is_ascii_alphabetic() || c == b'_') || (i > 0 && is_word(b[i - 1])) {
            line_start = false;
            i += 1;
            continue;
        }
        let e = word_end(b, i);
        let next = f(i, e, line_start);
        line_start = false;
        i = next.max(i + 1);
    }
}

/// Whether what comes before `i` ends a statement or a declaration (`;`, a brace, a
/// directive line, the file's start), not an argument list or an expression.
fn statement_before(b: &[u8], i: usize) -> bool {
    let mut k = i;
    loop {
        let line_start = b[..k].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let t = trim(&b[line_start..k]);
        if t.starts_with(b"#") {
            return true;
        }
        // a comment line, or the end of a block comment: what comes before it
        if t.ends_with(b"*/") {
            if let Some(open) = b[..k].windows(2).rposition(|w| w == b"/*") {
                k = open;
                continue;
            }
        }
        if t.starts_with(b"//") {
            if line_start == 0 {
                return true;
            }
            k = line_start - 1;
            continue;
        }
        if let Some(&c) = strip_comment(t).last() {
            return matches!(c, b';' | b'{' | b'}' | b')') || is_word(c);
        }
        if line_start == 0 {
            return true;
        }
        k = line_start - 1;
    }
}

/// Whether what follows `i` starts a declaration (not `}` `,` `=` `;`: `LAST\n};` is an
/// enum's member).
fn statement_after(b: &[u8], i: usize) -> bool {
    !matches!(b[i..].iter().find(|c| !c.is_ascii_whitespace()), Some(b'}' | b',' | b'=' | b';' | b')' | b']'))
}

/// The first `,` at the top level of `b[from..to]`.
fn top_comma(b: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut depth = 0i32;
    for k in from..to {
        match b[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return Some(k),
            _ => {}
        }
    }
    None
}

/// Which bytes are code (not in a `//` or `/* */` comment, a `'…'` / `"…"` string or a
/// `` `…` `` template), and which are in a comment.
pub(crate) fn code_mask(b: &[u8]) -> (Vec<bool>, Vec<bool>) {
    let n = b.len();
    let mut code = vec![true; n];
    let mut comment = vec![false; n];
    let mut i = 0;
    while i < n {
        let end = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p),
            b'/' if b.get(i + 1) == Some(&b'*') => b[i + 2..].windows(2).position(|w| w == b"*/").map_or(n, |p| i + 2 + p + 2),
            q @ (b'\'' | b'"' | b'`') => {
                let mut j = i + 1;
                while j < n && b[j] != q && (q == b'`' || b[j] != b'\n') {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                (j + 1).min(n)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        code[i..end].fill(false);
        if b[i] == b'/' {
            comment[i..end].fill(true);
        }
        i = end;
    }
    (code, comment)
}

/// `defined(M)` / `defined M` is the whole condition.
fn defined(cond: &[u8], m: &str) -> bool {
    let c: Vec<u8> = cond.iter().copied().filter(|c| !c.is_ascii_whitespace()).collect();
    c == format!("defined({m})").as_bytes() || c == format!("defined{m}").as_bytes()
}

fn trim(s: &[u8]) -> &[u8] {
    let a = s.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(s.len());
    let z = s.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(a, |p| p + 1);
    &s[a..z]
}

fn strip_comment(t: &[u8]) -> &[u8] {
    let end = t.windows(2).position(|w| w == b"//" || w == b"/*").unwrap_or(t.len());
    trim(&t[..end])
}

pub(crate) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

pub(crate) fn word_end(b: &[u8], from: usize) -> usize {
    from + b[from..].iter().position(|&c| !is_word(c)).unwrap_or(b.len() - from)
}

pub(crate) fn skip_ws(b: &[u8], from: usize) -> usize {
    from + b[from..].iter().position(|&c| c != b' ' && c != b'\t').unwrap_or(b.len() - from)
}

fn skip_ws_lines(b: &[u8], from: usize) -> usize {
    from + b[from..].iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len() - from)
}

/// After the `)` matching the `(` at `open` (within 4 KiB), if any.
fn close_paren(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, &c) in b[open..].iter().enumerate().take(4096) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

fn fill_keep_lines(s: &mut [u8]) {
    for c in s.iter_mut().filter(|c| **c != b'\n') {
        *c = b' ';
    }
}

/// An upper-case macro name: three or more of `A-Z 0-9 _`, starting with a letter.
pub(crate) fn is_macro(w: &[u8]) -> bool {
    w.len() >= 3 && w[0].is_ascii_uppercase() && w.iter().all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

#[cfg(test)]
mod tests {
    use super::Preprocess;

    #[test]
    fn c_the_grammar_cannot_read_is_blanked_in_place() {
        let p = Preprocess {
            blank: vec!["forceinline".into()],
            blank_calls: vec!["__attribute__".into()],
            type_arguments: vec!["va_arg".into()],
            replace: ["opaque type -> type", "[=:] interface { -> {"].iter().map(|r| super::Replace::parse(r).unwrap()).collect(),
            undefined: vec!["__cplusplus".into()],
            inline_conditionals: true,
            macros: true,
        };
        for (c, want) in [
            ("forceinline int f(void) {}", "            int f(void) {}"),
            ("typedef size_t __attribute__((__may_alias__)) word;", "typedef size_t                                word;"),
            ("#ifdef __cplusplus\nextern \"C\" {\n#endif\nint x;", "                  \n            \n      \nint x;"),
            ("int a[] = {\n#if defined(X)\n  1, 2\n#else\n  1\n#endif\n};", "int a[] = {\n              \n  1, 2\n     \n   \n      \n};"),
            ("int t[] = {\n#include \"t.h\"\n};", "int t[] = {\n              \n};"),
            ("HIDDEN uint32_t x = 0;\nTS_PUBLIC void *(*m)(size_t);", "       uint32_t x = 0;\n          void *(*m)(size_t);"),
            ("  LOG(\"skip\", x)\n  f(CAST((T *))p);", "                \n  f(           p);"),
            ("#ifndef H\n#define H\nint MAX(int a);\n#endif", "#ifndef H\n#define H\nint MAX(int a);\n#endif"),
            ("static INLINE_IF void f(void);\nstatic BOOL x;\nstruct API_EXPORT s {};", "static           void f(void);\nstatic BOOL x;\nstruct            s {};"),
            ("#define forceinline static \\\n  __attribute__((x))\nforceinline int g;", "#define forceinline static \\\n  __attribute__((x))\n            int g;"),
            ("f(a,\n  SYM(x)\n);\n  LOG(\"x\")\n", "f(a,\n  SYM(x)\n);\n          \n"),
            ("char *s = va_arg(ap, const char *);\nsort_by(list, .symbol, &i);", "char *s = va_arg(ap              );\nsort_by(list,  symbol, &i);"),
            ("  CHECK(ok)\n      << \"why\";\n/* a\n */\nPACK_PUSH\nstruct s;", "  CHECK(ok)\n      << \"why\";\n/* a\n */\n         \nstruct s;"),
            ("opaque type T = A & interface {};\n// opaque type\nx = \"opaque type\";", "type        T = A & interface {};\n// opaque type\nx = \"opaque type\";"),
            ("BEGIN_DECLS\nint f(void);\nenum e { A,\n  LAST\n};", "           \nint f(void);\nenum e { A,\n  LAST\n};"),
        ] {
            let out = p.apply(c).unwrap_or_else(|| c.to_string());
            assert_eq!(out, want, "{c}");
            assert_eq!(out.len(), c.len());
        }
    }
}
