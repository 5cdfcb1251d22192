//! The `[preprocess]` rules of a manifest: source a C-family grammar cannot parse before
//! the preprocessor runs is blanked, byte for byte (spaces, newlines kept, so every line and
//! column stays), after the pack's `prepare` hook and before parsing. Rules are data; this
//! applies them the same way for every pack that declares them.

use navegador_model::brackets::{matching, Brackets};

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
    /// token `[chars]` is a condition, the code byte before the match is one of `chars`; a
    /// last token `[^chars]` another, the byte right after the match is none of `chars`.
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
    /// C's reserved identifiers (`__` then a lower-case letter, not the grammar's own words
    /// nor a GNU keyword `__x__`) where C has no name are attribute macros, blanked with
    /// their arguments: between specifiers and a declarator (`static int __init f(void)`,
    /// `char __user *buf`, `__printf(2, 3) void f(…)`), after a declarator (`int x
    /// __read_mostly;`, `u8 d[] __aligned(8);`), first in a cast (`(__force u32)x`).
    pub reserved_attributes: bool,
    /// A call's argument that is a tagged type (`container_of(p, struct s, m)`,
    /// `alloc_percpu(struct s *)`): its keyword and `*`s are blanked, the name stays.
    pub tagged_type_arguments: bool,
    /// A call that starts a statement in a body and runs on into `{` or another statement
    /// (`list_for_each_entry(p, head, m) {`: an iterator macro) is ended with a `;` in the
    /// space before what follows; a GNU case range `case 1 ... 9:` reads as one value.
    pub statement_macros: bool,
    /// An upper-case call at the top level or in a struct's body whose first argument is a
    /// name declares it: `DEFINE_MUTEX(lock);` reads as `DEFINE_MUTEX lock ;`,
    /// `DECLARE_BITMAP(m, N);` as `DECLARE_BITMAP m[ N];`, and one followed by a body
    /// defines a function, `SYSCALL_DEFINE2(kill, pid_t, pid, int, sig) {` as
    /// `SYSCALL_DEFINE2 kill( pid_t, pid, int, sig) {`.
    pub declaration_macros: bool,
    /// A conditional whose first branch ends in the middle of a statement (`} else`, a line
    /// ending in `,` `(` `=` `{` `&` `|` `+` `-` `?`: `#ifdef X\n if (a) {\n#else\n if (b) {\n#endif`)
    /// is read with its first branch only; its directive lines are blanked.
    pub split_conditionals: bool,
    /// Every branch of every conditional is read, its directive lines blanked: for a
    /// language the C preprocessor runs over line by line (Haskell), whose grammar would
    /// otherwise read the first branch only and lose what an `#else` holds (`#ifdef
    /// NO_SPLITMIX` / `f = choose` / `#else` / `f (lo, hi) = …` / `g = …` / `#endif`: f's
    /// second equation and every definition up to the `#endif`), as ctags reads them.
    pub all_branches: bool,
    /// In a declaration at the top level or in a struct's body whose type is primitive,
    /// another word among its specifiers is an attribute macro (`static noinline void f`,
    /// `static void notrace f`, `const_debug unsigned int x`): blanked. A `#define`'s
    /// named variadic parameter (`#define dbg(fmt, args...)`) reads as `...`.
    pub specifier_macros: bool,
    /// An upper-case macro beside a string literal (`"a" ANSI_BOLD "b"`, `printk(KERN_ERR
    /// PFX "x")`) is a string: blanked.
    pub string_macros: bool,
    /// The macros the file itself `#define`s as nothing or as an attribute (`#define
    /// __ALIGNED__ __attribute__((aligned(8)))`, `#define INIT`, `#define dbg(x)`, in every
    /// branch that defines them) are blanked where the code uses them, a function-like one
    /// with its arguments: what the preprocessor would leave (or an attribute, blanked anyway).
    pub defined_attributes: bool,
    /// Calls whose second argument is a member designator (`offsetof(struct s, a.b[n])`):
    /// what follows its first name is blanked, the grammar reads a field name there.
    pub designators: Vec<String>,
    /// A label with no statement after it (`out:` before `}` or a directive line, which
    /// C before C23 does not allow and the grammar does not read): blanked (a label is no
    /// fact; `goto out;` stays).
    pub bare_labels: bool,
    /// An item of an initializer that is a macro expanding to a list (`{ "a", LIST("b")
    /// LIST("c") }`, `{ &a, MORE_OPS &b }`: a call or an upper-case word followed by the
    /// next item without a comma) gets a `,` in the space before the next item.
    pub list_macros: bool,
    /// A `/* … */` comment inside a directive line with more of the directive after it
    /// (`#define BITS (8 /* CHAR_BIT */ * sizeof(int))`): blanked, as the preprocessor
    /// itself reads it (a space).
    pub directive_comments: bool,
    /// A preprocessing number that is no C number (`1000baseT_Full`, `82801AA_3`, `1k`:
    /// a macro's argument pasted into a name): its first digit reads `_`, a name.
    pub pp_numbers: bool,
    /// Calls that are types (`typeof(x)`, `__typeof__(*p)`), which the grammar reads only
    /// with a type inside: one on a line reads as one type name of its length, the word
    /// then `_`s (`typeof(x) y`, `offsetof(typeof(*p), m)`, `(typeof(v))x`).
    pub type_calls: Vec<String>,
    /// Arguments of a call inside another call's arguments that are no expressions (what a
    /// macro like `TRACE_EVENT(name, TP_PROTO(struct s *p, int n), …)` takes): a parameter
    /// declaration reads as its name (`TP_PROTO(           p,     n)`); one call right
    /// after another without a comma gets one (`F(__field(int, a)\n __field(int, b))`); a
    /// call whose arguments are statements (`TP_fast_assign(e->a = a; f(e);)`) reads as a
    /// block, the argument the grammar allows (`{ e->a = a; f(e);}`).
    pub argument_shapes: bool,
}

/// One `replace` rule of `[preprocess]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Replace {
    /// The code byte before the match must be one of these (none: any).
    after: Vec<u8>,
    /// The byte right after the match must be none of these (`class = [^=>]`: an
    /// assignment, not `==` or `=>`).
    not_before: Vec<u8>,
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
        let mut not_before = Vec::new();
        if let Some(cond) = tokens.last().and_then(|t| t.strip_prefix("[^")).and_then(|t| t.strip_suffix(']')) {
            not_before = cond.as_bytes().to_vec();
            tokens.pop();
        }
        let to = to.trim().to_string();
        if tokens.is_empty() {
            return Err("a replace rule needs something to find".into());
        }
        if to.len() > tokens.iter().map(String::len).sum::<usize>() + tokens.len() - 1 {
            return Err(format!("`{}` is longer than what it replaces", to));
        }
        Ok(Replace { after, not_before, find: tokens, to })
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
        (!b.get(k).is_some_and(|c| self.not_before.contains(c))).then_some(k)
    }
}

impl Preprocess {
    pub(crate) fn is_empty(&self) -> bool {
        self.replace.is_empty()
            && self.blank.is_empty() && self.blank_calls.is_empty() && self.type_arguments.is_empty() && self.undefined.is_empty() && !self.inline_conditionals && !self.macros
            && !self.reserved_attributes && !self.tagged_type_arguments && !self.statement_macros && !self.declaration_macros && !self.split_conditionals && !self.all_branches && !self.specifier_macros && !self.string_macros
            && !self.defined_attributes && self.designators.is_empty()
            && !self.bare_labels && !self.list_macros && !self.directive_comments && !self.pp_numbers
            && self.type_calls.is_empty() && !self.argument_shapes
    }

    /// `src` with the rules applied, `None` when nothing changed.
    pub(crate) fn apply(&self, src: &str) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut b = src.as_bytes().to_vec();
        // (a pass only where a rule's first token or a type call's word is in the file)
        if self.replace.iter().any(|r| src.contains(r.find[0].as_str())) {
            let orig = b.clone();
            self.replacements(&orig, &mut b);
        }
        if self.directive_comments || self.pp_numbers {
            let orig = b.clone();
            self.tokens(&orig, &mut b);
        }
        if self.type_calls.iter().any(|w| src.contains(w.as_str())) {
            let orig = b.clone();
            self.type_names(&orig, &mut b);
        }
        if self.argument_shapes {
            let orig = b.clone();
            argument_shapes(&orig, &mut b);
        }
        if !self.undefined.is_empty() || self.inline_conditionals || self.split_conditionals || self.all_branches {
            self.conditionals(src.as_bytes(), &mut b);
        }
        if !self.blank.is_empty() || !self.blank_calls.is_empty() || !self.type_arguments.is_empty() || self.macros || self.defined_attributes || !self.designators.is_empty() {
            let orig = b.clone();
            self.words(&orig, &mut b);
        }
        if self.reserved_attributes || self.tagged_type_arguments || self.statement_macros || self.declaration_macros || self.specifier_macros || self.string_macros || self.bare_labels || self.list_macros {
            let orig = b.clone();
            self.declarations(&orig, &mut b);
        }
        (b != src.as_bytes()).then(|| String::from_utf8(b).expect("only ASCII bytes were blanked"))
    }

    fn replacements(&self, b: &[u8], out: &mut [u8]) {
        let (code, _) = code_mask(b);
        // (the bytes a rule starts with: most bytes start none, and a pack may have dozens)
        let mut starts = [false; 256];
        for r in &self.replace {
            starts[r.find[0].as_bytes()[0] as usize] = true;
        }
        let mut last = b'\n';
        let mut i = 0;
        while i < b.len() {
            if !code[i] {
                i += 1;
                continue;
            }
            let rule = starts[b[i] as usize].then(|| self.replace.iter().find_map(|r| {
                if r.find[0].as_bytes()[0] != b[i] {
                    return None;
                }
                let end = r.matches(b, i).filter(|&e| code[e - 1] && e - i >= r.to.len() && !b[i..i + r.to.len()].contains(&b'\n'))?;
                (r.after.is_empty() || r.after.contains(&last)).then_some((r, end))
            })).flatten();
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

    /// `directive_comments` and `pp_numbers`.
    fn tokens(&self, b: &[u8], out: &mut [u8]) {
        let (code, comment) = code_mask(b);
        let directive = directive_mask(b);
        let mut k = 0;
        while k < b.len() {
            if self.directive_comments && directive[k] && comment[k] && b[k..].starts_with(b"/*") {
                let end = (k..b.len()).find(|&j| !comment[j]).unwrap_or(b.len());
                // (what follows it up to the directive's end is more than spaces)
                let eol = b[end..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| end + p);
                let rest = trim(&b[end..eol]);
                // (also over lines a `\` continues, `/* \` / `* why \` / `*/ \` in a `#define`'s
                // body: the continuations stay; and before trailing spaces, which the grammar
                // does not allow after a directive's comment)
                let continued = (k..end).all(|j| b[j] != b'\n' || j > 0 && b[j - 1] == b'\\' || j > 1 && b[j - 1] == b'\r' && b[j - 2] == b'\\');
                let trailing = rest.is_empty() && eol > end && !b[end..eol].iter().all(|&c| c == b'\r');
                if continued && (!rest.is_empty() && !rest.starts_with(b"//") || trailing) {
                    for j in k..end {
                        if !(matches!(b[j], b'\n' | b'\r') || b[j] == b'\\' && matches!(b.get(j + 1), Some(b'\n' | b'\r'))) {
                            out[j] = b' ';
                        }
                    }
                }
                k = end;
                continue;
            }
            // `(a) /\` then `(b)` on the next line, in a directive: the grammar's body reads `/`
            // then a `\` continuation as the line's end; `/ \` is the same to the preprocessor
            if self.directive_comments && directive[k] && code[k] && b[k] == b'/' && k > 0 && matches!(b[k - 1], b' ' | b'\t') && b.get(k + 1) == Some(&b'\\') && matches!(b.get(k + 2), Some(b'\n' | b'\r')) {
                out[k - 1] = b'/';
                out[k] = b' ';
            }
            if self.pp_numbers && code[k] && !directive[k] && b[k].is_ascii_digit() && (k == 0 || !(is_word(b[k - 1]) || b[k - 1] == b'.')) {
                let hex = b[k..].starts_with(b"0x") || b[k..].starts_with(b"0X");
                let mut e = k;
                while e < b.len() {
                    let sign = matches!(b[e], b'+' | b'-') && if hex { matches!(b[e - 1], b'p' | b'P') } else { matches!(b[e - 1], b'e' | b'E') };
                    if !(is_word(b[e]) || b[e] == b'.' || sign) {
                        break;
                    }
                    e += 1;
                }
                if !c_number(&b[k..e]) {
                    out[k] = b'_';
                }
                k = e;
                continue;
            }
            k += 1;
        }
    }

    /// `type_calls`: `typeof(x)` on one line reads `typeof___` (what the grammar parses as
    /// a type name wherever a type stands, and as a name where a macro takes a type).
    fn type_names(&self, b: &[u8], out: &mut [u8]) {
        let (code, _) = code_mask(b);
        each_word(b, |i, e, _| {
            let word = &b[i..e];
            if !code[i] || !self.type_calls.iter().any(|w| w.as_bytes() == word) {
                return e;
            }
            let open = skip_ws(b, e);
            match (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten() {
                Some(end) if !b[e..end].contains(&b'\n') => {
                    out[e..end].fill(b'_');
                    end
                }
                _ => e,
            }
        });
    }

    fn conditionals(&self, src: &[u8], out: &mut [u8]) {
        struct Group {
            inline: bool,
            skipping: bool,
            /// a branch of the group was read: the later ones are not
            taken: bool,
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut last = b';';
        // the last code line is a control statement's head (`if (x)`): its statement follows
        let mut control = false;
        let mut continued = false;
        let mut at = 0;
        let lines: Vec<&[u8]> = src.split_inclusive(|&c| c == b'\n').collect();
        let code = if self.split_conditionals || self.inline_conditionals { code_mask(src).0 } else { Vec::new() };
        // `(` and `[` open before this line (an argument list, an array's size), read on
        // the code the grammar sees
        let mut open = 0i32;
        for (idx, line) in lines.iter().copied().enumerate() {
            let t = trim(line);
            let len = line.len() - line.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
            let blank = |out: &mut [u8]| out[at..at + len].fill(b' ');
            let skipping = groups.iter().any(|g| g.skipping);
            // (a `#` inside a string or a comment that runs over lines starts no directive)
            let hash = at + line.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
            let directive = t.strip_prefix(b"#").filter(|_| code.get(hash) != Some(&false)).map(|d| {
                let d = trim(d);
                let e = d.iter().position(|c| !c.is_ascii_alphabetic()).unwrap_or(d.len());
                (&d[..e], trim(&d[e..]))
            });
            if continued {
                blank(out);
                continued = t.ends_with(b"\\");
            } else if let Some((b"if" | b"ifdef" | b"ifndef" | b"elif" | b"elifdef" | b"elifndef" | b"else" | b"endif", _)) = directive.filter(|_| self.all_branches) {
                blank(out);
                continued = t.ends_with(b"\\");
            } else if let Some((word, rest)) = directive {
                // (`"a"\n#ifdef X\n "b"`: a string literal goes on)
                let unfinished = last.is_ascii_alphanumeric() || b"_,(={\"".contains(&last) || open > 0 || control;
                match word {
                    b"if" | b"ifdef" | b"ifndef" => {
                        let dead = (word == b"ifdef" && self.undefined.iter().any(|m| rest == m.as_bytes()))
                            || (word == b"if" && self.undefined.iter().any(|m| defined(rest, m)));
                        let split = self.split_conditionals && !skipping && !dead && first_branch_unfinished(&lines, idx, at + line.len(), &code);
                        let inline = self.inline_conditionals && unfinished || split;
                        if inline || dead || skipping {
                            blank(out);
                            continued = t.ends_with(b"\\");
                        }
                        groups.push(Group { inline: inline || dead, skipping: dead, taken: !dead });
                    }
                    b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                        if let Some(g) = groups.last_mut() {
                            if g.inline {
                                blank(out);
                                continued = t.ends_with(b"\\");
                                // a dead first branch gives way to the next; a branch read ends the reading
                                g.skipping = g.taken;
                                g.taken = true;
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
                    // (a `#define` inside an initializer: macros are no facts)
                    // (`{ {A}, {B} }\n#undef A\n};`: after a `}` too, where it may be an item's)
                    b"include" | b"define" | b"undef" | b"error" | b"warning" | b"pragma" | b"line" if self.inline_conditionals && (unfinished || last == b'}' && !matches!(word, b"include" | b"define" | b"pragma")) || skipping => {
                        blank(out);
                        continued = t.ends_with(b"\\");
                    }
                    _ if skipping => blank(out),
                    _ => last = b';',
                }
            } else if skipping {
                blank(out);
            } else {
                if let Some(&c) = strip_comment(t).last() {
                    last = c;
                    control = control_head(strip_comment(t));
                }
                if self.inline_conditionals {
                    // (a declaration at the line's start, or a body's end: nothing is open)
                    if line.first().is_some_and(|&c| is_word(c) || c == b'}') && code.get(at) == Some(&true) {
                        open = 0;
                    }
                    for (k, &c) in line.iter().enumerate() {
                        if code[at + k] {
                            match c {
                                b'(' | b'[' => open += 1,
                                b')' | b']' => open = (open - 1).max(0),
                                _ => {}
                            }
                        }
                    }
                }
            }
            at += line.len();
        }
    }

    fn words(&self, b: &[u8], out: &mut [u8]) {
        let (object_like, function_like) = if self.defined_attributes { attribute_defines(b) } else { Default::default() };
        each_word(b, |i, e, line_start| {
            let word = &b[i..e];
            let open = skip_ws(b, e);
            let call_end = (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten();
            if object_like.contains(word) {
                out[i..e].fill(b' ');
            } else if let Some(end) = call_end.filter(|_| function_like.contains(word) && !declarator_before(b, i)) {
                fill_keep_lines(&mut out[i..end]);
                return end;
            } else if let Some(end) = call_end.filter(|_| self.designators.iter().any(|w| w.as_bytes() == word)) {
                // `offsetof(struct s, a.b[n])`: the designator's first name stays
                if let Some(comma) = top_comma(b, open + 1, end - 1) {
                    let d = skip_ws_lines(b, comma + 1);
                    let de = word_end(b, d);
                    if de > d && matches!(b.get(skip_ws(b, de)), Some(b'.' | b'[')) {
                        fill_keep_lines(&mut out[de..end - 1]);
                    }
                }
                return end;
            } else if self.blank.iter().any(|w| w.as_bytes() == word) && !b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).is_some_and(|k| b[k] == b'.' || b[k] == b'>' && k > 0 && b[k - 1] == b'-') {
                // (not a member's name: `.un.frag.__unused = 0`)
                out[i..e].fill(b' ');
            } else if self.blank_calls.iter().any(|w| w.as_bytes() == word) {
                // (`__attribute__\n\t((aligned(8)))`: the arguments may start the next line)
                let open = skip_ws_lines(b, e);
                if let Some(end) = (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten() {
                    fill_keep_lines(&mut out[i..end]);
                    return end;
                }
            } else if let Some(end) = call_end.filter(|_| self.type_arguments.iter().any(|w| w.as_bytes() == word)) {
                // `va_arg(ap, const char *)`: the arguments after the first, with their commas
                if let Some(comma) = top_comma(b, open + 1, end - 1) {
                    fill_keep_lines(&mut out[comma..end - 1]);
                }
                return end;
            } else if self.macros && b[..i].iter().rposition(|&c| c != b' ' && c != b'\t').is_some_and(|k| {
                // `128 KB`, `(1 KB - h)`: a number followed by a word is no C; the word is a
                // unit macro (`#define KB *(1 << 10)`)
                let s = (0..=k).rev().take_while(|&j| is_word(b[j]) || b[j] == b'.').last().unwrap_or(k);
                is_word(b[k]) && b[s].is_ascii_digit() && k + 1 < i
            }) && call_end.is_none() && matches!(b.get(open), Some(b')' | b';' | b',' | b'-' | b'+' | b'*' | b'/' | b'\n' | b'\r') | None) {
                out[i..e].fill(b' ');
            } else if self.macros && is_macro(word) && call_end.is_none() && matches!(b.get(open), Some(b';' | b')' | b',')) && b[..i].iter().rposition(|&c| c != b' ' && c != b'\t').is_some_and(|k| {
                // `t = timeout TIMEOUT_MULT;`: a name after `=`, then an upper-case word: a
                // macro that goes on the expression (`#define TIMEOUT_MULT * 4`)
                let s = (0..=k).rev().take_while(|&j| is_word(b[j])).last().unwrap_or(k);
                is_word(b[k]) && !b[s].is_ascii_digit() && ![KEYWORDS, EXPRESSION_WORDS, TAGS, SPECIFIERS, PRIMITIVES].iter().any(|l| l.contains(&&b[s..=k]))
                    && b[..s].iter().rposition(|&c| c != b' ' && c != b'\t').is_some_and(|p| b[p] == b'=' && p > 0 && !b"=!<>".contains(&b[p - 1]))
            }) {
                out[i..e].fill(b' ');
            } else if self.macros && is_macro(word) && b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).is_some_and(|k| b[k] == b']')
                && matches!(b.get(skip_ws(b, call_end.unwrap_or(e))), Some(b';' | b'=' | b',')) {
                // `u8 data[] ALIGN_DATA;`, `char name[] SEC("x") = …`: after an array's
                // declarator, an attribute macro
                fill_keep_lines(&mut out[i..call_end.unwrap_or(e)]);
                return call_end.unwrap_or(e);
            } else if self.macros && is_macro(word) {
                if let Some(end) = call_end {
                    let after = skip_ws(b, end);
                    // a statement (`LOG("x")` ends no expression: `CHECK(c)\n << "why"` stays)
                    let alone = line_start
                        && matches!(b.get(after), None | Some(b'\n' | b'\r'))
                        && statement_before(b, i)
                        && b[after..].iter().find(|c| !c.is_ascii_whitespace()).is_none_or(|&c| is_word(c) || matches!(c, b'}' | b'#' | b'/'));
                    let cast = b.get(after).is_some_and(|&c| is_word(c)) && after == end;
                    // `TARGET_ATTRIBUTE("bmi2") static size_t f(`: an attribute before a
                    // declaration's specifiers
                    let specifiers = line_start && statement_before(b, i) && matches!(&b[after..word_end(b, after)], b"static" | b"extern" | b"inline");
                    if alone || cast || specifiers {
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
                    // (`BOOL f(…)`, `IMP f(…)`: an upper-case type before the function's
                    // name, not a macro before a type; `(` only as `(*fp)` / `(^block)`)
                    let pointer = b.get(t1) == Some(&b'(') && b.get(skip_ws(b, t1 + 1)).is_some_and(|&c| matches!(c, b'*' | b'^' | b'&'));
                    let typed = next_end > open && (pointer || b.get(t1).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'&' | b':' | b'<')));
                    // (or a body's last statement, `POSTAMBLE\n}`, not an enum's last member, `LAST\n};`)
                    let last = || {
                        let c = skip_ws_lines(b, open);
                        b.get(c) == Some(&b'}') && b.get(skip_ws_lines(b, c + 1)) != Some(&b';')
                    };
                    let lone = matches!(b.get(open), None | Some(b'\n' | b'\r')) && statement_before(b, i) && (statement_after(b, open) || last());
                    // (`U32 const x = …`, `BYTE const* p`: a qualifier after the word, then a
                    // declarator: the word is the type)
                    let qualified = matches!(&b[open..next_end], b"const" | b"volatile") && {
                        let d = skip_ws(b, next_end);
                        let de = word_end(b, d);
                        b.get(d) == Some(&b'*') || de > d && matches!(b.get(skip_ws(b, de)), Some(b'=' | b';' | b',' | b'[' | b')'))
                    };
                    if (typed || lone) && !qualified {
                        out[i..e].fill(b' ');
                    }
                }
            } else if self.macros && matches!(word, b"static" | b"extern" | b"inline" | b"virtual" | b"friend" | b"class" | b"struct" | b"union") {
                // `static INLINE_IF_POSSIBLE void f()`, `extern RN_EXPORT std::mutex m;`,
                // `class JSI_EXPORT Name {`: an annotation macro after the keyword
                let m1 = word_end(b, open);
                // (`static TARGET_ATTRIBUTE("bmi2") size_t f(`: the macro with its arguments)
                let a = skip_ws(b, m1);
                let call = (!matches!(word, b"class" | b"struct" | b"union") && b.get(a) == Some(&b'(')).then(|| close_paren(b, a)).flatten();
                let m1 = call.unwrap_or(m1);
                let n0 = skip_ws(b, m1);
                let tagged = matches!(word, b"class" | b"struct" | b"union");
                let n1 = word_end(b, n0);
                // (a call after `static` is no type: a type follows, the declarator maybe on the next line)
                // (`static DECLARE_BITMAP(b, N) __initdata;` declares b: no type and declarator follow)
                let name_follows = if call.is_some() {
                    n1 > n0 && !is_reserved_attribute(&b[n0..n1]) && b.get(skip_ws_lines(b, n1)).is_some_and(|&c| is_word(c) || c == b'*')
                } else if tagged {
                    let after = skip_ws_lines(b, n1);
                    n1 > n0 && matches!(b.get(after), Some(b'{' | b':' | b'f'))
                } else if matches!(&b[n0..n1], b"const" | b"volatile") {
                    // (`static U32 const x = 1;`: a qualifier then a declarator, the word is the
                    // type; `static MACRO const char *p`: a type after the qualifier)
                    let t = skip_ws(b, n1);
                    let te = word_end(b, t);
                    te > t && b.get(skip_ws(b, te)).is_some_and(|&c| is_word(c) || c == b'*')
                } else {
                    // a type, then a declarator: `static MACRO void f`, not `static BOOL x;`
                    n1 > n0 && b.get(skip_ws(b, n1)).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'&' | b':' | b'<'))
                };
                if m1 > open && is_macro(&b[open..word_end(b, open)]) && name_follows {
                    fill_keep_lines(&mut out[open..m1]);
                }
            }
            e
        });
        if self.macros {
            // an empty argument of a macro, `f(a, , b)`, `T(, x)`: `0` in its space
            let (code, comment) = code_mask(b);
            let directive = directive_mask(b);
            let mut open: Option<usize> = None;
            for k in 0..b.len() {
                if comment[k] || directive[k] {
                    continue;
                }
                if !code[k] {
                    open = None;
                    continue;
                }
                match b[k] {
                    b'(' | b',' => {
                        if b[k] == b',' && out[k] == b',' {
                            if let Some(o) = open.filter(|&o| out[o] == b[o]) {
                                if let Some(gap) = (o + 1..k).find(|&g| matches!(b[g], b' ' | b'\t') && code[g]) {
                                    out[gap] = b'0';
                                } else if o + 1 == k {
                                    // (`TEST(, add)`, `f(a,,\n b)`: no space for it; the comma goes)
                                    out[k] = b' ';
                                }
                            }
                        }
                        open = Some(k);
                    }
                    b')' => {
                        if let Some(o) = open.filter(|&o| b[o] == b',' && out[o] == b',' && out[k] == b')') {
                            if let Some(gap) = (o + 1..k).find(|&g| matches!(b[g], b' ' | b'\t') && code[g]) {
                                out[gap] = b'0';
                            }
                        }
                        open = None;
                    }
                    c if c.is_ascii_whitespace() => {}
                    _ => open = None,
                }
            }
            // an operator passed to a macro, `CHECK(a, <, b)`, `TEST(x, +=, y)`: `0` in its
            // space (not `(*)`, `(&)`, `(^)`: a declarator's)
            for k in 0..b.len() {
                if !code[k] || directive[k] || !matches!(b[k], b'(' | b',') {
                    continue;
                }
                let mut j = k + 1;
                while j < b.len() && code[j] && (matches!(b[j], b' ' | b'\t') || b"<>=!+-*/%&|^~".contains(&b[j])) {
                    j += 1;
                }
                let t = trim(&b[k + 1..j.min(b.len())]);
                // (not where an earlier rule blanked the call: `OPS(add, +=)` alone on its line)
                // (`TEST(andnot, &= ~, v)`: an operator and a unary one)
                if j < b.len() && matches!(b[j], b',' | b')') && out[k] == b[k] && out[j] == b[j] && !t.is_empty() && t.len() <= 4 && !t.iter().all(|c| b"*&^~".contains(c)) {
                    let a = k + 1 + b[k + 1..j].iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
                    out[a..a + t.len()].fill(b' ');
                    out[a] = b'0';
                }
            }
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

    /// `reserved_attributes`, `tagged_type_arguments` and `statement_macros`, read on `b`
    /// (what the earlier rules left) and written to `out`; what came before a word is read
    /// from `out`, so an attribute already blanked is not a type.
    fn declarations(&self, b: &[u8], out: &mut [u8]) {
        let (code, comment) = code_mask(b);
        let directive = directive_mask(b);
        // what the next token skips: comments and directive lines
        let skip: Vec<bool> = comment.iter().zip(&directive).map(|(c, d)| *c || *d).collect();
        // the braces open before each word: a function or statement body (`b`), an
        // initializer (`i`), a struct, union or enum body (`a`)
        let mut braces: Vec<u8> = Vec::new();
        // whether each open brace is a `do` loop's body, and where the last one closed
        let (mut dos, mut do_closed): (Vec<bool>, Option<usize>) = (Vec::new(), None);
        let mut scanned = 0usize;
        // the name a declarator macro's call declares (`DEFINE_MUTEX(__lock);`)
        let mut declared: Option<usize> = None;
        if self.specifier_macros {
            named_variadics(b, &directive, out);
        }
        each_word(b, |i, e, line_start| {
            for k in scanned..i {
                if !code[k] || directive[k] {
                    continue;
                }
                match b[k] {
                    b'{' => {
                        let before = prev_token(b, &comment, &directive, k).map(|(s, t)| &b[s..t]);
                        let kind = match before {
                            _ if braces.last() == Some(&b'i') => b'i',
                            Some(b"=" | b"," | b"(" | b"[") => b'i',
                            Some(b")" | b";" | b"{" | b"}" | b":" | b"else" | b"do") | None => b'b',
                            Some(_) => b'a',
                        };
                        braces.push(kind);
                        dos.push(before == Some(b"do".as_slice()));
                    }
                    b'}' => {
                        braces.pop();
                        do_closed = dos.pop().unwrap_or(false).then_some(k);
                    }
                    // `int a;;` in a struct's body: an empty member the grammar does not read
                    b';' if braces.last() == Some(&b'a') && prev_token(b, &comment, &directive, k).is_some_and(|(s, _)| b[s] == b';') => out[k] = b' ',
                    _ => {}
                }
            }
            scanned = i;
            if !code[i] {
                return e;
            }
            let word = &b[i..e];
            let open = skip_ws(b, e);
            let call_end = (b.get(open) == Some(&b'(')).then(|| close_paren(b, open)).flatten();
            let prev = prev_token(out, &comment, &directive, i);
            let prev_text = prev.filter(|&(s, t)| is_word(out[s]) && t > s).map(|(s, t)| out[s..t].to_vec());
            let prev_word = prev_text.as_deref();
            let prev_byte = prev.map(|(_, t)| out[t - 1]);
            // (a statement or declaration starts here: after `;` a brace, a label or a
            // directive line)
            let starts_statement = prev_word.is_none() && matches!(prev_byte, None | Some(b';' | b'{' | b'}' | b':'));
            if self.bare_labels && braces.last() == Some(&b'b') && starts_statement && !KEYWORDS.contains(&word) && !EXPRESSION_WORDS[..2].contains(&word) {
                // `out:` then `}` or a directive line: no statement for the label
                let colon = skip_ws(b, e);
                if b.get(colon) == Some(&b':') && b.get(colon + 1) != Some(&b':') {
                    let n = next_token(b, &comment, colon + 1);
                    let line_begins = b[..n].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                    let directive_next = b.get(n) == Some(&b'#') && trim(&b[line_begins..n]).is_empty();
                    if b.get(n) == Some(&b'}') || directive_next {
                        out[i..=colon].fill(b' ');
                        return colon + 1;
                    }
                }
            }
            if let Some(end) = call_end.filter(|_| self.declaration_macros && braces.is_empty() && line_start && starts_statement && prev_byte != Some(b':') && !KEYWORDS.contains(&word)) {
                // a macro line at the top level without `;` (`module_init(f)`, `DECLARE(x)`):
                // it expands to declarations or to nothing; blanked. Not a function's head
                // (`f(a, b)\n int a, b;\n{`: a body comes before any other `(` or `=`)
                let eol = b[end..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| end + p);
                let rest = strip_comment(&b[end..eol]);
                let n = next_token(b, &skip, end);
                let body_next = (n..b.len()).find(|&k| code[k] && !directive[k] && matches!(b[k], b'(' | b'{' | b'=')).is_some_and(|k| b[k] == b'{');
                if rest.is_empty() && !matches!(b.get(n), Some(b';' | b',' | b'=' | b'{' | b'[' | b'(' | b')')) && !body_next && !is_reserved_attribute(&b[n..word_end(b, n)]) {
                    fill_keep_lines(&mut out[i..end]);
                    return end;
                }
            }
            if self.list_macros && braces.last() == Some(&b'i') && prev_word.is_none() && matches!(prev_byte, Some(b',' | b'{')) && !KEYWORDS.contains(&word) && (call_end.is_some() || is_macro(word)) {
                // `{ "a", LIST("b")\n LIST("c") }`: the next item follows without a comma
                let end = call_end.unwrap_or(e);
                let n = next_token(b, &skip, end);
                let item = b.get(n).is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'"' | b'&' | b'{'));
                // (an item of the braces, not a call's argument: `{ F(0, NAME "-0") }`)
                let in_call = || {
                    let (mut parens, mut braces) = (0i32, 0i32);
                    for k in (0..i).rev().filter(|&k| code[k] && !directive[k]) {
                        match out[k] {
                            b')' => parens += 1,
                            b'(' if parens == 0 => return true,
                            b'(' => parens -= 1,
                            b'}' => braces += 1,
                            b'{' if braces == 0 => return false,
                            b'{' => braces -= 1,
                            _ => {}
                        }
                    }
                    false
                };
                if item && !(end..n).any(|k| directive[k]) && !in_call() {
                    if let Some(gap) = (end..n).find(|&k| matches!(b[k], b' ' | b'\t') && !comment[k]) {
                        out[gap] = b',';
                    }
                }
            }
            if self.string_macros && is_macro(word) && !directive[i] {
                // `"a" MACRO "b"`, `printk(KERN_ERR PFX "x")`: a macro beside a string literal
                // (through other upper-case words) is one
                let mut k = next_token(b, &skip, e);
                while is_macro(&b[k..word_end(b, k)]) {
                    k = next_token(b, &skip, word_end(b, k));
                }
                let before = prev.is_some_and(|(_, t)| out[t - 1] == b'"' && !code[t - 1]);
                // (`printk(KERN_DEFAULT CUT_HERE)`: macros side by side, a whole argument, are
                // strings too)
                let side_by_side = k > next_token(b, &skip, e) && matches!(b.get(k), Some(b')' | b',')) && matches!(prev_byte, Some(b'(' | b','));
                if b.get(k) == Some(&b'"') || before || side_by_side {
                    out[i..e].fill(b' ');
                    return e;
                }
            }
            if let Some(end) = call_end.filter(|_| self.string_macros && !directive[i] && !KEYWORDS.contains(&word) && !EXPRESSION_WORDS.contains(&word)) {
                // `"(default=" __stringify(N) ")"`, `__stringify(X) "\n"`: a call beside a string
                // literal (no C puts one there) expands to one; not `operator"" _x(…)`
                // (on one line: `TEXTS("a")\n "b",` in an initializer is a list macro)
                let before = prev.is_some_and(|(_, t)| out[t - 1] == b'"' && !code[t - 1] && !(t >= 2 && out[t - 2] == b'"') && !b[t..i].contains(&b'\n'));
                let n = next_token(b, &skip, end);
                if b.get(n) == Some(&b'"') && !b[end..n].contains(&b'\n') || before {
                    fill_keep_lines(&mut out[i..end]);
                    return end;
                }
            }
            // `do { … } while_each_thread(p, t);`: a macro that ends a `do` loop is its `while (…)`
            if self.statement_macros && word.len() >= 5 && !KEYWORDS.contains(&word) && prev.is_some_and(|(s, _)| Some(s) == do_closed) && call_end.is_some_and(|end| b.get(next_token(b, &skip, end)) == Some(&b';')) {
                out[i..e].fill(b' ');
                out[i..i + 5].copy_from_slice(b"while");
                return e;
            }
            if self.statement_macros && word == b"case" {
                // a GNU case range `case 1 ... 9:` reads as one value
                let colon = b[e..].iter().position(|&c| c == b':' || c == b'\n').map_or(e, |p| e + p);
                if let Some(d) = b[e..colon].windows(3).position(|w| w == b"...").map(|p| e + p) {
                    out[d..d + 3].copy_from_slice(b"+  ");
                }
            }
            if self.specifier_macros && braces.last().is_none_or(|&k| k == b'a') && matches!(prev_byte, None | Some(b';' | b'{' | b'}')) && prev_word.is_none() {
                specifier_attributes(b, &skip, out, i);
            }
            if self.reserved_attributes && is_reserved_attribute(word) && declared != Some(i) {
                // (`void __weak (*fp)(void)`: a declarator in parentheses, no arguments)
                let call_end = call_end.filter(|_| b.get(skip_ws(b, open + 1)) != Some(&b'*'));
                let end = call_end.unwrap_or(e);
                // (past the attributes that follow: `T __user __force *p`)
                let n0 = next_token(b, &skip, end);
                let n0_word = b.get(n0).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
                let mut ns = n0;
                while is_reserved_attribute(&b[ns..word_end(b, ns)]) {
                    let ne = word_end(b, ns);
                    let o = skip_ws(b, ne);
                    let close = (b.get(o) == Some(&b'(')).then(|| close_paren(b, o)).flatten();
                    // (`static void __printf(3, 4) __init\n__test(…)\n{`: not past the function defined)
                    // (its parameters are declarations, an attribute's arguments are not: `__acquires(&l)`)
                    let params = || {
                        let p = next_token(b, &skip, o + 1);
                        b[p..].starts_with(b"void") || type_then_declarator(b, &skip, p)
                    };
                    if ns > n0 && close.is_some_and(|c| b.get(past_reserved(b, &skip, c)) == Some(&b'{')) && params() {
                        break;
                    }
                    ns = next_token(b, &skip, close.unwrap_or(ne));
                }
                // (a call's: past the attributes after it, `void __f(…) __releases(l)\n{` is f)
                let n = if call_end.is_some() { ns } else { n0 };
                let next_is_word = b.get(n).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
                // (`void __weak (*fp)(void);`: a function pointer's declarator)
                let declarator_follows = next_is_word || b.get(n) == Some(&b'*') || b.get(n) == Some(&b'(') && b.get(next_token(b, &skip, n + 1)) == Some(&b'*');
                let attribute = match (prev_word, prev_byte) {
                    // `struct __name`, `return __f(x)`, `sizeof __x`: a name
                    (Some(w), _) if TAGS.contains(&w) || EXPRESSION_WORDS.contains(&w) => false,
                    // `static __init int f`, `typedef __printf(1, 2) void (*p)(…)`: a type and a
                    // declarator follow
                    // (past the attributes after it: `static __always_inline __realloc_size(2) void *`;
                    // after a qualifier the declarator may follow, `static u8 const __aligned(8) b[]`)
                    (Some(w), _) if SPECIFIERS.contains(&w) => {
                        let t = if is_reserved_attribute(&b[n0..word_end(b, n0)]) { ns } else { n0 };
                        let word_at = b.get(t).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
                        word_at && type_then_declarator(b, &skip, t)
                            || matches!(w, b"const" | b"volatile")
                                && prev.and_then(|(s, _)| prev_token(out, &comment, &directive, s)).is_some_and(|(s2, t2)| is_word(out[s2]) && !SPECIFIERS.contains(&&out[s2..t2]) && !TAGS.contains(&&out[s2..t2]))
                                && word_at
                                && matches!(b.get(skip_ws(b, word_end(b, t))), Some(b'[' | b'=' | b';' | b','))
                    }
                    // `int __init f`, `char __user *p`: a declarator follows; `bool x
                    // __read_mostly;`: a declarator (a name after a type) came before
                    // `wint_t __towupper_l(wint_t c)\n{`: a function defined
                    (Some(_), _) if call_end.is_some() && b.get(n) == Some(&b'{') && !declarator_follows => false,
                    // `(uintptr_t __force)addr`: last in a cast
                    (Some(_), _) if prev.is_some_and(|(s, _)| prev_token(out, &comment, &directive, s).is_some_and(|(s2, _)| out[s2] == b'(')) && b.get(n) == Some(&b')') && cast_follows(b, n) => true,
                    (Some(w), _) => {
                        declarator_follows
                            || matches!(b.get(n), Some(b';' | b'=' | b',' | b')' | b'{'))
                                && !PRIMITIVES.contains(&w)
                                && prev.is_some_and(|(s, _)| {
                                    prev_token(out, &comment, &directive, s).is_some_and(|(s2, t2)| {
                                        let w2 = &out[s2..t2];
                                        // (`unsigned long x __section(…);`: `long` is a type)
                                        w2 == b"*" || w2 == b"}" || is_word(w2[0]) && !TAGS.contains(&w2) && (!SPECIFIERS.contains(&w2) || PRIMITIVES.contains(&w2)) && !EXPRESSION_WORDS.contains(&w2)
                                    })
                                })
                    }
                    // `u8 data[] __aligned(8);`
                    (None, Some(b']')) => true,
                    // `void f(struct s *p)\n__releases(p->lock)\n{`, `int f(void) __cold;`
                    (None, Some(b')')) => {
                        (call_end.is_some() && b.get(n) == Some(&b'{') || braces.last().is_none_or(|&k| k == b'a') && matches!(b.get(n), Some(b';' | b'=')))
                            || is_reserved_attribute(&b[n..word_end(b, n)])
                    }
                    // `} __packed *p;` (a struct's body just closed on this line)
                    // (`} __a = { a };`: before `=`, the declarator)
                    (None, Some(b'}')) if !out[prev.map_or(0, |p| p.1)..i].contains(&b'\n') => declarator_follows || b.get(n) == Some(&b';'),
                    // `struct s *__percpu *p`
                    (None, Some(b'*')) => declarator_follows,
                    // `(__force u32)x`: a cast; `(__user char *p,`
                    (None, Some(b'(')) => {
                        n0_word && cast_follows(b, n0)
                            || b.get(ns).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_') && type_then_declarator(b, &skip, ns)
                    }
                    // `struct s *a, __percpu *b;`, `u64 a, __maybe_unused b;`: before the next
                    // declarator of a declaration (a word after `*`s, or one a declarator's end follows)
                    (None, Some(b',')) if braces.last() != Some(&b'i') && !in_parens(out, &code, &directive, i) && {
                        let mut d = n;
                        while b.get(d) == Some(&b'*') {
                            d = skip_ws(b, d + 1);
                        }
                        let de = word_end(b, d);
                        de > d && (d > n || matches!(b.get(skip_ws(b, de)), Some(b';' | b',' | b'=' | b'[')))
                    } => true,
                    // a line's start: `__init int f(void)`, `__printf(2, 3) void f(…)`
                    (None, None | Some(b';' | b'{' | b'}' | b',')) => next_is_word && type_then_declarator(b, &skip, n),
                    _ => false,
                };
                if attribute {
                    fill_keep_lines(&mut out[i..end]);
                    return end;
                }
            }
            // (in a body: `static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);`, `DECLARE_BITMAP(m, N)
            // = { 0 };`: a call is neither `static` nor assigned to)
            let in_body = || prev_word == Some(b"static".as_slice()) || b.get(next_token(b, &skip, call_end.unwrap_or(e))) == Some(&b'=') && matches!(prev_byte, Some(b';' | b'{' | b'}'));
            if let Some(end) = call_end.filter(|_| self.declaration_macros && (is_macro(word) || is_reserved_attribute(word)) && (braces.is_empty() || braces.last() == Some(&b'a') || braces.last() == Some(&b'b') && in_body())) {
                let starts = match (prev_word, prev_byte) {
                    (Some(w), _) => SPECIFIERS.contains(&w),
                    (None, c) => matches!(c, None | Some(b';' | b'{' | b'}')),
                };
                if starts && declaration_macro(b, &skip, out, i, open, end, braces.last() != Some(&b'a')) {
                    // (the arguments are read on: `SYSCALL_DEFINE1(time, T __user *, p)`; the
                    // name declared is no attribute, `ALLOW_ERROR_INJECTION(__f, ERRNO);`)
                    declared = Some(next_token(b, &skip, open + 1));
                    return e;
                }
            }
            if let Some(end) = call_end.filter(|_| !KEYWORDS.contains(&word) && !SPECIFIERS.contains(&word) && !EXPRESSION_WORDS.contains(&word)) {
                let a_call = match (prev_word, prev_byte) {
                    (Some(w), _) => EXPRESSION_WORDS.contains(&w) || w == b"static" || w == b"extern",
                    // (a label `err:`, not `a::f`)
                    (None, Some(b':')) => prev.is_some_and(|(s, _)| s == 0 || out[s - 1] != b':'),
                    // (`&container_of(…)->m`, `*list_entry(…)`: a unary operator, no declarator's `*`)
                    // (`8 * sizeof_field(struct s, m)`: after a number, a product)
                    (None, Some(b'*' | b'&')) => prev.and_then(|(s, _)| prev_token(out, &comment, &directive, s)).is_some_and(|(s2, t2)| {
                        let w2 = &out[s2..t2];
                        if is_word(w2[0]) { EXPRESSION_WORDS.contains(&w2) || w2[0].is_ascii_digit() } else { !matches!(w2, b")" | b"]") }
                    }),
                    // (`p->f(…)` is a member; `a > f(…)` a comparison)
                    (None, Some(b'>')) => prev.is_some_and(|(s, _)| s == 0 || out[s - 1] != b'-'),
                    (None, Some(c)) => !matches!(c, b'*' | b'&' | b'.' | b':'),
                    (None, None) => true,
                };
                // (`Array(char) chars;`: a macro used as a type, which the grammar reads)
                let as_type = b.get(next_token(b, &skip, end)).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
                if self.declaration_macros && as_type && is_macro(word) && braces.last().is_none_or(|&k| k == b'a') && starts_statement && top_comma(b, open + 1, end - 1).is_some() {
                    // `STRUCT_KFIFO(char, N) fifo;`: one of several arguments, no type the
                    // grammar reads: the macro's name is the type
                    let d = next_token(b, &skip, end);
                    let de = word_end(b, d);
                    if matches!(b.get(next_token(b, &skip, de)), Some(b';' | b'=' | b',' | b'[')) {
                        fill_keep_lines(&mut out[open..end]);
                        return end;
                    }
                }
                if self.tagged_type_arguments && a_call && !as_type {
                    tagged_arguments(b, out, open, end);
                    // `static DEFINE_PER_CPU(int, x);`: a declaration the macro makes, now a call
                    if braces.is_empty() && is_macro(word) && matches!(prev_word, Some(b"static" | b"extern")) && b.get(next_token(b, &skip, end)) == Some(&b';') {
                        if let Some((s, t)) = prev {
                            out[s..t].fill(b' ');
                        }
                    }
                }
                if self.statement_macros && braces.last() == Some(&b'b') && a_call {
                    let statement = match (prev_word, prev_byte) {
                        (Some(w), _) => w == b"else" || w == b"do",
                        (None, Some(c)) => matches!(c, b';' | b'{' | b'}' | b')' | b':'),
                        // (in a body: a directive line came before)
                        (None, None) => true,
                    };
                    let n = next_token(b, &skip, end);
                    // (on the next line a statement may start with `(void)` or `++`)
                    // (not `int (*fp)\n (args);`: a type, no call)
                    let next_line = b[end..n].contains(&b'\n') && !PRIMITIVES.contains(&word) && (b.get(n) == Some(&b'(') || b[n..].starts_with(b"++") || b[n..].starts_with(b"--"));
                    // (`} endfor_each(x)\n}`: a macro that closes a loop, before the body's end)
                    let closes = b.get(n) == Some(&b'}') && b[end..n].contains(&b'\n');
                    let runs_on = next_line || closes || b.get(n).is_some_and(|&c| c == b'{' || c.is_ascii_alphabetic() || c == b'_');
                    // the `;` goes in the space just before what follows
                    if statement && runs_on && n > end && matches!(b[n - 1], b' ' | b'\t') && comment.get(n - 1) == Some(&false) {
                        out[n - 1] = b';';
                    }
                }
            }
            e
        });
    }
}

/// C's keywords that cannot be a callee.
const KEYWORDS: &[&[u8]] = &[b"if", b"while", b"for", b"switch", b"sizeof", b"_Alignof", b"alignof", b"offsetof", b"typeof", b"__typeof__", b"__typeof", b"_Generic", b"__attribute__", b"__attribute", b"__declspec", b"__asm__", b"__asm", b"asm", b"defined", b"_Static_assert", b"static_assert", b"va_arg", b"__builtin_va_arg", b"__builtin_offsetof", b"__builtin_types_compatible_p"];
/// Words after which an expression starts.
const EXPRESSION_WORDS: &[&[u8]] = &[b"return", b"case", b"goto", b"else", b"do", b"sizeof", b"throw", b"co_return", b"co_yield"];
/// Tag keywords: the name after one is the tag.
const TAGS: &[&[u8]] = &[b"struct", b"union", b"enum", b"class"];
/// Storage classes, qualifiers and function specifiers: a type comes after them.
const SPECIFIERS: &[&[u8]] = &[b"static", b"extern", b"inline", b"typedef", b"const", b"volatile", b"register", b"restrict", b"_Thread_local", b"thread_local", b"_Noreturn", b"signed", b"unsigned", b"short", b"long", b"auto", b"virtual", b"friend", b"constexpr", b"explicit"];
/// Primitive types: a name after one is a declarator.
const PRIMITIVES: &[&[u8]] = &[b"void", b"char", b"int", b"float", b"double", b"bool", b"_Bool", b"size_t", b"long", b"short", b"unsigned", b"signed"];

/// `__init`, `__user`, `__aligned`, `____cacheline_aligned`, `__attribute_const__`: `__`
/// then a lower-case letter, not a word the grammar reads itself, not a GNU keyword
/// (`__volatile__`), not a builtin.
fn is_reserved_attribute(w: &[u8]) -> bool {
    const GNU: &[&[u8]] = &[b"__attribute__", b"__asm__", b"__volatile__", b"__inline__", b"__restrict__", b"__extension__", b"__alignof__", b"__typeof__", b"__const__", b"__signed__", b"__real__", b"__imag__", b"__complex__", b"__label__", b"__func__", b"__auto_type__"];
    const GRAMMAR: &[&[u8]] = &[b"__attribute", b"__declspec", b"__asm", b"__inline", b"__restrict", b"__thread", b"__based", b"__cdecl", b"__clrcall", b"__stdcall", b"__fastcall", b"__thiscall", b"__vectorcall", b"__unaligned", b"__sptr", b"__uptr", b"__forceinline", b"__alignof", b"__typeof", b"__try", b"__except", b"__finally", b"__leave", b"__label__", b"__func__", b"__int128", b"__int64", b"__int32", b"__int16", b"__int8", b"__auto_type", b"__real", b"__imag", b"__volatile", b"__extension__", b"__const"];
    let rest = w.iter().position(|&c| c != b'_').map_or(&w[w.len()..], |k| &w[k..]);
    w.starts_with(b"__")
        && rest.first().is_some_and(u8::is_ascii_lowercase)
        && !GNU.contains(&w)
        && !w.starts_with(b"__builtin")
        && !GRAMMAR.contains(&w)
}

/// The last token of `out` before `i` (skipping spaces and comments): `(start, end)`, a word
/// or one byte.
fn prev_token(out: &[u8], comment: &[bool], directive: &[bool], i: usize) -> Option<(usize, usize)> {
    let k = (0..i).rev().find(|&k| !out[k].is_ascii_whitespace() && !comment[k])?;
    if directive[k] {
        return None;
    }
    if is_word(out[k]) {
        let s = (0..=k).rev().take_while(|&j| is_word(out[j])).last().unwrap_or(k);
        return Some((s, k + 1));
    }
    Some((k, k + 1))
}

/// Whether the first branch of the conditional on `lines[idx]` (its text from byte `from`)
/// ends in the middle of a statement.
fn first_branch_unfinished(lines: &[&[u8]], idx: usize, from: usize, code: &[bool]) -> bool {
    let mut depth = 0;
    let mut at = from;
    let mut last: Option<usize> = None;
    // the branch's first code line starts with `else`: it goes on with the `if` before the
    // conditional (`if (a)\n  x();\n#ifdef Y\n else if (b)\n  y();\n#endif`)
    let mut starts_else = None;
    // each branch's brace and paren depth, and whether one went below 0: a branch that
    // closes what the code before opened (`} else {`), or leaves open what the code after
    // closes, is read alone
    let (mut braces, mut parens, mut unbalanced) = (0i32, 0i32, false);
    let (mut first, mut continued) = (true, false);
    // the branch's last code line is a control statement's head (`if (x)`, its statement
    // after the `#endif`)
    let mut ends_control = false;
    for line in &lines[idx + 1..] {
        let t = trim(line);
        let was_continued = continued;
        continued = t.ends_with(b"\\") && (was_continued || t.starts_with(b"#"));
        if was_continued {
            // a directive's continuation line
        } else if let Some(d) = t.strip_prefix(b"#") {
            let d = trim(d);
            let word = &d[..d.iter().position(|c| !c.is_ascii_alphabetic()).unwrap_or(d.len())];
            match word {
                b"if" | b"ifdef" | b"ifndef" => depth += 1,
                b"endif" if depth > 0 => depth -= 1,
                b"endif" if depth == 0 => break,
                b"else" | b"elif" | b"elifdef" | b"elifndef" if depth == 0 => {
                    unbalanced |= braces != 0 || parens != 0;
                    braces = 0;
                    parens = 0;
                    first = false;
                }
                _ => {}
            }
        } else if depth == 0 {
            for (k, &c) in line.iter().enumerate() {
                if code[at + k] {
                    match c {
                        b'{' => braces += 1,
                        b'}' => braces -= 1,
                        b'(' => parens += 1,
                        b')' => parens -= 1,
                        _ => {}
                    }
                    unbalanced |= braces < 0 || parens < 0;
                }
            }
            if let Some(k) = (at..at + line.len()).rev().find(|&k| first && code[k] && !line[k - at].is_ascii_whitespace()) {
                last = Some(k);
                ends_control = control_head(strip_comment(trim(line)));
                if starts_else.is_none() {
                    let f = line.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
                    let w = &line[f..f + line[f..].iter().position(|&c| !is_word(c)).unwrap_or(line.len() - f)];
                    starts_else = Some(code[at + f] && w == b"else");
                }
            }
        }
        at += line.len();
    }
    if starts_else == Some(true) || unbalanced || braces != 0 || parens != 0 || ends_control {
        return true;
    }
    let Some(k) = last else { return false };
    // the source of `code`: the bytes of `lines` joined
    let byte = |k: usize| {
        let mut off = 0;
        for l in lines {
            if k < off + l.len() {
                return l[k - off];
            }
            off += l.len();
        }
        b' '
    };
    let c = byte(k);
    let ends_else = c == b'e' && k >= 4 && (k - 3..=k).map(byte).eq(*b"else") && (k < 4 || !is_word(byte(k - 4)));
    ends_else || b",(={&|+-?".contains(&c) && !(c == b'-' && k > 0 && byte(k - 1) == b'-') && !(c == b'+' && k > 0 && byte(k - 1) == b'+')
}

/// A control statement's head without its statement: `if (x)`, `} else if (x)`, `while
/// (x)`, `for (…)`, `else` (the line, trimmed, its comment stripped).
fn control_head(t: &[u8]) -> bool {
    let t = t.strip_prefix(b"}").map_or(t, trim);
    let after_else = t.strip_prefix(b"else").filter(|r| r.first().is_none_or(|&c| !is_word(c))).map(trim);
    let t = after_else.unwrap_or(t);
    if t.is_empty() {
        // `else`, `} else`
        return after_else.is_some();
    }
    let w = &t[..t.iter().position(|&c| !is_word(c)).unwrap_or(t.len())];
    matches!(w, b"if" | b"while" | b"for") && t.ends_with(b")") && matches!(close_paren(t, skip_ws(t, w.len())), Some(e) if e == t.len())
}

/// `#define f(fmt, args...)`: the name of a named variadic parameter is blanked.
fn named_variadics(b: &[u8], directive: &[bool], out: &mut [u8]) {
    let mut i = 0;
    while let Some(k) = b[i..].windows(3).position(|w| w == b"...").map(|k| i + k) {
        i = k + 3;
        if !directive[k] || k == 0 || !is_word(b[k - 1]) {
            continue;
        }
        let s = (0..k).rev().take_while(|&j| is_word(b[j])).last().unwrap_or(k);
        // inside the parameter list of `#define NAME(`
        let line = b[..s].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let head = trim(&b[line..s]);
        if head.starts_with(b"#") && head.contains(&b'(') && !head.contains(&b')') && matches!(b[..s].iter().rposition(|c| !c.is_ascii_whitespace()).map(|p| b[p]), Some(b'(' | b',')) {
            out[s..k].fill(b' ');
        }
    }
}

/// `specifier_macros` for the declaration starting at `i`.
fn specifier_attributes(b: &[u8], skip: &[bool], out: &mut [u8], i: usize) {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut k = i;
    loop {
        if k >= b.len() || !(b[k].is_ascii_alphabetic() || b[k] == b'_') {
            break;
        }
        let e = word_end(b, k);
        words.push((k, e));
        k = next_token(b, skip, e);
        if words.len() > 8 {
            return;
        }
    }
    let Some(&t) = b.get(k) else { return };
    // (attributes after the declarator are not its specifiers: `bool x __read_mostly;`)
    // (`void noinstr __f(…) {`: a reserved name defined is the declarator)
    // (past attributes after the parameters: `static u64 notrace __f(…)\n\t__acquires(RCU)\n{`)
    let defined = t == b'(' && close_paren(b, k).is_some_and(|c| b.get(past_reserved(b, skip, c)) == Some(&b'{'));
    while !defined && words.len() >= 3 && words.last().is_some_and(|&(s, e)| is_reserved_attribute(&b[s..e])) {
        // (`void __f(` is f: a name after a primitive or a tag's name is the declarator)
        let (s, e) = words[words.len() - 2];
        let (s2, e2) = words[words.len() - 3];
        if PRIMITIVES.contains(&&b[s..e]) || SPECIFIERS.contains(&&b[s..e]) || TAGS.contains(&&b[s2..e2]) {
            break;
        }
        words.pop();
    }
    let specifiers = match t {
        b'(' | b';' | b'=' | b'[' | b',' if words.len() > 1 => &words[..words.len() - 1],
        b'*' => &words[..],
        _ => return,
    };
    let text = |&(s, e): &(usize, usize)| &b[s..e];
    if !specifiers.iter().any(|w| PRIMITIVES.contains(&text(w))) {
        typedef_attributes(b, specifiers, out);
        return;
    }
    let mut tagged = false;
    for w in specifiers {
        let word = text(w);
        let name = tagged;
        tagged = TAGS.contains(&word);
        if name || tagged || SPECIFIERS.contains(&word) || PRIMITIVES.contains(&word) || KEYWORDS.contains(&word) || is_reserved_attribute(word) {
            continue;
        }
        out[w.0..w.1].fill(b' ');
    }
}

/// The next token after `from` past reserved attributes (`__acquires(RCU) __must_hold(l)`).
fn past_reserved(b: &[u8], skip: &[bool], from: usize) -> usize {
    let mut n = next_token(b, skip, from);
    for _ in 0..8 {
        let e = word_end(b, n);
        if e == n || !is_reserved_attribute(&b[n..e]) {
            break;
        }
        let o = skip_ws(b, e);
        n = next_token(b, skip, (b.get(o) == Some(&b'(')).then(|| close_paren(b, o)).flatten().unwrap_or(e));
    }
    n
}

/// Whether a type or `*` comes before `i`: a name declared there (`extern void f(void);` in
/// one branch, `#define f()` in the other), not a macro used.
fn declarator_before(b: &[u8], i: usize) -> bool {
    b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).is_some_and(|k| is_word(b[k]) || b[k] == b'*')
}

/// `defined_attributes`: the names the file `#define`s as nothing or an attribute, in every
/// definition of them, object-like and function-like.
fn attribute_defines(b: &[u8]) -> (std::collections::HashSet<Vec<u8>>, std::collections::HashSet<Vec<u8>>) {
    use std::collections::{HashMap, HashSet};
    // name -> (function-like, every definition an attribute)
    let mut defs: HashMap<Vec<u8>, (bool, bool)> = HashMap::new();
    let mut continued = false;
    for line in b.split(|&c| c == b'\n') {
        let t = trim(line);
        let was_continued = continued;
        continued = t.ends_with(b"\\");
        if was_continued {
            continue;
        }
        let Some(d) = t.strip_prefix(b"#").map(trim) else { continue };
        let Some(rest) = d.strip_prefix(b"define") else { continue };
        let n = skip_ws(rest, 0);
        if n == 0 {
            continue;
        }
        let ne = word_end(rest, n);
        if ne == n {
            continue;
        }
        let name = rest[n..ne].to_vec();
        let function = rest.get(ne) == Some(&b'(');
        let body_at = if function {
            match rest[ne..].iter().position(|&c| c == b')') {
                Some(p) => ne + p + 1,
                None => continue,
            }
        } else {
            ne
        };
        let body = strip_comment(&rest[body_at..]);
        let head = &body[..word_end(body, 0)];
        let attribute = !continued
            && (body.is_empty()
                || matches!(head, b"__attribute__" | b"__attribute" | b"__declspec") && close_paren(body, skip_ws(body, head.len())) == Some(body.len())
                // (`#define INIT __init`: an object-like alias of a reserved word; not a call,
                // `#define readl(a) __raw_readl(a)` is a function)
                || !function && is_reserved_attribute(head) && head.len() == body.len());
        let e = defs.entry(name).or_insert((function, true));
        e.1 &= attribute && e.0 == function;
    }
    let (mut object, mut function) = (HashSet::new(), HashSet::new());
    for (name, (f, attribute)) in defs {
        if attribute {
            if f { function.insert(name) } else { object.insert(name) };
        }
    }
    (object, function)
}

/// `specifier_attributes` of a declaration whose type is not primitive: a C declaration
/// names one type, so beside a tagged type (`static struct s notrace *f(`) every other
/// plain word among the specifiers is an attribute macro, and of two plain words (`static
/// noinline u32 f(`, `static u64 notrace f(`) one is: the one that does not look like a type
/// (a digit or a `_t` suffix, `u32`, `pid_t`; then a `_`, `word_type`), else the first; an upper-case word after the
/// type is one too (`UChar32 U_EXPORT2 f(`).
fn typedef_attributes(b: &[u8], specifiers: &[(usize, usize)], out: &mut [u8]) {
    let mut plain: Vec<(usize, usize)> = Vec::new();
    let (mut tagged, mut name) = (false, false);
    for &(s, e) in specifiers {
        let word = &b[s..e];
        if name {
            name = false;
            continue;
        }
        if TAGS.contains(&word) {
            tagged = true;
            name = true;
            continue;
        }
        if is_macro(word) && (tagged || !plain.is_empty()) {
            // `UChar32 U_EXPORT2\nf(…)`: an upper-case macro after the type
            out[s..e].fill(b' ');
            continue;
        }
        if SPECIFIERS.contains(&word) || KEYWORDS.contains(&word) || is_reserved_attribute(word) || is_macro(word) || word.starts_with(b"__") {
            continue;
        }
        plain.push((s, e));
    }
    let typeish = |&(s, e): &(usize, usize)| b[s..e].ends_with(b"_t") || b[s..e].iter().any(u8::is_ascii_digit);
    let attributes: Vec<(usize, usize)> = match plain.len() {
        _ if tagged => plain,
        2 if typeish(&plain[0]) && !typeish(&plain[1]) => vec![plain[1]],
        2 if typeish(&plain[1]) && !typeish(&plain[0]) => vec![plain[0]],
        // (`word_type notrace f(`: then a word with `_`)
        2 if b[plain[0].0..plain[0].1].contains(&b'_') && !b[plain[1].0..plain[1].1].contains(&b'_') => vec![plain[1]],
        2 => vec![plain[0]],
        _ => return,
    };
    for (s, e) in attributes {
        out[s..e].fill(b' ');
    }
}

/// Bytes on preprocessor directive lines (with their `\` continuations).
fn directive_mask(b: &[u8]) -> Vec<bool> {
    let mut mask = vec![false; b.len()];
    let mut at = 0;
    let mut continued = false;
    for line in b.split_inclusive(|&c| c == b'\n') {
        let t = trim(line);
        if continued || t.starts_with(b"#") {
            mask[at..at + line.len()].fill(true);
            continued = t.ends_with(b"\\");
        }
        at += line.len();
    }
    mask
}

/// `declaration_macros` for the call `b[name..end]` (its `(` at `open`): rewritten in
/// `out` when a `;`, `=`, an attribute or (at the top level) a body follows and its first
/// argument is a name (`M name ;`, `M name[ N]`, `M name={ a, b}`, `M name( params) {`) or
/// a type then a name (`DEFINE_PER_CPU(struct s, x) = {…}` as `struct s x = {…}`).
fn declaration_macro(b: &[u8], skip: &[bool], out: &mut [u8], name: usize, open: usize, end: usize, top: bool) -> bool {
    let first = skip_ws(b, open + 1);
    let fe = word_end(b, first);
    let close = end - 1;
    let n = next_token(b, skip, end);
    let next = b.get(n).copied();
    let declaration = matches!(next, Some(b';' | b'=')) || is_reserved_attribute(&b[n..word_end(b, n)]);
    if fe == first || b[first].is_ascii_digit() || KEYWORDS.contains(&&b[first..fe]) {
        return false;
    }
    let first_word = &b[first..fe];
    if declaration && top_comma(b, open + 1, close).is_none() && type_then_declarator(b, skip, first) {
        // one argument that is a declaration (`INDIRECT_CALLABLE_DECLARE(int f(struct s *));`):
        // the macro's name and parentheses go
        fill_keep_lines(&mut out[name..=open]);
        out[close] = b' ';
        return true;
    }
    // (`DEFINE_PER_CPU(u8 *, p)`, `DEFINE_PER_CPU(u8 *[N], p)`: a name and `*`s, maybe
    // bounds, is a pointer type; `m[N]` alone a name with bounds)
    let pointer = top_comma(b, open + 1, close).is_some_and(|c| {
        let rest = trim(&b[fe..c]);
        let mut k = 0;
        while k < rest.len() && matches!(rest[k], b'*' | b' ' | b'\t' | b'[') {
            k = if rest[k] == b'[' { skip_bounds(rest, k) } else { k + 1 };
        }
        rest.first() == Some(&b'*') && k == rest.len()
    });
    if TAGS.contains(&first_word) || SPECIFIERS.contains(&first_word) || PRIMITIVES.contains(&first_word) || pointer {
        // a type, then the name: the macro's name and parentheses go, the comma too
        let Some(comma) = top_comma(b, open + 1, close) else { return false };
        if b[first..comma].contains(&b'(') {
            return false;
        }
        let d = skip_ws_lines(b, comma + 1);
        let de = word_end(b, d);
        if !declaration || de == d || skip_ws_lines(b, de) != close {
            return false;
        }
        fill_keep_lines(&mut out[name..=open]);
        out[comma] = b' ';
        out[close] = b' ';
        // (`DEFINE_PER_CPU(struct s[N], x)`: an array's bounds cannot stand before the name;
        // blanked, x is declared of the element type)
        let mut k = first;
        while k < comma {
            if b[k] == b'[' {
                let e = skip_bounds(b, k).min(comma);
                fill_keep_lines(&mut out[k..e]);
                k = e;
            } else {
                k += 1;
            }
        }
        return true;
    }
    // (`DECLARE_BITMAP(m[N], M)`: a name with bounds)
    let mut after_first = skip_ws(b, fe);
    while b.get(after_first) == Some(&b'[') {
        after_first = skip_ws(b, skip_bounds(b, after_first));
    }
    let comma = match b.get(after_first) {
        Some(b',') => Some(after_first),
        Some(b')') if after_first == close => None,
        _ => return false,
    };
    if next == Some(b'{') && top {
        // a function: `M name( rest) {`
        let Some(comma) = comma else { return false };
        out[open] = b' ';
        out[comma] = b'(';
        return true;
    }
    if !declaration {
        return false;
    }
    // the rest are values, not types (`STANDARD_PARAM_DEF(ushort, unsigned short, …)`); in a
    // struct's body a member with its type among them (`DECLARE_KFIFO(fifo, struct e, N);`
    // as `DECLARE_KFIFO fifo ;`)
    if let Some(comma) = comma {
        let r = skip_ws_lines(b, comma + 1);
        let re = word_end(b, r);
        if TAGS.contains(&&b[r..re]) || SPECIFIERS.contains(&&b[r..re]) || PRIMITIVES.contains(&&b[r..re]) {
            if top || next != Some(b';') {
                return false;
            }
            fill_keep_lines(&mut out[comma..=close]);
            out[open] = b' ';
            return true;
        }
    }
    match comma {
        None => out[close] = b' ',
        // `M name[ N]`: one expression, the array's size (in a struct's body, or before `=`)
        Some(comma) if next == Some(b'=') || !top => {
            if top_comma(b, comma + 1, close).is_some() {
                return false;
            }
            out[comma] = b'[';
            out[close] = b']';
        }
        // `M name={ a, b};`: an initializer (the functions it names are values)
        Some(comma) => {
            let Some(gap) = (comma + 1..close).find(|&k| !matches!(b[k], b'\n' | b'\r')).filter(|&k| matches!(b[k], b' ' | b'\t')) else {
                return false;
            };
            out[comma] = b'=';
            out[gap] = b'{';
            out[close] = b'}';
        }
    }
    out[open] = b' ';
    true
}

/// Whether `i` is inside parentheses opened in the same statement (`f(a, __x` but not
/// `int a, __x`), read on the code of `out`.
fn in_parens(out: &[u8], code: &[bool], directive: &[bool], i: usize) -> bool {
    let mut depth = 0i32;
    for k in (0..i).rev().filter(|&k| code[k] && !directive[k]) {
        match out[k] {
            b')' => depth += 1,
            b'(' if depth == 0 => return true,
            b'(' => depth -= 1,
            b';' | b'{' | b'}' => return false,
            _ => {}
        }
    }
    false
}

/// `argument_shapes`: the calls that are arguments of a call (their `(` inside a call's
/// parentheses; a paren after a type word or a keyword is no call's).
fn argument_shapes(b: &[u8], out: &mut [u8]) {
    let (code, comment) = code_mask(b);
    let directive = directive_mask(b);
    let live = |k: usize| code[k] && !directive[k];
    // each open `(`: whether it is a call's
    let mut stack: Vec<bool> = Vec::new();
    let mut line_start = true;
    for k in 0..b.len() {
        let c = b[k];
        if c == b'\n' {
            line_start = true;
            continue;
        }
        // (a declaration at a line's start: whatever was left open was no call)
        if line_start && live(k) && (is_word(c) || c == b'}') {
            stack.clear();
        }
        line_start = false;
        if !live(k) {
            continue;
        }
        match c {
            b'(' => {
                let w = b[..k].iter().rposition(|&x| x != b' ' && x != b'\t').filter(|&p| is_word(b[p]));
                let s = w.map(|p| (0..=p).rev().take_while(|&j| is_word(b[j])).last().unwrap_or(p));
                let call = s.is_some_and(|s| {
                    let word = &b[s..=w.unwrap()];
                    !b[s].is_ascii_digit() && ![KEYWORDS, EXPRESSION_WORDS, TAGS, SPECIFIERS, PRIMITIVES].iter().any(|l| l.contains(&word))
                });
                let mut block = false;
                if let (true, None, Some(s)) = (call, stack.last(), s) {
                    if let Some(close) = argument_close(b, &live, k) {
                        block = loop_macro(b, &live, out, s, k, close);
                    }
                }
                if let (true, Some(true), Some(s)) = (call, stack.last().copied(), s) {
                    if let Some(close) = argument_close(b, &live, k) {
                        block = nested_call(b, &live, &comment, out, s, k, close);
                    }
                }
                stack.push(call && !block);
            }
            b')' => {
                stack.pop();
            }
            _ => {}
        }
    }
}

/// A call that starts a statement, holds a `for` loop's head (two `;` at its top level) and
/// runs into a body (`loop_unrolled_for(i = 0; i < n; i++) {`): its name reads `for`. One
/// whose every argument is statements (`LOOP(\n x++;\n ,\n return;\n);`, `DEB(f(x);)`)
/// reads as a block, its commas blanked; whether it did.
fn loop_macro(b: &[u8], live: &impl Fn(usize) -> bool, out: &mut [u8], name: usize, open: usize, close: usize) -> bool {
    let mut depth = 0i32;
    let mut semis = 0;
    // the top-level commas, and whether each argument before one ends in `;`
    let (mut commas, mut statements) = (Vec::new(), true);
    let mut last: Option<u8> = None;
    for k in open + 1..close {
        if live(k) {
            match b[k] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => semis += 1,
                b',' if depth == 0 => {
                    statements &= last == Some(b';');
                    commas.push(k);
                }
                _ => {}
            }
            if !b[k].is_ascii_whitespace() && !(b[k] == b',' && depth == 0) {
                last = Some(b[k]);
            }
        }
    }
    statements &= last == Some(b';') && !b[open + 1..close].contains(&b'{');
    // (after a statement, or a macro line without `;` before it)
    let before = b[..name].iter().rposition(|c| !c.is_ascii_whitespace());
    let starts = before.is_none_or(|k| matches!(b[k], b';' | b'{' | b'}') || b[k] == b')' && b[k..name].contains(&b'\n'));
    let after = skip_ws_lines(b, close + 1);
    if semis == 2 && starts && b.get(after) == Some(&b'{') && open - name >= 3 {
        let e = word_end(b, name);
        out[name..e].fill(b' ');
        out[name..name + 3].copy_from_slice(b"for");
        return false;
    }
    // (in a body: an indented statement)
    let indented = b[..name].iter().rev().take_while(|&&c| c != b'\n').any(|&c| c == b'\t' || c == b' ');
    if statements && starts && indented {
        out[name..open].fill(b' ');
        out[open] = b'{';
        out[close] = b'}';
        for c in commas {
            out[c] = b' ';
        }
        return true;
    }
    false
}

/// The `)` matching the `(` at `open` (statements inside), within 16 KiB and before a brace.
fn argument_close(b: &[u8], live: &impl Fn(usize) -> bool, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for k in open..b.len().min(open + (16 << 10)) {
        if !live(k) {
            continue;
        }
        match b[k] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// One call among a call's arguments, `b[name..=close]` (its `(` at `open`), rewritten by
/// `argument_shapes`; whether it became a block.
fn nested_call(b: &[u8], live: &impl Fn(usize) -> bool, comment: &[bool], out: &mut [u8], name: usize, open: usize, close: usize) -> bool {
    // the top-level `,` and `;` of its arguments
    let (mut commas, mut semis, mut depth) = (Vec::new(), 0, 0i32);
    for k in open + 1..close {
        if !live(k) {
            continue;
        }
        match b[k] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => commas.push(k),
            b';' if depth == 0 => semis += 1,
            _ => {}
        }
    }
    let last = (open + 1..close).rev().find(|&k| live(k) && !b[k].is_ascii_whitespace());
    if semis > 0 && last.is_some_and(|k| b[k] == b';') {
        // statements: a block
        out[name..open].fill(b' ');
        out[open] = b'{';
        out[close] = b'}';
        return true;
    }
    // a parameter declaration: the type before its name goes
    let mut from = open + 1;
    for &to in commas.iter().chain(std::iter::once(&close)) {
        if let Some(name_at) = declaration_argument(b, live, comment, from, to) {
            fill_keep_lines(&mut out[from..name_at]);
        }
        from = to + 1;
    }
    // another call right after it, no comma between
    let n = next_token(b, comment, close + 1);
    let ne = word_end(b, n);
    if ne > n && !b[n].is_ascii_digit() && b.get(skip_ws(b, ne)) == Some(&b'(') && !KEYWORDS.contains(&&b[n..ne]) {
        if let Some(gap) = (close + 1..n).find(|&k| matches!(b[k], b' ' | b'\t') && !comment[k]) {
            out[gap] = b',';
        }
    }
    false
}

/// Where the name of the parameter declaration `b[from..to]` starts (`struct s *p`, `u64
/// delta`, `void *data`: words and `*`s, two words side by side or a type word first, a
/// name last), if it is one.
fn declaration_argument(b: &[u8], live: &impl Fn(usize) -> bool, comment: &[bool], from: usize, to: usize) -> Option<usize> {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut adjacent = false;
    let mut star = false;
    let mut k = from;
    while k < to {
        let c = b[k];
        if c.is_ascii_whitespace() || comment[k] {
            k += 1;
        } else if !live(k) {
            return None;
        } else if c == b'*' {
            star = true;
            k += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let e = word_end(b, k);
            adjacent |= !star && !words.is_empty();
            star = false;
            words.push((k, e));
            k = e;
        } else {
            return None;
        }
    }
    let (&(s0, e0), &(sn, en)) = (words.first()?, words.last()?);
    let first = &b[s0..e0];
    let name = &b[sn..en];
    let typed = TAGS.contains(&first) || SPECIFIERS.contains(&first) || PRIMITIVES.contains(&first);
    let not_name = |w: &[u8]| [KEYWORDS, EXPRESSION_WORDS, TAGS, SPECIFIERS, PRIMITIVES].iter().any(|l| l.contains(&w));
    (words.len() >= 2 && !star && (adjacent || typed) && !not_name(name) && !KEYWORDS.contains(&first) && !EXPRESSION_WORDS.contains(&first)).then_some(sn)
}

/// Past the `[…]` (nested brackets inside) that opens at `k`, or the end of `b`.
fn skip_bounds(b: &[u8], k: usize) -> usize {
    let mut depth = 0i32;
    for (j, &c) in b.iter().enumerate().skip(k) {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// Where the next token after `from` starts (spaces, newlines and comments skipped).
fn next_token(b: &[u8], comment: &[bool], from: usize) -> usize {
    (from..b.len()).find(|&k| !b[k].is_ascii_whitespace() && !comment[k]).unwrap_or(b.len())
}

/// At `n` a type (words, `*`s) then a declarator: `int f`, `struct s *p`, `void (*fp)`.
fn type_then_declarator(b: &[u8], comment: &[bool], n: usize) -> bool {
    let e = word_end(b, n);
    let w = &b[n..e];
    let m = next_token(b, comment, e);
    if matches!(w, b"const" | b"volatile") {
        // (`static __u16 const x[]`: a qualifier then the declarator, no type: the word before
        // was the type)
        return word_end(b, m) > m && type_then_declarator(b, comment, m);
    }
    if TAGS.contains(&w) {
        // `struct s *p`: past the tag's name
        let e2 = word_end(b, m);
        let m2 = next_token(b, comment, e2);
        return e2 > m && b.get(m2).is_some_and(|&c| is_word(c) || matches!(c, b'*' | b'(' | b'{'));
    }
    b.get(m).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b'*' || (c == b'(' && b.get(next_token(b, comment, m + 1)) == Some(&b'*')))
}

/// At `n`, the rest of a cast: words and `*`s, `)`, then an operand.
fn cast_follows(b: &[u8], n: usize) -> bool {
    let mut k = n;
    while k < b.len() && (is_word(b[k]) || matches!(b[k], b' ' | b'\t' | b'*')) {
        k += 1;
    }
    b.get(k) == Some(&b')') && b.get(skip_ws_lines(b, k + 1)).is_some_and(|&c| is_word(c) || matches!(c, b'(' | b'-' | b'~' | b'!' | b'&' | b'*'))
}

/// In the arguments `b[open..end]` of a call, an argument that is `struct s`, `union u *`,
/// `enum e` loses its keyword and `*`s (a name is an expression, a type is not).
fn tagged_arguments(b: &[u8], out: &mut [u8], open: usize, end: usize) {
    let mut start = open + 1;
    let mut depth = 0i32;
    for k in open + 1..end {
        match b[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b',' | b')' if depth == 0 => {
                let arg = &b[start..k];
                let a = start + arg.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(arg.len());
                let kw = word_end(b, a);
                let z = (start + arg.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(0, |p| p + 1)).max(a);
                let words: Vec<&[u8]> = b[a..z].split(|c| matches!(c, b' ' | b'\t' | b'*' | b'\n' | b'\r')).filter(|w| !w.is_empty()).collect();
                if a < z && !words.is_empty() && words.iter().all(|w| PRIMITIVES.contains(w) || matches!(*w, b"const" | b"volatile")) {
                    // `min_t(unsigned int, a, b)`: the type with its comma
                    if b[k] == b',' {
                        fill_keep_lines(&mut out[a..k + 1]);
                    } else if let Some(c) = (open + 1..a).rev().find(|&c| b[c] == b',') {
                        fill_keep_lines(&mut out[c..z]);
                    } else {
                        fill_keep_lines(&mut out[a..z]);
                    }
                } else if TAGS[..3].contains(&&b[a..kw]) && kw < k && matches!(b[kw], b' ' | b'\t') {
                    let name = skip_ws(b, kw);
                    let ne = word_end(b, name);
                    // (`struct s __rcu *`: an attribute among the `*`s goes with them)
                    let rest = b[ne..k].split(|c| matches!(c, b' ' | b'\t' | b'*' | b'\n' | b'\r')).filter(|w| !w.is_empty());
                    if ne > name && rest.into_iter().all(is_reserved_attribute) {
                        out[a..kw].fill(b' ');
                        fill_keep_lines(&mut out[ne..k]);
                    }
                }
                start = k + 1;
            }
            _ => {}
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
            // (`\`: a directive's continuation line)
            return matches!(c, b';' | b'{' | b'}' | b')' | b'\\') || is_word(c);
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

/// After the `)` matching the `(` at `open` (within 4 KiB, strings and comments skipped), if
/// any: a call's arguments hold no `;`, `{` or `}`.
fn close_paren(b: &[u8], open: usize) -> Option<usize> {
    let how = Brackets { quotes: true, comments: true, window: 4096, stop: b";{}", ..Default::default() };
    matching(b, open, &how).map(|k| k + 1)
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

/// A C integer or floating constant (`0x1fUL`, `1.5e-3f`, `077`, `0b101`), not a
/// preprocessing number only a macro can use (`1000baseT_Full`, `1k`).
fn c_number(t: &[u8]) -> bool {
    let (digits, mut k): (fn(u8) -> bool, usize) = match t {
        [b'0', b'x' | b'X', ..] => (|c: u8| c.is_ascii_hexdigit(), 2),
        [b'0', b'b' | b'B', ..] => (|c: u8| c == b'0' || c == b'1', 2),
        _ => (|c: u8| c.is_ascii_digit(), 0),
    };
    let hex = k == 2 && matches!(t[1], b'x' | b'X');
    let start = k;
    while k < t.len() && (digits(t[k]) || t[k] == b'.') {
        k += 1;
    }
    if k == start {
        return false;
    }
    // an exponent: `e` (`p` after hexadecimal digits), a sign, digits
    let exponent = |c: u8| if hex { matches!(c, b'p' | b'P') } else { start == 0 && matches!(c, b'e' | b'E') };
    if k < t.len() && exponent(t[k]) {
        k += 1;
        if matches!(t.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let d = k;
        while k < t.len() && t[k].is_ascii_digit() {
            k += 1;
        }
        if k == d {
            return false;
        }
    }
    let suffix = &t[k..];
    suffix.len() <= 3 && suffix.iter().all(|c| b"uUlLfFzZ".contains(c))
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
            ..Default::default()
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

    #[test]
    fn a_replace_rule_may_rule_out_the_byte_after_it() {
        let p = Preprocess { replace: vec![super::Replace::parse("class = [^=>] -> Class=").unwrap()], ..Default::default() };
        for (c, want) in [
            ("<i class={c} />", "<i Class={c} />"),
            ("<i class = \"a\" />", "<i Class=  \"a\" />"),
            ("x.class == y; f(class => 1)", "x.class == y; f(class => 1)"),
            ("subclass = 1; \"class=\"", "subclass = 1; \"class=\""),
        ] {
            let out = p.apply(c).unwrap_or_else(|| c.to_string());
            assert_eq!(out, want, "{c}");
        }
    }

    #[test]
    fn c_numbers_and_preprocessing_numbers() {
        for n in ["0", "42", "077", "0x1fUL", "0XABCDEFull", "0b101", "1.5e-3f", "1e10", "2.", "0x1p-3", "10u", "3LL"] {
            assert!(super::c_number(n.as_bytes()), "{n} is a C number");
        }
        for n in ["1000baseT_Full", "82801AA_3", "4222PCIE", "1k", "1e", "0x", "0b2", "12abc"] {
            assert!(!super::c_number(n.as_bytes()), "{n} is no C number");
        }
    }
}
