//! Expression evaluation over one row, with Cypher's null propagation and
//! three-valued boolean logic.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use navegador_graph::{GraphRead, GraphStats, Value};

use crate::ast::{BinOp, CmpOp, Expr, MapItem, Quant, UnOp};
use crate::error::{CypherError, Result};
use crate::functions;
use crate::matcher;
use crate::memory::{MemoryPool, Meter, Refusal};
use crate::values::{compare, equals, type_name};

/// Variables bound in the current row.
pub type Row = BTreeMap<String, Value>;

/// When a query must stop: its deadline and its cancellation flag. `Send`, so the
/// parser's thread can check it too.
#[derive(Clone, Debug)]
pub struct Stop {
    pub deadline: Instant,
    pub timeout: Duration,
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Stop {
    pub fn new(started: Instant, timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> Stop {
        Stop {
            deadline: started
                .checked_add(timeout)
                .unwrap_or(started + Duration::from_secs(86_400 * 365)),
            timeout,
            cancel,
        }
    }

    pub fn check(&self) -> Result<()> {
        self.check_leaving(Duration::ZERO)
    }

    /// Stops when less than `margin` is left before the deadline.
    pub fn check_leaving(&self, margin: Duration) -> Result<()> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(AtomicOrdering::Relaxed))
        {
            return Err(CypherError::Cancelled);
        }
        if Instant::now() + margin >= self.deadline {
            return Err(CypherError::Timeout(self.timeout));
        }
        Ok(())
    }
}

/// The budgets of one query, checked in every loop that can run long: time and
/// cancellation every `CLOCK_EVERY` steps, memory at every step and before every large
/// allocation. `op` names what is running, for the error when a budget runs out.
pub struct Guard {
    pub stop: Stop,
    meter: Meter,
    ticks: Cell<u32>,
    operator: Cell<&'static str>,
    /// When a budget ran out, and the blocks the query held then.
    stopped: Cell<Option<(Instant, u64)>>,
}

/// Steps between two reads of the clock.
const CLOCK_EVERY: u32 = 16;

/// An allocation this large reads the clock too: copying it takes a while.
const BIG_ALLOCATION: u64 = 1 << 20;

/// Restores the previous operator name when dropped (see `Guard::op`).
pub struct OpScope<'g> {
    guard: &'g Guard,
    previous: &'static str,
}

impl Drop for OpScope<'_> {
    fn drop(&mut self) {
        self.guard.operator.set(self.previous);
    }
}

impl Guard {
    /// Starts the budgets of a query; with a pool, waits for its first chunk of memory
    /// until the deadline.
    pub fn new(stop: Stop, memory: u64, pool: Option<Arc<MemoryPool>>) -> Result<Guard> {
        let pool_limit = pool.as_ref().map(|p| p.limit());
        let meter = Meter::start(memory, pool, stop.deadline)
            .map_err(|r| memory_error(r, memory, pool_limit, "the wait for memory"))?;
        Ok(Guard {
            stop,
            meter,
            ticks: Cell::new(0),
            operator: Cell::new("the query"),
            stopped: Cell::new(None),
        })
    }

    /// A guard for work outside a query (a check on constants): small budgets.
    pub fn standalone(timeout: Duration) -> Guard {
        let stop = Stop::new(Instant::now(), timeout, None);
        Guard::new(stop, 16 << 20, None).expect("no pool to wait for")
    }

    /// Names the operator running until the returned scope is dropped.
    pub fn op(&self, name: &'static str) -> OpScope<'_> {
        OpScope {
            guard: self,
            previous: self.operator.replace(name),
        }
    }

    /// One step of a loop: memory now, the clock and cancellation every few steps.
    pub fn check(&self) -> Result<()> {
        self.memory(0)?;
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if t & (CLOCK_EVERY - 1) == 0 {
            self.clock()?;
        }
        Ok(())
    }

    /// Time and cancellation, keeping back the time freeing the query's memory takes.
    pub fn clock(&self) -> Result<()> {
        self.stop
            .check_leaving(self.meter.cleanup_time())
            .inspect_err(|_| self.note_stop())
    }

    fn note_stop(&self) {
        if self.stopped.get().is_none() {
            self.stopped
                .set(Some((Instant::now(), self.meter.blocks())));
        }
    }

    /// After a query that stopped at a budget has dropped what it held: learns how long
    /// freeing took, so that deadlines keep back the right time.
    pub fn learn_cleanup(&self) {
        if let Some((at, blocks)) = self.stopped.get() {
            let freed = blocks.saturating_sub(self.meter.blocks());
            crate::memory::learn_free_time(freed, at.elapsed());
        }
    }

    /// Before allocating `bytes` in one go: refuses if the query could not hold them.
    pub fn reserve(&self, bytes: usize) -> Result<()> {
        self.memory(bytes as u64)?;
        if bytes as u64 >= BIG_ALLOCATION {
            self.clock()?;
        }
        Ok(())
    }

    /// Before copying `v`: refuses if the query could not hold a second one.
    pub fn reserve_copy(&self, v: &Value) -> Result<()> {
        match v {
            Value::String(s) => self.reserve(s.len()),
            Value::List(_) | Value::Map(_) => self.reserve(crate::memory::copy_size(v)),
            _ => Ok(()),
        }
    }

    /// Counts `bytes` allocated for this query on another thread (the parser's) as held
    /// by it, within its budget.
    pub fn adopt(&self, bytes: i64) -> Result<()> {
        self.meter.adopt(bytes);
        self.memory(0)
    }

    fn memory(&self, more: u64) -> Result<()> {
        self.meter.check(more).map_err(|r| {
            self.note_stop();
            memory_error(
                r,
                self.meter.limit(),
                self.meter.pool_limit(),
                self.operator.get(),
            )
        })
    }
}

fn memory_error(r: Refusal, limit: u64, pool: Option<u64>, operator: &str) -> CypherError {
    match r {
        Refusal::Query => CypherError::MemoryLimit {
            limit,
            operator: operator.to_string(),
        },
        Refusal::Pool => CypherError::MemoryBusy {
            pool: pool.unwrap_or(limit),
            operator: operator.to_string(),
        },
    }
}

/// What expressions can see besides the row.
pub struct Ctx<'a> {
    pub g: &'a dyn GraphRead,
    pub params: &'a BTreeMap<String, Value>,
    pub guard: &'a Guard,
    pub stats: &'a GraphStats,
    /// Entities deleted earlier in this query, as (is_node, id).
    pub deleted: &'a std::collections::BTreeSet<(bool, i64)>,
}

pub fn truthy(v: &Value) -> Result<Option<bool>> {
    match v {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(*b)),
        other => Err(CypherError::type_err(format!(
            "expected a boolean, got {}",
            type_name(other)
        ))),
    }
}

fn opt_bool(b: Option<bool>) -> Value {
    b.map_or(Value::Null, Value::Bool)
}

pub fn eval(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    match e {
        Expr::Lit(v) => Ok(v.clone()),
        Expr::Param(p) => ctx.params.get(p).cloned().ok_or_else(|| {
            CypherError::semantic("ParameterMissing", format!("expected parameter ${p}"))
        }),
        Expr::Var(v) => match row.get(v) {
            Some(x) => {
                ctx.guard.reserve_copy(x)?;
                Ok(x.clone())
            }
            None => Err(CypherError::semantic(
                "UndefinedVariable",
                format!("variable `{v}` not defined"),
            )),
        },
        Expr::Prop(t, key) => {
            let t = eval(ctx, t, row)?;
            check_not_deleted(ctx, &t)?;
            let v = property(&t, key)?;
            ctx.guard.check()?;
            Ok(v)
        }
        Expr::List(items) => Ok(Value::List(
            items
                .iter()
                .map(|i| eval(ctx, i, row))
                .collect::<Result<_>>()?,
        )),
        Expr::Map(items) => {
            let mut m = BTreeMap::new();
            for (k, v) in items {
                m.insert(k.clone(), eval(ctx, v, row)?);
            }
            Ok(Value::Map(m))
        }
        Expr::Unary { .. } => eval_arm_1(ctx, e, row),
        Expr::Binary(op, a, b) => binary(ctx, *op, a, b, row),
        Expr::Compare { .. } => eval_arm_2(ctx, e, row),
        Expr::IsNull(x, neg) => {
            let v = eval(ctx, x, row)?;
            Ok(Value::Bool(v.is_null() != *neg))
        }
        Expr::Index(t, i) => {
            let t = eval(ctx, t, row)?;
            let i = eval(ctx, i, row)?;
            index(&t, &i)
        }
        Expr::Slice { .. } => eval_arm_3(ctx, e, row),
        Expr::Func { .. } => eval_arm_4(ctx, e, row),
        Expr::CountStar => Err(CypherError::semantic(
            "InvalidAggregation",
            "count(*) is not allowed here",
        )),
        Expr::Case { .. } => eval_arm_5(ctx, e, row),
        Expr::ListComp { .. } => eval_arm_6(ctx, e, row),
        Expr::Quantifier { .. } => eval_arm_7(ctx, e, row),
        Expr::Reduce { .. } => eval_arm_8(ctx, e, row),
        Expr::PatternPred { .. } => eval_arm_9(ctx, e, row),
        Expr::Exists { .. } => eval_arm_10(ctx, e, row),
        Expr::PatternComp { .. } => eval_arm_11(ctx, e, row),
        Expr::MapProj { .. } => eval_arm_12(ctx, e, row),
        Expr::ExistsQuery(q) => {
            let _op = ctx.guard.op("EXISTS subquery");
            let mut ex = crate::exec::Exec {
                g: crate::exec::GraphHandle::Read(ctx.g),
                params: ctx.params,
                guard: ctx.guard,
                gstats: ctx.stats.clone(),
                qstats: Default::default(),
                deleted: ctx.deleted.clone(),
                max_rows: usize::MAX,
                limit_hint: None,
            };
            let out = ex.run_single_from(q, row.clone())?;
            Ok(Value::Bool(!out.rows.is_empty()))
        }
        Expr::CountQuery(q) => {
            let _op = ctx.guard.op("COUNT subquery");
            let mut ex = crate::exec::Exec {
                g: crate::exec::GraphHandle::Read(ctx.g),
                params: ctx.params,
                guard: ctx.guard,
                gstats: ctx.stats.clone(),
                qstats: Default::default(),
                deleted: ctx.deleted.clone(),
                max_rows: usize::MAX,
                limit_hint: None,
            };
            let out = ex.run_single_from(q, row.clone())?;
            Ok(Value::Int(out.rows.len() as i64))
        }
        Expr::HasLabels { .. } => eval_arm_13(ctx, e, row),
    }
}

#[inline(never)]
fn eval_arm_1(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Unary(op, x) = e else {
        unreachable!("dispatched on the variant")
    };
    let v = eval(ctx, x, row)?;
    match (op, v) {
        (_, Value::Null) => Ok(Value::Null),
        (UnOp::Not, v) => Ok(opt_bool(truthy(&v)?.map(|b| !b))),
        (UnOp::Neg, Value::Int(i)) => i
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(|| CypherError::arg("NumberOutOfRange", "integer overflow")),
        (UnOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnOp::Plus, v @ (Value::Int(_) | Value::Float(_))) => Ok(v),
        (_, v) => Err(CypherError::type_err(format!(
            "cannot negate {}",
            type_name(&v)
        ))),
    }
}

#[inline(never)]
fn eval_arm_2(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Compare(first, rest) = e else {
        unreachable!("dispatched on the variant")
    };
    let mut left = eval(ctx, first, row)?;
    let mut result = Some(true);
    for (op, r) in rest {
        let right = eval(ctx, r, row)?;
        let this = compare_op(*op, &left, &right);
        result = match (result, this) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        };
        left = right;
    }
    Ok(opt_bool(result))
}

#[inline(never)]
fn eval_arm_3(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Slice(t, lo, hi) = e else {
        unreachable!("dispatched on the variant")
    };
    let t = eval(ctx, t, row)?;
    let lo = lo.as_ref().map(|x| eval(ctx, x, row)).transpose()?;
    let hi = hi.as_ref().map(|x| eval(ctx, x, row)).transpose()?;
    ctx.guard.reserve_copy(&t)?;
    slice(&t, lo, hi)
}

#[inline(never)]
fn eval_arm_4(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Func {
        name,
        distinct: _,
        args,
    } = e
    else {
        unreachable!("dispatched on the variant")
    };
    let lname = name.to_ascii_lowercase();
    if crate::ast::AGGREGATES.contains(&lname.as_str()) {
        return Err(CypherError::semantic(
            "InvalidAggregation",
            format!("aggregate {name}() is not allowed here"),
        ));
    }
    if lname == "exists" && args.len() == 1 {
        if let Expr::PatternPred(_) = &args[0] {
            return eval(ctx, &args[0], row);
        }
        let v = eval(ctx, &args[0], row)?;
        return Ok(Value::Bool(!v.is_null()));
    }
    if lname == "coalesce" {
        for a in args {
            let v = eval(ctx, a, row)?;
            if !v.is_null() {
                return Ok(v);
            }
        }
        return Ok(Value::Null);
    }
    let vals = args
        .iter()
        .map(|a| eval(ctx, a, row))
        .collect::<Result<Vec<_>>>()?;
    functions::call(ctx, &lname, name, vals)
}

#[inline(never)]
fn eval_arm_5(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Case {
        subject,
        whens,
        else_,
    } = e
    else {
        unreachable!("dispatched on the variant")
    };
    if let Some(s) = subject {
        let s = eval(ctx, s, row)?;
        for (w, t) in whens {
            let w = eval(ctx, w, row)?;
            if equals(&s, &w) == Some(true) {
                return eval(ctx, t, row);
            }
        }
    } else {
        for (w, t) in whens {
            let w = eval(ctx, w, row)?;
            if matches!(w, Value::Bool(true)) {
                return eval(ctx, t, row);
            }
        }
    }
    match else_ {
        Some(e) => eval(ctx, e, row),
        None => Ok(Value::Null),
    }
}

#[inline(never)]
fn eval_arm_6(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::ListComp {
        var,
        list,
        pred,
        proj,
    } = e
    else {
        unreachable!("dispatched on the variant")
    };
    let l = eval(ctx, list, row)?;
    let items = match l {
        Value::Null => return Ok(Value::Null),
        Value::List(v) => v,
        other => {
            return Err(CypherError::type_err(format!(
                "expected a list, got {}",
                type_name(&other)
            )))
        }
    };
    let _op = ctx.guard.op("a list comprehension");
    let mut out = Vec::new();
    let mut inner = row.clone();
    for it in items {
        ctx.guard.check()?;
        ctx.guard.reserve_copy(&it)?;
        inner.insert(var.clone(), it.clone());
        if let Some(p) = pred {
            if truthy(&eval(ctx, p, &inner)?)? != Some(true) {
                continue;
            }
        }
        out.push(match proj {
            Some(p) => eval(ctx, p, &inner)?,
            None => it,
        });
    }
    Ok(Value::List(out))
}

#[inline(never)]
fn eval_arm_7(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Quantifier {
        kind,
        var,
        list,
        pred,
    } = e
    else {
        unreachable!("dispatched on the variant")
    };
    let l = eval(ctx, list, row)?;
    let items = match l {
        Value::Null => return Ok(Value::Null),
        Value::List(v) => v,
        other => {
            return Err(CypherError::type_err(format!(
                "expected a list, got {}",
                type_name(&other)
            )))
        }
    };
    let _op = ctx.guard.op("a quantifier");
    let mut inner = row.clone();
    let (mut trues, mut nulls) = (0usize, 0usize);
    let n = items.len();
    for it in items {
        ctx.guard.check()?;
        inner.insert(var.clone(), it);
        match truthy(&eval(ctx, pred, &inner)?)? {
            Some(true) => trues += 1,
            None => nulls += 1,
            Some(false) => {}
        }
    }
    let falses = n - trues - nulls;
    Ok(match kind {
        Quant::All => {
            if falses > 0 {
                Value::Bool(false)
            } else if nulls > 0 {
                Value::Null
            } else {
                Value::Bool(true)
            }
        }
        Quant::Any => {
            if trues > 0 {
                Value::Bool(true)
            } else if nulls > 0 {
                Value::Null
            } else {
                Value::Bool(false)
            }
        }
        Quant::None => {
            if trues > 0 {
                Value::Bool(false)
            } else if nulls > 0 {
                Value::Null
            } else {
                Value::Bool(true)
            }
        }
        Quant::Single => {
            if trues > 1 {
                Value::Bool(false)
            } else if nulls > 0 {
                Value::Null
            } else {
                Value::Bool(trues == 1)
            }
        }
    })
}

#[inline(never)]
fn eval_arm_8(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Reduce {
        acc,
        init,
        var,
        list,
        expr,
    } = e
    else {
        unreachable!("dispatched on the variant")
    };
    let mut a = eval(ctx, init, row)?;
    let items = match eval(ctx, list, row)? {
        Value::Null => return Ok(Value::Null),
        Value::List(v) => v,
        other => {
            return Err(CypherError::type_err(format!(
                "expected a list, got {}",
                type_name(&other)
            )))
        }
    };
    let _op = ctx.guard.op("reduce()");
    let mut inner = row.clone();
    for it in items {
        ctx.guard.check()?;
        inner.insert(var.clone(), it);
        inner.insert(acc.clone(), a);
        a = eval(ctx, expr, &inner)?;
    }
    Ok(a)
}

#[inline(never)]
fn eval_arm_9(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::PatternPred(part) = e else {
        unreachable!("dispatched on the variant")
    };
    let mut found = false;
    matcher::match_parts(ctx, std::slice::from_ref(&**part), None, row, &mut |_| {
        found = true;
        Ok(false)
    })?;
    Ok(Value::Bool(found))
}

#[inline(never)]
fn eval_arm_10(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::Exists { pattern, where_ } = e else {
        unreachable!("dispatched on the variant")
    };
    let mut found = false;
    let mut err = None;
    matcher::match_parts(ctx, pattern, where_.as_deref(), row, &mut |r| {
        if let Some(w) = where_ {
            match eval(ctx, w, &r).and_then(|v| truthy(&v)) {
                Ok(Some(true)) => {}
                Ok(_) => return Ok(true),
                Err(e) => {
                    err = Some(e);
                    return Ok(false);
                }
            }
        }
        found = true;
        Ok(false)
    })?;
    if let Some(e) = err {
        return Err(e);
    }
    Ok(Value::Bool(found))
}

#[inline(never)]
fn eval_arm_11(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::PatternComp { part, pred, proj } = e else {
        unreachable!("dispatched on the variant")
    };
    let _op = ctx.guard.op("a pattern comprehension");
    let mut out = Vec::new();
    let mut err = None;
    matcher::match_parts(
        ctx,
        std::slice::from_ref(&**part),
        pred.as_deref(),
        row,
        &mut |r| {
            let res = (|| -> Result<()> {
                if let Some(p) = pred {
                    if truthy(&eval(ctx, p, &r)?)? != Some(true) {
                        return Ok(());
                    }
                }
                out.push(eval(ctx, proj, &r)?);
                Ok(())
            })();
            match res {
                Ok(()) => Ok(true),
                Err(e) => {
                    err = Some(e);
                    Ok(false)
                }
            }
        },
    )?;
    if let Some(e) = err {
        return Err(e);
    }
    Ok(Value::List(out))
}

#[inline(never)]
fn eval_arm_12(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::MapProj(var, items) = e else {
        unreachable!("dispatched on the variant")
    };
    let base = row.get(var).cloned().ok_or_else(|| {
        CypherError::semantic("UndefinedVariable", format!("variable `{var}` not defined"))
    })?;
    if base.is_null() {
        return Ok(Value::Null);
    }
    let props = match &base {
        Value::Node(n) => n.props.clone(),
        Value::Relationship(r) => r.props.clone(),
        Value::Map(m) => m.clone(),
        other => {
            return Err(CypherError::type_err(format!(
                "cannot project {}",
                type_name(other)
            )))
        }
    };
    let mut m = BTreeMap::new();
    for it in items {
        match it {
            MapItem::All => m.extend(props.clone()),
            MapItem::Prop(k) => {
                m.insert(k.clone(), props.get(k).cloned().unwrap_or(Value::Null));
            }
            MapItem::Var(v) => {
                m.insert(v.clone(), eval(ctx, &Expr::Var(v.clone()), row)?);
            }
            MapItem::Lit(k, e) => {
                m.insert(k.clone(), eval(ctx, e, row)?);
            }
        }
    }
    Ok(Value::Map(m))
}

#[inline(never)]
fn eval_arm_13(ctx: &Ctx, e: &Expr, row: &Row) -> Result<Value> {
    let Expr::HasLabels(x, groups) = e else {
        unreachable!("dispatched on the variant")
    };
    let v = eval(ctx, x, row)?;
    match v {
        Value::Null => Ok(Value::Null),
        Value::Node(n) => Ok(Value::Bool(
            groups
                .iter()
                .all(|g| g.iter().any(|l| n.labels.contains(l))),
        )),
        Value::Relationship(r) => Ok(Value::Bool(groups.iter().all(|g| g.contains(&r.rel_type)))),
        other => Err(CypherError::type_err(format!(
            "cannot check labels of {}",
            type_name(&other)
        ))),
    }
}

pub fn check_not_deleted(ctx: &Ctx, v: &Value) -> Result<()> {
    let gone = match v {
        Value::Node(n) => ctx.deleted.contains(&(true, n.id.0)),
        Value::Relationship(r) => ctx.deleted.contains(&(false, r.id.0)),
        _ => false,
    };
    if gone {
        return Err(CypherError::EntityNotFound {
            message: "the entity was deleted earlier in this query".into(),
        });
    }
    Ok(())
}

pub fn property(t: &Value, key: &str) -> Result<Value> {
    match t {
        Value::Null => Ok(Value::Null),
        Value::Node(n) => Ok(n.props.get(key).cloned().unwrap_or(Value::Null)),
        Value::Relationship(r) => Ok(r.props.get(key).cloned().unwrap_or(Value::Null)),
        Value::Map(m) => Ok(m.get(key).cloned().unwrap_or(Value::Null)),
        other => Err(CypherError::type_err(format!(
            "cannot read property `{key}` of {}",
            type_name(other)
        ))),
    }
}

fn compare_op(op: CmpOp, l: &Value, r: &Value) -> Option<bool> {
    match op {
        CmpOp::Eq => equals(l, r),
        CmpOp::Ne => equals(l, r).map(|b| !b),
        _ => {
            if l.is_null() || r.is_null() {
                return None;
            }
            let nan = |v: &Value| matches!(v, Value::Float(f) if f.is_nan());
            if (nan(l) || nan(r))
                && matches!(l, Value::Int(_) | Value::Float(_))
                && matches!(r, Value::Int(_) | Value::Float(_))
            {
                return Some(false);
            }
            let o = compare(l, r)?;
            Some(match op {
                CmpOp::Lt => o.is_lt(),
                CmpOp::Le => o.is_le(),
                CmpOp::Gt => o.is_gt(),
                CmpOp::Ge => o.is_ge(),
                _ => unreachable!("handled above"),
            })
        }
    }
}

fn binary(ctx: &Ctx, op: BinOp, a: &Expr, b: &Expr, row: &Row) -> Result<Value> {
    match op {
        BinOp::And | BinOp::Or | BinOp::Xor => {
            let l = truthy(&eval(ctx, a, row)?)?;
            let r = truthy(&eval(ctx, b, row)?)?;
            let v = match op {
                BinOp::And => match (l, r) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                },
                BinOp::Or => match (l, r) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                },
                _ => match (l, r) {
                    (Some(x), Some(y)) => Some(x != y),
                    _ => None,
                },
            };
            return Ok(opt_bool(v));
        }
        _ => {}
    }
    let l = eval(ctx, a, row)?;
    let r = eval(ctx, b, row)?;
    if op == BinOp::Add {
        // A concatenation allocates its result in one go: ask first.
        let bytes = match (&l, &r) {
            (Value::String(x), Value::String(y)) => x.len() + y.len(),
            (Value::String(x), _) | (_, Value::String(x)) => x.len() + 32,
            (Value::List(x), Value::List(y)) => (x.len() + y.len()) * std::mem::size_of::<Value>(),
            (Value::List(x), _) | (_, Value::List(x)) => {
                (x.len() + 1) * std::mem::size_of::<Value>()
            }
            _ => 0,
        };
        if bytes > 0 {
            let _op = ctx.guard.op(
                if matches!(l, Value::List(_)) || matches!(r, Value::List(_)) {
                    "a list concatenation"
                } else {
                    "a string concatenation"
                },
            );
            ctx.guard.reserve(bytes)?;
        }
    }
    binary_values(op, l, r)
}

pub fn binary_values(op: BinOp, l: Value, r: Value) -> Result<Value> {
    use Value::*;
    let overflow = || CypherError::arg("NumberOutOfRange", "integer overflow");
    match op {
        BinOp::In => {
            let items = match r {
                Null => return Ok(Null),
                List(v) => v,
                other => {
                    return Err(CypherError::type_err(format!(
                        "IN expects a list, got {}",
                        type_name(&other)
                    )))
                }
            };
            let mut unknown = false;
            for it in &items {
                match equals(&l, it) {
                    Some(true) => return Ok(Bool(true)),
                    None => unknown = true,
                    _ => {}
                }
            }
            return Ok(if unknown { Null } else { Bool(false) });
        }
        BinOp::StartsWith | BinOp::EndsWith | BinOp::Contains | BinOp::Regex => {
            return Ok(match (&l, &r) {
                (String(s), String(p)) => Bool(match op {
                    BinOp::StartsWith => s.starts_with(p.as_str()),
                    BinOp::EndsWith => s.ends_with(p.as_str()),
                    BinOp::Contains => s.contains(p.as_str()),
                    _ => regex_matches(p, s)?,
                }),
                _ => Null,
            });
        }
        _ => {}
    }
    if l.is_null() || r.is_null() {
        return Ok(Null);
    }
    let bad = |l: &Value, r: &Value| {
        CypherError::type_err(format!(
            "cannot apply {op:?} to {} and {}",
            type_name(l),
            type_name(r)
        ))
    };
    Ok(match op {
        BinOp::Add => match (l, r) {
            (Int(x), Int(y)) => Int(x.checked_add(y).ok_or_else(overflow)?),
            (Int(x), Float(y)) => Float(x as f64 + y),
            (Float(x), Int(y)) => Float(x + y as f64),
            (Float(x), Float(y)) => Float(x + y),
            // Results are allocated at their exact size: a doubling buffer would hold up to
            // twice what the budget was asked for.
            (String(x), String(y)) => String(concat(&x, &y)),
            (String(x), y @ (Int(_) | Float(_) | Bool(_))) => {
                String(concat(&x, &scalar_string(&y)))
            }
            (x @ (Int(_) | Float(_) | Bool(_)), String(y)) => {
                String(concat(&scalar_string(&x), &y))
            }
            (List(x), List(y)) => {
                let mut v = Vec::with_capacity(x.len() + y.len());
                v.extend(x);
                v.extend(y);
                List(v)
            }
            (List(x), y) => {
                let mut v = Vec::with_capacity(x.len() + 1);
                v.extend(x);
                v.push(y);
                List(v)
            }
            (x, List(y)) => {
                let mut v = Vec::with_capacity(y.len() + 1);
                v.push(x);
                v.extend(y);
                List(v)
            }
            (l, r) => return Err(bad(&l, &r)),
        },
        BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => match (l, r) {
            (Int(x), Int(y)) => Int(match op {
                BinOp::Sub => x.checked_sub(y).ok_or_else(overflow)?,
                BinOp::Mul => x.checked_mul(y).ok_or_else(overflow)?,
                BinOp::Div => {
                    if y == 0 {
                        return Err(CypherError::arg("DivisionByZero", "division by zero"));
                    }
                    x.checked_div(y).ok_or_else(overflow)?
                }
                _ => {
                    if y == 0 {
                        return Err(CypherError::arg("DivisionByZero", "modulo by zero"));
                    }
                    x.checked_rem(y).ok_or_else(overflow)?
                }
            }),
            (l @ (Int(_) | Float(_)), r @ (Int(_) | Float(_))) => {
                let (x, y) = (crate::values::as_f64(&l), crate::values::as_f64(&r));
                Float(match op {
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    _ => x % y,
                })
            }
            (l, r) => return Err(bad(&l, &r)),
        },
        BinOp::Pow => match (&l, &r) {
            (Int(_) | Float(_), Int(_) | Float(_)) => {
                Float(crate::values::as_f64(&l).powf(crate::values::as_f64(&r)))
            }
            _ => return Err(bad(&l, &r)),
        },
        _ => unreachable!("boolean and predicate operators are handled above"),
    })
}

fn concat(x: &str, y: &str) -> std::string::String {
    let mut s = std::string::String::with_capacity(x.len() + y.len());
    s.push_str(x);
    s.push_str(y);
    s
}

/// String form of a scalar for concatenation and `toString`.
pub fn scalar_string(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_float(*f),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else if f == f.trunc() && f.abs() < 1e16 {
        format!("{f:.1}")
    } else {
        let s = format!("{f}");
        if s.contains('e') || s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    }
}

fn index(t: &Value, i: &Value) -> Result<Value> {
    match (t, i) {
        (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
        (Value::List(l), Value::Int(i)) => {
            let n = l.len() as i64;
            let k = if *i < 0 { n + i } else { *i };
            Ok(if k < 0 || k >= n {
                Value::Null
            } else {
                l[k as usize].clone()
            })
        }
        (Value::List(_), other) => Err(CypherError::type_err(format!(
            "list index must be an integer, got {}",
            type_name(other)
        ))),
        (Value::Map(_) | Value::Node(_) | Value::Relationship(_), Value::String(k)) => {
            property(t, k)
        }
        (Value::Map(_) | Value::Node(_) | Value::Relationship(_), other) => {
            Err(CypherError::Type {
                code: "MapElementAccessByNonString",
                message: format!("map key must be a string, got {}", type_name(other)),
            })
        }
        (other, _) => Err(CypherError::type_err(format!(
            "cannot index into {}",
            type_name(other)
        ))),
    }
}

fn slice(t: &Value, lo: Option<Value>, hi: Option<Value>) -> Result<Value> {
    let l = match t {
        Value::Null => return Ok(Value::Null),
        Value::List(l) => l,
        other => {
            return Err(CypherError::type_err(format!(
                "cannot slice {}",
                type_name(other)
            )))
        }
    };
    let n = l.len() as i64;
    let norm = |v: Option<Value>, default: i64| -> Result<Option<i64>> {
        match v {
            None => Ok(Some(default)),
            Some(Value::Null) => Ok(None),
            Some(Value::Int(i)) => Ok(Some((if i < 0 { n + i } else { i }).clamp(0, n))),
            Some(other) => Err(CypherError::type_err(format!(
                "slice bound must be an integer, got {}",
                type_name(&other)
            ))),
        }
    };
    let (Some(a), Some(b)) = (norm(lo, 0)?, norm(hi, n)?) else {
        return Ok(Value::Null);
    };
    if a >= b {
        return Ok(Value::List(vec![]));
    }
    Ok(Value::List(l[a as usize..b as usize].to_vec()))
}

/// `s =~ pattern` (whole-string match). Compiled patterns are cached per thread, since
/// a WHERE clause applies the same pattern to every row; the size limits keep a
/// hostile pattern from using unbounded memory.
fn regex_matches(pattern: &str, s: &str) -> Result<bool> {
    use std::collections::HashMap;
    thread_local! {
        static CACHE: std::cell::RefCell<HashMap<String, regex::Regex>> = std::cell::RefCell::new(HashMap::new());
    }
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if !c.contains_key(pattern) {
            let re = regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
                .size_limit(1 << 20)
                .dfa_size_limit(1 << 20)
                .build()
                .map_err(|e| {
                    CypherError::arg("InvalidArgumentValue", format!("invalid regex: {e}"))
                })?;
            if c.len() >= 64 {
                c.clear();
            }
            c.insert(pattern.to_string(), re);
        }
        Ok(c[pattern].is_match(s))
    })
}
