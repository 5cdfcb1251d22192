//! Perl: a package is a class-like of kind `package`. `package A::B { … }` is its block;
//! `package A::B;` runs to the next package statement of the same block or file (or its
//! end), and the subs written there are its methods (`A::B::f`, `new` the constructor), as
//! are the sites of its top-level code; subs before any package are functions (`main`).
//! A base (`use parent`/`use base` word lists, `@ISA = (…)`, `push @ISA, …`) is named by
//! the package's whole name (`Shop::Base`, the key `package Shop::Base;` defines), one a
//! word; `$x->SUPER::m()` is `m` of the bases (receiver `super`), `$x->A::B::m()` is `m`
//! looked up from package `A::B`. `use A::B qw(f g)` imports `f` and `g` from module `A::B`
//! (one import a name; sigils and `-options` name no sub, a `:tag` is a group), `use A::B;`
//! the group `:DEFAULT`, and `our @EXPORT = qw(f)` marks the sub `f` a default export;
//! `use lib 'dir'` is an import of `lib` naming the directory; `require "x.pl"` sees the
//! file's `main` subs (a wildcard import).

use navegador_model::{FileFacts, ImportFact, Label, RefFact, RefKind, Span, SymbolIdx};
use tree_sitter::Node;

use crate::extract::span;
use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: perl_post,
    prepare: no_prepare,
};

fn perl_post(root: Node, src: &str, facts: &mut FileFacts) {
    // each statement-form package: its extent, to the next package of its block
    let mut packages: Vec<(usize, Span)> = Vec::new();
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        if sym.label != Label::Class {
            continue;
        }
        let Some(stmt) = def_node(root, sym).filter(|d| d.kind() == "package_statement") else { continue };
        facts.symbols[i].kind = Some("package");
        if stmt.child_by_field_name("name").is_some() && named_children(stmt).iter().any(|c| c.kind() == "block") {
            continue;
        }
        let mut last = stmt;
        let mut next = stmt.next_named_sibling();
        while let Some(n) = next {
            if n.kind() == "package_statement" {
                break;
            }
            last = n;
            next = n.next_named_sibling();
        }
        let end = span(last);
        let range = &mut facts.symbols[i].range;
        range.end_byte = end.end_byte;
        range.end_line = end.end_line;
        range.end_col = end.end_col;
        packages.push((i, *range));
    }
    // the subs and top-level sites a statement-form package covers
    for &(p, range) in &packages {
        let owner = facts.symbols[p].qualified_name.clone();
        for i in p + 1..facts.symbols.len() {
            let s = &facts.symbols[i];
            if s.parent.is_some() || !range.contains(&s.range) {
                continue;
            }
            let s = &mut facts.symbols[i];
            s.parent = Some(p as SymbolIdx);
            s.qualified_name = format!("{owner}::{}", s.name);
            if s.label == Label::Function {
                s.label = Label::Method;
                s.kind = Some(if s.name == "new" { "constructor" } else { "method" });
                s.class_name = Some(owner.clone());
            }
            // what is below it follows its new name
            let old = format!("{}::", s.name);
            let new = format!("{}::", s.qualified_name);
            for t in &mut facts.symbols[i + 1..] {
                if t.qualified_name.starts_with(&old) {
                    t.qualified_name = format!("{new}{}", &t.qualified_name[old.len()..]);
                }
            }
        }
        for r in &mut facts.refs {
            if r.from.is_none() && range.start_byte <= ref_byte(root, r) && ref_byte(root, r) < range.end_byte {
                r.from = Some(p as SymbolIdx);
            }
        }
    }
    // the statements the rules below read, found in one walk of the tree
    let mut stmts: Vec<Node> = Vec::new();
    walk(root, &mut |n| {
        if matches!(n.kind(), "use_statement" | "assignment_expression" | "function_call_expression" | "ambiguous_function_call_expression") {
            stmts.push(n);
        }
    });
    bases(&stmts, src.as_bytes(), facts);
    exports(&stmts, src.as_bytes(), facts);
    imports(&stmts, src.as_bytes(), facts);
    lib_dirs(&stmts, src.as_bytes(), facts);
    let b = src.as_bytes();
    for r in &mut facts.refs {
        // `$self->SUPER::new(…)`: the bases' `new`; `$self->A::B::m(…)`: `m` from package
        // `A::B` (the method's own path, which the invocant's capture hid)
        if r.kind == RefKind::Call && r.receiver.is_some() {
            let at = ref_byte(root, r) as usize;
            let written = root.descendant_for_byte_range(at, at).and_then(|n| {
                std::iter::successors(Some(n), |n| n.parent()).take(3).find(|n| n.kind() == "method")
            });
            if let Some(path) = written.map(|m| text(m, b)).and_then(|t| t.rsplit_once("::")).map(|(p, _)| p) {
                r.receiver = Some(if path == "SUPER" { "super".to_string() } else { path.to_string() });
            }
        }
        // a sigil left on a name (`&f` without parentheses read as a value)
        if let Some(n) = r.name.strip_prefix('&') {
            r.name = n.to_string();
        }
    }
}

/// `use A::B qw(f &g $v :tag);`, `use A::B ('f');`, `use A::B 'f', 'g';`: one import of
/// module `A::B` a sub or a group (`:tag`) it names (`f`, `g`, `:tag`); `use A::B;` without
/// a list is `use A::B qw(:DEFAULT)`, the subs its `@EXPORT` lists (Exporter's meaning); a
/// list naming neither (`()`, `qw($x)`, an expression) keeps the query's import of the
/// module, which brings in nothing. `require "x.pl";` imports every sub of the file's
/// `main` (`*`).
fn imports(stmts: &[Node], b: &[u8], facts: &mut FileFacts) {
    let mut named: Vec<(u32, u32, Vec<String>)> = Vec::new();
    for &n in stmts {
        if n.kind() != "use_statement" {
            continue;
        }
        let module = n.child_by_field_name("module");
        let mut names = Vec::new();
        let mut listed = false;
        for c in named_children(n) {
            if Some(c) == module || Some(c) == n.child_by_field_name("version") || c.kind() == "comment" {
                continue;
            }
            listed = true;
            walk(c, &mut |s| {
                if s.kind() == "string_content" {
                    for w in text(s, b).split_whitespace() {
                        // `&f` is the sub `f`, `:tag` a group; `$x` `@x` `%x` `*x` variables,
                        // `-opt` an option, `!x` and `/re/` exclusions and patterns
                        let w = w.strip_prefix('&').unwrap_or(w);
                        let word = w.strip_prefix(':').unwrap_or(w);
                        if word.starts_with(|c: char| c.is_alphabetic() || c == '_') && word.chars().all(|c| c.is_alphanumeric() || c == '_') {
                            names.push(w.to_string());
                        }
                    }
                }
            });
        }
        if !listed {
            names.push(":DEFAULT".to_string());
        }
        if !names.is_empty() {
            let p = n.start_position();
            named.push((p.row as u32 + 1, p.column as u32, names));
        }
    }
    let mut out: Vec<ImportFact> = Vec::with_capacity(facts.imports.len());
    for imp in std::mem::take(&mut facts.imports) {
        match named.iter().find(|(l, c, _)| *l == imp.line && *c == imp.column) {
            Some((_, _, names)) => out.extend(names.iter().map(|n| ImportFact { name: Some(n.clone()), ..imp.clone() })),
            // a file named by a path: its `main` subs
            None if imp.name.is_none() && (imp.module.contains('/') || imp.module.ends_with(".pl")) => {
                out.push(ImportFact { name: Some("*".to_string()), ..imp })
            }
            None => out.push(imp),
        }
    }
    facts.imports = out;
}

/// `our @EXPORT = qw(f g);`, `@EXPORT = ('f');`, `push @EXPORT, 'h';` (`@A::B::EXPORT`
/// too): the subs the statement's package exports by default, what `use A::B;` imports,
/// marked `is_default_export` (a sub of that package this file defines; sigils other
/// than `&` name variables). `@EXPORT_OK` is imported only by name and needs no mark.
fn exports(stmts: &[Node], b: &[u8], facts: &mut FileFacts) {
    let found = array_lists(stmts, b, "EXPORT");
    for (at, pkg, s) in found {
        let owner = owner_of(facts, at, pkg);
        for w in text(s, b).split_whitespace() {
            let w = w.strip_prefix('&').unwrap_or(w);
            for sym in facts.symbols.iter_mut() {
                if sym.name == w && sym.parent == owner.map(|o| o as SymbolIdx) && matches!(sym.label, Label::Function | Label::Method) {
                    sym.is_default_export = true;
                }
            }
        }
    }
}

/// `use lib 'dir';`, `use lib qw(a b);`, `use lib "$FindBin::Bin/../lib";` (`$FindBin::RealBin`,
/// and `$Bin`/`$RealBin` where `use FindBin qw($Bin)` imports them): one import of module
/// `lib` a directory, named as written, the script's directory as `$FindBin::Bin`
/// (resolve/perl.rs makes them roots of the file's later imports). An entry of any other
/// shape (an interpolated variable, an expression) is left out, never guessed.
fn lib_dirs(stmts: &[Node], b: &[u8], facts: &mut FileFacts) {
    const FINDBIN: &str = "$FindBin::Bin";
    let uses: Vec<Node> = stmts.iter().copied().filter(|n| n.kind() == "use_statement").collect();
    let module = |n: Node| n.child_by_field_name("module").map(|m| text(m, b));
    // `$Bin`, `$RealBin` are FindBin's only where it exports them to this file
    let mut bin_names: Vec<String> = Vec::new();
    for &u in uses.iter().filter(|&&u| module(u) == Some("FindBin")) {
        walk(u, &mut |s| {
            if s.kind() == "string_content" {
                bin_names.extend(text(s, b).split_whitespace().filter(|w| matches!(*w, "$Bin" | "$RealBin")).map(str::to_string));
            }
        });
    }
    for u in uses.into_iter().filter(|&u| module(u) == Some("lib")) {
        let mut dirs: Vec<String> = Vec::new();
        let mut strings: Vec<Node> = Vec::new();
        for c in named_children(u) {
            if Some(c) == u.child_by_field_name("module") {
                continue;
            }
            if c.kind() == "list_expression" {
                strings.extend(named_children(c));
            } else {
                strings.push(c);
            }
        }
        for s in strings {
            // the text between the quotes (`'…'`, `"…"`, `q{…}`, `qw(…)`: the tokens around
            // the first and last named child)
            let inner = || -> Option<&str> {
                let kids: Vec<Node> = (0..s.child_count()).filter_map(|i| s.child(i)).collect();
                let first = kids.iter().position(|k| k.is_named())?;
                let last = kids.iter().rposition(|k| k.is_named())?;
                let start = if first == 0 { s.start_byte() } else { kids[first - 1].end_byte() };
                let end = kids.get(last + 1).map_or(s.end_byte(), |k| k.start_byte());
                std::str::from_utf8(b.get(start..end)?).ok()
            };
            match s.kind() {
                "quoted_word_list" => dirs.extend(inner().into_iter().flat_map(str::split_whitespace).map(str::to_string)),
                "string_literal" => dirs.extend(inner().map(str::to_string)),
                "interpolated_string_literal" => {
                    let Some(t) = inner() else { continue };
                    let bin = ["$FindBin::Bin", "${FindBin::Bin}", "$FindBin::RealBin", "${FindBin::RealBin}"]
                        .into_iter()
                        .map(str::to_string)
                        .chain(bin_names.iter().cloned())
                        .find(|p| t.starts_with(p.as_str()) && !t[p.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':'));
                    let (head, rest) = match &bin {
                        Some(p) => (FINDBIN, &t[p.len()..]),
                        None => ("", t),
                    };
                    // anything else interpolated is a value we do not know
                    if rest.contains(['$', '@', '\\']) {
                        continue;
                    }
                    dirs.push(format!("{head}{rest}"));
                }
                _ => {}
            }
        }
        let p = u.start_position();
        for d in dirs.into_iter().filter(|d| !d.is_empty()) {
            facts.imports.push(ImportFact { module: "lib".to_string(), name: Some(d), alias: None, line: p.row as u32 + 1, column: p.column as u32 });
        }
    }
}

/// The strings of the lists a statement puts in a package array `@NAME` (`@ISA`,
/// `@EXPORT`): `@NAME = (…)`, `our @NAME = qw(…)`, `push`/`unshift @NAME, …`, and
/// `@A::B::NAME`, which names its package: (the statement's offset, that package, a string).
fn array_lists<'t>(stmts: &[Node<'t>], b: &'t [u8], name: &str) -> Vec<(u32, Option<&'t str>, Node<'t>)> {
    let qualified = format!("::{name}");
    let array = |a: Node<'t>| -> Option<Option<&'t str>> {
        let t = text(a, b);
        (a.kind() == "array" && (t.strip_prefix('@') == Some(name) || t.ends_with(&qualified))).then(|| t.strip_prefix('@')?.strip_suffix(qualified.as_str()))
    };
    let mut found = Vec::new();
    for &n in stmts {
        let list = match n.kind() {
            "assignment_expression" => n
                .child_by_field_name("left")
                .and_then(|l| if l.kind() == "variable_declaration" { l.child_by_field_name("variable") } else { Some(l) })
                .and_then(array)
                .and_then(|pkg| Some((pkg, n.child_by_field_name("right")?))),
            // `push @ISA, 'A'`, `push(@ISA, 'A')`
            "function_call_expression" | "ambiguous_function_call_expression"
                if matches!(n.child_by_field_name("function").map(|f| text(f, b)), Some("push" | "unshift")) =>
            {
                let args = n.child_by_field_name("arguments");
                let first = args.and_then(|a| if a.kind() == "list_expression" { a.named_child(0) } else { Some(a) });
                first.and_then(array).and_then(|pkg| Some((pkg, args?)))
            }
            _ => None,
        };
        let Some((pkg, list)) = list else { continue };
        walk(list, &mut |s| {
            if s.kind() == "string_content" {
                found.push((n.start_byte() as u32, pkg, s));
            }
        });
    }
    found
}

/// The package a statement at byte `at` speaks for: the one `@A::B::X` names (`pkg`), else
/// the innermost package whose extent holds it; `None` is `main`.
fn owner_of(facts: &FileFacts, at: u32, pkg: Option<&str>) -> Option<usize> {
    match pkg {
        Some(q) => facts.symbols.iter().position(|p| p.kind == Some("package") && p.qualified_name == q),
        None => facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == Some("package") && p.range.start_byte <= at && at < p.range.end_byte)
            .max_by_key(|(_, p)| p.range.start_byte)
            .map(|(i, _)| i),
    }
}

/// A site's byte offset, from its line and column.
fn ref_byte(root: Node, r: &RefFact) -> u32 {
    let p = tree_sitter::Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
    root.descendant_for_point_range(p, p).map_or(0, |n| n.start_byte() as u32)
}

/// `use parent -norequire, 'A::B';`, `use base qw(A B);`, `our @ISA = ('A', 'B');`,
/// `push @ISA, 'A'` (`unshift` too): the bases of the package the statement is in (its
/// innermost by extent; `@A::B::ISA` names it), one a word, each by its whole name.
fn bases(stmts: &[Node], b: &[u8], facts: &mut FileFacts) {
    let mut found = array_lists(stmts, b, "ISA");
    for &n in stmts {
        if n.kind() == "use_statement" && matches!(n.child_by_field_name("module").map(|m| text(m, b)), Some("parent" | "base")) {
            walk(n, &mut |s| {
                if s.kind() == "string_content" {
                    found.push((n.start_byte() as u32, None, s));
                }
            });
        }
    }
    // in the order they are written: a package's bases are its method resolution order
    found.sort_by_key(|f| f.0);
    for (at, pkg, s) in found {
        let Some(owner) = owner_of(facts, at, pkg).map(|i| i as SymbolIdx) else { continue };
        let text = text(s, b);
        let mut off = 0;
        for w in text.split_whitespace() {
            let col = text[off..].find(w).map_or(off, |i| off + i);
            off = col + w.len();
            // `-norequire` is an option of `parent`, no base
            if !w.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == ':') {
                continue;
            }
            // a package's key is its whole name (`Shop::Base`), never a member `Base` of
            // a package `Shop`
            let (receiver, name) = (None, w.to_string());
            // a word list may span lines
            let p = s.start_position();
            let before = &text[..col];
            let (line, column) = match before.rfind('\n') {
                Some(nl) => (p.row + 1 + before.matches('\n').count(), col - nl - 1),
                None => (p.row + 1, p.column + col),
            };
            facts.refs.push(RefFact {
                kind: RefKind::Inherits,
                from: Some(owner),
                name,
                receiver,
                receiver_type: None,
                arity: None,
                arg_types: None,
                line: line as u32,
                column: column as u32,
            });
        }
    }
}
