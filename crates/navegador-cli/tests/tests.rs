//! End-to-end tests of the `navegador` binary: the CLI contract and atomicity under a
//! `kill -9`.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use navegador_store::Store;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_navegador"))
}

fn write_py_tree(root: &Path, files: usize, funcs: usize) {
    for f in 0..files {
        let dir = root.join(format!("pkg{}", f % 20));
        std::fs::create_dir_all(&dir).unwrap();
        let mut src = String::from("import os\n\n");
        for g in 0..funcs {
            src.push_str(&format!("def f{f}_{g}(x):\n    \"\"\"doc\"\"\"\n    return f{f}_{}(x) + os.getpid()\n\n", (g + 1) % funcs));
        }
        std::fs::write(dir.join(format!("m{f}.py")), src).unwrap();
    }
}

#[test]
fn ingest_json_summary_and_stats() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_py_tree(&root, 3, 4);
    let out = bin().arg("ingest").arg(&root).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 3);
    assert_eq!(v["functions"], 12);
    assert_eq!(v["call_sites"]["exact"], 12, "{v}");
    // `os.getpid()`: a module outside the workspace.
    assert_eq!(v["call_sites"]["external"], 12, "{v}");
    assert!(root.join(".navegador/graph.db").exists(), "default db under the indexed root");
    // Unchanged re-ingest parses nothing.
    let out = bin().arg("ingest").arg(&root).arg("--json").output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["parsed"], 0);
    assert_eq!(v["unchanged"], 3);
    let out = bin().arg("stats").arg("--json").arg("--db").arg(root.join(".navegador/graph.db")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["labels"]["Function"], 12);
    assert_eq!(v["relationships"]["CALLS"], 12);
    assert_eq!(v["call_sites"]["external"], 12, "{v}");
    let out = bin().arg("stats").arg("--db").arg(root.join(".navegador/graph.db")).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.trim_start().starts_with("external") && l.contains("50.0%")), "{text}");
}

#[test]
fn errors_name_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bin().arg("stats").arg("--db").arg(tmp.path().join("none.db")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("navegador ingest"));
    let out = bin().arg("ingest").arg(tmp.path().join("missing-dir")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open"));
    // A database of another program is refused, not overwritten.
    let foreign = tmp.path().join("foreign.db");
    let c = rusqlite::Connection::open(&foreign).unwrap();
    c.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);").unwrap();
    drop(c);
    let before = std::fs::read(&foreign).unwrap();
    for clear in [false, true] {
        let out = bin().arg("ingest").arg(tmp.path()).arg("--db").arg(&foreign).args(clear.then_some("--clear")).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a navegador graph"));
        assert_eq!(std::fs::read(&foreign).unwrap(), before, "the foreign file is left byte for byte");
        assert!(!tmp.path().join("foreign.db-wal").exists(), "not switched to WAL");
    }
}

/// A graph with garbage in the middle: `ingest` refuses it (exit 2) naming the fix instead
/// of committing onto it; `ingest --clear` moves it aside and rebuilds; queries work again.
#[test]
fn damaged_graph_is_refused_then_rebuilt_by_clear() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    write_py_tree(&root, 40, 30);
    let db = tmp.path().join("g.db");
    let out = bin().arg("ingest").arg(&root).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut bytes = std::fs::read(&db).unwrap();
    let mid = bytes.len() / 2 / 4096 * 4096;
    bytes[mid..mid + 8 * 4096].fill(0xA5);
    std::fs::write(&db, &bytes).unwrap();
    // A change, so the ingest has something to write.
    std::fs::write(root.join("pkg0/new.py"), "def fresh():\n    pass\n").unwrap();
    let out = bin().arg("ingest").arg(&root).arg("--db").arg(&db).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is damaged") && err.contains("navegador ingest --clear"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "nothing was written onto the damaged file");
    let out = bin().arg("ingest").arg(&root).arg("--db").arg(&db).arg("--clear").arg("--json").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("was damaged; moved it to"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 41);
    let aside: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("g.db.damaged-") && !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(tmp.path().join(&aside[0])).unwrap(), bytes, "the damaged file is kept whole");
    let out = bin().arg("stats").arg("--json").arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A reader during an ingest, and anyone after a `kill -9` of it, sees the previous graph
/// whole.
#[test]
fn kill_during_ingest_leaves_previous_graph() {
    let tmp = tempfile::tempdir().unwrap();
    kill_during_ingest(tmp.path(), &tmp.path().join("g.db"));
}

/// The same on a PostgreSQL graph: the server rolls the killed ingest's transaction back.
#[test]
fn kill_during_ingest_leaves_previous_graph_on_postgres() {
    let Some(db) = navegador_store::testing::fresh_postgres("cli_kill") else {
        return navegador_store::testing::skipped("kill_during_ingest_leaves_previous_graph_on_postgres");
    };
    let tmp = tempfile::tempdir().unwrap();
    kill_during_ingest(tmp.path(), &db);
}

/// Connection problems and an empty database name the fix, and never show the password.
#[test]
fn postgres_errors_name_the_fix() {
    let Some(db) = navegador_store::testing::fresh_postgres("cli_errors") else {
        return navegador_store::testing::skipped("postgres_errors_name_the_fix");
    };
    let url = db.to_str().unwrap().to_string();
    let secret = url.split_once("://").unwrap().1.split_once('@').unwrap().0.split_once(':').unwrap().1.to_string();
    let stderr = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!text.contains(&secret), "the password shows in: {text}");
        text
    };
    let e = stderr(&["stats", "--db", &url]);
    assert!(e.contains("holds no navegador graph yet") && e.contains("navegador ingest"), "{e}");
    let wrong = url.replace(&format!(":{secret}@"), ":not-the-password@");
    let e = stderr(&["stats", "--db", &wrong]);
    assert!(e.contains("password authentication failed") && e.contains("check that the server is up"), "{e}");
    let e = stderr(&["query", "MATCH (n) RETURN n", "--db", "postgres://navegador:pw@127.0.0.1:1/x"]);
    assert!(e.contains("Connection refused") && e.contains("***"), "{e}");
}

fn kill_during_ingest(tmp: &Path, db: &Path) {
    let root = tmp.join("ws");
    let db = db.to_path_buf();
    write_py_tree(&root, 5, 3);
    let ok = bin().arg("ingest").arg(&root).arg("--db").arg(&db).output().unwrap();
    assert!(ok.status.success());
    let before = Store::open_read_only(&db).unwrap().canonical_dump().unwrap();

    // A big change: many new files, so the ingest runs long enough to be killed mid-way.
    write_py_tree(&root.join("big"), 3000, 40);
    let mut child = bin()
        .arg("ingest")
        .arg(&root)
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(400));
    let during = Store::open_read_only(&db).unwrap().canonical_dump().unwrap();
    assert!(
        child.try_wait().unwrap().is_none(),
        "the ingest finished in {:?}, before the test could kill it; make the tree bigger",
        started.elapsed()
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(during, before, "a reader saw a half-written graph");
    let after = Store::open_read_only(&db).unwrap().canonical_dump().unwrap();
    assert_eq!(after, before, "a killed ingest left a half-written graph");
    // And the next ingest completes normally.
    let out = bin().arg("ingest").arg(&root).arg("--db").arg(&db).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 3005);
}

/// Splits a script line into arguments (double quotes group words).
fn split_args(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The knowledge commands' output is a public contract: `tests/knowledge/script.txt` is run
/// line by line in the workspace `tests/knowledge/workspace.txt` (after `navegador
/// ingest`), and every command's exit code, stdout and stderr are compared with
/// `tests/knowledge/expected.txt` (`UPDATE_GOLDEN=1` rewrites). Node ids vary between
/// runs (parallel extraction) and are left out.
#[test]
fn knowledge_commands_match_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/knowledge");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    common::write_files(&root, &std::fs::read_to_string(dir.join("workspace.txt")).unwrap());
    let out = bin().arg("ingest").arg(&root).current_dir(&root).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains(".github/CODEOWNERS:3: invalid pattern"), "{summary}");

    let mut got = String::new();
    for line in std::fs::read_to_string(dir.join("script.txt")).unwrap().lines().filter(|l| !l.trim().is_empty()) {
        let out = bin().args(split_args(line)).current_dir(&root).env_remove("NAVEGADOR_DB").output().unwrap();
        got.push_str(&format!("$ navegador {line}\n"));
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        for l in text.lines().filter(|l| !l.trim_start().starts_with("\"id\":")) {
            got.push_str(l);
            got.push('\n');
        }
        got.push_str(&format!("[exit {}]\n\n", out.status.code().unwrap_or(-1)));
    }
    let golden = dir.join("expected.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(want == got, "CLI output changed (UPDATE_GOLDEN=1 to accept):\n--- want\n{want}\n+++ got\n{got}");
}

mod query;

/// TLS to the PostgreSQL server: `sslmode=verify-full` with the test server's CA
/// (`scripts/pg.sh` makes one) indexes and reads; without the CA the server's certificate
/// is refused and the error names the fix.
#[test]
fn postgres_over_tls_verifies_the_server() {
    let (Some(db), Some(dir)) =
        (navegador_store::testing::fresh_postgres("cli_tls"), std::env::var_os("NAVEGADOR_TEST_PG_DIR"))
    else {
        return navegador_store::testing::skipped("postgres_over_tls_verifies_the_server");
    };
    let ca = Path::new(&dir).join("ca.pem");
    let url = db.to_str().unwrap();
    let tls = format!("{url}?sslmode=verify-full&sslrootcert={}", ca.display());
    let tmp = tempfile::tempdir().unwrap();
    write_py_tree(&tmp.path().join("ws"), 3, 2);
    let out = bin().arg("ingest").arg(tmp.path().join("ws")).arg("--db").arg(&tls).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 3);
    let out = bin().args(["stats", "--db", &tls]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let secret = url.split_once("://").unwrap().1.split_once('@').unwrap().0.split_once(':').unwrap().1;
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("***") && !shown.contains(secret), "{shown}");
    let out = bin().args(["stats", "--db", &format!("{url}?sslmode=require")]).output().unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains("certificate") && e.contains("sslrootcert="), "{e}");
}
