//! Bash: extended globs (`@(a|b)`, `!(-*)`, `?(x)`, `+(…)`, `*(…)`: `shopt -s extglob`), which
//! tree-sitter-bash 0.25 rejects in `case` patterns and `[[ == ]]` tests, are blanked to a
//! plain word of the same length before parsing (`@(a|b)` -> `@_a_b_`): they hold no
//! definition, call or import.

use crate::hooks::Hooks;

pub(crate) static HOOKS: Hooks = Hooks { post: |_, _, _| {}, prepare };

fn prepare(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 1;
    while i + 1 < b.len() {
        let prev = b[i - 1];
        let starts = matches!(b[i], b'@' | b'!' | b'?' | b'+' | b'*')
            && b[i + 1] == b'('
            && !(prev == b'$' || prev == b'_' || prev == b')' || prev == b']' || prev.is_ascii_alphanumeric());
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
        for k in i + 1..=end {
            if matches!(o[k], b'(' | b')' | b'|') {
                o[k] = b'_';
            }
        }
        i = end + 1;
    }
    out.map(|o| String::from_utf8(o).expect("only ASCII bytes were replaced"))
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
    }
}
