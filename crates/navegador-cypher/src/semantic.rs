//! Checks on the parsed query before anything runs: the read-only policy, variable
//! scoping and kinds, clause composition, aggregation placement and function arity.

use std::collections::BTreeMap;

use crate::ast::*;
use crate::error::{CypherError, Result};
use crate::eval::Guard;
use crate::functions::known_arity;
use navegador_graph::Value;
use crate::procedures;

/// Refuses any clause with a side effect, and a procedure call unless the procedure is
/// registered as read-only (`procedures.rs`).
pub fn check_read_only(q: &Query) -> Result<()> {
    fn clauses(cs: &[Clause]) -> Result<()> {
        for c in cs {
            match c {
                Clause::Create { .. }
                | Clause::Merge { .. }
                | Clause::Set { .. }
                | Clause::Remove { .. }
                | Clause::Delete { .. }
                | Clause::Foreach { .. }
                | Clause::LoadCsv { .. } => {
                    return Err(CypherError::ReadOnly { clause: c.name().to_string() });
                }
                Clause::Call { name, .. } if !procedures::lookup(name).is_some_and(|p| p.read_only) => {
                    return Err(CypherError::ReadOnly { clause: format!("CALL {name}") });
                }
                _ => {}
            }
        }
        Ok(())
    }
    for p in &q.parts {
        clauses(&p.clauses)?;
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Node,
    Rel,
    Path,
    /// Definitely not a graph entity (a literal, list, map, arithmetic result).
    Value,
    Any,
}

fn kind_of(scope: &Scope, e: &Expr) -> Kind {
    match e {
        Expr::Var(v) => scope.get(v).copied().unwrap_or(Kind::Any),
        Expr::Lit(v) if v.is_null() => Kind::Any,
        Expr::Lit(_)
        | Expr::List(_)
        | Expr::Map(_)
        | Expr::Binary(..)
        | Expr::Compare(..)
        | Expr::Unary(..)
        | Expr::IsNull(..)
        | Expr::ListComp { .. }
        | Expr::PatternComp { .. }
        | Expr::MapProj(..)
        | Expr::Quantifier { .. }
        | Expr::HasLabels(..)
        | Expr::Exists { .. }
        | Expr::CountStar => Kind::Value,
        _ => Kind::Any,
    }
}

type Scope = BTreeMap<String, Kind>;

/// Scope, composition and aggregation checks; errors map to openCypher `SyntaxError`s.
/// What the checks evaluate (predicates over constant lists) runs within `guard`.
pub fn check(q: &Query, guard: &Guard) -> Result<()> {
    check_scopes(q)?;
    let mut r = Ok(());
    q.walk(&mut |e| {
        if let (
            Ok(()),
            Expr::Quantifier {
                var, list, pred, ..
            },
        ) = (&r, e)
        {
            r = constant_quantifier(var, list, pred, guard);
        }
    });
    r
}

/// Refuses a query that reads a parameter the request did not give, before any work.
pub fn check_parameters(q: &Query, params: &BTreeMap<String, Value>) -> Result<()> {
    let mut missing: Option<String> = None;
    q.walk(&mut |e| {
        if let Expr::Param(p) = e {
            if missing.is_none() && !params.contains_key(p) {
                missing = Some(p.clone());
            }
        }
    });
    match missing {
        Some(p) => Err(CypherError::semantic(
            "ParameterMissing",
            format!("expected parameter ${p}"),
        )),
        None => Ok(()),
    }
}

fn check_scopes(q: &Query) -> Result<()> {
    let mut columns: Option<Vec<String>> = None;
    if q.union_all.len() > 1 && q.union_all.iter().any(|a| *a) && q.union_all.iter().any(|a| !*a) {
        return Err(CypherError::semantic(
            "InvalidClauseComposition",
            "cannot mix UNION and UNION ALL",
        ));
    }
    for part in &q.parts {
        let cols = check_single(&part.clauses)?;
        if q.parts.len() > 1 {
            if let Some(c) = &columns {
                if c != &cols {
                    return Err(CypherError::semantic(
                        "DifferentColumnsInUnion",
                        "all parts of a UNION must return the same columns",
                    ));
                }
            }
            columns = Some(cols);
        }
    }
    Ok(())
}

fn check_single(clauses: &[Clause]) -> Result<Vec<String>> {
    let mut scope = Scope::new();
    let n = clauses.len();
    for (i, c) in clauses.iter().enumerate() {
        let last = i + 1 == n;
        if let Clause::Return(_) = c {
            if !last {
                return Err(CypherError::semantic(
                    "InvalidClauseComposition",
                    "RETURN must be the last clause",
                ));
            }
        }
        if last
            && !matches!(c, Clause::Return(_))
            && !c.is_write()
            && !matches!(c, Clause::Call { .. })
        {
            return Err(CypherError::semantic(
                "InvalidClauseComposition",
                format!("a query cannot end with {}; add RETURN", c.name()),
            ));
        }
        if i > 0 {
            if let Clause::Match {
                optional: false, ..
            } = c
            {
                if matches!(clauses[i - 1], Clause::Match { optional: true, .. }) {
                    // MATCH after OPTIONAL MATCH is allowed.
                }
            }
        }
        match c {
            Clause::Match {
                pattern, where_, ..
            } => {
                no_param_maps(pattern)?;
                bind_pattern(&mut scope, pattern, false)?;
                if let Some(w) = where_ {
                    where_clause(&scope, w)?;
                }
            }
            Clause::Unwind { expr: e, alias, .. } => {
                expr(&scope, e)?;
                if scope.contains_key(alias) {
                    return Err(CypherError::semantic(
                        "VariableAlreadyBound",
                        format!("variable `{alias}` already defined"),
                    ));
                }
                scope.insert(alias.clone(), Kind::Any);
            }
            Clause::With(p) | Clause::Return(p) => {
                let is_with = matches!(c, Clause::With(_));
                let names = projection(&scope, p, is_with)?;
                if is_with {
                    let mut next = Scope::new();
                    if p.star {
                        next = scope.clone();
                    }
                    for (name, item) in names.iter().zip(&p.items) {
                        next.insert(name.clone(), kind_of(&scope, &item.expr));
                    }
                    let order_scope = merged(&scope, &next);
                    if let Some(w) = &p.where_ {
                        where_clause(&order_scope, w)?;
                    }
                    scope = next;
                } else {
                    let mut cols = Vec::new();
                    if p.star {
                        cols.extend(scope.keys().cloned());
                    }
                    cols.extend(names);
                    return Ok(cols);
                }
            }
            Clause::Create { pattern, .. } => {
                for part in pattern {
                    create_part(&scope, part, "CREATE")?;
                    bind_pattern(&mut scope, std::slice::from_ref(part), true)?;
                }
            }
            Clause::Merge {
                part,
                on_create,
                on_match,
                ..
            } => {
                no_param_maps(std::slice::from_ref(part))?;
                create_part(&scope, part, "MERGE")?;
                bind_pattern(&mut scope, std::slice::from_ref(part), true)?;
                for it in on_create.iter().chain(on_match) {
                    set_item(&scope, it)?;
                }
            }
            Clause::Set { items, .. } => {
                for it in items {
                    set_item(&scope, it)?;
                }
            }
            Clause::Remove { items, .. } => {
                for it in items {
                    match it {
                        RemoveItem::Prop { target, .. } => expr(&scope, target)?,
                        RemoveItem::Labels { var, .. } => need(&scope, var)?,
                    }
                }
            }
            Clause::Delete { exprs, .. } => {
                for e in exprs {
                    expr(&scope, e)?;
                    if matches!(
                        e,
                        Expr::Lit(_) | Expr::Binary(..) | Expr::Map(_) | Expr::HasLabels(..)
                    ) {
                        return Err(CypherError::semantic(
                            "InvalidDelete",
                            "DELETE expects a node, relationship or path",
                        ));
                    }
                    if let Expr::Var(v) = e {
                        if scope.get(v) == Some(&Kind::Any) {
                            // Could be a list of entities; checked at runtime.
                        }
                    }
                }
            }
            Clause::Foreach {
                var, list, body, ..
            } => {
                expr(&scope, list)?;
                let mut inner = scope.clone();
                inner.insert(var.clone(), Kind::Any);
                for c in body {
                    match c {
                        Clause::Set { items, .. } => {
                            for it in items {
                                set_item(&inner, it)?;
                            }
                        }
                        Clause::Create { pattern, .. } => {
                            for part in pattern {
                                create_part(&inner, part, "CREATE")?;
                                bind_pattern(&mut inner, std::slice::from_ref(part), true)?;
                            }
                        }
                        Clause::Merge { part, .. } => {
                            create_part(&inner, part, "MERGE")?;
                            bind_pattern(&mut inner, std::slice::from_ref(part), true)?;
                        }
                        Clause::Delete { exprs, .. } => {
                            for e in exprs {
                                expr(&inner, e)?;
                            }
                        }
                        Clause::Remove { .. } | Clause::Foreach { .. } => {}
                        other => {
                            return Err(CypherError::semantic(
                                "InvalidClauseComposition",
                                format!(
                                    "FOREACH may only contain updating clauses, not {}",
                                    other.name()
                                ),
                            ))
                        }
                    }
                }
            }
            Clause::Call { name, args, yields, where_, .. } => {
                if let Some(p) = procedures::lookup(name) {
                    if args.as_ref().is_some_and(|a| !a.is_empty()) {
                        return Err(CypherError::semantic(
                            "InvalidNumberOfArguments",
                            format!("{name} takes no arguments"),
                        ));
                    }
                    if let Some((f, _)) = yields.iter().find(|(f, _)| !p.outputs.contains(&f.as_str())) {
                        return Err(CypherError::semantic(
                            "UndefinedVariable",
                            format!("{name} yields no field {f}; its fields: {}", p.outputs.join(", ")),
                        ));
                    }
                    if yields.is_empty() && !last {
                        return Err(CypherError::semantic(
                            "InvalidClauseComposition",
                            format!("CALL {name} inside a query needs YIELD (its fields: {})", p.outputs.join(", ")),
                        ));
                    }
                }
                for (f, a) in yields {
                    let v = a.clone().unwrap_or_else(|| f.clone());
                    if scope.contains_key(&v) {
                        return Err(CypherError::semantic(
                            "VariableAlreadyBound",
                            format!("variable {v} is already bound; YIELD {f} AS another name"),
                        ));
                    }
                    scope.insert(v, Kind::Value);
                }
                if let Some(w) = where_ {
                    where_clause(&scope, w)?;
                }
            }
            Clause::LoadCsv { .. } => {}
        }
    }
    Ok(vec![])
}

fn merged(a: &Scope, b: &Scope) -> Scope {
    let mut m = a.clone();
    m.extend(b.iter().map(|(k, v)| (k.clone(), *v)));
    m
}

fn need(scope: &Scope, v: &str) -> Result<()> {
    if scope.contains_key(v) {
        Ok(())
    } else {
        Err(CypherError::semantic(
            "UndefinedVariable",
            format!("variable `{v}` not defined"),
        ))
    }
}

fn no_aggregate(e: &Expr, place: &str) -> Result<()> {
    if e.contains_aggregate() {
        return Err(CypherError::semantic(
            "InvalidAggregation",
            format!("aggregate functions are not allowed in {place}"),
        ));
    }
    Ok(())
}

fn set_item(scope: &Scope, it: &SetItem) -> Result<()> {
    match it {
        SetItem::Prop { target, value, .. } => {
            expr(scope, target)?;
            no_bare_pattern(value)?;
            expr(scope, value)
        }
        SetItem::Replace { var, value } | SetItem::Merge { var, value } => {
            need(scope, var)?;
            no_bare_pattern(value)?;
            expr(scope, value)
        }
        SetItem::Labels { var, .. } => need(scope, var),
    }
}

fn create_part(scope: &Scope, part: &PatternPart, clause: &str) -> Result<()> {
    let single_node = part.chain.is_empty();
    for np in part.nodes() {
        if let Some(v) = &np.var {
            if let Some(k) = scope.get(v) {
                if *k != Kind::Node && *k != Kind::Any {
                    return Err(CypherError::semantic(
                        "VariableTypeConflict",
                        format!("`{v}` is not a node"),
                    ));
                }
                if single_node || !np.labels.is_empty() || np.props.is_some() {
                    return Err(CypherError::semantic(
                        "VariableAlreadyBound",
                        format!("variable `{v}` already defined; {clause} cannot redefine it"),
                    ));
                }
            }
        }
    }
    for (r, _) in &part.chain {
        if r.types.len() != 1 {
            return Err(CypherError::semantic(
                "NoSingleRelationshipType",
                format!("{clause} needs exactly one relationship type"),
            ));
        }
        if r.dir == Dir::Both && clause == "CREATE" {
            return Err(CypherError::semantic(
                "RequiresDirectedRelationship",
                format!("{clause} needs a directed relationship"),
            ));
        }
        if r.range.is_some() {
            return Err(CypherError::semantic(
                "CreatingVarLength",
                format!("{clause} cannot create a variable-length relationship"),
            ));
        }
        if let Some(v) = &r.var {
            if scope.contains_key(v) {
                return Err(CypherError::semantic(
                    "VariableAlreadyBound",
                    format!("variable `{v}` already defined"),
                ));
            }
        }
    }
    Ok(())
}

fn no_param_maps(pattern: &[PatternPart]) -> Result<()> {
    for part in pattern {
        let props = part
            .nodes()
            .map(|n| &n.props)
            .chain(part.chain.iter().map(|(r, _)| &r.props));
        for p in props.flatten() {
            if let Expr::Param(_) = p {
                return Err(CypherError::semantic(
                    "InvalidParameterUse",
                    "a parameter cannot be used as a property map in MATCH or MERGE",
                ));
            }
        }
    }
    Ok(())
}

fn where_clause(scope: &Scope, w: &Expr) -> Result<()> {
    no_aggregate(w, "WHERE")?;
    if matches!(kind_of(scope, w), Kind::Node | Kind::Rel | Kind::Path) {
        return Err(CypherError::semantic(
            "InvalidArgumentType",
            "WHERE expects a boolean, not a graph entity",
        ));
    }
    expr(scope, w)
}

/// Pattern predicates are only allowed where a boolean is filtered (WHERE, exists()).
fn no_bare_pattern(e: &Expr) -> Result<()> {
    match e {
        Expr::PatternPred(_) => Err(CypherError::semantic(
            "UnexpectedSyntax",
            "a pattern cannot be used as a value; use a pattern comprehension or EXISTS",
        )),
        Expr::Exists { .. } | Expr::PatternComp { .. } => Ok(()),
        Expr::Func { name, .. } if name.eq_ignore_ascii_case("exists") => Ok(()),
        _ => {
            let mut r = Ok(());
            e.children(&mut |c| {
                if r.is_ok() {
                    r = no_bare_pattern(c);
                }
            });
            r
        }
    }
}

fn bind_pattern(scope: &mut Scope, pattern: &[PatternPart], creating: bool) -> Result<()> {
    let mut rels_here: Vec<&str> = Vec::new();
    let before = scope.clone();
    for part in pattern {
        for np in part.nodes() {
            if let Some(p) = &np.props {
                expr(&merged(&before, scope), p)?;
            }
            if let Some(v) = &np.var {
                match scope.get(v) {
                    Some(Kind::Node) | None => {
                        scope.insert(v.clone(), Kind::Node);
                    }
                    Some(Kind::Any) => {
                        scope.insert(v.clone(), Kind::Node);
                    }
                    Some(_) => {
                        return Err(CypherError::semantic(
                            "VariableTypeConflict",
                            format!("`{v}` is not a node"),
                        ))
                    }
                }
            }
        }
        for (r, _) in &part.chain {
            if let Some(p) = &r.props {
                expr(scope, p)?;
            }
            if let Some(v) = &r.var {
                if rels_here.contains(&v.as_str()) {
                    return Err(CypherError::semantic(
                        "VariableAlreadyBound",
                        format!("relationship `{v}` used twice in one pattern"),
                    ));
                }
                rels_here.push(v);
                match scope.get(v) {
                    Some(Kind::Rel) | None => {
                        scope.insert(v.clone(), Kind::Rel);
                    }
                    Some(Kind::Any) if r.range.is_some() || !creating => {
                        scope.insert(v.clone(), Kind::Rel);
                    }
                    Some(Kind::Value) if r.range.is_some() => {
                        scope.insert(v.clone(), Kind::Rel);
                    }
                    Some(_) => {
                        return Err(CypherError::semantic(
                            "VariableTypeConflict",
                            format!("`{v}` is not a relationship"),
                        ))
                    }
                }
            }
        }
        if let Some(v) = &part.var {
            if scope.contains_key(v) {
                return Err(CypherError::semantic(
                    "VariableAlreadyBound",
                    format!("variable `{v}` already defined"),
                ));
            }
            scope.insert(v.clone(), Kind::Path);
        }
    }
    Ok(())
}

fn projection(scope: &Scope, p: &Projection, is_with: bool) -> Result<Vec<String>> {
    if p.star && scope.is_empty() && !is_with {
        return Err(CypherError::semantic(
            "NoVariablesInScope",
            "RETURN * / WITH * needs variables in scope",
        ));
    }
    let mut names = Vec::new();
    for it in &p.items {
        no_bare_pattern(&it.expr)?;
        expr(scope, &it.expr)?;
        check_aggregation_nesting(&it.expr, false)?;
        if is_with && it.alias.is_none() && !matches!(it.expr, Expr::Var(_)) {
            return Err(CypherError::semantic(
                "NoExpressionAlias",
                "expressions in WITH must be aliased (use AS)",
            ));
        }
        let n = it.name().to_string();
        if names.contains(&n) || (p.star && scope.contains_key(&n) && it.alias.is_some()) {
            return Err(CypherError::semantic(
                "ColumnNameConflict",
                format!("column `{n}` is defined more than once"),
            ));
        }
        names.push(n);
    }
    // ORDER BY sees projected names and, unless aggregating or DISTINCT, the input scope.
    let mut order_scope: Scope = names.iter().map(|n| (n.clone(), Kind::Any)).collect();
    let aggregating = p.items.iter().any(|i| i.expr.contains_aggregate());
    if p.star {
        order_scope.extend(scope.clone());
    }
    for (e, _) in &p.order {
        if aggregating {
            // Outside aggregate calls, only projected expressions and aliases may be used.
            let keys: Vec<&Expr> = p.items.iter().map(|i| &i.expr).collect();
            let mut ok = true;
            check_order_agg(e, &keys, &order_scope, &mut ok);
            if !ok {
                return Err(CypherError::semantic(
                    "AmbiguousAggregationExpression",
                    "ORDER BY after aggregation may only use projected columns",
                ));
            }
            expr(&merged(scope, &order_scope), e)?;
        } else if p.distinct {
            if e.contains_aggregate() {
                return Err(CypherError::semantic(
                    "InvalidAggregation",
                    "aggregation in ORDER BY requires an aggregating projection",
                ));
            }
            let keys: Vec<&Expr> = p.items.iter().map(|i| &i.expr).collect();
            let mut ok = true;
            check_order_agg(e, &keys, &order_scope, &mut ok);
            if !ok && !p.items.iter().any(|i| same_expr(&i.expr, e)) {
                return Err(CypherError::semantic(
                    "UndefinedVariable",
                    "ORDER BY after DISTINCT may only use projected columns",
                ));
            }
            expr(&merged(scope, &order_scope), e)?;
        } else {
            if e.contains_aggregate() {
                return Err(CypherError::semantic(
                    "InvalidAggregation",
                    "aggregation in ORDER BY requires an aggregating projection",
                ));
            }
            expr(&merged(scope, &order_scope), e)?;
        }
    }
    for e in [&p.skip, &p.limit].into_iter().flatten() {
        let mut vars = false;
        free_vars(e, &mut Vec::new(), &mut |_| vars = true);
        if vars {
            return Err(CypherError::semantic(
                "NonConstantExpression",
                "SKIP and LIMIT must be constant expressions",
            ));
        }
        if let Expr::Lit(v) = e {
            match v {
                navegador_graph::Value::Int(i) if *i < 0 => {
                    return Err(CypherError::semantic(
                        "NegativeIntegerArgument",
                        "SKIP and LIMIT must not be negative",
                    ))
                }
                navegador_graph::Value::Int(_) => {}
                _ => {
                    return Err(CypherError::semantic(
                        "InvalidArgumentType",
                        "SKIP and LIMIT expect an integer",
                    ))
                }
            }
        }
    }
    if aggregating {
        for it in &p.items {
            if it.expr.contains_aggregate() && !it.expr.is_aggregate_call() {
                // Non-aggregate parts of a mixed expression must be grouping keys.
                let keys: Vec<&Expr> = p
                    .items
                    .iter()
                    .filter(|i| !i.expr.contains_aggregate())
                    .map(|i| &i.expr)
                    .collect();
                let mut ok = true;
                check_mixed(&it.expr, &keys, scope, &mut ok);
                if !ok {
                    return Err(CypherError::semantic(
                        "AmbiguousAggregationExpression",
                        "expression mixes aggregation with non-grouping variables",
                    ));
                }
            }
        }
    }
    Ok(names)
}

fn check_order_agg(e: &Expr, keys: &[&Expr], aliases: &Scope, ok: &mut bool) {
    if e.is_aggregate_call() || (simple(e) && keys.iter().any(|k| same_expr(k, e))) {
        return;
    }
    if let Expr::Var(v) = e {
        if !aliases.contains_key(v) {
            *ok = false;
        }
        return;
    }
    e.children(&mut |c| check_order_agg(c, keys, aliases, ok));
}

/// Variables and property reads are the only grouping keys usable next to an aggregate.
fn simple(e: &Expr) -> bool {
    match e {
        Expr::Var(_) => true,
        Expr::Prop(t, _) => simple(t),
        _ => false,
    }
}

fn check_mixed(e: &Expr, keys: &[&Expr], scope: &Scope, ok: &mut bool) {
    if e.is_aggregate_call() || (simple(e) && keys.iter().any(|k| same_expr(k, e))) {
        return;
    }
    if let Expr::Var(v) = e {
        if scope.contains_key(v) {
            *ok = false;
        }
        return;
    }
    e.children(&mut |c| check_mixed(c, keys, scope, ok));
}

fn same_expr(a: &Expr, b: &Expr) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

fn check_aggregation_nesting(e: &Expr, inside: bool) -> Result<()> {
    let agg = e.is_aggregate_call();
    if agg && inside {
        return Err(CypherError::semantic(
            "NestedAggregation",
            "aggregate functions cannot be nested",
        ));
    }
    if let Expr::Func { name, .. } = e {
        if inside && name.eq_ignore_ascii_case("rand") {
            return Err(CypherError::semantic(
                "NonConstantExpression",
                "rand() cannot be aggregated",
            ));
        }
    }
    let mut r = Ok(());
    e.children(&mut |c| {
        if r.is_ok() {
            r = check_aggregation_nesting(c, inside || agg);
        }
    });
    r
}

/// Calls `f` for every variable `e` reads that is not bound inside it.
fn free_vars(e: &Expr, local: &mut Vec<String>, f: &mut dyn FnMut(&str)) {
    match e {
        Expr::Var(v) => {
            if !local.contains(v) {
                f(v)
            }
        }
        Expr::MapProj(v, _) => {
            if !local.contains(v) {
                f(v)
            }
            e.children(&mut |c| free_vars(c, local, f));
        }
        Expr::ListComp {
            var,
            list,
            pred,
            proj,
        } => {
            free_vars(list, local, f);
            local.push(var.clone());
            for x in pred.iter().chain(proj.iter()) {
                free_vars(x, local, f);
            }
            local.pop();
        }
        Expr::Quantifier {
            var, list, pred, ..
        } => {
            free_vars(list, local, f);
            local.push(var.clone());
            free_vars(pred, local, f);
            local.pop();
        }
        Expr::Reduce {
            acc,
            init,
            var,
            list,
            expr,
        } => {
            free_vars(init, local, f);
            free_vars(list, local, f);
            local.push(acc.clone());
            local.push(var.clone());
            free_vars(expr, local, f);
            local.pop();
            local.pop();
        }
        Expr::PatternComp { part, pred, proj } => {
            let n = local.len();
            pattern_free_vars(std::slice::from_ref(&**part), local, f, true);
            for x in pred.iter() {
                free_vars(x, local, f);
            }
            free_vars(proj, local, f);
            local.truncate(n);
        }
        Expr::Exists { pattern, where_ } => {
            let n = local.len();
            pattern_free_vars(pattern, local, f, true);
            for x in where_.iter() {
                free_vars(x, local, f);
            }
            local.truncate(n);
        }
        Expr::PatternPred(part) => {
            let n = local.len();
            pattern_free_vars(std::slice::from_ref(&**part), local, f, false);
            local.truncate(n);
        }
        _ => e.children(&mut |c| free_vars(c, local, f)),
    }
}

/// Pattern variables in subqueries: in a pattern predicate every named variable must be bound.
fn pattern_free_vars(
    parts: &[PatternPart],
    local: &mut Vec<String>,
    f: &mut dyn FnMut(&str),
    introduces: bool,
) {
    for p in parts {
        for n in p.nodes() {
            if let Some(props) = &n.props {
                free_vars(props, local, f);
            }
        }
        for (r, _) in &p.chain {
            if let Some(props) = &r.props {
                free_vars(props, local, f);
            }
        }
        for v in crate::matcher::part_vars(p) {
            if introduces {
                local.push(v);
            } else if !local.contains(&v) {
                f(&v);
            }
        }
    }
}

fn expr(scope: &Scope, e: &Expr) -> Result<()> {
    let mut err = None;
    free_vars(e, &mut Vec::new(), &mut |v| {
        if err.is_none() && !scope.contains_key(v) {
            err = Some(CypherError::semantic(
                "UndefinedVariable",
                format!("variable `{v}` not defined"),
            ));
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    functions_ok(scope, e)
}

fn functions_ok(scope: &Scope, e: &Expr) -> Result<()> {
    let mut r = Ok(());
    if let Expr::Func {
        name,
        args,
        distinct,
    } = e
    {
        let lname = name.to_ascii_lowercase();
        match known_arity(&lname) {
            None => {
                return Err(CypherError::semantic(
                    "UnknownFunction",
                    format!("unknown function {name}()"),
                ))
            }
            Some((lo, hi)) => {
                if args.len() < lo || args.len() > hi {
                    return Err(CypherError::semantic(
                        "InvalidNumberOfArguments",
                        format!(
                            "function {name}() takes {lo}..{hi} arguments, got {}",
                            args.len()
                        ),
                    ));
                }
            }
        }
        if *distinct && !AGGREGATES.contains(&lname.as_str()) {
            return Err(CypherError::semantic(
                "InvalidArgumentType",
                format!("DISTINCT is only allowed in aggregate functions, not {name}()"),
            ));
        }
        // Type errors detectable from the argument's kind or literal form.
        if let Some(a) = args.first() {
            let k = kind_of(scope, a);
            let lit_scalar = matches!(a, Expr::Lit(v) if !v.is_null());
            let bad = match lname.as_str() {
                "labels" => {
                    matches!(k, Kind::Rel | Kind::Path)
                        || lit_scalar
                        || matches!(a, Expr::List(_) | Expr::Map(_))
                }
                "type" => {
                    matches!(k, Kind::Node | Kind::Path)
                        || lit_scalar
                        || matches!(a, Expr::List(_) | Expr::Map(_))
                }
                "length" => matches!(k, Kind::Node | Kind::Rel) || lit_scalar,
                "size" => {
                    matches!(k, Kind::Node | Kind::Rel | Kind::Path)
                        || matches!(a, Expr::PatternPred(_))
                }
                "properties" => matches!(k, Kind::Path) || lit_scalar || matches!(a, Expr::List(_)),
                _ => false,
            };
            if bad {
                let code = if matches!(a, Expr::PatternPred(_)) {
                    "UnexpectedSyntax"
                } else {
                    "InvalidArgumentType"
                };
                return Err(CypherError::semantic(
                    code,
                    format!("{name}() cannot take this argument"),
                ));
            }
        }
    }
    let not_bool = |x: &Expr| {
        matches!(x, Expr::Lit(v) if !matches!(v, navegador_graph::Value::Bool(_) | navegador_graph::Value::Null))
            || matches!(x, Expr::List(_) | Expr::Map(_) | Expr::ListComp { .. })
    };
    match e {
        Expr::Binary(BinOp::And | BinOp::Or | BinOp::Xor, a, b) if not_bool(a) || not_bool(b) => {
            return Err(CypherError::semantic(
                "InvalidArgumentType",
                "boolean operators expect booleans",
            ));
        }
        Expr::Unary(UnOp::Not, a) if not_bool(a) => {
            return Err(CypherError::semantic(
                "InvalidArgumentType",
                "NOT expects a boolean",
            ));
        }
        Expr::Prop(t, _) if matches!(kind_of(scope, t), Kind::Path) => {
            return Err(CypherError::semantic(
                "InvalidArgumentType",
                "paths have no properties",
            ));
        }
        _ => {}
    }
    e.children(&mut |c| {
        if r.is_ok() {
            r = functions_ok(scope, c);
        }
    });
    r
}

/// A quantifier over a literal list whose predicate fails on some element with a type
/// error is rejected before running (openCypher reports it at compile time).
fn constant_quantifier(var: &str, list: &Expr, pred: &Expr, guard: &Guard) -> Result<()> {
    let Expr::List(items) = list else {
        return Ok(());
    };
    if !items.iter().all(|i| matches!(i, Expr::Lit(_))) {
        return Ok(());
    }
    let mut only_var = true;
    free_vars(pred, &mut Vec::new(), &mut |v| only_var &= v == var);
    if !only_var {
        return Ok(());
    }
    let g = navegador_graph::MemGraph::new();
    let params = BTreeMap::new();
    let stats = navegador_graph::GraphStats::default();
    let deleted = Default::default();
    let ctx = crate::eval::Ctx {
        g: &g,
        params: &params,
        guard,
        stats: &stats,
        deleted: &deleted,
    };
    for it in items {
        let Expr::Lit(v) = it else { continue };
        let mut row = crate::eval::Row::new();
        row.insert(var.to_string(), v.clone());
        match crate::eval::eval(&ctx, pred, &row) {
            Err(CypherError::Type { message, .. }) => {
                return Err(CypherError::semantic("InvalidArgumentType", message))
            }
            Err(
                e @ (CypherError::Timeout(_)
                | CypherError::Cancelled
                | CypherError::MemoryLimit { .. }
                | CypherError::MemoryBusy { .. }),
            ) => return Err(e),
            _ => {}
        }
    }
    Ok(())
}
