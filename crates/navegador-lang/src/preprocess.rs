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

impl Preprocess {
    pub(crate) fn is_empty(&self) -> bool {
        self.blank.is_empty() && self.blank_calls.is_empty() && self.undefined.is_empty() && !self.inline_conditionals && !self.macros
    }

    /// `src` with the rules applied, `None` when nothing changed.
    pub(crate) fn apply(&self, src: &str) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut b = src.as_bytes().to_vec();
        if !self.undefined.is_empty() || self.inline_conditionals {
            self.conditionals(src.as_bytes(), &mut b);
        }
        if !self.blank.is_empty() || !self.blank_calls.is_empty() || self.macros {
            let orig = b.clone();
            self.words(&orig, &mut b);
        }
        (b != src.as_bytes()).then(|| String::from_utf8(b).expect("only ASCII bytes were blanked"))
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
            if !(c.is_ascii_alphabetic() || c == b'_') || (i > 0 && is_word(b[i - 1])) {
                line_start = false;
                i += 1;
                continue;
            }
            let e = word_end(b, i);
            let word = &b[i..e];
            let open = skip_ws(b, e);
            let call_end = (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten();
            if self.blank.iter().any(|w| w.as_bytes() == word) {
                out[i..e].fill(b' ');
            } else if let Some(end) = call_end.filter(|_| self.blank_calls.iter().any(|w| w.as_bytes() == word)) {
                fill_keep_lines(&mut out[i..end]);
                i = end;
                line_start = false;
                continue;
            } else if self.macros && is_macro(word) {
                if let Some(end) = call_end {
                    let after = skip_ws(b, end);
                    let alone = line_start && matches!(b.get(after), None | Some(b'\n' | b'\r'));
                    let cast = b.get(after).is_some_and(|&c| is_word(c)) && after == end;
                    if alone || cast {
                        fill_keep_lines(&mut out[i..end]);
                        i = end;
                        line_start = false;
                        continue;
                    }
                } else if line_start {
                    // `MACRO type name`, `MACRO type *name`: a word, then a declarator
                    let next_end = word_end(b, open);
                    let t1 = skip_ws(b, next_end);
                    if next_end > open && b.get(t1).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'(')) {
                        out[i..e].fill(b' ');
                    }
                }
            }
            line_start = false;
            i = e;
        }
    }
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

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn word_end(b: &[u8], from: usize) -> usize {
    from + b[from..].iter().position(|&c| !is_word(c)).unwrap_or(b.len() - from)
}

fn skip_ws(b: &[u8], from: usize) -> usize {
    from + b[from..].iter().position(|&c| c != b' ' && c != b'\t').unwrap_or(b.len() - from)
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
fn is_macro(w: &[u8]) -> bool {
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
        ] {
            let out = p.apply(c).unwrap_or_else(|| c.to_string());
            assert_eq!(out, want, "{c}");
            assert_eq!(out.len(), c.len());
        }
    }
}
