//! The vocabulary of navegador's code graph: languages, labels, relationship types,
//! resolution confidence, source ranges and the per-file facts an extractor produces.
//!
//! This crate does no I/O and knows no storage or protocol: every other crate speaks in
//! these types, so they are the one place where the graph model (`graph-model.md`) is
//! spelled out in code.

pub mod brackets;
mod facts;
pub mod path;
mod testpaths;

pub use facts::{
    Diagnostic, FileFacts, ImportFact, RefFact, RefKind, Span, SymbolFact, SymbolIdx,
};

pub use testpaths::is_test_path;

use std::fmt;

/// A language navegador reads: a handle on the description its pack gives
/// (`navegador-lang/languages/<id>/language.toml`). The registry in `navegador-lang` makes
/// the one handle of each language; the model only carries it, so that facts, the store
/// and the tools can name a language without knowing the packs. Two handles are equal
/// when they name the same pack.
#[derive(Clone, Copy)]
pub struct Language(&'static LanguageInfo);

/// What a pack's manifest says about its language that code beyond extraction reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LanguageInfo {
    /// The pack's folder name, unique: `python`, `tsx`.
    pub id: String,
    /// The name in the graph (`File.language`) and in the tools: `typescript` for `tsx`.
    pub name: String,
    /// The module system: languages of one family resolve against each other (`js` for
    /// JavaScript, TypeScript and TSX).
    pub family: String,
    /// File extensions without the dot, lower-case.
    pub extensions: Vec<String>,
    /// Interpreters a `#!` line names for an extensionless script (`python3`, `node`).
    pub shebangs: Vec<String>,
    /// Words whose presence says a file is in this language, for an extension several packs
    /// claim (`.h`: C, C++, Objective-C); see `navegador_lang::Registry::detect`.
    pub markers: Vec<String>,
    /// Separator of qualified names (`.` or `::`).
    pub separator: String,
    /// How a file's module path is found.
    pub module: ModuleRule,
    /// The implicit receiver of a method body (`this`, `self`), if the language has one.
    pub receiver: Option<String>,
    /// Method names that make a method a constructor (`__init__`, `constructor`).
    pub constructors: Vec<String>,
    /// Names every file sees without an import (`len`, `console`, `Object`).
    pub builtins: Vec<String>,
    /// The prefix of a `code.*` call relation (`py.imported_call`); the name when unset.
    pub relation_prefix: String,
    /// Files with very long lines are generated or minified and skipped (JS bundles).
    pub skip_minified: bool,
    /// A file's top-level names reach other files without an import (browser scripts share
    /// globals), so the resolver may guess a bare name across modules; otherwise a module
    /// is closed: an unbound name is a builtin, a global or nothing.
    pub shared_globals: bool,
    /// The classes of one qualified name are one class whose parts several files declare
    /// (Objective-C's `@interface` / `@implementation` / categories): a member of one part
    /// is a member of the class.
    pub open_classes: bool,
    /// The web frameworks whose endpoints the index looks for in this language's files (the
    /// `framework` enum values: `spring`, `express`); each names a detector of
    /// `navegador-index/src/endpoints/`.
    pub frameworks: Vec<String>,
    /// Frameworks of `frameworks` for which this is the language a request means when it
    /// names the framework and no language (JavaScript for `express`, which TypeScript also
    /// runs); otherwise the first pack declaring a framework is.
    pub implied_by: Vec<String>,
    /// Every call's `code.*` relation is `<prefix>.<this>`, whatever its receiver (Java:
    /// `direct_call`); otherwise it follows the receiver (`method_call`, `namespace_call`).
    pub call_relation: Option<String>,
    /// The HTTP client calls the index records in this language's files (`clients` of the
    /// manifest: TOML files of `[[client]]` rules, read by
    /// `navegador-index/src/endpoints/clients.rs`).
    pub clients: Vec<ClientRule>,
    /// Overloads told apart by argument types (`[overloads]` of the manifest): the binder
    /// records each call argument's static type where it knows it, the resolver keeps the
    /// overloads whose parameters accept them. `None`: calls carry no argument types.
    pub overloads: Option<Overloads>,
}

/// How a language's argument types convert to parameter types, for choosing an overload.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Overloads {
    /// The type every reference type converts to (`Object`).
    pub top: Option<String>,
    /// Implicit conversions: a type -> the types it converts to (widening, boxing), in
    /// the language's order of preference.
    pub converts: Vec<(String, Vec<String>)>,
    /// Types that are values, not references (`int`): they convert to `top` only through
    /// `converts` (boxing), never to a type parameter or a class.
    pub primitives: Vec<String>,
}

/// One HTTP client library's calls, as a pack declares them: which callees are calls of it,
/// where their URL and method are. A callee pattern is the callee as written, arguments
/// dropped (`webClient.get().uri`), a leading receiver (`this.`, `self.`) dropped; its
/// segments are a name, `*` (any one segment), `{instance}` (a name the file binds to a
/// call of one of `factories`), or a name holding `{verb}` / `{Verb}` / `{VERB}` (an HTTP
/// method in that case: `{verb}ForObject`, `{Verb}Async`); a segment ending in `()` is a call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClientRule {
    /// `fetch`, `axios`, `requests`, `resttemplate`: the site's `library`.
    pub library: String,
    pub calls: Vec<String>,
    /// The file imports a module starting with one of these (none: a global, `fetch`).
    pub imports: Vec<String>,
    /// The argument holding the URL (0-based), unless `url_option` names an option of an
    /// object argument that holds it (`axios({url})`).
    pub url: u32,
    pub url_option: Option<String>,
    /// The method when nothing else says it (`fetch`: GET).
    pub method: Option<String>,
    /// The argument holding the method (`http.NewRequest("POST", …)`, `HttpMethod.POST`).
    pub method_arg: Option<u32>,
    /// The option of an object argument holding it (`fetch(u, {method: 'POST'})`).
    pub method_option: Option<String>,
    /// Callee patterns of the calls that make an instance (`axios.create`, `httpx.Client`,
    /// `*.baseUrl`), and where their base URL is: an option or an argument.
    pub factories: Vec<String>,
    pub base_option: Option<String>,
    pub base_arg: Option<u32>,
    /// `graphql`: the calls send a GraphQL document (the argument at `url`, or its
    /// `query` / `mutation` / `subscription` / `document` option) and each root field the
    /// document selects is a site; `None`: HTTP requests.
    pub kind: Option<String>,
    /// Tags of template literals holding a GraphQL document (`gql`, `graphql`: also called
    /// as `graphql(`…`)`); `<file>`: the whole file is a document (`.graphql` operations).
    pub tags: Vec<String>,
    /// JSX elements that send a request (`Form`, `{instance}.Form`, `form`): patterns of the
    /// element's name as `calls` are of a callee; the URL is the attribute `url_option`
    /// names, the method the one `method_option` names. A name without `{instance}` must be
    /// one the file imports from `imports` (a lowercase intrinsic like `form` with no
    /// `imports` is any file's).
    pub elements: Vec<String>,
    /// A call or element without a readable URL is no site (`<form>` without `action`: a
    /// form a script handles); else it is one, kept unlinked.
    pub url_required: bool,
}

impl ClientRule {
    /// Whether its calls send GraphQL documents.
    pub fn is_graphql(&self) -> bool {
        self.kind.as_deref() == Some("graphql")
    }
}

/// Where a file's module path comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ModuleRule {
    /// The file's path without its extension, rewritten by the rule's parts: `pkg/a.py` ->
    /// `pkg.a`, `src/net/mod.rs` -> `crate::net`, `src/util.ts` -> `src/util`.
    Path(PathModule),
    /// What the file declares (Java `package a.b;`, the tags query's `@module`); a file
    /// declaring none is in the unnamed module.
    Declared,
    /// The file's directory (Go: a package is a directory).
    Directory,
    /// No module path.
    #[default]
    None,
}

/// The parts of [`ModuleRule::Path`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PathModule {
    /// A first path component dropped when present (Python `src/` layouts).
    pub strip_prefix: Option<String>,
    /// Components up to and including the first one of this name are dropped (Rust `src`).
    pub after: Option<String>,
    /// File stems that name their directory, dropped (`__init__`, `mod`, `lib`, `main`).
    pub index: Vec<String>,
    /// What joins the components (`.`, `::`; `/` keeps the path).
    pub join: String,
    /// Put before the components (`crate`).
    pub root: Option<String>,
}

impl PathModule {
    /// The module path of `path` (workspace-relative, `/`-separated) under this rule.
    pub fn apply(&self, path: &str) -> String {
        let stem = match path.rsplit_once('.') {
            Some((s, _)) if !s.ends_with('/') && !s.is_empty() && !path[s.len()..].contains('/') => s,
            _ => path,
        };
        let mut parts: Vec<&str> = stem.split('/').collect();
        if let Some(p) = &self.strip_prefix {
            if parts.len() > 1 && parts[0] == p {
                parts.remove(0);
            }
        }
        if let Some(a) = &self.after {
            if let Some(i) = parts.iter().position(|c| c == a) {
                parts.drain(..=i);
            }
        }
        if parts.last().is_some_and(|l| self.index.iter().any(|i| i == l)) {
            parts.pop();
        }
        let body = parts.join(&self.join);
        match &self.root {
            Some(r) if body.is_empty() => r.clone(),
            Some(r) => format!("{r}{}{body}", self.join),
            None => body,
        }
    }
}

impl Language {
    /// The handle of a language description that lives as long as the program (the
    /// registry leaks one per pack).
    pub const fn new(info: &'static LanguageInfo) -> Language {
        Language(info)
    }

    /// The pack's folder name: `python`, `tsx`.
    pub fn id(self) -> &'static str {
        &self.0.id
    }

    /// The name stored in the graph (`File.language`); TSX is reported as TypeScript.
    pub fn as_str(self) -> &'static str {
        &self.0.name
    }

    /// Languages that share one module system resolve against each other (JS <-> TS).
    pub fn family(self) -> &'static str {
        &self.0.family
    }

    /// Everything the manifest says.
    pub fn info(self) -> &'static LanguageInfo {
        self.0
    }
}

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.id == other.0.id
    }
}
impl Eq for Language {}
impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.id.hash(h)
    }
}
impl PartialOrd for Language {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Language {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}
impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Language({})", self.0.id)
    }
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
        /// Function (or File) -> the Endpoint one of its HTTP client calls requests.
        HttpCalls => "HTTP_CALLS",
        /// Function (or File) -> the GraphQL Endpoint (a root field) one of its operations
        /// selects.
        GraphqlCalls => "GRAPHQL_CALLS",
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
    }

    #[test]
    fn path_modules() {
        let python = PathModule { strip_prefix: Some("src".into()), index: vec!["__init__".into()], join: ".".into(), ..Default::default() };
        let rust = PathModule {
            after: Some("src".into()),
            index: vec!["lib".into(), "main".into(), "mod".into()],
            join: "::".into(),
            root: Some("crate".into()),
            ..Default::default()
        };
        let path = PathModule { join: "/".into(), ..Default::default() };
        let cases = [
            (&python, "pkg/sub/mod.py", "pkg.sub.mod"),
            (&python, "src/pkg/__init__.py", "pkg"),
            (&python, "__init__.py", ""),
            (&python, "src.py", "src"),
            (&rust, "src/a/b.rs", "crate::a::b"),
            (&rust, "crates/x/src/lib.rs", "crate"),
            (&rust, "src/net/mod.rs", "crate::net"),
            (&path, "src/util.ts", "src/util"),
            (&path, "a.b/c", "a.b/c"),
            (&path, "include/x.h", "include/x"),
        ];
        for (rule, p, want) in cases {
            assert_eq!(rule.apply(p), want, "{p}");
        }
    }
}
