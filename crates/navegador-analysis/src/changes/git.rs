//! Where a change comes from: the `git` binary (working tree, index, a commit range; rename
//! detection on) or a unified diff handed over as text, each turned into the files it
//! touches with both sides' contents.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::diff::{self, FilePatch};
use super::{ChangesError, Source};

/// One changed file with both sides (`None`: the side does not exist, or is binary).
pub struct FileChange {
    pub patch: FilePatch,
    pub old: Option<Vec<u8>>,
    pub new: Option<Vec<u8>>,
}

/// What was compared, and the files.
pub struct Change {
    /// `working tree vs HEAD`, `index vs HEAD`, `main...HEAD`, `patch`.
    pub compared: String,
    /// The commit of the old side, when git names one.
    pub base: Option<String>,
    pub files: Vec<FileChange>,
}

fn git(root: &Path, args: &[&str]) -> Result<std::process::Output, ChangesError> {
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| ChangesError::Git(format!("cannot run `git` ({e}); install git, or pipe a unified diff on stdin (`navegador changes -`)")))
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Whether `root` is inside a git work tree.
pub fn is_repository(root: &Path) -> bool {
    git(root, &["rev-parse", "--is-inside-work-tree"]).is_ok_and(|o| o.status.success() && stdout(&o) == "true")
}

/// The commit `rev` names, or an error saying why not (unknown, or outside a shallow clone).
fn commit(root: &Path, rev: &str) -> Result<String, ChangesError> {
    let o = git(root, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])?;
    if o.status.success() {
        return Ok(stdout(&o));
    }
    let shallow = git(root, &["rev-parse", "--is-shallow-repository"]).is_ok_and(|o| stdout(&o) == "true");
    Err(if shallow {
        ChangesError::Shallow(rev.to_string())
    } else {
        ChangesError::BadRef(rev.to_string())
    })
}

/// Reads the change from git.
pub fn from_git(root: &Path, src: &Source) -> Result<Change, ChangesError> {
    if !is_repository(root) {
        return Err(ChangesError::NotRepository(root.display().to_string()));
    }
    let mut args: Vec<String> = vec!["diff".into(), "-M".into(), "--no-color".into(), "--no-ext-diff".into(), "-U0".into(), "--relative".into()];
    let (compared, old_rev, new_rev): (String, String, Option<String>) = match src {
        Source::Range(r) => {
            let (old, new) = if let Some((a, b)) = r.split_once("...") {
                let (a, b) = (if a.is_empty() { "HEAD" } else { a }, if b.is_empty() { "HEAD" } else { b });
                let (ca, cb) = (commit(root, a)?, commit(root, b)?);
                let mb = git(root, &["merge-base", &ca, &cb])?;
                if !mb.status.success() {
                    let shallow = git(root, &["rev-parse", "--is-shallow-repository"]).is_ok_and(|o| stdout(&o) == "true");
                    return Err(if shallow {
                        ChangesError::Shallow(format!("the merge base of {a} and {b}"))
                    } else {
                        ChangesError::BadRef(format!("{r} (the two sides share no history)"))
                    });
                }
                (stdout(&mb), cb)
            } else if let Some((a, b)) = r.split_once("..") {
                let (a, b) = (if a.is_empty() { "HEAD" } else { a }, if b.is_empty() { "HEAD" } else { b });
                (commit(root, a)?, commit(root, b)?)
            } else {
                // One commit: what it changed against its first parent.
                let c = commit(root, r)?;
                (commit(root, &format!("{c}^")).map_err(|_| ChangesError::BadRef(format!("{r}^ (the commit has no parent; pass a range)")))?, c)
            };
            (r.clone(), old, Some(new))
        }
        Source::Staged { base } => {
            let b = base.clone().unwrap_or_else(|| "HEAD".into());
            let c = commit(root, &b)?;
            args.push("--cached".into());
            (format!("index vs {b}"), c, Some(String::new()))
        }
        Source::WorkingTree { base } => {
            let b = base.clone().unwrap_or_else(|| "HEAD".into());
            (format!("working tree vs {b}"), commit(root, &b)?, None)
        }
        Source::Patch(_) => unreachable!("a patch is not read from git"),
    };
    args.push(old_rev.clone());
    if let Some(n) = new_rev.as_ref().filter(|n| !n.is_empty()) {
        args.push(n.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Untracked files are part of the working tree's change (git diff leaves them out). Their
    // walk (every directory listed, mostly waiting on the file system) runs beside the diff.
    let (o, untracked) = std::thread::scope(|sc| {
        let untracked = matches!(src, Source::WorkingTree { .. }).then(|| sc.spawn(|| git(root, &["ls-files", "--others", "--exclude-standard"])));
        let o = git(root, &args);
        (o, untracked.map(|h| h.join().unwrap_or_else(|_| Err(ChangesError::Git("`git ls-files --others` panicked".into())))))
    });
    let o = o?;
    if !o.status.success() {
        return Err(ChangesError::Git(format!("`git {}` failed: {}", args.join(" "), String::from_utf8_lossy(&o.stderr).trim())));
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let mut patches = diff::parse(&text)?;
    if let Some(o) = untracked {
        let o = o?;
        for p in String::from_utf8_lossy(&o.stdout).lines().filter(|l| !l.is_empty()) {
            patches.push(FilePatch { old_path: None, new_path: Some(p.to_string()), binary: false, hunks: Vec::new() });
        }
    }
    // The changed files' language packs compile (a tree-sitter query analysis, a fifth
    // of a small report's CPU) while `git cat-file` reads their contents.
    let mut langs: Vec<navegador_model::Language> = Vec::new();
    for p in &patches {
        for path in [&p.old_path, &p.new_path].into_iter().flatten() {
            if let Some(l) = navegador_lang::registry().for_path(path).filter(|l| !langs.contains(l)) {
                langs.push(l);
            }
        }
    }
    let _warm = std::thread::spawn(move || langs.into_iter().for_each(navegador_lang::warm_up));
    // Both sides' contents, through one `git cat-file --batch`.
    let mut wanted: Vec<String> = Vec::new();
    for p in &patches {
        if let Some(op) = &p.old_path {
            wanted.push(format!("{old_rev}:./{op}"));
        }
        if let (Some(np), Some(rev)) = (&p.new_path, &new_rev) {
            wanted.push(format!("{rev}:./{np}"));
        }
    }
    let mut blobs = cat_files(root, &wanted)?.into_iter();
    let mut files = Vec::new();
    for mut p in patches {
        let old = if p.old_path.is_some() { blobs.next().flatten() } else { None };
        let new = match (&p.new_path, &new_rev) {
            (Some(_), Some(_)) => blobs.next().flatten(),
            (Some(np), None) => std::fs::read(root.join(np)).ok(),
            (None, _) => None,
        };
        if p.hunks.is_empty() && p.old_path.is_none() {
            // An untracked or empty new file: every line is added.
            if let Some(n) = &new {
                if n.contains(&0) {
                    p.binary = true;
                } else {
                    let count = String::from_utf8_lossy(n).lines().count() as u32;
                    p.hunks.push(diff::Hunk {
                        old_start: 0,
                        new_start: 1,
                        lines: (0..count).map(|_| diff::HunkLine::Added(String::new())).collect(),
                    });
                }
            }
        }
        files.push(FileChange { patch: p, old, new });
    }
    Ok(Change { compared, base: Some(old_rev), files })
}

/// Blobs by `rev:path`, in order (`None`: missing).
fn cat_files(root: &Path, specs: &[String]) -> Result<Vec<Option<Vec<u8>>>, ChangesError> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| ChangesError::Git(format!("cannot run `git cat-file` ({e})")))?;
    let mut input = child.stdin.take().expect("piped stdin");
    let body = specs.iter().map(|s| format!("{s}\n")).collect::<String>();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(body.as_bytes());
    });
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut blobs = Vec::with_capacity(specs.len());
    for _ in specs {
        let mut header = String::new();
        out.read_line(&mut header).map_err(|e| ChangesError::Git(format!("reading `git cat-file`: {e}")))?;
        let parts: Vec<&str> = header.split_whitespace().collect();
        if parts.len() == 3 {
            let size: usize = parts[2].parse().unwrap_or(0);
            let mut buf = vec![0u8; size + 1];
            out.read_exact(&mut buf).map_err(|e| ChangesError::Git(format!("reading `git cat-file`: {e}")))?;
            buf.pop();
            blobs.push(Some(buf));
        } else {
            blobs.push(None);
        }
    }
    let _ = writer.join();
    let _ = child.wait();
    Ok(blobs)
}

/// A patch handed over as text: each file's other side comes from applying it to the
/// workspace, forward when the workspace holds the old side, backward when it holds the new.
pub fn from_patch(root: &Path, text: &str) -> Result<Change, ChangesError> {
    if text.trim().is_empty() {
        return Err(ChangesError::EmptyPatch);
    }
    let patches = diff::parse(text)?;
    if patches.is_empty() {
        return Err(ChangesError::BadDiff(
            "no file sections found (no `diff --git` or `--- a/...` / `+++ b/...` headers); pass the output of `git diff` or `diff -u`".into(),
        ));
    }
    let read = |p: &Option<String>| p.as_ref().and_then(|p| std::fs::read(root.join(p)).ok());
    let mut files = Vec::new();
    let mut direction: Option<bool> = None;
    for p in patches {
        if p.binary {
            files.push(FileChange { old: read(&p.old_path), new: read(&p.new_path), patch: p });
            continue;
        }
        let (at_old, at_new) = (read(&p.old_path), read(&p.new_path));
        let text_of = |b: &Option<Vec<u8>>| b.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
        let forward = match (&p.old_path, text_of(&at_old)) {
            (None, _) if at_new.is_none() => diff::apply("", &p, false),
            (Some(_), Some(t)) => diff::apply(&t, &p, false),
            _ => None,
        };
        let backward = match (&p.new_path, text_of(&at_new)) {
            (None, _) if at_old.is_none() => diff::apply("", &p, true),
            (Some(_), Some(t)) => diff::apply(&t, &p, true),
            _ => None,
        };
        let fwd = match (forward.is_some(), backward.is_some()) {
            (true, false) => true,
            (false, true) => false,
            // Both fit (a hunk that undoes itself): the direction the other files took.
            (true, true) => direction.unwrap_or(true),
            (false, false) => {
                let line = p.hunks.first().map(|h| format!(" (hunk at line {})", h.old_start)).unwrap_or_default();
                return Err(ChangesError::DoesNotApply(format!("{}{line}", p.path())));
            }
        };
        direction.get_or_insert(fwd);
        let (old, new) = if fwd {
            (at_old.or_else(|| p.old_path.as_ref().map(|_| Vec::new())), forward.filter(|_| p.new_path.is_some()).map(String::into_bytes))
        } else {
            (backward.filter(|_| p.old_path.is_some()).map(String::into_bytes), at_new)
        };
        files.push(FileChange { patch: p, old, new });
    }
    let applied = direction == Some(false);
    Ok(Change {
        compared: format!("patch ({})", if applied { "applied to the workspace" } else { "not yet applied to the workspace" }),
        base: None,
        files,
    })
}
