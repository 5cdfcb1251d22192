//! CODEOWNERS: gitignore-style patterns, the last matching line wins, applied to the real
//! File nodes. Owners are `@user`, `@org/team` or an email; each becomes a Person node and
//! every owned file an ASSIGNED_TO edge whose `source` is `codeowners:<pattern>`. Symbols
//! inherit their file's owners (through the file, at query time: see `find_owners`).
//!
//! GitHub's rules, not git's, where they differ: `!negation` and `[ranges]` are invalid
//! lines, and `docs/*` owns the files directly in `docs/` only.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::Warning;

/// Where CODEOWNERS is looked for, in GitHub's order (the first found is used).
pub const LOCATIONS: [&str; 3] = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"];

/// An owner as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnerRef {
    /// `@alice` (stored without the `@`).
    User(String),
    /// `@org/team`.
    Team(String),
    Email(String),
}

impl OwnerRef {
    fn parse(s: &str) -> Option<OwnerRef> {
        let ident = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.');
        if let Some(h) = s.strip_prefix('@') {
            return match h.split_once('/') {
                Some((org, team)) if ident(org) && ident(team) => Some(OwnerRef::Team(h.to_string())),
                None if ident(h) => Some(OwnerRef::User(h.to_string())),
                _ => None,
            };
        }
        let (user, domain) = s.split_once('@')?;
        (!user.is_empty() && domain.contains('.') && !domain.contains('@') && !s.contains('/'))
            .then(|| OwnerRef::Email(s.to_string()))
    }

    /// The Person's name: the handle without `@`, or the email.
    pub fn name(&self) -> &str {
        match self {
            OwnerRef::User(h) | OwnerRef::Team(h) | OwnerRef::Email(h) => h,
        }
    }
}

/// One valid line.
#[derive(Debug, Clone)]
pub struct OwnerRule {
    pub line: u32,
    pub pattern: String,
    /// Empty: the matching files have no owner (a later line can un-own).
    pub owners: Vec<OwnerRef>,
}

/// A parsed CODEOWNERS file.
pub struct CodeOwners {
    pub rules: Vec<OwnerRule>,
    set: GlobSet,
    /// The rule of each glob in `set`.
    glob_rule: Vec<usize>,
}

impl CodeOwners {
    /// Parses a CODEOWNERS file; invalid lines are skipped with a warning.
    pub fn parse(path: &str, text: &str, warnings: &mut Vec<Warning>) -> CodeOwners {
        let mut rules = Vec::new();
        let mut builder = GlobSetBuilder::new();
        let mut glob_rule = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i as u32 + 1;
            let mut warn = |m: String| warnings.push(Warning { path: path.to_string(), line, message: m });
            let t = raw.split(" #").next().unwrap_or("").trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut parts = t.split_whitespace();
            let pattern = parts.next().unwrap_or_default();
            if pattern.starts_with('!') || pattern.contains('[') || pattern.contains(']') || pattern.starts_with("\\#") {
                warn(format!("invalid pattern {pattern:?} (negation, character ranges and escapes are not supported); line skipped"));
                continue;
            }
            let mut owners = Vec::new();
            let mut bad = None;
            for o in parts {
                match OwnerRef::parse(o) {
                    Some(r) => owners.push(r),
                    None => bad = Some(o.to_string()),
                }
            }
            if let Some(o) = bad {
                warn(format!("unknown owner syntax {o:?} (expected @user, @org/team or an email); line skipped"));
                continue;
            }
            let globs = match to_globs(pattern) {
                Ok(g) => g,
                Err(e) => {
                    warn(format!("invalid pattern {pattern:?}: {e}; line skipped"));
                    continue;
                }
            };
            for g in globs {
                builder.add(g);
                glob_rule.push(rules.len());
            }
            rules.push(OwnerRule { line, pattern: pattern.to_string(), owners });
        }
        let set = builder.build().unwrap_or_else(|_| GlobSet::empty());
        CodeOwners { rules, set, glob_rule }
    }

    /// The rule that decides a path's owners: the last matching line.
    pub fn rule_for(&self, path: &str) -> Option<&OwnerRule> {
        self.set.matches(path).into_iter().map(|g| self.glob_rule[g]).max().map(|r| &self.rules[r])
    }
}

/// A CODEOWNERS pattern as globs over workspace-relative paths.
fn to_globs(pattern: &str) -> Result<Vec<globset::Glob>, globset::Error> {
    let dir_only = pattern.ends_with('/');
    let core = pattern.trim_start_matches('/').trim_end_matches('/');
    // A slash at the start or in the middle anchors the pattern at the root.
    let anchored = pattern.starts_with('/') || core.contains('/');
    let base = if anchored || core.starts_with("**") { core.to_string() } else { format!("**/{core}") };
    let last = core.rsplit('/').next().unwrap_or(core);
    let mut globs = Vec::new();
    if !dir_only {
        globs.push(base.clone());
    }
    // A directory owns everything below it, except GitHub's `dir/*` (direct files only).
    if last != "*" || dir_only {
        globs.push(format!("{base}/**"));
    }
    globs
        .into_iter()
        .map(|g| GlobBuilder::new(&g).literal_separator(true).backslash_escape(true).build())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_match_wins_and_bad_lines_are_skipped() {
        let mut w = Vec::new();
        let co = CodeOwners::parse(
            "CODEOWNERS",
            "# comment\n* @all\n*.py @py-team/devs\n/src/billing/ @alice bob@example.com\ndocs/* @writer\n!neg @x\nsrc/ok.py not-an-owner\n/src/billing/legacy.py\n",
            &mut w,
        );
        let owner = |p: &str| co.rule_for(p).map(|r| (r.pattern.clone(), r.owners.iter().map(|o| o.name().to_string()).collect::<Vec<_>>()));
        assert_eq!(owner("README.md").unwrap().0, "*");
        assert_eq!(owner("lib/x.py").unwrap().1, vec!["py-team/devs"]);
        assert_eq!(owner("src/billing/pay.py").unwrap().1, vec!["alice", "bob@example.com"]);
        assert_eq!(owner("src/billing/legacy.py").unwrap().1, Vec::<String>::new());
        assert_eq!(owner("docs/a.md").unwrap().0, "docs/*");
        assert_eq!(owner("docs/deep/a.md").unwrap().0, "*");
        assert_eq!(w.iter().map(|w| w.line).collect::<Vec<_>>(), vec![6, 7]);
    }
}
