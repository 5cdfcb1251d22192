//! Counting aggregations answered without enumerating the rows of their MATCH.
//!
//! An aggregating projection (WITH or RETURN) right after a one-part, non-optional MATCH
//! without WHERE, whose aggregates are all `count(*)` or `count(v)` of a pattern variable,
//! receives weighted rows instead of matched ones: one row per group of rows that the
//! projection cannot tell apart, and how many rows it stands for. The projection groups them
//! as it groups matched rows (each counts `weight` times), so the answer is the scan's.
//! Where the weighted rows come from:
//! - `(n)` whose variable is read only through `labels(n)` / `n:L`: the graph's label lists
//!   and their counts (`GraphRead::label_groups`, one grouped scan of the label index);
//! - `(a)-[r:T]->(b)`, bare ends, `r` read only through `type(r)`: the exact relationship
//!   counts per type (`GraphStats::edge_counts`, the store's catalog);
//! - `(f:L)<-[:T]-()` (one end bare and unread), `(n:L)`: each node of `L` once, its degree
//!   counted on the adjacency index (`GraphRead::degrees`, one statement per list of
//!   nodes), read once with only the properties the projection uses
//!   (`GraphRead::nodes_with_keys`) — grouped by node before its properties are read.
//!
//! Only read-only queries take this path (a write earlier in the query would make the
//! statistics stale), and any other use of a pattern variable (a whole node returned,
//! `properties(n)`, a comprehension) reads whole nodes or falls back to the scan.

use std::collections::BTreeMap;
use std::sync::Arc;

use navegador_graph::{Direction, Edge, EdgeId, Node, NodeId, Value};

use crate::ast::*;
use crate::error::Result;
use crate::eval::{Ctx, Row};

/// Nodes counted and read per statement.
const BATCH: usize = 512;

/// How a projection reads one pattern variable.
#[derive(Default, Debug)]
struct Uses {
    /// Properties read as `v.key`.
    keys: Vec<String>,
    /// `labels(v)`, `v:L`.
    labels: bool,
    /// `id(v)`.
    id: bool,
    /// `type(v)`.
    rel_type: bool,
    /// Any other use: the whole value.
    whole: bool,
}

impl Uses {
    fn any(&self) -> bool {
        !self.keys.is_empty() || self.labels || self.id || self.rel_type || self.whole
    }
}

/// Records how `e` reads the pattern variables `vars` into `uses`; `shadow` are names the
/// expression sees as projection aliases instead. False when `e` has a form this module
/// does not follow (a nested scope, a pattern, an aggregate other than a count of rows).
fn collect(e: &Expr, vars: &[String], shadow: &[String], uses: &mut BTreeMap<String, Uses>) -> bool {
    let var_of = |x: &Expr| match x {
        Expr::Var(v) if vars.contains(v) && !shadow.contains(v) => Some(v.clone()),
        _ => None,
    };
    match e {
        Expr::Var(_) => {
            if let Some(v) = var_of(e) {
                uses.entry(v).or_default().whole = true;
            }
            true
        }
        Expr::Prop(x, k) => match var_of(x) {
            Some(v) => {
                let u = uses.entry(v).or_default();
                if !u.keys.contains(k) {
                    u.keys.push(k.clone());
                }
                true
            }
            None => collect(x, vars, shadow, uses),
        },
        Expr::HasLabels(x, _) => match var_of(x) {
            Some(v) => {
                uses.entry(v).or_default().labels = true;
                true
            }
            None => collect(x, vars, shadow, uses),
        },
        Expr::CountStar => true,
        Expr::Func { name, distinct, args } if e.is_aggregate_call() => {
            // count(v) of a pattern variable (never null in a non-optional MATCH)
            !*distinct
                && name.eq_ignore_ascii_case("count")
                && matches!(&args[..], [x] if var_of(x).is_some())
        }
        Expr::Func { name, args, .. } => {
            if let [x] = &args[..] {
                if let Some(v) = var_of(x) {
                    let u = uses.entry(v).or_default();
                    match name.to_ascii_lowercase().as_str() {
                        "labels" => u.labels = true,
                        "id" => u.id = true,
                        "type" => u.rel_type = true,
                        _ => u.whole = true,
                    }
                    return true;
                }
            }
            args.iter().all(|a| collect(a, vars, shadow, uses))
        }
        Expr::ListComp { .. }
        | Expr::PatternComp { .. }
        | Expr::Quantifier { .. }
        | Expr::Reduce { .. }
        | Expr::Exists { .. }
        | Expr::ExistsQuery(_)
        | Expr::CountQuery(_)
        | Expr::PatternPred(_)
        | Expr::MapProj(..) => false,
        _ => {
            let mut ok = true;
            e.children(&mut |c| ok &= collect(c, vars, shadow, uses));
            ok
        }
    }
}

/// A node pattern without properties and with at most one label: that label.
fn simple_label(np: &NodePat) -> Option<Option<&str>> {
    if np.props.is_some() {
        return None;
    }
    match &np.labels[..] {
        [] => Some(None),
        [g] if g.len() == 1 => Some(Some(g[0].as_str())),
        _ => None,
    }
}

fn bare(np: &NodePat) -> bool {
    np.props.is_none() && np.labels.is_empty()
}

/// Where the weighted rows of a counting projection come from (see the module's text).
pub(crate) enum Source<'a> {
    /// `(n)` read through its labels at most: the label groups.
    LabelGroups { var: Option<&'a String> },
    /// `()-[r:T]->()` read through `type(r)` at most: the catalog's counts per type.
    TypeCounts { var: Option<&'a String>, types: &'a [String] },
    /// Each node of `label` once, weighted by its degree over `hop` (1 without).
    PerNode { np: &'a NodePat, label: Option<&'a str>, hop: Option<(Direction, &'a [String])> },
}

/// A projection this module answers: where its rows come from and how it reads them.
pub(crate) struct Pushdown<'a> {
    pub(crate) source: Source<'a>,
    uses: BTreeMap<String, Uses>,
}

/// How the aggregating projection `p` right after `clause` (the first clause of its query
/// part) is answered without enumerating the rows of `clause`, or `None` when this module
/// cannot answer it. Only the query's shape is read: the planner estimates by it too.
pub(crate) fn pushdown<'a>(clause: &'a Clause, p: &Projection) -> Option<Pushdown<'a>> {
    let Clause::Match { optional: false, pattern, where_: None, .. } = clause else { return None };
    let [part] = &pattern[..] else { return None };
    if part.var.is_some() || part.shortest != Shortest::No || p.star || !p.items.iter().any(|i| i.expr.contains_aggregate()) {
        return None;
    }
    let vars = crate::matcher::part_vars(part);
    let mut uses: BTreeMap<String, Uses> = BTreeMap::new();
    let names: Vec<String> = p.items.iter().map(|i| i.name().to_string()).collect();
    let mut ok = p.items.iter().all(|i| collect(&i.expr, &vars, &[], &mut uses));
    ok &= p.order.iter().all(|(e, _)| collect(e, &vars, &names, &mut uses));
    ok &= p.where_.iter().all(|e| collect(e, &vars, &names, &mut uses));
    if !ok {
        return None;
    }
    let used = |np: &NodePat| np.var.as_ref().and_then(|v| uses.get(v)).is_some_and(Uses::any);
    let source = match &part.chain[..] {
        [] => {
            let label = simple_label(&part.start)?;
            let u = part.start.var.as_ref().and_then(|v| uses.get(v));
            let labels_only = u.is_none_or(|u| u.keys.is_empty() && !u.id && !u.whole);
            if label.is_none() && labels_only {
                Source::LabelGroups { var: part.start.var.as_ref() }
            } else {
                Source::PerNode { np: &part.start, label, hop: None }
            }
        }
        [(r, end)] => {
            if r.props.is_some() || r.range.is_some() || r.dir == Dir::Both {
                return None;
            }
            if part.start.var.is_some() && part.start.var == end.var {
                return None;
            }
            let ru = r.var.as_ref().and_then(|v| uses.get(v));
            // relationship types: bare, unread ends and `type(r)` at most
            if bare(&part.start) && bare(end) && !used(&part.start) && !used(end) {
                if ru.is_some_and(|u| !u.keys.is_empty() || u.labels || u.id || u.whole) {
                    return None;
                }
                Source::TypeCounts { var: r.var.as_ref(), types: &r.types }
            } else {
                if ru.is_some_and(Uses::any) {
                    return None;
                }
                // degrees: the grouped end is the read (or labelled) one, the other bare and unread
                let (grouped, other, from_start) = if !bare(end) || used(end) { (end, &part.start, false) } else { (&part.start, end, true) };
                if !bare(other) || used(other) {
                    return None;
                }
                let label = simple_label(grouped)?;
                let dir = match (r.dir, from_start) {
                    (Dir::Right, true) | (Dir::Left, false) => Direction::Outgoing,
                    _ => Direction::Incoming,
                };
                Source::PerNode { np: grouped, label, hop: Some((dir, &r.types)) }
            }
        }
        _ => return None,
    };
    Some(Pushdown { source, uses })
}

/// The weighted rows that stand for the rows `clause` makes from `rows` as the aggregating
/// projection `p` reads them, or `None` when this module cannot answer it.
pub(crate) fn weighted_rows(ctx: &Ctx, clause: &Clause, rows: &[Row], p: &Projection) -> Result<Option<Vec<(Row, u64)>>> {
    let [start] = rows else { return Ok(None) };
    if !start.is_empty() {
        return Ok(None);
    }
    let Some(pd) = pushdown(clause, p) else { return Ok(None) };
    match pd.source {
        Source::LabelGroups { var } => {
            let mut out = Vec::new();
            for (labels, n) in ctx.g.label_groups()? {
                ctx.guard.check()?;
                let mut row = Row::new();
                if let Some(v) = var {
                    let node = Node { id: NodeId(-1), labels, props: Default::default() };
                    row.insert(v.clone(), Value::Node(Arc::new(node)));
                }
                out.push((row, n));
            }
            Ok(Some(out))
        }
        Source::TypeCounts { var, types } => {
            let mut out = Vec::new();
            for (t, n) in &ctx.stats.edge_counts {
                if *n == 0 || !(types.is_empty() || types.contains(t)) {
                    continue;
                }
                let mut row = Row::new();
                if let Some(v) = var {
                    let e = Edge { id: EdgeId(-1), src: NodeId(-1), dst: NodeId(-1), rel_type: t.clone(), props: Default::default() };
                    row.insert(v.clone(), Value::Relationship(Arc::new(e)));
                }
                out.push((row, *n));
            }
            Ok(Some(out))
        }
        Source::PerNode { np, label, hop } => per_node(ctx, np, label, hop, &pd.uses, p).map(Some),
    }
}

/// Each node of `label` (all nodes without one) once, weighted by its degree over `hop`
/// (1 without a hop; nodes of degree 0 make no row), read only as far as `uses` needs.
/// Nodes the projection cannot tell apart (neither their identity nor the whole node is
/// read, and the keys it reads are equal) are one row with their weights summed; when each
/// row is then its own group and `p` keeps only the heaviest (`ORDER BY count(*) DESC
/// LIMIT k`), only those rows (and the ties of the last) are handed on.
fn per_node(
    ctx: &Ctx,
    np: &NodePat,
    label: Option<&str>,
    hop: Option<(Direction, &[String])>,
    uses: &BTreeMap<String, Uses>,
    p: &Projection,
) -> Result<Vec<(Row, u64)>> {
    let u = np.var.as_ref().and_then(|v| uses.get(v)).filter(|u| u.any());
    let var = np.var.clone().unwrap_or_default();
    let keys = u.filter(|u| !u.whole).map(|u| &u.keys[..]).unwrap_or(&[]);
    let nodes: Vec<(Node, u64)> = match hop {
        Some((dir, types)) => {
            ctx.guard.check()?;
            ctx.g.nodes_by_degree(label, dir, types, if u.is_some_and(|u| u.whole) { None } else { Some(keys) })?
        }
        None => {
            let mut out = Vec::new();
            for chunk in ctx.g.node_ids(label)?.chunks(BATCH) {
                ctx.guard.check()?;
                let nodes = if u.is_some_and(|u| u.whole) { ctx.g.nodes(chunk)? } else { ctx.g.nodes_with_keys(chunk, keys)? };
                out.extend(nodes.into_iter().flatten().map(|n| (n, 1)));
            }
            out
        }
    };
    let Some(u) = u else {
        let total: u64 = nodes.iter().map(|(_, w)| w).sum();
        return Ok(if nodes.is_empty() { Vec::new() } else { vec![(Row::new(), total)] });
    };
    let row_of = |node: Node| {
        let mut row = Row::new();
        row.insert(var.clone(), Value::Node(Arc::new(node)));
        row
    };
    if u.whole || u.id {
        let mut out = Vec::with_capacity(nodes.len());
        for (node, w) in nodes {
            ctx.guard.check()?;
            out.push((row_of(node), w));
        }
        return Ok(out);
    }
    // One row per distinct reading (labels when read, the values of the keys, compared
    // exactly as written: `1` and `1.0` stay apart, as they do for `toString`).
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut merged: Vec<(Node, u64)> = Vec::new();
    for (node, w) in nodes {
        ctx.guard.check()?;
        let vals: Vec<Option<&Value>> = u.keys.iter().map(|k| node.props.get(k)).collect();
        let reading = if u.labels { format!("{:?}{vals:?}", node.labels) } else { format!("{vals:?}") };
        match at.get(&reading) {
            Some(&i) => merged[i].1 += w,
            None => {
                at.insert(reading, merged.len());
                merged.push((node, w));
            }
        }
    }
    if let Some(k) = top_k(p, np.var.as_deref(), u) {
        if merged.len() > k {
            let mut ws: Vec<u64> = merged.iter().map(|(_, w)| *w).collect();
            let nth = ws.len() - k.max(1);
            let (_, least, _) = ws.select_nth_unstable(nth);
            let least = *least;
            merged.retain(|(_, w)| k > 0 && *w >= least);
        }
    }
    Ok(merged.into_iter().map(|(n, w)| (row_of(n), w)).collect())
}

/// `SKIP s LIMIT k` as `s + k` when `p` keeps only its heaviest groups and each row of a
/// node read as `u` is its own group: the grouping keys are exactly the properties read
/// (`v.key`, nothing else of `v`), the first sort key is a count, descending, and nothing
/// filters the groups before the limit.
fn top_k(p: &Projection, var: Option<&str>, u: &Uses) -> Option<usize> {
    let var = var?;
    if p.distinct || p.where_.is_some() || u.labels || u.id || u.whole || u.rel_type {
        return None;
    }
    let lit = |e: &Option<Expr>| match e {
        None => Some(0),
        Some(Expr::Lit(Value::Int(n))) if *n >= 0 => usize::try_from(*n).ok(),
        _ => None,
    };
    let (Some(limit), Some(skip)) = (p.limit.as_ref().and(lit(&p.limit)), lit(&p.skip)) else { return None };
    let is_count = |e: &Expr| match e {
        Expr::CountStar => true,
        Expr::Func { name, distinct: false, .. } => name.eq_ignore_ascii_case("count"),
        _ => false,
    };
    let (first, asc) = p.order.first()?;
    let counted = match first {
        Expr::Var(alias) => p.items.iter().any(|i| i.name() == alias && is_count(&i.expr)),
        e => is_count(e),
    };
    if *asc || !counted {
        return None;
    }
    let mut grouped: Vec<&String> = Vec::new();
    for i in p.items.iter().filter(|i| !i.expr.contains_aggregate()) {
        match &i.expr {
            Expr::Prop(x, k) if matches!(&**x, Expr::Var(v) if v == var) => grouped.push(k),
            _ => return None,
        }
    }
    if grouped.is_empty() || !u.keys.iter().all(|k| grouped.contains(&k)) {
        return None;
    }
    limit.checked_add(skip)
}
