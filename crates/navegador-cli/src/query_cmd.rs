//! `navegador query` (openCypher over the graph) and `navegador schema` (what there is to
//! query). Read-only unless `--write`: the store is then opened read-only as well, so the
//! engine's parsed-query check and SQLite both refuse a write.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use navegador_cypher::{value_to_json, QueryOptions, QueryResult};
use navegador_graph::{GraphRead, Value};
use serde_json::{json, Value as Json};

use crate::db;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Json,
    Table,
}

#[derive(clap::Args)]
#[command(after_help = "Queries are read-only unless --write is given: CREATE, MERGE, SET, REMOVE, DELETE, \
CALL and LOAD CSV are refused. Prefix a query with EXPLAIN to print its plan with row estimates.\n\
JSON output is an array of row objects (column name -> value); --envelope wraps it as \
{columns, rows, truncated, stats}. A result cut at --max-rows says so on stderr.")]
pub struct QueryArgs {
    /// The openCypher query (`EXPLAIN ...` prints the plan).
    query: String,
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// A query parameter `$name`: `name=value`, where value is read as JSON when it parses
    /// (`n=3`, `xs=[1,2]`, `s="x"`) and as a string otherwise (`name=main`).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Refuse any side effect (the default; kept for explicitness).
    #[arg(long, conflicts_with = "write")]
    read_only: bool,
    /// Allow writes (CREATE, MERGE, SET, REMOVE, DELETE); the query runs in one transaction.
    #[arg(long)]
    write: bool,
    /// Refuse queries whose estimated peak row count exceeds N (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_complexity: u64,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Wall-clock budget of the query (parsing, planning and running).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout_ms: u64,
    /// Memory the query may hold at once (default: a sixteenth of the machine's memory,
    /// 64 to 512 MiB; 0: no budget).
    #[arg(long, value_name = "MIB")]
    max_memory_mb: Option<u64>,
    /// Rows beyond this are dropped (the output says so).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_rows: usize,
    /// JSON only: print `{columns, rows, truncated, stats}` instead of the plain array.
    #[arg(long)]
    envelope: bool,
    /// Benchmarking: run a read-only query N times on one open store and print the
    /// p50/p99/max latency to stderr (`scripts/bench_cypher.py` uses it).
    #[arg(long, value_name = "N", hide = true)]
    repeat: Option<usize>,
}

pub fn query(a: QueryArgs) -> anyhow::Result<ExitCode> {
    let path = db::resolve_db(a.db.as_deref(), Path::new("."));
    let mut params = BTreeMap::new();
    for p in &a.params {
        let (k, v) = p.split_once('=').with_context(|| format!("--param {p:?}: expected NAME=VALUE"))?;
        params.insert(k.trim_start_matches('$').to_string(), parse_param(v));
    }
    let opts = QueryOptions {
        read_only: !a.write,
        max_complexity: a.max_complexity,
        timeout: Duration::from_millis(a.timeout_ms),
        max_memory: a.max_memory_mb.map_or_else(crate::budgets::query_memory, crate::budgets::mib),
        max_rows: a.max_rows,
        params,
        ..QueryOptions::default()
    };
    if let Some(n) = a.repeat.filter(|_| !a.write) {
        return bench(&path, &a.query, &opts, n);
    }
    let result = if a.write {
        let mut store = db::open_rw(&path)?;
        store.write_atomically(|s| navegador_cypher::execute(s, &a.query, &opts))
    } else {
        let store = db::open_ro(&path)?;
        store.read_snapshot(|s| navegador_cypher::execute_read(s, &a.query, &opts))
    };
    // The error's Display carries the position and the caret under the query text.
    let r = result.map_err(|e| anyhow::anyhow!("{e}"))?;
    if r.truncated {
        eprintln!("note: result cut at {} rows (--max-rows)", a.max_rows);
    }
    for w in &r.warnings {
        let at = w.position.as_ref().map(|p| format!(" (line {}, column {})", p.line, p.column)).unwrap_or_default();
        eprintln!("warning: {}{at}", w.message);
    }
    let explain = navegador_cypher::parse(&a.query).map(|s| s.explain).unwrap_or(false);
    let out = match (a.format, explain) {
        (Format::Table, true) => r.rows.iter().filter_map(|row| row.first()).map(cell).collect::<Vec<_>>().join("\n") + "\n",
        (Format::Table, false) => table(&r),
        (Format::Json, _) if a.envelope => format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({
                "columns": r.columns,
                "rows": row_objects(&r),
                "truncated": r.truncated,
                "stats": navegador_cypher::result_to_json(&r)["stats"],
            }))?
        ),
        (Format::Json, _) => format!("{}\n", serde_json::to_string_pretty(&row_objects(&r))?),
    };
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn parse_param(v: &str) -> Value {
    match serde_json::from_str::<Json>(v) {
        Ok(j) => json_to_value(j),
        Err(_) => Value::String(v.to_string()),
    }
}

fn json_to_value(j: Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(b),
        Json::Number(n) => n.as_i64().map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        Json::String(s) => Value::String(s),
        Json::Array(a) => Value::List(a.into_iter().map(json_to_value).collect()),
        Json::Object(o) => Value::Map(o.into_iter().map(|(k, v)| (k, json_to_value(v))).collect()),
    }
}

/// Rows as objects keyed by column name.
pub(crate) fn row_objects(r: &QueryResult) -> Json {
    Json::Array(
        r.rows
            .iter()
            .map(|row| Json::Object(r.columns.iter().cloned().zip(row.iter().map(value_to_json)).collect()))
            .collect(),
    )
}

/// One cell of the table: nodes and relationships in a short Cypher-like form.
pub(crate) fn cell(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Node(n) => {
            let name = n
                .props
                .get("qualified_name")
                .or_else(|| n.props.get("name"))
                .map(|v| format!(" {}", cell(v)))
                .unwrap_or_default();
            let loc = match (n.props.get("file_path"), n.props.get("line_start")) {
                (Some(f), Some(l)) => format!(" ({}:{})", cell(f), cell(l)),
                (Some(f), None) => format!(" ({})", cell(f)),
                _ => String::new(),
            };
            format!("({}:{}{name}{loc})", n.id, n.labels.join(":"))
        }
        Value::Relationship(e) => format!("[{}:{} {}->{}]", e.id, e.rel_type, e.src, e.dst),
        Value::Path(p) => {
            let mut s = p.nodes.first().map(|n| format!("({})", n.id)).unwrap_or_default();
            for (e, n) in p.edges.iter().zip(p.nodes.iter().skip(1)) {
                s.push_str(&format!("-[:{}]-({})", e.rel_type, n.id));
            }
            s
        }
        other => value_to_json(other).to_string(),
    }
}

fn table(r: &QueryResult) -> String {
    let cells: Vec<Vec<String>> =
        r.rows.iter().map(|row| row.iter().map(|v| cell(v).replace('\n', "\\n")).collect()).collect();
    let width = |i: usize| {
        cells.iter().map(|row| row[i].chars().count()).chain([r.columns[i].chars().count()]).max().unwrap_or(0).min(80)
    };
    let widths: Vec<usize> = (0..r.columns.len()).map(width).collect();
    let line = |vals: &[String]| {
        vals.iter()
            .zip(&widths)
            .map(|(v, w)| format!("{v:<w$}", w = *w))
            .collect::<Vec<_>>()
            .join(" | ")
            .trim_end()
            .to_string()
    };
    let mut out = String::new();
    if !r.columns.is_empty() {
        w!(out, "{}", line(&r.columns));
        w!(out, "{}", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("-+-"));
        for row in &cells {
            w!(out, "{}", line(row));
        }
    }
    let s = &r.stats;
    let changes = [
        ("nodes created", s.nodes_created),
        ("nodes deleted", s.nodes_deleted),
        ("relationships created", s.relationships_created),
        ("relationships deleted", s.relationships_deleted),
        ("properties set", s.properties_set),
        ("labels added", s.labels_added),
        ("labels removed", s.labels_removed),
    ];
    let changed: Vec<String> = changes.iter().filter(|(_, n)| *n > 0).map(|(k, n)| format!("{n} {k}")).collect();
    w!(out, "({} row{}{})", r.rows.len(), if r.rows.len() == 1 { "" } else { "s" }, if changed.is_empty() {
        String::new()
    } else {
        format!("; {}", changed.join(", "))
    });
    out
}

#[derive(clap::Args)]
pub struct SchemaArgs {
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// `navegador schema`: labels, relationship types and property keys, with counts.
pub fn schema(a: SchemaArgs) -> anyhow::Result<ExitCode> {
    let path = db::resolve_db(a.db.as_deref(), Path::new("."));
    let store = db::open_ro(&path)?;
    let st = GraphRead::stats(&store)?;
    let keys = store.property_counts()?;
    if a.json {
        let obj = |v: &mut dyn Iterator<Item = (String, u64)>| Json::Object(v.map(|(k, n)| (k, json!(n))).collect());
        let out = json!({
            "labels": obj(&mut st.label_counts.clone().into_iter()),
            "relationship_types": obj(&mut st.edge_counts.clone().into_iter()),
            "node_properties": obj(&mut keys.node_keys.clone().into_iter()),
            "relationship_properties": obj(&mut keys.edge_keys.clone().into_iter()),
        });
        crate::emit(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    let section = |out: &mut String, title: &str, v: &mut dyn Iterator<Item = (String, u64)>| {
        w!(out, "{title}:");
        for (k, n) in v {
            w!(out, "  {k:<24} {n:>10}");
        }
    };
    section(&mut out, "labels", &mut st.label_counts.clone().into_iter());
    section(&mut out, "\nrelationship types", &mut st.edge_counts.clone().into_iter());
    section(&mut out, "\nnode properties", &mut keys.node_keys.clone().into_iter());
    section(&mut out, "\nrelationship properties", &mut keys.edge_keys.clone().into_iter());
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `query` `n` times (after one warm-up run that also fills the stats cache) and prints
/// `{"p50_ms", "p99_ms", "max_ms", "rows"}` on stdout.
fn bench(path: &Path, query: &str, opts: &QueryOptions, n: usize) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(path)?;
    let run = || {
        store.read_snapshot(|s| navegador_cypher::execute_read(s, query, opts)).map_err(|e| anyhow::anyhow!("{e}"))
    };
    let rows = run()?.rows.len();
    let mut times = Vec::with_capacity(n);
    for _ in 0..n.max(1) {
        let t = std::time::Instant::now();
        run()?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let out = json!({"p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": at(1.0), "runs": times.len(), "rows": rows});
    crate::emit(&format!("{out}\n"))?;
    Ok(ExitCode::SUCCESS)
}
