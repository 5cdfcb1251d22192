//! `FileFacts`: everything one file says about itself, as an extractor sees it without
//! looking at any other file. Resolution across files happens later, in the index.

use crate::{Label, Language};

/// Index of a symbol inside its file's `FileFacts::symbols`.
pub type SymbolIdx = u32;

/// A source range: 0-based byte offsets, 1-based lines, 0-based columns (in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start_byte: u32,
    pub end_byte: u32,
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    pub fn contains(&self, other: &Span) -> bool {
        self.start_byte <= other.start_byte && other.end_byte <= self.end_byte
    }
}

/// A definition: class-like, function, method, variable, module.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolFact {
    pub label: Label,
    /// `Class.kind` (class, interface, struct, ...) or `Method.kind` (method, constructor, ...).
    pub kind: Option<&'static str>,
    pub name: String,
    /// The language's own path, e.g. `pkg.module.Class.method` or `crate::a::Type::f`.
    pub qualified_name: String,
    /// The enclosing symbol (class of a method, function of a nested function).
    pub parent: Option<SymbolIdx>,
    pub range: Span,
    pub name_range: Span,
    pub docstring: Option<String>,
    pub signature: Option<String>,
    /// The class a method belongs to (also for Go receivers and Rust `impl` blocks).
    pub class_name: Option<String>,
    pub type_annotation: Option<String>,
    pub is_async: bool,
    pub is_exported: bool,
    /// What an import naming nothing brings in: the module's default export (JS/TS `export
    /// default`, one a module), or each sub Perl's `@EXPORT` lists (what `use A::B;` imports).
    pub is_default_export: bool,
    /// Decorators / annotations, in source order: (name, arguments text, line).
    pub decorators: Vec<(String, Option<String>, u32)>,
}

/// What kind of use a reference site is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefKind {
    /// `f()`, `obj.m()`.
    Call,
    /// `new C()`, or a constructor call the grammar marks as such.
    New,
    /// A function or method used as a value (a callback argument).
    Reference,
    /// `class A(B)`, `extends B`.
    Inherits,
    /// `implements I`, `impl Trait for T`.
    Implements,
    /// `@d` or `@d(...)` on a definition (a Java annotation too): the decorated symbol uses
    /// the decorator.
    Decorator,
}

impl RefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Call => "call",
            RefKind::New => "new",
            RefKind::Reference => "reference",
            RefKind::Inherits => "inherits",
            RefKind::Implements => "implements",
            RefKind::Decorator => "decorator",
        }
    }
    pub fn parse(s: &str) -> Option<RefKind> {
        Some(match s {
            "call" => RefKind::Call,
            "new" => RefKind::New,
            "reference" => RefKind::Reference,
            "inherits" => RefKind::Inherits,
            "implements" => RefKind::Implements,
            "decorator" => RefKind::Decorator,
            _ => return None,
        })
    }
}

/// A use of a name that resolution turns into an edge (or keeps as unresolved).
#[derive(Debug, Clone, PartialEq)]
pub struct RefFact {
    pub kind: RefKind,
    /// The innermost enclosing symbol; `None` is module-level code (the file).
    pub from: Option<SymbolIdx>,
    /// The called / referenced name, without its receiver (`m` in `a.b.m()`).
    pub name: String,
    /// The receiver expression as written (`self`, `a.b`, `this.repo`), if any.
    pub receiver: Option<String>,
    /// A type the extractor could read off the receiver (a local's declared type).
    pub receiver_type: Option<String>,
    /// How many arguments the call passes, where the site has an argument list (a
    /// spread `f(...xs)` or `f(*xs)` counts as one): what tells overloads apart.
    pub arity: Option<u32>,
    /// The static types of the call's arguments where the binder knows them, in order,
    /// `,`-separated, an unknown one empty (`int,,String`); `None` when none is known or
    /// the language has no overloads ([`crate::Overloads`]).
    pub arg_types: Option<String>,
    pub line: u32,
    pub column: u32,
}

/// An import statement, one fact per imported name.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportFact {
    /// The module path as written (`os.path`, `./util`, `java.util.List`, `fmt`).
    pub module: String,
    /// The imported name (`join` in `from os.path import join`), `*` for wildcards.
    pub name: Option<String>,
    pub alias: Option<String>,
    pub line: u32,
    pub column: u32,
}

impl ImportFact {
    /// The local name this import binds, if it binds one.
    pub fn local_name(&self) -> Option<&str> {
        if let Some(a) = &self.alias {
            return Some(a);
        }
        match &self.name {
            Some(n) if n == "*" => None,
            Some(n) => Some(n),
            None => None,
        }
    }
}

/// Something the extractor could not read, reported instead of failing.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub line: u32,
    pub message: String,
}

/// Everything extracted from one file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileFacts {
    pub path: String,
    pub language: Language,
    /// The file's module / package path (`django.db.models`, `java.util`), if it has one.
    pub module: Option<String>,
    pub line_count: u32,
    pub symbols: Vec<SymbolFact>,
    pub imports: Vec<ImportFact>,
    pub refs: Vec<RefFact>,
    pub diagnostics: Vec<Diagnostic>,
}
