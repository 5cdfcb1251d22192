//! The symbol table and the generic rules of resolution: scopes, classes and their
//! hierarchy, dotted paths, the by-name fallback. What a module or an import is comes from
//! the family of the site's file ([`ModuleSystem`]); what differs between languages here is
//! a [`Rules`] property, never a language name.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use navegador_lang::is_builtin;
use navegador_model::{Label, Language, RefKind};
use navegador_store::{ImportRow, IngestTx, RefRow, RefStatus, StoreError, SymbolRow};

use super::TargetKey;
use super::system::{family_name, systems, Config, Fam, ModuleSystem, Rules};

/// At most this many candidates of an `ambiguous` site are linked (the nearest, see
/// [`Table::nearest`]).
const MAX_AMBIGUOUS: usize = navegador_store::AMBIGUOUS_LINKED;

/// Why an `ambiguous` site has several candidates (the `reason` of its edges).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AmbiguityReason {
    /// Overloads (or redefinitions) of one class or file that the argument count and
    /// types do not separate.
    Overloads,
    /// Found through a scope, a type or a class's hierarchy: several implementations of
    /// an interface or virtual method, members inherited from several bases.
    Hierarchy,
    /// A method named on a receiver of no known type: the candidates are by name.
    ReceiverUnknown,
    /// A bare name no scope or import binds, defined in several places: by name.
    GlobalName,
}

impl AmbiguityReason {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            AmbiguityReason::Overloads => "overloads",
            AmbiguityReason::Hierarchy => "hierarchy",
            AmbiguityReason::ReceiverUnknown => "receiver_unknown",
            AmbiguityReason::GlobalName => "global_name",
        }
    }
}

/// An ambiguous site's reason and its number of candidates (more than are linked when
/// past [`MAX_AMBIGUOUS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ambiguity {
    pub reason: AmbiguityReason,
    pub candidates: u32,
}

/// What a name, an import or a dotted path denotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    File(String),
    Symbol(usize),
    /// A package of several files (Java package, Go package directory).
    Package(Vec<String>),
    /// Something outside the workspace: a module of a package it does not contain, or
    /// anything reached through one.
    External,
}

pub(crate) struct FileInfo {
    pub node: i64,
    pub lang: Language,
    pub fam: Fam,
    pub rules: Rules,
    pub module: Option<String>,
}

pub(crate) struct Table {
    pub files: HashMap<String, FileInfo>,
    /// Each file's family and module key ([`ModuleSystem::module_key`]).
    keys: HashMap<String, (Fam, String)>,
    /// The definitions of each file (indexes into `syms`), for `patch`.
    by_file: HashMap<String, Vec<usize>>,
    /// Slots of `syms` whose definitions were removed by `patch`.
    dead: usize,
    /// Files by their last path segment (`kernel.h` -> `include/linux/kernel.h`, …).
    pub by_basename: HashMap<String, Vec<String>>,
    /// (family, module key) -> files (see [`ModuleSystem::module_key`]).
    modules: HashMap<(Fam, String), Vec<String>>,
    pub syms: Vec<SymbolRow>,
    pub by_id: HashMap<i64, usize>,
    /// The family of each symbol's file, and its rules (same index as `syms`).
    pub sym_fam: Vec<Fam>,
    pub sym_rules: Vec<Rules>,
    /// The arguments each function or method takes, from its signature: (required, at
    /// most; `None` = variadic). Same index as `syms`; `None` where unknown.
    pub sym_arity: Vec<Option<(u32, Option<u32>)>>,
    pub by_name: HashMap<String, Vec<usize>>,
    pub by_qname: HashMap<String, Vec<usize>>,
    /// Top-level symbols of each file by name.
    pub top: HashMap<(String, String), Vec<usize>>,
    /// Top-level symbols of each package ([`ModuleSystem::package_of`]) by name.
    pkg_top: HashMap<(Fam, String, String), Vec<usize>>,
    children: HashMap<i64, Vec<usize>>,
    /// Methods declared away from their type (Go receivers, Rust `impl` elsewhere), by
    /// (family, type name).
    detached: HashMap<(Fam, String), Vec<usize>>,
    /// Class -> its resolved bases (`INHERITS`/`IMPLEMENTS` targets).
    pub bases: HashMap<i64, Vec<i64>>,
    /// Classes that name a base outside the workspace (`class Form(forms.Form)` where
    /// `forms` is not in it): what they lack, the outside base may have.
    pub outside: HashSet<i64>,
    /// The default export of each JS/TS module.
    defaults: HashMap<String, usize>,
    pub imports: HashMap<String, Vec<ImportRow>>,
    /// Import node id -> what its binding denotes. Kept by `patch` but for the imports of
    /// the patched files and those whose target lies in one; an ingest whose files'
    /// interfaces moved clears it (an import's answer may read any file's definitions).
    pub import_targets: HashMap<i64, Option<Target>>,
    systems: Vec<Box<dyn ModuleSystem>>,
    /// The roots each family's files provide ([`ModuleSystem::roots`]), by family.
    roots: Vec<HashSet<String>>,
    /// (path, language) of files whose language no module system reads: not resolved.
    pub unknown: Vec<(String, String)>,
    /// The ids of `Module` symbols: namespaces declared in a file (C++ `namespace a {}`,
    /// Rust `mod a {}`), which hold definitions without being types.
    namespaces: HashSet<i64>,
}

impl Table {
    /// The table of the store's current graph (this transaction's view).
    pub(crate) fn load(tx: &IngestTx<'_>, cfg: &Config) -> Result<Table, StoreError> {
        let mut t = Table::empty(cfg);
        for (path, node, language, module) in tx.files()? {
            t.add_file(path, node, &language, module);
        }
        // In id order, as a full build reads them (without indexes): a patched table
        // appends a rewritten file's new (higher) ids, so both see candidates in one order.
        // Definitions of a file no module system reads are not candidates for anything.
        for s in tx.symbols()? {
            if t.files.contains_key(&s.file_path) {
                t.add_symbol(s);
            }
        }
        t.compute_roots();
        for (class, base) in tx.hierarchy()? {
            t.bases.entry(class).or_default().push(base);
        }
        for imp in tx.imports()? {
            if t.files.contains_key(&imp.file_path) {
                t.imports.entry(imp.file_path.clone()).or_default().push(imp);
            }
        }
        Ok(t)
    }

    /// Brings a table loaded (or patched) earlier up to date with the store after `paths`
    /// were rewritten, added or removed, reading only those files' rows: what the server
    /// keeps between edits instead of reloading every definition. Equal to [`Table::load`]
    /// of the same graph, as long as every other file is as it was when the table was made.
    /// Returns the import targets it forgot ([`Table::forget_targets`]).
    pub(crate) fn patch(&mut self, tx: &IngestTx<'_>, paths: &[String]) -> Result<Vec<(i64, TargetKey)>, StoreError> {
        let mut paths: Vec<&String> = paths.iter().collect();
        paths.sort();
        paths.dedup();
        let forgotten = self.forget_targets(&paths);
        for p in &paths {
            self.remove_file(p);
        }
        let mut added = Vec::new();
        for p in &paths {
            if let Some((node, language, module)) = tx.file_row(p)? {
                if self.add_file((*p).clone(), node, &language, module) {
                    added.push(*p);
                }
            }
        }
        let mut syms = Vec::new();
        for p in &added {
            syms.extend(tx.symbols_in(p)?);
        }
        syms.sort_by_key(|s| s.id);
        for s in syms {
            self.add_symbol(s);
        }
        for p in &added {
            let imps = tx.imports_in(p)?;
            if !imps.is_empty() {
                self.imports.insert((*p).clone(), imps);
            }
        }
        self.compute_roots();
        self.bases = Default::default();
        for (class, base) in tx.hierarchy()? {
            self.bases.entry(class).or_default().push(base);
        }
        self.outside = Default::default();
        Ok(forgotten)
    }

    /// The one rule of which known import targets an edit of `paths` leaves standing (a
    /// patched table's, or those a loaded table took from the store): all but those of
    /// the files' own imports and those leading into the files (a definition's slot may be
    /// taken again). An edit that moves a file's interface forgets more (`forget_reshaped`).
    /// Returns the targets forgotten, by import.
    pub(crate) fn forget_targets(&mut self, paths: &[&String]) -> Vec<(i64, TargetKey)> {
        let touched: HashSet<&str> = paths.iter().map(|p| p.as_str()).collect();
        let mut gone: Vec<i64> = paths.iter().flat_map(|p| self.imports.get(p.as_str()).into_iter().flatten()).map(|imp| imp.id).collect();
        gone.extend(self.import_targets.iter().filter_map(|(&id, t)| {
            let into = match t {
                Some(Target::File(f)) => touched.contains(f.as_str()),
                Some(Target::Symbol(i)) => touched.contains(self.syms[*i].file_path.as_str()),
                Some(Target::Package(fs)) => fs.iter().any(|f| touched.contains(f.as_str())),
                Some(Target::External) | None => false,
            };
            into.then_some(id)
        }));
        self.take_targets(&gone)
    }

    /// After an edit that moved definitions or bindings of some files but not their shape
    /// (`Changes::whole` empty), forgets beside [`Table::forget_targets`]'s the known
    /// targets of the imports naming one of `names` by a word of their module, name or
    /// alias (case aside): what an import consults of files it does not lead into is a
    /// name (a definition, a re-export, a nested module that came, went or changed kind),
    /// so no other import that found something can now lead elsewhere; those that found
    /// nothing are forgotten too. (Whether one leads outside is decided by roots and
    /// packages: `resolve_with` redoes those.) Returns the targets forgotten.
    pub(crate) fn forget_naming(&mut self, names: &std::collections::HashSet<String>) -> Vec<(i64, TargetKey)> {
        // A binding of no name changed (a wildcard re-export `export * from`, `from m import
        // *`): what the file exports through it has no bound, so every import may read it.
        if names.iter().any(|n| words(n).next().is_none()) {
            return self.forget_all_targets();
        }
        let wanted: HashSet<String> = names.iter().flat_map(|n| words(n)).map(|w| w.to_lowercase()).collect();
        let hit = |s: &str| {
            words(s).any(|w| if w.bytes().any(|b| !b.is_ascii() || b.is_ascii_uppercase()) { wanted.contains(&w.to_lowercase()) } else { wanted.contains(w) })
        };
        let naming: Vec<i64> = self
            .imports
            .values()
            .flatten()
            .filter(|imp| {
                // (An import that found nothing may now find what the edit added under a
                // name it does not write: a default export.)
                matches!(self.import_targets.get(&imp.id), Some(None))
                    || hit(&imp.module)
                    || imp.name.as_deref().is_some_and(hit)
                    || imp.alias.as_deref().is_some_and(hit)
            })
            .map(|imp| imp.id)
            .collect();
        self.take_targets(&naming)
    }

    /// Removes the known targets of these imports, returning them.
    fn take_targets(&mut self, ids: &[i64]) -> Vec<(i64, TargetKey)> {
        let taken: Vec<(i64, Option<Target>)> = ids.iter().filter_map(|id| Some((*id, self.import_targets.remove(id)?))).collect();
        taken.into_iter().map(|(id, t)| (id, TargetKey::of(self, &t))).collect()
    }

    /// Forgets every known target, returning them.
    pub(crate) fn forget_all_targets(&mut self) -> Vec<(i64, TargetKey)> {
        let taken = std::mem::take(&mut self.import_targets);
        taken.into_iter().map(|(id, t)| (id, TargetKey::of(self, &t))).collect()
    }

    /// Slots of removed definitions not yet reused: a patched table past a limit of them
    /// is better reloaded.
    pub(crate) fn dead(&self) -> usize {
        self.dead
    }

    fn empty(cfg: &Config) -> Table {
        Table {
            files: HashMap::default(),
            by_basename: HashMap::default(),
            modules: HashMap::default(),
            keys: HashMap::default(),
            by_file: HashMap::default(),
            dead: 0,
            by_id: HashMap::default(),
            sym_fam: Vec::new(),
            sym_rules: Vec::new(),
            sym_arity: Vec::new(),
            by_name: HashMap::default(),
            by_qname: HashMap::default(),
            top: HashMap::default(),
            pkg_top: HashMap::default(),
            children: HashMap::default(),
            detached: HashMap::default(),
            bases: HashMap::default(),
            outside: HashSet::default(),
            defaults: HashMap::default(),
            imports: HashMap::default(),
            import_targets: HashMap::default(),
            roots: Vec::new(),
            systems: systems(cfg),
            unknown: Vec::new(),
            namespaces: HashSet::default(),
            syms: Vec::new(),
        }
    }

    /// Adds a file of the files table; false (and listed in `unknown`) when no module
    /// system reads its language.
    fn add_file(&mut self, path: String, node: i64, language: &str, module: Option<String>) -> bool {
        let found = navegador_lang::registry()
            .by_name(language)
            .and_then(|lang| Some((lang, self.systems.iter().position(|s| s.name() == family_name(lang))?)));
        let Some((lang, fam)) = found else {
            let at = self.unknown.partition_point(|(p, _)| *p < path);
            self.unknown.insert(at, (path, language.to_string()));
            return false;
        };
        let sys = &self.systems[fam];
        let fam = fam as Fam;
        let key = sys.module_key(lang, &path, module.as_deref());
        let rules = sys.rules(lang);
        let files = self.modules.entry((fam, key.clone())).or_default();
        let at = files.partition_point(|p| *p < path);
        files.insert(at, path.clone());
        let base = self.by_basename.entry(path.rsplit('/').next().unwrap_or(&path).to_string()).or_default();
        let at = base.partition_point(|p| *p < path);
        base.insert(at, path.clone());
        self.keys.insert(path.clone(), (fam, key));
        self.files.insert(path, FileInfo { node, lang, fam, rules, module });
        true
    }

    /// Forgets a file and everything it defines or imports.
    fn remove_file(&mut self, path: &str) {
        self.unknown.retain(|(p, _)| p != path);
        for i in self.by_file.remove(path).unwrap_or_default() {
            self.unindex_symbol(i);
        }
        self.imports.remove(path);
        self.defaults.remove(path);
        if let Some((fam, key)) = self.keys.remove(path) {
            let k = (fam, key);
            if let Some(v) = self.modules.get_mut(&k) {
                v.retain(|p| p != path);
                if v.is_empty() {
                    self.modules.remove(&k);
                }
            }
        }
        let base = path.rsplit('/').next().unwrap_or(path);
        if let Some(v) = self.by_basename.get_mut(base) {
            v.retain(|p| p != path);
            if v.is_empty() {
                self.by_basename.remove(base);
            }
        }
        self.files.remove(path);
    }

    /// Recomputes the roots each family's files provide (they may read the whole table).
    fn compute_roots(&mut self) {
        let mut roots: Vec<HashSet<String>> = vec![HashSet::default(); self.systems.len()];
        for (path, (fam, key)) in &self.keys {
            roots[*fam as usize].extend(self.sys(*fam).roots(self, path, key));
        }
        self.roots = roots;
    }

    /// Appends a definition of a known file (ids ascending) and indexes it.
    fn add_symbol(&mut self, s: SymbolRow) {
        let i = self.syms.len();
        let f = &self.files[&s.file_path];
        let (fam, rules) = (f.fam, f.rules);
        let pkg = if s.parent.is_none() { self.systems[fam as usize].package_of(&s.file_path, f.module.as_deref()) } else { None };
        if s.label == Label::Module {
            self.namespaces.insert(s.id);
        }
        // A method defined away from its type inside a namespace (C++ `namespace kv {
        // void Store::put() {…} }`) is detached, as one at the top of its file.
        if let (Some(p), Label::Method, Some(c)) = (s.parent, s.label, &s.class_name) {
            if self.namespaces.contains(&p) {
                self.detached.entry((fam, c.clone())).or_default().push(i);
            }
        }
        self.by_id.insert(s.id, i);
        self.by_name.entry(s.name.clone()).or_default().push(i);
        self.by_qname.entry(s.qualified_name.clone()).or_default().push(i);
        if s.is_default_export {
            self.defaults.insert(s.file_path.clone(), i);
        }
        match s.parent {
            Some(p) => self.children.entry(p).or_default().push(i),
            None => {
                self.top.entry((s.file_path.clone(), s.name.clone())).or_default().push(i);
                if let Some(pkg) = pkg {
                    self.pkg_top.entry((fam, pkg, s.name.clone())).or_default().push(i);
                }
                if let (Label::Method, Some(c)) = (s.label, &s.class_name) {
                    self.detached.entry((fam, c.clone())).or_default().push(i);
                }
            }
        }
        self.by_file.entry(s.file_path.clone()).or_default().push(i);
        self.sym_fam.push(fam);
        self.sym_rules.push(rules);
        self.sym_arity.push(s.signature.as_deref().and_then(|sig| signature_arity(sig, &s.name)));
        self.syms.push(s);
    }

    /// Takes a definition out of every index (its slot stays, unreachable): the inverse of
    /// `add_symbol`, while its file is still known.
    fn unindex_symbol(&mut self, i: usize) {
        fn drop_from<K: std::hash::Hash + Eq>(m: &mut HashMap<K, Vec<usize>>, k: K, i: usize) {
            if let Some(v) = m.get_mut(&k) {
                v.retain(|&x| x != i);
                if v.is_empty() {
                    m.remove(&k);
                }
            }
        }
        let s = &self.syms[i];
        let fam = self.sym_fam[i];
        let (id, name, qname, file, parent, label, class) =
            (s.id, s.name.clone(), s.qualified_name.clone(), s.file_path.clone(), s.parent, s.label, s.class_name.clone());
        self.dead += 1;
        self.by_id.remove(&id);
        self.namespaces.remove(&id);
        self.children.remove(&id);
        drop_from(&mut self.by_name, name.clone(), i);
        drop_from(&mut self.by_qname, qname, i);
        if let (Label::Method, Some(c)) = (label, class) {
            drop_from(&mut self.detached, (fam, c), i);
        }
        match parent {
            Some(p) => drop_from(&mut self.children, p, i),
            None => {
                let f = &self.files[&file];
                if let Some(pkg) = self.systems[fam as usize].package_of(&file, f.module.as_deref()) {
                    drop_from(&mut self.pkg_top, (fam, pkg, name.clone()), i);
                }
                drop_from(&mut self.top, (file, name), i);
            }
        }
    }

    /// A file's family and module key ([`ModuleSystem::module_key`]: a Go package's
    /// directory).
    pub(crate) fn module_key(&self, path: &str) -> Option<&(Fam, String)> {
        self.keys.get(path)
    }

    /// The family of a module system by its name.
    pub(crate) fn fam_named(&self, name: &str) -> Fam {
        self.systems.iter().position(|s| s.name() == name).expect("a family of `systems`") as Fam
    }

    fn sys(&self, fam: Fam) -> &dyn ModuleSystem {
        self.systems[fam as usize].as_ref()
    }

    pub(crate) fn module_files(&self, fam: Fam, key: &str) -> Option<&Vec<String>> {
        self.modules.get(&(fam, key.to_string()))
    }

    /// The module keys of a family (for a family whose imports name a module by less than
    /// its key: Swift's `import Shop` of `Sources/Shop`).
    pub(crate) fn module_keys(&self, fam: Fam) -> impl Iterator<Item = &String> + '_ {
        self.modules.keys().filter(move |(f, _)| *f == fam).map(|(_, k)| k)
    }

    /// Every family's roots as `family<TAB>root` lines, sorted: what an ingest remembers to
    /// tell which imports may have crossed the workspace's edge since.
    pub(crate) fn root_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .roots
            .iter()
            .enumerate()
            .flat_map(|(f, rs)| rs.iter().map(move |r| format!("{}\t{r}", self.systems[f].name())))
            .collect();
        out.sort();
        out
    }

    /// The packages the workspace's files declare, as `family<TAB>package` lines, sorted,
    /// in the families whose files declare their package ([`ModuleSystem::declared_packages`]):
    /// what an ingest remembers to tell which imports may have turned outside (or back)
    /// since, as a package's first file appeared or its last one went.
    pub(crate) fn package_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .modules
            .keys()
            .filter(|(f, _)| self.sys(*f).declared_packages())
            .map(|(f, k)| format!("{}\t{k}", self.sys(*f).name()))
            .collect();
        out.sort();
        out
    }

    /// The packages an import may name, as [`Table::package_lines`] writes them: its
    /// module and each dotted prefix of it (`a`, `a.b`, `a.b.C` of `import static
    /// a.b.C.m`), where its family declares packages.
    pub(crate) fn import_packages(&self, imp: &ImportRow) -> Vec<String> {
        let Some(f) = self.files.get(&imp.file_path) else { return Vec::new() };
        let sys = self.sys(f.fam);
        if !sys.declared_packages() {
            return Vec::new();
        }
        let m = imp.module.trim_end_matches(".*");
        let mut out: Vec<String> = m.match_indices('.').map(|(i, _)| format!("{}\t{}", sys.name(), &m[..i])).collect();
        out.push(format!("{}\t{m}", sys.name()));
        out
    }

    /// The family and root an import leads through, if its family has roots.
    pub(crate) fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<(&'static str, &'a str)> {
        let sys = self.sys(self.files.get(&imp.file_path)?.fam);
        Some((sys.name(), sys.import_root(imp)?))
    }

    // ---- imports -----------------------------------------------------------------------

    /// What an import denotes: a file (module), a symbol, or a package.
    pub(crate) fn resolve_import(&self, imp: &ImportRow, depth: u32) -> Option<Target> {
        if depth > 4 {
            return None;
        }
        let f = self.files.get(&imp.file_path)?;
        let sys = self.sys(f.fam);
        let found = sys.resolve_import(self, imp, depth);
        if found.is_none() && sys.import_root(imp).is_some_and(|root| !self.roots[f.fam as usize].contains(root)) {
            return Some(Target::External);
        }
        found
    }

    /// What an import denotes, as resolved this run (or now).
    pub(crate) fn import_target(&self, imp: &ImportRow) -> Option<Target> {
        match self.import_targets.get(&imp.id) {
            Some(t) => t.clone(),
            None => self.resolve_import(imp, 0),
        }
    }

    /// A name a module exports: a top-level symbol, or an import it re-binds.
    pub(crate) fn export_of(&self, file: &str, name: &str, depth: u32) -> Option<Target> {
        if let Some(v) = self.top.get(&(file.to_string(), name.to_string())) {
            return v.iter().copied().find(|&i| self.syms[i].label != Label::Variable).or(v.first().copied()).map(Target::Symbol);
        }
        if name == "default" {
            if let Some(&i) = self.defaults.get(file) {
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

    pub(crate) fn unique_class(&self, qname: &str) -> Option<usize> {
        let v = self.by_qname.get(qname)?;
        let classes: Vec<usize> = v.iter().copied().filter(|&i| self.syms[i].label == Label::Class).collect();
        let classes = self.one_per_open_class(classes);
        (classes.len() == 1).then(|| classes[0])
    }

    /// Whether a symbol is outside any type: at the top of its file or in namespaces only.
    pub(crate) fn at_namespace_level(&self, i: usize) -> bool {
        let mut cur = self.syms[i].parent;
        for _ in 0..64 {
            match cur {
                None => return true,
                Some(p) if self.namespaces.contains(&p) => cur = self.by_id.get(&p).and_then(|&k| self.syms[k].parent),
                Some(_) => return false,
            }
        }
        false
    }

    /// Where classes are open ([`Rules::open_classes`]), the parts of one class count once:
    /// the first part of each qualified name stands for the class.
    fn one_per_open_class(&self, v: Vec<usize>) -> Vec<usize> {
        if v.len() < 2 {
            return v;
        }
        let mut seen: HashSet<(Fam, &str)> = HashSet::default();
        v.into_iter()
            .filter(|&i| {
                let s = &self.syms[i];
                !(self.sym_rules[i].open_classes && s.label == Label::Class) || seen.insert((self.sym_fam[i], s.qualified_name.as_str()))
            })
            .collect()
    }

    /// The ids of the parts of a class: itself, and where classes are open the other classes
    /// of its qualified name in its family.
    fn parts(&self, ci: usize) -> Vec<i64> {
        let cls = &self.syms[ci];
        if !self.sym_rules[ci].open_classes {
            return vec![cls.id];
        }
        let mut out = vec![cls.id];
        out.extend(
            self.by_qname
                .get(&cls.qualified_name)
                .into_iter()
                .flatten()
                .filter(|&&k| k != ci && self.syms[k].label == Label::Class && self.sym_fam[k] == self.sym_fam[ci])
                .map(|&k| self.syms[k].id),
        );
        out
    }

    /// A declaration (a prototype, a method declared in its class's body: `kind =
    /// declaration`) and the definition of the same name are one callee: the definition.
    fn prefer_definitions(&self, v: Vec<usize>) -> Vec<usize> {
        let decl = |i: usize| self.syms[i].kind.as_deref() == Some("declaration");
        if v.len() < 2 || !v.iter().any(|&i| decl(i)) {
            return v;
        }
        let defined: HashSet<&str> = v.iter().filter(|&&i| !decl(i)).map(|&i| self.syms[i].name.as_str()).collect();
        v.iter().copied().filter(|&i| !decl(i) || !defined.contains(self.syms[i].name.as_str())).collect()
    }

    // ---- references ----------------------------------------------------------------------

    /// What a reference site binds to, and how sure that is; for an `ambiguous` site, why
    /// it has several candidates and how many there were in all (at most
    /// [`MAX_AMBIGUOUS`] of them are returned, the nearest: [`Table::nearest`]).
    pub(crate) fn resolve_site(&self, r: &RefRow) -> (RefStatus, Vec<usize>, Option<Ambiguity>) {
        let mut by_name = false;
        let (status, mut v) = self.bind_site(r, &mut by_name);
        if status != RefStatus::Ambiguous {
            return (status, v, None);
        }
        let candidates = v.len() as u32;
        let reason = self.reason(r, &v, by_name);
        if v.len() > MAX_AMBIGUOUS {
            v = self.nearest(r, v);
        }
        (status, v, Some(Ambiguity { reason, candidates }))
    }

    /// Why a site has several candidates: all of them one parent's (overloads the
    /// argument count and types do not separate); by name alone (a receiver of no known
    /// type); top-level definitions of several files (a bare name no scope or import
    /// decides: C's shared namespace, a name no import binds); else members found through
    /// a scope, a type or a class's hierarchy.
    fn reason(&self, r: &RefRow, v: &[usize], by_name: bool) -> AmbiguityReason {
        let one_parent = v.windows(2).all(|w| {
            let (a, b) = (&self.syms[w[0]], &self.syms[w[1]]);
            a.parent == b.parent && a.file_path == b.file_path
        });
        if one_parent {
            AmbiguityReason::Overloads
        } else if by_name && r.receiver.is_some() {
            AmbiguityReason::ReceiverUnknown
        } else if by_name || v.iter().all(|&i| self.at_namespace_level(i)) {
            AmbiguityReason::GlobalName
        } else {
            AmbiguityReason::Hierarchy
        }
    }

    /// The [`MAX_AMBIGUOUS`] candidates nearest the site: in its file, then its package
    /// (the module system's, else its directory), then in files its imports reach, then
    /// the rest; within each, by qualified name, file and signature (an order that does
    /// not depend on node ids, so an incremental ingest keeps the same ones).
    fn nearest(&self, r: &RefRow, mut v: Vec<usize>) -> Vec<usize> {
        let package = |path: &str| -> Option<String> {
            let f = self.files.get(path)?;
            self.systems[f.fam as usize]
                .package_of(path, f.module.as_deref())
                .or_else(|| Some(path.rsplit_once('/').map_or("", |(d, _)| d).to_string()))
        };
        let here = package(&r.file_path);
        let mut imported: HashSet<&str> = HashSet::default();
        for imp in self.imports.get(&r.file_path).into_iter().flatten() {
            match self.import_targets.get(&imp.id).cloned().flatten() {
                Some(Target::File(f)) => {
                    if let Some((k, _)) = self.files.get_key_value(&f) {
                        imported.insert(k.as_str());
                    }
                }
                Some(Target::Symbol(i)) => {
                    imported.insert(self.syms[i].file_path.as_str());
                }
                Some(Target::Package(files)) => {
                    for f in files {
                        if let Some((k, _)) = self.files.get_key_value(&f) {
                            imported.insert(k.as_str());
                        }
                    }
                }
                _ => {}
            }
        }
        v.sort_by_cached_key(|&i| {
            let s = &self.syms[i];
            let rank = if s.file_path == r.file_path {
                0
            } else if package(&s.file_path) == here {
                1
            } else if imported.contains(s.file_path.as_str()) {
                2
            } else {
                3
            };
            (rank, s.qualified_name.clone(), s.file_path.clone(), s.signature.clone())
        });
        v.truncate(MAX_AMBIGUOUS);
        v
    }

    /// What a site binds to, every candidate of an ambiguous one; `by_name` is set when
    /// the candidates come from the by-name fallback.
    fn bind_site(&self, r: &RefRow, by_name: &mut bool) -> (RefStatus, Vec<usize>) {
        let Some(fi) = self.files.get(&r.file_path) else { return (RefStatus::Unresolved, vec![]) };
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
            let v: Vec<usize> = v.into_iter().filter(|&i| accept(i)).collect();
            let v = self.by_arity(self.one_per_open_class(self.prefer_definitions(self.collapse_redefinitions(v))), r.arity);
            let v = self.by_argument_types(v, r, fi);
            match v.len() {
                0 => None,
                1 => Some((RefStatus::Exact, v)),
                _ => Some((RefStatus::Ambiguous, v)),
            }
        };
        let from_class = r.from_node.and_then(|f| self.enclosing_class(f));

        // `super(…)` / `this(…)` in a constructor: the superclass's / the class's own
        // constructor, linked to the class as a constructor call is.
        if r.kind == RefKind::New && r.receiver.is_none() && matches!(r.name.as_str(), "super" | "this") {
            return self.explicit_constructor(r, from_class);
        }

        match r.receiver.as_deref() {
            None => match self.lookup_unqualified(r, fi, from_class) {
                Some(v) if !v.is_empty() => {
                    // The name is bound in scope: to a callable (done), or to a variable or
                    // a non-callable, which a same-named definition elsewhere cannot be.
                    return exact(v).unwrap_or((RefStatus::Unresolved, vec![]));
                }
                _ => {
                    // Bound by an import: outside the workspace (`from collections import
                    // Counter`), or to what no workspace symbol of that name can be.
                    if self.binds(&r.file_path, &r.name) {
                        let outside = self.binding(&r.file_path, &r.name) == Some(Target::External);
                        return (if outside { RefStatus::External } else { RefStatus::Unresolved }, vec![]);
                    }
                    // A builtin of the language that nothing in scope redefines.
                    if is_builtin(fi.lang, &r.name) {
                        return (RefStatus::External, vec![]);
                    }
                    // A global constant no workspace file defines: a gem's (Ruby).
                    if fi.rules.open_constants && is_constant(&r.name) && !self.defines_constant(fi.fam, &r.name) {
                        return (RefStatus::External, vec![]);
                    }
                    // A command no workspace function defines: a program (shell).
                    if fi.rules.programs_outside && r.kind == RefKind::Call {
                        return (RefStatus::External, vec![]);
                    }
                    // Implicit `this` in a class that inherits from outside: the outside
                    // base's member (`start()` in a `Thread`).
                    if fi.rules.implicit_this
                        && r.kind != RefKind::New
                        && self.enclosing_classes(from_class).any(|c| self.inherits_outside(self.syms[c].id))
                    {
                        return (RefStatus::External, vec![]);
                    }
                    // Modules that share no namespace: a bare name that no scope, import
                    // or wildcard import of the file binds is a builtin or a global (`set`,
                    // `Map`, `Error`), never another module's definition.
                    if fi.rules.closed_modules && r.kind != RefKind::Reference {
                        return (RefStatus::Unresolved, vec![]);
                    }
                }
            },
            Some(recv) => {
                let recv = recv.trim();
                // (the manifest's implicit receiver too: PHP `$this`)
                let is_self = matches!(recv, "self" | "this" | "cls" | "Self" | "this.constructor")
                    || fi.lang.info().receiver.as_deref() == Some(recv)
                    || fi.rules.self_names.contains(&recv);
                let is_super = recv == "super" || recv.starts_with("super(") || fi.rules.super_names.contains(&recv);
                if is_super {
                    // `super(C, self)`: the hierarchy above C, which may be an ancestor of
                    // the enclosing class
                    let named = recv
                        .strip_prefix("super(")
                        .and_then(|a| a.split([',', ')']).next())
                        .map(str::trim)
                        .filter(|a| !a.is_empty())
                        .and_then(|a| self.lookup_type(&r.file_path, fi, a, from_class));
                    return self.super_member(r, named.or(from_class), exact);
                }
                if is_self {
                    if let Some(c) = from_class {
                        let found: Vec<usize> = {
                            self.member(self.syms[c].id, &r.name)
                        };
                        if found.is_empty() && self.inherits_outside(self.syms[c].id) {
                            // `self.assertEqual()` in a `unittest.TestCase`: the outside
                            // base's member.
                            return (RefStatus::External, vec![]);
                        }
                        if let Some(x) = exact(found) {
                            return x;
                        }
                    }
                } else if let Some(t) = r.receiver_type.as_deref().filter(|_| !matches!(r.kind, RefKind::Inherits | RefKind::Implements)) {
                    if let Some(c) = self.lookup_type(&r.file_path, fi, t, from_class) {
                        // A workspace class without that member: not some other class's
                        // same-named method (an outside base may have it).
                        return self.member_of(c, &r.name, exact);
                    }
                    // A builtin type (`s: str`, `String s`) or one imported from outside.
                    if self.outside(&r.file_path, fi, type_root(t)) {
                        return (RefStatus::External, vec![]);
                    }
                } else if let Some(target) = self.lookup_path(&r.file_path, fi, recv, from_class) {
                    let found = match target {
                        // `np.linalg.norm`: reached through a module outside the workspace.
                        Target::External => return (RefStatus::External, vec![]),
                        Target::File(f) => match self.export_of(&f, &r.name, 0) {
                            Some(Target::Symbol(i)) => vec![i],
                            _ => vec![],
                        },
                        Target::Package(files) => files
                            .iter()
                            .flat_map(|f| self.top.get(&(f.clone(), r.name.clone())).cloned().unwrap_or_default())
                            .collect(),
                        Target::Symbol(i) if self.syms[i].label == Label::Class => return self.member_of(i, &r.name, exact),
                        Target::Symbol(_) => vec![],
                    };
                    // The receiver is a module or a class of the workspace: what it lacks is
                    // not a same-named method of some other class.
                    return exact(found).unwrap_or((RefStatus::Unresolved, vec![]));
                } else if let Some(found) = self.qualified(r, fi, recv) {
                    // `util::log()`, `kv::Store::make()`: a path of namespaces (C++) written
                    // from the caller's namespace or from the top.
                    return exact(found).unwrap_or((RefStatus::Unresolved, vec![]));
                } else {
                    let root = recv.split(['.', '(', '[', ':']).next().unwrap_or("");
                    if self.binds(&r.file_path, root) {
                        // The receiver's root is an import that does not lead into the
                        // workspace's definitions: an outside module's member.
                        return (RefStatus::Unresolved, vec![]);
                    }
                    // `console.log`, `Object.keys`, `Math.max`, `str.join`, `std::mem`: a
                    // builtin's member. (A plain name path only: what a builtin call
                    // returns, `type(self)` or `getattr(…)`, may be anything.)
                    if is_name_path(recv) && self.outside(&r.file_path, fi, root) {
                        return (RefStatus::External, vec![]);
                    }
                    // `Thor::Group`, `Concurrent::Map.new`: rooted at a global constant no
                    // workspace file defines (Ruby).
                    if fi.rules.open_constants && is_name_path(recv) && is_constant(root) && !self.defines_constant(fi.fam, root) {
                        return (RefStatus::External, vec![]);
                    }
                }
            }
        }

        // Heuristic: the same name elsewhere in the family.
        *by_name = true;
        let cands: Vec<usize> = self
            .by_name
            .get(&r.name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| accept(i) && self.sym_fam[i] == fi.fam)
            .filter(|&i| {
                let s = &self.syms[i];
                if wants_type {
                    return true;
                }
                // `obj.m()` calls a method; a bare `f()` a function or a constructor.
                if r.receiver.is_some() { s.label == Label::Method } else { s.label != Label::Method || fi.rules.bare_calls_reach_methods }
            })
            .collect();
        // Past this many, only the argument count is weighed (the count stays true, the
        // nearest are kept): a name like `get` has hundreds of definitions.
        let cands = if cands.len() > 8 * MAX_AMBIGUOUS {
            self.by_arity(cands, r.arity)
        } else {
            let cands = self.by_arity(self.one_per_open_class(self.prefer_definitions(self.collapse_redefinitions(cands))), r.arity);
            self.by_argument_types(cands, r, fi)
        };
        match cands.len() {
            0 => (RefStatus::Unresolved, vec![]),
            1 => (RefStatus::Inferred, cands),
            _ => (RefStatus::Ambiguous, cands),
        }
    }

    /// The definitions a receiver path and the site's name spell as a qualified name (in
    /// the language's separator), from the namespaces around the caller outwards: in
    /// `kv::Store::put`, `util::log()` is `kv::Store::util::log`, `kv::util::log` or
    /// `util::log`.
    fn qualified(&self, r: &RefRow, fi: &FileInfo, recv: &str) -> Option<Vec<usize>> {
        let sep = fi.lang.info().separator.as_str();
        if !is_name_path(recv) {
            return None;
        }
        let path = format!("{recv}{sep}{}", r.name);
        let caller = r.from_node.and_then(|f| self.by_id.get(&f)).map(|&i| self.syms[i].qualified_name.as_str()).unwrap_or("");
        let mut scope = caller;
        loop {
            let q = if scope.is_empty() { path.clone() } else { format!("{scope}{sep}{path}") };
            if let Some(v) = self.by_qname.get(&q) {
                return Some(v.clone());
            }
            if scope.is_empty() {
                return None;
            }
            scope = scope.rsplit_once(sep).map_or("", |(s, _)| s);
        }
    }

    /// `super().m()`, `super(C, self).m()`, `super.m()`: the next definition up the
    /// hierarchy — the first base, in declared order, that has `m` itself or through its
    /// own bases (Python's MRO for the common shapes, the chain elsewhere). Never a
    /// sibling, a subclass or the caller itself: what the bases lack is `external` when one
    /// is outside the workspace, otherwise unresolved, and no same-named method elsewhere.
    fn super_member(
        &self,
        r: &RefRow,
        from_class: Option<usize>,
        exact: impl Fn(Vec<usize>) -> Option<(RefStatus, Vec<usize>)>,
    ) -> (RefStatus, Vec<usize>) {
        let Some(c) = from_class else { return (RefStatus::Unresolved, vec![]) };
        let id = self.syms[c].id;
        let caller = r.from_node;
        for b in self.bases_classes_first(id) {
            if b == id {
                continue;
            }
            let found: Vec<usize> = self.member(b, &r.name).into_iter().filter(|&i| Some(self.syms[i].id) != caller).collect();
            if !found.is_empty() {
                return exact(found).unwrap_or((RefStatus::Unresolved, vec![]));
            }
        }
        if self.inherits_outside(id) {
            return (RefStatus::External, vec![]);
        }
        (RefStatus::Unresolved, vec![])
    }

    /// The bases of a class, its superclasses (in declared order) before its interfaces:
    /// a class's members come before an interface's default methods.
    fn bases_classes_first(&self, id: i64) -> Vec<i64> {
        let mut v: Vec<i64> = self.bases.get(&id).cloned().unwrap_or_default();
        v.sort_by_key(|b| self.is_interface(*b));
        v
    }

    fn is_interface(&self, id: i64) -> bool {
        self.by_id.get(&id).is_some_and(|&i| self.syms[i].kind.as_deref() == Some("interface"))
    }

    /// `super(…)` / `this(…)`: the class named by the first superclass (not an
    /// interface) or the caller's own class. A superclass outside the workspace (or the
    /// implicit root class) is `external`.
    fn explicit_constructor(&self, r: &RefRow, from_class: Option<usize>) -> (RefStatus, Vec<usize>) {
        let Some(c) = from_class else { return (RefStatus::Unresolved, vec![]) };
        if r.name == "this" {
            return (RefStatus::Exact, vec![c]);
        }
        let id = self.syms[c].id;
        let sup = self.bases.get(&id).into_iter().flatten().filter(|&&b| b != id && !self.is_interface(b)).find_map(|b| self.by_id.get(b));
        match sup {
            Some(&s) => (RefStatus::Exact, vec![s]),
            None => (RefStatus::External, vec![]),
        }
    }

    /// Among several candidates, the overloads whose parameters take the call's number of
    /// arguments (fixed arity before variadic), where the language has overloads (its
    /// redefinitions do not collapse). When none fits (an unknown signature, a
    /// parameter list too long to keep), the candidates stay as they were.
    fn by_arity(&self, v: Vec<usize>, arity: Option<u32>) -> Vec<usize> {
        let Some(n) = arity else { return v };
        if v.len() < 2 || v.iter().any(|&i| self.sym_rules[i].redefinitions_collapse) {
            return v;
        }
        let fits = |i: usize| self.sym_arity[i].is_none_or(|(min, max)| min <= n && max.is_none_or(|m| n <= m));
        let fit: Vec<usize> = v.iter().copied().filter(|&i| fits(i)).collect();
        if fit.is_empty() {
            return v;
        }
        let fixed: Vec<usize> = fit.iter().copied().filter(|&i| self.sym_arity[i].is_some_and(|(_, max)| max == Some(n))).collect();
        if fixed.is_empty() || fixed.len() == fit.len() { fit } else { fixed }
    }

    /// Among several overloads, those whose parameter types accept the site's argument
    /// types (`RefRow::arg_types`, where the language has [`navegador_model::Overloads`]):
    /// each known argument costs nothing on a parameter of its type, more through a
    /// conversion (widening, boxing, in the language's order), a subtype (the workspace
    /// hierarchy), a type parameter, the top type (`Object`), and excludes the overload when
    /// it cannot convert (an `int` to a `Supplier`, a `String` to a workspace class, a class
    /// whose whole hierarchy is known to a type outside it). Unknown arguments and
    /// parameters exclude nothing. The cheapest overloads stay; when every one is excluded
    /// the candidates stay as they were.
    fn by_argument_types(&self, v: Vec<usize>, r: &RefRow, fi: &FileInfo) -> Vec<usize> {
        let (Some(args), Some(ov)) = (r.arg_types.as_deref(), fi.lang.info().overloads.as_ref()) else { return v };
        if v.len() < 2 {
            return v;
        }
        let args: Vec<&str> = args.split(',').map(str::trim).collect();
        let from_class = r.from_node.and_then(|f| self.enclosing_class(f));
        let costs: Vec<Option<u32>> = v.iter().map(|&i| self.overload_cost(i, &args, r, fi, from_class, ov)).collect();
        let Some(best) = costs.iter().flatten().min().copied() else { return v };
        v.iter().zip(&costs).filter(|(_, c)| **c == Some(best)).map(|(&i, _)| i).collect()
    }

    /// What passing `args` to overload `i` costs (see [`Table::by_argument_types`]); `None`
    /// when an argument cannot be passed.
    fn overload_cost(
        &self,
        i: usize,
        args: &[&str],
        r: &RefRow,
        fi: &FileInfo,
        from_class: Option<usize>,
        ov: &navegador_model::Overloads,
    ) -> Option<u32> {
        let s = &self.syms[i];
        let Some(sig) = s.signature.as_deref() else { return Some(UNKNOWN) };
        let Some(params) = signature_params(sig, &s.name) else { return Some(UNKNOWN) };
        let type_params = self.type_parameters(i, sig);
        let variadic = params.last().is_some_and(|p| p.contains("..."));
        let mut cost = 0;
        for (k, a) in args.iter().enumerate() {
            if a.is_empty() {
                continue;
            }
            let (p, spread) = match params.get(k) {
                Some(p) if !(variadic && k + 1 == params.len() && !(args.len() == params.len() && a.ends_with("[]"))) => (param_type(p), false),
                _ if variadic => (param_type(params.last()?).trim_end_matches("[]").to_string(), true),
                _ => return None,
            };
            cost += self.argument_cost(a, &p, r, fi, from_class, i, &type_params, ov)? + if spread { VARIADIC } else { 0 };
        }
        Some(cost)
    }

    /// What passing an argument of type `a` (as written at the site) to a parameter of
    /// type `p` (as written in overload `i`) costs; `None` when it cannot.
    #[allow(clippy::too_many_arguments)]
    fn argument_cost(
        &self,
        a: &str,
        p: &str,
        r: &RefRow,
        fi: &FileInfo,
        from_class: Option<usize>,
        i: usize,
        type_params: &[String],
        ov: &navegador_model::Overloads,
    ) -> Option<u32> {
        if p.is_empty() {
            return Some(UNKNOWN);
        }
        if a == p || last_segment(a) == last_segment(p) && a.ends_with("[]") == p.ends_with("[]") {
            return Some(0);
        }
        let prim = |t: &str| ov.primitives.iter().any(|x| x == t);
        let is_var = |t: &str| type_params.iter().any(|x| x == t);
        let top = ov.top.as_deref().is_some_and(|t| t == p || p.ends_with(&format!(".{t}")));
        if let Some((_, to)) = ov.converts.iter().find(|(from, _)| from == a) {
            if let Some(k) = to.iter().position(|t| t == p) {
                return Some(CONVERT + k as u32);
            }
        }
        match (a.strip_suffix("[]"), p.strip_suffix("[]")) {
            (Some(ae), Some(pe)) => {
                // Arrays of primitives match exactly; of references, as their elements do.
                return if prim(ae) || prim(pe) { None } else { self.argument_cost(ae, pe, r, fi, from_class, i, type_params, ov) };
            }
            (Some(_), None) => return (top || is_var(p)).then_some(TOP).or((!prim(p) && self.class_of_param(p, i).is_none()).then_some(UNKNOWN)),
            (None, Some(_)) => return None,
            (None, None) => {}
        }
        if prim(a) {
            // a primitive reaches a reference type by boxing only
            let boxed = ov.converts.iter().find(|(from, _)| from == a).and_then(|(_, to)| to.iter().find(|t| !prim(t)));
            return match boxed {
                _ if top => Some(TOP + CONVERT),
                _ if is_var(p) => Some(TYPE_VAR + CONVERT),
                Some(b) if self.class_of_param(p, i).is_none() && !prim(p) => (b.as_str() == last_segment(p)).then_some(CONVERT).or(Some(UNKNOWN)),
                _ => None,
            };
        }
        if prim(p) {
            return None;
        }
        if top {
            return Some(TOP);
        }
        if is_var(p) {
            return Some(TYPE_VAR);
        }
        let ac = self.lookup_type(&r.file_path, fi, a, from_class);
        let pc = self.class_of_param(p, i);
        match (ac, pc) {
            (Some(ac), Some(pc)) if ac == pc => Some(0),
            (Some(ac), Some(pc)) => match self.ancestor_depth(self.syms[ac].id, self.syms[pc].id) {
                Some(d) => Some(SUBTYPE + d),
                None if self.inherits_outside(self.syms[ac].id) => Some(UNKNOWN),
                None => None,
            },
            // a workspace class whose whole hierarchy is known is no outside type
            (Some(ac), None) => self.inherits_outside(self.syms[ac].id).then_some(UNKNOWN),
            // an outside type (`String`) is no workspace class
            (None, Some(_)) if self.outside(&r.file_path, fi, type_root(a)) => None,
            _ => Some(UNKNOWN),
        }
    }

    /// The class a parameter type of overload `i` names, seen from its declaration.
    fn class_of_param(&self, p: &str, i: usize) -> Option<usize> {
        let s = &self.syms[i];
        let fi = self.files.get(&s.file_path)?;
        let class = s.parent.and_then(|p| self.by_id.get(&p)).copied().filter(|&c| self.syms[c].label == Label::Class);
        self.lookup_type(&s.file_path, fi, p, class)
    }

    /// How many steps up the hierarchy `ancestor` is from `class` (breadth first).
    fn ancestor_depth(&self, class: i64, ancestor: i64) -> Option<u32> {
        let mut seen: HashSet<i64> = HashSet::default();
        let mut level = vec![class];
        for d in 1..16 {
            let next: Vec<i64> = level.iter().flat_map(|c| self.bases.get(c).into_iter().flatten().copied()).filter(|b| seen.insert(*b)).collect();
            if next.contains(&ancestor) {
                return Some(d);
            }
            if next.is_empty() {
                return None;
            }
            level = next;
        }
        None
    }

    /// The type parameters overload `i` sees: its own (`<T> T f(T x)`) and those of the
    /// classes around it (`class ArrayList<E>`).
    fn type_parameters(&self, i: usize, sig: &str) -> Vec<String> {
        let mut out = Vec::new();
        let name = &self.syms[i].name;
        // a method's own list comes before its return type, after modifiers only
        // (lower-case words): `public static <T> T f(…)`, not `List<String> f(…)`
        if let Some(at) = sig.find(&format!("{name}(")) {
            let head = &sig[..at];
            if head.find('<').is_some_and(|o| head[..o].split_whitespace().all(|w| w.chars().all(|c| c.is_ascii_lowercase()))) {
                out.extend(type_parameter_list(head));
            }
        }
        let mut cur = self.syms[i].parent;
        for _ in 0..16 {
            let Some(&c) = cur.and_then(|p| self.by_id.get(&p)) else { break };
            let cs = &self.syms[c];
            if let Some(sig) = cs.signature.as_deref() {
                // `class ArrayList<E> extends …`: the list right after the name
                if let Some(rest) = sig.find(cs.name.as_str()).map(|at| sig[at + cs.name.len()..].trim_start()).filter(|r| r.starts_with('<')) {
                    out.extend(type_parameter_list(rest));
                }
            }
            cur = cs.parent;
        }
        out
    }

    /// A member of a workspace class as a site binds it: found, or `external` when the
    /// class inherits from outside the workspace, or `unresolved`.
    fn member_of(
        &self,
        class: usize,
        name: &str,
        exact: impl Fn(Vec<usize>) -> Option<(RefStatus, Vec<usize>)>,
    ) -> (RefStatus, Vec<usize>) {
        let id = self.syms[class].id;
        let found = self.member(id, name);
        if found.is_empty() && (self.inherits_outside(id) || self.reopens_builtin(class)) {
            return (RefStatus::External, vec![]);
        }
        exact(found).unwrap_or((RefStatus::Unresolved, vec![]))
    }

    /// A class that reopens a builtin of its language where classes are open (Ruby's
    /// `class File` in a core extension): the builtin has what the reopening lacks.
    fn reopens_builtin(&self, class: usize) -> bool {
        let s = &self.syms[class];
        self.sym_rules[class].open_constants && self.files.get(&s.file_path).is_some_and(|f| is_builtin(f.lang, &s.qualified_name))
    }

    /// Whether a workspace file of the family defines a class, module or constant of this
    /// (last) name.
    fn defines_constant(&self, fam: Fam, name: &str) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|v| v.iter().any(|&i| self.sym_fam[i] == fam && matches!(self.syms[i].label, Label::Class | Label::Variable)))
    }

    /// A class and the classes it is nested in, innermost first.
    fn enclosing_classes(&self, class: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(class, |&c| self.syms[c].parent.and_then(|p| self.enclosing_class(p))).take(16)
    }

    /// Whether a class or one of its workspace ancestors names a base outside the
    /// workspace: any part of it, where classes are open (`@interface C : NSObject` in a
    /// header, `@implementation C` elsewhere).
    fn inherits_outside(&self, class_id: i64) -> bool {
        let mut seen = HashSet::default();
        let mut queue = vec![class_id];
        while let Some(c) = queue.pop() {
            if !seen.insert(c) || seen.len() > 64 {
                continue;
            }
            if self.outside.contains(&c) {
                return true;
            }
            queue.extend(self.bases.get(&c).into_iter().flatten());
            if let Some(&ci) = self.by_id.get(&c).filter(|&&ci| self.sym_rules[ci].open_classes) {
                queue.extend(self.parts(ci));
            }
        }
        false
    }

    /// Where redefinitions collapse ([`Rules::redefinitions_collapse`]), the definitions of
    /// one name in one scope are one callee: keep the last of each (file, parent, name)
    /// group. Elsewhere same-named methods are distinct overloads and stay apart.
    fn collapse_redefinitions(&self, v: Vec<usize>) -> Vec<usize> {
        if v.len() < 2 {
            return v;
        }
        let mut last: HashMap<(&str, Option<i64>, &str), usize> = HashMap::default();
        let mut keep = Vec::with_capacity(v.len());
        for &i in &v {
            let s = &self.syms[i];
            if !self.sym_rules[i].redefinitions_collapse || !matches!(s.label, Label::Function | Label::Method) {
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
        !name.is_empty() && self.imports.get(file).into_iter().flatten().any(|imp| self.local_name(imp) == Some(name))
    }

    /// The local name an import binds.
    fn local_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        Some(match (&imp.alias, &imp.name) {
            (Some(a), _) => a.as_str(),
            (None, Some(n)) if n != "*" => {
                if !self.sys(self.files.get(&imp.file_path)?.fam).binds_name(imp) {
                    return None;
                }
                n.rsplit(['.', ':']).next().unwrap_or(n)
            }
            (None, _) => self.sys(self.files.get(&imp.file_path)?.fam).bare_import_name(imp)?,
        })
    }

    /// A bare name: enclosing scopes, the file, its imports, the family's implicit scopes.
    fn lookup_unqualified(&self, r: &RefRow, fi: &FileInfo, from_class: Option<usize>) -> Option<Vec<usize>> {
        let name = r.name.as_str();
        // Nested definitions of the enclosing functions.
        // (Where a bare name reaches members, a method filed under a function is a member of
        // an anonymous or local class declared in it: `new Iterator<E>() { … }`.)
        let mut cur = r.from_node;
        while let Some(id) = cur {
            let s = &self.syms[*self.by_id.get(&id)?];
            let in_function = matches!(s.label, Label::Function | Label::Method);
            let found: Vec<usize> = self
                .children
                .get(&id)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&i| self.syms[i].name == name && (self.syms[i].label != Label::Method || (in_function && fi.rules.implicit_this)))
                .collect();
            if !found.is_empty() {
                return Some(found);
            }
            if s.label == Label::Class {
                break;
            }
            cur = s.parent;
        }
        // Implicit `this`: the members of the class, then of the classes around it.
        if fi.rules.implicit_this && r.kind != RefKind::New {
            // (a base named in a class's head is a type: a member that is not a class, the
            // base's own constructor, is no candidate — and would flip as bases are found)
            let types_only = matches!(r.kind, RefKind::Inherits | RefKind::Implements);
            for c in self.enclosing_classes(from_class) {
                let mut m = self.member(self.syms[c].id, name);
                if types_only {
                    m.retain(|&i| self.syms[i].label == Label::Class);
                }
                if !m.is_empty() {
                    return Some(m);
                }
            }
        }
        if let Some(v) = self.top.get(&(r.file_path.clone(), name.to_string())) {
            return Some(v.clone());
        }
        if let Some(t) = self.binding_at(&r.file_path, name, r.line) {
            return match t {
                Target::Symbol(i) => Some(vec![i]),
                _ => None,
            };
        }
        // The rest of the package, and the program's shared namespace.
        let sys = self.sys(fi.fam);
        if let Some(pkg) = sys.package_of(&r.file_path, fi.module.as_deref()) {
            let around = sys.enclosing_packages(&pkg);
            for p in std::iter::once(pkg).chain(around) {
                if let Some(found) = self.pkg_top.get(&(fi.fam, p, name.to_string())) {
                    return Some(self.one_per_open_class(found.clone()));
                }
            }
        }
        for pkg in sys.implicit_packages() {
            if let Some(found) = self.pkg_top.get(&(fi.fam, pkg.to_string(), name.to_string())) {
                return Some(found.clone());
            }
        }
        let found = sys.shared_globals(self, &r.file_path, name);
        if !found.is_empty() {
            return Some(found);
        }
        // Wildcard imports, and imports of a group of a module's exports.
        for imp in self.imports.get(&r.file_path).into_iter().flatten() {
            if imp.name.as_deref().is_some_and(|n| n != "*") && imp.alias.is_none() && !sys.binds_name(imp) {
                if let Some(t) = self.import_target(imp) {
                    let found = sys.group_members(self, imp, &t, name);
                    if !found.is_empty() {
                        return Some(found);
                    }
                }
                continue;
            }
            if imp.name.as_deref() == Some("*") && imp.alias.is_none() {
                if let Some(Some(t)) = self.import_targets.get(&imp.id) {
                    let files: Vec<String> = match t {
                        Target::File(f) => vec![f.clone()],
                        Target::Package(fs) => fs.clone(),
                        Target::Symbol(_) | Target::External => vec![],
                    };
                    let found: Vec<usize> = files
                        .iter()
                        .flat_map(|f| match self.top.get(&(f.clone(), name.to_string())) {
                            Some(v) => v.clone(),
                            None if fi.rules.wildcard_reexports => match self.export_of(f, name, 1) {
                                Some(Target::Symbol(i)) => vec![i],
                                _ => vec![],
                            },
                            None => vec![],
                        })
                        .collect();
                    if !found.is_empty() {
                        return Some(found);
                    }
                }
            }
        }
        // A name the family qualifies (PHP's namespaces, Ruby's nested constants).
        let scope = from_class.map(|c| self.syms[c].qualified_name.as_str());
        for q in sys.qualified_candidates(self, &r.file_path, scope, name) {
            if let Some(v) = self.by_qname.get(&q) {
                return Some(self.canonical(fi.fam, &r.file_path, &q, v.clone()));
            }
        }
        None
    }

    /// Several classes of one qualified name: the one the family's module loading picks
    /// from `file` ([`ModuleSystem::canonical_class`]), if it picks one.
    fn canonical(&self, fam: Fam, file: &str, qname: &str, v: Vec<usize>) -> Vec<usize> {
        let classes: Vec<usize> = v.iter().copied().filter(|&i| self.syms[i].label == Label::Class).collect();
        if classes.len() < 2 {
            return v;
        }
        match self.sys(fam).canonical_class(self, file, qname, &classes) {
            Some(c) => vec![c],
            None => v,
        }
    }

    /// What a local name bound by an import denotes.
    fn binding(&self, file: &str, name: &str) -> Option<Target> {
        self.binding_at(file, name, 0)
    }

    /// What a local name bound by an import denotes at a line: where several imports bind
    /// it (`from .testing import FlaskClient as cls` in one function, `… FlaskCliRunner as
    /// cls` in the next), the nearest one before the line; otherwise (or at line 0) the
    /// first.
    fn binding_at(&self, file: &str, name: &str, line: u32) -> Option<Target> {
        let mut pick: Option<&ImportRow> = None;
        for imp in self.imports.get(file).into_iter().flatten() {
            if self.local_name(imp) != Some(name) {
                continue;
            }
            match pick {
                None => pick = Some(imp),
                Some(p) if line > 0 && imp.line <= line && imp.line >= p.line => pick = Some(imp),
                Some(_) => {}
            }
            if line == 0 {
                break;
            }
        }
        self.sys(self.files.get(file)?.fam).bound_target(self, pick?)
    }

    /// A dotted receiver (`os.path`, `models.User`, `pkg`) -> what it denotes.
    fn lookup_path(&self, file: &str, fi: &FileInfo, path: &str, from_class: Option<usize>) -> Option<Target> {
        // A path the family qualifies: a class (`Models\Item`, `Shop::Order`) or a
        // namespace (PHP `\A\B\f()`).
        let scope = from_class.map(|c| self.syms[c].qualified_name.as_str());
        for q in self.sys(fi.fam).qualified_candidates(self, file, scope, path) {
            if let Some(c) = self.unique_class(&q) {
                return Some(Target::Symbol(c));
            }
            if let [c] = self.canonical(fi.fam, file, &q, self.by_qname.get(&q).cloned().unwrap_or_default())[..] {
                if self.syms[c].label == Label::Class {
                    return Some(Target::Symbol(c));
                }
            }
            if let Some(files) = self.module_files(fi.fam, &q) {
                return Some(Target::Package(files.clone()));
            }
        }
        let sep = if path.contains("::") { "::" } else { "." };
        let mut segs = path.split(sep);
        let first = segs.next()?;
        if !first.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return None;
        }
        let mut cur = if let Some(t) = self.binding(file, first) {
            self.through_value(t)
        } else if let Some(&v) =
            self.top.get(&(file.to_string(), first.to_string())).and_then(|v| v.iter().find(|&&i| self.value_class(i).is_some()))
        {
            self.through_value(Target::Symbol(v))
        } else if let Some(t) = self.sys(fi.fam).implicit_module(self, file, first) {
            t
        } else if let Some(c) = self.lookup_type(file, fi, first, from_class) {
            Target::Symbol(c)
        } else {
            return None;
        };
        for seg in segs {
            cur = match cur {
                // A name of an outside module is outside; what one of its calls returns
                // may be anything.
                Target::External if is_name_path(seg) => Target::External,
                Target::External => return None,
                Target::File(f) => {
                    let sub = self.files.get(&f).and_then(|x| self.sys(x.fam).submodule(self, &f, seg));
                    match sub {
                        Some(sf) => Target::File(sf),
                        None => self.through_value(Target::Symbol(*self.top.get(&(f, seg.to_string()))?.first()?)),
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

    /// Whether a name, as this file sees it, is outside the workspace: bound by an import
    /// that leads outside, or a builtin that no import or definition of the file binds.
    fn outside(&self, file: &str, fi: &FileInfo, name: &str) -> bool {
        if name.is_empty() {
            return false;
        }
        if self.binds(file, name) {
            return self.binding(file, name) == Some(Target::External);
        }
        is_builtin(fi.lang, name) && !self.top.contains_key(&(file.to_string(), name.to_string()))
    }

    /// A type name as written in this file -> a class.
    pub(crate) fn lookup_type(&self, file: &str, fi: &FileInfo, name: &str, from_class: Option<usize>) -> Option<usize> {
        let name = name.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim();
        let name = name.split(['<', '[']).next()?.trim();
        if name.contains('.') || name.contains("::") {
            if let Some(c) = self.unique_class(name) {
                return Some(c);
            }
            let (recv, last) = name.rsplit_once("::").or_else(|| name.rsplit_once('.'))?;
            return match self.lookup_path(file, fi, recv, from_class)? {
                Target::File(f) => self.top.get(&(f, last.to_string()))?.iter().copied().find(|&i| self.syms[i].label == Label::Class),
                Target::Package(fs) => fs.iter().find_map(|f| self.top.get(&(f.clone(), last.to_string()))?.iter().copied().find(|&i| self.syms[i].label == Label::Class)),
                Target::Symbol(i) => self.member(self.syms[i].id, last).into_iter().find(|&x| self.syms[x].label == Label::Class),
                Target::External => None,
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
            arity: None,
            arg_types: None,
        };
        let found: Vec<usize> = self
            .lookup_unqualified(&r, fi, from_class)
            .unwrap_or_default()
            .into_iter()
            .filter(|&i| self.syms[i].label == Label::Class)
            .collect();
        let found = self.one_per_open_class(found);
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
    /// variable's own file by its plain name (`apps = Apps()`: the extractor records the
    /// callee as `class_name`).
    /// Same file only: a change to that class is a change to the variable's file, which
    /// re-resolves every site bound to the variable.
    fn value_class(&self, i: usize) -> Option<usize> {
        let s = &self.syms[i];
        if s.label != Label::Variable {
            return None;
        }
        // A plain name: a dotted one would be looked up through paths that come back here.
        let ty = s.class_name.as_deref().filter(|t| !t.contains('.'))?;
        let owner = s.parent.and_then(|p| self.enclosing_class(p));
        let c = self.lookup_type(&s.file_path, self.files.get(&s.file_path)?, ty, owner)?;
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
            if s.parent.is_none_or(|p| self.namespaces.contains(&p)) {
                if let (Label::Method, Some(cn)) = (s.label, &s.class_name) {
                    let fam = self.sym_fam[i];
                    let dir = s.file_path.rsplit_once('/').map_or("", |(d, _)| d);
                    let cands: Vec<usize> = self
                        .by_name
                        .get(cn)
                        .into_iter()
                        .flatten()
                        .copied()
                        .filter(|&k| self.syms[k].label == Label::Class && self.sym_fam[k] == fam)
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
    /// The superclass chain is searched before interfaces: a class's member hides an
    /// interface's default method of the same name, however near the interface is.
    pub(crate) fn member(&self, class_id: i64, name: &str) -> Vec<usize> {
        let mut skipped = false;
        let found = self.member_in(class_id, name, Some(&mut skipped));
        if found.is_empty() && skipped { self.member_in(class_id, name, None) } else { found }
    }

    /// The members a type declares itself (slots): its children, and the methods declared
    /// away from it that belong to it (Go receivers in its package directory).
    pub(crate) fn own_members(&self, ci: usize) -> Vec<usize> {
        let cls = &self.syms[ci];
        let mut out: Vec<usize> = self.children.get(&cls.id).into_iter().flatten().copied().collect();
        if let Some(det) = self.detached.get(&(self.sym_fam[ci], cls.name.clone())) {
            let in_package = self.sym_rules[ci].detached_methods_in_package;
            let dir = cls.file_path.rsplit_once('/').map_or("", |(d, _)| d);
            out.extend(det.iter().copied().filter(|&i| {
                !in_package || self.syms[i].file_path.rsplit_once('/').map_or("", |(d, _)| d) == dir
            }));
        }
        out
    }

    /// [`Table::member`]'s search; with `classes_only`, interfaces are not entered (and
    /// the flag says whether one was passed by).
    fn member_in(&self, class_id: i64, name: &str, mut classes_only: Option<&mut bool>) -> Vec<usize> {
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
            let parts = self.parts(ci);
            let mut hits: Vec<usize> = parts
                .iter()
                .flat_map(|p| self.children.get(p).into_iter().flatten().copied())
                .filter(|&i| self.syms[i].name == name)
                .collect();
            if let Some(det) = self.detached.get(&(self.sym_fam[ci], cls.name.clone())) {
                let in_package = self.sym_rules[ci].detached_methods_in_package;
                let dir = cls.file_path.rsplit_once('/').map_or("", |(d, _)| d);
                hits.extend(det.iter().copied().filter(|&i| {
                    let s = &self.syms[i];
                    s.name == name && (!in_package || s.file_path.rsplit_once('/').map_or("", |(d, _)| d) == dir)
                }));
            }
            if !hits.is_empty() {
                found_level = Some(level);
                out.extend(hits.into_iter().map(|h| (level, h)));
                continue;
            }
            for b in parts.iter().flat_map(|p| self.bases.get(p).into_iter().flatten()) {
                if let Some(flag) = classes_only.as_deref_mut() {
                    if self.is_interface(*b) && !self.is_interface(c) {
                        *flag = true;
                        continue;
                    }
                }
                queue.push_back((*b, level + 1));
            }
        }
        out.sort();
        out.into_iter().map(|(_, i)| i).collect()
    }
}

/// The arguments a declaration takes, read off its signature: the parameter list right
/// after the name, split at top-level commas. A parameter with a default (`x=1`) or
/// marked optional (`x?: T`) is not required; a variadic one (`Object... a`, `a ...int`,
/// `*args`, `...rest`) makes the count open; a trailing comma is no parameter. `None` when
/// no whole list is found.
fn signature_arity(sig: &str, name: &str) -> Option<(u32, Option<u32>)> {
    let params = param_list(sig, name)?;
    // (a Rust receiver, `&self`, is not an argument of `x.m()`)
    // (an empty piece is `()` or a trailing comma, `f(a, b,)`: gofmt, rustfmt, Dart and
    // Kotlin style write one after a multi-line list)
    let params: Vec<&str> = params
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty() && !matches!(p.trim_start_matches(['&', ' ']).trim_start_matches("mut "), "self"))
        .collect();
    if params.is_empty() {
        return Some((0, Some(0)));
    }
    let variadic = params.iter().any(|p| p.contains("...") || p.starts_with('*'));
    let optional = |p: &str| p.contains('=') || p.split(':').next().is_some_and(|n| n.trim_end().ends_with('?'));
    let fixed = params.iter().filter(|p| !(p.contains("...") || p.starts_with('*'))).count() as u32;
    let required = params.iter().filter(|p| !(p.contains("...") || p.starts_with('*') || optional(p))).count() as u32;
    Some((required, (!variadic).then_some(fixed)))
}

/// The pieces of a signature's parameter list right after `name` (the name as a whole
/// word, then `(`), split at top-level commas, as written (untrimmed; `[""]` for `()`).
fn param_list(sig: &str, name: &str) -> Option<Vec<String>> {
    let open = sig.match_indices(name).find_map(|(at, _)| {
        let rest = &sig[at + name.len()..];
        let before_ok = sig[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
        let trimmed = rest.trim_start();
        (before_ok && trimmed.starts_with('(')).then(|| at + name.len() + (rest.len() - trimmed.len()))
    })?;
    let mut depth = 0i32;
    let mut params: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in sig[open..].chars() {
        match c {
            '(' | '[' | '{' | '<' => {
                depth += 1;
                if depth > 1 {
                    cur.push(c);
                }
            }
            ')' | ']' | '}' | '>' => {
                depth -= 1;
                if depth == 0 {
                    params.push(std::mem::take(&mut cur));
                    return Some(params);
                }
                cur.push(c);
            }
            ',' if depth == 1 => params.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    None
}

/// Costs of passing an argument ([`Table::by_argument_types`]): exact 0, then these.
const CONVERT: u32 = 10;
const SUBTYPE: u32 = 10;
const TYPE_VAR: u32 = 30;
const UNKNOWN: u32 = 35;
const TOP: u32 = 40;
const VARIADIC: u32 = 50;

/// The parameters of a declaration as written, from its signature's parameter list right
/// after the name, split at top-level commas (`[]` for none).
fn signature_params(sig: &str, name: &str) -> Option<Vec<String>> {
    Some(param_list(sig, name)?.iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect())
}

/// A parameter's type as an argument type is written: `final Map<K, V> m` -> `Map`,
/// `int[] a` -> `int[]`, `Object... xs` -> `Object[]`; empty when it cannot tell.
fn param_type(p: &str) -> String {
    let mut s = p.trim();
    // modifiers and annotations before the type
    loop {
        let t = s.trim_start();
        if let Some(rest) = t.strip_prefix("final ") {
            s = rest;
        } else if t.starts_with('@') {
            s = t.find(' ').map_or("", |k| &t[k + 1..]);
        } else {
            s = t;
            break;
        }
    }
    // drop the name (the last word), keep what is before it
    let Some(cut) = s.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')) else { return String::new() };
    let ty = s[..=cut].trim();
    let variadic = ty.ends_with("...");
    let ty = ty.trim_end_matches("...").trim();
    // cut generics anywhere (`Map.Entry<K, V>[]` -> `Map.Entry[]`)
    let mut out = String::new();
    let mut depth = 0;
    for c in ty.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    if variadic {
        out.push_str("[]");
    }
    out
}

/// The names a `<T, U extends Comparable<? super U>>` list declares, from the first `<`
/// of `s` (none when `s` has none before a `(`).
fn type_parameter_list(s: &str) -> Vec<String> {
    let Some(open) = s.find('<') else { return Vec::new() };
    if s[..open].contains('(') {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    let mut cur = String::new();
    for c in s[open..].chars() {
        match c {
            '<' => {
                depth += 1;
                if depth == 1 {
                    expect = true;
                }
            }
            '>' => {
                depth -= 1;
                if depth == 0 {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                    break;
                }
            }
            ',' if depth == 1 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                expect = true;
            }
            c if depth == 1 && expect && (c.is_alphanumeric() || c == '_' || c == '$') => cur.push(c),
            c if depth == 1 && expect && c.is_whitespace() && cur.is_empty() => {}
            _ if depth == 1 && expect => {
                expect = false;
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => {}
        }
    }
    out
}

/// `a.b.C` -> `C` (an array's `[]` stays).
fn last_segment(t: &str) -> &str {
    t.rsplit('.').next().unwrap_or(t)
}

/// A constant's name (`Foo`): it starts with an upper-case letter.
fn is_constant(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase())
}

/// `a.b.c` or `a::b`: names only, no call or index.
fn is_name_path(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':'))
}

/// The first name of a type as written (`&mut Vec<T>` -> `Vec`, `np.ndarray` -> `np`).
fn type_root(ty: &str) -> &str {
    let ty = ty.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim();
    let end = ty.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(ty.len());
    &ty[..end]
}

/// Normalizes `a/./b/../c` -> `a/c`; `None` when it climbs above the root.
pub(crate) fn normalize(p: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    #[test]
    fn arity_from_signatures() {
        // (signature, name, (required, fixed or None when variadic))
        let cases = [
            ("void add(int a, int b)", "add", Some((2, Some(2)))),
            ("func (c *Cart) Add(\n\titem Item,\n\tqty int,\n) error", "Add", Some((2, Some(2)))),
            ("fn new(&mut self, a: u32,)", "new", Some((1, Some(1)))),
            ("def f(a, b=1, *args)", "f", Some((1, None))),
            ("function g(x?: number, ...rest)", "g", Some((0, None))),
            ("int h()", "h", Some((0, Some(0)))),
            ("void m(Map<K, V> m, List<T> l)", "m", Some((2, Some(2)))),
            ("int broken(int a", "broken", None),
        ];
        for (sig, name, want) in cases {
            assert_eq!(super::signature_arity(sig, name), want, "{sig}");
        }
    }
}

/// The words of a name as imports and definitions write it (`a.b::C`, `a/b`, `A\B`): its
/// runs of letters, digits, `_` and `$`.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).filter(|w| !w.is_empty())
}
