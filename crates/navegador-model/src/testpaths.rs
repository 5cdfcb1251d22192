//! Which files are tests, by the path conventions of the ecosystems navegador reads (a
//! table, not a rule per language): answers put test code apart (blast radius), rank it
//! after source (search) and can leave it out (`exclude_tests`).

/// Directory names that hold tests wherever they appear (a library's own test helpers
/// under one, `django/test/`, count as tests too).
const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "spec", "specs", "testdata", "__mocks__"];
/// File names that are test support wherever they are.
const TEST_FILES: &[&str] = &["conftest.py"];
/// A file stem (the name before its last extension) starting with one of these.
const TEST_STEM_PREFIXES: &[&str] = &["test_"];
/// A file stem ending with one of these (`x_test.go`, `x.spec.ts`, `FooTest.java`).
const TEST_STEM_SUFFIXES: &[&str] = &["_test", "_tests", "_spec", ".test", ".spec", "Test", "Tests"];
/// Suffixes that mark tests only with one extension (Maven's integration tests, `FooIT.java`).
const TEST_STEM_SUFFIXES_BY_EXT: &[(&str, &str)] = &[("java", "IT")];

/// True when a workspace-relative path is test code by the usual conventions.
pub fn is_test_path(path: &str) -> bool {
    let path = path.trim_start_matches("./");
    let mut segments: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    let Some(file) = segments.pop() else { return false };
    if segments.iter().any(|d| TEST_DIRS.contains(d)) {
        return true;
    }
    if TEST_FILES.contains(&file) {
        return true;
    }
    // A file without an extension is no source file.
    let Some((stem, ext)) = file.rsplit_once('.') else { return false };
    if stem == "test" || stem == "Test" {
        return true;
    }
    TEST_STEM_PREFIXES.iter().any(|p| stem.starts_with(p))
        || TEST_STEM_SUFFIXES.iter().any(|s| stem.len() > s.len() && stem.ends_with(s))
        || TEST_STEM_SUFFIXES_BY_EXT.iter().any(|(e, s)| *e == ext && stem.len() > s.len() && stem.ends_with(s))
}

#[cfg(test)]
mod tests {
    use super::is_test_path;

    #[test]
    fn test_paths_by_convention() {
        let cases = [
            ("tests/test_app.py", true),
            ("tests/conftest.py", true),
            ("pkg/test_util.py", true),
            ("pkg/util_test.py", true),
            ("net/http/server_test.go", true),
            ("src/test/java/a/FooTest.java", true),
            ("src/main/java/a/FooTests.java", true),
            ("src/test/java/a/FooIT.java", true),
            ("a/SPLIT.py", false),
            ("web/__tests__/app.js", true),
            ("web/app.spec.ts", true),
            ("web/app.test.tsx", true),
            ("spec/models/user_spec.rb", true),
            ("test/index.js", true),
            ("django/test/client.py", true),
            ("FooIT.java", true),
            ("conftest.py", true),
            ("contest.py", false),
            ("attest/x.py", false),
            ("tests", false),
            ("latest_test", false),
            ("lib/protest.go", false),
            ("django/db/models/query.py", false),
            ("src/flask/testing.py", false),
            ("src/main/java/a/Contest.java", false),
            ("src/main/java/a/Latest.java", false),
            ("app/models.py", false),
        ];
        for (p, want) in cases {
            assert_eq!(is_test_path(p), want, "{p}");
        }
    }
}
