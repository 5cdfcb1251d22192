//! The one balanced-bracket matcher over source bytes. It lives in the model, the lowest
//! crate, because both sides of the pipeline need it: the packs' source preparation
//! (`navegador-lang`'s `[preprocess]` rules, the Objective-C and Flow hooks) and the
//! endpoint detectors of `navegador-index` (HTTP client calls). Each user says how to read
//! the text (`Brackets`): which bytes are code, how far to look, what ends the search.

/// How `matching` reads the text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Brackets<'a> {
    /// Which bytes are code (a comment or a string is not): brackets outside code are not
    /// counted. `None`: the matcher skips strings itself (`quotes`, `comments`).
    pub code: Option<&'a [bool]>,
    /// Without `code`: `"…"`, `'…'` and `` `…` `` (with `\` escapes) are skipped; a `"` or
    /// `'` string ends at its line's end.
    pub quotes: bool,
    /// Without `code`: `// …` and `/* … */` are skipped.
    pub comments: bool,
    /// Bytes looked at from the opening bracket (0: to the end).
    pub window: usize,
    /// Code bytes that end the search without a match (`;` `{` `}`: a call's arguments
    /// never hold them).
    pub stop: &'a [u8],
    /// Code words that end the search without a match (Objective-C's `@end`).
    pub stop_words: &'a [&'a [u8]],
    /// Every kind of bracket nests, not only the opening one's (`f(a[1], {b})`): a close of
    /// another kind at depth 0 is no match; `=>` and `->` are no `>`.
    pub all_kinds: bool,
}

/// The index of the bracket that closes the one at `open` (`(`, `[`, `{` or `<`), if it is
/// found as `how` reads the text.
pub fn matching(b: &[u8], open: usize, how: &Brackets) -> Option<usize> {
    let first = *b.get(open)?;
    let close = match first {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        _ => return None,
    };
    let end = if how.window == 0 { b.len() } else { b.len().min(open.saturating_add(how.window)) };
    let mut depth = 0usize;
    let mut i = open;
    while i < end {
        let c = b[i];
        if let Some(code) = how.code {
            if !code.get(i).copied().unwrap_or(true) {
                i += 1;
                continue;
            }
        } else if how.comments && c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*')) {
            i = if b[i + 1] == b'/' {
                b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p)
            } else {
                b[i + 2..].windows(2).position(|w| w == b"*/").map_or(b.len(), |p| i + 2 + p + 2)
            };
            continue;
        } else if how.quotes && matches!(c, b'"' | b'\'' | b'`') {
            let mut j = i + 1;
            while j < b.len() && b[j] != c && (c == b'`' || b[j] != b'\n') {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            continue;
        }
        if how.stop.contains(&c) {
            return None;
        }
        if how.stop_words.iter().any(|w| b[i..].starts_with(w)) {
            return None;
        }
        let arrow = first == b'<' && c == b'>' && i > 0 && matches!(b[i - 1], b'=' | b'-');
        if c == first || how.all_kinds && matches!(c, b'(' | b'[' | b'{') || how.all_kinds && first == b'<' && c == b'<' {
            depth += 1;
        } else if c == close && !arrow {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        } else if how.all_kinds && matches!(c, b')' | b']' | b'}') {
            depth -= 1;
            if depth == 0 {
                return None;
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{matching, Brackets};

    /// The close `matching` finds for the bracket at `open` in `text`.
    fn check(text: &str, open: usize, how: &Brackets, want: Option<usize>) {
        assert_eq!(matching(text.as_bytes(), open, how), want, "{text}");
    }

    #[test]
    fn brackets_match_as_each_reader_sees_the_text() {
        let plain = Brackets::default();
        check("f(a, (b), c) + 1", 1, &plain, Some(11));
        check("f(a, (b)", 1, &plain, None);
        check("x[1][2]", 1, &plain, Some(3));
        check("{ a { b } }", 0, &plain, Some(10));
        // strings and comments, skipped when the reader says so
        let c = Brackets { quotes: true, comments: true, ..Default::default() };
        check("f(\")\", ')', /* ) */ x) y", 1, &c, Some(21));
        check("f(\")\") y", 1, &plain, Some(3));
        check("f(x, // )\n y) z", 1, &c, Some(12));
        // a string without its close ends at the line's end
        check("f(\"a\n) y", 1, &c, Some(5));
        // a mask of code bytes instead
        let code: Vec<bool> = (0..13).map(|i| !(4..9).contains(&i)).collect();
        check("f(x /*)*/ ) z", 1, &Brackets { code: Some(&code), ..Default::default() }, Some(10));
        // what ends the search, and how far it looks
        let call = Brackets { stop: b";{}", ..Default::default() };
        check("f(a; b)", 1, &call, None);
        check("f(a, b)", 1, &call, Some(6));
        check("f(a, b)", 1, &Brackets { window: 4, ..Default::default() }, None);
        check("f(a, b)", 1, &Brackets { window: 6, ..Default::default() }, Some(6));
        check("f(a @end )", 1, &Brackets { stop_words: &[b"@end"], ..Default::default() }, None);
        // every kind nests: a close of another kind at depth 0 is no match; arrows are no `>`
        let all = Brackets { all_kinds: true, ..Default::default() };
        check("<T: (x) => y, U[]> z", 0, &all, Some(17));
        check("(a ] b)", 0, &all, None);
        check("(a [1] {b} c)", 0, &all, Some(12));
        check("<a -> b>", 0, &all, Some(7));
        // not a bracket at `open`
        check("abc", 0, &plain, None);
    }
}
