//! `navegador changes` on fixture git repositories: `changes/workspace.txt` is committed as
//! `main` and ingested, then each `changes/<case>.txt` edits it and runs commands, and the
//! output is compared with `changes/<case>.expected` (`UPDATE_GOLDEN=1` rewrites).
//!
//! A case is lines: `//- PATH` starts a file written into the workspace, `//! DIRECTIVE`
//! runs one step: `mv A B` (git mv), `commit`, `ingest`, `navegador ARGS` (a setup command),
//! `diff-to-stdin` (the working tree's diff becomes stdin and the tree is reset),
//! `apply-stdin` (`git apply` it), `stdin TEXT` (`\n` escapes), `run ARGS` (recorded:
//! exit code, stdout, stderr). Commit hashes read `<commit>`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_navegador"))
}

fn git(root: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn split_args(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn navegador(root: &Path, args: &[String], stdin: &[u8]) -> (i32, String) {
    let mut child = bin()
        .args(args)
        .current_dir(root)
        .env_remove("NAVEGADOR_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A case that fails before reading its stdin (a bad ref) may close it first.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Hex runs of 40 (commit ids) as `<commit>`.
fn scrub(s: &str) -> String {
    let mut out = String::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b.len() - i >= 40 && b[i..i + 40].iter().all(|c| c.is_ascii_hexdigit()) && (i + 40 == b.len() || !b[i + 40].is_ascii_hexdigit()) {
            out.push_str("<commit>");
            i += 40;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// A fresh repository: the workspace committed on `main` and ingested.
fn repository(tmp: &Path) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/changes");
    let root = tmp.join("repo");
    std::fs::create_dir_all(&root).unwrap();
    common::write_files(&root, &std::fs::read_to_string(dir.join("workspace.txt")).unwrap());
    std::fs::write(root.join(".gitignore"), ".navegador/\n").unwrap();
    git(&root, &["init", "-q"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    let (code, out) = navegador(&root, &["ingest".into(), ".".into()], b"");
    assert_eq!(code, 0, "{out}");
    root
}

fn run_case(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/changes");
    let tmp = tempfile::tempdir().unwrap();
    let root = repository(tmp.path());
    let text = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
    let mut got = String::new();
    let mut stdin: Vec<u8> = Vec::new();
    let mut files = String::new();
    let flush = |files: &mut String| {
        common::write_files(&root, files);
        files.clear();
    };
    for line in text.lines() {
        if line.starts_with('#') && files.is_empty() {
            continue;
        }
        let Some(d) = line.strip_prefix("//! ") else {
            files.push_str(line);
            files.push('\n');
            continue;
        };
        flush(&mut files);
        let (verb, rest) = d.split_once(' ').unwrap_or((d, ""));
        match verb {
            "mv" => {
                let a = split_args(rest);
                git(&root, &["mv", &a[0], &a[1]]);
            }
            "commit" => {
                git(&root, &["checkout", "-q", "-b", "topic"]);
                git(&root, &["add", "-A"]);
                git(&root, &["commit", "-q", "-m", "change"]);
            }
            "ingest" => assert_eq!(navegador(&root, &["ingest".into(), ".".into()], b"").0, 0),
            "navegador" => {
                let (code, out) = navegador(&root, &split_args(rest), b"");
                assert_eq!(code, 0, "{out}");
            }
            "diff-to-stdin" => {
                stdin = git(&root, &["diff", "HEAD"]).into_bytes();
                git(&root, &["checkout", "-q", "--", "."]);
            }
            "apply-stdin" => {
                std::fs::write(tmp.path().join("p.diff"), &stdin).unwrap();
                git(&root, &["apply", tmp.path().join("p.diff").to_str().unwrap()]);
            }
            "stdin" => stdin = rest.replace("\\n", "\n").into_bytes(),
            "run" => {
                let (code, out) = navegador(&root, &split_args(rest), &stdin);
                got.push_str(&format!("$ navegador {rest}\n{}[exit {code}]\n\n", scrub(&out)));
            }
            other => panic!("{name}.txt: unknown directive `{other}`"),
        }
    }
    got
}

fn golden(name: &str, got: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/changes/{name}.expected"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(want == got, "{name}: changes output changed (UPDATE_GOLDEN=1 to accept):\n--- want\n{want}\n+++ got\n{got}");
}

macro_rules! cases {
    ($($f:ident => $name:literal),* $(,)?) => {$(
        #[test]
        fn $f() {
            golden($name, &run_case($name));
        }
    )*};
}

cases! {
    body_change => "body",
    signature_change => "signature",
    rename => "rename",
    deleted_endpoint => "deleted-endpoint",
    untested_change_and_generated_file => "untested",
    critical_rule_violated => "critical-rule",
    rule_violation_introduced => "rule-introduced",
    rule_violation_existing => "rule-existing",
    rule_violation_removed => "rule-fixed",
    patch_on_stdin_and_bad_input => "patch",
}

/// A clone too shallow to hold the base names the fix; outside git, stdin is offered.
#[test]
fn shallow_clone_and_no_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let root = repository(tmp.path());
    std::fs::write(root.join("app/util.py"), "def slugify(text):\n    return text\n").unwrap();
    git(&root, &["commit", "-q", "-am", "second"]);
    let url = format!("file://{}", root.display());
    git(tmp.path(), &["clone", "-q", "--depth", "1", &url, "shallow"]);
    let shallow = tmp.path().join("shallow");
    let (code, out) = navegador(&shallow, &["changes".into(), "HEAD~1...HEAD".into(), "--db".into(), root.join(".navegador/graph.db").to_str().unwrap().into()], b"");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("is not in this shallow clone") && out.contains("git fetch --deepen"), "{out}");

    let plain = tmp.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let (code, out) = navegador(&plain, &["changes".into(), "--db".into(), root.join(".navegador/graph.db").to_str().unwrap().into()], b"");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("is not a git repository; pipe a unified diff"), "{out}");
}
