//! Unified diffs: parsed into files and hunks (git's extended headers included: renames,
//! new and deleted files, binary patches), and applied to a text forward or backward, so a
//! patch handed over on stdin yields both sides of every file it touches.

use super::ChangesError;

/// One line of a hunk: context (` `), removed (`-`) or added (`+`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkLine {
    Context(String),
    Removed(String),
    Added(String),
}

#[derive(Debug, Clone, Default)]
pub struct Hunk {
    /// First line of the old side (1-based; for an empty side, the line after which).
    pub old_start: u32,
    pub new_start: u32,
    pub lines: Vec<HunkLine>,
}

impl Hunk {
    fn side(&self, old: bool) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(s) => Some(s.as_str()),
                HunkLine::Removed(s) if old => Some(s.as_str()),
                HunkLine::Added(s) if !old => Some(s.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// One file of a diff.
#[derive(Debug, Clone, Default)]
pub struct FilePatch {
    /// `None` for an added file.
    pub old_path: Option<String>,
    /// `None` for a deleted file.
    pub new_path: Option<String>,
    pub binary: bool,
    pub hunks: Vec<Hunk>,
}

impl FilePatch {
    /// The path the change is known by (the new one, or the old one of a deleted file).
    pub fn path(&self) -> &str {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or_default()
    }

    /// Line numbers of removed lines (old side) and added lines (new side).
    pub fn changed_lines(&self) -> (Vec<u32>, Vec<u32>) {
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for h in &self.hunks {
            let (mut o, mut n) = (h.old_start.max(1), h.new_start.max(1));
            // An empty side starts one line before its first line.
            if h.side(true).is_empty() {
                o = h.old_start + 1;
            }
            if h.side(false).is_empty() {
                n = h.new_start + 1;
            }
            for l in &h.lines {
                match l {
                    HunkLine::Context(_) => {
                        o += 1;
                        n += 1;
                    }
                    HunkLine::Removed(_) => {
                        removed.push(o);
                        o += 1;
                    }
                    HunkLine::Added(_) => {
                        added.push(n);
                        n += 1;
                    }
                }
            }
        }
        (removed, added)
    }
}

fn strip_prefix(p: &str) -> Option<String> {
    let p = p.split('\t').next().unwrap_or(p).trim_end();
    let p = p.strip_prefix('"').and_then(|q| q.strip_suffix('"')).unwrap_or(p);
    if p == "/dev/null" {
        return None;
    }
    Some(p.strip_prefix("a/").or_else(|| p.strip_prefix("b/")).unwrap_or(p).to_string())
}

/// `@@ -a,b +c,d @@` -> (a, b, c, d).
fn hunk_header(l: &str) -> Option<(u32, u32, u32, u32)> {
    let rest = l.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let pair = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (a, b) = pair(old)?;
    let (c, d) = pair(new)?;
    Some((a, b, c, d))
}

/// Parses a unified diff (`git diff`, `diff -u`). Text outside file sections (a commit
/// message, `index` lines) is skipped; a hunk cut short is an error.
pub fn parse(text: &str) -> Result<Vec<FilePatch>, ChangesError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut files: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    let mut cur: Option<FilePatch> = None;
    let mut git_section = false;
    while i < lines.len() {
        let l = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
        if let Some(rest) = l.strip_prefix("diff --git ") {
            if let Some(f) = cur.take() {
                files.push(f);
            }
            // `a/x b/y`: the paths, good enough until `---`/`+++` or rename lines say more.
            let mut f = FilePatch::default();
            if let Some((a, b)) = rest.split_once(" b/") {
                f.old_path = strip_prefix(a);
                f.new_path = Some(b.to_string());
            }
            cur = Some(f);
            git_section = true;
            i += 1;
            continue;
        }
        if git_section {
            if let Some(f) = cur.as_mut() {
                if let Some(p) = l.strip_prefix("rename from ").or_else(|| l.strip_prefix("copy from ")) {
                    f.old_path = Some(p.to_string());
                } else if let Some(p) = l.strip_prefix("rename to ").or_else(|| l.strip_prefix("copy to ")) {
                    f.new_path = Some(p.to_string());
                } else if l.starts_with("new file mode") {
                    f.old_path = None;
                } else if l.starts_with("deleted file mode") {
                    f.new_path = None;
                } else if l.starts_with("Binary files ") || l == "GIT binary patch" {
                    f.binary = true;
                }
            }
        }
        if l.starts_with("--- ") && i + 1 < lines.len() && lines[i + 1].starts_with("+++ ") {
            if !git_section {
                if let Some(f) = cur.take() {
                    files.push(f);
                }
                cur = Some(FilePatch::default());
            }
            let f = cur.as_mut().expect("a file section");
            f.old_path = strip_prefix(&l[4..]);
            f.new_path = strip_prefix(lines[i + 1][4..].trim_end_matches('\r'));
            git_section = false;
            i += 2;
            continue;
        }
        if let Some((a, b, c, d)) = hunk_header(l) {
            let Some(f) = cur.as_mut() else {
                return Err(ChangesError::BadDiff(format!("line {}: a hunk before any file header (`--- a/...` / `+++ b/...`)", i + 1)));
            };
            git_section = false;
            let mut h = Hunk { old_start: a, new_start: c, lines: Vec::new() };
            let (mut old_left, mut new_left) = (b, d);
            i += 1;
            while (old_left > 0 || new_left > 0) && i < lines.len() {
                let l = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
                match l.as_bytes().first() {
                    Some(b' ') | None if old_left > 0 && new_left > 0 => {
                        h.lines.push(HunkLine::Context(l.get(1..).unwrap_or("").to_string()));
                        old_left -= 1;
                        new_left -= 1;
                    }
                    Some(b'-') if old_left > 0 => {
                        h.lines.push(HunkLine::Removed(l[1..].to_string()));
                        old_left -= 1;
                    }
                    Some(b'+') if new_left > 0 => {
                        h.lines.push(HunkLine::Added(l[1..].to_string()));
                        new_left -= 1;
                    }
                    Some(b'\\') => {}
                    _ => {
                        return Err(ChangesError::BadDiff(format!(
                            "line {}: the hunk `{}` of {} ends early (the patch is truncated or was edited by hand)",
                            i + 1,
                            l.chars().take(40).collect::<String>(),
                            f.path()
                        )))
                    }
                }
                i += 1;
            }
            if old_left > 0 || new_left > 0 {
                return Err(ChangesError::BadDiff(format!("the last hunk of {} is cut short (the patch is truncated)", f.path())));
            }
            f.hunks.push(h);
            continue;
        }
        i += 1;
    }
    if let Some(f) = cur.take() {
        files.push(f);
    }
    Ok(files)
}

/// Applies `patch` to `text` forward (`reverse == false`: `text` is the old side) or
/// backward. Each hunk must match exactly, at its line or shifted (as `patch` does);
/// `None` when one does not.
pub fn apply(text: &str, patch: &FilePatch, reverse: bool) -> Option<String> {
    let trailing = text.ends_with('\n') || text.is_empty();
    let mut lines: Vec<&str> = if text.is_empty() { Vec::new() } else { text.strip_suffix('\n').unwrap_or(text).split('\n').collect() };
    let mut out: Vec<String> = Vec::new();
    let mut at = 0usize; // next unconsumed line of `lines`
    for h in &patch.hunks {
        let (from, to) = (h.side(!reverse), h.side(reverse));
        let start = if reverse { h.new_start } else { h.old_start };
        // An empty side names the line after which; otherwise its first line.
        let want = if from.is_empty() { start as usize } else { (start as usize).saturating_sub(1) };
        let fits = |p: usize| p + from.len() <= lines.len() && lines[p..p + from.len()].iter().zip(&from).all(|(a, b)| a == b);
        let found = (0..=lines.len()).filter(|&p| p >= at && fits(p)).min_by_key(|&p| p.abs_diff(want))?;
        out.extend(lines[at..found].iter().map(|s| s.to_string()));
        out.extend(to.iter().map(|s| s.to_string()));
        at = found + from.len();
    }
    out.extend(lines.drain(at..).map(|s| s.to_string()));
    if out.is_empty() {
        return Some(String::new());
    }
    let mut s = out.join("\n");
    if trailing {
        s.push('\n');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = "diff --git a/x.py b/y.py\nsimilarity index 80%\nrename from x.py\nrename to y.py\n--- a/x.py\n+++ b/y.py\n@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n \n";

    #[test]
    fn parses_renames_and_applies_both_ways() {
        let files = parse(PATCH).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].old_path.as_deref(), Some("x.py"));
        assert_eq!(files[0].new_path.as_deref(), Some("y.py"));
        assert_eq!(files[0].changed_lines(), (vec![2], vec![2]));
        let old = "def f():\n    return 1\n\nprint(f())\n";
        let new = apply(old, &files[0], false).unwrap();
        assert_eq!(new, "def f():\n    return 2\n\nprint(f())\n");
        assert_eq!(apply(&new, &files[0], true).unwrap(), old);
        assert!(apply("something else\n", &files[0], false).is_none());
    }

    #[test]
    fn zero_context_hunks_count_lines_from_their_headers() {
        let files = parse("--- a/f\n+++ b/f\n@@ -3,0 +4,2 @@\n+a\n+b\n@@ -7,2 +8,0 @@\n-c\n-d\n").unwrap();
        assert_eq!(files[0].changed_lines(), (vec![7, 8], vec![4, 5]));
    }

    #[test]
    fn a_truncated_hunk_is_an_error() {
        let e = parse("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n").unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
    }
}
