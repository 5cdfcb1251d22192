//! The module-system trait: what a language family means by a module, an import and the
//! names a file sees without importing them. `Table::resolve_site` is generic and asks the
//! family of the site's file; each family is one file beside this one, and a new language
//! either reuses a family or adds one.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::dart::DartConfig;
use super::go::GoConfig;
use super::python::PythonConfig;
use super::js::JsConfig;
use super::rust::RustConfig;
use super::php::PhpConfig;
use super::table::{Table, Target};

/// A family's index in [`Table::systems`].
pub(crate) type Fam = u8;

/// Rules of one language that shared code asks by name instead of by language. Each field
/// is a property the language states, not a case.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Rules {
    /// Modules share no namespace: a bare name that no scope, import or package binds is a
    /// builtin or a global, never another module's definition (Python, TypeScript; plain
    /// JavaScript keeps the guess: browser scripts share globals).
    pub closed_modules: bool,
    /// Definitions of one name in one scope are one callee, the last one (Python
    /// redefinitions and `@overload` stubs, TypeScript overload signatures). Otherwise
    /// same-named definitions are distinct overloads.
    pub redefinitions_collapse: bool,
    /// A bare name inside a class sees the class's members (Java's implicit `this`).
    pub implicit_this: bool,
    /// A bare call may name a method (a language without free functions).
    pub bare_calls_reach_methods: bool,
    /// A method declared away from its type belongs to it only in the type's own package
    /// directory (Go receivers); otherwise anywhere (Rust `impl` blocks).
    pub detached_methods_in_package: bool,
    /// The classes of one qualified name are one class whose parts several files declare
    /// (C# `partial` classes): a member of one part is a member of the class.
    pub open_classes: bool,
    /// Receivers that mean the enclosing class besides the manifest's `receiver` and
    /// `self`/`this` (PHP `static::m()`, late static binding).
    pub self_names: &'static [&'static str],
    /// Receivers that mean the enclosing class's bases besides `super` (PHP `parent::m()`).
    pub super_names: &'static [&'static str],
    /// Constants are global and classes open (Ruby): a capitalized name, or path root,
    /// that no workspace file defines is outside (a gem's), and a class that reopens a
    /// builtin (`class File` in a core extension) lacks only what it does not add.
    pub open_constants: bool,
    /// A bare call no scope, import or shared definition binds is a program outside the
    /// workspace (a shell command on the `PATH`), not an unknown.
    pub programs_outside: bool,
    /// A type implements an interface by having its methods, without naming it (Go): the
    /// `IMPLEMENTS` edges are derived from method sets once every file is resolved
    /// (`structural.rs`).
    pub structural_interfaces: bool,
    /// A wildcard import sees what the imported file's own wildcard imports bring in, as
    /// its re-exports (Dart's `export 'x.dart'`, recorded as a wildcard).
    pub wildcard_reexports: bool,
}

/// One language family's module system. Methods with a default are the common case.
pub(crate) trait ModuleSystem: Send + Sync {
    /// The family's name (what a language manifest names).
    fn name(&self) -> &'static str;

    /// The rules of one language of this family.
    fn rules(&self, lang: Language) -> Rules;

    /// The key imports find a file under (a Python dotted module, a Java package, a Go
    /// directory, a Rust `crate::a::b`, a path without extension), from the file's path and
    /// the module its extractor read (`declared`).
    fn module_key(&self, lang: Language, path: &str, declared: Option<&str>) -> String;

    /// The package whose top-level definitions a file's bare names see without an import
    /// (a Java package, a Go directory); `None` when a file sees only itself.
    fn package_of(&self, _path: &str, declared: Option<&str>) -> Option<String> {
        self.declared_packages().then(|| declared.map(str::to_string)).flatten()
    }

    /// A file's package is the one it declares (Java `package a.b;`, C# `namespace A.B`),
    /// none being the unnamed package: then `package_of` is the declared package and
    /// `package_node` it or the unnamed one, by default.
    fn declared_packages(&self) -> bool {
        false
    }

    /// The packages around a file's package whose top-level names its bare names see too,
    /// nearest first (a C# namespace `A.B` sees `A` and the global namespace).
    fn enclosing_packages(&self, _package: &str) -> Vec<String> {
        Vec::new()
    }

    /// The package `Module` node a file belongs to (Python package, Java package, Go
    /// directory), if the family has packages.
    fn package_node(&self, _path: &str, declared: Option<&str>) -> Option<String> {
        self.declared_packages().then(|| declared.unwrap_or_default().to_string())
    }

    /// What an import denotes: a file (module), a symbol, or a package.
    fn resolve_import(&self, t: &Table, imp: &ImportRow, depth: u32) -> Option<Target>;

    /// The local name an import with neither alias nor imported name binds (`import a.b`
    /// binds `a` in Python; Go binds the last path segment); `None`: it binds no name.
    fn bare_import_name<'a>(&self, _imp: &'a ImportRow) -> Option<&'a str> {
        None
    }

    /// Whether an import that names something binds that name in the file (by default):
    /// one that names a group of the module's exports (Perl's `:DEFAULT`, `:tag`) or a
    /// setting (Perl's `use lib 'dir'`) binds none, and what a group brings in is
    /// [`ModuleSystem::group_members`].
    fn binds_name(&self, _imp: &ImportRow) -> bool {
        true
    }

    /// The definitions named `name` that an import of a group of exports brings into the
    /// file from `target`, the module it loads (Perl's `use A::B;`, the subs `A::B`'s
    /// `@EXPORT` lists). Empty by default.
    fn group_members(&self, _t: &Table, _imp: &ImportRow, _target: &Target, _name: &str) -> Vec<usize> {
        Vec::new()
    }

    /// What the local name an import binds denotes: by default what the import denotes.
    fn bound_target(&self, t: &Table, imp: &ImportRow) -> Option<Target> {
        t.import_target(imp)
    }

    /// A name that denotes a module without any import (Rust `mod util;`, `crate`).
    fn implicit_module(&self, _t: &Table, _file: &str, _name: &str) -> Option<Target> {
        None
    }

    /// The submodule `seg` of the module in `file` (Python `pkg.sub`), if the family has
    /// modules inside modules.
    fn submodule(&self, _t: &Table, _file: &str, _seg: &str) -> Option<String> {
        None
    }

    /// Definitions a bare name sees because every file of the program shares them (C's
    /// external linkage), after the file's own scopes, imports and package.
    fn shared_globals(&self, _t: &Table, _file: &str, _name: &str) -> Vec<usize> {
        Vec::new()
    }

    /// Packages every file sees without importing them (Java's `java.lang`), when the
    /// workspace has them; otherwise their names are builtins.
    fn implicit_packages(&self) -> &'static [&'static str] {
        &[]
    }

    /// The roots a file makes importable: the first part of an import that can lead to it
    /// (Python's top-level package or module, a Java organization `com.acme`, a Rust
    /// crate). An import whose root no file provides leads outside the workspace.
    fn roots(&self, _t: &Table, _path: &str, _key: &str) -> Vec<String> {
        Vec::new()
    }

    /// The root an import leads through (see [`ModuleSystem::roots`]); `None` for a relative
    /// import, or where the family decides outside-ness in `resolve_import` itself.
    fn import_root<'a>(&self, _imp: &'a ImportRow) -> Option<&'a str> {
        None
    }

    /// The qualified names a name written in a file may denote, in the order the language
    /// tries them, where the family names definitions by qualified names that a file does
    /// not import one by one (PHP namespaces, Ruby's lexically nested constants). `scope`
    /// is the qualified name of the class the name is written in. Empty: the family finds
    /// names by scopes and imports only.
    fn qualified_candidates(&self, _t: &Table, _file: &str, _scope: Option<&str>, _written: &str) -> Vec<String> {
        Vec::new()
    }

    /// Of several classes (indexes into `t.syms`) one qualified name names as seen from
    /// `file`, the one the language means, where its module loading picks one file (Perl:
    /// the file `use A::B` loads, not the `blib/lib` copy); `None`: they stay candidates.
    fn canonical_class(&self, _t: &Table, _file: &str, _qname: &str, _classes: &[usize]) -> Option<usize> {
        None
    }
}

/// Bumped whenever resolution rules change, so the next ingest re-resolves every site of a
/// graph built by an older version.
const RESOLVER_VERSION: u32 = 5;

/// Workspace configuration the module systems read: JS/TS path aliases and packages, PHP's
/// PSR-4 autoload prefixes, Dart's packages (`pubspec.yaml`), Rust's crates (`Cargo.toml`), Go's modules (`go.mod`), Python's projects (`pyproject.toml`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    pub js: JsConfig,
    pub php: PhpConfig,
    pub dart: DartConfig,
    pub rust: RustConfig,
    pub go: GoConfig,
    pub python: PythonConfig,
}

impl Config {
    /// The configuration of `root`, whose files (workspace-relative paths) say where
    /// nested project configs may be.
    pub(crate) fn read<'a>(root: &std::path::Path, files: impl IntoIterator<Item = &'a str>) -> Config {
        let files: Vec<&str> = files.into_iter().collect();
        Config {
            js: JsConfig::read(root, files.iter().copied()),
            php: PhpConfig::read(root),
            dart: DartConfig::read(root, files.iter().copied()),
            rust: RustConfig::read(root, files.iter().copied()),
            go: GoConfig::read(root, files.iter().copied()),
            python: PythonConfig::read(root, files.iter().copied()),
        }
    }

    /// Changes whenever the configuration or the rules would resolve something
    /// differently.
    pub(crate) fn fingerprint(&self) -> String {
        format!(
            "resolver {RESOLVER_VERSION} {} {} {} {} {} {}",
            self.js.fingerprint(),
            self.php.fingerprint(),
            self.dart.fingerprint(),
            self.rust.fingerprint(),
            self.go.fingerprint(),
            self.python.fingerprint()
        )
    }
}

/// Every directory above one of `files` (workspace-relative paths; `""` is the root), each
/// once, in order: where a module system looks for its manifests (`go.mod`,
/// `pubspec.yaml`) without a walk of its own.
pub(crate) fn dirs_above<'a>(files: impl IntoIterator<Item = &'a str>) -> std::collections::BTreeSet<&'a str> {
    let dir_of = |p: &'a str| p.rsplit_once('/').map_or("", |(d, _)| d);
    let mut dirs = std::collections::BTreeSet::new();
    for f in files {
        let mut d = dir_of(f);
        while dirs.insert(d) && !d.is_empty() {
            d = dir_of(d);
        }
    }
    dirs
}

/// Every module system, one per family; a file's [`Fam`] indexes this list.
pub(crate) fn systems(cfg: &Config) -> Vec<Box<dyn ModuleSystem>> {
    vec![
        Box::new(super::python::Python { config: cfg.python.clone() }),
        Box::new(super::js::Js { config: cfg.js.clone() }),
        Box::new(super::jvm::Jvm),
        Box::new(super::go::Go { config: cfg.go.clone() }),
        Box::new(super::rust::Rust { config: cfg.rust.clone() }),
        Box::new(super::c::C),
        Box::new(super::swift::Swift),
        Box::new(super::dotnet::Dotnet),
        Box::new(super::php::Php { config: cfg.php.clone() }),
        Box::new(super::ruby::Ruby),
        Box::new(super::lua::Lua),
        Box::new(super::shell::Shell),
        Box::new(super::beam::Beam),
        Box::new(super::ocaml::Ocaml),
        Box::new(super::zig::Zig),
        Box::new(super::elixir::Elixir),
        Box::new(super::graphql::Graphql),
        Box::new(super::dart::Dart { config: cfg.dart.clone() }),
        Box::new(super::julia::Julia),
        Box::new(super::r::R),
        Box::new(super::proto::Proto),
        Box::new(super::haskell::Haskell),
        Box::new(super::perl::Perl),
    ]
}

/// The family a language belongs to (its manifest's `family`), which names its module
/// system.
pub(crate) fn family_name(lang: Language) -> &'static str {
    lang.family()
}
