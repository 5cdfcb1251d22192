//! Notifications for names the graph does not have: a label, relationship type or
//! property key a query reads that no node or relationship carries, with the closest
//! existing names (as Neo4j's `UnknownLabelWarning` and friends). The query still runs;
//! 0 rows is a valid answer, but no longer a silent one. Names the query itself writes
//! (`CREATE`, `MERGE`, `SET`) are not warned about.

use std::collections::{BTreeMap, BTreeSet};

use navegador_graph::Schema;

use crate::ast::*;
use crate::error::Position;

/// One notification about a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// `UnknownLabelWarning`, `UnknownRelationshipTypeWarning` or `UnknownPropertyKeyWarning`.
    pub code: &'static str,
    /// What is missing and, when there is one, what was probably meant.
    pub message: String,
    /// The closest existing names, best first (at most three).
    pub suggestions: Vec<String>,
    /// Where in the query (the pattern that names it), when known.
    pub position: Option<Position>,
}

/// What a variable is bound to, as far as the patterns say.
#[derive(Clone, Debug)]
enum Bound {
    Node(BTreeSet<String>),
    Rel(BTreeSet<String>),
}

struct Walk<'a> {
    text: &'a str,
    schema: &'a Schema,
    /// Labels, types and keys the query writes.
    written: BTreeSet<String>,
    vars: BTreeMap<String, Bound>,
    out: Vec<Warning>,
    seen: BTreeSet<(&'static str, String)>,
}

/// The warnings for `q` (its text `text`) against the graph's `schema`.
pub fn check(text: &str, q: &Query, schema: &Schema) -> Vec<Warning> {
    let mut w = Walk { text, schema, written: BTreeSet::new(), vars: BTreeMap::new(), out: vec![], seen: BTreeSet::new() };
    for p in &q.parts {
        for c in &p.clauses {
            w.collect_written(c);
        }
    }
    for p in &q.parts {
        w.vars.clear();
        w.clauses(&p.clauses);
    }
    // in query order (those without a position, from expressions, after)
    w.out.sort_by_key(|x| x.position.as_ref().map_or(usize::MAX, |p| p.offset));
    w.out
}

impl Walk<'_> {
    fn collect_written(&mut self, c: &Clause) {
        let pattern = |w: &mut BTreeSet<String>, parts: &[PatternPart]| {
            for part in parts {
                for n in part.nodes() {
                    w.extend(n.labels.iter().flatten().cloned());
                    if let Some(Expr::Map(m)) = &n.props {
                        w.extend(m.iter().map(|(k, _)| k.clone()));
                    }
                }
                for (r, _) in &part.chain {
                    w.extend(r.types.iter().cloned());
                    if let Some(Expr::Map(m)) = &r.props {
                        w.extend(m.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
        };
        match c {
            Clause::Create { pattern: p, .. } => pattern(&mut self.written, p),
            Clause::Merge { part, .. } => pattern(&mut self.written, std::slice::from_ref(part)),
            Clause::Set { items, .. } => self.set_items(items),
            Clause::Foreach { body, .. } => body.iter().for_each(|c| self.collect_written(c)),
            _ => {}
        }
        if let Clause::Merge { on_create, on_match, .. } = c {
            self.set_items(on_create);
            self.set_items(on_match);
        }
    }

    fn set_items(&mut self, items: &[SetItem]) {
        for it in items {
            match it {
                SetItem::Prop { key, .. } => {
                    self.written.insert(key.clone());
                }
                SetItem::Labels { labels, .. } => self.written.extend(labels.iter().cloned()),
                // `SET n = {..}` / `SET n += {..}` may write any key
                SetItem::Replace { value, .. } | SetItem::Merge { value, .. } => {
                    if let Expr::Map(m) = value {
                        self.written.extend(m.iter().map(|(k, _)| k.clone()));
                    } else {
                        self.written.insert("*".into());
                    }
                }
            }
        }
    }

    fn clauses(&mut self, cs: &[Clause]) {
        for c in cs {
            match c {
                Clause::Match { pattern, where_, .. } => {
                    self.patterns(pattern);
                    if let Some(e) = where_ {
                        self.expr(e);
                    }
                }
                Clause::With(p) | Clause::Return(p) => {
                    for it in &p.items {
                        self.expr(&it.expr);
                    }
                    for (e, _) in &p.order {
                        self.expr(e);
                    }
                    if let Some(e) = &p.where_ {
                        self.expr(e);
                    }
                    if matches!(c, Clause::With(_)) && !p.star {
                        // what survives a WITH: variables passed on under a name
                        let mut next = BTreeMap::new();
                        for it in &p.items {
                            if let Expr::Var(v) = &it.expr {
                                if let Some(b) = self.vars.get(v) {
                                    next.insert(it.name().to_string(), b.clone());
                                }
                            }
                        }
                        self.vars = next;
                    }
                }
                Clause::Unwind { expr, .. } => self.expr(expr),
                Clause::Merge { part, .. } => self.bind_only(std::slice::from_ref(part)),
                Clause::Create { pattern, .. } => self.bind_only(pattern),
                Clause::Delete { exprs, .. } => exprs.iter().for_each(|e| self.expr(e)),
                _ => {}
            }
        }
    }

    /// Records what a written pattern binds, without warning about it.
    fn bind_only(&mut self, pattern: &[PatternPart]) {
        for part in pattern {
            for n in part.nodes() {
                if let Some(v) = &n.var {
                    self.vars.insert(v.clone(), Bound::Node(BTreeSet::new()));
                }
            }
        }
    }

    fn patterns(&mut self, pattern: &[PatternPart]) {
        for part in pattern {
            self.part(part);
        }
    }

    fn part(&mut self, part: &PatternPart) {
        for n in part.nodes() {
            let mut known = BTreeSet::new();
            for l in n.labels.iter().flatten() {
                if self.label_exists(l) {
                    known.insert(l.clone());
                } else {
                    self.unknown_label(l, Some(n.span.0));
                }
            }
            // a variable bound earlier keeps what it was bound with
            if let Some(v) = &n.var {
                let b = match self.vars.remove(v) {
                    Some(Bound::Node(mut ls)) => {
                        ls.extend(known);
                        Bound::Node(ls)
                    }
                    _ => Bound::Node(known),
                };
                self.vars.insert(v.clone(), b.clone());
                if let Some(Expr::Map(m)) = &n.props {
                    for (k, e) in m {
                        self.key(&b, k, Some(n.span.0));
                        self.expr(e);
                    }
                }
            } else if let Some(Expr::Map(m)) = &n.props {
                for (k, e) in m {
                    self.key(&Bound::Node(known.clone()), k, Some(n.span.0));
                    self.expr(e);
                }
            }
        }
        for (r, _) in &part.chain {
            let mut known = BTreeSet::new();
            for t in &r.types {
                if self.type_exists(t) {
                    known.insert(t.clone());
                } else {
                    self.unknown_type(t, Some(r.span.0));
                }
            }
            // a variable-length relationship binds a list; keys are not checked on it
            let b = Bound::Rel(known);
            if let Some(v) = r.var.as_ref().filter(|_| r.range.is_none()) {
                self.vars.insert(v.clone(), b.clone());
            }
            if let Some(Expr::Map(m)) = &r.props {
                for (k, e) in m {
                    self.key(&b, k, Some(r.span.0));
                    self.expr(e);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Prop(inner, key) => {
                if let Expr::Var(v) = &**inner {
                    if let Some(b) = self.vars.get(v).cloned() {
                        self.key(&b, key, None);
                    }
                }
                self.expr(inner);
            }
            Expr::HasLabels(inner, labels) => {
                for l in labels.iter().flatten() {
                    if !self.label_exists(l) {
                        self.unknown_label(l, None);
                    }
                }
                self.expr(inner);
            }
            Expr::List(xs) => xs.iter().for_each(|x| self.expr(x)),
            Expr::Map(m) => m.iter().for_each(|(_, x)| self.expr(x)),
            Expr::Unary(_, x) | Expr::IsNull(x, _) => self.expr(x),
            Expr::Binary(_, a, b) | Expr::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Expr::Compare(a, rest) => {
                self.expr(a);
                rest.iter().for_each(|(_, x)| self.expr(x));
            }
            Expr::Slice(a, b, c) => {
                self.expr(a);
                b.iter().chain(c.iter()).for_each(|x| self.expr(x));
            }
            Expr::Func { args, .. } => args.iter().for_each(|x| self.expr(x)),
            Expr::Case { subject, whens, else_ } => {
                subject.iter().chain(else_.iter()).for_each(|x| self.expr(x));
                for (a, b) in whens {
                    self.expr(a);
                    self.expr(b);
                }
            }
            Expr::ListComp { list, pred, proj, .. } => {
                self.expr(list);
                pred.iter().chain(proj.iter()).for_each(|x| self.expr(x));
            }
            Expr::Quantifier { list, pred, .. } => {
                self.expr(list);
                self.expr(pred);
            }
            Expr::Reduce { init, list, expr, .. } => {
                self.expr(init);
                self.expr(list);
                self.expr(expr);
            }
            Expr::PatternComp { part, pred, proj } => {
                self.scoped(|w| {
                    w.part(part);
                    pred.iter().for_each(|x| w.expr(x));
                    w.expr(proj);
                });
            }
            Expr::PatternPred(part) => self.scoped(|w| w.part(part)),
            Expr::Exists { pattern, where_ } => self.scoped(|w| {
                w.patterns(pattern);
                where_.iter().for_each(|x| w.expr(x));
            }),
            Expr::ExistsQuery(q) | Expr::CountQuery(q) => self.scoped(|w| w.clauses(&q.clauses)),
            _ => {}
        }
    }

    /// Runs `f` with the current bindings restored afterwards (a subquery's own variables
    /// do not leak out).
    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.vars.clone();
        f(self);
        self.vars = saved;
    }

    fn label_exists(&self, l: &str) -> bool {
        self.written.contains(l) || self.schema.labels.binary_search_by(|x| x.as_str().cmp(l)).is_ok()
    }

    fn type_exists(&self, t: &str) -> bool {
        self.written.contains(t) || self.schema.rel_types.binary_search_by(|x| x.as_str().cmp(t)).is_ok()
    }

    fn unknown_label(&mut self, l: &str, at: Option<usize>) {
        let s = closest(l, &self.schema.labels);
        let hint = did_you_mean(&s, ":");
        self.push("UnknownLabelWarning", l, format!("no node in the graph has the label :{l}{hint}"), s, at);
    }

    fn unknown_type(&mut self, t: &str, at: Option<usize>) {
        let s = closest(t, &self.schema.rel_types);
        let hint = did_you_mean(&s, ":");
        self.push("UnknownRelationshipTypeWarning", t, format!("no relationship in the graph has the type :{t}{hint}"), s, at);
    }

    /// Warns when no node of `b`'s labels (no relationship of its types) has property `key`.
    fn key(&mut self, b: &Bound, key: &str, at: Option<usize>) {
        if self.written.contains(key) || self.written.contains("*") {
            return;
        }
        let (names, per, all, what) = match b {
            Bound::Node(ls) => (ls, &self.schema.label_property_keys, &self.schema.node_property_keys, "node"),
            Bound::Rel(ts) => (ts, &self.schema.type_property_keys, &self.schema.edge_property_keys, "relationship"),
        };
        // keys of the named labels (any of them may carry it), else of every node
        let keys: Vec<String> = if names.is_empty() {
            all.clone()
        } else {
            let mut ks: Vec<String> = names.iter().filter_map(|n| per.get(n)).flatten().cloned().collect();
            ks.sort();
            ks.dedup();
            ks
        };
        if keys.binary_search_by(|k| k.as_str().cmp(key)).is_ok() {
            return;
        }
        let s = closest(key, &keys);
        let hint = did_you_mean(&s, "");
        let on = if names.is_empty() {
            format!("no {what} in the graph")
        } else {
            let ns: Vec<String> = names.iter().map(|n| format!(":{n}")).collect();
            format!("no {} {what}", ns.join(" or "))
        };
        self.push("UnknownPropertyKeyWarning", key, format!("{on} has the property `{key}`{hint}"), s, at);
    }

    fn push(&mut self, code: &'static str, name: &str, message: String, suggestions: Vec<String>, at: Option<usize>) {
        if self.seen.insert((code, name.to_string())) {
            let position = at.map(|o| Position::of(self.text, o));
            self.out.push(Warning { code, message, suggestions, position });
        }
    }
}

fn did_you_mean(s: &[String], prefix: &str) -> String {
    match s {
        [] => String::new(),
        [one] => format!("; did you mean `{prefix}{one}`?"),
        many => format!(
            "; did you mean {}?",
            many.iter().map(|m| format!("`{prefix}{m}`")).collect::<Vec<_>>().join(" or ")
        ),
    }
}

/// The names in `among` closest to `name`, best first, at most three: a different case,
/// then small edit distances (`CALL` -> `CALLS`, one edit per three characters), then
/// one that contains it or is contained in it (`path` in `file_path`, `Func` in `Function`).
pub fn closest(name: &str, among: &[String]) -> Vec<String> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(usize, usize, &String)> = among
        .iter()
        .filter_map(|c| {
            let cl = c.to_lowercase();
            let d = edit_distance(&lower, &cl);
            let rank = if cl == lower {
                0
            } else if d <= (lower.chars().count() / 3).max(1) {
                1
            } else if cl.len() >= 3 && lower.len() >= 3 && (cl.contains(&lower) || lower.contains(&cl)) {
                2
            } else {
                return None;
            };
            Some((rank, d, c))
        })
        .collect();
    scored.sort();
    // only the best kind of match: a near spelling hides a longer name that contains it
    let best = scored.first().map(|s| s.0);
    scored.into_iter().filter(|s| Some(s.0) == best).take(3).map(|(_, _, c)| c.clone()).collect()
}

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j - 1] + cost).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}
