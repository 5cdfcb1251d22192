//! The vocabulary of navegador's code graph: languages, labels, relationship types,
//! resolution confidence, source ranges and the per-file facts an extractor produces.
//!
//! This crate does no I/O and knows no storage or protocol: every other crate speaks in
//! these types, so they are the one place where the graph model (`graph-model.md`) is
//! spelled out in code.

mod facts;
pub mod path;

pub use facts::{
    Diagnostic, FileFacts, ImportFact, RefFact, RefKind, Span, SymbolFact, SymbolIdx,
};

use std::fmt;

/// A language navegador can parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Java,
    Go,
    Rust,
    C,
}

impl Language {
    pub const ALL: [Language; 8] = [
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Java,
        Language::Go,
        Language::Rust,
        Language::C,
    ];

    /// The language of a file, decided by its extension.
    pub fn from_path(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.')?.1;
        Some(match ext {
            "py" | "pyi" => Language::Python,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "java" => Language::Java,
            "go" => Language::Go,
            "rs" => Language::Rust,
            "c" | "h" => Language::C,
            _ => return None,
        })
    }

    /// The name stored in the graph (`File.language`); TSX is reported as TypeScript.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript | Language::Tsx => "typescript",
            Language::Java => "java",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::C => "c",
        }
    }

    /// The language of a stored name ([`Language::as_str`]); TSX reads back as TypeScript.
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.as_str() == name)
    }

    /// Languages that share one module system resolve against each other (JS <-> TS).
    pub fn family(self) -> Language {
        match self {
            Language::JavaScript | Language::TypeScript | Language::Tsx => Language::TypeScript,
            other => other,
        }
    }
}

/// Every web framework whose endpoints the index finds (the `code.*` tools' `framework`
/// enum, in its published order), with the language it implies when a request names the
/// framework but no language. Express also runs on TypeScript; its endpoints carry their
/// file's language.
pub const FRAMEWORKS: [(&str, &str); 10] = [
    ("react-router", "typescript"),
    ("spring", "java"),
    ("express", "javascript"),
    ("nestjs", "typescript"),
    ("fastapi", "python"),
    ("flask", "python"),
    ("django", "python"),
    ("net-http", "go"),
    ("gin", "go"),
    ("chi", "go"),
];

/// Whether a workspace-relative path is test code by the common conventions of the
/// languages we read: a `tests`, `test`, `__tests__`, `spec` or `testdata` directory, or a
/// file named `test_*` / `*_test.*` (Python, Go), `*.test.*` / `*.spec.*` (JavaScript,
/// TypeScript), `*Test.java` / `*Tests.java` / `*IT.java`, or `conftest.py`. A library's
/// own test helpers under such a directory (`django/test/`) count as tests too.
pub fn is_test_path(path: &str) -> bool {
    let mut segments = path.split('/').filter(|s| !s.is_empty()).peekable();
    let mut file = "";
    while let Some(seg) = segments.next() {
        if segments.peek().is_none() {
            file = seg;
        } else if matches!(seg, "tests" | "test" | "__tests__" | "spec" | "specs" | "testdata" | "__mocks__") {
            return true;
        }
    }
    let (stem, ext) = file.rsplit_once('.').unwrap_or((file, ""));
    if ext.is_empty() {
        return false;
    }
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with(".test")
        || stem.ends_with(".spec")
        || stem == "conftest"
        || (ext == "java" && (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("IT")))
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident => $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $variant),* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            pub fn as_str(self) -> &'static str { match self { $($name::$variant => $s),* } }
            pub fn parse(s: &str) -> Option<$name> { match s { $($s => Some($name::$variant),)* _ => None } }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.as_str()) }
        }
    };
}

str_enum! {
    /// Node labels of the graph model.
    Label {
        Repository => "Repository",
        File => "File",
        Module => "Module",
        Class => "Class",
        Function => "Function",
        Method => "Method",
        Variable => "Variable",
        Import => "Import",
        Decorator => "Decorator",
        Endpoint => "Endpoint",
        Domain => "Domain",
        Concept => "Concept",
        Rule => "Rule",
        Decision => "Decision",
        WikiPage => "WikiPage",
        Document => "Document",
        Person => "Person",
    }
}

str_enum! {
    /// Relationship types of the graph model.
    EdgeType {
        Contains => "CONTAINS",
        Defines => "DEFINES",
        Imports => "IMPORTS",
        Calls => "CALLS",
        References => "REFERENCES",
        Inherits => "INHERITS",
        Implements => "IMPLEMENTS",
        Decorates => "DECORATES",
        Exposes => "EXPOSES",
        BelongsTo => "BELONGS_TO",
        RelatedTo => "RELATED_TO",
        Governs => "GOVERNS",
        Annotates => "ANNOTATES",
        Documents => "DOCUMENTS",
        AssignedTo => "ASSIGNED_TO",
        DecidedBy => "DECIDED_BY",
        /// Decision -> the Decision it replaces (an ADR's "Supersedes").
        Supersedes => "SUPERSEDES",
    }
}

str_enum! {
    /// How sure a resolved reference is.
    Resolution {
        /// Bound through an import, a scope or a declared type.
        Exact => "exact",
        /// Bound by a heuristic such as a unique name.
        Inferred => "inferred",
        /// One of several candidates; each candidate is linked.
        Ambiguous => "ambiguous",
    }
}

str_enum! {
    /// The outcome of resolving one reference site (`refs.status`).
    RefStatus {
        /// Bound through an import, a scope or a declared type (edges say `exact`).
        Exact => "exact",
        /// Bound by a heuristic such as a unique name.
        Inferred => "inferred",
        /// Several candidates, each linked.
        Ambiguous => "ambiguous",
        /// Bound to something outside the workspace: a builtin of the language (`len`,
        /// `console.log`, `String.valueOf`) or a name imported from a package the
        /// workspace does not contain (`np.array`). Counted, never linked.
        External => "external",
        /// Nothing the index can see: no definition, or more candidates than it links.
        Unresolved => "unresolved",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_edge_types_round_trip() {
        for l in Label::ALL {
            assert_eq!(Label::parse(l.as_str()), Some(*l));
        }
        for e in EdgeType::ALL {
            assert_eq!(EdgeType::parse(e.as_str()), Some(*e));
        }
        assert_eq!(Resolution::parse("exact"), Some(Resolution::Exact));
        for s in RefStatus::ALL {
            assert_eq!(RefStatus::parse(s.as_str()), Some(*s));
        }
        for l in Language::ALL {
            assert_eq!(Language::from_name(l.as_str()).map(Language::as_str), Some(l.as_str()));
        }
        assert_eq!(Language::from_name("kotlin"), None);
    }

    #[test]
    fn test_paths() {
        for p in ["tests/test_views.py", "pkg/foo_test.go", "src/a.test.ts", "web/__tests__/x.tsx", "x/y.spec.js",
                  "src/test/java/a/FooTest.java", "FooIT.java", "conftest.py", "django/test/client.py", "test_app.py"] {
            assert!(is_test_path(p), "{p}");
        }
        for p in ["src/flask/testing.py", "contest.py", "attest/x.py", "src/main/java/Latest.java", "tests", "latest_test",
                  "django/db/models/query.py", "lib/protest.go"] {
            assert!(!is_test_path(p), "{p}");
        }
    }

    #[test]
    fn language_by_extension() {
        let cases = [
            ("a/b.py", Some(Language::Python)),
            ("x.tsx", Some(Language::Tsx)),
            ("x.mjs", Some(Language::JavaScript)),
            ("include/x.h", Some(Language::C)),
            ("Makefile", None),
            ("README.md", None),
        ];
        for (p, want) in cases {
            assert_eq!(Language::from_path(p), want, "{p}");
        }
    }
}
