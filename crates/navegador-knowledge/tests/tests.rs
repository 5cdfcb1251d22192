//! Data-driven tests of the knowledge layer. Each `fixtures/NAME.txt` is a workspace
//! written as text (`//- path` starts a file) plus an `//- @hand` section of hand-made
//! knowledge (`add Label | Name | key=value…`, `annotate CODE | file=… | rule=…`). It is
//! ingested into a real SQLite file; the knowledge nodes, their links, the owners and
//! rationale of every definition, and the warnings are rendered as sorted text lines and
//! compared with `fixtures/NAME.graph` (`UPDATE_GOLDEN=1` rewrites). The same render must
//! come back after an incremental re-ingest that re-parses every file and after `--clear`.

use std::path::{Path, PathBuf};

use navegador_index::{ingest, IngestConfig, IngestReport, NoProgress};
use navegador_knowledge::{describe, AnnotateWith, NodeSpec};
use navegador_model::Label;
use navegador_store::{NodeRow, Store, KNOWLEDGE_LABELS};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

/// (files, hand lines).
fn parse_fixture(text: &str) -> (Vec<(String, String)>, Vec<String>) {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("//- ") {
            files.push((p.trim().to_string(), String::new()));
        } else if let Some((_, c)) = files.last_mut() {
            c.push_str(line);
            c.push('\n');
        }
    }
    let hand = files.iter().find(|(p, _)| p == "@hand").map(|(_, c)| c.lines().map(str::to_string).collect()).unwrap_or_default();
    files.retain(|(p, _)| !p.starts_with('@'));
    (files, hand)
}

fn write_tree(root: &Path, files: &[(String, String)]) {
    for (p, c) in files {
        let path = root.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    }
}

fn run_ingest(root: &Path, store: &mut Store, clear: bool, clear_all: bool) -> IngestReport {
    let cfg = IngestConfig { clear, clear_all, ..Default::default() };
    ingest(root, store, &cfg, &NoProgress, None).unwrap()
}

/// Applies the `@hand` lines; each outcome is a line of the render.
fn apply_hand(store: &mut Store, hand: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in hand.iter().filter(|l| !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let (cmd, first) = parts[0].split_once(' ').unwrap();
        let kv: Vec<(&str, &str)> = parts[1..].iter().filter_map(|p| p.split_once('=')).collect();
        let tx = store.begin().unwrap();
        let res = match cmd {
            "add" => {
                let label = Label::ALL.iter().find(|l| l.as_str().eq_ignore_ascii_case(first)).copied().unwrap();
                let mut props = serde_json::Map::new();
                let mut domain = None;
                let mut related = Vec::new();
                for (k, v) in &kv {
                    if *k == "related" {
                        related.push(v.to_string());
                    } else if *k == "domain" {
                        domain = Some(v.to_string());
                    } else {
                        props.insert(k.to_string(), serde_json::json!(v));
                    }
                }
                navegador_knowledge::add_node(&tx, &NodeSpec { label, name: parts[1].to_string(), props, domain, related })
                    .map(|(id, created)| format!("{} {}", if created { "added" } else { "updated" }, id_desc(&tx.reader().node(id).unwrap().unwrap())))
            }
            "annotate" => {
                let code = first;
                let file = kv.iter().find(|(k, _)| *k == "file").map(|(_, v)| *v);
                let (k, v) = kv.iter().find(|(k, _)| *k != "file").copied().unwrap();

                let with = match k {
                    "concept" => AnnotateWith::Concept(v.into()),
                    "rule" => AnnotateWith::Rule(v.into()),
                    "decision" => AnnotateWith::Decision(v.into()),
                    "owner" => AnnotateWith::Owner(v.into()),
                    "domain" => AnnotateWith::Domain(v.into()),
                    "implements" => AnnotateWith::Implements(v.into()),
                    other => panic!("unknown annotate key {other}"),
                };
                navegador_knowledge::annotate(&tx, code, file, &with)
                    .map(|a| format!("annotated {} {} {}", id_desc(&a.target), a.edge_type, id_desc(&a.knowledge)))
            }
            other => panic!("unknown hand command {other}"),
        };
        match res {
            Ok(s) => {
                tx.commit().unwrap();
                out.push(format!("hand {line} => {s}"));
            }
            Err(e) => out.push(format!("hand {line} => error: {}", e.to_string().replace('\n', " / "))),
        }
    }
    out
}

/// A node without ids or line numbers (they change on re-parse).
fn id_desc(n: &NodeRow) -> String {
    if n.file_path.is_some() {
        format!("{}:{}", n.label, n.qualified_name.as_deref().unwrap_or(""))
    } else {
        format!("{}:{:?}", n.label, n.name.as_deref().unwrap_or(""))
    }
}

fn short(v: &serde_json::Value) -> String {
    let s = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let first = s.lines().next().unwrap_or("");
    let mut t: String = first.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    format!("{t:?}")
}

/// Knowledge nodes, every edge touching them, and owners and rationale of every
/// definition, as sorted lines.
fn render(store: &Store) -> Vec<String> {
    let r = store.reader();
    let mut lines = Vec::new();
    for label in KNOWLEDGE_LABELS {
        for n in r.nodes_labelled(label).unwrap() {
            let props: Vec<String> = n.props.iter().filter(|(k, _)| *k != "content").map(|(k, v)| format!("{k}={}", short(v))).collect();
            lines.push(format!("node {} {}", id_desc(&n), props.join(" ")));
            for nb in r.neighbors(n.id, true, &[]).unwrap() {
                let src = nb.edge_props.get("source").and_then(|v| v.as_str()).map(|s| format!(" [{s}]")).unwrap_or_default();
                lines.push(format!("edge {} -{}-> {}{src}", id_desc(&n), nb.edge_type, id_desc(&nb.node)));
            }
            for nb in r.neighbors(n.id, false, &[]).unwrap() {
                if nb.node.file_path.is_none() {
                    continue; // knowledge -> knowledge is listed from its source
                }
                let src = nb.edge_props.get("source").and_then(|v| v.as_str()).map(|s| format!(" [{s}]")).unwrap_or_default();
                lines.push(format!("edge {} -{}-> {}{src}", id_desc(&nb.node), nb.edge_type, id_desc(&n)));
            }
        }
    }
    let defs: Vec<NodeRow> = {
        let mut v = Vec::new();
        for l in [Label::File, Label::Class, Label::Function, Label::Method] {
            v.extend(r.nodes_labelled(l).unwrap());
        }
        v
    };
    for d in &defs {
        let file = d.file_path.as_deref();
        let q = d.qualified_name.clone().unwrap_or_default();
        let (_, owners) = navegador_knowledge::find_owners(&r, &q, file).unwrap();
        let o: Vec<String> = owners.iter().map(|o| format!("{}({}; {})", id_desc(&o.node), o.source, o.via)).collect();
        lines.push(format!("owners {}: {}", id_desc(d), o.join(", ")));
        let rat = navegador_knowledge::get_rationale(&r, &q, file).unwrap();
        if !rat.entries.is_empty() {
            let e: Vec<String> = rat.entries.iter().map(|e| format!("{}({} via {})", id_desc(&e.node), e.edge_type, e.via)).collect();
            lines.push(format!("rationale {}: {}", id_desc(d), e.join(", ")));
        }
    }
    lines.sort();
    lines
}

fn check_golden(fixture: &Path, got: &str, failures: &mut Vec<String>) {
    let golden = fixture.with_extension("graph");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    if want != got {
        failures.push(format!("--- {}\n{want}+++ got\n{got}", golden.display()));
    }
}

#[test]
fn knowledge_matches_golden_and_survives_reingest() {
    let mut failures = Vec::new();
    for fx in fixtures() {
        let (files, hand) = parse_fixture(&std::fs::read_to_string(&fx).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let mut store = Store::open(&tmp.path().join("g.db")).unwrap();
        let report = run_ingest(&root, &mut store, false, false);
        let mut head: Vec<String> =
            report.diagnostics.iter().map(|(p, l, m)| format!("warning {p}:{l}: {m}")).collect();
        head.extend(apply_hand(&mut store, &hand));
        let first = render(&store);
        let got = format!("{}\n{}\n", head.join("\n"), first.join("\n"));
        check_golden(&fx, &got, &mut failures);

        // An incremental ingest that re-parses every code file (new node ids) keeps the
        // knowledge and re-attaches every link.
        for (p, c) in &files {
            let comment = match p.rsplit('.').next() {
                Some("py") => "#",
                Some("rs" | "go" | "c" | "h" | "js" | "ts" | "java") => "//",
                _ => continue,
            };
            std::fs::write(root.join(p), format!("{c}\n{comment} touched\n")).unwrap();
        }
        let again = run_ingest(&root, &mut store, false, false);
        assert!(again.files_parsed > 0);
        assert_eq!(render(&store), first, "{}: knowledge changed after an incremental re-ingest", fx.display());
        run_ingest(&root, &mut store, true, false);
        assert_eq!(render(&store), first, "{}: knowledge changed after ingest --clear", fx.display());

        // `--clear --all` drops hand-made knowledge; what the workspace says comes back.
        run_ingest(&root, &mut store, true, true);
        let wiped = render(&store);
        let hand_names: Vec<&str> = hand.iter().filter_map(|l| l.strip_prefix("add ")).filter_map(|l| l.split(" | ").nth(1)).collect();
        for n in hand_names {
            assert!(!wiped.iter().any(|l| l.contains(&format!("{n:?}"))), "{}: {n} survived --clear --all", fx.display());
        }
        let repo_derived: Vec<&String> = first.iter().filter(|l| l.contains("[adr:") || l.contains("[codeowners:")).collect();
        for l in repo_derived {
            assert!(wiped.contains(l), "{}: {l} missing after --clear --all", fx.display());
        }
    }
    assert!(failures.is_empty(), "golden mismatch (UPDATE_GOLDEN=1 to accept):\n{}", failures.join("\n"));
}

/// Editing and deleting knowledge files updates the graph on the next ingest: a removed
/// ADR takes its decision along, an edited one is updated in place, a new CODEOWNERS
/// owner reaches existing files.
#[test]
fn knowledge_files_follow_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_tree(
        &root,
        &[
            ("app/core.py".into(), "# navegador: rule Temporary\ndef run():\n    pass\n".into()),
            ("docs/adr/0001-a.md".into(), "# 1. Keep it simple\n\n## Status\n\nAccepted\n\n## Decision\n\nOnly `run`.\n".into()),
            ("docs/adr/0002-b.md".into(), "# 2. Second\n\n## Status\n\nProposed\n".into()),
            ("CODEOWNERS".into(), "* @ann\n".into()),
        ],
    );
    let mut store = Store::open(&tmp.path().join("g.db")).unwrap();
    run_ingest(&root, &mut store, false, false);
    let owners = |store: &Store| -> Vec<String> {
        let (_, o) = navegador_knowledge::find_owners(&store.reader(), "run", None).unwrap();
        o.iter().map(|o| format!("{} {}", describe(&o.node), o.source)).collect()
    };
    assert_eq!(owners(&store), vec!["Person ann codeowners:*"]);
    let rat = navegador_knowledge::get_rationale(&store.reader(), "run", None).unwrap();
    assert_eq!(rat.entries.len(), 2);
    let decision_id = rat.entries.iter().find(|e| e.node.label == "Decision").unwrap().node.id;

    std::fs::write(root.join("docs/adr/0001-a.md"), "# 1. Keep it simple\n\n## Status\n\nDeprecated\n\n## Decision\n\nOnly `run`.\n").unwrap();
    std::fs::remove_file(root.join("docs/adr/0002-b.md")).unwrap();
    std::fs::write(root.join("CODEOWNERS"), "* @ann\napp/ @ben\n").unwrap();
    std::fs::write(root.join("app/core.py"), "def run():\n    pass\n").unwrap();
    run_ingest(&root, &mut store, false, false);
    let r = store.reader();
    let d = r.knowledge_named(Some(Label::Decision), "keep IT simple").unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].id, decision_id, "an edited ADR updates its node in place");
    assert_eq!(d[0].props["status"], "deprecated");
    assert!(r.knowledge_named(Some(Label::Decision), "Second").unwrap().is_empty(), "a removed ADR's decision is gone");
    assert_eq!(owners(&store), vec!["Person ben codeowners:app/"]);
    assert!(r.knowledge_named(None, "ann").unwrap().is_empty(), "an owner CODEOWNERS dropped is gone");
    assert!(r.knowledge_named(None, "Temporary").unwrap().is_empty(), "a rule whose annotation was removed is gone");
    // And the incrementally maintained knowledge equals a clean build of the same tree.
    let mut clean = Store::open(&tmp.path().join("clean.db")).unwrap();
    run_ingest(&root, &mut clean, false, false);
    assert_eq!(render(&store), render(&clean));
}

/// A knowledge file navegador does not read is listed as skipped with its reason, in the
/// report and the graph's `skipped` table, on every ingest; when it shrinks under the cap
/// it is read and the listing goes.
#[test]
fn skipped_knowledge_files_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let big_adr = format!("# 3. Big\n\n## Status\n\nAccepted\n\n{}", "word ".repeat(420_000));
    let big_doc = format!("# Manual\n\n{}", "x".repeat(3 * 1024 * 1024));
    write_tree(
        &root,
        &[
            ("app/core.py".into(), "def run():\n    pass\n".into()),
            ("docs/adr/0001-a.md".into(), "# 1. Small\n\n## Status\n\nAccepted\n".into()),
            ("docs/adr/0003-big.md".into(), big_adr),
            ("docs/manual.md".into(), big_doc),
            ("CODEOWNERS".into(), format!("* @ann\n{}", "# padding\n".repeat(120_000))),
        ],
    );
    let mut store = Store::open(&tmp.path().join("g.db")).unwrap();
    for run in 0..2 {
        let report = run_ingest(&root, &mut store, false, false);
        let reason = |p: &str| report.skipped.iter().find(|(x, _)| x == p).map(|(_, r)| r.clone()).unwrap_or_default();
        for p in ["docs/adr/0003-big.md", "docs/manual.md", "CODEOWNERS"] {
            assert!(reason(p).contains("too large"), "run {run}: {p} not listed: {:?}", report.skipped);
        }
        let stored = store.stats().unwrap().skipped;
        assert_eq!(stored.len(), 3, "run {run}: {stored:?}");
    }
    let r = store.reader();
    assert_eq!(r.knowledge_named(Some(Label::Decision), "Small").unwrap().len(), 1);
    assert!(r.knowledge_named(Some(Label::Decision), "Big").unwrap().is_empty());
    std::fs::write(root.join("docs/adr/0003-big.md"), "# 3. Big\n\n## Status\n\nAccepted\n").unwrap();
    let report = run_ingest(&root, &mut store, false, false);
    assert!(report.skipped.iter().all(|(p, _)| p != "docs/adr/0003-big.md"), "{:?}", report.skipped);
    assert_eq!(store.reader().knowledge_named(Some(Label::Decision), "Big").unwrap().len(), 1);
}

/// Search ranks exact names, then names holding the query's words, then text;
/// case-insensitive; FTS follows incremental edits.
#[test]
fn search_ranks_and_follows_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_tree(
        &root,
        &[
            ("a.py".into(), "def parse():\n    \"\"\"Read the config.\"\"\"\n\ndef parse_args():\n    pass\n\ndef load():\n    \"\"\"Uses parse to read.\"\"\"\n".into()),
            ("docs/guide.md".into(), "# Parsing guide\n\nHow parse works.\n".into()),
        ],
    );
    let mut store = Store::open(&tmp.path().join("g.db")).unwrap();
    run_ingest(&root, &mut store, false, false);
    let names = |store: &Store, q: &str, scope| -> Vec<String> {
        navegador_knowledge::search(&store.reader(), q, scope, 10, false).unwrap().iter().map(|h| format!("{}:{}", h.tier, describe(&h.node))).collect()
    };
    use navegador_knowledge::SearchScope::*;
    assert_eq!(
        names(&store, "PARSE", Code),
        vec!["0:Function a.parse (a.py:1)", "1:Function a.parse_args (a.py:4)", "3:Function a.load (a.py:7)"]
    );
    assert_eq!(names(&store, "config", Code), vec!["3:Function a.parse (a.py:1)"]);
    assert!(names(&store, "parsing", CodeAndDocs).iter().any(|n| n.contains("Document Parsing guide")));
    assert!(names(&store, "\"unbalanced AND (", All).is_empty(), "FTS syntax never leaks");
    std::fs::write(root.join("a.py"), "def other():\n    pass\n").unwrap();
    run_ingest(&root, &mut store, false, false);
    assert!(names(&store, "config", Code).is_empty(), "rows of changed files leave the index");
    assert_eq!(names(&store, "other", Code), vec!["0:Function a.other (a.py:1)"]);
}
