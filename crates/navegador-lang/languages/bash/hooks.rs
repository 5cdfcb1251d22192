//! Bash: extended globs (`@(a|b)`, `!(-*)`, `?(x)`, `+(…)`, `*(…)`: `shopt -s extglob`), which
//! tree-sitter-bash 0.25 rejects in `case` patterns and `[[ == ]]` tests, are blanked to a
//! plain word of the same length before parsing (`@(a|b)` -> `@_a_b_`): they hold no
//! definition, call or import. So is a bracket expression starting with `]` in a `=~`
//! regex (`[^]]*`, `[]a]`), which its regex scanner ends early: the `]` becomes `_` (a
//! `=~` regex has no extended globs: `(--?(x))` stays); and `;;&` ends a `case` item as `;;`.
//! A `=~ \` whose regex is on the next line loses its `\` (the grammar reads the newline
//! there, not the continuation), and in a parameter expansion's pattern the bytes its
//! grammar would balance inside a bracket expression (`${x%%[<{(]*}`) and a `]` closing
//! none (`${h%]?(:*)}`) become `_`: patterns hold no facts either.

use crate::hooks::Hooks;

pub(crate) static HOOKS: Hooks = Hooks { post: |_, _, _| {}, prepare };

fn prepare(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let regexes = regex_operands(src);
    let mut i = 1;
    // the end of the last group rewritten: `-!(-*)@([sD]|[hV]*)` is two groups in a row
    let mut last = 0;
    while i + 1 < b.len() {
        let prev = b[i - 1];
        let starts = matches!(b[i], b'@' | b'!' | b'?' | b'+' | b'*')
            && b[i + 1] == b'('
            && (last == i || !(prev == b'$' || prev == b'_' || prev == b')' || prev == b']' || prev.is_ascii_alphanumeric()))
            && !regexes.iter().any(|r| r.contains(&i));
        if !starts {
            i += 1;
            continue;
        }
        // the group's closing `)`, on the same line, nested groups included
        let (mut depth, mut j) = (0usize, i + 1);
        let end = loop {
            match b.get(j) {
                Some(b'(') => depth += 1,
                Some(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        break Some(j);
                    }
                }
                Some(b'\n') | None => break None,
                _ => {}
            }
            j += 1;
        };
        let Some(end) = end else {
            i += 1;
            continue;
        };
        let o = out.get_or_insert_with(|| b.to_vec());
        // (a space inside a group is part of the pattern: `*" -t dsa"?( *)`)
        for k in i + 1..=end {
            if matches!(o[k], b'(' | b')' | b'|' | b' ') {
                o[k] = b'_';
            }
        }
        i = end + 1;
        last = i;
    }
    // `;;&` (test the next pattern too) ends a `case` item as `;;` does
    let mut from = 0;
    while let Some(at) = src[from..].find(";;&").map(|k| k + from) {
        if b.get(at + 3).is_none_or(|c| c.is_ascii_whitespace()) {
            out.get_or_insert_with(|| b.to_vec())[at + 2] = b' ';
        }
        from = at + 3;
    }
    // `[[ $x =~ \` and the regex on the next line: the continuation reads as a space
    for at in continued_regexes(src) {
        out.get_or_insert_with(|| b.to_vec())[at] = b' ';
    }
    // `${x%%[<{(]*}`, `${h%]?(:*)}`: in an expansion's pattern, the bytes the grammar
    // balances (`{ } ( ) < >`) inside a bracket expression, a `]` it starts with and a `]`
    // closing none read as `_`
    for k in pattern_bytes(b) {
        out.get_or_insert_with(|| b.to_vec())[k] = b'_';
    }
    // `[[ $x =~ \[([^]]*)$ ]]`: the `]` a bracket expression starts with
    for r in regexes {
        for k in r {
            let first = b[k] == b']' && (b[k - 1] == b'[' && b[k - 2] != b'\\' || b[k - 1] == b'^' && b[k - 2] == b'[' && b[k - 3] != b'\\');
            if first {
                out.get_or_insert_with(|| b.to_vec())[k] = b'_';
            }
        }
    }
    out.map(|o| String::from_utf8(o).expect("only ASCII bytes were replaced"))
}

/// The byte ranges of `=~` operands (a regex, up to ` ]]` or the line's end; the next
/// line's, after a `\` continuation), where `?(` is no extended glob.
fn regex_operands(src: &str) -> Vec<std::ops::Range<usize>> {
    let continued = continued_regexes(src);
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(at) = src[from..].find("=~").map(|k| k + from) {
        let line_end = |from: usize| src[from..].find('\n').map_or(src.len(), |k| k + from);
        let mut end = line_end(at);
        if continued.iter().any(|&c| c > at && c < end) {
            end = line_end((end + 1).min(src.len()));
        }
        let end = src[at..end].find(" ]]").map_or(end, |k| k + at);
        ranges.push((at + 3).min(end)..end);
        from = end.max(at + 2);
    }
    ranges
}

/// The `\` of each `=~ \` whose regex is on the next line (only blanks between): the
/// grammar's regex scanner takes the continuation for the regex, and reads a newline there.
fn continued_regexes(src: &str) -> Vec<usize> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = src[from..].find("=~").map(|k| k + from) {
        let mut k = at + 2;
        while b.get(k).is_some_and(|&c| c == b' ' || c == b'\t') {
            k += 1;
        }
        if k > at + 2 && b.get(k) == Some(&b'\\') && b.get(k + 1) == Some(&b'\n') {
            out.push(k);
        }
        from = at + 2;
    }
    out
}

/// The bytes of parameter-expansion patterns (`${name%%pat}`, `#`, `##`, `%`, `/`, `//`,
/// `/#`, `/%`, `^`, `,`; the pattern of a `/` up to its replacement) that tree-sitter-bash
/// cannot read, to be read as `_`: inside a bracket expression `{ } ( ) < >` and a `]`
/// it starts with (`[]x]`, `[^]x]`), outside one a `]` that closes none. Quotes, nested
/// `${…}` / `$(…)` and escapes in the pattern are stepped over as written.
fn pattern_bytes(b: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < b.len() {
        if !(b[i] == b'$' && b[i + 1] == b'{' && (i == 0 || b[i - 1] != b'\\')) {
            i += 1;
            continue;
        }
        // the name: a word, digits or one special parameter, then an optional `[subscript]`
        let mut k = i + 2;
        let word = b[k..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
        k += if word > 0 { word } else { usize::from(matches!(b[k], b'@' | b'*' | b'?' | b'-' | b'$' | b'!' | b'0'..=b'9')) };
        if k == i + 2 {
            i += 2;
            continue;
        }
        if b.get(k) == Some(&b'[') {
            match b[k..].iter().position(|&c| c == b']' || c == b'\n') {
                Some(e) if b[k + e] == b']' => k += e + 1,
                _ => {
                    i = k;
                    continue;
                }
            }
        }
        let Some(&op) = b.get(k) else { break };
        if !matches!(op, b'#' | b'%' | b'/' | b'^' | b',') {
            i = k;
            continue;
        }
        k += 1;
        if b.get(k) == Some(&op) || op == b'/' && matches!(b.get(k), Some(b'#' | b'%')) {
            k += 1;
        }
        // the pattern, up to the expansion's `}` (or a `/` replacement's `/`)
        let mut bracket: Option<usize> = None;
        let mut found = Vec::new();
        let end = loop {
            let Some(&c) = b.get(k) else { break None };
            match c {
                b'\n' => break None,
                b'\\' => k += 1,
                b'\'' | b'"' => match b[k + 1..].iter().position(|&q| q == c || q == b'\n') {
                    Some(e) if b[k + 1 + e] == c => k += 1 + e,
                    _ => break None,
                },
                b'$' if matches!(b.get(k + 1), Some(b'{' | b'(')) => {
                    let (open, close) = if b[k + 1] == b'{' { (b'{', b'}') } else { (b'(', b')') };
                    let mut depth = 0usize;
                    let mut j = k + 1;
                    let closed = loop {
                        match b.get(j) {
                            Some(&o) if o == open => depth += 1,
                            Some(&o) if o == close => {
                                depth -= 1;
                                if depth == 0 {
                                    break true;
                                }
                            }
                            Some(b'\n') | None => break false,
                            _ => {}
                        }
                        j += 1;
                    };
                    if !closed {
                        break None;
                    }
                    k = j;
                }
                b'[' if bracket.is_none() => bracket = Some(k),
                b']' => match bracket {
                    // `[]…]`, `[^]…]`, `[!]…]`: a `]` first is one of the set
                    Some(o) if k == o + 1 || k == o + 2 && matches!(b[o + 1], b'^' | b'!') => found.push(k),
                    // `[[:blank:]]`: a class's `]`
                    Some(o) if b[o + 1..k].ends_with(b":") && b[o + 1..k].windows(2).any(|w| w == b"[:") => {}
                    Some(_) => bracket = None,
                    None => found.push(k),
                },
                b'{' | b'}' | b'(' | b')' | b'<' | b'>' if bracket.is_some() => found.push(k),
                b'}' => break Some(k),
                b'/' if op == b'/' && bracket.is_none() => break Some(k),
                _ => {}
            }
            k += 1;
        };
        match end {
            Some(e) => {
                out.extend(found);
                i = e + 1;
            }
            None => i += 2,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn extended_globs_become_words_of_the_same_length() {
        let src = "case $p in\n  -*@([wS]|[Vh?]*)) x ;;\n  --help | -!(-*)) y ;;\nesac\n[[ $a == --@(de|li) ]]\nb=$(f)\n";
        let out = super::prepare(src).unwrap();
        assert_eq!(out.len(), src.len());
        assert_eq!(out, "case $p in\n  -*@_[wS]_[Vh?]*_) x ;;\n  --help | -!_-*_) y ;;\nesac\n[[ $a == --@_de_li_ ]]\nb=$(f)\n");
        assert_eq!(super::prepare("f() { g \"$@\"; }\nx=$((a*(b+1)))\n"), None);
        assert_eq!(super::prepare("case $o in\n  -!(-*)@([sD]|[hV]*)) x ;;&\n  *\" -t\"?( *)) y ;;\nesac\n").unwrap(), "case $o in\n  -!_-*_@_[sD]_[hV]*_) x ;; \n  *\" -t\"?__*_) y ;;\nesac\n");
        assert_eq!(super::prepare("[[ $c =~ ^(\\$)\\[([^]]*)$ ]] && x[1]=y\n").unwrap(), "[[ $c =~ ^(\\$)\\[([^_]*)$ ]] && x[1]=y\n");
    }
}
