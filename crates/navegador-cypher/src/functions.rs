//! Scalar functions (`size`, `toInteger`, `substring`, ...). Aggregates live in `exec`.

use navegador_graph::Value;
use std::sync::Arc;

use crate::error::{CypherError, Result};
use crate::eval::{scalar_string, Ctx};
use crate::values::type_name;

fn arity(name: &str, args: &[Value], lo: usize, hi: usize) -> Result<()> {
    if args.len() < lo || args.len() > hi {
        return Err(CypherError::semantic(
            "InvalidNumberOfArguments",
            format!(
                "function {name}() takes {lo}..{hi} arguments, got {}",
                args.len()
            ),
        ));
    }
    Ok(())
}

fn str_arg<'v>(name: &str, v: &'v Value) -> Result<&'v str> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(wrong(name, other)),
    }
}

fn wrong(name: &str, v: &Value) -> CypherError {
    CypherError::type_err(format!(
        "function {name}() does not accept {}",
        type_name(v)
    ))
}

/// Number of arguments each known function accepts, for the semantic check.
pub fn known_arity(lname: &str) -> Option<(usize, usize)> {
    Some(match lname {
        "id" | "elementid" | "labels" | "type" | "properties" | "keys" | "size" | "length"
        | "nodes" | "relationships" | "startnode" | "endnode" | "head" | "last" | "tail"
        | "reverse" | "tostring" | "tointeger" | "tofloat" | "toboolean" | "tolower"
        | "toupper" | "trim" | "ltrim" | "rtrim" | "abs" | "ceil" | "floor" | "sign" | "sqrt"
        | "exp" | "log" | "log10" | "sin" | "cos" | "tan" | "asin" | "acos" | "atan"
        | "degrees" | "radians" | "exists" | "tostringornull" | "tointegerornull"
        | "tofloatornull" | "tobooleanornull" | "isempty" | "char_length" | "character_length" => {
            (1, 1)
        }
        "round" => (1, 3),
        "coalesce" => (1, usize::MAX),
        "range" => (2, 3),
        "split" | "left" | "right" | "atan2" => (2, 2),
        "substring" => (2, 3),
        "replace" => (3, 3),
        "rand" | "pi" | "e" => (0, 0),
        "count" | "sum" | "avg" | "min" | "max" | "collect" | "stdev" | "stdevp" => (1, 1),
        "percentilecont" | "percentiledisc" => (2, 2),
        _ => return None,
    })
}

pub fn call(ctx: &Ctx, lname: &str, name: &str, args: Vec<Value>) -> Result<Value> {
    let (lo, hi) = known_arity(lname).ok_or_else(|| {
        CypherError::semantic("UnknownFunction", format!("unknown function {name}()"))
    })?;
    arity(name, &args, lo, hi)?;
    let mut args = args;
    // Taken, not copied: the first argument may be large.
    let a0 = match args.first_mut() {
        Some(a) => std::mem::take(a),
        None => Value::Null,
    };
    use Value::*;
    // Most functions return null on a null first argument.
    let null_in = a0.is_null() && !matches!(lname, "rand" | "pi" | "e" | "range");
    if null_in && lname != "tostringornull" {
        return Ok(Null);
    }
    let f = |v: &Value| -> Result<f64> {
        match v {
            Int(i) => Ok(*i as f64),
            Float(x) => Ok(*x),
            other => Err(wrong(name, other)),
        }
    };
    let g = ctx.guard;
    let int = |v: &Value| -> Result<i64> {
        match v {
            Int(i) => Ok(*i),
            other => Err(wrong(name, other)),
        }
    };
    Ok(match lname {
        "id" => match &a0 {
            Node(n) => Int(n.id.0),
            Relationship(r) => Int(r.id.0),
            other => return Err(wrong(name, other)),
        },
        "elementid" => match &a0 {
            Node(n) => String(n.id.0.to_string()),
            Relationship(r) => String(r.id.0.to_string()),
            other => return Err(wrong(name, other)),
        },
        "labels" => match &a0 {
            Node(n) => {
                crate::eval::check_not_deleted(ctx, &a0)?;
                let fresh = ctx
                    .g
                    .node(n.id)?
                    .map_or_else(|| n.labels.clone(), |x| x.labels);
                List(fresh.into_iter().map(String).collect())
            }
            other => return Err(wrong(name, other)),
        },
        "type" => match &a0 {
            Relationship(r) => String(r.rel_type.clone()),
            other => return Err(wrong(name, other)),
        },
        "properties" => match &a0 {
            Node(n) => Map(n.props.clone()),
            Relationship(r) => Map(r.props.clone()),
            Map(m) => Map(m.clone()),
            other => return Err(wrong(name, other)),
        },
        "keys" => match &a0 {
            Node(n) => List(n.props.keys().cloned().map(String).collect()),
            Relationship(r) => List(r.props.keys().cloned().map(String).collect()),
            Map(m) => List(m.keys().cloned().map(String).collect()),
            other => return Err(wrong(name, other)),
        },
        "size" | "char_length" | "character_length" => match &a0 {
            List(l) => Int(l.len() as i64),
            String(s) => Int(s.chars().count() as i64),
            Map(m) => Int(m.len() as i64),
            other => return Err(wrong(name, other)),
        },
        "isempty" => match &a0 {
            List(l) => Bool(l.is_empty()),
            String(s) => Bool(s.is_empty()),
            Map(m) => Bool(m.is_empty()),
            other => return Err(wrong(name, other)),
        },
        "length" => match &a0 {
            Path(p) => Int(p.edges.len() as i64),
            other => return Err(wrong(name, other)),
        },
        "nodes" => match &a0 {
            Path(p) => List(p.nodes.iter().map(|n| Node(Arc::new(n.clone()))).collect()),
            other => return Err(wrong(name, other)),
        },
        "relationships" => match &a0 {
            Path(p) => List(
                p.edges
                    .iter()
                    .map(|e| Relationship(Arc::new(e.clone())))
                    .collect(),
            ),
            other => return Err(wrong(name, other)),
        },
        "startnode" | "endnode" => match &a0 {
            Relationship(r) => {
                let id = if lname == "startnode" { r.src } else { r.dst };
                ctx.g.node(id)?.map_or(Null, |n| Node(Arc::new(n)))
            }
            other => return Err(wrong(name, other)),
        },
        "head" => match &a0 {
            List(l) => l.first().cloned().unwrap_or(Null),
            other => return Err(wrong(name, other)),
        },
        "last" => match &a0 {
            List(l) => l.last().cloned().unwrap_or(Null),
            other => return Err(wrong(name, other)),
        },
        "tail" => match a0 {
            List(mut l) => {
                if !l.is_empty() {
                    l.remove(0);
                }
                List(l)
            }
            other => return Err(wrong(name, &other)),
        },
        "reverse" => match a0 {
            List(mut l) => {
                l.reverse();
                List(l)
            }
            String(s) => {
                g.reserve(s.len())?;
                String(s.chars().rev().collect())
            }
            other => return Err(wrong(name, &other)),
        },
        "range" => {
            let iarg = |v: &Value| match v {
                Int(i) => Ok(*i),
                other => Err(CypherError::arg(
                    "InvalidArgumentType",
                    format!("range() expects integers, got {}", type_name(other)),
                )),
            };
            let start = iarg(&a0)?;
            let end = iarg(&args[1])?;
            let step = if args.len() > 2 { iarg(&args[2])? } else { 1 };
            if step == 0 {
                return Err(CypherError::arg(
                    "NumberOutOfRange",
                    "range() step must not be zero",
                ));
            }
            let count = if (step > 0 && start > end) || (step < 0 && start < end) {
                0
            } else {
                ((end as i128 - start as i128) / step as i128 + 1) as u128
            };
            let _op = g.op("range()");
            g.reserve(
                count
                    .saturating_mul(std::mem::size_of::<Value>() as u128)
                    .min(usize::MAX as u128) as usize,
            )?;
            List((0..count as i64).map(|k| Int(start + k * step)).collect())
        }
        "tostring" | "tostringornull" => match &a0 {
            Null => Null,
            String(s) => String(s.clone()),
            Int(_) | Float(_) | Bool(_) => String(scalar_string(&a0)),
            other if lname == "tostring" => return Err(wrong(name, other)),
            _ => Null,
        },
        "tointeger" | "tointegerornull" => match &a0 {
            Int(i) => Int(*i),
            Float(x) => {
                if x.is_finite() && x.abs() < 9.2e18 {
                    Int(x.trunc() as i64)
                } else {
                    Null
                }
            }
            String(t) => parse_number(t).map_or(Null, |v| match v {
                Float(x) if x.is_finite() && x.abs() < 9.2e18 => Int(x.trunc() as i64),
                Int(i) => Int(i),
                _ => Null,
            }),
            Bool(b) => Int(*b as i64),
            other if lname == "tointeger" => return Err(wrong(name, other)),
            _ => Null,
        },
        "tofloat" | "tofloatornull" => match &a0 {
            Int(i) => Float(*i as f64),
            Float(x) => Float(*x),
            String(t) => parse_number(t).map_or(Null, |v| Float(crate::values::as_f64(&v))),
            other if lname == "tofloat" => return Err(wrong(name, other)),
            _ => Null,
        },
        "toboolean" | "tobooleanornull" => match &a0 {
            Bool(b) => Bool(*b),
            String(t) => match t.trim().to_ascii_lowercase().as_str() {
                "true" => Bool(true),
                "false" => Bool(false),
                _ => Null,
            },
            Int(i) => Bool(*i != 0),
            other if lname == "toboolean" => return Err(wrong(name, other)),
            _ => Null,
        },
        "tolower" | "toupper" => {
            let t = str_arg(name, &a0)?;
            g.reserve(t.len())?;
            String(if lname == "tolower" {
                t.to_lowercase()
            } else {
                t.to_uppercase()
            })
        }
        "trim" => String(str_arg(name, &a0)?.trim().to_string()),
        "ltrim" => String(str_arg(name, &a0)?.trim_start().to_string()),
        "rtrim" => String(str_arg(name, &a0)?.trim_end().to_string()),
        "split" => {
            if args[1].is_null() {
                return Ok(Null);
            }
            let t = str_arg(name, &a0)?;
            let d = str_arg(name, &args[1])?;
            // Each piece is a list slot and a string of its own.
            let pieces = if d.is_empty() {
                t.chars().count()
            } else {
                t.matches(d).count() + 1
            };
            g.reserve(pieces * (std::mem::size_of::<Value>() + 16) + t.len())?;
            if d.is_empty() {
                List(t.chars().map(|c| String(c.to_string())).collect())
            } else {
                List(t.split(d).map(|x| String(x.to_string())).collect())
            }
        }
        "substring" => {
            let t = str_arg(name, &a0)?;
            let start = int(&args[1])?;
            if start < 0 {
                return Err(CypherError::arg(
                    "NumberOutOfRange",
                    "substring() start must not be negative",
                ));
            }
            let len = if args.len() > 2 {
                let l = int(&args[2])?;
                if l < 0 {
                    return Err(CypherError::arg(
                        "NumberOutOfRange",
                        "substring() length must not be negative",
                    ));
                }
                l as usize
            } else {
                usize::MAX
            };
            String(t.chars().skip(start as usize).take(len).collect())
        }
        "left" | "right" => {
            if args[1].is_null() {
                return Err(CypherError::arg(
                    "InvalidArgumentValue",
                    format!("{name}() length must not be null"),
                ));
            }
            let t = str_arg(name, &a0)?;
            let n = int(&args[1])?;
            if n < 0 {
                return Err(CypherError::arg(
                    "NumberOutOfRange",
                    format!("{name}() length must not be negative"),
                ));
            }
            String(if lname == "left" {
                t.chars().take(n as usize).collect()
            } else {
                let skip = t.chars().count().saturating_sub(n as usize);
                t.chars().skip(skip).collect()
            })
        }
        "replace" => {
            if args[1].is_null() || args[2].is_null() {
                return Ok(Null);
            }
            let (t, from, to) = (
                str_arg(name, &a0)?,
                str_arg(name, &args[1])?,
                str_arg(name, &args[2])?,
            );
            let hits = if from.is_empty() {
                t.chars().count() + 1
            } else {
                t.matches(from).count()
            };
            let size = (t.len() + hits * to.len()).saturating_sub(hits * from.len());
            g.reserve(size)?;
            // `str::replace`, into a buffer of the exact size, reading the clock every
            // few thousand hits (millions of them take a while).
            let mut out = std::string::String::with_capacity(size);
            let mut last = 0;
            for (k, (i, m)) in t.match_indices(from).enumerate() {
                if k % 4096 == 4095 {
                    g.clock()?;
                }
                out.push_str(&t[last..i]);
                out.push_str(to);
                last = i + m.len();
            }
            out.push_str(&t[last..]);
            String(out)
        }
        "abs" => match &a0 {
            Int(i) => Int(i
                .checked_abs()
                .ok_or_else(|| CypherError::arg("NumberOutOfRange", "integer overflow"))?),
            Float(x) => Float(x.abs()),
            other => return Err(wrong(name, other)),
        },
        "ceil" => Float(f(&a0)?.ceil()),
        "floor" => Float(f(&a0)?.floor()),
        "round" => {
            let x = f(&a0)?;
            if args.len() > 1 {
                let p = int(&args[1])?;
                let m = 10f64.powi(p as i32);
                Float((x * m).round() / m)
            } else {
                // Cypher rounds half up (towards positive infinity).
                Float((x + 0.5).floor())
            }
        }
        "sign" => match &a0 {
            Int(i) => Int(i.signum()),
            Float(x) => Int(if *x > 0.0 {
                1
            } else if *x < 0.0 {
                -1
            } else {
                0
            }),
            other => return Err(wrong(name, other)),
        },
        "sqrt" => Float(f(&a0)?.sqrt()),
        "exp" => Float(f(&a0)?.exp()),
        "log" => Float(f(&a0)?.ln()),
        "log10" => Float(f(&a0)?.log10()),
        "sin" => Float(f(&a0)?.sin()),
        "cos" => Float(f(&a0)?.cos()),
        "tan" => Float(f(&a0)?.tan()),
        "asin" => Float(f(&a0)?.asin()),
        "acos" => Float(f(&a0)?.acos()),
        "atan" => Float(f(&a0)?.atan()),
        "atan2" => Float(f(&a0)?.atan2(f(&args[1])?)),
        "degrees" => Float(f(&a0)?.to_degrees()),
        "radians" => Float(f(&a0)?.to_radians()),
        "pi" => Float(std::f64::consts::PI),
        "e" => Float(std::f64::consts::E),
        "rand" => Float(pseudo_random()),
        "exists" => Bool(!a0.is_null()),
        _ => {
            return Err(CypherError::semantic(
                "UnknownFunction",
                format!("unknown function {name}()"),
            ))
        }
    })
}

fn pseudo_random() -> f64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let n = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let x = (n as u64)
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Parses a string as a Cypher number (`toInteger`/`toFloat`).
pub fn parse_number(t: &str) -> Option<Value> {
    let t = t.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(Value::Int(i));
    }
    if t.chars()
        .any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
    {
        return None;
    }
    t.parse::<f64>().ok().map(Value::Float)
}
