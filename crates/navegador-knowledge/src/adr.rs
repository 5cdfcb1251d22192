//! Architecture decision records, in Nygard's format (`# 1. Title`, `Date:`, `## Status`,
//! `## Context`, `## Decision`, `## Consequences`) and MADR's (front matter or `* Status:`
//! bullets, `## Context and Problem Statement`, `## Considered Options`,
//! `## Decision Outcome`). Each ADR becomes a Decision node; its deciders Person nodes
//! (DECIDED_BY); "Supersedes" links SUPERSEDES edges; code it names in backticks or links is
//! linked with GOVERNS (named in the decision itself) or DOCUMENTS (named elsewhere).

use std::path::Path;

use navegador_model::{EdgeType, Label};
use navegador_store::{IngestTx, Link, LinkTarget};
use serde_json::{json, Map};

use crate::markdown::{self, Mention};
use navegador_store::StoreError;

use crate::Warning;

/// Folders searched for ADRs by `navegador ingest`, relative to the workspace root.
pub const ADR_DIRS: [&str; 5] = ["docs/adr", "doc/adr", "docs/decisions", "adr", "docs/architecture/decisions"];

/// One parsed ADR.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Adr {
    pub title: String,
    pub number: Option<u32>,
    /// `nygard` or `madr`.
    pub format: &'static str,
    pub status: Option<String>,
    pub date: Option<String>,
    pub context: String,
    pub decision: String,
    pub consequences: String,
    /// Considered options.
    pub alternatives: Vec<String>,
    pub deciders: Vec<String>,
    pub domain: Option<String>,
    /// Targets of "Supersedes" links (file names or titles, as written).
    pub supersedes: Vec<String>,
    /// Targets of "Superseded by" links.
    pub superseded_by: Vec<String>,
    /// Code named in the decision section (GOVERNS).
    pub governs: Vec<Mention>,
    /// Code named elsewhere (DOCUMENTS).
    pub documents: Vec<Mention>,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Preamble,
    Status,
    Context,
    Decision,
    Consequences,
    Options,
    Other,
}

fn classify(h: &str) -> Option<Section> {
    let h = h.to_lowercase();
    let h = h.trim_end_matches(':');
    Some(match h {
        "status" => Section::Status,
        "context" | "context and problem statement" | "problem statement" | "background" => Section::Context,
        "decision" | "decision outcome" | "decisions" => Section::Decision,
        "consequences" | "positive consequences" | "negative consequences" => Section::Consequences,
        "considered options" | "options" | "alternatives" | "options considered" => Section::Options,
        _ => return None,
    })
}

/// Parses one ADR. A malformed front matter or a missing title is a warning: the ADR is
/// skipped.
pub fn parse(path: &str, text: &str) -> Result<Adr, Warning> {
    let warn = |line: u32, message: String| Warning { path: path.to_string(), line, message };
    let lines: Vec<&str> = text.lines().collect();
    let mut adr = Adr { format: "nygard", ..Default::default() };
    let fm = markdown::front_matter(&lines).map_err(|(l, m)| warn(l, m))?;
    let mut body_start = 0;
    if let Some(fm) = fm {
        adr.format = "madr";
        body_start = fm.body_start;
        for (k, v, _) in fm.pairs {
            apply_field(&mut adr, &k, &v);
        }
    }
    let mut section = Section::Preamble;
    let mut fenced = false;
    let mut title_seen = false;
    for (i, raw) in lines.iter().enumerate().skip(body_start) {
        let line_no = i as u32 + 1;
        if markdown::is_fence(raw) {
            fenced = !fenced;
        }
        if !fenced {
            if let Some((level, h)) = markdown::heading(raw) {
                if level == 1 && !title_seen {
                    title_seen = true;
                    let (n, t) = split_number(h);
                    adr.number = adr.number.or(n);
                    adr.title = t.to_string();
                    continue;
                }
                if level >= 2 {
                    match classify(h) {
                        Some(s) => {
                            if matches!(s, Section::Options) || h.to_lowercase().contains("decision outcome") {
                                adr.format = "madr";
                            }
                            if h.eq_ignore_ascii_case("context and problem statement") {
                                adr.format = "madr";
                            }
                            section = s;
                        }
                        // A sub-heading inside a known section stays in it (MADR's
                        // `### Consequences` under `## Decision Outcome` is classified above).
                        None if level >= 3 && section != Section::Other => {}
                        None => section = Section::Other,
                    }
                    continue;
                }
            }
        }
        let t = raw.trim();
        // Preamble fields: `Date: 2020-01-01` (Nygard), `* Status: accepted` (MADR 2).
        if !fenced && matches!(section, Section::Preamble) {
            let f = t.trim_start_matches(['*', '-']).trim();
            if let Some((k, v)) = f.split_once(':') {
                let k = k.trim().to_lowercase();
                if matches!(k.as_str(), "status" | "date" | "deciders" | "decision-makers" | "domain") {
                    if t.starts_with('*') || t.starts_with('-') {
                        adr.format = "madr";
                    }
                    apply_field(&mut adr, &k, v.trim());
                    continue;
                }
            }
        }
        if !fenced {
            let lower = t.to_lowercase();
            if lower.starts_with("supersedes") || lower.starts_with("* supersedes") {
                adr.supersedes.extend(supersede_targets(t));
            } else if lower.starts_with("superseded by") || lower.starts_with("* superseded by") {
                adr.superseded_by.extend(supersede_targets(t));
            }
            let mut ms = Vec::new();
            markdown::mentions_in_line(raw, line_no, &mut ms);
            match section {
                Section::Decision => adr.governs.extend(ms),
                _ => adr.documents.extend(ms),
            }
        }
        let target = match section {
            Section::Status => {
                if adr.status.is_none() && !t.is_empty() {
                    let word = t.trim_start_matches(['*', '-']).split_whitespace().next().unwrap_or("");
                    adr.status = Some(word.trim_end_matches(['.', ',']).to_lowercase());
                }
                continue;
            }
            Section::Context => &mut adr.context,
            Section::Decision => &mut adr.decision,
            Section::Consequences => &mut adr.consequences,
            Section::Options => {
                let item = t.trim_start_matches(['*', '-', '+']).trim();
                if (t.starts_with(['*', '-', '+']) || t.chars().next().is_some_and(|c| c.is_ascii_digit())) && !item.is_empty() {
                    let item = item.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').trim();
                    adr.alternatives.push(item.to_string());
                }
                continue;
            }
            Section::Preamble | Section::Other => continue,
        };
        if !(target.is_empty() && t.is_empty()) {
            target.push_str(raw.trim_end());
            target.push('\n');
        }
    }
    if adr.title.is_empty() {
        return Err(warn(1, "no `# Title` heading; not an ADR".into()));
    }
    if adr.number.is_none() {
        let stem = Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        adr.number = leading_number(&stem);
    }
    for s in [&mut adr.context, &mut adr.decision, &mut adr.consequences] {
        *s = s.trim().to_string();
    }
    Ok(adr)
}

fn apply_field(adr: &mut Adr, key: &str, v: &str) {
    let v = v.trim();
    if v.is_empty() {
        return;
    }
    match key {
        "status" => adr.status = Some(v.split_whitespace().next().unwrap_or(v).to_lowercase()),
        "date" => adr.date = Some(v.to_string()),
        "deciders" | "decision-makers" | "decision makers" => {
            adr.deciders.extend(v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()))
        }
        "domain" => adr.domain = Some(v.to_string()),
        "supersedes" => adr.supersedes.extend(v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty())),
        "title" if adr.title.is_empty() => adr.title = v.to_string(),
        _ => {}
    }
}

fn supersede_targets(line: &str) -> Vec<String> {
    let links = markdown::link_targets(line);
    if !links.is_empty() {
        return links;
    }
    let rest = line.split_once(' ').map(|x| x.1).unwrap_or("");
    let rest = rest.trim_start_matches("by").trim().trim_matches(['[', ']']);
    if rest.is_empty() { Vec::new() } else { vec![rest.to_string()] }
}

fn leading_number(s: &str) -> Option<u32> {
    let s = s.trim_start_matches(|c: char| c.is_ascii_alphabetic()).trim_start_matches(['-', '_', ' ']);
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// `1. Title`, `ADR-0001: Title`, `0001 - Title` -> (number, title).
fn split_number(h: &str) -> (Option<u32>, &str) {
    let trimmed = h.strip_prefix("ADR").or_else(|| h.strip_prefix("adr")).unwrap_or(h).trim_start_matches(['-', ' ']);
    let digits_len = trimmed.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits_len == 0 {
        return (None, h);
    }
    let rest = trimmed[digits_len..].trim_start_matches(['.', ':', '-', ' ']).trim();
    if rest.is_empty() {
        return (None, h);
    }
    (trimmed[..digits_len].parse().ok(), rest)
}

/// Writes one ADR: its Decision node (updated in place when it exists), deciders,
/// domain and the durable links for what it names. Supersedes edges need every ADR of a
/// folder, so they are added by [`link_supersedes`].
pub fn write(tx: &IngestTx<'_>, adr: &Adr, source_path: &str) -> Result<i64, StoreError> {
    let mut props = Map::new();
    props.insert("status".into(), json!(adr.status));
    props.insert("date".into(), json!(adr.date));
    props.insert("description".into(), json!(adr.context));
    props.insert("rationale".into(), json!(adr.decision));
    props.insert("consequences".into(), json!(adr.consequences));
    if !adr.alternatives.is_empty() {
        props.insert("alternatives".into(), json!(adr.alternatives.join("; ")));
    }
    props.insert("number".into(), json!(adr.number));
    props.insert("format".into(), json!(adr.format));
    props.insert("domain".into(), json!(adr.domain));
    props.insert("source".into(), json!("adr"));
    props.insert("source_path".into(), json!(source_path));
    let (id, _) = tx.upsert_knowledge(Label::Decision, &adr.title, None, props)?;
    for d in &adr.deciders {
        let (pid, _) = tx.upsert_knowledge(Label::Person, d, None, Map::new())?;
        tx.add_edge_once(id, pid, EdgeType::DecidedBy, None)?;
    }
    if let Some(d) = &adr.domain {
        let (did, _) = tx.upsert_knowledge(Label::Domain, d, None, Map::new())?;
        tx.add_edge_once(id, did, EdgeType::BelongsTo, None)?;
    }
    tx.delete_links("adr", Some(source_path))?;
    for (ms, ty) in [(&adr.governs, EdgeType::Governs), (&adr.documents, EdgeType::Documents)] {
        for m in ms {
            tx.add_link(&Link {
                id: 0,
                knode: id,
                edge_type: ty,
                code_is_src: false,
                target: LinkTarget::Mention(m.text.clone()),
                origin: "adr".into(),
                origin_path: Some(source_path.to_string()),
                line: Some(m.line),
                source: Some(format!("adr:{source_path}:{}", m.line)),
            })?;
        }
    }
    Ok(id)
}

/// Adds SUPERSEDES edges among ADRs written together: `written` is (decision id, source
/// path, adr). A target is matched by file name or by title.
pub fn link_supersedes(tx: &IngestTx<'_>, written: &[(i64, String, Adr)]) -> Result<(), StoreError> {
    let find = |target: &str| -> Option<i64> {
        let file = target.rsplit('/').next().unwrap_or(target);
        written
            .iter()
            .find(|(_, p, a)| {
                p.rsplit('/').next() == Some(file)
                    || a.title.eq_ignore_ascii_case(target)
                    || a.number.is_some() && a.number == leading_number(file).or_else(|| split_number(target).0)
            })
            .map(|(id, _, _)| *id)
    };
    for (id, _, adr) in written {
        for t in &adr.supersedes {
            if let Some(other) = find(t).filter(|o| o != id) {
                tx.add_edge_once(*id, other, EdgeType::Supersedes, None)?;
            }
        }
        for t in &adr.superseded_by {
            if let Some(other) = find(t).filter(|o| o != id) {
                tx.add_edge_once(other, *id, EdgeType::Supersedes, None)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nygard() {
        let a = parse(
            "docs/adr/0002-use-postgres.md",
            "# 2. Use Postgres\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\nSupersedes [1. Use SQLite](0001-use-sqlite.md)\n\n## Context\n\nWe need `db.connect`.\n\n## Decision\n\nUse `app.db.Pool` everywhere.\n\n## Consequences\n\nOps work.\n",
        )
        .unwrap();
        assert_eq!(a.title, "Use Postgres");
        assert_eq!(a.number, Some(2));
        assert_eq!(a.format, "nygard");
        assert_eq!(a.status.as_deref(), Some("accepted"));
        assert_eq!(a.date.as_deref(), Some("2024-01-02"));
        assert_eq!(a.supersedes, vec!["0001-use-sqlite.md"]);
        assert_eq!(a.governs.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), vec!["app.db.Pool"]);
        assert_eq!(a.documents.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), vec!["db.connect"]);
        assert_eq!(a.consequences, "Ops work.");
    }

    #[test]
    fn madr_with_front_matter_and_bullets() {
        let a = parse(
            "docs/decisions/0003-queue.md",
            "---\nstatus: proposed\ndate: 2024-02-01\ndeciders: [Ana, Bo]\n---\n# Use a queue\n\n## Context and Problem Statement\n\nSlow.\n\n## Considered Options\n\n* Kafka\n* Redis streams\n\n## Decision Outcome\n\nChosen option: \"Redis streams\".\n\n### Consequences\n\n* Good, because simple.\n",
        )
        .unwrap();
        assert_eq!(a.format, "madr");
        assert_eq!(a.status.as_deref(), Some("proposed"));
        assert_eq!(a.deciders, vec!["Ana", "Bo"]);
        assert_eq!(a.alternatives, vec!["Kafka", "Redis streams"]);
        assert_eq!(a.consequences, "* Good, because simple.");
        let b = parse("x/0004-b.md", "# B\n\n* Status: accepted\n* Deciders: Cy\n\n## Decision Outcome\n\nOk.\n").unwrap();
        assert_eq!((b.format, b.status.as_deref(), b.deciders.clone()), ("madr", Some("accepted"), vec!["Cy".to_string()]));
        let bad = parse("x/0005-c.md", "---\nstatus accepted\n---\n# C\n").unwrap_err();
        assert_eq!(bad.line, 2);
    }
}
