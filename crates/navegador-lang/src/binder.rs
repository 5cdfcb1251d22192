//! The generic binder: reads a pack's locals query — scopes, the names they bind with
//! their declared types, class members, typed expressions, type parameters — and gives
//! each call's receiver its type (`x.m()` where `x: Foo`, `new Foo().m()`, `this.repo.m()`,
//! `self.conn.m()`, `", ".join()` where the literal has its builtin type), the one
//! mechanism for every language. With `drop_local_uses`, a call of, or a value passed
//! from, a local binding (a closure, a parameter; not a module's binding nor a local
//! import) is dropped: it names no symbol.
//!
//! Scopes nest as their nodes do. In an ordered scope (a block, a function) a name is
//! visible after its definition and the nearest one before the site wins; in a hoisted
//! scope (a module, a class body) it is visible everywhere and the first one wins. A
//! class scope also holds members (reached through the implicit receiver, `this.x`) and
//! may name its own type (`@local.self`: the class, the `impl`'s type). The vocabulary is
//! documented in `languages/README.md`.

use std::collections::HashMap;

use navegador_model::{FileFacts, RefKind};
use tree_sitter::{Node, Point};

use crate::manifest::TypeRules;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScopeKind {
    Ordered,
    Hoisted,
    Class,
}

/// What one locals match said, gathered while the extractor runs the query.
#[derive(Default)]
pub(crate) struct Locals<'t> {
    scopes: Vec<(Node<'t>, ScopeKind, Option<String>)>,
    /// (name node, type, binds the name in its scope, is a member of its class)
    defs: Vec<(Node<'t>, Option<String>, bool, bool)>,
    /// Typed expressions by byte range.
    values: HashMap<(usize, usize), Option<String>>,
    type_params: Vec<Node<'t>>,
    /// Names bound by a function-local import (the resolver reads what they denote).
    imports: Vec<Node<'t>>,
}

impl<'t> Locals<'t> {
    pub(crate) fn is_empty(&self) -> bool {
        self.scopes.is_empty()
    }

    pub(crate) fn scope(&mut self, n: Node<'t>, kind: ScopeKind, self_type: Option<String>) {
        self.scopes.push((n, kind, self_type));
    }

    /// Definitions and members of one match, with the match's types: one type for all, or
    /// one per definition in order (`a, b := T{}, U{}`).
    pub(crate) fn definitions(&mut self, defs: &[(Node<'t>, bool, bool)], types: &[Option<String>]) {
        for (i, &(n, binds, member)) in defs.iter().enumerate() {
            let ty = match types.len() {
                1 => types[0].clone(),
                k if k == defs.len() => types[i].clone(),
                _ => None,
            };
            self.defs.push((n, ty, binds, member));
        }
    }

    pub(crate) fn value(&mut self, n: Node<'t>, ty: Option<String>) {
        self.values.entry((n.start_byte(), n.end_byte())).or_insert(ty);
    }

    pub(crate) fn type_parameter(&mut self, n: Node<'t>) {
        self.type_params.push(n);
    }

    pub(crate) fn import(&mut self, n: Node<'t>) {
        self.imports.push(n);
    }
}

/// How the binder reads a pack (from its manifest).
pub(crate) struct BindRules<'a> {
    pub types: &'a TypeRules,
    /// The implicit receiver (`this`): `this.x` is member `x` of the enclosing class.
    pub receiver: Option<&'a str>,
    pub drop_local_uses: bool,
    /// A bare name no scope binds may be a member of the own type of the enclosing scope
    /// (`void T::m() { cache_.get(); }` in C++, defined outside T's body).
    pub implicit_members: bool,
    /// Record each call argument's static type (`RefFact::arg_types`): the language tells
    /// overloads apart by them.
    pub arg_types: bool,
}

/// The type a type node names under the pack's rules: its text for a `names` kind; through
/// an `inner` kind to its child (a field, or the first named child); a `wrappers` generic
/// (`Box<T>`) stands for its first type argument. Trailing generic arguments are cut
/// (`Foo::<T>` -> `Foo`); anything else (a primitive, an array) names no type.
pub(crate) fn read_type(n: Node, rules: &TypeRules, src: &[u8]) -> Option<String> {
    if rules.arrays.iter().any(|k| k == n.kind()) {
        let elem = n.child_by_field_name("element")?;
        let dims = src.get(elem.end_byte()..n.end_byte()).map_or(0, |d| d.iter().filter(|&&c| c == b'[').count());
        return read_type(elem, rules, src).map(|t| format!("{t}{}", "[]".repeat(dims.max(1))));
    }
    let mut t = n;
    // A loop, not recursion: `********T` must not exhaust the stack.
    for _ in 0..256 {
        if rules.names.iter().any(|k| k == t.kind()) {
            let s = cut_trailing_generics(text(t, src));
            return (!s.is_empty()).then(|| s.to_string());
        }
        let (_, field) = rules.inner.iter().find(|(k, _)| k == t.kind())?;
        let child = match field {
            Some(f) => t.child_by_field_name(f)?,
            None => t.named_child(0)?,
        };
        if rules.names.iter().any(|k| k == child.kind()) && rules.wrappers.iter().any(|w| w == text(child, src)) {
            let mut c = t.walk();
            let args = t.named_children(&mut c).find(|a| a.kind() == rules.arguments)?;
            t = args.named_child(0)?;
            continue;
        }
        t = child;
    }
    None
}

/// Marks a type that is an alias: the type of the name path after it (`cs.cc`), read when
/// a receiver is bound to it. No type name starts with it.
const ALIAS: char = '=';

/// A `@local.type` node that is no type but a name or member path of a `paths` kind
/// (`cc := cs.cc`): an alias of the path's type, evaluated when a receiver needs it.
pub(crate) fn read_path(n: Node, rules: &TypeRules, src: &[u8]) -> Option<String> {
    if !rules.paths.iter().any(|k| k == n.kind()) {
        return None;
    }
    let member = rules.member.as_deref().unwrap_or(".");
    let t = text(n, src);
    t.split(member).all(is_ident).then(|| format!("{ALIAS}{}", t.replace(member, ".")))
}

/// The name node a definition capture declares, through the pack's `declarators`.
pub(crate) fn declared_name<'t>(n: Node<'t>, rules: &TypeRules) -> Option<Node<'t>> {
    let mut t = n;
    for _ in 0..256 {
        let Some((_, field)) = rules.declarators.iter().find(|(k, _)| k == t.kind()) else {
            return (t.named_child_count() == 0 || rules.bindings.iter().any(|k| k == t.kind())).then_some(t);
        };
        t = match field {
            Some(f) => t.child_by_field_name(f)?,
            None => t.named_child(0)?,
        };
    }
    None
}

struct Scope {
    start: usize,
    end: usize,
    parent: Option<usize>,
    kind: ScopeKind,
    self_type: Option<String>,
    /// Definitions by name, in source order (indices into `defs`).
    names: HashMap<String, Vec<usize>>,
    members: HashMap<String, usize>,
    type_params: Vec<String>,
}

struct Def {
    at: usize,
    /// The scope it is bound in (where an alias's path is read).
    scope: Option<usize>,
    ty: Option<String>,
    /// Bound by a local import: a use of it names what the import does.
    import: bool,
}

/// A binding found in scope: its type, and whether it is a local that names no symbol of
/// the graph (bound in a function or block, not by an import).
struct Found {
    ty: Option<String>,
    local: bool,
}

/// Scopes sorted by (start, longest first), so that nesting is a sweep and the innermost
/// scope around a range is found by a binary search and a walk up (no `Node::parent`,
/// which costs a descent from the root each time).
struct Tree {
    scopes: Vec<Scope>,
    defs: Vec<Def>,
    /// Typed expressions by byte range.
    values: HashMap<(usize, usize), Option<String>>,
}

impl Tree {
    fn build(locals: Locals, src: &[u8]) -> Tree {
        let mut scopes: Vec<Scope> = Vec::new();
        let mut by_node: HashMap<usize, usize> = HashMap::with_capacity(locals.scopes.len());
        for (n, kind, self_type) in locals.scopes {
            match by_node.get(&n.id()) {
                // Two patterns on one node: the stronger kind and the first self type.
                Some(&i) => {
                    let s: &mut Scope = &mut scopes[i];
                    if kind != ScopeKind::Ordered && s.kind == ScopeKind::Ordered || kind == ScopeKind::Class {
                        s.kind = kind;
                    }
                    if s.self_type.is_none() {
                        s.self_type = self_type;
                    }
                }
                None => {
                    by_node.insert(n.id(), scopes.len());
                    let (start, end) = (n.start_byte(), n.end_byte());
                    scopes.push(Scope { start, end, parent: None, kind, self_type, names: HashMap::new(), members: HashMap::new(), type_params: Vec::new() });
                }
            }
        }
        scopes.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
        let mut stack: Vec<usize> = Vec::new();
        for i in 0..scopes.len() {
            while let Some(&top) = stack.last() {
                if scopes[top].start <= scopes[i].start && scopes[i].end <= scopes[top].end {
                    break;
                }
                stack.pop();
            }
            scopes[i].parent = stack.last().copied();
            stack.push(i);
        }
        let mut t = Tree { scopes, defs: Vec::new(), values: locals.values };
        let mut defs = locals.defs;
        defs.extend(locals.imports.iter().map(|&n| (n, None, true, false)));
        let imported: std::collections::HashSet<usize> = locals.imports.iter().map(|n| n.id()).collect();
        defs.sort_by_key(|(n, ..)| (n.start_byte(), n.id()));
        // One definition per name node: the first type any of its matches gives.
        let mut merged: Vec<(Node, Option<String>, bool, bool)> = Vec::with_capacity(defs.len());
        for d in defs {
            match merged.last_mut() {
                Some(last) if last.0.id() == d.0.id() => {
                    if last.1.is_none() {
                        last.1 = d.1;
                    }
                    last.2 |= d.2;
                    last.3 |= d.3;
                }
                _ => merged.push(d),
            }
        }
        for (n, ty, binds, member) in merged {
            let i = t.defs.len();
            let scope = t.scope_of(n);
            t.defs.push(Def { at: n.start_byte(), scope, ty, import: imported.contains(&n.id()) });
            let name = text(n, src).to_string();
            if binds {
                if let Some(s) = t.scope_of(n) {
                    t.scopes[s].names.entry(name.clone()).or_default().push(i);
                }
            }
            if member {
                if let Some(s) = t.class_of(t.scope_of(n)) {
                    t.scopes[s].members.entry(name).or_insert(i);
                }
            }
        }
        for n in locals.type_params {
            if let Some(s) = t.scope_of(n) {
                t.scopes[s].type_params.push(text(n, src).to_string());
            }
        }
        t
    }

    /// The innermost scope whose range holds `n`'s.
    fn scope_of(&self, n: Node) -> Option<usize> {
        let (s, e) = (n.start_byte(), n.end_byte());
        let mut cur = self.scopes.partition_point(|x| x.start <= s).checked_sub(1);
        while let Some(i) = cur {
            if e <= self.scopes[i].end {
                return Some(i);
            }
            cur = self.scopes[i].parent;
        }
        None
    }

    fn chain(&self, from: Option<usize>) -> impl Iterator<Item = &Scope> + '_ {
        std::iter::successors(from.map(|i| &self.scopes[i]), |s| s.parent.map(|p| &self.scopes[p]))
    }

    fn class_of(&self, from: Option<usize>) -> Option<usize> {
        let mut cur = from;
        while let Some(i) = cur {
            if self.scopes[i].kind == ScopeKind::Class {
                return Some(i);
            }
            cur = self.scopes[i].parent;
        }
        None
    }

    fn self_type(&self, from: Option<usize>) -> Option<String> {
        self.chain(from).find_map(|s| s.self_type.clone())
    }

    /// The binding of `name` visible at byte `at` from scope `from`: `Some(None)` when it is
    /// bound but its type is unknown (it still shadows outer bindings).
    fn lookup(&self, from: Option<usize>, at: usize, name: &str) -> Option<Option<String>> {
        self.find(from, at, name).map(|f| f.ty)
    }

    /// The binding of `name` visible at `at`, and whether it is a local (a binding of a
    /// hoisted scope, a module's, is a symbol of the graph: not local).
    fn find(&self, from: Option<usize>, at: usize, name: &str) -> Option<Found> {
        for s in self.chain(from) {
            let Some(list) = s.names.get(name) else { continue };
            let found = match s.kind {
                ScopeKind::Ordered => list.iter().rev().find(|&&d| self.defs[d].at <= at),
                ScopeKind::Hoisted | ScopeKind::Class => list.first(),
            };
            if let Some(&d) = found {
                let local = s.kind != ScopeKind::Hoisted && !self.defs[d].import;
                return Some(Found { ty: self.def_type(d, 0), local });
            }
        }
        None
    }

    /// A definition's type, an alias read through to the type its path names.
    fn def_type(&self, d: usize, depth: u32) -> Option<String> {
        let def = &self.defs[d];
        match def.ty.as_deref() {
            Some(t) if t.starts_with(ALIAS) => self.path_type(def.scope, def.at, &t[ALIAS.len_utf8()..], depth + 1),
            t => t.map(str::to_string),
        }
    }

    /// The type a member path (`cs.cc.mu`) names at `at`: its first name's type, then each
    /// member's declared type (members of types declared in the file). Aliases are read
    /// to a bounded depth (`a := b; b := a` names none).
    fn path_type(&self, from: Option<usize>, at: usize, path: &str, depth: u32) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let mut parts = path.split('.');
        let first = parts.next()?;
        let mut ty = None;
        for s in self.chain(from) {
            let Some(list) = s.names.get(first) else { continue };
            let found = match s.kind {
                ScopeKind::Ordered => list.iter().rev().find(|&&d| self.defs[d].at < at),
                ScopeKind::Hoisted | ScopeKind::Class => list.first(),
            };
            if let Some(&d) = found {
                ty = self.def_type(d, depth);
                break;
            }
        }
        for field in parts {
            ty = member_type(self, &ty?, field);
        }
        ty
    }

    fn is_type_parameter(&self, from: Option<usize>, ty: &str) -> bool {
        self.chain(from).any(|s| s.type_params.iter().any(|t| t == ty))
    }
}

/// The receiver of a call whose name is `site`: the name's previous named sibling, past
/// comments (`new Foo() // why\n .m()`).
fn receiver_node(site: Node) -> Option<Node> {
    let mut n = site.prev_named_sibling()?;
    while n.is_extra() {
        n = n.prev_named_sibling()?;
    }
    Some(n)
}

/// `Foo<T>` -> `Foo`, `Foo::<T>` -> `Foo`; a generic inside a path stays (`Outer<T>.Inner`).
fn cut_trailing_generics(s: &str) -> &str {
    let mut s = s.trim();
    while s.ends_with('>') {
        let mut depth = 0;
        let mut cut = None;
        for (i, c) in s.char_indices().rev() {
            match c {
                '>' => depth += 1,
                '<' => {
                    depth -= 1;
                    if depth == 0 {
                        cut = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(i) = cut else { break };
        s = s[..i].trim_end();
        s = s.strip_suffix("::").unwrap_or(s);
    }
    s
}


fn text<'a>(n: Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

/// JS private names (`#x`) and `$` are identifier characters too.
fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '#'))
}

/// Gives receivers their types and drops uses of locals, from what the locals query found.
pub(crate) fn bind(root: Node, src: &str, facts: &mut FileFacts, locals: Locals, rules: &BindRules) {
    if locals.is_empty() {
        return;
    }
    let b = src.as_bytes();
    let tree = Tree::build(locals, b);
    let mut drop = vec![false; facts.refs.len()];
    let mut types: Vec<Option<Option<String>>> = vec![None; facts.refs.len()];
    for (ri, r) in facts.refs.iter().enumerate() {
        if !matches!(r.kind, RefKind::Call | RefKind::Reference) {
            continue;
        }
        let p = Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
        let Some(site) = root.descendant_for_point_range(p, p) else { continue };
        let scope = tree.scope_of(site);
        let at = site.start_byte();
        // `p->m()` reads as `p.m()`, `this->x.m()` as `this.x.m()`, where `->` is not the
        // pack's own member operator (PHP's `$this->x` is split at it below)
        let member = rules.types.member.as_deref().unwrap_or(".");
        let arrow = r
            .receiver
            .as_deref()
            .filter(|r| member != "->" && r.contains("->"))
            .map(|r| r.replace("->", "."));
        let Some(recv) = arrow.as_deref().or(r.receiver.as_deref()) else {
            if rules.drop_local_uses && tree.find(scope, at, &r.name).is_some_and(|f| f.local) {
                drop[ri] = true;
            }
            continue;
        };
        let resolve_self = |t: Option<String>| match (t, rules.types.self_name.as_deref()) {
            (Some(t), Some(s)) if t == s => tree.self_type(scope),
            (t, _) => t,
        };
        let ty = if rules.types.self_name.as_deref() == Some(recv) {
            tree.self_type(scope)
        } else if is_ident(recv) {
            match tree.lookup(scope, at, recv) {
                Some(t) => {
                    let t = resolve_self(t);
                    // `x.f` passed as a value, `x` a local of unknown type: most likely a field.
                    drop[ri] = rules.drop_local_uses && r.kind == RefKind::Reference && t.is_none();
                    t
                }
                None if rules.implicit_members => tree.self_type(scope).and_then(|o| member_type(&tree, &o, recv)),
                None => None,
            }
        } else if let Some(t) = receiver_node(site).and_then(|o| tree.values.get(&(o.start_byte(), o.end_byte()))) {
            // `new Foo().m()`
            t.clone()
        } else if let Some((base, field)) =
            recv.split_once(member).filter(|(b, f)| is_ident(b) && is_ident(f))
        {
            if rules.receiver == Some(base) && tree.lookup(scope, at, base).is_none() {
                // `this.x.m()`: the member of the enclosing class
                // (a method defined outside its class's body: the members of its own type)
                match tree.class_of(scope).and_then(|c| tree.scopes[c].members.get(field)) {
                    Some(&d) => tree.defs[d].ty.clone(),
                    None => tree.self_type(scope).and_then(|o| member_type(&tree, &o, field)),
                }
            } else {
                let owner = tree.lookup(scope, at, base).and_then(resolve_self);
                owner.and_then(|o| member_type(&tree, &o, field))
            }
        } else if recv.split(member).all(is_ident) {
            // `cs.cc.mu.Lock()`: member after member
            tree.path_type(scope, at, &recv.replace(member, "."), 0)
        } else {
            None
        };
        // (an array's members are the language's, not its element type's)
        let ty = ty.filter(|t| !tree.is_type_parameter(scope, t) && !t.ends_with("[]"));
        types[ri] = Some(ty);
    }
    for (r, t) in facts.refs.iter_mut().zip(types) {
        if let Some(t) = t {
            r.receiver_type = t;
        }
    }
    if rules.arg_types {
        for r in facts.refs.iter_mut().filter(|r| r.kind == RefKind::Call && r.arity.is_some_and(|n| n > 0)) {
            let p = Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
            let Some(site) = root.descendant_for_point_range(p, p) else { continue };
            r.arg_types = argument_types(&tree, site, rules, b);
        }
    }
    let mut i = 0;
    facts.refs.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

/// The static types of a call's arguments, `,`-separated, an unknown one empty; `None`
/// when none is known. `site` is the call's name; the call is the nearest node above it
/// with an `arguments` field.
fn argument_types(tree: &Tree, site: Node, rules: &BindRules, src: &[u8]) -> Option<String> {
    let mut call = site;
    let args = loop {
        if let Some(a) = call.child_by_field_name("arguments") {
            break a;
        }
        call = call.parent()?;
        if call.end_byte() - call.start_byte() > 1 << 20 {
            return None;
        }
    };
    let scope = tree.scope_of(site);
    let at = site.start_byte();
    let mut c = args.walk();
    let types: Vec<Option<String>> =
        args.named_children(&mut c).filter(|a| !a.is_extra()).map(|a| expression_type(tree, scope, at, a, rules, src)).collect();
    if types.iter().all(Option::is_none) {
        return None;
    }
    Some(types.iter().map(|t| t.as_deref().unwrap_or("")).collect::<Vec<_>>().join(","))
}

/// The static type of an expression where the binder knows it: a typed value of the locals
/// query (a literal, `new T()`, a cast), a name bound with a declared type, the implicit
/// receiver (`this`), a member path (`this.size`, `a.b`). A type parameter is unknown.
fn expression_type(tree: &Tree, scope: Option<usize>, at: usize, e: Node, rules: &BindRules, src: &[u8]) -> Option<String> {
    if let Some(t) = tree.values.get(&(e.start_byte(), e.end_byte())) {
        return t.clone().filter(|t| !tree.is_type_parameter(scope, t.trim_end_matches("[]")));
    }
    let t = text(e, src);
    let member = rules.types.member.as_deref().unwrap_or(".");
    let self_of = |t: Option<String>| match (t, rules.types.self_name.as_deref()) {
        (Some(t), Some(s)) if t == s => tree.self_type(scope),
        (t, _) => t,
    };
    let ty = if rules.receiver == Some(t) && tree.lookup(scope, at, t).is_none() {
        tree.self_type(scope)
    } else if is_ident(t) {
        tree.lookup(scope, at, t).and_then(self_of)
    } else if let Some(field) = rules.receiver.and_then(|r| t.strip_prefix(r)).and_then(|f| f.strip_prefix(member)).filter(|f| is_ident(f)) {
        match tree.class_of(scope).and_then(|c| tree.scopes[c].members.get(field)) {
            Some(&d) => tree.defs[d].ty.clone(),
            None => tree.self_type(scope).and_then(|o| member_type(tree, &o, field)),
        }
    } else if t.split(member).all(is_ident) {
        tree.path_type(scope, at, &t.replace(member, "."), 0)
    } else {
        None
    };
    ty.filter(|t| !t.starts_with(ALIAS) && !tree.is_type_parameter(scope, t.trim_end_matches("[]")))
}

/// The declared type of member `field` of class `owner` declared in this file: a member
/// the locals query found in a class scope whose own type is `owner` (its last segment).
fn member_type(tree: &Tree, owner: &str, field: &str) -> Option<String> {
    let short = owner.rsplit(['.', ':']).next().unwrap_or(owner);
    let scoped = tree.scopes.iter().filter(|s| s.kind == ScopeKind::Class && s.self_type.as_deref() == Some(short));
    for s in scoped {
        if let Some(&d) = s.members.get(field) {
            return tree.defs[d].ty.clone();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn trailing_generics() {
        let cases = [
            ("Foo", "Foo"),
            ("Foo<T>", "Foo"),
            ("Foo::<T>", "Foo"),
            ("a::Foo::<Vec<u8>>", "a::Foo"),
            ("Outer<T>.Inner", "Outer<T>.Inner"),
            ("Map<K, List<V>>", "Map"),
            ("Broken>", "Broken>"),
        ];
        for (s, want) in cases {
            assert_eq!(super::cut_trailing_generics(s), want, "{s}");
        }
    }
}
