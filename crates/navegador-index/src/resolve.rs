//! Resolution: binds imports, calls, callbacks and base classes to the definitions they
//! name, across files, and says how sure each binding is.
//!
//! The symbol table is rebuilt from the store (this transaction's view), so full and
//! incremental ingests resolve with the same code; an incremental ingest only re-resolves
//! the sites that a change can affect: sites in changed files, sites whose target was
//! removed, and sites elsewhere whose name was defined or bound in a changed file.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use navegador_lang::module_path_for;
use navegador_model::{EdgeType, Label, Language, RefKind, Resolution};
use navegador_store::{ImportRow, IngestTx, RefRow, RefStatus, StoreError, SymbolRow};

use crate::ingest::Changes;

/// More candidates than this for one name and the site is left unresolved: linking
/// dozens of same-named methods would be noise, not an answer.
const MAX_AMBIGUOUS: usize = 8;

pub(crate) struct ResolveStats {
    pub edges: u64,
    pub outcomes: BTreeMap<String, u64>,
}

pub(crate) fn resolve(
    tx: &IngestTx<'_>,
    full: bool,
    changes: &Changes,
    js: &JsConfig,
) -> Result<ResolveStats, StoreError> {
    let mut stats = ResolveStats { edges: 0, outcomes: BTreeMap::new() };
    let t0 = std::time::Instant::now();
    let mut t = Table::load(tx)?;
    t.js = js.clone();
    tracing::info!(elapsed = ?t0.elapsed(), symbols = t.syms.len(), "symbol table loaded");

    // Imports are few: they are all re-resolved every time, which keeps import edges exact
    // whatever changed.
    tx.clear_all_import_resolution()?;
    let imports: Vec<ImportRow> = t.imports.values().flatten().cloned().collect();
    let mut file_edges: HashSet<(i64, i64)> = HashSet::default();
    for imp in &imports {
        let target = t.resolve_import(imp, 0);
        t.import_targets.insert(imp.id, target.clone());
        let Some(target) = target else { continue };
        let from_file = &t.files[&imp.file_path];
        let (dst, dst_file) = match &target {
            Target::File(p) => (t.files[p].node, Some(p.clone())),
            Target::Symbol(i) => (t.syms[*i].id, Some(t.syms[*i].file_path.clone())),
            Target::Package(files) => match files.first() {
                Some(p) => (t.files[p].node, None),
                None => continue,
            },
        };
        tx.insert_edge(imp.id, dst, EdgeType::Imports, Some(Resolution::Exact), Some((imp.line, 0)), None)?;
        stats.edges += 1;
        let targets: Vec<String> = match target {
            Target::Package(files) => files,
            _ => dst_file.into_iter().collect(),
        };
        for p in targets {
            let to = t.files[&p].node;
            if to != from_file.node && file_edges.insert((from_file.node, to)) {
                tx.insert_edge(from_file.node, to, EdgeType::Imports, Some(Resolution::Exact), Some((imp.line, 0)), None)?;
                stats.edges += 1;
            }
        }
    }

    tracing::info!(elapsed = ?t0.elapsed(), imports = imports.len(), "imports resolved");

    // Which sites to (re)resolve: all of a full build; otherwise those in changed files, in
    // files that import a changed file (before or after the change), whose target was
    // removed, or whose name or receiver root is defined or bound in a changed file.
    let refs: Vec<RefRow> = if full {
        // Nothing to clear on a first build; after a tsconfig change, everything. The
        // sites are then read page by page (a kernel has millions), bases first.
        tx.clear_all_resolution()?;
        t.bases = HashMap::default();
        for bases in [true, false] {
            let mut after = 0;
            loop {
                let page = tx.refs_page(bases, after, 50_000)?;
                let Some(last) = page.last() else { break };
                after = last.id;
                for r in &page {
                    bind(tx, &mut t, &mut stats, r)?;
                }
            }
        }
        tracing::info!(elapsed = ?t0.elapsed(), "all sites resolved");
        return Ok(stats);
    } else {
        let changed: HashSet<&str> = changes.files.iter().map(String::as_str).collect();
        let mut files: HashSet<String> = changes.files.iter().cloned().collect();
        files.extend(changes.importers.iter().cloned());
        for imp in &imports {
            let hits = match t.import_targets.get(&imp.id) {
                Some(Some(Target::File(f))) => changed.contains(f.as_str()),
                Some(Some(Target::Symbol(i))) => changed.contains(t.syms[*i].file_path.as_str()),
                Some(Some(Target::Package(fs))) => fs.iter().any(|f| changed.contains(f.as_str())),
                _ => false,
            };
            if hits {
                files.insert(imp.file_path.clone());
            }
        }
        let mut files: Vec<String> = files.into_iter().collect();
        files.sort();
        let mut names: Vec<String> = changes.touched_names().into_iter().collect();
        names.sort();
        let mut extra = tx.ref_ids_named(&names)?;
        extra.extend_from_slice(&changes.orphaned);
        let refs = tx.refs(Some(&files), &extra)?;
        // (A full build starts with no resolution edges, and without indexes to find them.)
        let ids: Vec<i64> = refs.iter().map(|r| r.id).collect();
        tx.clear_resolution(&ids)?;
        // Bases whose edges were just cleared are no longer known.
        t.bases = HashMap::default();
        for (class, base) in tx.hierarchy()? {
            t.bases.entry(class).or_default().push(base);
        }
        refs
    };
    tracing::info!(elapsed = ?t0.elapsed(), refs = refs.len(), "sites selected");
    // Bases first: method lookups through `self` walk the hierarchy.
    let (bases_refs, other): (Vec<&RefRow>, Vec<&RefRow>) =
        refs.iter().partition(|r| matches!(r.kind, RefKind::Inherits | RefKind::Implements));
    for r in bases_refs.into_iter().chain(other) {
        bind(tx, &mut t, &mut stats, r)?;
    }
    Ok(stats)
}

/// Resolves one site and writes what it binds to.
fn bind(tx: &IngestTx<'_>, t: &mut Table, stats: &mut ResolveStats, r: &RefRow) -> Result<(), StoreError> {
    let (mut status, mut targets) = t.resolve_ref(r);
    let from = match (r.from_node, r.kind) {
        (Some(f), _) => f,
        // `impl Trait for T` away from T: the implementing class is named, not enclosing.
        (None, RefKind::Inherits | RefKind::Implements) => {
            let lang = t.lang(&r.file_path);
            match r.receiver_type.as_deref().and_then(|ty| t.lookup_type(&r.file_path, lang, ty, None)) {
                Some(c) => t.syms[c].id,
                None => {
                    status = RefStatus::Unresolved;
                    targets.clear();
                    0
                }
            }
        }
        (None, _) => t.files.get(&r.file_path).map_or(0, |f| f.node),
    };
    let ty = match r.kind {
        RefKind::Call | RefKind::New => EdgeType::Calls,
        // A decorator application is a use of the decorator, not a call at run time.
        RefKind::Reference | RefKind::Decorator => EdgeType::References,
        RefKind::Inherits => EdgeType::Inherits,
        RefKind::Implements => EdgeType::Implements,
    };
    let res = match status {
        RefStatus::Exact => Resolution::Exact,
        RefStatus::Inferred => Resolution::Inferred,
        _ => Resolution::Ambiguous,
    };
    for target in &targets {
        let dst = t.syms[*target].id;
        if dst == from {
            if ty != EdgeType::Calls {
                continue; // a class is not its own base
            }
        }
        tx.insert_edge(from, dst, ty, Some(res), Some((r.line, r.col)), Some(r.id))?;
        stats.edges += 1;
        if matches!(r.kind, RefKind::Inherits | RefKind::Implements) {
            t.bases.entry(from).or_default().push(dst);
        }
    }
    tx.set_ref_status(r.id, status)?;
    if matches!(r.kind, RefKind::Call | RefKind::New) {
        *stats.outcomes.entry(status.as_str().to_string()).or_default() += 1;
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Target {
    File(String),
    Symbol(usize),
    /// A package of several files (Java package, Go package directory).
    Package(Vec<String>),
}

struct FileInfo {
    node: i64,
    lang: Language,
    module: Option<String>,
}

struct Table {
    files: HashMap<String, FileInfo>,
    /// Files by their last path segment (`kernel.h` -> `include/linux/kernel.h`, …).
    by_basename: HashMap<String, Vec<String>>,
    /// Module key -> files (Python dotted module, Java package, Go directory, Rust
    /// `crate::a::b`, JS/TS/C path without extension).
    modules: HashMap<(Language, String), Vec<String>>,
    syms: Vec<SymbolRow>,
    by_id: HashMap<i64, usize>,
    /// The language of each symbol (same index as `syms`).
    sym_lang: Vec<Language>,
    by_name: HashMap<String, Vec<usize>>,
    by_qname: HashMap<String, Vec<usize>>,
    /// Top-level symbols of each file by name.
    top: HashMap<(String, String), Vec<usize>>,
    /// Top-level symbols of each Java package / Go package directory by name.
    pkg_top: HashMap<(Language, String, String), Vec<usize>>,
    children: HashMap<i64, Vec<usize>>,
    /// Methods declared away from their type (Go receivers, Rust `impl` elsewhere), by
    /// (language, type name).
    detached: HashMap<(Language, String), Vec<usize>>,
    bases: HashMap<i64, Vec<i64>>,
    /// The default export of each JS/TS module.
    defaults: HashMap<String, usize>,
    imports: HashMap<String, Vec<ImportRow>>,
    js: JsConfig,
    /// Import node id -> what its binding denotes.
    import_targets: HashMap<i64, Option<Target>>,
}

fn lang_of(s: &str) -> Language {
    match s {
        "python" => Language::Python,
        "javascript" | "typescript" => Language::TypeScript,
        "java" => Language::Java,
        "go" => Language::Go,
        "rust" => Language::Rust,
        _ => Language::C,
    }
}

impl Table {
    fn load(tx: &IngestTx<'_>) -> Result<Table, StoreError> {
        let mut files = HashMap::default();
        let mut modules: HashMap<(Language, String), Vec<String>> = HashMap::default();
        for (path, node, language, module) in tx.files()? {
            let lang = lang_of(&language);
            let key = match lang {
                Language::Java | Language::Go => module.clone().unwrap_or_default(),
                Language::C | Language::TypeScript => path.rsplit_once('.').map_or(path.clone(), |(s, _)| s.to_string()),
                _ => module.clone().unwrap_or_else(|| module_path_for(lang, &path)),
            };
            let key = if lang == Language::Go { path.rsplit_once('/').map_or(String::new(), |(d, _)| d.to_string()) } else { key };
            modules.entry((lang, key)).or_default().push(path.clone());
            files.insert(path, FileInfo { node, lang, module });
        }
        let mut by_basename: HashMap<String, Vec<String>> = HashMap::default();
        for p in files.keys() {
            by_basename.entry(p.rsplit('/').next().unwrap_or(p).to_string()).or_default().push(p.clone());
        }
        let syms = tx.symbols()?;
        let mut t = Table {
            files,
            by_basename,
            modules,
            by_id: HashMap::with_capacity_and_hasher(syms.len(), Default::default()),
            sym_lang: Vec::new(),
            by_name: HashMap::default(),
            by_qname: HashMap::default(),
            top: HashMap::default(),
            pkg_top: HashMap::default(),
            children: HashMap::default(),
            detached: HashMap::default(),
            bases: HashMap::default(),
            defaults: HashMap::default(),
            imports: HashMap::default(),
            js: JsConfig::default(),
            import_targets: HashMap::default(),
            syms,
        };
        t.sym_lang = t.syms.iter().map(|s| t.files.get(&s.file_path).map_or(Language::C, |f| f.lang)).collect();
        for (i, s) in t.syms.iter().enumerate() {
            t.by_id.insert(s.id, i);
            t.by_name.entry(s.name.clone()).or_default().push(i);
            t.by_qname.entry(s.qualified_name.clone()).or_default().push(i);
            if s.is_default_export {
                t.defaults.insert(s.file_path.clone(), i);
            }
            match s.parent {
                Some(p) => t.children.entry(p).or_default().push(i),
                None => {
                    t.top.entry((s.file_path.clone(), s.name.clone())).or_default().push(i);
                    if let Some(pkg) = t.package_of(&s.file_path) {
                        t.pkg_top.entry((t.sym_lang[i], pkg, s.name.clone())).or_default().push(i);
                    }
                    if let (Label::Method, Some(c)) = (s.label, &s.class_name) {
                        let lang = t.files.get(&s.file_path).map_or(Language::C, |f| f.lang);
                        t.detached.entry((lang, c.clone())).or_default().push(i);
                    }
                }
            }
        }
        for (class, base) in tx.hierarchy()? {
            t.bases.entry(class).or_default().push(base);
        }
        for imp in tx.imports()? {
            t.imports.entry(imp.file_path.clone()).or_default().push(imp);
        }
        Ok(t)
    }

    /// The package a Java or Go file belongs to (its package / directory), if any.
    fn package_of(&self, file: &str) -> Option<String> {
        let f = self.files.get(file)?;
        match f.lang {
            Language::Go => Some(file.rsplit_once('/').map_or("", |(d, _)| d).to_string()),
            Language::Java => f.module.clone(),
            _ => None,
        }
    }

    fn lang(&self, file: &str) -> Language {
        self.files.get(file).map_or(Language::C, |f| f.lang)
    }

    fn module_files(&self, lang: Language, key: &str) -> Option<&Vec<String>> {
        self.modules.get(&(lang, key.to_string()))
    }

    // ---- imports -----------------------------------------------------------------------

    /// What an import denotes: a file (module), a symbol, or a package.
    fn resolve_import(&self, imp: &ImportRow, depth: u32) -> Option<Target> {
        if depth > 4 {
            return None;
        }
        let lang = self.lang(&imp.file_path);
        match lang {
            Language::Python => self.py_import(imp, depth),
            Language::TypeScript | Language::JavaScript | Language::Tsx => {
                let file = self.js_module_file(&imp.file_path, &imp.module)?;
                match imp.name.as_deref() {
                    None | Some("*") => Some(Target::File(file)),
                    Some(n) => self.export_of(&file, n, depth).or(Some(Target::File(file))),
                }
            }
            Language::Java => {
                let full = match imp.name.as_deref() {
                    Some(n) if n != "*" => format!("{}.{}", imp.module, n),
                    _ => imp.module.clone(),
                };
                let full = full.trim_end_matches(".*").to_string();
                if let Some(i) = self.unique_class(&full) {
                    return Some(Target::Symbol(i));
                }
                if let Some(files) = self.module_files(Language::Java, &full) {
                    return Some(Target::Package(files.clone()));
                }
                // `import static a.B.m`: a member of a class.
                let (owner, member) = full.rsplit_once('.')?;
                let c = self.unique_class(owner)?;
                self.member(self.syms[c].id, member).first().map(|&m| Target::Symbol(m))
            }
            Language::Go => {
                let dir = self.go_package_dir(&imp.module)?;
                Some(Target::Package(self.module_files(Language::Go, &dir)?.clone()))
            }
            Language::Rust => {
                let base = self.rust_path(&imp.file_path, &imp.module);
                match imp.name.as_deref() {
                    None | Some("*") | Some("self") => {
                        self.module_files(Language::Rust, &base).and_then(|f| f.first().cloned()).map(Target::File)
                    }
                    Some(n) => {
                        let q = format!("{base}::{n}");
                        if let Some(i) = self.by_qname.get(&q).and_then(|v| v.first()) {
                            return Some(Target::Symbol(*i));
                        }
                        self.module_files(Language::Rust, &q).and_then(|f| f.first().cloned()).map(Target::File)
                    }
                }
            }
            Language::C => self.c_include(&imp.file_path, &imp.module).map(Target::File),
        }
    }

    fn py_import(&self, imp: &ImportRow, depth: u32) -> Option<Target> {
        let module = self.py_absolute(&imp.file_path, &imp.module)?;
        let find = |m: &str| self.module_files(Language::Python, m).and_then(|f| f.first().cloned());
        match imp.name.as_deref() {
            None => find(&module).map(Target::File),
            Some("*") => find(&module).map(Target::File),
            Some(n) => {
                let sub = if module.is_empty() { n.to_string() } else { format!("{module}.{n}") };
                if let Some(f) = find(&sub) {
                    return Some(Target::File(f));
                }
                let file = find(&module)?;
                self.export_of(&file, n, depth).or(Some(Target::File(file)))
            }
        }
    }

    /// `..pkg.mod` relative to a Python file -> `a.pkg.mod`.
    fn py_absolute(&self, file: &str, module: &str) -> Option<String> {
        let dots = module.chars().take_while(|c| *c == '.').count();
        if dots == 0 {
            return Some(module.to_string());
        }
        let own = self.files.get(file)?.module.clone().unwrap_or_default();
        let mut parts: Vec<&str> = if own.is_empty() { vec![] } else { own.split('.').collect() };
        if !file.ends_with("__init__.py") {
            parts.pop();
        }
        for _ in 1..dots {
            parts.pop()?;
        }
        let rest = &module[dots..];
        if !rest.is_empty() {
            parts.extend(rest.split('.'));
        }
        Some(parts.join("."))
    }

    /// A name a module exports: a top-level symbol, or an import it re-binds.
    fn export_of(&self, file: &str, name: &str, depth: u32) -> Option<Target> {
        if let Some(v) = self.top.get(&(file.to_string(), name.to_string())) {
            return v.iter().copied().find(|&i| self.syms[i].label != Label::Variable).or(v.first().copied()).map(Target::Symbol);
        }
        let lang = self.lang(file);
        if name == "default" && matches!(lang, Language::TypeScript) {
            if let Some(i) = self.js_default_export(file) {
                return Some(Target::Symbol(i));
            }
        }
        for imp in self.imports.get(file).into_iter().flatten() {
            if imp.alias.as_deref().or(imp.name.as_deref()) == Some(name) || (imp.name.as_deref() == Some("*") && imp.alias.is_none()) {
                if let Some(t) = self.resolve_import(imp, depth + 1) {
                    match (&t, imp.name.as_deref()) {
                        (Target::File(f), Some("*")) => {
                            if let Some(x) = self.export_of(f, name, depth + 1) {
                                return Some(x);
                            }
                        }
                        _ => return Some(t),
                    }
                }
            }
        }
        None
    }

    fn js_default_export(&self, file: &str) -> Option<usize> {
        self.defaults.get(file).copied()
    }

    fn js_module_file(&self, from: &str, spec: &str) -> Option<String> {
        if !spec.starts_with('.') && !spec.starts_with('/') {
            // `paths` aliases and `baseUrl` of tsconfig.json; anything else is a package
            // from node_modules, outside the workspace.
            return self.js.candidates(spec).into_iter().find_map(|c| self.js_file_at(&c));
        }
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let joined = normalize(&if spec.starts_with('/') { spec[1..].to_string() } else if dir.is_empty() { spec.to_string() } else { format!("{dir}/{spec}") })?;
        self.js_file_at(&joined)
    }

    /// A workspace path as an import names it: exact, with an extension, or its index file.
    fn js_file_at(&self, joined: &str) -> Option<String> {
        let joined = joined.to_string();
        let stem = joined.strip_suffix(".js").or_else(|| joined.strip_suffix(".jsx")).or_else(|| joined.strip_suffix(".mjs")).unwrap_or(&joined);
        const EXTS: [&str; 8] = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];
        if self.files.contains_key(&joined) {
            return Some(joined);
        }
        for e in EXTS {
            let p = format!("{stem}.{e}");
            if self.files.contains_key(&p) {
                return Some(p);
            }
        }
        for e in EXTS {
            let p = format!("{joined}/index.{e}");
            if self.files.contains_key(&p) {
                return Some(p);
            }
        }
        None
    }

    fn go_package_dir(&self, import_path: &str) -> Option<String> {
        // The longest suffix of the import path that is a Go directory of the workspace
        // (the module prefix from go.mod is what is cut off).
        let parts: Vec<&str> = import_path.split('/').collect();
        for i in 0..parts.len() {
            let cand = parts[i..].join("/");
            if self.modules.contains_key(&(Language::Go, cand.clone())) {
                return Some(cand);
            }
        }
        None
    }

    fn rust_path(&self, file: &str, path: &str) -> String {
        let own = self.files.get(file).and_then(|f| f.module.clone()).unwrap_or_else(|| "crate".into());
        let mut parts: Vec<String> = Vec::new();
        for (i, seg) in path.split("::").enumerate() {
            match seg {
                "crate" if i == 0 => parts.push("crate".into()),
                "self" if i == 0 => parts.extend(own.split("::").map(str::to_string)),
                "super" => {
                    if parts.is_empty() {
                        parts.extend(own.split("::").map(str::to_string));
                    }
                    parts.pop();
                }
                s => {
                    if i == 0 {
                        parts.push("crate".into());
                    }
                    parts.push(s.to_string())
                }
            }
        }
        parts.join("::")
    }

    fn c_include(&self, from: &str, inc: &str) -> Option<String> {
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let local = normalize(&if dir.is_empty() { inc.to_string() } else { format!("{dir}/{inc}") });
        if let Some(l) = local.filter(|l| self.files.contains_key(l)) {
            return Some(l);
        }
        if self.files.contains_key(inc) {
            return Some(inc.to_string());
        }
        let suffix = format!("/{inc}");
        let base = inc.rsplit('/').next().unwrap_or(inc);
        let mut found: Vec<&String> =
            self.by_basename.get(base).into_iter().flatten().filter(|p| p.ends_with(&suffix)).collect();
        found.sort_by_key(|p| (p.len(), p.as_str()));
        found.first().map(|s| s.to_string())
    }

    fn unique_class(&self, qname: &str) -> Option<usize> {
        let v = self.by_qname.get(qname)?;
        let classes: Vec<usize> = v.iter().copied().filter(|&i| self.syms[i].label == Label::Class).collect();
        (classes.len() == 1).then(|| classes[0])
    }

    // ---- references ----------------------------------------------------------------------

    fn resolve_ref(&self, r: &RefRow) -> (RefStatus, Vec<usize>) {
        let lang = self.lang(&r.file_path);
        let wants_type = matches!(r.kind, RefKind::Inherits | RefKind::Implements | RefKind::New);
        let accept = |i: usize| -> bool {
            let s = &self.syms[i];
            match r.kind {
                RefKind::Inherits | RefKind::Implements | RefKind::New => s.label == Label::Class,
                RefKind::Call | RefKind::Decorator => matches!(s.label, Label::Function | Label::Method | Label::Class),
                RefKind::Reference => matches!(s.label, Label::Function | Label::Method),
            }
        };
        let exact = |v: Vec<usize>| -> Option<(RefStatus, Vec<usize>)> {
            let v: Vec<usize> = self.collapse_redefinitions(v.into_iter().filter(|&i| accept(i)).collect());
            match v.len() {
                0 => None,
                1 => Some((RefStatus::Exact, v)),
                n if n <= MAX_AMBIGUOUS => Some((RefStatus::Ambiguous, v)),
                _ => Some((RefStatus::Unresolved, vec![])),
            }
        };
        let from_class = r.from_node.and_then(|f| self.enclosing_class(f));

        match r.receiver.as_deref() {
            None => match self.lookup_unqualified(r, lang, from_class) {
                Some(v) if !v.is_empty() => {
                    // The name is bound in scope: to a callable (done), or to a variable or
                    // a non-callable, which a same-named definition elsewhere cannot be.
                    return exact(v).unwrap_or((RefStatus::Unresolved, vec![]));
                }
                _ => {
                    // Bound by an import to something outside the workspace (`from
                    // collections import Counter`): not a workspace symbol of that name.
                    if self.binds(&r.file_path, &r.name) {
                        return (RefStatus::Unresolved, vec![]);
                    }
                    // Python and TypeScript modules share no namespace: a bare name that
                    // no scope, import or wildcard import of the file binds is a builtin or
                    // a global (`set`, `Map`, `Error`), never another module's definition.
                    // (Plain JavaScript keeps the guess: browser scripts share globals.)
                    let ts = [".ts", ".tsx", ".mts", ".cts"].iter().any(|e| r.file_path.ends_with(e));
                    if (lang == Language::Python || ts) && r.kind != RefKind::Reference {
                        return (RefStatus::Unresolved, vec![]);
                    }
                }
            },
            Some(recv) => {
                let recv = recv.trim();
                let is_self = matches!(recv, "self" | "this" | "cls" | "Self" | "this.constructor");
                let is_super = recv == "super" || recv.starts_with("super(");
                if is_self || is_super {
                    if let Some(c) = from_class {
                        let found = if is_super {
                            self.bases.get(&self.syms[c].id).into_iter().flatten().flat_map(|b| self.member(*b, &r.name)).collect()
                        } else {
                            self.member(self.syms[c].id, &r.name)
                        };
                        if let Some(x) = exact(found) {
                            return x;
                        }
                    }
                } else if let Some(t) = r.receiver_type.as_deref().filter(|_| !matches!(r.kind, RefKind::Inherits | RefKind::Implements)) {
                    if let Some(c) = self.lookup_type(&r.file_path, lang, t, from_class) {
                        // A workspace class without that member (an outside base has it):
                        // not some other class's same-named method.
                        return exact(self.member(self.syms[c].id, &r.name)).unwrap_or((RefStatus::Unresolved, vec![]));
                    }
                } else if let Some(target) = self.lookup_path(&r.file_path, lang, recv, from_class) {
                    let found = match target {
                        Target::File(f) => match self.export_of(&f, &r.name, 0) {
                            Some(Target::Symbol(i)) => vec![i],
                            _ => vec![],
                        },
                        Target::Package(files) => files
                            .iter()
                            .flat_map(|f| self.top.get(&(f.clone(), r.name.clone())).cloned().unwrap_or_default())
                            .collect(),
                        Target::Symbol(i) if self.syms[i].label == Label::Class => self.member(self.syms[i].id, &r.name),
                        Target::Symbol(_) => vec![],
                    };
                    // The receiver is a module or a class of the workspace: what it lacks is
                    // not a same-named method of some other class.
                    return exact(found).unwrap_or((RefStatus::Unresolved, vec![]));
                } else if self.binds(&r.file_path, recv.split(['.', '(', '[']).next().unwrap_or("")) {
                    // The receiver's root is an import that does not lead into the workspace
                    // (`json.dumps`, `np.array`): an outside module's member.
                    return (RefStatus::Unresolved, vec![]);
                }
            }
        }

        // Heuristic: the same name elsewhere in the language.
        let family = lang.family();
        let cands: Vec<usize> = self
            .by_name
            .get(&r.name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| accept(i) && self.sym_lang[i].family() == family)
            .filter(|&i| {
                let s = &self.syms[i];
                if wants_type {
                    return true;
                }
                // `obj.m()` calls a method; a bare `f()` a function or a constructor.
                if r.receiver.is_some() { s.label == Label::Method } else { s.label != Label::Method || lang == Language::Java }
            })
            // Overloads collapse below; past this many it is unresolved whatever they are.
            .take(8 * MAX_AMBIGUOUS)
            .collect();
        let cands = self.collapse_redefinitions(cands);
        match cands.len() {
            0 => (RefStatus::Unresolved, vec![]),
            1 => (RefStatus::Inferred, cands),
            n if n <= MAX_AMBIGUOUS => (RefStatus::Ambiguous, cands),
            _ => (RefStatus::Unresolved, vec![]),
        }
    }

    /// Definitions of one name in one scope are one callee in Python (the last one wins at
    /// run time: `@overload` stubs, redefinitions) and in TypeScript (overload signatures,
    /// then the implementation): keep the last of each (file, parent, name) group. Java's
    /// and C's same-named methods are distinct overloads and stay apart.
    fn collapse_redefinitions(&self, v: Vec<usize>) -> Vec<usize> {
        if v.len() < 2 {
            return v;
        }
        let mut last: HashMap<(&str, Option<i64>, &str), usize> = HashMap::default();
        let mut keep = Vec::with_capacity(v.len());
        for &i in &v {
            let s = &self.syms[i];
            let lang = self.sym_lang[i].family();
            if !matches!(lang, Language::Python | Language::TypeScript) || !matches!(s.label, Label::Function | Label::Method) {
                keep.push(i);
                continue;
            }
            let e = last.entry((s.file_path.as_str(), s.parent, s.name.as_str())).or_insert(i);
            if self.syms[*e].id < s.id {
                *e = i;
            }
        }
        let lasts: HashSet<usize> = last.into_values().collect();
        keep.extend(v.iter().copied().filter(|i| lasts.contains(i)));
        let order: HashMap<usize, usize> = v.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        keep.sort_by_key(|i| order[i]);
        keep
    }

    /// Whether an import of this file binds the local name, wherever it leads.
    fn binds(&self, file: &str, name: &str) -> bool {
        !name.is_empty() && self.imports.get(file).into_iter().flatten().any(|imp| self.local_name(file, imp) == Some(name))
    }

    /// The local name an import binds.
    fn local_name<'a>(&self, file: &str, imp: &'a ImportRow) -> Option<&'a str> {
        Some(match (&imp.alias, &imp.name) {
            (Some(a), _) => a.as_str(),
            (None, Some(n)) if n != "*" => n.rsplit(['.', ':']).next().unwrap_or(n),
            (None, _) => match self.lang(file) {
                // `import a.b` binds `a`; Go binds the last path segment.
                Language::Python => imp.module.split('.').next().unwrap_or(""),
                Language::Go => imp.module.rsplit('/').next().unwrap_or(""),
                Language::Java => imp.module.rsplit('.').next().unwrap_or(""),
                _ => return None,
            },
        })
    }

    /// A bare name: enclosing scopes, the file, its imports, the language's implicit scopes.
    fn lookup_unqualified(&self, r: &RefRow, lang: Language, from_class: Option<usize>) -> Option<Vec<usize>> {
        let name = r.name.as_str();
        // Nested definitions of the enclosing functions.
        let mut cur = r.from_node;
        while let Some(id) = cur {
            let found: Vec<usize> = self
                .children
                .get(&id)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&i| self.syms[i].name == name && self.syms[i].label != Label::Method)
                .collect();
            if !found.is_empty() {
                return Some(found);
            }
            let s = &self.syms[*self.by_id.get(&id)?];
            if s.label == Label::Class {
                break;
            }
            cur = s.parent;
        }
        // Implicit `this` in Java methods.
        if lang == Language::Java && r.kind != RefKind::New {
            if let Some(c) = from_class {
                let m = self.member(self.syms[c].id, name);
                if !m.is_empty() {
                    return Some(m);
                }
            }
        }
        if let Some(v) = self.top.get(&(r.file_path.clone(), name.to_string())) {
            return Some(v.clone());
        }
        if let Some(t) = self.binding(&r.file_path, name) {
            return match t {
                Target::Symbol(i) => Some(vec![i]),
                _ => None,
            };
        }
        // The rest of the package (Go, Java) and the translation units' shared namespace (C).
        if let Some(pkg) = self.package_of(&r.file_path) {
            if let Some(found) = self.pkg_top.get(&(lang, pkg, name.to_string())) {
                return Some(found.clone());
            }
        }
        if lang == Language::C {
            let found: Vec<usize> = self
                .by_name
                .get(name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&i| {
                    let s = &self.syms[i];
                    s.parent.is_none() && self.sym_lang[i] == Language::C && (s.is_exported || s.file_path == r.file_path)
                })
                .collect();
            // Prefer definitions over prototypes in headers.
            let defs: Vec<usize> = found.iter().copied().filter(|&i| self.syms[i].kind.as_deref() != Some("declaration")).collect();
            let found = if defs.is_empty() { found } else { defs };
            if !found.is_empty() {
                return Some(found);
            }
        }
        // Wildcard imports.
        for imp in self.imports.get(&r.file_path).into_iter().flatten() {
            if imp.name.as_deref() == Some("*") && imp.alias.is_none() {
                if let Some(Some(t)) = self.import_targets.get(&imp.id) {
                    let files: Vec<String> = match t {
                        Target::File(f) => vec![f.clone()],
                        Target::Package(fs) => fs.clone(),
                        Target::Symbol(_) => vec![],
                    };
                    let found: Vec<usize> = files
                        .iter()
                        .flat_map(|f| self.top.get(&(f.clone(), name.to_string())).cloned().unwrap_or_default())
                        .collect();
                    if !found.is_empty() {
                        return Some(found);
                    }
                }
            }
        }
        None
    }

    /// What a local name bound by an import denotes.
    fn binding(&self, file: &str, name: &str) -> Option<Target> {
        for imp in self.imports.get(file).into_iter().flatten() {
            let Some(local) = self.local_name(file, imp) else { continue };
            if local != name {
                continue;
            }
            if self.lang(file) == Language::Python && imp.alias.is_none() && imp.name.is_none() && imp.module.contains('.') {
                // `import a.b` binds the package `a`.
                let top = imp.module.split('.').next().unwrap_or("");
                return self.module_files(Language::Python, top).and_then(|f| f.first().cloned()).map(Target::File);
            }
            if let Some(t) = self.import_targets.get(&imp.id) {
                return t.clone();
            }
            return self.resolve_import(imp, 0);
        }
        None
    }

    /// A dotted receiver (`os.path`, `models.User`, `pkg`) -> what it denotes.
    fn lookup_path(&self, file: &str, lang: Language, path: &str, from_class: Option<usize>) -> Option<Target> {
        let sep = if path.contains("::") { "::" } else { "." };
        let mut segs = path.split(sep);
        let first = segs.next()?;
        if !first.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return None;
        }
        let rust_mod = || {
            // `mod util;` in Rust binds a module without an import.
            let m = self.rust_path(file, &format!("self::{first}"));
            let parent = self.rust_path(file, &format!("super::{first}"));
            [m, parent].iter().find_map(|k| self.module_files(Language::Rust, k).and_then(|f| f.first().cloned()))
        };
        let mut cur = if let Some(t) = self.binding(file, first) {
            self.through_value(t)
        } else if let Some(&v) = (lang == Language::Python)
            .then(|| self.top.get(&(file.to_string(), first.to_string())))
            .flatten()
            .and_then(|v| v.iter().find(|&&i| self.value_class(i).is_some()))
        {
            self.through_value(Target::Symbol(v))
        } else if let Some(f) = (lang == Language::Rust && first != "crate").then(rust_mod).flatten() {
            Target::File(f)
        } else if lang == Language::Rust && first == "crate" {
            Target::File(self.module_files(Language::Rust, "crate")?.first()?.clone())
        } else if let Some(c) = self.lookup_type(file, lang, first, from_class) {
            Target::Symbol(c)
        } else {
            return None;
        };
        for seg in segs {
            cur = match cur {
                Target::File(f) => {
                    let lang_f = self.lang(&f);
                    let m = self.files.get(&f).and_then(|x| x.module.clone()).unwrap_or_default();
                    let sub = format!("{m}.{seg}");
                    if let Some(sf) = (lang_f == Language::Python).then(|| self.module_files(Language::Python, &sub)).flatten() {
                        Target::File(sf.first()?.clone())
                    } else {
                        self.through_value(Target::Symbol(*self.top.get(&(f, seg.to_string()))?.first()?))
                    }
                }
                Target::Symbol(i) if self.syms[i].label == Label::Class => {
                    let m = self.member(self.syms[i].id, seg);
                    match m.iter().find(|&&x| self.syms[x].label == Label::Class) {
                        Some(&c) => Target::Symbol(c),
                        // `ContentType.objects`: a class attribute holding an instance.
                        None => Target::Symbol(m.iter().find_map(|&x| self.value_class(x))?),
                    }
                }
                _ => return None,
            };
        }
        Some(cur)
    }

    /// A type name as written in this file -> a class.
    fn lookup_type(&self, file: &str, lang: Language, name: &str, from_class: Option<usize>) -> Option<usize> {
        let name = name.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim();
        let name = name.split(['<', '[']).next()?.trim();
        if name.contains('.') || name.contains("::") {
            if let Some(c) = self.unique_class(name) {
                return Some(c);
            }
            let (recv, last) = name.rsplit_once("::").or_else(|| name.rsplit_once('.'))?;
            return match self.lookup_path(file, lang, recv, from_class)? {
                Target::File(f) => self.top.get(&(f, last.to_string()))?.iter().copied().find(|&i| self.syms[i].label == Label::Class),
                Target::Package(fs) => fs.iter().find_map(|f| self.top.get(&(f.clone(), last.to_string()))?.iter().copied().find(|&i| self.syms[i].label == Label::Class)),
                Target::Symbol(i) => self.member(self.syms[i].id, last).into_iter().find(|&x| self.syms[x].label == Label::Class),
            };
        }
        if matches!(name, "Self" | "self") {
            return from_class;
        }
        let r = RefRow {
            id: 0,
            file_path: file.to_string(),
            from_node: from_class.map(|c| self.syms[c].id),
            kind: RefKind::New,
            name: name.to_string(),
            receiver: None,
            receiver_type: None,
            line: 0,
            col: 0,
        };
        let found: Vec<usize> = self
            .lookup_unqualified(&r, lang, from_class)
            .unwrap_or_default()
            .into_iter()
            .filter(|&i| self.syms[i].label == Label::Class)
            .collect();
        if found.len() == 1 {
            return Some(found[0]);
        }
        // A nested class of the enclosing class.
        if let Some(c) = from_class {
            if let Some(&m) = self.member(self.syms[c].id, name).iter().find(|&&x| self.syms[x].label == Label::Class) {
                return Some(m);
            }
        }
        None
    }

    /// The class of a variable's value, when its initializer constructs a class of the
    /// variable's own file by its plain name (`apps = Apps()`; Python records the callee as
    /// `class_name`).
    /// Same file only: a change to that class is a change to the variable's file, which
    /// re-resolves every site bound to the variable.
    fn value_class(&self, i: usize) -> Option<usize> {
        let s = &self.syms[i];
        if s.label != Label::Variable || self.sym_lang[i] != Language::Python {
            return None;
        }
        // A plain name: a dotted one would be looked up through paths that come back here.
        let ty = s.class_name.as_deref().filter(|t| !t.contains('.'))?;
        let owner = s.parent.and_then(|p| self.enclosing_class(p));
        let c = self.lookup_type(&s.file_path, Language::Python, ty, owner)?;
        (self.syms[c].file_path == s.file_path).then_some(c)
    }

    /// A variable stands for the class of its value, when known.
    fn through_value(&self, t: Target) -> Target {
        match t {
            Target::Symbol(i) => Target::Symbol(self.value_class(i).unwrap_or(i)),
            other => other,
        }
    }

    /// The class a symbol belongs to: its nearest class ancestor, or for detached methods
    /// (Go receivers, Rust impls elsewhere) the class named by `class_name`.
    fn enclosing_class(&self, id: i64) -> Option<usize> {
        let mut cur = Some(id);
        while let Some(c) = cur {
            let i = *self.by_id.get(&c)?;
            let s = &self.syms[i];
            if s.label == Label::Class {
                return Some(i);
            }
            if s.parent.is_none() {
                if let (Label::Method, Some(cn)) = (s.label, &s.class_name) {
                    let lang = self.lang(&s.file_path);
                    let dir = s.file_path.rsplit_once('/').map_or("", |(d, _)| d);
                    let cands: Vec<usize> = self
                        .by_name
                        .get(cn)
                        .into_iter()
                        .flatten()
                        .copied()
                        .filter(|&k| self.syms[k].label == Label::Class && self.sym_lang[k] == lang)
                        .collect();
                    let same_dir: Vec<usize> = cands
                        .iter()
                        .copied()
                        .filter(|&k| self.syms[k].file_path.rsplit_once('/').map_or("", |(d, _)| d) == dir)
                        .collect();
                    let pick = if same_dir.len() == 1 { same_dir } else { cands };
                    return (pick.len() == 1).then(|| pick[0]);
                }
            }
            cur = s.parent;
        }
        None
    }

    /// Members named `name` of a class and, breadth-first, of its bases. Returns them with
    /// the nearest level first; callers keep the first level that has any.
    fn member(&self, class_id: i64, name: &str) -> Vec<usize> {
        let mut seen = HashSet::default();
        let mut queue = VecDeque::from([(class_id, 0u32)]);
        let mut out: Vec<(u32, usize)> = Vec::new();
        let mut found_level: Option<u32> = None;
        while let Some((c, level)) = queue.pop_front() {
            if !seen.insert(c) || level > 20 || found_level.is_some_and(|l| level > l) {
                continue;
            }
            let Some(&ci) = self.by_id.get(&c) else { continue };
            let cls = &self.syms[ci];
            let lang = self.lang(&cls.file_path);
            let mut hits: Vec<usize> =
                self.children.get(&c).into_iter().flatten().copied().filter(|&i| self.syms[i].name == name).collect();
            if let Some(det) = self.detached.get(&(lang, cls.name.clone())) {
                let dir = cls.file_path.rsplit_once('/').map_or("", |(d, _)| d);
                hits.extend(det.iter().copied().filter(|&i| {
                    let s = &self.syms[i];
                    s.name == name && (lang != Language::Go || s.file_path.rsplit_once('/').map_or("", |(d, _)| d) == dir)
                }));
            }
            if !hits.is_empty() {
                found_level = Some(level);
                out.extend(hits.into_iter().map(|h| (level, h)));
                continue;
            }
            for b in self.bases.get(&c).into_iter().flatten() {
                queue.push_back((*b, level + 1));
            }
        }
        out.sort();
        out.into_iter().map(|(_, i)| i).collect()
    }
}


/// Normalizes `a/./b/../c` -> `a/c`; `None` when it climbs above the root.
fn normalize(p: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    Some(out.join("/"))
}

/// Module path aliases from `tsconfig.json` / `jsconfig.json` at the workspace root.
#[derive(Debug, Clone, Default)]
pub(crate) struct JsConfig {
    /// `baseUrl`, workspace-relative (`""` for the root).
    base: Option<String>,
    /// (`@lib/*`, [`src/lib/*`]) pairs, in file order.
    paths: Vec<(String, Vec<String>)>,
}

impl JsConfig {
    pub(crate) fn read(root: &std::path::Path) -> JsConfig {
        for name in ["tsconfig.json", "jsconfig.json"] {
            let Ok(text) = std::fs::read_to_string(root.join(name)) else { continue };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&strip_json_comments(&text)) else {
                tracing::warn!("{name}: not valid JSON; path aliases ignored");
                continue;
            };
            let opts = &v["compilerOptions"];
            let base = opts["baseUrl"].as_str().map(|b| normalize(b.trim_start_matches("./")).unwrap_or_default());
            let mut paths = Vec::new();
            if let Some(map) = opts["paths"].as_object() {
                for (k, targets) in map {
                    let ts = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_string)).collect();
                    paths.push((k.clone(), ts));
                }
            }
            return JsConfig { base, paths };
        }
        JsConfig::default()
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", (&self.base, &self.paths))
    }

    /// Workspace paths an import specifier may denote, most specific first.
    fn candidates(&self, spec: &str) -> Vec<String> {
        let base = self.base.clone().unwrap_or_default();
        let join = |p: &str| {
            let p = p.trim_start_matches("./");
            normalize(&if base.is_empty() { p.to_string() } else { format!("{base}/{p}") })
        };
        let mut out = Vec::new();
        for (pattern, targets) in &self.paths {
            let matched = match pattern.split_once('*') {
                Some((pre, post)) => spec
                    .strip_prefix(pre)
                    .and_then(|r| r.strip_suffix(post))
                    .map(|star| targets.iter().filter_map(|t| join(&t.replacen('*', star, 1))).collect::<Vec<_>>()),
                None => (spec == pattern).then(|| targets.iter().filter_map(|t| join(t)).collect()),
            };
            out.extend(matched.unwrap_or_default());
        }
        if self.base.is_some() {
            out.extend(join(spec));
        }
        out
    }
}

/// tsconfig.json allows `//` and `/* */` comments and trailing commas.
fn strip_json_comments(s: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
            i += 1;
        } else if c == b'"' {
            in_str = true;
            out.push(b'"');
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i + 1 < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    // Trailing commas before } or ].
    let mut cleaned = String::with_capacity(out.len());
    let out = String::from_utf8_lossy(&out);
    let chars: Vec<char> = out.chars().collect();
    for (k, ch) in chars.iter().enumerate() {
        if *ch == ',' {
            let next = chars[k + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        cleaned.push(*ch);
    }
    cleaned
}
