//! Which files are tests, by the path conventions of the ecosystems navegador reads (a
//! table, not a rule per language): answers put test code apart (blast radius), rank it
//! after source (search) and can leave it out (`exclude_tests`).

/// Directory names that hold tests wherever they appear.
const TEST_DIRS: &[&str] = &["tests", "__tests__", "spec", "specs", "testdata", "__mocks__"];
/// `test` is a test tree at the root or under `src` (Maven, Gradle, Node); elsewhere it is
/// often a package of the product itself (`django/test`, the test framework).
const TEST_DIR_AT_ROOT: &str = "test";
/// File names that are test support wherever they are.
const TEST_FILES: &[&str] = &["conftest.py"];
/// A file stem (the name before its last extension) starting with one of these.
const TEST_STEM_PREFIXES: &[&str] = &["test_"];
/// A file stem ending with one of these (`x_test.go`, `x.spec.ts`, `FooTest.java`).
const TEST_STEM_SUFFIXES: &[&str] = &["_test", "_tests", "_spec", ".test", ".spec", "Test", "Tests"];

/// True when a workspace-relative path is test code by the usual conventions.
pub fn is_test_path(path: &str) -> bool {
    let path = path.trim_start_matches("./");
    let mut segments: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    let Some(file) = segments.pop() else { return false };
    for (i, dir) in segments.iter().enumerate() {
        if TEST_DIRS.contains(dir) || (*dir == TEST_DIR_AT_ROOT && (i == 0 || segments[i - 1] == "src")) {
            return true;
        }
    }
    if TEST_FILES.contains(&file) {
        return true;
    }
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    if stem == "test" || stem == "Test" {
        return true;
    }
    TEST_STEM_PREFIXES.iter().any(|p| stem.starts_with(p))
        || TEST_STEM_SUFFIXES.iter().any(|s| stem.len() > s.len() && stem.ends_with(s))
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
            ("web/__tests__/app.js", true),
            ("web/app.spec.ts", true),
            ("web/app.test.tsx", true),
            ("spec/models/user_spec.rb", true),
            ("test/index.js", true),
            ("django/test/utils.py", false),
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
