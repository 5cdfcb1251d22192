//! A changes report as a review comment (markdown, for a CI job to post) or as plain text
//! for a terminal; both from the same report, nothing recomputed.

use std::fmt::Write as _;

use super::{ChangedSymbol, ChangesReport};

fn impact_line(s: &ChangedSymbol) -> String {
    let mut parts = Vec::new();
    if let Some(i) = &s.impact {
        parts.push(format!("{} dependent{}", i.total, if i.total == 1 { "" } else { "s" }));
        if i.ambiguous_count > 0 {
            parts.push(format!("{} ambiguous not followed", i.ambiguous_count));
        }
        if i.unresolved_count > 0 {
            parts.push(format!("{} unresolved sites share its names", i.unresolved_count));
        }
    }
    parts.push(format!("{} test{}", s.tests, if s.tests == 1 { "" } else { "s" }));
    parts.join(", ")
}

fn where_(s: &ChangedSymbol) -> String {
    match &s.old_file {
        Some(o) if *o != s.file => format!("{}:{} (from {o})", s.file, s.line),
        _ => format!("{}:{}", s.file, s.line),
    }
}

/// The report as a markdown review comment.
pub fn render_markdown(r: &ChangesReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## navegador: impact of this change: risk **{}**\n", r.risk.as_str());
    let counts: Vec<String> = r.by_change.iter().map(|(k, v)| format!("{v} {}", k.replace('_', " "))).collect();
    let _ = writeln!(
        o,
        "{} ({} file{}, {} symbol{}{})\n",
        r.compared,
        r.files.len(),
        if r.files.len() == 1 { "" } else { "s" },
        r.symbols_total,
        if r.symbols_total == 1 { "" } else { "s" },
        if counts.is_empty() { String::new() } else { format!(": {}", counts.join(", ")) }
    );
    if !r.symbols.is_empty() {
        let _ = writeln!(o, "| risk | symbol | change | where | impact | why |\n|---|---|---|---|---|---|");
        for s in &r.symbols {
            let _ = writeln!(
                o,
                "| {} | `{}` | {} | {} | {} | {} |",
                s.risk.as_str(),
                s.name,
                s.change.replace('_', " "),
                where_(s),
                impact_line(s),
                s.reasons.join("; ")
            );
        }
        if r.symbols_total > r.symbols.len() {
            let _ = writeln!(o, "\n{} more changed symbols not shown.", r.symbols_total - r.symbols.len());
        }
        o.push('\n');
    }
    if !r.reviewers.is_empty() {
        let _ = writeln!(o, "### Reviewers\n");
        for p in &r.reviewers {
            let _ = writeln!(o, "- **{}**{}: {}", p.name, if p.owns_changed { "" } else { " (affected code)" }, p.why.join("; "));
        }
        o.push('\n');
    }
    let violated: Vec<_> = r.rules.iter().filter(|x| x.status != "pass").collect();
    if !violated.is_empty() || !r.governing.is_empty() {
        let _ = writeln!(o, "### Rules and decisions\n");
        for x in violated {
            match &x.error {
                Some(e) => {
                    let _ = writeln!(o, "- rule **{}** ({}): cannot run: {e}", x.rule, x.severity);
                }
                None => {
                    let _ = writeln!(
                        o,
                        "- rule **{}** ({}): {} introduced by this change, {} already there on changed code, {} fixed by this change, {} elsewhere{}{}{}",
                        x.rule,
                        x.severity,
                        x.introduced_total,
                        x.existing_total,
                        x.fixed_total,
                        x.elsewhere,
                        x.introduced.iter().map(|v| format!("\n  - introduced: `{v}`")).collect::<String>(),
                        x.existing.iter().map(|v| format!("\n  - existing: `{v}`")).collect::<String>(),
                        x.fixed.iter().map(|v| format!("\n  - fixed: `{v}`")).collect::<String>()
                    );
                }
            }
        }
        for g in &r.governing {
            let _ = writeln!(
                o,
                "- {} **{}**{} governs {}",
                g.node_type.to_lowercase(),
                g.name,
                g.severity.as_ref().map(|s| format!(" ({s})")).unwrap_or_default(),
                g.governs.join(", ")
            );
        }
        o.push('\n');
    }
    if !r.tests.is_empty() || r.untested_total > 0 {
        let _ = writeln!(o, "### Tests\n");
        if !r.tests.is_empty() {
            let _ = writeln!(o, "Run first ({} reach changed code):\n", r.tests_total);
            for t in &r.tests {
                if t.via == "imports" {
                    let _ = writeln!(o, "- `{}` (imports {})", t.file, t.reaches.join(", "));
                } else {
                    let _ = writeln!(o, "- `{}` ({}:{}, {} call{} away)", t.name, t.file, t.line.unwrap_or(0), t.distance, if t.distance == 1 { "" } else { "s" });
                }
            }
            o.push('\n');
        }
        if r.untested_total > 0 {
            let _ = writeln!(o, "No test reaches: {}{}\n", r.untested.iter().map(|u| format!("`{u}`")).collect::<Vec<_>>().join(", "), if r.untested_total > r.untested.len() { format!(" and {} more", r.untested_total - r.untested.len()) } else { String::new() });
        }
    }
    if !r.apart.is_empty() {
        let _ = writeln!(o, "Listed apart (not analysed): {}\n", r.apart.iter().map(|f| format!("`{}` ({})", f.path, f.apart.as_deref().unwrap_or(""))).collect::<Vec<_>>().join(", "));
    }
    for n in &r.notes {
        let _ = writeln!(o, "> {n}");
    }
    o
}

/// The report as plain text.
pub fn render_text(r: &ChangesReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}: risk {}", r.compared, r.risk.as_str());
    for f in &r.files {
        let _ = writeln!(
            o,
            "  {:<8} {}{} (+{} -{}, graph: {})",
            f.status,
            f.path,
            f.old_path.as_ref().map(|p| format!(" (from {p})")).unwrap_or_default(),
            f.added_lines,
            f.removed_lines,
            f.graph
        );
    }
    for f in &r.apart {
        let _ = writeln!(o, "  apart    {} ({})", f.path, f.apart.as_deref().unwrap_or(""));
    }
    if !r.symbols.is_empty() {
        let _ = writeln!(o, "symbols ({} changed):", r.symbols_total);
        for s in &r.symbols {
            let _ = writeln!(o, "  {:<8} {:<17} {} {}: {}", s.risk.as_str(), s.change, s.name, where_(s), impact_line(s));
            if let (Some(old), Some(new)) = (&s.old_signature, &s.signature) {
                let _ = writeln!(o, "           was: {old}\n           now: {new}");
            }
            if !s.reasons.is_empty() {
                let _ = writeln!(o, "           why: {}", s.reasons.join("; "));
            }
            if let Some(i) = &s.impact {
                for a in &i.items {
                    let _ = writeln!(o, "           <- {} {} ({}:{}, distance {})", a.relation, a.name, a.file.as_deref().unwrap_or(""), a.line.unwrap_or(0), a.distance);
                }
            }
        }
    }
    for p in &r.reviewers {
        let _ = writeln!(o, "reviewer {}{}: {}", p.name, if p.owns_changed { "" } else { " (affected)" }, p.why.join("; "));
    }
    for x in r.rules.iter().filter(|x| x.status != "pass") {
        let _ = writeln!(
            o,
            "rule {} ({}): {}, {} introduced, {} existing on changed code, {} fixed, {} elsewhere",
            x.rule, x.severity, x.status, x.introduced_total, x.existing_total, x.fixed_total, x.elsewhere
        );
        for v in &x.introduced {
            let _ = writeln!(o, "  introduced {v}");
        }
        for v in &x.existing {
            let _ = writeln!(o, "  existing {v}");
        }
        for v in &x.fixed {
            let _ = writeln!(o, "  fixed {v}");
        }
    }
    for g in &r.governing {
        let _ = writeln!(o, "{} {} governs {}", g.node_type.to_lowercase(), g.name, g.governs.join(", "));
    }
    for t in &r.tests {
        if t.via == "imports" {
            let _ = writeln!(o, "test file {} (imports {})", t.file, t.reaches.join(", "));
        } else {
            let _ = writeln!(o, "test {} ({}:{}, distance {})", t.name, t.file, t.line.unwrap_or(0), t.distance);
        }
    }
    if r.untested_total > 0 {
        let _ = writeln!(o, "untested: {}", r.untested.join(", "));
    }
    for n in &r.notes {
        let _ = writeln!(o, "note: {n}");
    }
    o
}
