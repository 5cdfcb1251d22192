//! Logical plan with row estimates, used for EXPLAIN and the complexity limit.
//!
//! The estimates come from `GraphStats`: label counts for scans, a fraction of them
//! for index seeks, average degree per relationship type for expansions (summed over
//! hop counts for variable length; unbounded ranges are charged at least the number of
//! edges), and products for disconnected pattern parts.

use std::fmt::Write as _;

use navegador_graph::GraphStats;

use crate::ast::*;
use crate::matcher::{equality_hints, part_vars, plan_parts, split_at_selective_nodes, Access};

/// One operator of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOp {
    pub name: String,
    pub detail: String,
    /// Estimated rows produced by this operator.
    pub estimate: f64,
}

/// The operators in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub ops: Vec<PlanOp>,
}

impl Plan {
    /// The largest estimate and the operator producing it.
    pub fn peak(&self) -> Option<&PlanOp> {
        self.ops
            .iter()
            .max_by(|a, b| a.estimate.total_cmp(&b.estimate))
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

pub fn plan(q: &Query, stats: &GraphStats) -> Plan {
    let mut ops = Vec::new();
    for (i, part) in q.parts.iter().enumerate() {
        if i > 0 {
            let all = q.union_all[i - 1];
            ops.push(PlanOp {
                name: if all {
                    "UnionAll".into()
                } else {
                    "Union".into()
                },
                detail: String::new(),
                estimate: 0.0,
            });
        }
        plan_single(&part.clauses, stats, &mut ops, 1.0, &mut Vec::new());
    }
    Plan { ops }
}

fn sat(x: f64) -> f64 {
    if x.is_finite() {
        x.max(0.0)
    } else {
        f64::MAX
    }
}

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

fn plan_single(
    clauses: &[Clause],
    stats: &GraphStats,
    ops: &mut Vec<PlanOp>,
    mut rows: f64,
    scope: &mut Vec<String>,
) -> f64 {
    for c in clauses {
        match c {
            Clause::Match {
                optional,
                pattern,
                where_,
                ..
            } => {
                let hints = equality_hints(where_.as_ref());
                let bound = scope.clone();
                let is_bound = |v: &str| bound.iter().any(|b| b == v);
                let before = rows;
                let split = split_at_selective_nodes(pattern, &is_bound, &hints, stats);
                for (part, reversed, access, est) in plan_parts(&split, &is_bound, &hints, stats) {
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
                    ops.push(PlanOp {
                        name: if product {
                            "CartesianProduct".into()
                        } else {
                            name.into()
                        },
                        detail: if product {
                            format!("{name} {detail}")
                        } else {
                            detail
                        },
                        estimate: rows,
                    });
                    let mut chain: Vec<&RelPat> = part.chain.iter().map(|(r, _)| r).collect();
                    if reversed {
                        chain.reverse();
                    }
                    for r in chain {
                        let d = degree(stats, &r.types, r.dir);
                        let types = if r.types.is_empty() {
                            "*".to_string()
                        } else {
                            r.types.join("|")
                        };
                        match r.range {
                            None => {
                                rows = sat(rows * d);
                                ops.push(PlanOp {
                                    name: "Expand".into(),
                                    detail: format!("[:{types}]"),
                                    estimate: rows,
                                });
                            }
                            Some((lo, hi)) => {
                                let lo = lo.unwrap_or(1);
                                let unbounded = hi.is_none();
                                let hi = hi.unwrap_or(stats.node_count.max(1)).min(64);
                                let mut factor = 0.0;
                                for k in lo..=hi.max(lo) {
                                    factor += d.powi(k as i32);
                                }
                                if unbounded {
                                    factor = factor.max(stats.edge_count() as f64);
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
                                ops.push(PlanOp {
                                    name: "VarLengthExpand".into(),
                                    detail: format!("[:{types}{range}]"),
                                    estimate: rows,
                                });
                            }
                        }
                    }
                    scope.extend(part_vars(part));
                }
                if where_.is_some() {
                    rows = sat(rows * 0.5);
                    ops.push(PlanOp {
                        name: "Filter".into(),
                        detail: "WHERE".into(),
                        estimate: rows,
                    });
                }
                if *optional {
                    rows = rows.max(before);
                    ops.push(PlanOp {
                        name: "Optional".into(),
                        detail: String::new(),
                        estimate: rows,
                    });
                }
            }
            Clause::Unwind { alias, .. } => {
                rows = sat(rows * 10.0);
                scope.push(alias.clone());
                ops.push(PlanOp {
                    name: "Unwind".into(),
                    detail: alias.clone(),
                    estimate: rows,
                });
            }
            Clause::With(p) | Clause::Return(p) => {
                let agg = p.items.iter().any(|i| i.expr.contains_aggregate());
                if agg {
                    rows = rows.sqrt().max(1.0);
                    ops.push(PlanOp {
                        name: "Aggregate".into(),
                        detail: String::new(),
                        estimate: rows,
                    });
                }
                if p.distinct {
                    ops.push(PlanOp {
                        name: "Distinct".into(),
                        detail: String::new(),
                        estimate: rows,
                    });
                }
                if !p.order.is_empty() {
                    ops.push(PlanOp {
                        name: "Sort".into(),
                        detail: String::new(),
                        estimate: rows,
                    });
                }
                if let Some(Expr::Lit(navegador_graph::Value::Int(n))) = &p.limit {
                    rows = rows.min(*n as f64);
                    ops.push(PlanOp {
                        name: "Limit".into(),
                        detail: n.to_string(),
                        estimate: rows,
                    });
                }
                if p.where_.is_some() {
                    rows = sat(rows * 0.5);
                    ops.push(PlanOp {
                        name: "Filter".into(),
                        detail: "WHERE".into(),
                        estimate: rows,
                    });
                }
                let name = if matches!(c, Clause::With(_)) {
                    "Projection"
                } else {
                    "ProduceResults"
                };
                let cols: Vec<&str> = p.items.iter().map(|i| i.name()).collect();
                ops.push(PlanOp {
                    name: name.into(),
                    detail: cols.join(", "),
                    estimate: rows,
                });
                if matches!(c, Clause::With(_)) && !p.star {
                    *scope = p.items.iter().map(|i| i.name().to_string()).collect();
                }
            }
            other => {
                ops.push(PlanOp {
                    name: other.name().to_string(),
                    detail: String::new(),
                    estimate: rows,
                });
            }
        }
    }
    rows
}
