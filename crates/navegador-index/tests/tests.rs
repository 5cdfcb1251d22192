//! Integration tests of indexing, data-driven: each `projects/NAME.txt` (and each language
//! pack's `languages/<id>/project.txt` in navegador-lang) is a small
//! workspace written as text (`//- path` starts a file); its resolved graph is rendered as
//! text and compared with `projects/NAME.graph` (`UPDATE_GOLDEN=1` rewrites). The same
//! projects drive the incremental-equals-clean test.

use std::path::{Path, PathBuf};

use navegador_index::{ingest, ingest_paths, ingest_resident, IngestConfig, NoProgress, Resident};
use navegador_store::Store;

/// `tests/projects/*.txt` (projects across languages) and each language pack's
/// cross-file project, `navegador-lang/languages/<id>/project.txt`.
fn projects() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/projects");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../navegador-lang/languages");
    v.extend(std::fs::read_dir(&packs).unwrap().map(|e| e.unwrap().path().join("project.txt")).filter(|p| p.is_file()));
    v.sort();
    assert!(!v.is_empty(), "no projects in {}", dir.display());
    v
}

/// Splits a fixture into (path, content) files.
fn parse_fixture(text: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("//- ") {
            files.push((p.trim().trim_start_matches('/').to_string(), String::new()));
        } else if let Some((_, c)) = files.last_mut() {
            c.push_str(line);
            c.push('\n');
        }
    }
    files
}

fn write_tree(root: &Path, files: &[(String, String)]) {
    for (p, c) in files {
        let path = root.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    }
}

fn index(root: &Path, db: &Path) -> Store {
    let mut store = Store::open(db).unwrap();
    ingest(root, &mut store, &IngestConfig::default(), &NoProgress, None).unwrap();
    store
}

/// The resolved part of a graph as sorted text lines: resolved edges, and the call,
/// constructor and base sites left `external` or `unresolved`.
fn render(store: &Store) -> String {
    let conn = store.sqlite_conn().expect("a SQLite graph file");
    // an overload (a qualified name several definitions share) is told by its line: `m@12`
    let key = "coalesce(n.qualified_name, n.name) || CASE WHEN n.label IN ('Method', 'Function') AND (SELECT count(*) FROM nodes o
                   WHERE o.qualified_name = n.qualified_name AND o.label = n.label AND o.file_path = n.file_path) > 1
               THEN '@' || n.line_start ELSE '' END";
    let mut st = conn
        .prepare(&format!(
            "SELECT e.type, (SELECT {key} FROM nodes n WHERE n.id = e.src), (SELECT {key} FROM nodes n WHERE n.id = e.dst),
                    (SELECT n.label FROM nodes n WHERE n.id = e.src),
                    e.resolution || CASE WHEN e.resolution = 'ambiguous' AND e.type <> 'HTTP_CALLS'
                        THEN coalesce(' ' || json_extract(e.props, '$.reason') || ' of ' || json_extract(e.props, '$.candidates'), '')
                        ELSE '' END, e.line
             FROM edges e WHERE e.resolution IS NOT NULL"
        ))
        .unwrap();
    let mut lines: Vec<String> = st
        .query_map([], |r| {
            let src_label: String = r.get(3)?;
            let src: String = r.get(1)?;
            let src = if src_label == "Import" { format!("import {src}") } else { src };
            Ok(format!(
                "{} {} -> {} [{}] L{}",
                r.get::<_, String>(0)?,
                src,
                r.get::<_, String>(2)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut st = conn
        .prepare(
            "SELECT r.kind, r.file_path, r.line, coalesce(r.receiver || '.', '') || r.name,
                    coalesce((SELECT qualified_name FROM nodes WHERE id = r.from_node), '<file>'), upper(r.status)
             FROM refs r WHERE r.status IN ('unresolved', 'external') AND r.kind IN ('call', 'new', 'inherits', 'implements')",
        )
        .unwrap();
    lines.extend(
        st.query_map([], |r| {
            Ok(format!(
                "{} {} {}:{} {} from {}",
                r.get::<_, String>(5)?,
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?
            ))
        })
        .unwrap()
        .map(Result::unwrap),
    );
    lines.sort();
    lines.join("\n") + "\n"
}

#[test]
fn resolved_graphs_match_golden_files() {
    check_goldens(projects(), "graph", render);
}

/// Indexes each fixture project and compares `render` of its graph with the golden file
/// beside it (extension `ext`); `UPDATE_GOLDEN=1` rewrites them.
fn check_goldens(fixtures: Vec<PathBuf>, ext: &str, render: fn(&Store) -> String) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for p in fixtures {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &parse_fixture(&std::fs::read_to_string(&p).unwrap()));
        let store = index(&root, &tmp.path().join("g.db"));
        let got = render(&store);
        let golden = p.with_extension(ext);
        if update {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != got {
            failures.push(format!("--- {}\n{}+++ got\n{}", golden.display(), want, got));
        }
    }
    assert!(failures.is_empty(), "golden mismatch (UPDATE_GOLDEN=1 to accept):\n{}", failures.join("\n"));
}

/// After any sequence of edits, the incrementally maintained graph equals a clean rebuild.
#[test]
fn incremental_ingest_equals_clean_rebuild() {
    for p in projects() {
        let files = parse_fixture(&std::fs::read_to_string(&p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let inc_db = tmp.path().join("inc.db");
        index(&root, &inc_db);
        // A long-lived writer as the server's live index is: one store, the symbol table
        // resident and patched between edits.
        let live_db = tmp.path().join("live.db");
        let mut live = Store::open(&live_db).unwrap();
        let mut resident = Resident::default();
        ingest_resident(&root, &mut live, &IngestConfig::default(), &NoProgress, None, &mut resident).unwrap();
        // Edits: for each file, delete it; restore it; damage it (cut in half); rename its
        // definitions; restore it. After each step compare with a clean build.
        let mut step = 0;
        let mut check = |what: &str| {
            step += 1;
            let inc = index(&root, &inc_db).canonical_dump().unwrap();
            let clean_db = tmp.path().join(format!("clean{step}.db"));
            let clean = index(&root, &clean_db).canonical_dump().unwrap();
            if inc != clean {
                let only_inc: Vec<_> = inc.iter().filter(|l| !clean.contains(l)).collect();
                let only_clean: Vec<_> = clean.iter().filter(|l| !inc.contains(l)).collect();
                panic!(
                    "{}: after {what}, incremental != clean\nonly incremental:\n{:#?}\nonly clean:\n{:#?}",
                    p.display(),
                    only_inc,
                    only_clean
                );
            }
        };
        for (path, content) in &files {
            let abs = root.join(path);
            std::fs::remove_file(&abs).unwrap();
            check(&format!("deleting {path}"));
            std::fs::write(&abs, content).unwrap();
            check(&format!("restoring {path}"));
            let mut cut = content.len() / 2;
            while !content.is_char_boundary(cut) {
                cut -= 1;
            }
            std::fs::write(&abs, &content[..cut]).unwrap();
            check(&format!("cutting {path} in half"));
            let renamed = content.replace("def ", "def r_").replace("function ", "function r_").replace("class ", "class R");
            std::fs::write(&abs, renamed).unwrap();
            check(&format!("renaming the definitions of {path}"));
            std::fs::write(&abs, content).unwrap();
            check(&format!("restoring {path} again"));
        }
    }
}

/// A graph of the previous schema (7: no typed columns) is refused by a reader and
/// migrated in place by a writer's open, on both backends: the same graph, its typed
/// columns what `props` says, and an incremental ingest on it equal to a clean build.
#[test]
fn a_graph_of_the_previous_schema_is_migrated_in_place() {
    for (i, p) in projects().iter().enumerate() {
        let files = parse_fixture(&std::fs::read_to_string(p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let mut dbs = vec![tmp.path().join("g.db")];
        dbs.extend(navegador_store::testing::fresh_postgres(&format!("migrate{i}")));
        for db in &dbs {
            let before = {
                let store = index(&root, db);
                let dump = store.canonical_dump().unwrap();
                navegador_store::testing::downgrade_to_previous_schema(&store).unwrap();
                dump
            };
            let refused = Store::open_read_only(db).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(refused.contains("schema version 7"), "{}: a reader of schema 7: {refused}", p.display());
            let store = Store::open(db).unwrap();
            assert_eq!(store.typed_drift().unwrap(), 0, "{}: typed columns after the migration", p.display());
            let outdated = navegador_store::testing::outdated_within_version(&store).unwrap();
            assert_eq!(outdated, (Vec::new(), false), "{}: indexes missing, a trigger on every column", p.display());
            assert_eq!(store.canonical_dump().unwrap(), before, "{}: the migration changed the graph", p.display());
            drop(store);
            let (path, _) = &files[0];
            std::fs::remove_file(root.join(path)).unwrap();
            let inc = index(&root, db).canonical_dump().unwrap();
            let clean = index(&root, &tmp.path().join("clean.db")).canonical_dump().unwrap();
            assert!(inc == clean, "{}: an ingest after the migration != clean", p.display());
            std::fs::remove_file(tmp.path().join("clean.db")).unwrap();
            write_tree(&root, &files);
        }
    }
}

/// A comment or a body edit keeps a file's definitions as they were, and their node ids:
/// the edges other files' sites bound into it are kept, not re-resolved (an edge's row id
/// survives), while a rename rebinds them.
#[test]
fn rewriting_a_file_keeps_the_ids_other_files_bind_to() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let lib = "def helper():\n    return 1\n\n\nclass Box:\n    def open(self):\n        return helper()\n";
    let files = vec![
        ("pkg/__init__.py".to_string(), String::new()),
        ("pkg/lib.py".to_string(), lib.to_string()),
        ("pkg/app.py".to_string(), "from pkg.lib import helper, Box\n\n\ndef run():\n    Box().open()\n    return helper()\n".to_string()),
    ];
    write_tree(&root, &files);
    let db = tmp.path().join("g.db");
    let facts = |store: &Store| -> Vec<(String, i64, i64)> {
        let conn = store.sqlite_conn().unwrap();
        let mut st = conn
            .prepare(
                "SELECT d.name, d.id, e.id FROM edges e JOIN nodes d ON d.id = e.dst JOIN nodes s ON s.id = e.src
                 WHERE e.type = 'CALLS' AND s.name = 'run' ORDER BY d.name",
            )
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    };
    let before = facts(&index(&root, &db));
    assert_eq!(before.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["Box", "helper", "open"], "{before:?}");
    for (what, text) in [
        ("a comment at the top", format!("# moved\n{lib}")),
        ("a body edit", format!("# moved\n{}", lib.replace("return 1", "return 2"))),
    ] {
        std::fs::write(root.join("pkg/lib.py"), &text).unwrap();
        let after = facts(&index(&root, &db));
        assert_eq!(after, before, "after {what}: the same targets, ids and edge rows");
    }
    std::fs::write(root.join("pkg/lib.py"), lib.replace("helper", "aide")).unwrap();
    let after = facts(&index(&root, &db));
    assert_eq!(after.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["Box", "open"], "after a rename: {after:?}");
}

/// A base named through another class's members (`class Meta(UserForm.Meta)`) depends on
/// that class's own base. Rewriting the file that defines them gives its sites new ids, read
/// after the dependent one; the edge must survive (issue 14: an incremental Django ingest
/// lost `CustomUserCreationForm.Meta -> BaseUserCreationForm.Meta` until `--clear`).
#[test]
fn rewriting_a_base_keeps_the_bases_named_through_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/projects");
    let files = parse_fixture(&std::fs::read_to_string(dir.join("bases_through_members.txt")).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_tree(&root, &files);
    let db = tmp.path().join("g.db");
    let edge = "INHERITS tests.test_forms.CustomForm.Meta -> app.forms.BaseForm.Meta [exact] L5";
    assert!(render(&index(&root, &db)).lines().any(|l| l == edge), "a clean build binds {edge}");
    let forms = root.join("app/forms.py");
    let text = std::fs::read_to_string(&forms).unwrap();
    std::fs::write(&forms, text + "# touched\n").unwrap();
    let got = render(&index(&root, &db));
    assert!(got.lines().any(|l| l == edge), "after rewriting app/forms.py, {edge} is lost:\n{got}");
}

/// Go's `IMPLEMENTS` edges follow the method sets: a method added in another file makes
/// `Line` a `Shape` (no file naming either changed), removing it takes the edge away, and
/// each incremental graph equals a clean build of the same tree.
#[test]
fn go_implements_follow_method_sets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/projects");
    let files = parse_fixture(&std::fs::read_to_string(dir.join("go_interfaces.txt")).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_tree(&root, &files);
    let db = tmp.path().join("g.db");
    let edge = "IMPLEMENTS Line -> Shape [inferred] L17";
    let has = |g: &str| g.lines().any(|l| l == edge);
    assert!(!has(&render(&index(&root, &db))), "Line lacks Area: no {edge}");
    let extra = root.join("line_area.go");
    std::fs::write(&extra, "package shapes\n\nfunc (l Line) Area() float64 { return 0 }\n").unwrap();
    for (step, want) in [("adding Line.Area", true), ("removing Line.Area", false)] {
        let inc = index(&root, &db);
        assert_eq!(has(&render(&inc)), want, "after {step}: {edge} should be {}", if want { "there" } else { "gone" });
        let clean = index(&root, &tmp.path().join(format!("clean-{want}.db")));
        assert_eq!(inc.canonical_dump().unwrap(), clean.canonical_dump().unwrap(), "after {step}, incremental != clean");
        std::fs::remove_file(&extra).ok();
    }
}

/// Bad input never aborts an ingest: each problem file is skipped or parsed partially, and
/// the summary says which and why.
#[test]
fn bad_input_is_skipped_with_reasons() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::write(root.join("pkg/ok.py"), "def good():\n    return 1\n").unwrap();
    std::fs::write(root.join("pkg/binary.py"), b"\x00\x01\x02def x(): pass\n").unwrap();
    std::fs::write(root.join("pkg/huge.py"), "x = 1\n".repeat(300_000)).unwrap();
    std::fs::write(root.join("pkg/latin1.py"), b"def caf\xe9():\n    pass\ndef after():\n    pass\n").unwrap();
    std::fs::write(root.join("pkg/broken.py"), "def fine():\n    pass\n\ndef broken(:\n").unwrap();
    std::fs::write(root.join("pkg/deep.py"), format!("x = {}1{}\n", "[".repeat(20_000), "]".repeat(20_000))).unwrap();
    std::fs::create_dir_all(root.join("node_modules/lib")).unwrap();
    std::fs::write(root.join("node_modules/lib/index.js"), "function hidden() {}\n").unwrap();
    std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
    std::fs::create_dir_all(root.join("ignored")).unwrap();
    std::fs::write(root.join("ignored/x.py"), "def nope(): pass\n").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&root, root.join("pkg/loop")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("pkg/outside.py")).unwrap();
    }
    let mut store = Store::open(&tmp.path().join("g.db")).unwrap();
    let report = ingest(&root, &mut store, &IngestConfig::default(), &NoProgress, None).unwrap();
    let reason = |p: &str| report.skipped.iter().find(|(x, _)| x == p).map(|(_, r)| r.clone());
    assert!(reason("pkg/binary.py").unwrap().contains("binary"), "{:?}", report.skipped);
    assert!(reason("pkg/huge.py").unwrap().contains("too large"), "{:?}", report.skipped);
    #[cfg(unix)]
    assert!(reason("pkg/outside.py").unwrap().contains("symlink"), "{:?}", report.skipped);
    let names: Vec<String> = {
        let mut st = store.sqlite_conn().unwrap().prepare("SELECT name FROM nodes WHERE label = 'Function' ORDER BY name").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    // Valid facts of damaged files survive; ignored trees are never read.
    for want in ["good", "after", "fine"] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    for never in ["hidden", "nope"] {
        assert!(!names.iter().any(|n| n == never), "{never} was indexed: {names:?}");
    }
    assert!(report.diagnostics.iter().any(|(p, _, m)| p == "pkg/latin1.py" && m.contains("UTF-8")), "{:?}", report.diagnostics);
    assert!(report.diagnostics.iter().any(|(p, _, _)| p == "pkg/broken.py"), "{:?}", report.diagnostics);
}

/// A file name is what the file system says: on Unix a `\` is a character of the name, so
/// `x\..\..\outside\secret.py` is one file in the root (never a path out of it) and
/// `sub\mod.py` beside `sub/mod.py` gives two File nodes; a name that is not UTF-8 is
/// skipped with a reason rather than stored lossily (two such files could share a path).
#[cfg(unix)]
#[test]
fn file_names_are_kept_verbatim() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
    std::fs::write(tmp.path().join("outside/secret.py"), "def secret():\n    return 'outside'\n").unwrap();
    std::fs::write(root.join(r"x\..\..\outside\secret.py"), "def leak():\n    return shared()\n\ndef shared():\n    return 1\n").unwrap();
    std::fs::write(root.join(r"sub\mod.py"), "def back():\n    return shared()\n").unwrap();
    std::fs::write(root.join("sub/mod.py"), "def fwd():\n    return back()\n").unwrap();
    std::fs::write(root.join(std::ffi::OsStr::from_bytes(b"caf\xe9.py")), "def lossy():\n    pass\n").unwrap();
    std::fs::write(root.join(std::ffi::OsStr::from_bytes(b"caf\xe8.py")), "def lossy2():\n    pass\n").unwrap();
    let db = tmp.path().join("g.db");
    let mut store = Store::open(&db).unwrap();
    let report = ingest(&root, &mut store, &IngestConfig::default(), &NoProgress, None).unwrap();
    let conn = store.sqlite_conn().unwrap();
    let files: Vec<String> = {
        let mut st = conn.prepare("SELECT file_path FROM nodes WHERE label = 'File' ORDER BY file_path").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(files, ["sub/mod.py", r"sub\mod.py", r"x\..\..\outside\secret.py"]);
    // Every stored path names a file under the root, and nothing else.
    let all: Vec<String> = {
        let mut st = conn.prepare("SELECT DISTINCT file_path FROM nodes WHERE file_path IS NOT NULL").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    for p in &all {
        let f = navegador_model::path::join_stored(&root, p).unwrap_or_else(|| panic!("{p} is not a stored path"));
        assert!(f.is_file() && f.canonicalize().unwrap().starts_with(root.canonicalize().unwrap()), "{p}");
    }
    let secret: Vec<String> = {
        let mut st = conn.prepare("SELECT name FROM nodes WHERE name = 'secret'").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert!(secret.is_empty(), "a file outside the root was read");
    let not_utf8: Vec<_> = report.skipped.iter().filter(|(_, r)| r.contains("UTF-8")).collect();
    assert_eq!(not_utf8.len(), 2, "{:?}", report.skipped);
    // Unchanged on a second run, and the same as a clean build.
    let inc = index(&root, &db).canonical_dump().unwrap();
    assert_eq!(inc, index(&root, &tmp.path().join("clean.db")).canonical_dump().unwrap());
}

/// Renders the endpoints of a graph, one line each (the golden format of `tests/endpoints`).
fn render_endpoints(store: &Store) -> String {
    let mut out = String::new();
    for e in store.endpoints().unwrap() {
        out.push_str(&format!(
            "{} {} {} {} {} {}:{} {} -> {}{}\n",
            e.kind,
            e.method.as_deref().unwrap_or("-"),
            e.path.as_deref().unwrap_or("-"),
            e.framework,
            e.language,
            e.file,
            e.line,
            e.name,
            e.handler.as_deref().unwrap_or("-"),
            if e.test { " (test)" } else { "" }
        ));
    }
    out
}

/// One workspace per framework under `tests/endpoints/NAME.txt`; its endpoints are compared
/// with `NAME.endpoints` (`UPDATE_GOLDEN=1` rewrites).
#[test]
fn endpoints_match_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/endpoints");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 10, "fixtures missing in {}", dir.display());
    check_goldens(fixtures, "endpoints", render_endpoints);
}

/// Renders the HTTP client call sites of a graph and their links, one line each (the golden
/// format of `tests/clients`).
fn render_links(store: &Store) -> String {
    let mut out = String::new();
    for c in store.http_calls().unwrap() {
        let site = format!(
            "{}:{} {} {} {}{} from {}",
            c.file,
            c.line,
            c.library,
            c.method.as_deref().unwrap_or("-"),
            c.url.as_deref().unwrap_or("-"),
            c.document.as_ref().map(|d| format!(" (document {d})")).unwrap_or_default(),
            c.caller.as_deref().unwrap_or("<file>")
        );
        if c.links.is_empty() {
            out.push_str(&format!("{site} -> none\n"));
        }
        for l in &c.links {
            out.push_str(&format!(
                "{site} -> {} {} [{} {}]\n",
                l.method.as_deref().unwrap_or("ALL"),
                l.path.as_deref().unwrap_or("-"),
                l.confidence,
                l.reason
            ));
        }
    }
    out
}

/// `render_links` with each linked endpoint's file: a link that moves from a schema's field
/// to a code-first resolver's endpoint of the same name moves.
fn render_links_to_files(store: &Store) -> String {
    let conn = store.sqlite_conn().expect("a SQLite graph file");
    let mut out = render_links(store);
    for c in store.http_calls().unwrap() {
        for l in &c.links {
            let file: Option<String> = conn.query_row("SELECT file_path FROM nodes WHERE id = ?1", [l.endpoint], |r| r.get(0)).unwrap();
            out.push_str(&format!("{}:{} -> {}\n", c.file, c.line, file.unwrap_or_default()));
        }
    }
    out
}

fn client_fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients");
    let mut fixtures: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "txt")).collect();
    fixtures.sort();
    assert!(fixtures.len() >= 13, "fixtures missing in {}", dir.display());
    fixtures
}

/// Frontend + backend workspaces under `tests/clients/NAME.txt`: their client call sites
/// and `HTTP_CALLS` links are compared with `NAME.links` (`UPDATE_GOLDEN=1` rewrites).
#[test]
fn client_calls_link_to_endpoints() {
    check_goldens(client_fixtures(), "links", render_links);
}

/// Link precision and recall against the fixtures' own expectations: a call line says
/// `expect: METHOD /path` (the endpoint it requests; several, `, `-separated, for several
/// calls or root fields on the line; `QUERY user` for a GraphQL field) or `expect: none`. Precision is the
/// share of links that go to the expected endpoint, recall the share of expected links
/// made; printed per fixture (docs/BENCHMARKS.md), precision held at >= 0.95.
#[test]
fn client_links_are_precise() {
    let (mut links, mut right, mut expected) = (0usize, 0usize, 0usize);
    let mut report = Vec::new();
    for p in client_fixtures() {
        let files = parse_fixture(&std::fs::read_to_string(&p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let store = index(&root, &tmp.path().join("g.db"));
        let calls = store.http_calls().unwrap();
        let (mut l, mut r, mut e) = (0usize, 0usize, 0usize);
        let mut seen = Vec::new();
        for (path, text) in &files {
            for (i, line) in text.lines().enumerate() {
                // `// expect: …`, `# expect: …`, in JSX `{/* expect: … */}`
                let Some(want) = line.split("expect: ").nth(1).map(|w| w.trim().trim_end_matches('}').trim_end().trim_end_matches("*/").trim()) else { continue };
                let at = (i + 1) as u32;
                // a call spanning lines carries its expectation on its first line
                let here: Vec<_> = calls.iter().filter(|c| c.file == *path && c.line == at).collect();
                if here.is_empty() {
                    assert!(want == "none", "{}: {path}:{at} expects {want}, but no client call was found there", p.display());
                    continue;
                }
                seen.push((path.clone(), at));
                // a path is normalized; a GraphQL field (`QUERY user`) is a name
                let norm = |m: &str, u: &str| (m.to_string(), if u.starts_with('/') || u.is_empty() { navegador_index::endpoints::normalize_template(u) } else { u.to_string() });
                let wants: Vec<(String, String)> = if want == "none" {
                    Vec::new()
                } else {
                    want.split(", ").map(|w| {
                        let (m, u) = w.split_once(' ').unwrap();
                        norm(m, u)
                    }).collect()
                };
                e += wants.len();
                let mut open = wants.clone();
                for link in here.iter().flat_map(|c| &c.links) {
                    l += 1;
                    let got = norm(link.method.as_deref().unwrap_or_default(), link.path.as_deref().unwrap_or(""));
                    if let Some(i) = open.iter().position(|w| *w == got) {
                        open.swap_remove(i);
                        r += 1;
                    }
                }
            }
        }
        let unexpected: Vec<_> = calls.iter().filter(|c| !seen.contains(&(c.file.clone(), c.line))).map(|c| format!("{}:{}", c.file, c.line)).collect();
        assert!(unexpected.is_empty(), "{}: client calls without an `expect:` line: {unexpected:?}", p.display());
        report.push(format!("{}: links {l}, right {r}, expected {e}", p.file_name().unwrap().to_string_lossy()));
        (links, right, expected) = (links + l, right + r, expected + e);
    }
    let precision = right as f64 / links.max(1) as f64;
    let recall = right as f64 / expected.max(1) as f64;
    println!("{}\nall: precision {precision:.3}, recall {recall:.3} ({right} right of {links} links, {expected} expected)", report.join("\n"));
    assert!(precision >= 0.95, "link precision {precision:.3} < 0.95\n{}", report.join("\n"));
    assert!(recall >= 0.9, "link recall {recall:.3} < 0.9\n{}", report.join("\n"));
}

/// A link follows an edit on either side: the backend's path changes, the client's URL
/// changes, then both are restored; at each step the incremental graph equals a clean one.
#[test]
fn client_links_follow_edits_incrementally() {
    for p in client_fixtures() {
        let files = parse_fixture(&std::fs::read_to_string(&p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let inc_db = tmp.path().join("inc.db");
        let before = render_links_to_files(&index(&root, &inc_db));
        // the client: the file with the most expectations; the server: the first file with a
        // path literal and none, else (GraphQL) the schema, its first root field renamed
        let client = files.iter().max_by_key(|(_, t)| t.matches("expect: ").count()).unwrap().clone();
        let rest = files.iter().find(|(_, t)| !t.contains("expect: ") && (t.contains("\"/") || t.contains("'/")));
        let server = match rest {
            Some((path, t)) => (path.clone(), t.replacen("\"/", "\"/v2/", 1).replacen("'/", "'/v2/", 1)),
            None => match files.iter().find(|(_, t)| t.contains("type Query {\n  ")) {
                Some((path, t)) => (path.clone(), t.replacen("type Query {\n  ", "type Query {\n  renamed_", 1)),
                // code-first: the first resolver naming its field (`name: "user"`, `name = "…"`)
                None => ["name: \"", "name = \"", "name=\""]
                    .iter()
                    .find_map(|n| files.iter().find(|(_, t)| !t.contains("expect: ") && t.contains(n)).map(|(p, t)| (p.clone(), t.replacen(n, &format!("{n}renamed_"), 1))))
                    .unwrap(),
            },
        };
        let original = files.iter().find(|(p, _)| *p == server.0).unwrap().1.clone();
        let mut moved = client.1.replace("expect: ", "expect:").replace("/api", "/v9");
        if moved == client.1.replace("expect: ", "expect:") {
            // no URL to move: the GraphQL fields selected (`{ users` -> `{ renamed_users`)
            moved = moved.replace("{ ", "{ renamed_");
        }
        let server = (server.0, server.1, original);
        let edits = [
            (server.0.clone(), server.1.clone()),
            (client.0.clone(), moved),
            (server.0.clone(), server.2.clone()),
            (client.0.clone(), client.1.clone()),
        ];
        for (i, (path, text)) in edits.iter().enumerate() {
            std::fs::write(root.join(path), text).unwrap();
            let inc = index(&root, &inc_db);
            let clean = index(&root, &tmp.path().join(format!("clean{i}.db")));
            assert_eq!(inc.canonical_dump().unwrap(), clean.canonical_dump().unwrap(), "{} after editing {path}", p.display());
            assert_eq!(render_links(&inc), render_links(&clean), "{} after editing {path}", p.display());
            if i < 2 {
                assert_ne!(render_links_to_files(&inc), before, "{}: the links did not move after editing {path}", p.display());
            }
        }
        assert_eq!(render_links_to_files(&index(&root, &inc_db)), before, "{}: restored", p.display());
    }
}

/// Cypher sees endpoints and their handlers: `(:Endpoint)-[:EXPOSES]->(handler)`.
#[test]
fn cypher_sees_endpoints_and_handlers() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/endpoints");
    write_tree(&root, &parse_fixture(&std::fs::read_to_string(dir.join("spring.txt")).unwrap()));
    let store = index(&root, &tmp.path().join("g.db"));
    let r = navegador_cypher::execute_read(
        &store,
        "MATCH (e:Endpoint {framework: 'spring'})-[:EXPOSES]->(h:Method) WHERE e.path = '/users/{id}' AND e.method = 'GET'
         RETURN e.name, e.kind, h.qualified_name, e.file_path, e.line_start",
        &Default::default(),
    )
    .unwrap();
    let rows: Vec<String> = r.rows.iter().map(|row| format!("{row:?}")).collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].contains("com.acme.users.UserController.get"), "{rows:?}");
    assert!(rows[0].contains("rest"), "{rows:?}");
    let r = navegador_cypher::execute_read(
        &store,
        "MATCH (e:Endpoint) WHERE e.kind = 'graphql' RETURN e.name, e.path ORDER BY e.name",
        &Default::default(),
    )
    .unwrap();
    // the code-first root fields, each its own endpoint with its field as path; the
    // `@SchemaMapping(typeName = "Book")` field resolver and the negatives none
    assert_eq!(format!("{:?}", r.rows), r#"[[String("addBook"), String("addBook")], [String("bookById"), String("bookById")]]"#);
}

/// Reference sites without an edge are records of `CALL db.unresolved()`, with the
/// enclosing symbol as a node: as many as the `refs` table holds of those statuses.
#[test]
fn unresolved_sites_are_queryable_from_cypher() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("src");
    let text = "//- app.py\ndef helper():\n    return nowhere(1)\n\ndef main():\n    helper()\n    print(len([]))\n";
    write_tree(&root, &parse_fixture(text));
    let store = index(&root, &tmp.path().join("g.db"));
    let q = "CALL db.unresolved() YIELD file, line, name, reason, caller
             RETURN file, line, name, reason, caller.qualified_name AS caller ORDER BY line, name";
    let r = navegador_cypher::execute_read(&store, q, &Default::default()).unwrap();
    let rows: Vec<String> = r.rows.iter().map(|row| format!("{row:?}")).collect();
    assert_eq!(
        rows,
        [
            r#"[String("app.py"), Int(2), String("nowhere"), String("unresolved"), String("app.helper")]"#,
            r#"[String("app.py"), Int(6), String("len"), String("external"), String("app.main")]"#,
            r#"[String("app.py"), Int(6), String("print"), String("external"), String("app.main")]"#,
        ],
    );
    let conn = store.sqlite_conn().unwrap();
    let n: i64 = conn
        .query_row("SELECT count(*) FROM refs WHERE status IN ('unresolved', 'external')", [], |r| r.get(0))
        .unwrap();
    let r = navegador_cypher::execute_read(&store, "CALL db.unresolved() YIELD name RETURN count(*) AS n", &Default::default()).unwrap();
    assert_eq!(format!("{:?}", r.rows), format!("[[Int({n})]]"));
    let r = navegador_cypher::execute_read(
        &store,
        "CALL db.unresolved() YIELD reason, name WHERE reason = 'unresolved' RETURN name",
        &Default::default(),
    )
    .unwrap();
    assert_eq!(format!("{:?}", r.rows), r#"[[String("nowhere")]]"#);
}

/// The PostgreSQL backend builds the same graph as SQLite: every project, framework and
/// client fixture, indexed clean and then through incremental edits (delete a file, cut one
/// in half, restore), gives the same canonical dump, the same endpoints and the same client
/// calls and `HTTP_CALLS` links on both (a real server: `scripts/test.sh` starts one and
/// sets NAVEGADOR_TEST_PG).
#[test]
fn postgres_backend_builds_the_same_graph_as_sqlite() {
    if navegador_store::testing::fresh_postgres("index_probe").is_none() {
        return navegador_store::testing::skipped("postgres_backend_builds_the_same_graph_as_sqlite");
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/endpoints");
    let mut fixtures = projects();
    fixtures.extend(
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "txt")),
    );
    fixtures.extend(client_fixtures());
    for (i, p) in fixtures.iter().enumerate() {
        let files = parse_fixture(&std::fs::read_to_string(p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let lite = tmp.path().join("g.db");
        let pg = navegador_store::testing::fresh_postgres(&format!("index{i}")).unwrap();
        let mut step = 0;
        let mut same = |what: &str| {
            step += 1;
            let (a, b) = (index(&root, &lite), index(&root, &pg));
            let (da, db) = (a.canonical_dump().unwrap(), b.canonical_dump().unwrap());
            let only_lite: Vec<_> = da.iter().filter(|l| !db.contains(l)).collect();
            let only_pg: Vec<_> = db.iter().filter(|l| !da.contains(l)).collect();
            assert!(
                only_lite.is_empty() && only_pg.is_empty(),
                "{} after {what}: SQLite != PostgreSQL\nonly SQLite:\n{only_lite:#?}\nonly PostgreSQL:\n{only_pg:#?}",
                p.display()
            );
            assert_eq!(render_endpoints(&a), render_endpoints(&b), "{} after {what}: endpoints differ", p.display());
            assert_eq!(render_links(&a), render_links(&b), "{} after {what}: client calls or links differ", p.display());
            assert_eq!(a.stats().unwrap().labels, b.stats().unwrap().labels, "{} after {what}", p.display());
            for (backend, mut store) in [("SQLite", a), ("PostgreSQL", b)] {
                let drift = store.catalog_drift().unwrap();
                assert!(drift.is_empty(), "{} after {what}: the {backend} catalog drifted\n{drift:#?}", p.display());
                assert_eq!(store.typed_drift().unwrap(), 0, "{} after {what}: {backend} typed columns differ from props", p.display());
            }
        };
        same("a clean index");
        let (path, content) = &files[0];
        let abs = root.join(path);
        std::fs::remove_file(&abs).unwrap();
        same(&format!("deleting {path}"));
        let mut cut = content.len() / 2;
        while !content.is_char_boundary(cut) {
            cut -= 1;
        }
        std::fs::write(&abs, &content[..cut]).unwrap();
        same(&format!("cutting {path} in half"));
        std::fs::write(&abs, content).unwrap();
        same(&format!("restoring {path}"));
    }
}

/// A small seeded generator (xorshift64*), so a failing edit sequence can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The line comment of a source file, by extension (`None`: data files, left alone).
fn line_comment(path: &str) -> Option<&'static str> {
    match path.rsplit('.').next()? {
        "py" | "rb" | "sh" | "bash" | "pm" | "pl" => Some("#"),
        "lua" => Some("--"),
        "json" | "toml" | "mod" => None,
        _ => Some("//"),
    }
}

/// Names a file defines (`def x`, `function x`, `class X`, `fn x`, `func x`, …).
fn defined_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for kw in ["def ", "function ", "class ", "fn ", "func ", "interface ", "struct ", "sub "] {
        for (i, _) in text.match_indices(kw) {
            if i > 0 && text.as_bytes()[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            let rest = &text[i + kw.len()..];
            let n: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if n.len() > 1 {
                out.push(n);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Replaces a whole word.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if word(before) || word(after) { from } else { to });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// One generated edit of the workspace `files`; returns what it did.
fn random_edit(rng: &mut Rng, files: &mut Vec<(String, String)>, gone: &mut Vec<(String, String)>, step: usize) -> String {
    let code: Vec<usize> = (0..files.len()).filter(|&i| line_comment(&files[i].0).is_some()).collect();
    if code.is_empty() || (!gone.is_empty() && rng.below(6) == 0) {
        let Some(f) = gone.pop() else { return "nothing".into() };
        let what = format!("restore {}", f.0);
        files.push(f);
        return what;
    }
    let i = code[rng.below(code.len())];
    let path = files[i].0.clone();
    let names: Vec<String> = files.iter().flat_map(|(_, c)| defined_names(c)).collect();
    let name = names.get(rng.below(names.len())).cloned().unwrap_or_else(|| "missing".into());
    let py = path.ends_with(".py");
    let js = [".ts", ".tsx", ".js"].iter().any(|e| path.ends_with(e));
    match rng.below(9) {
        0 => {
            let c = line_comment(&path).unwrap();
            files[i].1.push_str(&format!("{c} edit {step}\n"));
            format!("comment at the end of {path}")
        }
        1 if py || js => {
            let def = if py {
                format!("\ndef gen_{step}():\n    return {name}()\n")
            } else {
                format!("\nexport function gen_{step}() {{\n  return {name}();\n}}\n")
            };
            files[i].1.push_str(&def);
            format!("new function gen_{step} calling {name} in {path}")
        }
        2 => {
            let own = defined_names(&files[i].1);
            let Some(old) = own.get(rng.below(own.len())).cloned() else { return format!("no definition in {path}") };
            let new = format!("{old}R{step}");
            let everywhere = rng.below(2) == 0;
            for (p, c) in files.iter_mut() {
                if everywhere || *p == path {
                    *c = replace_word(c, &old, &new);
                }
            }
            format!("rename {old} -> {new} in {}", if everywhere { "every file" } else { &path })
        }
        3 => {
            let f = files.remove(i);
            gone.push(f);
            format!("delete {path}")
        }
        4 => {
            // Move the file beside another one, under a new name (same extension).
            let j = code[rng.below(code.len())];
            let dir = files[j].0.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            let ext = path.rsplit('.').next().unwrap();
            let to = if dir.is_empty() { format!("moved{step}.{ext}") } else { format!("{dir}/moved{step}.{ext}") };
            if files.iter().any(|(p, _)| *p == to) {
                return "nothing".into();
            }
            files[i].0 = to.clone();
            format!("move {path} -> {to}")
        }
        5 => {
            // An import line of a file in the same directory (so relative paths still
            // hold), copied in; or one of the file's own import lines dropped.
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            let is_import = |l: &str| l.starts_with("import ") || l.starts_with("from ") || l.starts_with("use ") || l.starts_with("#include ") || l.starts_with("require");
            let lines: Vec<String> = files
                .iter()
                .filter(|(p, _)| p.rsplit_once('/').map_or("", |(d, _)| d) == dir && p.rsplit('.').next() == path.rsplit('.').next())
                .flat_map(|(_, c)| c.lines().filter(|l| is_import(l)).map(str::to_string).collect::<Vec<_>>())
                .collect();
            if rng.below(2) == 0 && !lines.is_empty() {
                let l = &lines[rng.below(lines.len())];
                let text = &files[i].1;
                // After the first line (a Go `package`, a PHP `<?php` stay first).
                let at = text.find('\n').map_or(text.len(), |n| n + 1);
                files[i].1.insert_str(at, &format!("{l}\n"));
                format!("import line `{l}` copied into {path}")
            } else {
                let own: Vec<&str> = files[i].1.lines().filter(|l| is_import(l)).collect();
                let Some(l) = own.get(rng.below(own.len())).map(|l| l.to_string()) else { return format!("no import in {path}") };
                files[i].1 = files[i].1.replacen(&format!("{l}\n"), "", 1);
                format!("import line `{l}` dropped from {path}")
            }
        }
        6 => {
            // A body change: a call to some name appended to the file's last line that
            // ends a block or a statement, or its first call removed.
            let text = &files[i].1;
            match text.find("()") {
                Some(k) if rng.below(2) == 0 => {
                    let start = text[..k].rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).map_or(0, |s| s + 1);
                    let callee = text[start..k].to_string();
                    files[i].1.replace_range(start..k + 2, "0");
                    format!("call {callee}() replaced by 0 in {path}")
                }
                _ => {
                    let c = line_comment(&path).unwrap();
                    files[i].1 = files[i].1.replacen(&format!("{name}("), &format!("{c}\n{name}("), 1);
                    format!("no-op body edit in {path}")
                }
            }
        }
        7 => {
            // A comment near the top: every definition below moves a line and keeps what
            // it is (its node keeps its id; sites elsewhere stay bound to it).
            let c = line_comment(&path).unwrap();
            let text = &files[i].1;
            let at = text.find('\n').map_or(text.len(), |n| n + 1);
            files[i].1.insert_str(at, &format!("{c} moved {step}\n"));
            format!("comment near the top of {path}")
        }
        _ => {
            // Cut the file at a line boundary: definitions and calls after it go.
            let text = &files[i].1;
            let lines: Vec<usize> = text.match_indices('\n').map(|(k, _)| k + 1).collect();
            if lines.is_empty() {
                return "nothing".into();
            }
            let cut = lines[rng.below(lines.len())];
            files[i].1.truncate(cut);
            format!("cut {path} after byte {cut}")
        }
    }
}

/// A few hundred generated edits (comments at the end and near the top, new functions calling known names, renames in
/// one file or everywhere, deleted and restored files, moved files, copied and dropped
/// imports, removed calls, cut files) on every project; after each one the incremental
/// graph equals a clean rebuild. Seeded: `EDIT_SEED=n` replays a run.
#[test]
fn random_edits_keep_incremental_equal_to_clean() {
    const STEPS: usize = 24;
    let seed: u64 = std::env::var("EDIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut total = 0;
    for p in projects() {
        let mut files = parse_fixture(&std::fs::read_to_string(&p).unwrap());
        // each project's edits follow from its own name, so a new pack's project does not
        // reshuffle the edits of the projects sorted after it
        let name = p.components().rev().take(2).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
        let key = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (key | 1) << 32 | 1);
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        write_tree(&root, &files);
        let inc_db = tmp.path().join("inc.db");
        index(&root, &inc_db);
        // A long-lived writer as the server's live index is: one store, the symbol table
        // resident and patched between edits, told the changed paths (no walk).
        let live_db = tmp.path().join("live.db");
        let mut live = Store::open(&live_db).unwrap();
        let mut resident = Resident::default();
        ingest_resident(&root, &mut live, &IngestConfig::default(), &NoProgress, None, &mut resident).unwrap();
        let mut gone = Vec::new();
        let mut done: Vec<String> = Vec::new();
        for step in 0..STEPS {
            let before: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
            let was = files.clone();
            done.push(random_edit(&mut rng, &mut files, &mut gone, step));
            // What a watcher would report: the paths whose content changed, came or went
            // (`write_tree` below rewrites every file: the others' mtimes move unreported).
            let mut changed: Vec<std::path::PathBuf> = was.iter().chain(files.iter()).filter(|f| !was.contains(f) || !files.contains(f)).map(|(p, _)| root.join(p)).collect();
            changed.dedup();
            for p in &before {
                if !files.iter().any(|(q, _)| q == p) {
                    std::fs::remove_file(root.join(p)).unwrap();
                }
            }
            write_tree(&root, &files);
            let inc = index(&root, &inc_db).canonical_dump().unwrap();
            ingest_paths(&root, &mut live, &IngestConfig::default(), &NoProgress, None, &mut resident, &changed).unwrap();
            let kept = live.canonical_dump().unwrap();
            let clean_db = tmp.path().join(format!("clean{step}.db"));
            let mut clean_store = index(&root, &clean_db);
            let clean = clean_store.canonical_dump().unwrap();
            // the catalog each writer kept is what the tables count
            for (what, store) in [("clean", &mut clean_store), ("live", &mut live), ("incremental", &mut Store::open(&inc_db).unwrap())] {
                let drift = store.catalog_drift().unwrap();
                assert!(drift.is_empty(), "{} (EDIT_SEED={seed}), step {step}: {what} catalog drifted after\n{}\n{drift:#?}", p.display(), done.join("\n"));
                assert_eq!(store.typed_drift().unwrap(), 0, "{} (EDIT_SEED={seed}), step {step}: {what} typed columns differ from props", p.display());
            }
            drop(clean_store);
            std::fs::remove_file(&clean_db).unwrap();
            for (what, inc) in [("incremental", &inc), ("incremental with a resident table", &kept)] {
            if *inc != clean {
                let only_inc: Vec<_> = inc.iter().filter(|l| !clean.contains(l)).collect();
                let only_clean: Vec<_> = clean.iter().filter(|l| !inc.contains(l)).collect();
                panic!(
                    "{} (EDIT_SEED={seed}), step {step}: {what} != clean after\n{}\nonly incremental:\n{:#?}\nonly clean:\n{:#?}",
                    p.display(),
                    done.join("\n"),
                    only_inc,
                    only_clean
                );
            }
            }
            total += 1;
        }
    }
    assert!(total >= 200, "{total} edits: too few to mean much");
}
