//! The crate's one integration-test binary: each case runs a request against a fixture tree
//! built in a tempdir and compares the serialized answer with a golden file in
//! `tests/golden/` (`UPDATE_GOLDEN=1 cargo test --release -p navegador-search` rewrites them).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use navegador_search::{
    inspect_tree, normalize_extensions, search_text, SearchError, SearchRequest, TreeRequest, HARD_IGNORED,
    TREE_ENTRY_CAP,
};
use serde_json::{json, Value};

/// Every fixture file's mtime: 2026-01-02T03:04:05Z.
const MTIME: u64 = 1_767_323_045;

/// The fixture: `.gitignore`, hidden entries, hard-ignored folders, a binary file, invalid
/// UTF-8, a symlinked directory, files of several languages.
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let files: &[(&str, &[u8])] = &[
        (".gitignore", b"ignored.ts\ngen/\n*.log\n"),
        ("README.md", b"# needle readme\nsee a.b(c) here\n"),
        ("a-b.ts", b"export const needle = 1;\n"),
        ("a.ts", b"needle at the top\n"),
        ("a/b.ts", b"// needle in a folder\n"),
        (
            "src/app.ts",
            b"import { useLoaderData } from 'x';\nconst x = a.b(c);\nconst y = axb(c);\nneedle one\nneedle two\nplain\nplain\nplain\nneedle three\nlast line\n",
        ),
        ("src/app.tsx", b"export default function App() {\n  const d = useLoaderData();\n  return needle;\n}\n"),
        ("src/util.js", b"// needle in javascript\nfunction useThingData() {}\n"),
        ("src/Main.java", b"class Main {\n  // needle in java\n  void needleNeedle() {}\n}\n"),
        ("src/notes.txt", b"needle\n"),
        ("src/crlf.ts", b"first\r\nneedle crlf\r\nthird\r\n"),
        ("src/latin1.txt", b"caf\xe9 needle \xff\xfe end\n"),
        ("src/ignored.ts", b"needle gitignored\n"),
        ("src/debug.log", b"needle in a log\n"),
        ("src/.env.ts", b"needle hidden file\n"),
        ("src/Build.ts", b"needle: Build is not build\n"),
        ("gen/x.ts", b"needle generated\n"),
        (".hidden/secret.ts", b"needle hidden dir\n"),
        ("node_modules/pkg/index.ts", b"needle in node_modules\n"),
        ("build/out.ts", b"needle in build\n"),
        ("docs/out/page.md", b"needle under out\n"),
        (".navegador/graph.db", b"needle in the index\n"),
        ("bin/blob.bin", b"needle\x00\x01\x02binary\n"),
        ("bin/late.dat", &late_nul()),
        ("Zeta.md", b"nothing to see\n"),
        ("zz/deep/er/est/file.ts", b"needle deep\n"),
        ("zz/.gitignore", b"*.gen.ts\n"),
        ("zz/deep/er/skip.gen.ts", b"needle ignored by zz/.gitignore\n"),
        ("zz/deep/er/keep.ts", b"needle kept\n"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let root = fs::canonicalize(dir.path()).expect("canonical");
    for (rel, bytes) in files {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, bytes).unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("src"), root.join("linked")).unwrap();
    set_mtimes(&root);
    (dir, root)
}

/// A text file with a NUL byte well past the searcher's first buffer: still binary.
fn late_nul() -> Vec<u8> {
    let mut v = b"needle before the nul\n".to_vec();
    v.extend(std::iter::repeat_n(b"filler line\n".as_slice(), 20_000).flatten());
    v.extend(b"needle\x00after\n");
    v
}

fn set_mtimes(dir: &Path) {
    let t = UNIX_EPOCH + Duration::from_secs(MTIME);
    for e in fs::read_dir(dir).unwrap().flatten() {
        let ft = e.file_type().unwrap();
        if ft.is_symlink() {
            continue;
        }
        if ft.is_dir() {
            set_mtimes(&e.path());
        }
        let f = fs::File::open(e.path()).unwrap();
        f.set_modified(t).unwrap();
    }
}

fn req(query: &str) -> SearchRequest {
    SearchRequest {
        query: query.into(),
        regex: false,
        context: 0,
        limit: 50,
        include: None,
        extensions: None,
        language_of: |p| navegador_lang::registry().name_of_path(p),
    }
}

fn tree_req(max_depth: usize) -> TreeRequest {
    TreeRequest { max_depth, extensions: None, file_pattern: None, include_stats: false, include_hidden: false }
}

fn search_json(root: &Path, scope: &str, r: &SearchRequest) -> Value {
    match search_text(root, &root.join(scope), r) {
        Ok(out) => json!({ "truncated": out.truncated, "data": out.data }),
        Err(e) => json!({ "error": error_json(&e) }),
    }
}

fn tree_json(root: &Path, scope: &str, r: &TreeRequest) -> Value {
    match inspect_tree(root, &root.join(scope), r) {
        Ok(out) => {
            let mut data = serde_json::to_value(&out.data).unwrap();
            // Sizes of directories and times of symlinks depend on the file system.
            for item in data["items"].as_array_mut().unwrap() {
                let is_dir = item["type"] == "directory";
                if let Some(stats) = item.get_mut("stats").filter(|s| s.is_object()) {
                    if is_dir {
                        stats["sizeBytes"] = json!("<dir size>");
                    }
                    if stats["isSymlink"] == true {
                        stats["sizeBytes"] = json!("<link size>");
                        stats["modifiedAt"] = json!("<link mtime>");
                    }
                }
            }
            json!({ "truncated": out.truncated, "totalMatched": out.total_matched, "data": data })
        }
        Err(e) => json!({ "error": error_json(&e) }),
    }
}

fn error_json(e: &SearchError) -> Value {
    match e {
        SearchError::InvalidRegex(m) => json!({ "invalidRegex": m }),
        SearchError::InvalidGlob(m) => json!({ "invalidGlob": m }),
        SearchError::Io(m) => json!({ "io": m }),
    }
}

/// Compares `actual` with `tests/golden/<name>.json` (rewritten with `UPDATE_GOLDEN=1`), and
/// checks that no absolute path of the machine leaked into it.
fn check(root: &Path, name: &str, actual: Value) {
    let text = serde_json::to_string_pretty(&actual).unwrap() + "\n";
    assert!(!text.contains(&*root.to_string_lossy()), "{name}: an absolute path leaked:\n{text}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &text).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|_| panic!("{name}: no golden file; run with UPDATE_GOLDEN=1"));
    assert_eq!(expected, text, "{name}: differs from {} (UPDATE_GOLDEN=1 to accept)", path.display());
}

#[test]
fn search_cases() {
    let (_dir, root) = fixture();
    let with = |f: &dyn Fn(&mut SearchRequest), q: &str| {
        let mut r = req(q);
        f(&mut r);
        r
    };
    let cases: Vec<(&str, &str, SearchRequest)> = vec![
        // Hidden, gitignored, hard-ignored (relative to the root: `docs/out` too), binary
        // (NUL early or late) and symlinked entries are all left out; invalid UTF-8 is lossy;
        // items in path order (`a-b.ts` < `a.ts` < `a/b.ts`), matches in line order.
        ("search_whole_tree", ".", req("needle")),
        ("search_literal_metachars", ".", req("a.b(c)")),
        ("search_regex", ".", with(&|r| r.regex = true, r"use\w+Data")),
        ("search_regex_submatches", "src", with(&|r| r.regex = true, "[Nn]eedle")),
        ("search_invalid_regex", ".", with(&|r| r.regex = true, "foo(")),
        ("search_literal_never_invalid", ".", req("foo(")),
        // Matching is line by line: a line break in the query is refused, even a literal one.
        ("search_newline_refused", ".", req("needle\none")),
        ("search_context_0", "src/app.ts", req("needle")),
        ("search_context_2", "src/app.ts", with(&|r| r.context = 2, "needle")),
        ("search_context_crlf", "src/crlf.ts", with(&|r| r.context = 1, "needle")),
        (
            "search_include_and_extensions",
            ".",
            with(&|r| {
                r.include = Some("src/**".into());
                r.extensions = Some(vec![".ts".into(), ".tsx".into()]);
            }, "needle"),
        ),
        ("search_include_basename_glob", ".", with(&|r| r.include = Some("*.tsx".into()), "needle")),
        ("search_include_never_unignores", ".", with(&|r| r.include = Some("*.log".into()), "needle")),
        ("search_invalid_include", ".", with(&|r| r.include = Some("src/[".into()), "needle")),
        ("search_include_negated", "src", with(&|r| r.include = Some("!*.ts".into()), "needle")),
        ("search_extensions_java", ".", with(&|r| r.extensions = Some(vec!["JAVA".into()]), "needle")),
        ("search_limit_truncates_files", ".", with(&|r| r.limit = 3, "needle")),
        ("search_scope_subdir", "src", req("needle")),
        ("search_scope_hidden_dir", ".hidden", req("needle")),
        // An explicitly scoped ignored directory is searched (as `rg gen/`); the ignore
        // files above the scope still apply below it (`src/ignored.ts` stays out).
        ("search_scope_gitignored_dir", "gen", req("needle")),
        ("search_scope_nested_ignore", "zz/deep", req("needle")),
        ("search_scope_file_ignored_but_explicit", "src/ignored.ts", req("needle")),
        ("search_scope_hard_ignored", "node_modules", req("needle")),
        ("search_no_match", ".", req("no such text anywhere")),
    ];
    for (name, scope, r) in &cases {
        check(&root, name, search_json(&root, scope, r));
    }
}

#[test]
fn search_limit_keeps_true_totals() {
    let (_dir, root) = fixture();
    let all = search_text(&root, &root, &req("needle")).unwrap();
    let cut = search_text(&root, &root, &SearchRequest { limit: 3, ..req("needle") }).unwrap();
    assert!(!all.truncated && cut.truncated);
    assert_eq!(cut.data.file_count, 3);
    assert_eq!((cut.data.total_file_count, cut.data.total_match_count), (all.data.total_file_count, all.data.total_match_count));
    assert_eq!(cut.data.items[..], all.data.items[..3], "the first files in path order");
    assert_eq!(cut.data.match_count, all.data.items[..3].iter().map(|f| f.match_count).sum::<usize>());
}

#[test]
fn tree_cases() {
    let (_dir, root) = fixture();
    let with = |f: &dyn Fn(&mut TreeRequest), depth: usize| {
        let mut r = tree_req(depth);
        f(&mut r);
        r
    };
    let cases: Vec<(&str, &str, TreeRequest)> = vec![
        // Directories first, case-insensitive names; `linked` (a symlink to `src`) listed as a
        // directory, not entered; hard-ignored names never listed; gitignore not consulted.
        ("tree_default", ".", tree_req(3)),
        ("tree_depth_0", ".", tree_req(0)),
        ("tree_depth_1", ".", tree_req(1)),
        ("tree_hidden", ".", with(&|r| r.include_hidden = true, 2)),
        (
            "tree_filters_files_only",
            ".",
            with(&|r| {
                r.extensions = Some(vec![".ts".into()]);
                r.file_pattern = Some("a*".into());
            }, 20),
        ),
        ("tree_stats", "src", with(&|r| r.include_stats = true, 1)),
        ("tree_stats_symlink", ".", with(&|r| r.include_stats = true, 1)),
        ("tree_scope_file", "src/app.ts", with(&|r| r.include_stats = true, 3)),
        ("tree_scope_hard_ignored", "node_modules", tree_req(3)),
        ("tree_invalid_pattern", ".", with(&|r| r.file_pattern = Some("[".into()), 3)),
    ];
    for (name, scope, r) in &cases {
        check(&root, name, tree_json(&root, scope, r));
    }
}

#[test]
fn tree_cap_stops_at_2000_without_a_total() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    for d in 0..3 {
        for f in 0..700 {
            let p = root.join(format!("d{d}/f{f:04}.txt"));
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, b"x").unwrap();
        }
    }
    let out = inspect_tree(&root, &root, &tree_req(3)).unwrap();
    assert!(out.truncated);
    assert_eq!(out.total_matched, None);
    assert_eq!(out.data.entry_count, TREE_ENTRY_CAP);
    assert_eq!(out.data.items.len(), TREE_ENTRY_CAP);
    let last = &out.data.items[TREE_ENTRY_CAP - 1];
    assert_eq!((last.path.as_str(), last.depth), ("d2/f0596.txt", 2));

    // Exactly at the cap is not truncated.
    fs::remove_dir_all(root.join("d2")).unwrap();
    for f in 0..598 {
        fs::write(root.join(format!("d1/g{f:04}.txt")), b"x").unwrap();
    }
    let out = inspect_tree(&root, &root, &tree_req(3)).unwrap();
    assert_eq!((out.truncated, out.total_matched, out.data.entry_count), (false, Some(2_000), 2_000));
}

#[test]
fn extensions_are_normalized() {
    let s = |v: &[&str]| normalize_extensions(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    assert_eq!(s(&["TS", ".tsx", " .ts ", "Java"]), Ok(vec![".java".into(), ".ts".into(), ".tsx".into()]));
    assert_eq!(s(&[]), Ok(vec![]));
    assert!(s(&["."]).unwrap_err().contains("'.'"));
    assert!(s(&[".ts", "  "]).is_err());
}

#[test]
fn hard_ignored_is_the_contract_list_plus_our_index() {
    for name in [
        ".git", "node_modules", ".idea", ".vscode", ".agent", ".agents", ".claude", ".react-router", "build", "dist",
        ".next", "target", "coverage", ".turbo", ".cache", "tmp", "temp", "out", ".navegador",
    ] {
        assert!(HARD_IGNORED.contains(&name), "{name}");
    }
    assert_eq!(HARD_IGNORED.len(), 19);
}

#[test]
fn ignore_rules_are_relative_to_the_root() {
    // A workspace whose own absolute path contains hard-ignored names is searched whole.
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap().join("build/tmp/target");
    fs::create_dir_all(root.join("src")).unwrap();
    fs::write(root.join("src/lib.ts"), b"needle\n").unwrap();
    let out = search_text(&root, &root, &req("needle")).unwrap();
    assert_eq!(out.data.total_file_count, 1);
    let out = search_text(&root, &root.join("src"), &req("needle")).unwrap();
    assert_eq!(out.data.total_file_count, 1);
    let tree = inspect_tree(&root, &root, &tree_req(3)).unwrap();
    assert_eq!(tree.data.entry_count, 2);
}

#[test]
fn large_files_stream_with_the_same_answers() {
    // Past the 16 MiB slice cap a file is streamed: same lines, context and binary skipping.
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let filler = b"filler line\n".repeat(1_500_000); // 18 MB
    let mut text = b"needle first\n".to_vec();
    text.extend_from_slice(&filler);
    text.extend_from_slice(b"before\nneedle last\nafter\n");
    fs::write(root.join("big.txt"), &text).unwrap();
    let mut binary = filler.clone();
    binary.extend_from_slice(b"needle\x00\n");
    fs::write(root.join("big.bin"), &binary).unwrap();
    let out = search_text(&root, &root, &SearchRequest { context: 1, ..req("needle") }).unwrap();
    assert_eq!((out.data.total_file_count, out.data.total_match_count), (1, 2));
    let m = &out.data.items[0].matches;
    assert_eq!((m[0].line, &*m[0].text, m[0].after.len()), (1, "needle first", 1));
    assert_eq!((m[1].line, &*m[1].before[0].text, &*m[1].after[0].text), (1_500_003, "before", "after"));
    // Counted, not kept: the same totals through the counting searcher.
    let out = search_text(&root, &root, &SearchRequest { limit: 0, ..req("needle") }).unwrap();
    assert_eq!((out.data.total_file_count, out.data.total_match_count, out.data.file_count), (1, 2, 0));
}

#[test]
fn data_schemas() {
    // What an edge publishes as the `data` part of each tool's outputSchema.
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    check(&root, "schema_search_data", serde_json::to_value(schemars::schema_for!(navegador_search::SearchData)).unwrap());
    check(&root, "schema_tree_data", serde_json::to_value(schemars::schema_for!(navegador_search::TreeData)).unwrap());
}
