//! `navegador check`: runs every Rule's `constraint` (a read-only Cypher query whose rows
//! are violations) and reports each violation with the rule's severity and rationale and
//! the owners of the code it names. Exit 1 when a `critical` rule is violated, 2 when a
//! constraint cannot run (the rule is named), 0 otherwise, so it can gate CI.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use navegador_cypher::QueryOptions;
use navegador_graph::Value;
use navegador_model::Label;
use navegador_store::Store;
use serde_json::{json, Value as Json};

use crate::db;
use crate::query_cmd::{cell, row_objects};

#[derive(clap::Args)]
pub struct Args {
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Time budget of each constraint.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout_ms: u64,
}

struct Outcome {
    name: String,
    severity: String,
    rationale: Option<String>,
    error: Option<String>,
    /// Each violating row with the owners of the code nodes in it.
    violations: Vec<(Json, Vec<String>, Vec<String>)>,
    truncated: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let mut outcomes = Vec::new();
    for rule in store.reader().nodes_labelled(Label::Rule)? {
        let Some(constraint) = rule.props.get("constraint").and_then(|v| v.as_str()).filter(|c| !c.trim().is_empty())
        else {
            continue;
        };
        let text = |k: &str| rule.props.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let mut o = Outcome {
            name: rule.name.clone().unwrap_or_default(),
            severity: text("severity").unwrap_or_else(|| "warning".into()),
            rationale: text("rationale").or_else(|| text("description")),
            error: None,
            violations: Vec::new(),
            truncated: false,
        };
        let opts = QueryOptions {
            read_only: true,
            timeout: std::time::Duration::from_millis(a.timeout_ms),
            ..QueryOptions::default()
        };
        match store.read_snapshot(|s| navegador_cypher::execute_read(s, constraint, &opts)) {
            Err(e) => o.error = Some(e.to_string()),
            Ok(r) => {
                o.truncated = r.truncated;
                let objs = row_objects(&r);
                for (row, obj) in r.rows.iter().zip(objs.as_array().into_iter().flatten()) {
                    let shown: Vec<String> =
                        r.columns.iter().zip(row).map(|(c, v)| format!("{c}={}", cell(v))).collect();
                    o.violations.push((obj.clone(), shown, owners_of(&store, row)));
                }
            }
        }
        outcomes.push(o);
    }
    let errors = outcomes.iter().filter(|o| o.error.is_some()).count();
    let critical = outcomes.iter().filter(|o| o.severity == "critical" && !o.violations.is_empty()).count();
    if a.json {
        let rules: Vec<Json> = outcomes
            .iter()
            .map(|o| {
                json!({
                    "rule": o.name,
                    "severity": o.severity,
                    "rationale": o.rationale,
                    "status": if o.error.is_some() { "error" } else if o.violations.is_empty() { "pass" } else { "violated" },
                    "error": o.error,
                    "truncated": o.truncated,
                    "violations": o.violations.iter().map(|(row, _, owners)| json!({"row": row, "owners": owners})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let out = json!({"rules": rules, "critical_violations": critical, "errors": errors});
        crate::emit(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
    } else {
        let mut out = String::new();
        for o in &outcomes {
            match (&o.error, o.violations.len()) {
                (Some(e), _) => {
                    w!(out, "ERROR rule {:?}: its constraint cannot run: {e}", o.name);
                }
                (None, 0) => w!(out, "ok    rule {:?} ({})", o.name, o.severity),
                (None, n) => {
                    w!(out, "FAIL  rule {:?} ({}): {n} violation{}", o.name, o.severity, if n == 1 { "" } else { "s" });
                    if let Some(r) = &o.rationale {
                        w!(out, "      why: {r}");
                    }
                    for (_, shown, owners) in &o.violations {
                        w!(out, "      - {}", shown.join(", "));
                        if !owners.is_empty() {
                            w!(out, "        owners: {}", owners.join(", "));
                        }
                    }
                    if o.truncated {
                        w!(out, "      (more violations not shown)");
                    }
                }
            }
        }
        if outcomes.is_empty() {
            w!(out, "no rules with a constraint");
        }
        crate::emit(&out)?;
    }
    Ok(if errors > 0 {
        ExitCode::from(2)
    } else if critical > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Owners (Person and Domain names) of the code nodes in a row, nearest claims first.
fn owners_of(store: &Store, row: &[Value]) -> Vec<String> {
    let mut nodes = Vec::new();
    for v in row {
        collect_nodes(v, &mut nodes);
    }
    let mut owners: Vec<String> = Vec::new();
    let reader = store.reader();
    for n in nodes {
        let s = |k: &str| match n.props.get(k) {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let Some(file) = s("file_path") else { continue };
        let Some(name) = s("qualified_name").or_else(|| s("name")) else { continue };
        if let Ok((_, found)) = navegador_knowledge::find_owners(&reader, &name, Some(&file)) {
            for o in found {
                let who = format!("{} {}", o.node.label, o.node.name.unwrap_or_default());
                if !owners.contains(&who) {
                    owners.push(who);
                }
            }
        }
    }
    owners
}

fn collect_nodes(v: &Value, out: &mut Vec<navegador_graph::Node>) {
    match v {
        Value::Node(n) => out.push((**n).clone()),
        Value::Path(p) => out.extend(p.nodes.iter().cloned()),
        Value::List(items) => items.iter().for_each(|x| collect_nodes(x, out)),
        Value::Map(m) => m.values().for_each(|x| collect_nodes(x, out)),
        _ => {}
    }
}
