//! Logical plan with row estimates, used for EXPLAIN and the complexity limit.
//!
//! The estimates come from `GraphStats`: label counts for scans, a fraction of them
//! for index seeks, average degree per relationship type for expansions (summed over
//! hop counts for variable length; unbounded ranges are charged at least the number of
//! edges), and products for disconnected pattern parts. The whole query is covered:
//! subqueries, pattern predicates and comprehensions are planned against the rows that
//! evaluate them, and loops inside expressions (`reduce`, comprehensions, quantifiers,
//! `range`) are charged for what they build, so a `reduce` that doubles a list forty
//! times is refused before it runs.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use navegador_graph::{Direction, GraphStats, Value};

use crate::ast::*;
use crate::pushdown::Source;
use crate::error::Result;
use crate::eval::Guard;
use crate::matcher::{equality_hints, part_vars, plan_parts, split_at_selective_nodes, Access};

/// One operator of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOp {
    pub name: String,
    pub detail: String,
    /// Estimated rows produced by this operator (for an expression loop: the values it
    /// builds over all the rows that evaluate it).
    pub estimate: f64,
}

/// The operators in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub ops: Vec<PlanOp>,
}

impl Plan {
    /// The largest estimate and the first operator producing it (the later ones only
    /// pass its rows on).
    pub fn peak(&self) -> Option<&PlanOp> {
        self.ops
            .iter()
            .fold(None, |best: Option<&PlanOp>, op| match best {
                Some(b) if b.estimate >= op.estimate => Some(b),
                _ => Some(op),
            })
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        for (i, op) in self.ops.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>2}. {:<22} est. rows {:>12}  {}",
                i + 1,
                op.name,
                fmt_est(op.estimate),
                op.detail
            );
        }
        if let Some(p) = self.peak() {
            let _ = writeln!(s, "complexity: {} ({})", fmt_est(p.estimate), p.name);
        }
        s
    }
}

fn fmt_est(x: f64) -> String {
    if x >= 1e15 {
        format!("{x:.2e}")
    } else {
        format!("{}", x.round() as u64)
    }
}

/// Plans `q`; planning a huge query stops at the query's deadline. `pushdown`: the query
/// runs on a read-only graph, where counting projections read the store's counts
/// (`pushdown.rs`) instead of their MATCH's rows, and are estimated by what they read.
pub(crate) fn plan(q: &Query, stats: &GraphStats, guard: &Guard, pushdown: bool) -> Result<Plan> {
    let mut p = Planner {
        stats,
        guard,
        ops: Vec::new(),
        dry: false,
        pushdown,
    };
    for (i, part) in q.parts.iter().enumerate() {
        if i > 0 {
            let all = q.union_all[i - 1];
            p.ops.push(PlanOp {
                name: if all {
                    "UnionAll".into()
                } else {
                    "Union".into()
                },
                detail: String::new(),
                estimate: 0.0,
            });
        }
        p.single(&part.clauses, 1.0, &mut Scope::default(), "")?;
    }
    Ok(Plan { ops: p.ops })
}

fn sat(x: f64) -> f64 {
    if x.is_finite() {
        x.max(0.0)
    } else if x.is_nan() {
        0.0
    } else {
        f64::MAX
    }
}

/// Elements assumed for a list whose length the planner cannot know (a property, a
/// parameter, a function result).
const UNKNOWN_LIST: f64 = 10.0;

/// Iterations of a `reduce` simulated exactly; the rest are charged like the last one.
const REDUCE_STEPS: u64 = 4096;

fn degree(stats: &GraphStats, types: &[String], dir: Dir) -> f64 {
    let nodes = stats.node_count.max(1) as f64;
    let pick = |t: &str, out: bool| {
        let m = if out {
            &stats.avg_out_degree
        } else {
            &stats.avg_in_degree
        };
        let count = stats.edge_counts.get(t).copied().unwrap_or(0) as f64;
        // Average per node over all nodes, bounded below by the per-source average / node share.
        m.get(t)
            .copied()
            .unwrap_or(0.0)
            .min(count)
            .max(count / nodes)
    };
    let types: Vec<String> = if types.is_empty() {
        stats.edge_counts.keys().cloned().collect()
    } else {
        types.to_vec()
    };
    types
        .iter()
        .map(|t| match dir {
            Dir::Right => pick(t, true),
            Dir::Left => pick(t, false),
            Dir::Both => pick(t, true) + pick(t, false),
        })
        .sum()
}

/// Variables bound before a clause, and what is known of the size of list values.
#[derive(Clone, Default)]
struct Scope {
    vars: HashSet<String>,
    sizes: BTreeMap<String, f64>,
}

/// Local variables of expression loops, with the size of their values when known.
type Env = Vec<(String, Option<f64>)>;

struct Planner<'a> {
    stats: &'a GraphStats,
    guard: &'a Guard,
    ops: Vec<PlanOp>,
    /// Estimating sizes only (the iterations of a `reduce`): nothing is recorded.
    dry: bool,
    /// Counting projections are answered from the store (`plan`).
    pushdown: bool,
}

fn within(detail: String, inside: &str) -> String {
    match (detail.is_empty(), inside.is_empty()) {
        (_, true) => detail,
        (true, false) => format!("(in {inside})"),
        (false, false) => format!("{detail} (in {inside})"),
    }
}

impl Planner<'_> {
    fn push(&mut self, name: &str, detail: String, estimate: f64) {
        if !self.dry {
            self.ops.push(PlanOp {
                name: name.into(),
                detail,
                estimate,
            });
        }
    }

    fn single(
        &mut self,
        clauses: &[Clause],
        mut rows: f64,
        scope: &mut Scope,
        inside: &str,
    ) -> Result<f64> {
        for (i, c) in clauses.iter().enumerate() {
            self.guard.check()?;
            match c {
                Clause::Match {
                    optional,
                    pattern,
                    where_,
                    ..
                } => {
                    // A counting projection right after the first MATCH reads the store's
                    // counts, not the MATCH's rows (`pushdown.rs`): estimated by those.
                    let counted = match clauses.get(1) {
                        Some(Clause::With(p) | Clause::Return(p))
                            if self.pushdown && i == 0 && rows == 1.0 && scope.vars.is_empty() =>
                        {
                            crate::pushdown::pushdown(c, p)
                        }
                        _ => None,
                    };
                    if let Some(pd) = counted {
                        let (name, detail, est) = self.counted(&pd.source);
                        rows = est;
                        self.push(name, within(detail, inside), rows);
                        scope.vars.extend(pattern.iter().flat_map(part_vars));
                        continue;
                    }
                    rows =
                        self.pattern(pattern, where_.as_ref(), *optional, rows, scope, inside)?;
                }
                Clause::Unwind { expr, alias, .. } => {
                    let size = self.expr(expr, rows, &mut Env::new(), scope)?;
                    rows = sat(rows * size.unwrap_or(UNKNOWN_LIST));
                    scope.vars.insert(alias.clone());
                    scope.sizes.remove(alias);
                    self.push("Unwind", within(alias.clone(), inside), rows);
                }
                Clause::With(p) | Clause::Return(p) => {
                    rows = self.projection(p, matches!(c, Clause::With(_)), rows, scope, inside)?;
                }
                Clause::Foreach {
                    var, list, body, ..
                } => {
                    let size = self.expr(list, rows, &mut Env::new(), scope)?;
                    self.push(c.name(), within(String::new(), inside), rows);
                    let mut inner = scope.clone();
                    inner.vars.insert(var.clone());
                    self.single(
                        body,
                        sat(rows * size.unwrap_or(UNKNOWN_LIST)),
                        &mut inner,
                        inside,
                    )?;
                }
                other => {
                    let mut exprs: Vec<&Expr> = Vec::new();
                    other.exprs(&mut |e| exprs.push(e));
                    for e in exprs {
                        self.expr(e, rows, &mut Env::new(), scope)?;
                    }
                    if let Clause::Create { pattern, .. } = other {
                        scope.vars.extend(pattern.iter().flat_map(part_vars));
                    }
                    if let Clause::Merge { part, .. } = other {
                        scope.vars.extend(part_vars(part));
                    }
                    self.push(other.name(), within(String::new(), inside), rows);
                }
            }
        }
        Ok(rows)
    }

    /// The operator that reads a pushed-down count and the rows it hands to the
    /// projection: one per label group or relationship type, one per node of the label
    /// (with a degree: no more than the edges of its types).
    fn counted(&self, source: &Source) -> (&'static str, String, f64) {
        let label_rows = |l: Option<&str>| match l {
            Some(l) => self.stats.label_counts.get(l).copied().unwrap_or(0) as f64,
            None => self.stats.node_count as f64,
        };
        let types = |t: &[String]| if t.is_empty() { "*".to_string() } else { t.join("|") };
        match source {
            Source::LabelGroups { .. } => ("NodeCountFromStore", "labels(*)".into(), self.stats.label_counts.len().max(1) as f64),
            Source::TypeCounts { types: t, .. } => {
                let n = self.stats.edge_counts.iter().filter(|(k, n)| **n > 0 && (t.is_empty() || t.contains(k))).count();
                ("RelationshipCountFromStore", format!("[:{}]", types(t)), n as f64)
            }
            Source::PerNode { label, hop: None, .. } => ("NodeByLabelScan", format!(":{} (counted)", label.unwrap_or("*")), label_rows(*label)),
            Source::PerNode { label, hop: Some((dir, t)), .. } => {
                let edges: u64 = self.stats.edge_counts.iter().filter(|(k, _)| t.is_empty() || t.contains(k)).map(|(_, n)| n).sum();
                let arrow = if *dir == Direction::Incoming { format!("<-[:{}]-", types(t)) } else { format!("-[:{}]->", types(t)) };
                ("DegreeCountFromStore", format!("(:{}){arrow}", label.unwrap_or("*")), label_rows(*label).min(edges as f64))
            }
        }
    }

    /// A MATCH (or a pattern evaluated inside an expression) run once per input row.
    fn pattern(
        &mut self,
        pattern: &[PatternPart],
        where_: Option<&Expr>,
        optional: bool,
        mut rows: f64,
        scope: &mut Scope,
        inside: &str,
    ) -> Result<f64> {
        let hints = equality_hints(where_);
        let bound = scope.vars.clone();
        let is_bound = |v: &str| bound.contains(v);
        let before = rows;
        let split = split_at_selective_nodes(pattern, &is_bound, &hints, self.stats);
        for (part, reversed, access, est) in
            plan_parts(&split, &is_bound, &hints, self.stats, self.guard)?
        {
            let (name, detail) = match &access {
                Access::Bound(v) => ("Argument", v.clone()),
                Access::IndexSeek { label, key } => (
                    "NodeIndexSeek",
                    format!("{}.{}", label.clone().unwrap_or_else(|| "*".into()), key),
                ),
                Access::LabelScan(l) => ("NodeByLabelScan", format!(":{l}")),
                Access::LabelUnion(ls) => ("NodeByLabelScan", format!(":{}", ls.join("|"))),
                Access::AllNodes => ("AllNodesScan", String::new()),
            };
            // A seek runs once per input row; only scans form a product.
            let product = matches!(
                access,
                Access::LabelScan(_) | Access::LabelUnion(_) | Access::AllNodes
            ) && rows > 1.0;
            rows = sat(rows * est);
            if product {
                self.push(
                    "CartesianProduct",
                    within(format!("{name} {detail}"), inside),
                    rows,
                );
            } else {
                self.push(name, within(detail, inside), rows);
            }
            // Property maps are evaluated for each candidate.
            for n in part.nodes() {
                if let Some(p) = &n.props {
                    self.expr(p, rows, &mut Env::new(), scope)?;
                }
            }
            let mut chain: Vec<&RelPat> = part.chain.iter().map(|(r, _)| r).collect();
            if reversed {
                chain.reverse();
            }
            for r in chain {
                self.guard.check()?;
                let d = degree(self.stats, &r.types, r.dir);
                let types = if r.types.is_empty() {
                    "*".to_string()
                } else {
                    r.types.join("|")
                };
                match r.range {
                    None => {
                        rows = sat(rows * d);
                        self.push("Expand", within(format!("[:{types}]"), inside), rows);
                    }
                    Some((lo, hi)) => {
                        let lo = lo.unwrap_or(1);
                        let unbounded = hi.is_none();
                        let hi = hi.unwrap_or(self.stats.node_count.max(1)).min(64);
                        let mut factor = 0.0;
                        for k in lo.min(65)..=hi.max(lo).min(65) {
                            factor += d.powi(k as i32);
                        }
                        if unbounded {
                            factor = factor.max(self.stats.edge_count() as f64);
                        }
                        rows = sat(rows * factor.max(if lo == 0 { 1.0 } else { 0.0 }));
                        let range = format!(
                            "*{}..{}",
                            lo,
                            if unbounded {
                                String::new()
                            } else {
                                hi.to_string()
                            }
                        );
                        self.push(
                            "VarLengthExpand",
                            within(format!("[:{types}{range}]"), inside),
                            rows,
                        );
                    }
                }
                if let Some(p) = &r.props {
                    self.expr(p, rows, &mut Env::new(), scope)?;
                }
            }
            for v in part_vars(part) {
                scope.sizes.remove(&v);
                scope.vars.insert(v);
            }
        }
        if let Some(w) = where_ {
            self.expr(w, rows, &mut Env::new(), scope)?;
            rows = sat(rows * 0.5);
            self.push("Filter", within("WHERE".into(), inside), rows);
        }
        if optional {
            rows = rows.max(before);
            self.push("Optional", within(String::new(), inside), rows);
        }
        Ok(rows)
    }

    fn projection(
        &mut self,
        p: &Projection,
        is_with: bool,
        mut rows: f64,
        scope: &mut Scope,
        inside: &str,
    ) -> Result<f64> {
        let rows_in = rows;
        let agg = p.items.iter().any(|i| i.expr.contains_aggregate());
        let keyed = p.items.iter().any(|i| !i.expr.contains_aggregate());
        // Without grouping keys there is one group; with them, a guess.
        let groups = match (agg, keyed) {
            (false, _) => rows,
            (true, false) => 1.0,
            (true, true) => rows.sqrt().max(1.0),
        };
        let mut sizes = BTreeMap::new();
        for it in &p.items {
            let size = match &it.expr {
                // A collected list holds the rows of its group.
                Expr::Func { name, args, .. } if name.eq_ignore_ascii_case("collect") => {
                    for a in args {
                        self.expr(a, rows_in, &mut Env::new(), scope)?;
                    }
                    Some(rows_in / groups)
                }
                e => self.expr(e, rows_in, &mut Env::new(), scope)?,
            };
            if let Some(s) = size {
                sizes.insert(it.name().to_string(), s);
            }
        }
        if agg {
            rows = groups;
            self.push("Aggregate", within(String::new(), inside), rows);
        }
        if p.distinct {
            self.push("Distinct", within(String::new(), inside), rows);
        }
        if !p.order.is_empty() {
            for (e, _) in &p.order {
                self.expr(e, rows, &mut Env::new(), scope)?;
            }
            self.push("Sort", within(String::new(), inside), rows);
        }
        if let Some(Expr::Lit(Value::Int(n))) = &p.limit {
            rows = rows.min(*n as f64);
            self.push("Limit", within(n.to_string(), inside), rows);
        }
        if let Some(w) = &p.where_ {
            self.expr(w, rows, &mut Env::new(), scope)?;
            rows = sat(rows * 0.5);
            self.push("Filter", within("WHERE".into(), inside), rows);
        }
        let name = if is_with {
            "Projection"
        } else {
            "ProduceResults"
        };
        let cols: Vec<&str> = p.items.iter().map(|i| i.name()).collect();
        self.push(name, within(cols.join(", "), inside), rows);
        if is_with {
            if !p.star {
                scope.vars = p.items.iter().map(|i| i.name().to_string()).collect();
                scope.sizes.clear();
            }
            scope.sizes.extend(sizes);
        }
        Ok(rows)
    }

    /// Plans what evaluating `e` `mult` times costs and returns the size of its value
    /// when known (elements of a list, counting nested ones; a scalar is 1).
    fn expr(&mut self, e: &Expr, mult: f64, env: &mut Env, scope: &Scope) -> Result<Option<f64>> {
        self.guard.check()?;
        let mult = sat(mult);
        Ok(match e {
            Expr::Lit(v) => Some(value_size(v)),
            Expr::Param(_) | Expr::Prop(..) | Expr::Index(..) | Expr::CountStar => None,
            Expr::Var(v) => match env.iter().rev().find(|(n, _)| n == v) {
                Some((_, s)) => *s,
                None => scope.sizes.get(v).copied(),
            },
            Expr::List(items) => {
                let mut total = 0.0;
                for i in items {
                    total += self.expr(i, mult, env, scope)?.unwrap_or(1.0).max(1.0);
                }
                Some(sat(total))
            }
            Expr::Map(items) => {
                let mut total = 0.0;
                for (_, i) in items {
                    total += self.expr(i, mult, env, scope)?.unwrap_or(1.0).max(1.0);
                }
                Some(sat(total))
            }
            Expr::Binary(BinOp::Add, a, b) => {
                let x = self.expr(a, mult, env, scope)?;
                let y = self.expr(b, mult, env, scope)?;
                match (x, y) {
                    (None, None) => None,
                    (x, y) => Some(sat(x.unwrap_or(1.0) + y.unwrap_or(1.0))),
                }
            }
            Expr::Slice(a, lo, hi) => {
                for x in lo.iter().chain(hi) {
                    self.expr(x, mult, env, scope)?;
                }
                self.expr(a, mult, env, scope)?
            }
            Expr::Case {
                subject,
                whens,
                else_,
            } => {
                if let Some(s) = subject {
                    self.expr(s, mult, env, scope)?;
                }
                let mut size: Option<f64> = None;
                for (w, t) in whens {
                    self.expr(w, mult, env, scope)?;
                    let s = self.expr(t, mult, env, scope)?;
                    size = max_size(size, s);
                }
                if let Some(x) = else_ {
                    let s = self.expr(x, mult, env, scope)?;
                    size = max_size(size, s);
                }
                size
            }
            Expr::Func { name, args, .. } => self.function(name, args, mult, env, scope)?,
            Expr::ListComp {
                var,
                list,
                pred,
                proj,
            } => {
                let l = self.expr(list, mult, env, scope)?.unwrap_or(UNKNOWN_LIST);
                let each = sat(mult * l);
                env.push((var.clone(), None));
                if let Some(p) = pred {
                    self.expr(p, each, env, scope)?;
                }
                let item = match proj {
                    Some(p) => self.expr(p, each, env, scope)?.unwrap_or(1.0).max(1.0),
                    None => 1.0,
                };
                env.pop();
                let built = sat(l * item);
                self.push(
                    "ListComprehension",
                    format!("[{var} IN ...]"),
                    sat(mult * built),
                );
                Some(built)
            }
            Expr::Quantifier {
                kind,
                var,
                list,
                pred,
            } => {
                let l = self.expr(list, mult, env, scope)?.unwrap_or(UNKNOWN_LIST);
                let each = sat(mult * l);
                env.push((var.clone(), None));
                self.expr(pred, each, env, scope)?;
                env.pop();
                self.push(
                    "Quantifier",
                    format!("{kind:?}({var} IN ...)").to_lowercase(),
                    each,
                );
                Some(1.0)
            }
            Expr::Reduce {
                acc,
                init,
                var,
                list,
                expr,
            } => {
                let start = self.expr(init, mult, env, scope)?.unwrap_or(1.0).max(1.0);
                let l = self.expr(list, mult, env, scope)?.unwrap_or(UNKNOWN_LIST);
                // Simulate the accumulator's growth: every step builds a value of the
                // size the body gives for the previous one.
                let dry = std::mem::replace(&mut self.dry, true);
                let (mut size, mut built, mut k) = (start, 0.0f64, 0u64);
                let steps = l.min(REDUCE_STEPS as f64) as u64;
                while k < steps && size < f64::MAX && built < f64::MAX {
                    env.push((acc.clone(), Some(size)));
                    env.push((var.clone(), None));
                    let next = self.expr(expr, 1.0, env, scope);
                    env.truncate(env.len() - 2);
                    let next = match next {
                        Ok(n) => n.unwrap_or(1.0).max(1.0),
                        Err(e) => {
                            self.dry = dry;
                            return Err(e);
                        }
                    };
                    size = sat(next);
                    built = sat(built + size);
                    k += 1;
                }
                self.dry = dry;
                if l > steps as f64 {
                    built = sat(built + (l - steps as f64) * size);
                }
                self.push(
                    "Reduce",
                    format!("reduce({acc} = ..., {var} IN ...)"),
                    sat(mult * built.max(l)),
                );
                // Loops inside the body, once per iteration.
                env.push((acc.clone(), Some(size)));
                env.push((var.clone(), None));
                let r = self.expr(expr, sat(mult * l), env, scope);
                env.truncate(env.len() - 2);
                r?;
                Some(size)
            }
            Expr::PatternPred(part) => {
                self.subpattern(
                    std::slice::from_ref(&**part),
                    None,
                    mult,
                    env,
                    scope,
                    "a pattern predicate",
                )?;
                Some(1.0)
            }
            Expr::Exists { pattern, where_ } => {
                self.subpattern(pattern, where_.as_deref(), mult, env, scope, "EXISTS")?;
                Some(1.0)
            }
            Expr::PatternComp { part, pred, proj } => {
                let (rows, inner) = self.subpattern(
                    std::slice::from_ref(&**part),
                    pred.as_deref(),
                    mult,
                    env,
                    scope,
                    "a pattern comprehension",
                )?;
                let item = match inner {
                    Some(inner) => self.expr(proj, rows, env, &inner)?,
                    None => None,
                };
                Some(sat(rows / mult.max(1.0) * item.unwrap_or(1.0).max(1.0)))
            }
            Expr::ExistsQuery(q) | Expr::CountQuery(q) => {
                if !self.dry {
                    let mut inner = scope.clone();
                    inner.vars.extend(env.iter().map(|(n, _)| n.clone()));
                    let what = if matches!(e, Expr::ExistsQuery(_)) {
                        "EXISTS"
                    } else {
                        "COUNT"
                    };
                    self.single(&q.clauses, mult, &mut inner, what)?;
                }
                Some(1.0)
            }
            Expr::MapProj(_, items) => {
                for it in items {
                    if let MapItem::Lit(_, x) = it {
                        self.expr(x, mult, env, scope)?;
                    }
                }
                None
            }
            _ => {
                let mut kids: Vec<&Expr> = Vec::new();
                e.children(&mut |c| kids.push(c));
                for c in kids {
                    self.expr(c, mult, env, scope)?;
                }
                Some(1.0)
            }
        })
    }

    /// `range()` with constant bounds builds a known number of elements; other functions
    /// keep (`tail`, `reverse`, `coalesce`) or lose the size of their argument.
    fn function(
        &mut self,
        name: &str,
        args: &[Expr],
        mult: f64,
        env: &mut Env,
        scope: &Scope,
    ) -> Result<Option<f64>> {
        let mut sizes = Vec::with_capacity(args.len());
        for a in args {
            sizes.push(self.expr(a, mult, env, scope)?);
        }
        let lname = name.to_ascii_lowercase();
        Ok(match lname.as_str() {
            "range" => {
                let n: Vec<Option<i64>> = args.iter().map(constant_int).collect();
                let count = match n.as_slice() {
                    [Some(a), Some(b)] => Some(range_len(*a, *b, 1)),
                    [Some(a), Some(b), Some(s)] => Some(range_len(*a, *b, *s)),
                    _ => None,
                };
                if let Some(c) = count {
                    self.push("Range", "range()".into(), sat(mult * c));
                }
                count
            }
            "tail" | "reverse" => sizes.first().copied().flatten(),
            "coalesce" => sizes.into_iter().fold(None, max_size),
            "split" | "keys" | "labels" | "nodes" | "relationships" | "properties" => None,
            "collect" => None,
            _ if crate::ast::AGGREGATES.contains(&lname.as_str()) => Some(1.0),
            "head" | "last" => None,
            _ => Some(1.0),
        })
    }

    /// A pattern evaluated `mult` times inside an expression: planned like a MATCH whose
    /// input rows are the evaluations. Returns its rows and the scope it leaves (`None`
    /// when only sizes are being estimated).
    fn subpattern(
        &mut self,
        pattern: &[PatternPart],
        where_: Option<&Expr>,
        mult: f64,
        env: &mut Env,
        scope: &Scope,
        inside: &str,
    ) -> Result<(f64, Option<Scope>)> {
        if self.dry {
            return Ok((mult, None));
        }
        let mut inner = scope.clone();
        for (n, s) in env.iter() {
            inner.vars.insert(n.clone());
            match s {
                Some(s) => inner.sizes.insert(n.clone(), *s),
                None => inner.sizes.remove(n),
            };
        }
        let rows = self.pattern(pattern, where_, false, mult, &mut inner, inside)?;
        Ok((rows, Some(inner)))
    }
}

fn max_size(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The size of a literal (see `Planner::expr`).
fn value_size(v: &Value) -> f64 {
    match v {
        Value::List(l) => l.iter().map(|x| value_size(x).max(1.0)).sum(),
        Value::Map(m) => m.values().map(|x| value_size(x).max(1.0)).sum(),
        _ => 1.0,
    }
}

fn constant_int(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(Value::Int(i)) => Some(*i),
        Expr::Unary(UnOp::Neg, x) => constant_int(x).and_then(i64::checked_neg),
        _ => None,
    }
}

fn range_len(start: i64, end: i64, step: i64) -> f64 {
    if step == 0 || (step > 0 && start > end) || (step < 0 && start < end) {
        return 0.0;
    }
    ((end as i128 - start as i128) / step as i128 + 1) as f64
}
