//! The shell's module system (Bash, sh): `source x.sh` / `. x.sh` reads a file by its path
//! (as C's `#include`: from the sourcing file, the workspace root, the shortest path ending
//! in it), a leading expansion (`"$(dirname "$0")/lib.sh"`, `${DIR}/lib.sh`) taken as the
//! sourcing file's directory; functions are global once defined, so a command names a
//! function of any shell file of the workspace, and a command no file defines is a
//! program on the `PATH` (outside).

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::{by_path, shared_definitions};
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Shell;

impl ModuleSystem for Shell {
    fn name(&self) -> &'static str {
        "shell"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { programs_outside: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let written = imp.module.trim_matches(['"', '\'']);
        let path = without_leading_expansion(written)?;
        Some(by_path(t, &imp.file_path, path))
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        shared_definitions(t, t.fam_named(self.name()), file, name)
    }
}

/// `$DIR/lib/x.sh`, `${DIR}/x.sh`, `"$(dirname "$0")"/x.sh` -> `lib/x.sh`, `x.sh`: the
/// expansion is the script's directory, as it nearly always is; a path with another
/// expansion in it names no file (`None`).
fn without_leading_expansion(p: &str) -> Option<&str> {
    let rest = if let Some(r) = p.strip_prefix("$(") {
        let mut depth = 1;
        let end = r.char_indices().find(|&(_, c)| {
            depth += match c { '(' => 1, ')' => -1, _ => 0 };
            depth == 0
        })?;
        &r[end.0 + 1..]
    } else if let Some(r) = p.strip_prefix("${") {
        &r[r.find('}')? + 1..]
    } else if let Some(r) = p.strip_prefix('$') {
        r.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
    } else {
        p
    };
    let rest = rest.trim_start_matches(['"', '\'']).trim_start_matches('/');
    (!rest.contains('$') && !rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::without_leading_expansion as f;

    #[test]
    fn a_leading_expansion_is_the_scripts_directory() {
        assert_eq!(f("lib/x.sh"), Some("lib/x.sh"));
        assert_eq!(f("$DIR/lib/x.sh"), Some("lib/x.sh"));
        assert_eq!(f("${BASH_SOURCE%/*}/x.sh"), Some("x.sh"));
        assert_eq!(f("$(dirname \"$0\")\"/x.sh"), Some("x.sh"));
        assert_eq!(f("$(cd \"$(dirname \"$0\")\" && pwd)/x.sh"), Some("x.sh"));
        assert_eq!(f("$DIR/$NAME.sh"), None);
    }
}
