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

/// The weighted rows that stand for the rows `clause` makes from `rows` as the aggregating
/// projection `p` reads them, or `None` when this module cannot answer it.
pub(crate) fn weighted_rows(ctx: &Ctx, clause: &Clause, rows: &[Row], p: &Projection) -> Result<Option<Vec<(Row, u64)>>> {
    let Clause::Match { optional: false, pattern, where_: None, .. } = clause else { return Ok(None) };
    let ([part], [start]) = (&pattern[..], rows) else { return Ok(None) };
    if !start.is_empty() || part.var.is_some() || part.shortest != Shortest::No || p.star {
        return Ok(None);
    }
    let vars = crate::matcher::part_vars(part);
    let mut uses: BTreeMap<String, Uses> = BTreeMap::new();
    let names: Vec<String> = p.items.iter().map(|i| i.name().to_string()).collect();
    let mut ok = p.items.iter().all(|i| collect(&i.expr, &vars, &[], &mut uses));
    ok &= p.order.iter().all(|(e, _)| collect(e, &vars, &names, &mut uses));
    ok &= p.where_.iter().all(|e| collect(e, &vars, &names, &mut uses));
    if !ok {
        return Ok(None);
    }
    let used = |np: &NodePat| np.var.as_ref().and_then(|v| uses.get(v)).is_some_and(Uses::any);
    match &part.chain[..] {
        [] => {
            let Some(label) = simple_label(&part.start) else { return Ok(None) };
            let u = part.start.var.as_ref().and_then(|v| uses.get(v));
            let labels_only = u.is_none_or(|u| u.keys.is_empty() && !u.id && !u.whole);
            if label.is_none() && labels_only {
                let mut out = Vec::new();
                for (labels, n) in ctx.g.label_groups()? {
                    ctx.guard.check()?;
                    let mut row = Row::new();
                    if let Some(v) = &part.start.var {
                        let node = Node { id: NodeId(-1), labels, props: Default::default() };
                        row.insert(v.clone(), Value::Node(Arc::new(node)));
                    }
                    out.push((row, n));
                }
                return Ok(Some(out));
            }
            per_node(ctx, &part.start, label, None, &uses).map(Some)
        }
        [(r, end)] => {
            if r.props.is_some() || r.range.is_some() || r.dir == Dir::Both {
                return Ok(None);
            }
            if part.start.var.is_some() && part.start.var == end.var {
                return Ok(None);
            }
            let ru = r.var.as_ref().and_then(|v| uses.get(v));
            let r_used = ru.is_some_and(Uses::any);
            // relationship types: bare, unread ends and `type(r)` at most
            if bare(&part.start) && bare(end) && !used(&part.start) && !used(end) {
                if ru.is_some_and(|u| !u.keys.is_empty() || u.labels || u.id || u.whole) {
                    return Ok(None);
                }
                let mut out = Vec::new();
                for (t, n) in &ctx.stats.edge_counts {
                    if *n == 0 || !(r.types.is_empty() || r.types.contains(t)) {
                        continue;
                    }
                    let mut row = Row::new();
                    if let Some(v) = &r.var {
                        let e = Edge { id: EdgeId(-1), src: NodeId(-1), dst: NodeId(-1), rel_type: t.clone(), props: Default::default() };
                        row.insert(v.clone(), Value::Relationship(Arc::new(e)));
                    }
                    out.push((row, *n));
                }
                return Ok(Some(out));
            }
            if r_used {
                return Ok(None);
            }
            // degrees: the grouped end is the read (or labelled) one, the other bare and unread
            let (grouped, other, from_start) = if !bare(end) || used(end) { (end, &part.start, false) } else { (&part.start, end, true) };
            if !bare(other) || used(other) {
                return Ok(None);
            }
            let Some(label) = simple_label(grouped) else { return Ok(None) };
            let dir = match (r.dir, from_start) {
                (Dir::Right, true) | (Dir::Left, false) => Direction::Outgoing,
                _ => Direction::Incoming,
            };
            per_node(ctx, grouped, label, Some((dir, &r.types)), &uses).map(Some)
        }
        _ => Ok(None),
    }
}

/// Each node of `label` (all nodes without one) once, weighted by its degree over `hop`
/// (1 without a hop; nodes of degree 0 make no row), read only as far as `uses` needs.
fn per_node(
    ctx: &Ctx,
    np: &NodePat,
    label: Option<&str>,
    hop: Option<(Direction, &Vec<String>)>,
    uses: &BTreeMap<String, Uses>,
) -> Result<Vec<(Row, u64)>> {
    let u = np.var.as_ref().and_then(|v| uses.get(v));
    let ids = ctx.g.node_ids(label)?;
    let mut out = Vec::new();
    for chunk in ids.chunks(BATCH) {
        ctx.guard.check()?;
        let weights: Vec<u64> = match hop {
            Some((dir, types)) => ctx.g.degrees(chunk, dir, types)?,
            None => vec![1; chunk.len()],
        };
        let kept: Vec<(NodeId, u64)> = chunk.iter().copied().zip(weights).filter(|(_, w)| *w > 0).collect();
        let Some(u) = u.filter(|u| u.any()) else {
            out.extend(kept.into_iter().map(|(_, w)| (Row::new(), w)));
            continue;
        };
        let kept_ids: Vec<NodeId> = kept.iter().map(|(id, _)| *id).collect();
        let nodes = if u.whole { ctx.g.nodes(&kept_ids)? } else { ctx.g.nodes_with_keys(&kept_ids, &u.keys)? };
        let var = np.var.clone().unwrap_or_default();
        for (node, (_, w)) in nodes.into_iter().zip(kept) {
            ctx.guard.check()?;
            let Some(node) = node else { continue };
            let mut row = Row::new();
            row.insert(var.clone(), Value::Node(Arc::new(node)));
            out.push((row, w));
        }
    }
    Ok(out)
}
