//! The interpreter: runs clauses one after another over materialised rows.
//!
//! Every clause consumes all rows of the previous one before the next starts, which
//! gives writes the "eager" semantics Cypher requires (a MATCH never sees rows a later
//! CREATE in the same query makes).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use navegador_graph::{
    Direction, Edge, EdgeId, GraphError, GraphRead, GraphStats, GraphWrite, Node, NodeId, Path,
    Schema, UnresolvedSite, Value,
};

use crate::ast::*;
use crate::error::{CypherError, Result};
use crate::eval::{eval, truthy, Ctx, Guard, Row};
use crate::matcher::{match_parts, part_vars};
use crate::procedures;
use crate::values::{total_cmp, type_name, Key};

/// Counters of side effects, as reported by `QueryResult::stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    pub nodes_created: u64,
    pub nodes_deleted: u64,
    pub relationships_created: u64,
    pub relationships_deleted: u64,
    pub properties_set: u64,
    pub labels_added: u64,
    pub labels_removed: u64,
}

/// The graph a query runs against: read-only or writable.
pub enum GraphHandle<'a> {
    Read(&'a dyn GraphRead),
    Write(&'a mut dyn GraphWrite),
}

impl GraphRead for GraphHandle<'_> {
    fn node(&self, id: NodeId) -> Result<Option<Node>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.node(id),
            GraphHandle::Write(g) => g.node(id),
        }
    }
    /// Read-only queries read nodes in lists; a writing query reads each when it gets to
    /// it (an earlier row may have deleted or changed it).
    fn nodes(&self, ids: &[NodeId]) -> Result<Vec<Option<Node>>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.nodes(ids),
            GraphHandle::Write(g) => ids.iter().map(|&id| g.node(id)).collect(),
        }
    }
    fn edge(&self, id: EdgeId) -> Result<Option<Edge>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.edge(id),
            GraphHandle::Write(g) => g.edge(id),
        }
    }
    fn node_ids(&self, label: Option<&str>) -> Result<Vec<NodeId>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.node_ids(label),
            GraphHandle::Write(g) => g.node_ids(label),
        }
    }
    fn node_ids_by_property(
        &self,
        label: Option<&str>,
        key: &str,
        value: &Value,
    ) -> Result<Vec<NodeId>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.node_ids_by_property(label, key, value),
            GraphHandle::Write(g) => g.node_ids_by_property(label, key, value),
        }
    }
    fn edges_of(
        &self,
        node: NodeId,
        direction: Direction,
        types: &[String],
    ) -> Result<Vec<Edge>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.edges_of(node, direction, types),
            GraphHandle::Write(g) => g.edges_of(node, direction, types),
        }
    }
    fn stats(&self) -> Result<GraphStats, GraphError> {
        match self {
            GraphHandle::Read(g) => g.stats(),
            GraphHandle::Write(g) => g.stats(),
        }
    }
    fn schema(&self) -> Result<Schema, GraphError> {
        match self {
            GraphHandle::Read(g) => g.schema(),
            GraphHandle::Write(g) => g.schema(),
        }
    }
    fn nodes_with_keys(&self, ids: &[NodeId], keys: &[String]) -> Result<Vec<Option<Node>>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.nodes_with_keys(ids, keys),
            GraphHandle::Write(g) => g.nodes_with_keys(ids, keys),
        }
    }
    fn degrees(&self, ids: &[NodeId], direction: Direction, types: &[String]) -> Result<Vec<u64>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.degrees(ids, direction, types),
            GraphHandle::Write(g) => g.degrees(ids, direction, types),
        }
    }
    fn nodes_by_degree(
        &self,
        label: Option<&str>,
        direction: Direction,
        types: &[String],
        keys: Option<&[String]>,
    ) -> Result<Vec<(Node, u64)>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.nodes_by_degree(label, direction, types, keys),
            GraphHandle::Write(g) => g.nodes_by_degree(label, direction, types, keys),
        }
    }
    fn label_groups(&self) -> Result<Vec<(Vec<String>, u64)>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.label_groups(),
            GraphHandle::Write(g) => g.label_groups(),
        }
    }
    fn unresolved_sites(&self) -> Result<Vec<UnresolvedSite>, GraphError> {
        match self {
            GraphHandle::Read(g) => g.unresolved_sites(),
            GraphHandle::Write(g) => g.unresolved_sites(),
        }
    }
}

pub struct Output {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

pub struct Exec<'a, 'p> {
    pub g: GraphHandle<'a>,
    pub params: &'p BTreeMap<String, Value>,
    pub guard: &'p Guard,
    pub gstats: GraphStats,
    pub qstats: QueryStats,
    pub deleted: BTreeSet<(bool, i64)>,
    /// `QueryOptions::max_rows`: a plain RETURN needs no more than this plus one row.
    pub max_rows: usize,
    /// Rows the current clause may stop after (set per clause by `run_single`).
    pub limit_hint: Option<usize>,
}

/// Where a clause hands out its rows one at a time (see `Exec::read_rows`).
type Sink<'s> = &'s mut dyn FnMut(Row) -> Result<bool>;

/// Rows for a projection: all of them, or a MATCH/UNWIND producing them as they come.
enum Input<'c> {
    Rows(Vec<Row>),
    Read(&'c Clause, Vec<Row>),
}

/// Variables a MATCH or UNWIND binds.
fn read_vars(c: &Clause) -> Vec<String> {
    match c {
        Clause::Match { pattern, .. } => pattern.iter().flat_map(part_vars).collect(),
        Clause::Unwind { alias, .. } => vec![alias.clone()],
        _ => vec![],
    }
}

fn is_read(c: &Clause) -> bool {
    matches!(c, Clause::Match { .. } | Clause::Unwind { .. })
}

/// The output fields a `CALL` binds, as `(index in the record, variable)`: those named by
/// `YIELD`, or all of them.
fn call_fields(p: &procedures::Procedure, yields: &[(String, Option<String>)]) -> Vec<(usize, String)> {
    if yields.is_empty() {
        return p.outputs.iter().enumerate().map(|(i, f)| (i, f.to_string())).collect();
    }
    yields
        .iter()
        .filter_map(|(f, a)| {
            let i = p.outputs.iter().position(|o| o == f)?;
            Some((i, a.clone().unwrap_or_else(|| f.clone())))
        })
        .collect()
}

/// Upper bound on rows any clause may produce; beyond it the query is refused rather
/// than exhausting memory.
pub const MAX_INTERMEDIATE_ROWS: usize = 2_000_000;

fn too_many() -> CypherError {
    CypherError::Unsupported(format!(
        "intermediate result exceeded {MAX_INTERMEDIATE_ROWS} rows; add filters or a LIMIT"
    ))
}

/// How many input rows the projection `p` can possibly use, if bounded: a plain
/// projection (no aggregation, DISTINCT, ORDER BY or WHERE) with a literal LIMIT.
/// A WHERE of WITH filters the rows after its LIMIT, so it does not count.
fn rows_needed(p: &Projection, is_return: bool, max_rows: usize) -> Option<usize> {
    if p.distinct || !p.order.is_empty() || p.items.iter().any(|i| i.expr.contains_aggregate()) {
        return None;
    }
    let lit = |e: &Option<Expr>| match e {
        Some(Expr::Lit(Value::Int(i))) if *i >= 0 => Some(Some(*i as usize)),
        None => Some(None),
        _ => None,
    };
    let skip = lit(&p.skip)?.unwrap_or(0);
    let limit = match lit(&p.limit)? {
        Some(l) => Some(l),
        None if is_return => Some(max_rows.saturating_add(1)),
        None => None,
    };
    limit.map(|l| l.min(max_rows.saturating_add(1)).saturating_add(skip))
}

macro_rules! ctx {
    ($s:expr) => {
        Ctx {
            g: &$s.g,
            params: $s.params,
            guard: $s.guard,
            stats: &$s.gstats,
            deleted: &$s.deleted,
        }
    };
}

impl Exec<'_, '_> {
    fn write(&mut self, clause: &str) -> Result<&mut dyn GraphWrite> {
        match &mut self.g {
            GraphHandle::Write(g) => Ok(&mut **g),
            GraphHandle::Read(_) => Err(CypherError::ReadOnly {
                clause: clause.to_string(),
            }),
        }
    }

    pub fn run_query(&mut self, q: &Query) -> Result<Output> {
        let mut out = self.run_single(&q.parts[0])?;
        for (i, part) in q.parts.iter().enumerate().skip(1) {
            let next = self.run_single(part)?;
            out.rows.extend(next.rows);
            if !q.union_all[i - 1] {
                out.rows = self.distinct_rows(out.rows, "UNION")?;
            }
        }
        if q.parts.len() > 1 && q.union_all.iter().all(|a| !a) {
            out.rows = self.distinct_rows(out.rows, "UNION")?;
        }
        Ok(out)
    }

    /// The first row of each set of equivalent rows, in order.
    fn distinct_rows(&self, rows: Vec<Vec<Value>>, op: &'static str) -> Result<Vec<Vec<Value>>> {
        let _op = self.guard.op(op);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for r in rows {
            self.guard.check()?;
            if seen.insert(Key(r.clone())) {
                out.push(r);
            }
        }
        Ok(out)
    }

    fn run_single(&mut self, q: &SingleQuery) -> Result<Output> {
        self.run_single_from(q, Row::new())
    }

    /// Runs `q` starting from one row (the outer row of a correlated subquery).
    pub fn run_single_from(&mut self, q: &SingleQuery, start: Row) -> Result<Output> {
        if start.is_empty() {
            if let Some(out) = self.count_from_stats(q) {
                return Ok(out);
            }
        }
        let mut scope: Vec<String> = start.keys().cloned().collect();
        let mut rows = vec![start];
        // A MATCH or UNWIND right before a projection hands its rows over as they come:
        // an aggregation holds its groups, not every matched row.
        let mut pending: Option<&Clause> = None;
        for (i, c) in q.clauses.iter().enumerate() {
            let next = q.clauses.get(i + 1);
            if pending.is_none() {
                self.limit_hint = match next {
                    Some(Clause::Return(p)) if is_read(c) => rows_needed(p, true, self.max_rows),
                    Some(Clause::With(p)) if is_read(c) => rows_needed(p, false, self.max_rows),
                    _ => None,
                };
            }
            if is_read(c) && matches!(next, Some(Clause::With(_) | Clause::Return(_))) {
                for v in read_vars(c) {
                    if !scope.contains(&v) {
                        scope.push(v);
                    }
                }
                pending = Some(c);
                continue;
            }
            let guard = self.guard;
            let _op = guard.op(c.name());
            let input = match pending.take() {
                Some(read) => Input::Read(read, std::mem::take(&mut rows)),
                None => Input::Rows(std::mem::take(&mut rows)),
            };
            match c {
                Clause::Return(p) => {
                    let (names, out) = self.project(input, p, &scope)?;
                    let rows = out
                        .into_iter()
                        .map(|mut r| {
                            names
                                .iter()
                                .map(|n| r.remove(n).unwrap_or(Value::Null))
                                .collect()
                        })
                        .collect();
                    return Ok(Output {
                        columns: names,
                        rows,
                    });
                }
                Clause::With(p) => {
                    let (names, out) = self.project(input, p, &scope)?;
                    scope = names;
                    rows = out;
                }
                _ => {
                    let Input::Rows(input) = input else {
                        unreachable!("only a projection reads rows as they come")
                    };
                    rows = self.clause(c, input, &mut scope)?;
                }
            }
        }
        // A standalone `CALL` returns its records.
        if let Some(Clause::Call { name, yields, .. }) = q.clauses.last() {
            if let Some(p) = procedures::lookup(name) {
                let columns: Vec<String> = call_fields(p, yields).into_iter().map(|(_, v)| v).collect();
                let rows = rows
                    .iter()
                    .map(|r| columns.iter().map(|c| r.get(c).cloned().unwrap_or(Value::Null)).collect())
                    .collect();
                return Ok(Output { columns, rows });
            }
        }
        Ok(Output {
            columns: vec![],
            rows: vec![],
        })
    }

    /// `MATCH (n:L) RETURN count(*)`, `MATCH ()-[r:T]->() RETURN count(r)` and the like,
    /// answered from the graph's exact counts (`GraphRead::stats`: a store's catalog)
    /// without a scan: one pattern, a bare node with at most one label or one bare directed
    /// relationship with at most one type between bare nodes, no WHERE, and a RETURN of
    /// only `count(*)` or `count(v)` of the pattern's variables.
    fn count_from_stats(&self, q: &SingleQuery) -> Option<Output> {
        let [Clause::Match { optional: false, pattern, where_: None, .. }, Clause::Return(p)] = &q.clauses[..] else {
            return None;
        };
        let [part] = &pattern[..] else { return None };
        if part.var.is_some() || part.shortest != Shortest::No || p.distinct || p.star || p.skip.is_some() || p.limit.is_some() || p.where_.is_some() {
            return None;
        }
        let bare = |n: &NodePat| n.props.is_none() && n.labels.is_empty();
        let st = &self.gstats;
        let (n, vars) = match &part.chain[..] {
            [] => {
                let s = &part.start;
                let n = match (&s.labels[..], &s.props) {
                    ([], None) => st.node_count,
                    ([one], None) if one.len() == 1 => st.label_counts.get(&one[0]).copied().unwrap_or(0),
                    _ => return None,
                };
                (n, vec![s.var.as_deref()])
            }
            // (not `(a)-[]->(a)`: only loops)
            [(r, end)]
                if bare(&part.start)
                    && bare(end)
                    && (part.start.var.is_none() || part.start.var != end.var)
                    && r.props.is_none()
                    && r.range.is_none()
                    && r.dir != Dir::Both =>
            {
                let n = match &r.types[..] {
                    [] => st.edge_count(),
                    [t] => st.edge_counts.get(t).copied().unwrap_or(0),
                    _ => return None,
                };
                (n, vec![part.start.var.as_deref(), r.var.as_deref(), end.var.as_deref()])
            }
            _ => return None,
        };
        let counted = |e: &Expr| match e {
            Expr::CountStar => true,
            Expr::Func { name, distinct: false, args } if name.eq_ignore_ascii_case("count") => {
                matches!(&args[..], [Expr::Var(v)] if vars.contains(&Some(v.as_str())))
            }
            _ => false,
        };
        if p.items.is_empty() || !p.items.iter().all(|i| counted(&i.expr)) {
            return None;
        }
        Some(Output {
            columns: p.items.iter().map(|i| i.name().to_string()).collect(),
            rows: vec![vec![Value::Int(n as i64); p.items.len()]],
        })
    }

    /// Hands the rows of `input` to `emit` one at a time.
    fn feed(&self, input: Input, emit: Sink) -> Result<()> {
        match input {
            Input::Rows(rows) => {
                for r in rows {
                    if !emit(r)? {
                        break;
                    }
                }
                Ok(())
            }
            Input::Read(c, rows) => self.read_rows(c, rows, emit),
        }
    }

    fn clause(&mut self, c: &Clause, rows: Vec<Row>, scope: &mut Vec<String>) -> Result<Vec<Row>> {
        let add_scope = |scope: &mut Vec<String>, vars: Vec<String>| {
            for v in vars {
                if !scope.contains(&v) {
                    scope.push(v);
                }
            }
        };
        Ok(match c {
            Clause::Match { .. } | Clause::Unwind { .. } => {
                add_scope(scope, read_vars(c));
                let mut out = Vec::new();
                self.read_rows(c, rows, &mut |r| {
                    out.push(r);
                    if out.len() > MAX_INTERMEDIATE_ROWS {
                        return Err(too_many());
                    }
                    Ok(true)
                })?;
                out
            }
            Clause::With(p) => {
                let (names, out) = self.project(Input::Rows(rows), p, scope)?;
                *scope = names;
                out
            }
            Clause::Return(_) => unreachable!("RETURN is handled by run_single"),
            Clause::Create { pattern, .. } => {
                add_scope(scope, pattern.iter().flat_map(part_vars).collect());
                let mut out = Vec::with_capacity(rows.len());
                for mut row in rows {
                    for part in pattern {
                        self.create_part(part, &mut row)?;
                    }
                    out.push(row);
                }
                out
            }
            Clause::Merge {
                part,
                on_create,
                on_match,
                ..
            } => {
                add_scope(scope, part_vars(part));
                let mut out = Vec::new();
                for row in rows {
                    let mut found = Vec::new();
                    {
                        let ctx = ctx!(self);
                        let mut props: Vec<&Expr> =
                            part.nodes().filter_map(|n| n.props.as_ref()).collect();
                        props.extend(part.chain.iter().filter_map(|(r, _)| r.props.as_ref()));
                        for p in props {
                            if let Value::Map(m) = eval(&ctx, p, &row)? {
                                if m.values().any(Value::is_null) {
                                    return Err(CypherError::Runtime {
                                        code: "MergeReadOwnWrites",
                                        message: "MERGE cannot use null property values".into(),
                                    });
                                }
                            }
                        }
                        match_parts(&ctx, std::slice::from_ref(part), None, &row, &mut |r| {
                            found.push(r);
                            Ok(true)
                        })?;
                    }
                    if found.is_empty() {
                        let mut r = row;
                        self.create_part(part, &mut r)?;
                        self.set_items(on_create, &mut r)?;
                        out.push(r);
                    } else {
                        for mut r in found {
                            self.set_items(on_match, &mut r)?;
                            out.push(r);
                        }
                    }
                }
                self.refresh(out)?
            }
            Clause::Set { items, .. } => {
                let mut out = Vec::with_capacity(rows.len());
                for mut row in rows {
                    self.set_items(items, &mut row)?;
                    out.push(row);
                }
                self.refresh(out)?
            }
            Clause::Remove { items, .. } => {
                let mut out = Vec::with_capacity(rows.len());
                for mut row in rows {
                    for it in items {
                        match it {
                            RemoveItem::Prop { target, key } => {
                                let t = eval(&ctx!(self), target, &row)?;
                                self.set_prop(&t, key, Value::Null, "REMOVE")?;
                            }
                            RemoveItem::Labels { var, labels } => {
                                if let Some(Value::Node(n)) = row.get(var).cloned() {
                                    for l in labels {
                                        if self.write("REMOVE")?.remove_label(n.id, l)? {
                                            self.qstats.labels_removed += 1;
                                        }
                                    }
                                }
                            }
                        }
                        self.refresh_row(&mut row)?;
                    }
                    out.push(row);
                }
                self.refresh(out)?
            }
            Clause::Delete { detach, exprs, .. } => {
                let mut nodes: Vec<NodeId> = Vec::new();
                let mut edges: Vec<EdgeId> = Vec::new();
                {
                    let ctx = ctx!(self);
                    for row in &rows {
                        for e in exprs {
                            collect_deletes(eval(&ctx, e, row)?, &mut nodes, &mut edges)?;
                        }
                    }
                }
                let name = if *detach { "DETACH DELETE" } else { "DELETE" };
                for e in edges {
                    self.deleted.insert((false, e.0));
                    match self.write(name)?.delete_edge(e) {
                        Ok(()) => self.qstats.relationships_deleted += 1,
                        Err(GraphError::EdgeNotFound(_)) => {}
                        Err(err) => return Err(err.into()),
                    }
                }
                for n in nodes {
                    if *detach {
                        for e in self.g.edges_of(n, Direction::Both, &[])? {
                            self.deleted.insert((false, e.id.0));
                        }
                    }
                    self.deleted.insert((true, n.0));
                    match self.write(name)?.delete_node(n, *detach) {
                        Ok(k) => {
                            self.qstats.nodes_deleted += 1;
                            self.qstats.relationships_deleted += k as u64;
                        }
                        Err(GraphError::NodeNotFound(_)) => {}
                        Err(GraphError::NodeHasEdges(id)) => {
                            return Err(CypherError::Constraint {
                                message: format!("cannot delete node {id} because it still has relationships; use DETACH DELETE"),
                            })
                        }
                        Err(err) => return Err(err.into()),
                    }
                }
                rows
            }
            Clause::Foreach {
                var, list, body, ..
            } => {
                for row in &rows {
                    let items = match eval(&ctx!(self), list, row)? {
                        Value::Null => vec![],
                        Value::List(l) => l,
                        other => {
                            return Err(CypherError::type_err(format!(
                                "FOREACH expects a list, got {}",
                                type_name(&other)
                            )))
                        }
                    };
                    for it in items {
                        let mut r = row.clone();
                        r.insert(var.clone(), it);
                        let mut inner_rows = vec![r];
                        let mut inner_scope = scope.clone();
                        inner_scope.push(var.clone());
                        for c in body {
                            inner_rows = self.clause(c, inner_rows, &mut inner_scope)?;
                        }
                    }
                }
                self.refresh(rows)?
            }
            Clause::Call { name, yields, where_, .. } => {
                let p = procedures::lookup(name).ok_or_else(|| CypherError::Procedure { name: name.clone() })?;
                let fields = call_fields(p, yields);
                add_scope(scope, fields.iter().map(|(_, v)| v.clone()).collect());
                let wanted: Vec<usize> = fields.iter().map(|(i, _)| *i).collect();
                let records = p.records(&self.g, &wanted)?;
                let ctx = ctx!(self);
                let mut out = Vec::new();
                for row in rows {
                    for rec in &records {
                        ctx.guard.check()?;
                        let mut r = row.clone();
                        for (i, v) in &fields {
                            r.insert(v.clone(), rec[*i].clone());
                        }
                        if let Some(w) = where_ {
                            if truthy(&eval(&ctx, w, &r)?)? != Some(true) {
                                continue;
                            }
                        }
                        out.push(r);
                    }
                }
                out
            }
            Clause::LoadCsv { .. } => return Err(CypherError::Unsupported("LOAD CSV".into())),
        })
    }

    /// The rows a MATCH or UNWIND makes from `rows`, handed to `emit` one at a time (it
    /// returns false to stop), at most `limit_hint` of them.
    fn read_rows(&self, c: &Clause, rows: Vec<Row>, emit: Sink) -> Result<()> {
        let _op = self.guard.op(c.name());
        let ctx = ctx!(self);
        let mut emitted = 0usize;
        match c {
            Clause::Match {
                optional,
                pattern,
                where_,
                ..
            } => {
                let new_vars: Vec<String> = pattern.iter().flat_map(part_vars).collect();
                // shortestPath filters the matches of one input row as a whole: they are
                // gathered first.
                let shortest = pattern.iter().any(|p| p.shortest != Shortest::No);
                let cap = if shortest {
                    usize::MAX
                } else {
                    self.limit_hint.unwrap_or(usize::MAX)
                };
                for row in rows {
                    ctx.guard.check()?;
                    if emitted >= cap {
                        break;
                    }
                    let mut found = 0usize;
                    let mut gathered = Vec::new();
                    let mut err = None;
                    let mut stop = false;
                    match_parts(&ctx, pattern, where_.as_ref(), &row, &mut |r| {
                        if let Some(w) = where_ {
                            match eval(&ctx, w, &r).and_then(|v| truthy(&v)) {
                                Ok(Some(true)) => {}
                                Ok(_) => return Ok(true),
                                Err(e) => {
                                    err = Some(e);
                                    return Ok(false);
                                }
                            }
                        }
                        found += 1;
                        if shortest {
                            gathered.push(r);
                            return Ok(true);
                        }
                        emitted += 1;
                        match emit(r) {
                            Ok(true) => Ok(emitted < cap),
                            Ok(false) => {
                                stop = true;
                                Ok(false)
                            }
                            Err(e) => {
                                err = Some(e);
                                Ok(false)
                            }
                        }
                    })?;
                    if let Some(e) = err {
                        return Err(e);
                    }
                    if stop {
                        return Ok(());
                    }
                    keep_shortest(pattern, &mut gathered, 0);
                    for r in gathered {
                        emitted += 1;
                        if !emit(r)? {
                            return Ok(());
                        }
                    }
                    if *optional && found == 0 {
                        let mut r = row;
                        for v in &new_vars {
                            r.entry(v.clone()).or_insert(Value::Null);
                        }
                        emitted += 1;
                        if !emit(r)? {
                            return Ok(());
                        }
                    }
                }
            }
            Clause::Unwind { expr, alias, .. } => {
                let cap = self.limit_hint.unwrap_or(usize::MAX);
                for row in rows {
                    ctx.guard.check()?;
                    let items = match eval(&ctx, expr, &row)? {
                        Value::Null => vec![],
                        Value::List(l) => l,
                        other => vec![other],
                    };
                    for it in items {
                        ctx.guard.check()?;
                        if emitted >= cap {
                            return Ok(());
                        }
                        let mut r = row.clone();
                        r.insert(alias.clone(), it);
                        emitted += 1;
                        if !emit(r)? {
                            return Ok(());
                        }
                    }
                }
            }
            other => unreachable!("{} does not read rows", other.name()),
        }
        Ok(())
    }

    /// Re-reads nodes and relationships bound in rows after a write.
    fn refresh(&self, mut rows: Vec<Row>) -> Result<Vec<Row>> {
        for r in &mut rows {
            self.refresh_row(r)?;
        }
        Ok(rows)
    }

    fn refresh_row(&self, r: &mut Row) -> Result<()> {
        for v in r.values_mut() {
            self.refresh_value(v)?;
        }
        Ok(())
    }

    fn refresh_value(&self, v: &mut Value) -> Result<()> {
        match v {
            Value::Node(n) => {
                if let Some(f) = self.g.node(n.id)? {
                    *n = Arc::new(f);
                }
            }
            Value::Relationship(e) => {
                if let Some(f) = self.g.edge(e.id)? {
                    *e = Arc::new(f);
                }
            }
            Value::List(l) => {
                for x in l {
                    self.refresh_value(x)?;
                }
            }
            Value::Path(p) => {
                let p = Arc::make_mut(p);
                for n in &mut p.nodes {
                    if let Some(f) = self.g.node(n.id)? {
                        *n = f;
                    }
                }
                for e in &mut p.edges {
                    if let Some(f) = self.g.edge(e.id)? {
                        *e = f;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn eval_props(&self, e: Option<&Expr>, row: &Row) -> Result<BTreeMap<String, Value>> {
        let Some(e) = e else {
            return Ok(BTreeMap::new());
        };
        match eval(&ctx!(self), e, row)? {
            Value::Map(m) => {
                for (k, v) in &m {
                    check_storable(k, v)?;
                }
                Ok(m.into_iter().filter(|(_, v)| !v.is_null()).collect())
            }
            Value::Null => Ok(BTreeMap::new()),
            other => Err(CypherError::type_err(format!(
                "properties must be a map, got {}",
                type_name(&other)
            ))),
        }
    }

    fn create_part(&mut self, part: &PatternPart, row: &mut Row) -> Result<()> {
        let mut nodes: Vec<Node> = Vec::new();
        for np in part.nodes() {
            if let Some(Value::Node(n)) = np.var.as_ref().and_then(|v| row.get(v)) {
                nodes.push((**n).clone());
                continue;
            }
            if let Some(Some(Value::Null)) = np.var.as_ref().map(|v| row.get(v)) {
                return Err(CypherError::semantic(
                    "VariableAlreadyBound",
                    "cannot create a relationship to a null node",
                ));
            }
            let props = self.eval_props(np.props.as_ref(), row)?;
            let labels: Vec<String> = np.labels.iter().flatten().cloned().collect();
            let nprops = props.len() as u64;
            let g = self.write("CREATE")?;
            let id = g.create_node(&labels, props)?;
            let node = g.node(id)?.ok_or(GraphError::NodeNotFound(id))?;
            self.qstats.nodes_created += 1;
            self.qstats.labels_added += node.labels.len() as u64;
            self.qstats.properties_set += nprops;
            if let Some(v) = &np.var {
                row.insert(v.clone(), Value::Node(Arc::new(node.clone())));
            }
            nodes.push(node);
        }
        let mut edges = Vec::new();
        for (i, (rp, _)) in part.chain.iter().enumerate() {
            let props = self.eval_props(rp.props.as_ref(), row)?;
            let (src, dst) = match rp.dir {
                Dir::Left => (nodes[i + 1].id, nodes[i].id),
                _ => (nodes[i].id, nodes[i + 1].id),
            };
            let ty = rp.types.first().cloned().unwrap_or_default();
            let nprops = props.len() as u64;
            let g = self.write("CREATE")?;
            let id = g.create_edge(src, dst, &ty, props)?;
            let e = g.edge(id)?.ok_or(GraphError::EdgeNotFound(id))?;
            self.qstats.relationships_created += 1;
            self.qstats.properties_set += nprops;
            if let Some(v) = &rp.var {
                row.insert(v.clone(), Value::Relationship(Arc::new(e.clone())));
            }
            edges.push(e);
        }
        if let Some(v) = &part.var {
            row.insert(v.clone(), Value::Path(Arc::new(Path { nodes, edges })));
        }
        Ok(())
    }

    fn set_prop(&mut self, target: &Value, key: &str, value: Value, clause: &str) -> Result<()> {
        check_storable(key, &value)?;
        match target {
            Value::Null => {}
            Value::Node(n) => {
                self.write(clause)?.set_node_property(n.id, key, value)?;
                self.qstats.properties_set += 1;
            }
            Value::Relationship(r) => {
                self.write(clause)?.set_edge_property(r.id, key, value)?;
                self.qstats.properties_set += 1;
            }
            other => {
                return Err(CypherError::type_err(format!(
                    "cannot set a property on {}",
                    type_name(other)
                )))
            }
        }
        Ok(())
    }

    fn set_items(&mut self, items: &[SetItem], row: &mut Row) -> Result<()> {
        // Earlier rows of this clause may have written to entities this row holds.
        if !items.is_empty() {
            self.refresh_row(row)?;
        }
        for it in items {
            match it {
                SetItem::Prop { target, key, value } => {
                    let (t, v) = {
                        let ctx = ctx!(self);
                        (eval(&ctx, target, row)?, eval(&ctx, value, row)?)
                    };
                    self.set_prop(&t, key, v, "SET")?;
                }
                SetItem::Replace { var, value } | SetItem::Merge { var, value } => {
                    let replace = matches!(it, SetItem::Replace { .. });
                    let t = row.get(var).cloned().unwrap_or(Value::Null);
                    let v = eval(&ctx!(self), value, row)?;
                    let map = match v {
                        Value::Map(m) => m,
                        Value::Node(n) => n.props.clone(),
                        Value::Relationship(r) => r.props.clone(),
                        Value::Null if replace => BTreeMap::new(),
                        Value::Null => continue,
                        other => {
                            return Err(CypherError::type_err(format!(
                                "SET expects a map, got {}",
                                type_name(&other)
                            )))
                        }
                    };
                    let existing: Vec<String> = match &t {
                        Value::Node(n) => n.props.keys().cloned().collect(),
                        Value::Relationship(r) => r.props.keys().cloned().collect(),
                        Value::Null => continue,
                        other => {
                            return Err(CypherError::type_err(format!(
                                "cannot set properties on {}",
                                type_name(other)
                            )))
                        }
                    };
                    if replace {
                        for k in existing {
                            if !map.contains_key(&k) {
                                self.set_prop(&t, &k, Value::Null, "SET")?;
                            }
                        }
                    }
                    for (k, v) in map {
                        self.set_prop(&t, &k, v, "SET")?;
                    }
                }
                SetItem::Labels { var, labels } => {
                    if let Some(Value::Node(n)) = row.get(var).cloned() {
                        for l in labels {
                            if self.write("SET")?.add_label(n.id, l)? {
                                self.qstats.labels_added += 1;
                            }
                        }
                    }
                }
            }
            self.refresh_row(row)?;
        }
        Ok(())
    }

    /// WITH / RETURN: projection, aggregation, DISTINCT, ORDER BY, SKIP, LIMIT, WHERE.
    fn project(
        &self,
        input: Input,
        p: &Projection,
        scope: &[String],
    ) -> Result<(Vec<String>, Vec<Row>)> {
        let mut items: Vec<ProjItem> = Vec::new();
        if p.star {
            let mut vars: Vec<String> = scope
                .iter()
                .filter(|v| !v.starts_with(' '))
                .cloned()
                .collect();
            vars.sort();
            for v in vars {
                items.push(ProjItem {
                    expr: Expr::Var(v.clone()),
                    alias: None,
                    text: v,
                });
            }
        }
        items.extend(p.items.iter().cloned());
        let names: Vec<String> = items.iter().map(|i| i.name().to_string()).collect();
        let aggregating = items.iter().any(|i| i.expr.contains_aggregate());
        let ctx = ctx!(self);

        // (output row, context row for ORDER BY)
        let mut produced: Vec<(Row, Row)> = Vec::new();
        if aggregating {
            let mut aggs: Vec<Expr> = Vec::new();
            let rewritten: Vec<Expr> = items
                .iter()
                .map(|i| rewrite_aggs(&i.expr, &mut aggs))
                .collect();
            let order_rw: Vec<Expr> = p
                .order
                .iter()
                .map(|(e, _)| rewrite_aggs(e, &mut aggs))
                .collect();
            let key_idx: Vec<usize> = (0..items.len())
                .filter(|i| !items[*i].expr.contains_aggregate())
                .collect();
            let guard = self.guard;
            let _op = guard.op("aggregation");
            let mut groups: BTreeMap<Key, usize> = BTreeMap::new();
            let mut states: Vec<(Row, Vec<AggState>)> = Vec::new();
            // A count over a simple MATCH gets one row per group of rows it cannot tell
            // apart, with how many rows it stands for (`pushdown.rs`).
            let weighted = match (&input, &self.g) {
                (Input::Read(c, rows), GraphHandle::Read(_)) => {
                    crate::pushdown::weighted_rows(&ctx, c, rows, p)?
                }
                _ => None,
            };
            {
                let mut add = |row: Row, weight: Option<u64>| -> Result<()> {
                    ctx.guard.check()?;
                    let key = Key(key_idx
                        .iter()
                        .map(|i| eval(&ctx, &items[*i].expr, &row))
                        .collect::<Result<_>>()?);
                    let gi = match groups.get(&key) {
                        Some(g) => *g,
                        None => {
                            groups.insert(key, states.len());
                            states.push((
                                row.clone(),
                                aggs.iter().map(|_| AggState::default()).collect(),
                            ));
                            states.len() - 1
                        }
                    };
                    for (k, a) in aggs.iter().enumerate() {
                        match weight {
                            Some(w) => states[gi].1[k].update_weighted(a, w),
                            None => states[gi].1[k].update(&ctx, a, &row)?,
                        }
                    }
                    Ok(())
                };
                match weighted {
                    Some(rows) => {
                        for (row, w) in rows {
                            add(row, Some(w))?;
                        }
                    }
                    None => self.feed(input, &mut |row| {
                        add(row, None)?;
                        Ok(true)
                    })?,
                }
            }
            if states.is_empty() && key_idx.is_empty() {
                states.push((
                    Row::new(),
                    aggs.iter().map(|_| AggState::default()).collect(),
                ));
            }
            for (first, st) in states {
                ctx.guard.check()?;
                let mut r = first;
                for (k, (a, s)) in aggs.iter().zip(st).enumerate() {
                    r.insert(agg_name(k), s.finish(&ctx, a, &r)?);
                }
                let mut out = Row::new();
                for (n, e) in names.iter().zip(&rewritten) {
                    out.insert(n.clone(), eval(&ctx, e, &r)?);
                }
                let mut c = r;
                c.extend(out.clone());
                produced.push((out, c));
            }
            // ORDER BY expressions evaluated on the aggregated context.
            if !p.order.is_empty() {
                let mut keyed = Vec::with_capacity(produced.len());
                for (out, c) in produced {
                    ctx.guard.check()?;
                    let mut ks = Vec::new();
                    for e in &order_rw {
                        ks.push(eval(&ctx, e, &c)?);
                    }
                    keyed.push((ks, out, c));
                }
                return self.finish_projection(p, names, keyed, true);
            }
        } else {
            // The input row is kept only for what reads it after the projection.
            let context = p.where_.is_some() || !p.order.is_empty();
            self.feed(input, &mut |row| {
                ctx.guard.check()?;
                let mut out = Row::new();
                for (n, i) in names.iter().zip(&items) {
                    out.insert(n.clone(), eval(&ctx, &i.expr, &row)?);
                }
                let c = if context {
                    let mut c = row;
                    c.extend(out.clone());
                    c
                } else {
                    Row::new()
                };
                produced.push((out, c));
                Ok(true)
            })?;
        }
        let keyed = produced
            .into_iter()
            .map(|(o, c)| (Vec::new(), o, c))
            .collect();
        self.finish_projection(p, names, keyed, false)
    }

    fn finish_projection(
        &self,
        p: &Projection,
        names: Vec<String>,
        mut rows: Vec<(Vec<Value>, Row, Row)>,
        keys_ready: bool,
    ) -> Result<(Vec<String>, Vec<Row>)> {
        let ctx = ctx!(self);
        if p.distinct {
            let _op = ctx.guard.op("DISTINCT");
            let mut seen = BTreeSet::new();
            let mut kept = Vec::new();
            for r in rows {
                ctx.guard.check()?;
                if seen.insert(Key(names.iter().map(|n| r.1[n].clone()).collect())) {
                    kept.push(r);
                }
            }
            rows = kept;
        }
        if !p.order.is_empty() {
            let _op = ctx.guard.op("ORDER BY");
            if !keys_ready {
                for (ks, _, c) in rows.iter_mut() {
                    ctx.guard.check()?;
                    for (e, _) in &p.order {
                        ks.push(eval(&ctx, e, c)?);
                    }
                }
            }
            let asc: Vec<bool> = p.order.iter().map(|(_, a)| *a).collect();
            sort_within(ctx.guard, &mut rows, |a, b| {
                for (i, up) in asc.iter().enumerate() {
                    let o = total_cmp(&a.0[i], &b.0[i]);
                    let o = if *up { o } else { o.reverse() };
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            })?;
        }
        let skip = count_arg(&ctx, p.skip.as_ref(), "SKIP")?.unwrap_or(0);
        let limit = count_arg(&ctx, p.limit.as_ref(), "LIMIT")?;
        let mut rows: Vec<(Vec<Value>, Row, Row)> = rows.into_iter().skip(skip).collect();
        if let Some(l) = limit {
            rows.truncate(l);
        }
        let mut out = Vec::with_capacity(rows.len());
        for (_, o, c) in rows {
            ctx.guard.check()?;
            if let Some(w) = &p.where_ {
                if truthy(&eval(&ctx, w, &c)?)? != Some(true) {
                    continue;
                }
            }
            out.push(o);
        }
        Ok((names, out))
    }
}

/// A stable sort that gives up when the query's time runs out or it is cancelled: the
/// comparator looks at the clock every few thousand comparisons and, once the budget is
/// spent, lets the sort finish quickly with everything equal.
fn sort_within<T>(
    guard: &Guard,
    rows: &mut [T],
    mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering,
) -> Result<()> {
    let mut n = 0u32;
    let mut stopped: Option<CypherError> = None;
    rows.sort_by(|a, b| {
        if stopped.is_some() {
            return std::cmp::Ordering::Equal;
        }
        n = n.wrapping_add(1);
        if n & 4095 == 0 {
            if let Err(e) = guard.clock() {
                stopped = Some(e);
                return std::cmp::Ordering::Equal;
            }
        }
        cmp(a, b)
    });
    stopped.map_or(Ok(()), Err)
}

fn count_arg(ctx: &Ctx, e: Option<&Expr>, what: &str) -> Result<Option<usize>> {
    let Some(e) = e else { return Ok(None) };
    match eval(ctx, e, &Row::new()) {
        Ok(Value::Int(i)) if i >= 0 => Ok(Some(i as usize)),
        Ok(Value::Int(_)) => Err(CypherError::semantic(
            "NegativeIntegerArgument",
            format!("{what} must not be negative"),
        )),
        Ok(other) => Err(CypherError::semantic(
            "InvalidArgumentType",
            format!("{what} expects an integer, got {}", type_name(&other)),
        )),
        Err(CypherError::Semantic {
            code: "UndefinedVariable",
            ..
        }) => Err(CypherError::semantic(
            "NonConstantExpression",
            format!("{what} must be a constant expression"),
        )),
        Err(e) => Err(e),
    }
}

fn check_storable(key: &str, v: &Value) -> Result<()> {
    match v {
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::String(_) => Ok(()),
        Value::List(items) => {
            let mut kind = None;
            for it in items {
                let k = type_name(it);
                if matches!(
                    it,
                    Value::List(_)
                        | Value::Map(_)
                        | Value::Node(_)
                        | Value::Relationship(_)
                        | Value::Path(_)
                ) {
                    return Err(CypherError::type_err(format!(
                        "property `{key}` cannot hold a list of {k}"
                    )));
                }
                if it.is_null() {
                    continue;
                }
                let k = if k == "FLOAT" { "INTEGER" } else { k };
                if kind.is_some_and(|x| x != k) {
                    return Err(CypherError::type_err(format!(
                        "property `{key}` cannot hold a mixed list"
                    )));
                }
                kind = Some(k);
            }
            Ok(())
        }
        other => Err(CypherError::type_err(format!(
            "property `{key}` cannot hold a {}",
            type_name(other)
        ))),
    }
}

fn collect_deletes(v: Value, nodes: &mut Vec<NodeId>, edges: &mut Vec<EdgeId>) -> Result<()> {
    match v {
        Value::Null => {}
        Value::Node(n) => nodes.push(n.id),
        Value::Relationship(r) => edges.push(r.id),
        Value::Path(p) => {
            edges.extend(p.edges.iter().map(|e| e.id));
            nodes.extend(p.nodes.iter().map(|n| n.id));
        }
        Value::List(l) => {
            for x in l {
                collect_deletes(x, nodes, edges)?;
            }
        }
        other => {
            return Err(CypherError::type_err(format!(
                "DELETE expects a node, relationship or path, got {}",
                type_name(&other)
            )))
        }
    }
    Ok(())
}

fn agg_name(k: usize) -> String {
    format!("  agg{k}")
}

/// Replaces aggregate calls with placeholder variables, collecting the calls.
fn rewrite_aggs(e: &Expr, aggs: &mut Vec<Expr>) -> Expr {
    if e.is_aggregate_call() {
        aggs.push(e.clone());
        return Expr::Var(agg_name(aggs.len() - 1));
    }
    let mut e = e.clone();
    map_children(&mut e, &mut |c| *c = rewrite_aggs(c, aggs));
    e
}

fn map_children(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match e {
        Expr::Prop(x, _) | Expr::Unary(_, x) | Expr::IsNull(x, _) | Expr::HasLabels(x, _) => f(x),
        Expr::List(v) => v.iter_mut().for_each(f),
        Expr::Map(v) => v.iter_mut().for_each(|(_, x)| f(x)),
        Expr::Binary(_, a, b) | Expr::Index(a, b) => {
            f(a);
            f(b)
        }
        Expr::Compare(a, rest) => {
            f(a);
            rest.iter_mut().for_each(|(_, x)| f(x))
        }
        Expr::Slice(a, b, c) => {
            f(a);
            b.iter_mut().for_each(|x| f(x));
            c.iter_mut().for_each(|x| f(x));
        }
        Expr::Func { args, .. } => args.iter_mut().for_each(f),
        Expr::Case {
            subject,
            whens,
            else_,
        } => {
            subject.iter_mut().for_each(|x| f(x));
            whens.iter_mut().for_each(|(a, b)| {
                f(a);
                f(b)
            });
            else_.iter_mut().for_each(|x| f(x));
        }
        Expr::ListComp {
            list, pred, proj, ..
        } => {
            f(list);
            pred.iter_mut().for_each(|x| f(x));
            proj.iter_mut().for_each(|x| f(x));
        }
        Expr::Quantifier { list, pred, .. } => {
            f(list);
            f(pred)
        }
        Expr::Reduce {
            init, list, expr, ..
        } => {
            f(init);
            f(list);
            f(expr)
        }
        Expr::MapProj(_, items) => items.iter_mut().for_each(|i| {
            if let MapItem::Lit(_, x) = i {
                f(x)
            }
        }),
        _ => {}
    }
}

#[derive(Default)]
struct AggState {
    rows: u64,
    values: Vec<Value>,
    /// Non-null values counted without being kept (`update_weighted`).
    counted: u64,
}

impl AggState {
    /// `weight` rows at once, for `count(*)` or `count(v)` of a variable that is never
    /// null (the only aggregates `pushdown.rs` answers).
    fn update_weighted(&mut self, agg: &Expr, weight: u64) {
        self.rows += weight;
        if matches!(agg, Expr::Func { .. }) {
            self.counted += weight;
        }
    }

    fn update(&mut self, ctx: &Ctx, agg: &Expr, row: &Row) -> Result<()> {
        self.rows += 1;
        if let Expr::Func { args, .. } = agg {
            if let Some(a) = args.first() {
                let v = eval(ctx, a, row)?;
                if !v.is_null() {
                    self.values.push(v);
                }
            }
        }
        Ok(())
    }

    fn finish(self, ctx: &Ctx, agg: &Expr, row: &Row) -> Result<Value> {
        let Expr::Func {
            name,
            distinct,
            args,
        } = agg
        else {
            return Ok(Value::Int(self.rows as i64));
        };
        let mut vals = self.values;
        if *distinct {
            let mut seen = BTreeSet::new();
            vals.retain(|v| seen.insert(Key(vec![v.clone()])));
        }
        let lname = name.to_ascii_lowercase();
        Ok(match lname.as_str() {
            "count" => Value::Int((vals.len() as u64 + self.counted) as i64),
            "collect" => Value::List(vals),
            "min" => vals
                .into_iter()
                .min_by(total_cmp_ref)
                .unwrap_or(Value::Null),
            "max" => vals
                .into_iter()
                .max_by(total_cmp_ref)
                .unwrap_or(Value::Null),
            "sum" | "avg" => {
                let mut int_sum: Option<i64> = Some(0);
                let mut f_sum = 0.0;
                for v in &vals {
                    match v {
                        Value::Int(i) => {
                            int_sum = int_sum.and_then(|s| s.checked_add(*i));
                            f_sum += *i as f64;
                        }
                        Value::Float(x) => {
                            int_sum = None;
                            f_sum += x;
                        }
                        other => {
                            return Err(CypherError::type_err(format!(
                                "{name}() expects numbers, got {}",
                                type_name(other)
                            )))
                        }
                    }
                }
                if lname == "avg" {
                    if vals.is_empty() {
                        Value::Null
                    } else {
                        Value::Float(f_sum / vals.len() as f64)
                    }
                } else if vals.iter().all(|v| matches!(v, Value::Int(_))) {
                    Value::Int(int_sum.ok_or_else(|| {
                        CypherError::arg("NumberOutOfRange", "integer overflow in sum()")
                    })?)
                } else {
                    Value::Float(f_sum)
                }
            }
            "stdev" | "stdevp" => {
                let xs: Vec<f64> = vals.iter().map(crate::values::as_f64).collect();
                let n = xs.len() as f64;
                let denom = if lname == "stdev" { n - 1.0 } else { n };
                if xs.is_empty() || denom <= 0.0 {
                    Value::Float(0.0)
                } else {
                    let mean = xs.iter().sum::<f64>() / n;
                    Value::Float(
                        (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / denom).sqrt(),
                    )
                }
            }
            "percentilecont" | "percentiledisc" => {
                let p = match args.get(1).map(|e| eval(ctx, e, row)).transpose()? {
                    Some(Value::Int(i)) => i as f64,
                    Some(Value::Float(f)) => f,
                    _ => {
                        return Err(CypherError::arg(
                            "InvalidArgumentValue",
                            "percentile must be a number",
                        ))
                    }
                };
                if !(0.0..=1.0).contains(&p) {
                    return Err(CypherError::arg(
                        "NumberOutOfRange",
                        "percentile must be between 0.0 and 1.0",
                    ));
                }
                let mut xs: Vec<Value> = vals;
                sort_within(ctx.guard, &mut xs, total_cmp_ref)?;
                if xs.is_empty() {
                    return Ok(Value::Null);
                }
                if lname == "percentiledisc" {
                    let idx = ((p * xs.len() as f64).ceil() as usize)
                        .saturating_sub(1)
                        .min(xs.len() - 1);
                    xs[idx].clone()
                } else {
                    let pos = p * (xs.len() - 1) as f64;
                    let lo = pos.floor() as usize;
                    let hi = pos.ceil() as usize;
                    let (a, b) = (
                        crate::values::as_f64(&xs[lo]),
                        crate::values::as_f64(&xs[hi]),
                    );
                    Value::Float(a + (b - a) * (pos - lo as f64))
                }
            }
            _ => {
                return Err(CypherError::semantic(
                    "UnknownFunction",
                    format!("unknown aggregate {name}()"),
                ))
            }
        })
    }
}

fn total_cmp_ref(a: &Value, b: &Value) -> std::cmp::Ordering {
    total_cmp(a, b)
}

/// Applies `shortestPath` / `allShortestPaths` to the rows one input row produced
/// (`rows[from..]`): per pair of end nodes only the shortest paths survive.
fn keep_shortest(pattern: &[PatternPart], rows: &mut Vec<Row>, from: usize) {
    for part in pattern.iter().filter(|p| p.shortest != Shortest::No) {
        let Some(var) = &part.var else { continue };
        let key = |r: &Row| match r.get(var) {
            Some(Value::Path(p)) => {
                Some((p.nodes[0].id, p.nodes[p.nodes.len() - 1].id, p.edges.len()))
            }
            _ => None,
        };
        let mut best: BTreeMap<(NodeId, NodeId), usize> = BTreeMap::new();
        for r in &rows[from..] {
            if let Some((a, b, len)) = key(r) {
                let e = best.entry((a, b)).or_insert(len);
                *e = (*e).min(len);
            }
        }
        let mut taken: BTreeSet<(NodeId, NodeId)> = BTreeSet::new();
        let tail: Vec<Row> = rows.drain(from..).collect();
        for r in tail {
            match key(&r) {
                Some((a, b, len)) if best[&(a, b)] == len => {
                    if part.shortest == Shortest::One && !taken.insert((a, b)) {
                        continue;
                    }
                    rows.push(r);
                }
                Some(_) => {}
                None => rows.push(r),
            }
        }
    }
}
