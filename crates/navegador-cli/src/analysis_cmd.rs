//! Reading knowledge: `navegador search`, `search-knowledge`, `rationale`, `owners`,
//! `concept`, `domain`. Text by default, `--json` for tools.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use navegador_knowledge::{describe, SearchScope};
use navegador_model::Label;
use navegador_store::NodeRow;
use serde_json::{json, Value};

use crate::db;

fn node_json(n: &NodeRow) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("id".into(), json!(n.id));
    m.insert("label".into(), json!(n.label));
    m.insert("name".into(), json!(n.name));
    if n.file_path.is_some() {
        m.insert("qualified_name".into(), json!(n.qualified_name));
        m.insert("file_path".into(), json!(n.file_path));
        m.insert("line_start".into(), json!(n.line_start));
        m.insert("line_end".into(), json!(n.line_end));
    }
    for (k, v) in &n.props {
        if k != "content" {
            m.entry(k.clone()).or_insert(v.clone());
        }
    }
    Value::Object(m)
}

fn print_json(v: &Value) -> anyhow::Result<ExitCode> {
    crate::emit(&format!("{}\n", serde_json::to_string_pretty(v)?))?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct SearchArgs {
    query: String,
    /// Search every label (code, knowledge, documents).
    #[arg(long)]
    all: bool,
    /// Also search documents and wiki pages.
    #[arg(long)]
    docs: bool,
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Leave test code out (it ranks after source otherwise).
    #[arg(long)]
    exclude_tests: bool,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    db: Option<PathBuf>,
}

/// `search` (code by default) or `search-knowledge` (`knowledge_only`).
pub fn search(a: SearchArgs, knowledge_only: bool) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let scope = if knowledge_only {
        SearchScope::Knowledge
    } else if a.all {
        SearchScope::All
    } else if a.docs {
        SearchScope::CodeAndDocs
    } else {
        SearchScope::Code
    };
    let hits = navegador_knowledge::search(&store.reader(), &a.query, scope, a.limit, a.exclude_tests)?;
    if a.json {
        let v: Vec<Value> = hits
            .iter()
            .map(|h| json!({"match": h.match_kind(), "score": h.score, "node": node_json(&h.node)}))
            .collect();
        return print_json(&json!(v));
    }
    let mut out = String::new();
    for h in &hits {
        w!(out, "{}", describe(&h.node));
    }
    if hits.is_empty() {
        w!(out, "no matches for {:?}", a.query);
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct NameArgs {
    /// A code name (bare, `Class.method`, qualified; matched by whole segments) or path;
    /// or a knowledge node's name.
    name: String,
    /// The file the code is in (when the name matches several nodes); `path:line` also
    /// gives the line.
    #[arg(long)]
    file: Option<String>,
    /// A line inside the definition: picks one of several overloads or redefinitions.
    #[arg(long)]
    line: Option<u32>,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    db: Option<PathBuf>,
}

/// The name and file the knowledge layer looks up, resolved as the MCP tools resolve names.
fn subject(store: &navegador_store::Store, a: &NameArgs) -> anyhow::Result<(String, Option<String>)> {
    let target = navegador_analysis::Target { name: &a.name, file: a.file.as_deref(), line: a.line };
    navegador_analysis::subject_key(store, &target).map_err(|e| {
        let mut m = e.to_string();
        if let navegador_analysis::AnalysisError::Ambiguous { candidates, .. } = &e {
            for c in candidates {
                let s = &c.select;
                let file = s.file.as_deref().map(|f| format!(" --file {f}")).unwrap_or_default();
                let line = s.line.map(|l| format!(" --line {l}")).unwrap_or_default();
                let at = format!("{}{}", c.file_path.as_deref().unwrap_or("?"), c.line_start.map(|l| format!(":{l}")).unwrap_or_default());
                m.push_str(&format!("\n  {} {} — {at} (pass: {}{file}{line})", c.node_type, s.name, s.name));
            }
        }
        anyhow::anyhow!(m)
    })
}

pub fn rationale(a: NameArgs) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let (name, file) = subject(&store, &a)?;
    let r = navegador_knowledge::get_rationale(&store.reader(), &name, file.as_deref())?;
    if a.json {
        return print_json(&json!({
            "subject": node_json(&r.subject),
            "rationale": r.entries.iter().map(|e| json!({
                "node": node_json(&e.node), "relationship": e.edge_type, "via": e.via, "rationale": e.rationale,
            })).collect::<Vec<_>>(),
            "governs": r.governs.iter().map(|(t, n)| json!({"relationship": t, "node": node_json(n)})).collect::<Vec<_>>(),
        }));
    }
    let mut out = String::new();
    w!(out, "{}", describe(&r.subject));
    if let Some(x) = r.subject.props.get("rationale").and_then(|v| v.as_str()) {
        w!(out, "  rationale: {x}");
    }
    for e in &r.entries {
        w!(out, "  {} ({}, via {})", describe(&e.node), e.edge_type, e.via);
        if let Some(x) = &e.rationale {
            w!(out, "    {}", x.lines().next().unwrap_or(""));
        }
    }
    for (t, n) in &r.governs {
        w!(out, "  {t} {}", describe(n));
    }
    if r.entries.is_empty() && r.governs.is_empty() {
        w!(out, "  no decisions or rules recorded");
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn owners(a: NameArgs) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let (name, file) = subject(&store, &a)?;
    let (subject, owners) = navegador_knowledge::find_owners(&store.reader(), &name, file.as_deref())?;
    if a.json {
        return print_json(&json!({
            "subject": node_json(&subject),
            "owners": owners.iter().map(|o| json!({"node": node_json(&o.node), "source": o.source, "via": o.via})).collect::<Vec<_>>(),
        }));
    }
    let mut out = String::new();
    w!(out, "{}", describe(&subject));
    for o in &owners {
        w!(out, "  {} ({}, via {})", describe(&o.node), o.source, o.via);
    }
    if owners.is_empty() {
        w!(out, "  no owners recorded");
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct MembersArgs {
    name: String,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    db: Option<PathBuf>,
}

/// `concept NAME` / `domain NAME`: everything joined to it.
pub fn members(a: MembersArgs, label: Label) -> anyhow::Result<ExitCode> {
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let (subject, members) = navegador_knowledge::members(&store.reader(), label, &a.name)?;
    if a.json {
        return print_json(&json!({
            "subject": node_json(&subject),
            "members": members.iter().map(|m| json!({
                "node": node_json(&m.node), "relationship": m.edge_type,
                "direction": if m.incoming { "in" } else { "out" },
            })).collect::<Vec<_>>(),
        }));
    }
    let mut out = String::new();
    w!(out, "{}", describe(&subject));
    if let Some(d) = subject.props.get("description").and_then(|v| v.as_str()) {
        w!(out, "  {d}");
    }
    for m in &members {
        if m.incoming {
            w!(out, "  <-{}- {}", m.edge_type, describe(&m.node));
        } else {
            w!(out, "  -{}-> {}", m.edge_type, describe(&m.node));
        }
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
