//! Bash: extended globs (`@(a|b)`, `!(-*)`, `?(x)`, `+(…)`, `*(…)`: `shopt -s extglob`), which
//! tree-sitter-bash 0.25 rejects in `case` patterns and `[[ == ]]` tests, are blanked to a
//! plain word of the same length before parsing (`@(a|b)` -> `@_a_b_`): they hold no
//! definition, call or import. So is a bracket expression starting with `]` in a `=~`
//! regex (`[^]]*`, `[]a]`), which its regex scanner ends early: the `]` becomes `_` (a
//! `=~` regex has no extended globs: `(--?(x))` stays); and `;;&` ends a `case` item as `;;`.

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

/// The byte ranges of `=~` operands (a regex, up to ` ]]` or the line's end), where `?(`
/// is no extended glob.
fn regex_operands(src: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(at) = src[from..].find("=~").map(|k| k + from) {
        let end = src[at..].find('\n').map_or(src.len(), |k| k + at);
        let end = src[at..end].find(" ]]").map_or(end, |k| k + at);
        ranges.push(at + 3..end);
        from = end.max(at + 2);
    }
    ranges
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
