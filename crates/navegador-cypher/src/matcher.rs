//! Pattern matching: binds pattern variables by backtracking over `GraphRead`.
//!
//! Each pattern part starts from whichever end is cheapest (a bound variable, an
//! index seek on a property equality, the smallest label, or all nodes) and is
//! walked in that direction; relationships are unique within one MATCH.

use navegador_graph::{Direction, Edge, EdgeId, GraphStats, Node, NodeId, Path, Value};
use std::collections::VecDeque;
use std::sync::Arc;

use crate::ast::{CmpOp, Dir, Expr, NodePat, PatternPart, RelPat};
use crate::error::{CypherError, Result};
use crate::eval::{eval, Ctx, Guard, Row};
use crate::values::equals;

/// Nodes read per list while matching (see `GraphRead::nodes`).
const NODE_BATCH: usize = 512;

/// Hard cap on variable-length depth (the expansion itself is iterative).
pub const MAX_HOPS: u64 = 10_000;

/// How the start node of a pattern part is found.
#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    Bound(String),
    IndexSeek {
        label: Option<String>,
        key: String,
    },
    LabelScan(String),
    /// Nodes carrying any of these labels.
    LabelUnion(Vec<String>),
    AllNodes,
}

/// A WHERE conjunct usable for an index seek: `var.key = value` or, with `many`,
/// `var.key IN value`.
#[derive(Clone, Debug)]
pub struct Hint {
    pub var: String,
    pub key: String,
    pub value: Expr,
    pub many: bool,
}

impl Hint {
    fn usable(&self, bound: &dyn Fn(&str) -> bool) -> bool {
        expr_vars(&self.value).iter().all(|x| bound(x))
    }
}

/// Conjuncts of WHERE that can drive index seeks.
pub fn equality_hints(where_: Option<&Expr>) -> Vec<Hint> {
    let mut out = Vec::new();
    fn walk(e: &Expr, out: &mut Vec<Hint>) {
        match e {
            Expr::Binary(crate::ast::BinOp::And, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Expr::Binary(crate::ast::BinOp::In, l, r) => {
                if let Expr::Prop(v, k) = &**l {
                    if let Expr::Var(v) = &**v {
                        if !expr_vars(r).contains(v) && !r.contains_aggregate() {
                            out.push(Hint {
                                var: v.clone(),
                                key: k.clone(),
                                value: (**r).clone(),
                                many: true,
                            });
                        }
                    }
                }
            }
            Expr::Compare(l, rest) if rest.len() == 1 && rest[0].0 == CmpOp::Eq => {
                let r = &rest[0].1;
                for (x, y) in [(&**l, r), (r, &**l)] {
                    if let Expr::Prop(v, k) = x {
                        if let Expr::Var(v) = &**v {
                            let vars = expr_vars(y);
                            if !vars.contains(v) && !y.contains_aggregate() {
                                out.push(Hint {
                                    var: v.clone(),
                                    key: k.clone(),
                                    value: y.clone(),
                                    many: false,
                                });
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(w) = where_ {
        walk(w, &mut out);
    }
    out
}

/// Variables an expression mentions (conservatively, including comprehension locals).
pub fn expr_vars(e: &Expr) -> Vec<String> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Var(v) | Expr::MapProj(v, _) => out.push(v.clone()),
            Expr::PatternPred(_) | Expr::PatternComp { .. } | Expr::Exists { .. } => {
                out.push("  pattern".into())
            }
            _ => {}
        }
        e.children(&mut |c| walk(c, out));
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// Chooses how to find candidates for `np` and estimates how many there are.
pub fn access_for(
    np: &NodePat,
    bound: &dyn Fn(&str) -> bool,
    hints: &[Hint],
    stats: &GraphStats,
) -> (Access, f64) {
    if let Some(v) = &np.var {
        if bound(v) {
            return (Access::Bound(v.clone()), 1.0);
        }
    }
    let single_labels: Vec<&String> = np
        .labels
        .iter()
        .filter(|g| g.len() == 1)
        .map(|g| &g[0])
        .collect();
    let smallest = single_labels
        .iter()
        .min_by_key(|l| stats.label_counts.get(l.as_str()).copied().unwrap_or(0))
        .map(|l| (*l).clone());
    let label_rows = |l: &Option<String>| match l {
        Some(l) => stats.label_counts.get(l).copied().unwrap_or(0) as f64,
        None => stats.node_count as f64,
    };
    let mut keys: Vec<String> = Vec::new();
    if let Some(Expr::Map(items)) = &np.props {
        keys.extend(
            items
                .iter()
                .filter(|(_, e)| expr_vars(e).iter().all(|x| bound(x)))
                .map(|(k, _)| k.clone()),
        );
    }
    if let Some(v) = &np.var {
        keys.extend(
            hints
                .iter()
                .filter(|h| &h.var == v && h.usable(bound))
                .map(|h| h.key.clone()),
        );
    }
    if !keys.is_empty() {
        let indexed = keys
            .iter()
            .find(|k| stats.indexed_properties.contains(k))
            .cloned();
        let key = indexed.clone().unwrap_or_else(|| keys[0].clone());
        let base = label_rows(&smallest);
        let est = if indexed.is_some() {
            (base / 100.0).max(1.0)
        } else {
            (base / 10.0).max(1.0)
        };
        return (
            Access::IndexSeek {
                label: smallest,
                key,
            },
            est,
        );
    }
    if let Some(l) = smallest {
        let est = label_rows(&Some(l.clone()));
        return (Access::LabelScan(l), est);
    }
    // Only disjunctions (`:A|B`): scan the labels of the smallest one.
    if let Some(g) = np.labels.iter().min_by_key(|g| {
        g.iter()
            .map(|l| stats.label_counts.get(l).copied().unwrap_or(0))
            .sum::<u64>()
    }) {
        let est = g
            .iter()
            .map(|l| stats.label_counts.get(l).copied().unwrap_or(0))
            .sum::<u64>();
        return (Access::LabelUnion(g.clone()), est as f64);
    }
    (Access::AllNodes, stats.node_count as f64)
}

struct Prep<'p> {
    var: Option<&'p str>,
    nodes: Vec<&'p NodePat>,
    rels: Vec<(&'p RelPat, Direction)>,
    reversed: bool,
    shortest: crate::ast::Shortest,
}

fn prepare<'p>(part: &'p PatternPart, reversed: bool) -> Prep<'p> {
    let mut nodes: Vec<&NodePat> = part.nodes().collect();
    let mut rels: Vec<(&RelPat, Direction)> = part
        .chain
        .iter()
        .map(|(r, _)| {
            let d = match (r.dir, reversed) {
                (Dir::Both, _) => Direction::Both,
                (Dir::Right, false) | (Dir::Left, true) => Direction::Outgoing,
                _ => Direction::Incoming,
            };
            (r, d)
        })
        .collect();
    if reversed {
        nodes.reverse();
        rels.reverse();
    }
    Prep {
        var: part.var.as_deref(),
        nodes,
        rels,
        reversed,
        shortest: part.shortest,
    }
}

/// Variables a pattern part binds.
pub fn part_vars(p: &PatternPart) -> Vec<String> {
    let mut v: Vec<String> = p.var.iter().cloned().collect();
    for n in p.nodes() {
        v.extend(n.var.iter().cloned());
    }
    for (r, _) in &p.chain {
        v.extend(r.var.iter().cloned());
    }
    v
}

/// Splits a chain whose most selective node is in the middle (say
/// `(a)-->(f {name: 'x'})-->(b)`) into two parts that both start there, so matching
/// seeks `f` and expands outwards instead of scanning from an end. Parts with a path
/// variable stay whole. Anonymous split points get an internal variable (leading space).
pub fn split_at_selective_nodes(
    parts: &[PatternPart],
    bound: &dyn Fn(&str) -> bool,
    hints: &[Hint],
    stats: &GraphStats,
) -> Vec<PatternPart> {
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        if p.var.is_some() || p.chain.len() < 2 || p.shortest != crate::ast::Shortest::No {
            out.push(p.clone());
            continue;
        }
        let nodes: Vec<&NodePat> = p.nodes().collect();
        let costs: Vec<f64> = nodes
            .iter()
            .map(|n| access_for(n, bound, hints, stats).1)
            .collect();
        let ends = costs[0].min(costs[costs.len() - 1]);
        let (k, best) = costs.iter().enumerate().take(costs.len() - 1).skip(1).fold(
            (0, f64::INFINITY),
            |acc, (i, c)| if *c < acc.1 { (i, *c) } else { acc },
        );
        // A variable-length relationship bound to a variable would list its
        // relationships backwards in the left part.
        let backwards_list = p.chain[..k]
            .iter()
            .any(|(r, _)| r.range.is_some() && r.var.is_some());
        if k == 0 || best * 2.0 >= ends || backwards_list {
            out.push(p.clone());
            continue;
        }
        let mut mid = nodes[k].clone();
        let var = mid
            .var
            .clone()
            .unwrap_or_else(|| format!(" split{}", mid.span.0));
        mid.var = Some(var.clone());
        // Right part: mid, then the chain after it, as written.
        out.push(PatternPart {
            var: None,
            start: mid.clone(),
            chain: p.chain[k..].to_vec(),
            shortest: crate::ast::Shortest::No,
            span: p.span,
        });
        // Left part: mid, then the chain before it walked backwards with flipped arrows.
        let mut chain = Vec::with_capacity(k);
        for i in (0..k).rev() {
            let mut rel = p.chain[i].0.clone();
            rel.dir = match rel.dir {
                Dir::Right => Dir::Left,
                Dir::Left => Dir::Right,
                Dir::Both => Dir::Both,
            };
            chain.push((rel, nodes[i].clone()));
        }
        let mut bound_mid = mid;
        // The second part re-checks the shared node only through its variable.
        bound_mid.labels.clear();
        bound_mid.props = None;
        bound_mid.var = Some(var);
        out.push(PatternPart {
            var: None,
            start: bound_mid,
            chain,
            shortest: crate::ast::Shortest::No,
            span: p.span,
        });
    }
    out
}

/// Orders parts (bound first, then cheapest) and picks each part's direction.
///
/// Greedy: the cheapest remaining part goes next (the first written, on a tie), and the
/// variables it binds make the parts that read them cheaper. A part's cost changes only
/// when a variable its end nodes depend on becomes bound, so only those parts are
/// costed again: planning `K` disconnected parts takes `O(K log K)`, not `O(K^3)`, and it
/// stops at the query's deadline.
pub fn plan_parts<'p>(
    parts: &'p [PatternPart],
    initially_bound: &dyn Fn(&str) -> bool,
    hints: &[Hint],
    stats: &GraphStats,
    guard: &Guard,
) -> Result<Vec<(&'p PatternPart, bool, Access, f64)>> {
    use std::collections::{BTreeSet, HashMap, HashSet};
    let mut bound_extra: HashSet<String> = HashSet::new();
    let cost = |p: &PatternPart, extra: &HashSet<String>| {
        let is_bound = |v: &str| initially_bound(v) || extra.contains(v);
        let (a1, c1) = access_for(&p.start, &is_bound, hints, stats);
        let last = p.chain.last().map(|(_, n)| n).unwrap_or(&p.start);
        let (a2, c2) = access_for(last, &is_bound, hints, stats);
        if c2 < c1 {
            (true, a2, c2)
        } else {
            (false, a1, c1)
        }
    };
    // The variables whose binding can change a part's cost: its end nodes' own, those
    // their property maps read, and those read by WHERE equalities on them.
    let mut readers: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in parts.iter().enumerate() {
        guard.check()?;
        let last = p.chain.last().map(|(_, n)| n).unwrap_or(&p.start);
        let mut deps: Vec<String> = Vec::new();
        for np in [&p.start, last] {
            if let Some(v) = &np.var {
                deps.push(v.clone());
                for h in hints.iter().filter(|h| &h.var == v) {
                    deps.extend(expr_vars(&h.value));
                }
            }
            if let Some(props) = &np.props {
                deps.extend(expr_vars(props));
            }
        }
        deps.sort();
        deps.dedup();
        for d in deps {
            readers.entry(d).or_default().push(i);
        }
    }
    // Costs are non-negative, so their bit patterns sort like the numbers.
    let key = |c: f64| c.max(0.0).to_bits();
    let mut costs: Vec<(bool, Access, f64)> = Vec::with_capacity(parts.len());
    let mut queue: BTreeSet<(u64, usize)> = BTreeSet::new();
    for (i, p) in parts.iter().enumerate() {
        guard.check()?;
        let c = cost(p, &bound_extra);
        queue.insert((key(c.2), i));
        costs.push(c);
    }
    let mut done = vec![false; parts.len()];
    let mut out = Vec::with_capacity(parts.len());
    while let Some((_, i)) = queue.pop_first() {
        guard.check()?;
        done[i] = true;
        let (rev, a, c) = costs[i].clone();
        let p = &parts[i];
        let mut touched: Vec<usize> = Vec::new();
        for v in part_vars(p) {
            if !initially_bound(&v) && bound_extra.insert(v.clone()) {
                touched.extend(readers.get(&v).into_iter().flatten().filter(|j| !done[**j]));
            }
        }
        touched.sort_unstable();
        touched.dedup();
        for j in touched {
            guard.check()?;
            let c = cost(&parts[j], &bound_extra);
            queue.remove(&(key(costs[j].2), j));
            queue.insert((key(c.2), j));
            costs[j] = c;
        }
        out.push((p, rev, a, c));
    }
    Ok(out)
}

/// Calls `out` for every way `parts` match given `row`; `out` returns false to stop.
pub fn match_parts(
    ctx: &Ctx,
    parts: &[PatternPart],
    where_: Option<&Expr>,
    row: &Row,
    out: &mut dyn FnMut(Row) -> Result<bool>,
) -> Result<()> {
    let hints = equality_hints(where_);
    let bound = |v: &str| row.get(v).is_some();
    let parts = split_at_selective_nodes(parts, &bound, &hints, ctx.stats);
    let planned = plan_parts(&parts, &bound, &hints, ctx.stats, ctx.guard)?;
    let preps: Vec<(Prep, Access)> = planned
        .into_iter()
        .map(|(p, rev, a, _)| (prepare(p, rev), a))
        .collect();
    let mut m = Matcher {
        ctx,
        preps,
        hints,
        out,
        used: Vec::new(),
        path_nodes: Vec::new(),
        path_edges: Vec::new(),
    };
    m.part(0, row.clone())?;
    Ok(())
}

struct Matcher<'c, 'a, 'p, 'o> {
    ctx: &'c Ctx<'a>,
    preps: Vec<(Prep<'p>, Access)>,
    hints: Vec<Hint>,
    out: &'o mut dyn FnMut(Row) -> Result<bool>,
    used: Vec<EdgeId>,
    path_nodes: Vec<Arc<Node>>,
    path_edges: Vec<Arc<Edge>>,
}

impl Matcher<'_, '_, '_, '_> {
    fn candidates(&self, pi: usize, row: &Row) -> Result<Vec<NodeId>> {
        let (prep, access) = &self.preps[pi];
        let np = prep.nodes[0];
        let g = self.ctx.g;
        Ok(match access {
            Access::Bound(v) => match row.get(v) {
                Some(Value::Node(n)) => vec![n.id],
                _ => vec![],
            },
            Access::IndexSeek { label, key } => {
                let is_bound = |v: &str| row.contains_key(v);
                // Candidate values: one for an equality, several for IN.
                let mut values: Option<Vec<Value>> = None;
                if let Some(Expr::Map(items)) = &np.props {
                    if let Some((_, e)) = items
                        .iter()
                        .find(|(k, e)| k == key && expr_vars(e).iter().all(|x| is_bound(x)))
                    {
                        values = Some(vec![eval(self.ctx, e, row)?]);
                    }
                }
                if values.is_none() {
                    let mut usable = self
                        .hints
                        .iter()
                        .filter(|h| {
                            Some(&h.var) == np.var.as_ref() && &h.key == key && h.usable(&is_bound)
                        })
                        .collect::<Vec<_>>();
                    usable.sort_by_key(|h| h.many);
                    if let Some(h) = usable.first() {
                        let v = eval(self.ctx, &h.value, row)?;
                        values = Some(match (h.many, v) {
                            (false, v) => vec![v],
                            (true, Value::List(l)) => l,
                            (true, Value::Null) => vec![],
                            // Not a list: the filter reports the error.
                            (true, _) => return self.scan(label.as_deref()),
                        });
                    }
                }
                let Some(values) = values else {
                    return self.scan(label.as_deref());
                };
                // Only lookups by storable values can use the index.
                if values.iter().any(|v| !v.is_null() && !v.is_storable()) {
                    return self.scan(label.as_deref());
                }
                let mut ids = Vec::new();
                for v in values.iter().filter(|v| !v.is_null()) {
                    ids.extend(g.node_ids_by_property(label.as_deref(), key, v)?);
                }
                if values.len() > 1 {
                    ids.sort();
                    ids.dedup();
                }
                ids
            }
            Access::LabelScan(l) => g.node_ids(Some(l))?,
            Access::LabelUnion(ls) => {
                let mut ids = Vec::new();
                for l in ls {
                    ids.extend(g.node_ids(Some(l))?);
                }
                ids.sort();
                ids.dedup();
                ids
            }
            Access::AllNodes => g.node_ids(None)?,
        })
    }

    fn scan(&self, label: Option<&str>) -> Result<Vec<NodeId>> {
        Ok(self.ctx.g.node_ids(label)?)
    }

    fn node_ok(&self, np: &NodePat, node: &Node, row: &Row) -> Result<bool> {
        if let Some(v) = &np.var {
            if let Some(b) = row.get(v) {
                match b {
                    Value::Node(b) if b.id == node.id => {}
                    _ => return Ok(false),
                }
            }
        }
        if !np
            .labels
            .iter()
            .all(|g| g.iter().any(|l| node.labels.contains(l)))
        {
            return Ok(false);
        }
        props_ok(self.ctx, np.props.as_ref(), &node.props, row)
    }

    /// The node `ids[k]` when walking `ids` in order, read with the next `NODE_BATCH` ids
    /// whenever `loaded` has run out (`None`: it no longer exists).
    fn listed(
        &self,
        loaded: &mut VecDeque<Option<Node>>,
        ids: &[NodeId],
        k: usize,
    ) -> Result<Option<Node>> {
        if loaded.is_empty() {
            loaded.extend(self.ctx.g.nodes(&ids[k..ids.len().min(k + NODE_BATCH)])?);
        }
        Ok(loaded.pop_front().flatten())
    }

    fn part(&mut self, pi: usize, row: Row) -> Result<bool> {
        if pi == self.preps.len() {
            return (self.out)(row);
        }
        let cands = self.candidates(pi, &row)?;
        // Candidates are read in lists (one round trip each on a server backend); a
        // writing query's handle still reads them one by one.
        let mut loaded = VecDeque::new();
        for k in 0..cands.len() {
            self.ctx.guard.check()?;
            let Some(node) = self.listed(&mut loaded, &cands, k)? else {
                continue;
            };
            let np = self.preps[pi].0.nodes[0];
            if !self.node_ok(np, &node, &row)? {
                continue;
            }
            let node = Arc::new(node);
            let mut r = row.clone();
            if let Some(v) = &np.var {
                r.insert(v.clone(), Value::Node(node.clone()));
            }
            self.path_nodes.clear();
            self.path_edges.clear();
            self.path_nodes.push(node.clone());
            if !self.step(pi, 0, node, r)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn finish_part(&mut self, pi: usize, mut row: Row) -> Result<bool> {
        let prep = &self.preps[pi].0;
        if let Some(v) = prep.var {
            let mut nodes: Vec<Node> = self.path_nodes.iter().map(|n| (**n).clone()).collect();
            let mut edges: Vec<Edge> = self.path_edges.iter().map(|e| (**e).clone()).collect();
            if prep.reversed {
                nodes.reverse();
                edges.reverse();
            }
            row.insert(v.to_string(), Value::Path(Arc::new(Path { nodes, edges })));
        }
        let (nodes, edges) = (self.path_nodes.clone(), self.path_edges.clone());
        let r = self.part(pi + 1, row);
        self.path_nodes = nodes;
        self.path_edges = edges;
        r
    }

    fn step(&mut self, pi: usize, i: usize, cur: Arc<Node>, row: Row) -> Result<bool> {
        if i == self.preps[pi].0.rels.len() {
            return self.finish_part(pi, row);
        }
        let (rp, dir) = self.preps[pi].0.rels[i];
        match rp.range {
            None => {
                let mut edges = Vec::new();
                for e in self.ctx.g.edges_of(cur.id, dir, &rp.types)? {
                    self.ctx.guard.check()?;
                    if !self.used.contains(&e.id) && self.rel_ok(rp, &e, &row)? {
                        edges.push(e);
                    }
                }
                let ends: Vec<NodeId> = edges.iter().map(|e| other_end(e, cur.id, dir)).collect();
                let mut others = VecDeque::new();
                for (k, e) in edges.into_iter().enumerate() {
                    self.ctx.guard.check()?;
                    let Some(other) = self.listed(&mut others, &ends, k)? else {
                        continue;
                    };
                    let np = self.preps[pi].0.nodes[i + 1];
                    if !self.node_ok(np, &other, &row)? {
                        continue;
                    }
                    let (e, other) = (Arc::new(e), Arc::new(other));
                    let mut r = row.clone();
                    if let Some(v) = &rp.var {
                        r.insert(v.clone(), Value::Relationship(e.clone()));
                    }
                    if let Some(v) = &np.var {
                        r.insert(v.clone(), Value::Node(other.clone()));
                    }
                    self.used.push(e.id);
                    self.path_edges.push(e);
                    self.path_nodes.push(other.clone());
                    let cont = self.step(pi, i + 1, other, r)?;
                    self.used.pop();
                    self.path_edges.pop();
                    self.path_nodes.pop();
                    if !cont {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some((lo, hi)) => {
                let lo = lo.unwrap_or(1);
                let hi = hi.unwrap_or(u64::MAX);
                let shortest = self.preps[pi].0.shortest;
                if shortest != crate::ast::Shortest::No && lo <= 1 {
                    return self.shortest(
                        pi,
                        i,
                        cur,
                        &row,
                        lo,
                        hi,
                        shortest == crate::ast::Shortest::All,
                    );
                }
                self.varlen(pi, i, cur, &row, lo, hi)
            }
        }
    }

    /// Tries to end a variable-length relationship at `cur` with the edges in `acc`.
    fn varlen_emit(
        &mut self,
        pi: usize,
        i: usize,
        cur: &Arc<Node>,
        row: &Row,
        acc: &[Arc<Edge>],
    ) -> Result<bool> {
        let (rp, _) = self.preps[pi].0.rels[i];
        let np = self.preps[pi].0.nodes[i + 1];
        if !self.node_ok(np, cur, row)? {
            return Ok(true);
        }
        let mut list: Vec<Value> = acc.iter().map(|e| Value::Relationship(e.clone())).collect();
        if self.preps[pi].0.reversed {
            list.reverse();
        }
        if let Some(v) = &rp.var {
            if let Some(b) = row.get(v) {
                if equals(b, &Value::List(list.clone())) != Some(true) {
                    return Ok(true);
                }
            }
        }
        let mut r = row.clone();
        if let Some(v) = &rp.var {
            r.insert(v.clone(), Value::List(list));
        }
        if let Some(v) = &np.var {
            r.insert(v.clone(), Value::Node(cur.clone()));
        }
        self.step(pi, i + 1, cur.clone(), r)
    }

    /// Depth-first expansion with an explicit stack, so long paths cannot exhaust the
    /// thread's stack; relationships stay unique along the path.
    fn varlen(
        &mut self,
        pi: usize,
        i: usize,
        start: Arc<Node>,
        row: &Row,
        lo: u64,
        hi: u64,
    ) -> Result<bool> {
        let (rp, dir) = self.preps[pi].0.rels[i];
        let mut acc: Vec<Arc<Edge>> = Vec::new();
        if lo == 0 && !self.varlen_emit(pi, i, &start, row, &acc)? {
            return Ok(false);
        }
        if hi == 0 {
            return Ok(true);
        }
        // (node id, its edges, next edge index)
        let first = self.ctx.g.edges_of(start.id, dir, &rp.types)?;
        let mut stack: Vec<(NodeId, Vec<Edge>, usize)> = vec![(start.id, first, 0)];
        while let Some(top) = stack.last_mut() {
            self.ctx.guard.check()?;
            if top.2 >= top.1.len() {
                stack.pop();
                if !stack.is_empty() {
                    acc.pop();
                    self.used.pop();
                    self.path_edges.pop();
                    self.path_nodes.pop();
                }
                continue;
            }
            let e = Arc::new(top.1[top.2].clone());
            top.2 += 1;
            let cur = top.0;
            if self.used.contains(&e.id) || !props_ok(self.ctx, rp.props.as_ref(), &e.props, row)? {
                continue;
            }
            let Some(other) = self.ctx.g.node(other_end(&e, cur, dir))? else {
                continue;
            };
            let other = Arc::new(other);
            self.used.push(e.id);
            acc.push(e.clone());
            self.path_edges.push(e);
            self.path_nodes.push(other.clone());
            let depth = acc.len() as u64;
            if depth >= lo && !self.varlen_emit(pi, i, &other, row, &acc)? {
                return Ok(false);
            }
            if depth < hi {
                if depth >= MAX_HOPS {
                    return Err(CypherError::Unsupported(format!(
                        "variable-length pattern deeper than {MAX_HOPS} hops"
                    )));
                }
                let next = self.ctx.g.edges_of(other.id, dir, &rp.types)?;
                stack.push((other.id, next, 0));
            } else {
                acc.pop();
                self.used.pop();
                self.path_edges.pop();
                self.path_nodes.pop();
            }
        }
        Ok(true)
    }

    /// Breadth-first search for `shortestPath` / `allShortestPaths`: every node is
    /// reached once, at its smallest depth, and only shortest paths are emitted.
    #[allow(clippy::too_many_arguments)]
    fn shortest(
        &mut self,
        pi: usize,
        i: usize,
        start: Arc<Node>,
        row: &Row,
        lo: u64,
        hi: u64,
        all: bool,
    ) -> Result<bool> {
        use std::collections::HashMap;
        let (rp, dir) = self.preps[pi].0.rels[i];
        let np = self.preps[pi].0.nodes[i + 1];
        if lo == 0 && !self.varlen_emit(pi, i, &start, row, &[])? {
            return Ok(false);
        }
        let mut depth_of: HashMap<NodeId, u64> = HashMap::from([(start.id, 0)]);
        let mut preds: HashMap<NodeId, Vec<(NodeId, Arc<Edge>)>> = HashMap::new();
        let mut seen: HashMap<NodeId, Arc<Node>> = HashMap::from([(start.id, start.clone())]);
        let mut frontier = vec![start.id];
        let mut depth = 0u64;
        while !frontier.is_empty() && depth < hi {
            if depth >= MAX_HOPS {
                return Err(CypherError::Unsupported(format!(
                    "variable-length pattern deeper than {MAX_HOPS} hops"
                )));
            }
            depth += 1;
            let mut next = Vec::new();
            for u in frontier {
                for e in self.ctx.g.edges_of(u, dir, &rp.types)? {
                    self.ctx.guard.check()?;
                    if !props_ok(self.ctx, rp.props.as_ref(), &e.props, row)? {
                        continue;
                    }
                    let v = other_end(&e, u, dir);
                    match depth_of.get(&v) {
                        None => {
                            let Some(node) = self.ctx.g.node(v)? else {
                                continue;
                            };
                            depth_of.insert(v, depth);
                            seen.insert(v, Arc::new(node));
                            preds.insert(v, vec![(u, Arc::new(e))]);
                            next.push(v);
                        }
                        Some(d) if *d == depth && all => {
                            preds.entry(v).or_default().push((u, Arc::new(e)));
                        }
                        _ => {}
                    }
                }
            }
            for v in &next {
                let node = seen[v].clone();
                if !self.node_ok(np, &node, row)? {
                    continue;
                }
                // Walk the predecessor links back to the start: one path, or all of them.
                let mut stack: Vec<(NodeId, Vec<Arc<Edge>>)> = vec![(*v, Vec::new())];
                while let Some((at, back)) = stack.pop() {
                    if at == start.id {
                        let edges: Vec<Arc<Edge>> = back.into_iter().rev().collect();
                        let mut ids = vec![start.id];
                        for (k, e) in edges.iter().enumerate() {
                            ids.push(other_end(e, ids[k], dir));
                        }
                        for (e, id) in edges.iter().zip(&ids[1..]) {
                            self.path_edges.push(e.clone());
                            self.path_nodes.push(seen[id].clone());
                        }
                        let cont = self.varlen_emit(pi, i, &node, row, &edges);
                        for _ in &edges {
                            self.path_edges.pop();
                            self.path_nodes.pop();
                        }
                        if !cont? {
                            return Ok(false);
                        }
                        if !all {
                            break;
                        }
                        continue;
                    }
                    for (p, e) in preds.get(&at).into_iter().flatten() {
                        let mut b = back.clone();
                        b.push(e.clone());
                        stack.push((*p, b));
                        if !all {
                            break;
                        }
                    }
                }
            }
            frontier = next;
        }
        Ok(true)
    }

    fn rel_ok(&self, rp: &RelPat, e: &Edge, row: &Row) -> Result<bool> {
        if let Some(v) = &rp.var {
            if let Some(b) = row.get(v) {
                match b {
                    Value::Relationship(b) if b.id == e.id => {}
                    _ => return Ok(false),
                }
            }
        }
        props_ok(self.ctx, rp.props.as_ref(), &e.props, row)
    }
}

fn other_end(e: &Edge, cur: NodeId, dir: Direction) -> NodeId {
    match dir {
        Direction::Outgoing => e.dst,
        Direction::Incoming => e.src,
        Direction::Both => {
            if e.src == cur {
                e.dst
            } else {
                e.src
            }
        }
    }
}

fn props_ok(
    ctx: &Ctx,
    props: Option<&Expr>,
    have: &std::collections::BTreeMap<String, Value>,
    row: &Row,
) -> Result<bool> {
    let Some(p) = props else { return Ok(true) };
    let want = eval(ctx, p, row)?;
    let Value::Map(want) = want else {
        if want.is_null() {
            return Ok(true);
        }
        return Err(CypherError::type_err("pattern properties must be a map"));
    };
    for (k, v) in &want {
        match have.get(k) {
            Some(h) if equals(h, v) == Some(true) => {}
            _ => return Ok(false),
        }
    }
    Ok(true)
}
