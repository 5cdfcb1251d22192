//! Writing knowledge: `navegador add`, `annotate`, `adr ingest`, `wiki ingest`. Each is one
//! transaction that ends by re-attaching links to the current code nodes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use navegador_knowledge::{describe, AnnotateWith, NodeSpec};
use navegador_model::Label;
use serde_json::{json, Map};

use crate::db;

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    Concept,
    Rule,
    Decision,
    Person,
    Domain,
}

impl Kind {
    fn label(self) -> Label {
        match self {
            Kind::Concept => Label::Concept,
            Kind::Rule => Label::Rule,
            Kind::Decision => Label::Decision,
            Kind::Person => Label::Person,
            Kind::Domain => Label::Domain,
        }
    }
}

#[derive(clap::Args)]
pub struct AddArgs {
    /// What to add.
    #[arg(value_enum)]
    kind: Kind,
    /// Its name (matched case-insensitively; adding an existing name updates it).
    name: String,
    #[arg(long = "desc", visible_alias = "description")]
    description: Option<String>,
    /// The Domain it belongs to (created when missing; adds BELONGS_TO).
    #[arg(long)]
    domain: Option<String>,
    /// Concept or Decision status (decisions: proposed, accepted, deprecated, superseded).
    #[arg(long)]
    status: Option<String>,
    /// Rule severity: info, warning, critical.
    #[arg(long)]
    severity: Option<String>,
    #[arg(long)]
    rationale: Option<String>,
    #[arg(long)]
    alternatives: Option<String>,
    #[arg(long)]
    date: Option<String>,
    /// Rule: a read-only Cypher query returning violations (run by `navegador check`).
    #[arg(long)]
    constraint: Option<String>,
    /// Concept: a related concept (RELATED_TO); repeatable.
    #[arg(long = "related", value_name = "CONCEPT")]
    related: Vec<String>,
    /// Concept examples.
    #[arg(long)]
    examples: Option<String>,
    #[arg(long)]
    email: Option<String>,
    #[arg(long)]
    role: Option<String>,
    #[arg(long)]
    team: Option<String>,
    /// Person handle (`@alice`).
    #[arg(long)]
    handle: Option<String>,
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
}

pub fn add(a: AddArgs) -> anyhow::Result<ExitCode> {
    let mut store = db::open_rw(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let mut props = Map::new();
    for (k, v) in [
        ("description", &a.description),
        ("status", &a.status),
        ("severity", &a.severity),
        ("rationale", &a.rationale),
        ("alternatives", &a.alternatives),
        ("date", &a.date),
        ("constraint", &a.constraint),
        ("examples", &a.examples),
        ("email", &a.email),
        ("role", &a.role),
        ("team", &a.team),
        ("handle", &a.handle),
    ] {
        if let Some(v) = v {
            props.insert(k.into(), json!(v));
        }
    }
    let label = a.kind.label();
    let tx = store.begin()?;
    let (id, created) = navegador_knowledge::add_node(&tx, &NodeSpec { label, name: a.name.clone(), props, domain: a.domain, related: a.related })?;
    let node = tx.reader().node(id)?.context("node vanished")?;
    tx.commit()?;
    let mut out = String::new();
    w!(out, "{} {}", if created { "added" } else { "updated" }, describe(&node));
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("with").required(true).args(["concept", "rule", "decision", "owner", "domain", "implements"])))]
pub struct AnnotateArgs {
    /// The code to annotate: a name, a qualified name or a file path.
    code_name: String,
    /// The file the code is in (when the name matches several nodes).
    #[arg(long)]
    file: Option<String>,
    #[arg(long)]
    concept: Option<String>,
    #[arg(long)]
    rule: Option<String>,
    #[arg(long)]
    decision: Option<String>,
    /// A Person who owns the code (ASSIGNED_TO).
    #[arg(long)]
    owner: Option<String>,
    /// A Domain the code belongs to.
    #[arg(long)]
    domain: Option<String>,
    /// A Concept the code implements (IMPLEMENTS).
    #[arg(long)]
    implements: Option<String>,
    #[arg(long)]
    db: Option<PathBuf>,
}

pub fn annotate(a: AnnotateArgs) -> anyhow::Result<ExitCode> {
    let with = if let Some(c) = a.concept {
        AnnotateWith::Concept(c)
    } else if let Some(r) = a.rule {
        AnnotateWith::Rule(r)
    } else if let Some(d) = a.decision {
        AnnotateWith::Decision(d)
    } else if let Some(o) = a.owner {
        AnnotateWith::Owner(o)
    } else if let Some(c) = a.implements {
        AnnotateWith::Implements(c)
    } else {
        AnnotateWith::Domain(a.domain.unwrap_or_default())
    };
    let mut store = db::open_rw(&db::resolve_db(a.db.as_deref(), Path::new(".")))?;
    let tx = store.begin()?;
    let done = navegador_knowledge::annotate(&tx, &a.code_name, a.file.as_deref(), &with)?;
    tx.commit()?;
    let mut out = String::new();
    if done.created {
        w!(out, "created {}", describe(&done.knowledge));
    }
    let (s, d) = if matches!(done.edge_type, navegador_model::EdgeType::AssignedTo | navegador_model::EdgeType::BelongsTo | navegador_model::EdgeType::Implements) {
        (describe(&done.target), describe(&done.knowledge))
    } else {
        (describe(&done.knowledge), describe(&done.target))
    };
    w!(out, "{s} -{}-> {d}", done.edge_type);
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct DirArgs {
    #[command(subcommand)]
    cmd: DirCmd,
}

#[derive(clap::Subcommand)]
enum DirCmd {
    /// Read every markdown file under DIR.
    Ingest {
        dir: PathBuf,
        #[arg(long)]
        db: Option<PathBuf>,
    },
}

/// `navegador adr ingest DIR` (`wiki` when `wiki`).
pub fn dir_ingest(a: DirArgs, wiki: bool) -> anyhow::Result<ExitCode> {
    let DirCmd::Ingest { dir, db } = a.cmd;
    if !dir.is_dir() {
        anyhow::bail!("{} is not a directory", dir.display());
    }
    let base = std::env::current_dir()?.canonicalize()?;
    let shown = dir.display().to_string();
    let dir = dir.canonicalize().with_context(|| format!("cannot open {}", dir.display()))?;
    let mut store = db::open_rw(&db::resolve_db(db.as_deref(), Path::new(".")))?;
    let tx = store.begin()?;
    let mut out = String::new();
    if wiki {
        let (n, skipped) = navegador_knowledge::ingest_wiki_dir(&tx, &dir, &base)?;
        for w in &skipped {
            eprintln!("warning: {}: {}; skipped", w.path, w.message);
        }
        w!(out, "ingested {n} wiki pages from {shown}{}", if skipped.is_empty() { String::new() } else { format!(" ({} skipped)", skipped.len()) });
    } else {
        let (n, warnings) = navegador_knowledge::ingest_adr_dir(&tx, &dir, &base)?;
        for w in &warnings {
            eprintln!("warning: {w}; skipped");
        }
        w!(out, "ingested {n} decisions from {shown}{}", if warnings.is_empty() { String::new() } else { format!(" ({} skipped)", warnings.len()) });
    }
    tx.commit()?;
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
