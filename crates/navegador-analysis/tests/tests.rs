//! Answers of the analysis layer on the shared fixture repository (`tests/mcp/fixture`,
//! also driven through MCP by the Python tests). Data-driven: each case is a line of
//! `tests/cases.txt`; all answers are rendered to `tests/answers.golden` (ids removed,
//! since they follow ingest order) and compared. `UPDATE_GOLDEN=1` rewrites the file.

mod common;

use std::path::{Path, PathBuf};

use navegador_analysis as analysis;
use navegador_analysis::{Limits, MinResolution, Options, Target};
use navegador_store::Store;
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp/fixture").canonicalize().unwrap()
}

fn indexed() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = common::index(&fixture(), &dir.path().join("graph.db"));
    (dir, store)
}

/// The text fixture `tests/fixture.txt` (files after `//- path` lines) written out under
/// a temporary directory and indexed: (dir, workspace root, store).
fn indexed_text() -> (tempfile::TempDir, PathBuf, Store) {
    indexed_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixture.txt"))
}

/// A text fixture at `path` written out and indexed, as [`indexed_text`].
fn indexed_file(path: &Path) -> (tempfile::TempDir, PathBuf, Store) {
    let dir = tempfile::tempdir().unwrap();
    let (root, store) = common::index_text(dir.path(), path);
    (dir, root, store)
}

/// Drops ids (they follow ingest order) so answers compare across runs.
fn strip_ids(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in ["id", "source", "target"] {
                if m.get(k).is_some_and(Value::is_number) {
                    m.remove(k);
                }
            }
            m.values_mut().for_each(strip_ids);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_ids),
        _ => {}
    }
}

/// Runs one case line: `tool arg=value ...` (sources read under `root`).
fn run(store: &Store, root: &Path, line: &str) -> String {
    // `query <cypher>`: the rest of the line is the query.
    if let Some(cypher) = line.strip_prefix("query ") {
        let r = analysis::query_read(store, cypher, &Default::default(), &analysis::QueryLimits::default());
        return match r {
            Ok(a) => serde_json::to_string_pretty(&serde_json::to_value(a).unwrap()).unwrap(),
            Err(e) => format!("error: {e}"),
        };
    }
    let mut parts = line.split_whitespace();
    let tool = parts.next().unwrap();
    let mut name = String::new();
    let mut file: Option<String> = None;
    let mut line_arg: Option<u32> = None;
    let mut markdown = false;
    let mut all = false;
    let mut opts = Options { depth: 1, source_root: Some(root.to_path_buf()), ..Default::default() };
    let mut ask = analysis::SearchAsk::default();
    for p in parts {
        let (k, v) = p.split_once('=').unwrap();
        let flag = v == "true";
        match k {
            "name" => name = v.replace('~', " "), // `~` stands for a space
            "file" => file = Some(v.to_string()),
            "line" => line_arg = Some(v.parse().unwrap()),
            "depth" => opts.depth = v.parse().unwrap(),
            "format" => markdown = v == "markdown",
            "all" => all = flag,
            "limit" => {
                opts.limit = Some(v.parse().unwrap());
                ask.limit = v.parse().unwrap();
            }
            "offset" => {
                opts.offset = Some(v.parse().unwrap());
                ask.offset = v.parse().unwrap();
            }
            "relation" => opts.relation = Some(v.to_string()),
            "include_ambiguous" => opts.min_resolution = if flag { MinResolution::Ambiguous } else { MinResolution::Inferred },
            "min_resolution" => opts.min_resolution = MinResolution::parse(v).unwrap(),
            "include_source" => opts.include_source = flag,
            "exclude_tests" => {
                opts.exclude_tests = flag;
                ask.exclude_tests = flag;
            }
            "include_imports" => opts.include_imports = flag,
            "paths" => opts.paths = flag,
            "full" => opts.full = flag,
            _ => panic!("unknown argument {k}"),
        }
    }
    let limits = Limits::default();
    let f = file.as_deref();
    let target = Target { name: &name, file: f, line: line_arg };
    let answer: Result<Value, _> = match tool {
        "function" => analysis::function(store, &target, &opts, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "class" => analysis::class(store, &target, &opts, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "explain" => analysis::explain(store, &target, &opts, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "context" if markdown => {
            return match analysis::context(store, f.unwrap(), &opts, &limits) {
                Ok(b) => analysis::bundle_markdown(&b),
                Err(e) => format!("error: {e}"),
            };
        }
        "context" => analysis::context(store, f.unwrap(), &opts, &limits).map(|b| serde_json::to_value(b).unwrap()),
        "blast_radius" => {
            if !line.contains("depth=") {
                opts.depth = 3;
            }
            analysis::blast_radius(store, &target, &opts, &limits).map(|b| serde_json::to_value(b).unwrap())
        }
        "search" => {
            let layers = if all { analysis::SearchLayers::All } else { analysis::SearchLayers::Code };
            analysis::search(store, &name, layers, &ask).map(|b| serde_json::to_value(b).unwrap())
        }
        "search_knowledge" => analysis::search(store, &name, analysis::SearchLayers::Knowledge, &ask)
            .map(|b| serde_json::to_value(b).unwrap()),
        "get_rationale" => analysis::get_rationale(store, &name, f).map(|b| serde_json::to_value(b).unwrap()),
        "find_owners" => analysis::find_owners(store, &name, f).map(|b| serde_json::to_value(b).unwrap()),
        _ => panic!("unknown tool {tool}"),
    };
    match answer {
        Ok(mut v) => {
            strip_ids(&mut v);
            serde_json::to_string_pretty(&v).unwrap()
        }
        Err(e) => {
            let mut out = format!("error: {e}");
            if let analysis::AnalysisError::Ambiguous { candidates, .. } = e {
                for c in candidates {
                    out.push_str(&format!("\n  candidate {} {:?} {:?} select {}", c.node_type, c.qualified_name, c.file_path, serde_json::to_string(&c.select).unwrap()));
                }
            }
            out
        }
    }
}

#[test]
fn answers_match_golden() {
    let (_dir, store) = indexed();
    let (_dir2, text_root, text_store) = indexed_text();
    let mcp_root = fixture();
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let mut out = String::new();
    // `[fixture mcp]` (tests/mcp/fixture, the default), `[fixture answers]` (fixture.txt)
    // or `[fixture clients/<pair>]` (one of the index crate's client + service fixtures).
    let mut other: Option<(tempfile::TempDir, PathBuf, Store)> = None;
    let mut on_text = false;
    for line in cases.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(f) = line.strip_prefix("[fixture ").and_then(|f| f.strip_suffix(']')) {
            on_text = f == "answers";
            other = f.strip_prefix("clients/").map(|pair| indexed_file(&here.join("../../navegador-index/tests/clients").join(format!("{pair}.txt"))));
            out.push_str(&format!("### {line}\n\n"));
            continue;
        }
        let answer = match &other {
            Some((_, root, store)) => run(store, root, line),
            None if on_text => run(&text_store, &text_root, line),
            None => run(&store, &mcp_root, line),
        };
        out.push_str(&format!("=== {line}\n{answer}\n\n"));
    }
    let golden = here.join("answers.golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &out).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    if expected != out {
        let first = expected.lines().zip(out.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "answers differ from {} (first at line {}: {:?}); rerun with UPDATE_GOLDEN=1 and review the diff",
            golden.display(),
            first + 1,
            out.lines().nth(first)
        );
    }
}

/// Across services: a handler's blast radius reaches, past its endpoint, the frontend
/// function requesting it (`HTTP_CALLS` from `fetch(`/api/users/${id}`)`).
#[test]
fn blast_radius_crosses_http_calls() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let (_dir, root, store) = indexed_file(&here.join("../../navegador-index/tests/clients/react-spring.txt"));
    let v: Value = serde_json::from_str(&run(&store, &root, "blast_radius name=UserController.get depth=2")).unwrap();
    let items = v["items"].as_array().unwrap();
    let caller = items.iter().find(|i| i["relation"] == "http_caller").expect("an http_caller dependent");
    assert_eq!((caller["name"].as_str(), caller["file_path"].as_str()), (Some("loader"), Some("web/app/routes/user.tsx")));
    assert!(items.iter().all(|i| i["name"] != "action"), "the DELETE endpoint's caller is not the GET handler's dependent");
}

/// A change to a handler names the test requesting its endpoint over HTTP (`httpx.post` in
/// tests/utils.py) among the tests that reach it.
#[test]
fn changes_reach_tests_across_http_calls() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let (_dir, root, store) = indexed_file(&here.join("../../navegador-index/tests/clients/fastapi-template.txt"));
    let patch = "--- a/app/api/routes/login.py\n+++ b/app/api/routes/login.py\n@@ -7,2 +7,2 @@\n def login_access_token():\n-    return {}\n+    return {\"token\": 1}\n";
    let source = analysis::changes::Source::Patch(patch.into());
    let report = analysis::changes::changes(&store, &root, &source, &Default::default(), &Limits::default()).unwrap();
    assert!(report.symbols.iter().any(|s| s.name.ends_with("login_access_token")), "{:?}", report.symbols);
    let tests: Vec<_> = report.tests.iter().map(|t| (t.file.as_str(), t.name.as_str())).collect();
    assert!(tests.iter().any(|(f, n)| *f == "tests/utils.py" && n.ends_with("token")), "{tests:?}");
}

/// Facts the golden file must keep showing, asserted directly so a careless
/// `UPDATE_GOLDEN=1` cannot bless a regression.
#[test]
fn key_facts() {
    let (_dir, store) = indexed();
    let l = Limits::default();
    let depth = |d: i64| Options { depth: d, ..Default::default() };
    let o = Options::default();
    let t = Target::named;
    // Callers and callees with resolution and line.
    let b = analysis::function(&store, &t("User.rename"), &o, &l).unwrap();
    let callee = |q: &str| b.edges.iter().any(|e| e.edge_type == "CALLS" && b.edge_names(e).1 == q && e.resolution.as_deref() == Some("exact"));
    assert!(callee("app.util.clean") && callee("app.util.log") && callee("app.base.Base.save"), "{:#?}", b.edges);
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("caller") && n.name == "promote"));
    // Depth 2 reaches a caller's caller.
    let b = analysis::function(&store, &t("validate"), &depth(2), &l).unwrap();
    assert!(b.nodes.iter().any(|n| n.name == "__init__" && n.distance == Some(2)), "{:#?}", b.nodes);
    // Ambiguity lists the candidates, each with the arguments that select it; `file` picks one.
    match analysis::function(&store, &t("clean"), &o, &l) {
        Err(analysis::AnalysisError::Ambiguous { candidates, total, .. }) => {
            assert_eq!((candidates.len(), total), (2, 2));
            assert!(candidates.iter().all(|c| c.select.file.is_none() && c.select.name.ends_with(".clean")), "{candidates:?}");
        }
        other => panic!("{other:?}"),
    }
    let b = analysis::function(&store, &Target::in_file("clean", Some("app/util.py")), &o, &l).unwrap();
    assert_eq!(b.target.qualified_name.as_deref(), Some("app.util.clean"));
    // `path:line` picks by line.
    let b = analysis::function(&store, &Target::in_file("clean", Some("app/text.py:5")), &o, &l).unwrap();
    assert_eq!(b.target.qualified_name.as_deref(), Some("app.text.clean"));
    // Clamping is said.
    let b = analysis::function(&store, &t("log"), &depth(1000), &l).unwrap();
    assert_eq!(b.metadata.depth, Some(l.max_depth));
    assert!(b.metadata.notes.iter().any(|n| n.contains("clamped")));
    // Class hierarchy both ways, and interfaces.
    let b = analysis::class(&store, &t("User"), &o, &l).unwrap();
    let rel = |r: &str, n: &str| b.nodes.iter().any(|x| x.relation.as_deref() == Some(r) && x.name == n);
    assert!(rel("base", "Base") && rel("subclass", "Admin") && rel("member", "rename"), "{:#?}", b.nodes);
    let b = analysis::class(&store, &t("Square"), &o, &l).unwrap();
    assert!(b.nodes.iter().any(|x| x.relation.as_deref() == Some("interface") && x.name == "Shape"), "{:#?}", b.nodes);
    // A file's context: imports both ways, the outline by default.
    let b = analysis::context(&store, "app/models.py", &o, &l).unwrap();
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("imports") && n.file_path.as_deref() == Some("app/base.py")));
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("imported_by") && n.file_path.as_deref() == Some("app/views.py")));
    assert!(b.outline.iter().any(|l| l == "  11-14 def rename(self, name)"), "{:#?}", b.outline);
    // Blast radius: ordered by distance, each with what it depends on.
    let r = analysis::blast_radius(&store, &t("Base.save"), &depth(3), &l).unwrap();
    let d: Vec<u32> = r.items.iter().map(|i| i.node.distance.unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
    let handler = r.items.iter().find(|i| i.node.name == "handler").expect("views.handler calls obj.save()");
    assert_eq!(handler.depends_on.name, "app.base.Base.save");
    assert!(r.unresolved_count > 0 || !r.items.is_empty());
    let r = analysis::blast_radius(&store, &t("log"), &depth(3), &l).unwrap();
    assert!(r.items.iter().any(|i| i.node.name == "make"), "{:#?}", r.items);
}

/// The defects of issue 12, each on the text fixture.
#[test]
fn served_truth_addressing_decorators_budgets() {
    let (_dir, root, store) = indexed_text();
    let l = Limits::default();
    let o = Options::default();
    let t = Target::named;
    // Ambiguous edges are counted, not listed; include_ambiguous lists them, marked.
    let b = analysis::function(&store, &t("Query.join"), &o, &l).unwrap();
    let callers: Vec<&str> = b.nodes.iter().filter(|n| n.relation.as_deref() == Some("caller")).map(|n| n.name.as_str()).collect();
    assert_eq!(callers, ["combine"], "{:#?}", b.nodes);
    // `obj.join(sep)` (receiver of unknown type) is counted; `", ".join(parts)` is a str
    // method, external, never a candidate.
    assert_eq!(b.metadata.ambiguous_count, 1, "{:#?}", b.metadata);
    let all = Options { min_resolution: MinResolution::Ambiguous, ..Default::default() };
    let b = analysis::function(&store, &t("Query.join"), &all, &l).unwrap();
    let build = b.nodes.iter().find(|n| n.name == "build").expect("build calls .join on unknown receivers");
    assert_eq!(build.resolution.as_deref(), Some("ambiguous"));
    assert!(b.edges.iter().any(|e| b.edge_names(e).0 == "pkg.query.build" && e.resolution.as_deref() == Some("ambiguous")));
    // Whole segments: Field.deconstruct is not CharField.deconstruct.
    let b = analysis::function(&store, &t("Field.deconstruct"), &o, &l).unwrap();
    assert_eq!(b.target.qualified_name.as_deref(), Some("pkg.fields.Field.deconstruct"));
    // Overloads: candidates say which line picks each; `line` picks one.
    match analysis::function(&store, &t("Objects.requireNonNull"), &o, &l) {
        Err(analysis::AnalysisError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates.len(), 3);
            assert!(candidates.iter().all(|c| c.select.line.is_some() && c.select.file.is_some()), "{candidates:?}");
            let second = &candidates[1];
            let pick = Target { name: &second.select.name, file: second.select.file.as_deref(), line: second.select.line };
            let b = analysis::function(&store, &pick, &o, &l).unwrap();
            assert_eq!(b.target.line_start, second.line_start);
        }
        other => panic!("{other:?}"),
    }
    // Source over tests: `Field` means pkg.fields.Field, and the answer says what else it names.
    let b = analysis::class(&store, &t("Field"), &o, &l).unwrap();
    assert_eq!(b.target.qualified_name.as_deref(), Some("pkg.fields.Field"));
    assert!(b.metadata.notes.iter().any(|n| n.contains("in tests")), "{:?}", b.metadata.notes);
    // Decorators are uses: plain, through a module import; never another module's namesake.
    let b = analysis::function(&store, &Target::in_file("setupmethod", Some("pkg/scaffold.py")), &o, &l).unwrap();
    let decorated: Vec<&str> = b.nodes.iter().filter(|n| n.relation.as_deref() == Some("decorated")).map(|n| n.name.as_str()).collect();
    assert_eq!(decorated, ["teardown", "shell", "route", "add_url_rule"], "{:#?}", b.nodes);
    assert!(b.edges.iter().all(|e| e.edge_type != "DECORATES" || e.resolution.as_deref() == Some("exact")), "{:#?}", b.edges);
    let r = analysis::blast_radius(&store, &Target::in_file("setupmethod", Some("pkg/scaffold.py")), &Options { depth: 3, ..Default::default() }, &l).unwrap();
    assert!(r.items.iter().any(|i| i.node.name == "route" && i.node.relation.as_deref() == Some("decorated")), "{:#?}", r.items);
    assert!(r.items.iter().all(|i| i.node.name != "configure"), "{:#?}", r.items);
    // Factory decorators: the call the resolver bound.
    let b = analysis::function(&store, &t("cached"), &o, &l).unwrap();
    assert!(b.nodes.iter().any(|n| n.relation.as_deref() == Some("decorated") && n.name == "static_folder"), "{:#?}", b.nodes);
    // Unresolved lists keep the target's language.
    let b = analysis::function(&store, &t("make_field"), &o, &l).unwrap();
    assert!(b.metadata.unresolved.iter().all(|s| !s.file_path.ends_with(".js")), "{:#?}", b.metadata.unresolved);
    // A receiver that is a multi-line expression is shown on one bounded line.
    let b = analysis::function(&store, &t("build"), &o, &l).unwrap();
    assert!(b.metadata.unresolved.iter().all(|s| !s.name.contains('\n') && s.name.chars().count() <= 80), "{:#?}", b.metadata.unresolved);
    // Budgets: limit and offset page each list; totals stay whole.
    let one = Options { limit: Some(1), ..Default::default() };
    let b = analysis::function(&store, &Target::in_file("setupmethod", Some("pkg/scaffold.py")), &one, &l).unwrap();
    assert_eq!(b.metadata.totals["decorated"], 4);
    assert_eq!(b.nodes.iter().filter(|n| n.relation.as_deref() == Some("decorated")).count(), 1);
    assert_eq!(b.metadata.next_offset, Some(1));
    let past = Options { offset: Some(1000), ..Default::default() };
    let b = analysis::function(&store, &Target::in_file("setupmethod", Some("pkg/scaffold.py")), &past, &l).unwrap();
    assert!(b.nodes.is_empty() && b.metadata.notes.iter().any(|n| n.contains("past the end")), "{:?}", b.metadata.notes);
    // Blast radius: tests apart, import-only reach per directory, owners named.
    let r = analysis::blast_radius(&store, &t("get_token"), &Options { depth: 3, ..Default::default() }, &l).unwrap();
    assert!(r.tests.iter().any(|p| p.place == "tests/test_fields.py" && p.count == 3), "{:#?}", r.tests);
    assert!(r.items.iter().all(|i| !i.node.file_path.as_deref().unwrap_or("").starts_with("tests/")));
    let r = analysis::blast_radius(&store, &t("create_app"), &Options { depth: 3, ..Default::default() }, &l).unwrap();
    assert!(r.imports.iter().any(|p| p.place == "pkg"), "{:#?}", r);
    assert!(r.owners.iter().any(|o| o.name == "core"), "{:#?}", r.owners);
    let r = analysis::blast_radius(&store, &t("get_token"), &Options { depth: 3, exclude_tests: true, ..Default::default() }, &l).unwrap();
    assert_eq!(r.tests_total, 0);
    // Source on request: bounded, and a vanished or binary file is a note, not a failure.
    let src = Options { include_source: true, source_root: Some(root.clone()), ..Default::default() };
    let b = analysis::function(&store, &t("check_password"), &src, &l).unwrap();
    let s = b.source.expect("source");
    assert!(s.text.starts_with("def check_password(password, encoded):") && !s.truncated, "{s:?}");
    std::fs::write(root.join("pkg/hashers.py"), b"\x00\x01binary").unwrap();
    let b = analysis::function(&store, &t("check_password"), &src, &l).unwrap();
    assert!(b.source.unwrap().unavailable.unwrap().contains("binary"));
    std::fs::remove_file(root.join("pkg/hashers.py")).unwrap();
    let b = analysis::function(&store, &t("check_password"), &src, &l).unwrap();
    assert!(b.source.unwrap().unavailable.unwrap().contains("no longer exists"));
    let tiny = Limits { max_source_lines: 2, ..l };
    let b = analysis::class(&store, &t("CsrfViewMiddleware"), &src, &tiny).unwrap();
    let s = b.source.unwrap();
    assert!(s.truncated && s.text.lines().count() == 2, "{s:?}");
    // Search finds the thing: definitions before variables, source before tests.
    let ask = analysis::SearchAsk::default();
    let top = |q: &str| -> Vec<String> {
        analysis::search(&store, q, analysis::SearchLayers::Code, &ask).unwrap().items.iter().take(3).map(|i| i.node.name.clone()).collect()
    };
    let csrf = top("csrf token");
    assert!(csrf.iter().any(|n| n == "CsrfViewMiddleware") && csrf.iter().any(|n| n == "get_token"), "{csrf:?}");
    assert_eq!(top("password hasher")[..2], ["BasePasswordHasher", "PBKDF2PasswordHasher"]);
    let tests = top("test csrf token");
    assert!(tests.iter().all(|n| n.starts_with("test_csrf")), "tests stay findable: {tests:?}");
}
