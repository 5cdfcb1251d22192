//! The vocabulary of navegador's code graph: languages, labels, relationship types,
//! resolution confidence, source ranges and the per-file facts an extractor produces.
//!
//! This crate does no I/O and knows no storage or protocol: every other crate speaks in
//! these types, so they are the one place where the graph model (`graph-model.md`) is
//! spelled out in code.

mod facts;

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
