//! Knowledge added by hand: `add` creates or updates a node (never a duplicate; names match
//! case-insensitively and are stored as first written), `annotate` links it to code.

use navegador_model::{EdgeType, Label};
use navegador_store::{IngestTx, Link, LinkTarget, NodeRow};
use serde_json::{json, Map, Value};

use crate::{describe, KnowledgeError, Result};

/// A node to add: its label, name, properties (graph-model names) and optional domain.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    pub label: Label,
    pub name: String,
    pub props: Map<String, Value>,
    pub domain: Option<String>,
    /// Concepts this one is RELATED_TO (created when missing).
    pub related: Vec<String>,
}

const SEVERITIES: &str = "info, warning, critical";
const STATUSES: &str = "proposed, accepted, deprecated, superseded";

/// Creates or updates a knowledge node. Returns its id and whether it is new.
pub fn add_node(tx: &IngestTx<'_>, spec: &NodeSpec) -> Result<(i64, bool)> {
    let mut props = spec.props.clone();
    if let Some(Value::String(s)) = props.get("severity") {
        let s = s.to_lowercase();
        if !SEVERITIES.split(", ").any(|x| x == s) {
            return Err(KnowledgeError::Invalid { what: "severity", value: s, expected: SEVERITIES });
        }
        props.insert("severity".into(), json!(s));
    }
    if spec.label == Label::Decision {
        if let Some(Value::String(s)) = props.get("status") {
            let s = s.to_lowercase();
            if !STATUSES.split(", ").any(|x| x == s) {
                return Err(KnowledgeError::Invalid { what: "decision status", value: s, expected: STATUSES });
            }
            props.insert("status".into(), json!(s));
        }
    }
    if let Some(d) = &spec.domain {
        props.insert("domain".into(), json!(d));
    }
    // A node touched by hand is the user's: never removed as an orphan of its source.
    props.insert("source".into(), json!("hand"));
    let (id, created) = tx.upsert_knowledge(spec.label, &spec.name, None, props)?;
    if let Some(d) = &spec.domain {
        let (did, _) = tx.upsert_knowledge(Label::Domain, d, None, Map::new())?;
        if did != id {
            tx.add_edge_once(id, did, EdgeType::BelongsTo, None)?;
        }
    }
    for c in &spec.related {
        let (cid, _) = tx.upsert_knowledge(Label::Concept, c, None, Map::new())?;
        if cid != id {
            tx.add_edge_once(id, cid, EdgeType::RelatedTo, None)?;
        }
    }
    Ok((id, created))
}

/// What `annotate` links a code node to.
#[derive(Debug, Clone)]
pub enum AnnotateWith {
    /// Concept -ANNOTATES-> code.
    Concept(String),
    /// Rule -ANNOTATES-> code.
    Rule(String),
    /// Decision -GOVERNS-> code.
    Decision(String),
    /// code -ASSIGNED_TO-> Person.
    Owner(String),
    /// code -BELONGS_TO-> Domain.
    Domain(String),
    /// code -IMPLEMENTS-> Concept.
    Implements(String),
}

/// The outcome of `annotate`.
#[derive(Debug, Clone)]
pub struct Annotated {
    pub target: NodeRow,
    pub knowledge: NodeRow,
    pub edge_type: EdgeType,
    /// The knowledge node did not exist and was created.
    pub created: bool,
}

/// Links knowledge to the code node `name` (a name, qualified name or file path, in `file`
/// when given); several matches are refused with the candidates listed. A knowledge node
/// may also be the target (a Rule governing a Concept). The link is durable: it is
/// re-attached after every re-ingest.
pub fn annotate(tx: &IngestTx<'_>, name: &str, file: Option<&str>, with: &AnnotateWith) -> Result<Annotated> {
    let r = tx.reader();
    let mut candidates = r.code_named(name, file)?;
    let code = !candidates.is_empty();
    if !code && file.is_none() {
        candidates = r.knowledge_named(None, name)?;
    }
    let target = match candidates.len() {
        0 => return Err(KnowledgeError::NotFound { name: name.to_string(), file: file.map(str::to_string) }),
        1 => candidates.remove(0),
        _ => {
            return Err(KnowledgeError::Ambiguous {
                name: name.to_string(),
                candidates: candidates.iter().map(describe).collect(),
            })
        }
    };
    let (label, kname, edge_type, code_is_src) = match with {
        AnnotateWith::Concept(n) => (Label::Concept, n, EdgeType::Annotates, false),
        AnnotateWith::Rule(n) => (Label::Rule, n, EdgeType::Annotates, false),
        AnnotateWith::Decision(n) => (Label::Decision, n, EdgeType::Governs, false),
        AnnotateWith::Owner(n) => (Label::Person, n, EdgeType::AssignedTo, true),
        AnnotateWith::Domain(n) => (Label::Domain, n, EdgeType::BelongsTo, true),
        AnnotateWith::Implements(n) => (Label::Concept, n, EdgeType::Implements, true),
    };
    let existing = r.knowledge_named(Some(label), kname)?.into_iter().next();
    let (kid, created) = match existing {
        Some(n) => (n.id, false),
        None => {
            let mut p = Map::new();
            p.insert("source".into(), json!("hand"));
            tx.upsert_knowledge(label, kname, None, p)?
        }
    };
    if code {
        tx.add_link(&Link {
            id: 0,
            knode: kid,
            edge_type,
            code_is_src,
            target: LinkTarget::Exact {
                label: target.label.clone(),
                qualified_name: target.qualified_name.clone().or(target.name.clone()).unwrap_or_default(),
                file_path: target.file_path.clone().unwrap_or_default(),
            },
            origin: "hand".into(),
            origin_path: None,
            line: None,
            source: Some("annotation".into()),
        })?;
        crate::sync::materialize(tx)?;
    } else {
        let (s, d) = if code_is_src { (target.id, kid) } else { (kid, target.id) };
        tx.add_edge_once(s, d, edge_type, None)?;
    }
    let knowledge = r.node(kid)?.expect("knowledge node just written");
    Ok(Annotated { target, knowledge, edge_type, created })
}
