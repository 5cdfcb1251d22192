//! Resolution: binds imports, calls, callbacks and base classes to the definitions they
//! name, across files, and says how sure each binding is.
//!
//! `table.rs` holds the symbol table and the generic rules (scopes, class hierarchies,
//! dotted paths, the by-name fallback); each language family's module system is one file
//! implementing [`system::ModuleSystem`] (`python.rs`, `js.rs`, `jvm.rs`, `go.rs`,
//! `rust.rs`, `c.rs` for C and C++, `swift.rs`, `dotnet.rs` for C#, `php.rs`, `ruby.rs`, `perl.rs`;
//! Kotlin shares `jvm.rs`); `structural.rs` derives Go's implicit `IMPLEMENTS` edges from
//! method sets after every site is resolved. This file decides which sites an ingest re-resolves and writes
//! what they bind to.
//!
//! The symbol table is rebuilt from the store (this transaction's view), so full and
//! incremental ingests resolve with the same code; an incremental ingest only re-resolves
//! the sites that a change can affect: sites in changed files, sites whose target was
//! removed, and sites elsewhere whose name was defined or bound in a changed file.

mod beam;
mod c;
mod dart;
mod dotnet;
mod elixir;
mod go;
mod graphql;
mod haskell;
mod js;
mod julia;
mod jvm;
mod lua;
mod ocaml;
mod perl;
mod php;
mod proto;
mod python;
mod r;
mod ruby;
mod rust;
mod shell;
mod structural;
mod swift;
mod system;
mod table;
mod zig;

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use navegador_model::{EdgeType, RefKind, Resolution};
use navegador_store::{ImportRow, IngestTx, RefRow, RefStatus, StoreError};

use crate::ingest::Changes;
pub(crate) use system::Config;
pub(crate) use js::extensions as js_extensions;
use table::{Table, Target};

pub(crate) struct ResolveStats {
    pub edges: u64,
    pub outcomes: BTreeMap<String, u64>,
    /// (path, language) of files no module system reads: their sites stay unresolved.
    pub unknown: Vec<(String, String)>,
}

/// The package `Module` node of a file, by (language name, path, declared module), if its
/// family has packages (`ingest.rs` derives those nodes from the files table).
pub(crate) fn package_nodes() -> impl Fn(&str, &str, Option<&str>) -> Option<String> {
    let systems = system::systems(&Config::default());
    move |language, path, module| {
        let name = system::family_name(navegador_lang::registry().by_name(language)?);
        systems.iter().find(|s| s.name() == name)?.package_node(path, module)
    }
}

/// The symbol table a long-lived process (the MCP server's live index) keeps between
/// ingests, patched from each edit's changed files instead of reloaded from the store. It
/// is trusted only while the store's `table_stamp` is the one the ingest that left it
/// wrote (any other writer of the graph changes or drops the stamp), under the same
/// resolver configuration.
#[derive(Default)]
pub struct Resident {
    kept: Option<(String, String, Table)>,
    /// The files the last ingest's walk and reader left out (`IngestReport::skipped` but
    /// the knowledge files'), for an ingest told only the changed paths.
    pub(crate) walk_skipped: Vec<(String, String)>,
}

impl Resident {
    /// The `table_stamp` the ingest that left this table wrote, if it holds one.
    pub(crate) fn stamp(&self) -> Option<&str> {
        self.kept.as_ref().map(|(s, _, _)| s.as_str())
    }
}

/// A patched table with more removed slots than this (and than live ones) is reloaded.
const MAX_DEAD: usize = 200_000;

pub(crate) fn resolve(
    tx: &IngestTx<'_>,
    full: bool,
    changes: &Changes,
    cfg: &Config,
    resident: Option<Resident>,
) -> Result<(ResolveStats, Resident), StoreError> {
    let t0 = std::time::Instant::now();
    let stamp = tx.meta("table_stamp")?;
    let fingerprint = cfg.fingerprint();
    // What each import the edit may have moved led to before it, by key, where the
    // resident table knows it: the imports whose target moved tell which files' sites to
    // redo whole (`resolve_with`), and one whose target stayed is not written again.
    let mut before: Option<HashMap<i64, TargetKey>> = None;
    // Without one, the targets the store holds, where they were taken as the known ones.
    let mut stored_before: Option<HashMap<i64, TargetKey>> = None;
    let mut t = match resident.and_then(|r| r.kept) {
        Some((kept_stamp, kept_cfg, mut t))
            if !full && stamp.as_deref() == Some(kept_stamp.as_str()) && kept_cfg == fingerprint && t.dead() < MAX_DEAD.max(t.syms.len()) =>
        {
            let mut forgotten = t.patch(tx, &changes.files)?;
            forgotten.extend(forget_reshaped(&mut t, changes));
            before = Some(forgotten.into_iter().collect());
            tracing::info!(elapsed = ?t0.elapsed(), files = changes.files.len(), "resident symbol table patched");
            t
        }
        _ => {
            let mut t = Table::load(tx, cfg)?;
            // Without a resident table, the targets the last ingest recorded stand in for
            // the kept ones after an edit that moved no file's shape (valid while its
            // `table_stamp` stands: a Cypher write drops it), less those the edit may move
            // (`forget_reshaped`). They are also what a re-resolved import is compared
            // with: one whose target moved has its file's sites redone.
            if !full && stamp.is_some() && changes.whole.is_empty() {
                let stored = stored_targets(tx)?;
                seed_targets(&mut t, &stored);
                let paths: Vec<&String> = changes.files.iter().collect();
                t.forget_targets(&paths);
                forget_reshaped(&mut t, changes);
                stored_before = Some(stored);
            }
            tracing::info!(elapsed = ?t0.elapsed(), known = t.import_targets.len(), "symbol table loaded from the store");
            t
        }
    };
    let stamp = new_stamp();
    tx.set_meta("table_stamp", &stamp)?;
    let mut stats = ResolveStats { edges: 0, outcomes: BTreeMap::new(), unknown: t.unknown.clone() };
    for (path, language) in &stats.unknown {
        tracing::warn!(path, language, "no module system reads this language: its references are not resolved");
    }
    tracing::info!(elapsed = ?t0.elapsed(), symbols = t.syms.len(), "symbol table loaded");
    resolve_with(tx, &mut t, full, changes, before.as_ref(), stored_before, &mut stats, t0)?;
    write_derived_implements(tx, &t, &mut stats)?;
    tracing::info!(elapsed = ?t0.elapsed(), "structural interfaces derived");
    Ok((stats, Resident { kept: Some((stamp, fingerprint, t)), walk_skipped: Vec::new() }))
}

/// What an edit that moved a file's interface leaves of the known import targets: after
/// one that moved only definitions and bindings, all but those naming a touched name
/// ([`Table::forget_naming`]); after one that moved a file's shape (`Changes::whole`: its
/// bases, declared module or a wildcard re-export, or a file came or went), none: any
/// import may now read it.
/// Returns the targets forgotten, by import.
fn forget_reshaped(t: &mut Table, changes: &Changes) -> Vec<(i64, TargetKey)> {
    if changes.reshaped.is_empty() {
        Vec::new()
    } else if changes.whole.is_empty() {
        t.forget_naming(&changes.touched_names())
    } else {
        t.forget_all_targets()
    }
}

/// The import targets the store holds (`imp_target`), by import id.
fn stored_targets(tx: &IngestTx<'_>) -> Result<HashMap<i64, TargetKey>, StoreError> {
    Ok(tx.stored_import_targets()?.into_iter().filter_map(|(id, k)| Some((id, TargetKey::decode(&k)?))).collect())
}

/// Takes the targets recorded for the table's imports where the table still holds what
/// they name (the rest are resolved again).
fn seed_targets(t: &mut Table, stored: &HashMap<i64, TargetKey>) {
    let found: Vec<(i64, Option<Target>)> =
        t.imports.values().flatten().filter_map(|imp| Some((imp.id, stored.get(&imp.id)?.target(t)?))).collect();
    t.import_targets.extend(found);
}

/// A value no other ingest wrote: the process, the clock and a counter.
fn new_stamp() -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}-{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// An import's target as stable across a patch of the table: a symbol by its node id
/// (its slot may be taken by another), files by path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TargetKey {
    None,
    External,
    File(String),
    Symbol(i64),
    Package(Vec<String>),
}

impl TargetKey {
    /// The stored form (`IngestTx::set_import_target`): a tag, then tab-separated values.
    fn encode(&self) -> String {
        match self {
            TargetKey::None => "n".into(),
            TargetKey::External => "x".into(),
            TargetKey::File(f) => format!("f\t{f}"),
            TargetKey::Symbol(id) => format!("s\t{id}"),
            TargetKey::Package(fs) => format!("p\t{}", fs.join("\t")),
        }
    }

    fn decode(s: &str) -> Option<TargetKey> {
        let (tag, rest) = s.split_once('\t').unwrap_or((s, ""));
        Some(match tag {
            "n" => TargetKey::None,
            "x" => TargetKey::External,
            "f" => TargetKey::File(rest.to_string()),
            "s" => TargetKey::Symbol(rest.parse().ok()?),
            "p" => TargetKey::Package(rest.split('\t').map(str::to_string).collect()),
            _ => return None,
        })
    }

    /// The target this key names in `t`, if `t` still holds it (`None`: resolve again).
    fn target(&self, t: &Table) -> Option<Option<Target>> {
        Some(match self {
            TargetKey::None => None,
            TargetKey::External => Some(Target::External),
            TargetKey::File(f) => Some(Target::File(t.files.contains_key(f).then(|| f.clone())?)),
            TargetKey::Symbol(id) => Some(Target::Symbol(*t.by_id.get(id)?)),
            TargetKey::Package(fs) => {
                if !fs.iter().all(|f| t.files.contains_key(f)) {
                    return None;
                }
                Some(Target::Package(fs.clone()))
            }
        })
    }

    fn of(t: &Table, target: &Option<Target>) -> TargetKey {
        match target {
            None => TargetKey::None,
            Some(Target::External) => TargetKey::External,
            Some(Target::File(f)) => TargetKey::File(f.clone()),
            Some(Target::Symbol(i)) => TargetKey::Symbol(t.syms[*i].id),
            Some(Target::Package(fs)) => TargetKey::Package(fs.clone()),
        }
    }
}

fn resolve_with(
    tx: &IngestTx<'_>,
    t: &mut Table,
    full: bool,
    changes: &Changes,
    targets_before: Option<&HashMap<i64, TargetKey>>,
    stored: Option<HashMap<i64, TargetKey>>,
    stats: &mut ResolveStats,
    t0: std::time::Instant,
) -> Result<(), StoreError> {
    // Imports are resolved again where the table does not know their target (every one
    // after a load or an edit that moved a file's shape; after a comment or a body edit,
    // the edited files' own and those leading into them: `Table::patch`; after a new
    // definition or a rename, also those naming what it touched: `forget_reshaped`); only the
    // import edges that differ from the stored ones are rewritten, and only those of the
    // re-resolved imports and their files are compared when that is not all of them.
    // (Sorted by file, line and id: the order edges are written in.)
    let sorted = |mut v: Vec<ImportRow>| {
        v.sort_by(|a, b| (&a.file_path, a.line, a.id).cmp(&(&b.file_path, b.line, b.id)));
        v
    };
    let every = t.import_targets.is_empty();
    let total = t.imports.values().map(Vec::len).sum::<usize>();
    // What the store holds for each import (`imp_target`) when all are resolved again
    // after an edit: a target that did not move is not written again. (A resident table's
    // targets before the edit are what the last ingest wrote; else the stored ones, read
    // here when no known target was taken from them.)
    let stored = match stored {
        Some(s) => Some(s),
        None => (every && !full && targets_before.is_none()).then(|| stored_targets(tx)).transpose()?,
    };
    let written = targets_before.or(stored.as_ref());
    let todo = sorted(t.imports.values().flatten().filter(|imp| !t.import_targets.contains_key(&imp.id)).cloned().collect());
    let mut redone: HashSet<i64> = HashSet::default();
    // The files with an import whose target moved: their sites are redone whole.
    let mut moved_from: HashSet<String> = HashSet::default();
    for imp in &todo {
        let target = t.resolve_import(imp, 0);
        let key = TargetKey::of(t, &target);
        if written.and_then(|w| w.get(&imp.id)) != Some(&key) {
            tx.set_import_target(imp.id, &key.encode())?;
            moved_from.insert(imp.file_path.clone());
        }
        t.import_targets.insert(imp.id, target);
        redone.insert(imp.id);
    }
    // The import edges of the files of the re-resolved imports (all after a load) are
    // made again.
    let mut of_files: Vec<String> = todo.iter().map(|imp| imp.file_path.clone()).collect();
    of_files.dedup();
    let imports: Vec<ImportRow> = if every { todo } else { sorted(of_files.iter().filter_map(|p| t.imports.get(p)).flatten().cloned().collect()) };
    for p in &of_files {
        redone.insert(t.files[p].node);
    }
    let mut file_edges: HashSet<(i64, i64)> = HashSet::default();
    let mut want: Vec<(i64, i64, u32)> = Vec::new();
    for imp in &imports {
        let target = t.import_targets[&imp.id].clone();
        let Some(target) = target else { continue };
        let from_file = &t.files[&imp.file_path];
        let (dst, dst_file) = match &target {
            Target::External => continue,
            Target::File(p) => (t.files[p].node, Some(p.clone())),
            Target::Symbol(i) => (t.syms[*i].id, Some(t.syms[*i].file_path.clone())),
            Target::Package(files) => match files.first() {
                Some(p) => (t.files[p].node, None),
                None => continue,
            },
        };
        if every || redone.contains(&imp.id) {
            want.push((imp.id, dst, imp.line));
        }
        let targets: Vec<String> = match target {
            Target::Package(files) => files,
            _ => dst_file.into_iter().collect(),
        };
        for p in targets {
            let to = t.files[&p].node;
            if to != from_file.node && file_edges.insert((from_file.node, to)) {
                want.push((from_file.node, to, imp.line));
            }
        }
    }
    let only: Option<Vec<i64>> = (!every).then(|| {
        let mut v: Vec<i64> = redone.iter().copied().collect();
        v.sort();
        v
    });
    write_import_edges(tx, stats, &want, only.as_deref())?;
    drop(imports);

    tracing::info!(elapsed = ?t0.elapsed(), imports = total, redone = if every { total } else { redone.len() - of_files.len() }, "imports resolved");

    // Whether an import leads outside the workspace depends on the roots its files provide
    // (`numpy` is outside until a `numpy/` package appears): imports through a root that
    // came or went are re-resolved with their files' sites.
    let roots = t.root_lines();
    let before = tx.meta("module_roots")?;
    let before: HashSet<&str> = before.as_deref().unwrap_or_default().lines().collect();
    let after: HashSet<&str> = roots.iter().map(String::as_str).collect();
    let moved: HashSet<&str> = before.symmetric_difference(&after).copied().collect();
    let crossed: Vec<String> = if full || moved.is_empty() {
        Vec::new()
    } else {
        t.imports
            .values()
            .flatten()
            .filter(|imp| t.import_root(imp).is_some_and(|(fam, root)| moved.contains(format!("{fam}\t{root}").as_str())))
            .map(|imp| imp.file_path.clone())
            .collect()
    };
    tx.set_meta("module_roots", &roots.join("\n"))?;
    // Likewise an import from a package no workspace file declares is outside (Java): the
    // files importing from a package whose first file appeared or last one went.
    let packages = t.package_lines();
    let before = tx.meta("declared_packages")?;
    let before: HashSet<&str> = before.as_deref().unwrap_or_default().lines().collect();
    let after: HashSet<&str> = packages.iter().map(String::as_str).collect();
    let moved: HashSet<&str> = before.symmetric_difference(&after).copied().collect();
    let mut crossed = crossed;
    if !full && !moved.is_empty() {
        crossed.extend(t.imports.values().flatten().filter(|imp| t.import_packages(imp).iter().any(|p| moved.contains(p.as_str()))).map(|imp| imp.file_path.clone()));
    }
    tx.set_meta("declared_packages", &packages.join("\n"))?;

    // Which sites to (re)resolve: all of a full build; otherwise those in changed files, in
    // files that import a changed file whose interface moved (before or after the change:
    // `Changes::reshaped`; a body edit moves none) or import through a
    // root that came or went, whose target was removed, or whose name, receiver root or
    // receiver type is defined or bound in a changed file.
    let refs: Vec<RefRow> = if full {
        // Nothing to clear on a first build; after a tsconfig change, everything. The
        // sites are then read page by page (a kernel has millions), bases first.
        tx.clear_all_resolution()?;
        t.bases = Default::default();
        let mut bases = Vec::new();
        let mut after = 0;
        loop {
            let page = tx.refs_page(true, after, 50_000)?;
            let Some(last) = page.last() else { break };
            after = last.id;
            bases.extend(page);
        }
        resolve_bases(tx, t, stats, &bases)?;
        let mut after = 0;
        loop {
            let page = tx.refs_page(false, after, 50_000)?;
            let Some(last) = page.last() else { break };
            after = last.id;
            for r in &page {
                let b = bound(t, r);
                write(tx, stats, r, &b)?;
            }
        }
        tracing::info!(elapsed = ?t0.elapsed(), "all sites resolved");
        return Ok(());
    } else {
        // Importers matter only where what they see of a file changed (`Changes::reshaped`).
        // Knowing each import's target before and after (a resident table), only the
        // importers of a file whose shape moved (`Changes::whole`) and the files with an
        // import whose target moved are redone whole; the rest of a new function's or a
        // rename's reach is picked by name below.
        let changed: HashSet<&str> = match targets_before {
            Some(_) => changes.whole.iter().map(String::as_str).collect(),
            None => changes.reshaped.iter().map(String::as_str).collect(),
        };
        let mut files: HashSet<String> = changes.files.iter().cloned().collect();
        files.extend(match targets_before {
            Some(_) => changes.whole_importers.iter().cloned(),
            None => changes.importers.iter().cloned(),
        });
        files.extend(crossed);
        files.extend(moved_from);
        for imp in t.imports.values().flatten().filter(|_| !changed.is_empty()) {
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
        t.bases = Default::default();
        for (class, base) in tx.hierarchy()? {
            t.bases.entry(class).or_default().push(base);
        }
        // (Statuses of the cleared sites are rewritten below.)
        let cleared: HashSet<i64> = refs.iter().filter(|r| is_base(r)).filter_map(|r| r.from_node).collect();
        t.outside = tx.classes_with_external_bases()?.into_iter().filter(|c| !cleared.contains(c)).collect();
        refs
    };
    tracing::info!(elapsed = ?t0.elapsed(), refs = refs.len(), "sites selected");
    // Bases first: method lookups through `self` walk the hierarchy.
    let (bases, mut other): (Vec<RefRow>, Vec<RefRow>) = refs.into_iter().partition(is_base);
    resolve_bases(tx, t, stats, &bases)?;
    other.extend(through_moved_bases(tx, t, changes, &bases, &other)?);
    for r in &other {
        let b = bound(t, r);
        write(tx, stats, r, &b)?;
    }
    Ok(())
}

/// The sites an incremental ingest must redo besides `selected` because a base of a class
/// in an unchanged file came or went (a file defining it was added or deleted: the class's
/// base site was picked by the name it writes), which no import need tell (Perl's
/// `use parent -norequire`, `@ISA`): the sites that reach members through the hierarchy of
/// that class or of its descendants — in the files declaring them, and those naming one of
/// them (by name, qualified name or its root, or as a receiver's type). Their resolution is
/// cleared here.
fn through_moved_bases(
    tx: &IngestTx<'_>,
    t: &Table,
    changes: &Changes,
    bases: &[RefRow],
    selected: &[RefRow],
) -> Result<Vec<RefRow>, StoreError> {
    let changed: HashSet<&str> = changes.files.iter().map(String::as_str).collect();
    let mut classes: Vec<i64> = bases.iter().filter(|r| !changed.contains(r.file_path.as_str())).filter_map(|r| r.from_node).collect();
    // And a class of an edited file whose bases now resolve otherwise (a base it named
    // was defined in the same file and went: `use base qw(A B)` with package B cut), or
    // that went: it and the classes of its qualified name (an open class's other parts,
    // `@interface C : NSObject` deleted beside `@implementation C`).
    for (&class, (qname, before)) in &changes.bases_before {
        let mut now: Vec<i64> = t.bases.get(&class).cloned().unwrap_or_default();
        if t.outside.contains(&class) {
            now.push(0);
        }
        now.sort_unstable();
        now.dedup();
        let kept = t.by_id.contains_key(&class);
        if kept && now == *before {
            continue;
        }
        if kept {
            classes.push(class);
        }
        classes.extend(t.by_qname.get(qname).into_iter().flatten().map(|&i| t.syms[i].id).filter(|&c| c != class));
    }
    if classes.is_empty() {
        return Ok(Vec::new());
    }
    let mut below: HashMap<i64, Vec<i64>> = HashMap::default();
    for (&c, bs) in &t.bases {
        for &b in bs {
            below.entry(b).or_default().push(c);
        }
    }
    let mut seen: HashSet<i64> = classes.iter().copied().collect();
    let mut at = 0;
    while at < classes.len() {
        for &d in below.get(&classes[at]).into_iter().flatten() {
            if seen.insert(d) {
                classes.push(d);
            }
        }
        at += 1;
    }
    let (mut files, mut names) = (Vec::new(), Vec::new());
    for c in &classes {
        let Some(&i) = t.by_id.get(c) else { continue };
        let s = &t.syms[i];
        files.push(s.file_path.clone());
        names.push(s.name.clone());
        names.push(s.qualified_name.clone());
        // (a receiver's root, as the store keeps it: `Shop` of `Shop::Cart`)
        let end = s.qualified_name.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(s.qualified_name.len());
        names.push(s.qualified_name[..end].to_string());
    }
    files.sort();
    files.dedup();
    names.sort();
    names.dedup();
    let named = tx.ref_ids_named(&names)?;
    let have: HashSet<i64> = bases.iter().chain(selected).map(|r| r.id).collect();
    let more: Vec<RefRow> = tx.refs(Some(&files), &named)?.into_iter().filter(|r| !is_base(r) && !have.contains(&r.id)).collect();
    tx.clear_resolution(&more.iter().map(|r| r.id).collect::<Vec<_>>())?;
    Ok(more)
}

/// Makes the stored import edges (Import -> target, File -> File) exactly `want`
/// ((src, dst, line), all `exact`, column 0): deletes the stored ones not wanted, inserts
/// the wanted ones not stored. An edit that moves no import writes none.
/// With `only`, the edges of those sources alone (`want` holds no other).
fn write_import_edges(tx: &IngestTx<'_>, stats: &mut ResolveStats, want: &[(i64, i64, u32)], only: Option<&[i64]>) -> Result<(), StoreError> {
    let mut have: rustc_hash::FxHashMap<(i64, i64, u32), Vec<i64>> = Default::default();
    let mut stale = Vec::new();
    let stored = match only {
        Some(srcs) => tx.import_edges_from(srcs)?,
        None => tx.import_edges()?,
    };
    for (id, src, dst, line, resolution, col) in stored {
        match line {
            Some(line) if resolution.as_deref() == Some(Resolution::Exact.as_str()) && col == Some(0) => {
                have.entry((src, dst, line)).or_default().push(id)
            }
            _ => stale.push(id),
        }
    }
    let mut new = Vec::new();
    for &(src, dst, line) in want {
        match have.get_mut(&(src, dst, line)).and_then(Vec::pop) {
            Some(_) => {}
            None => new.push((src, dst, line)),
        }
    }
    stale.extend(have.into_values().flatten());
    tx.delete_edges(&stale)?;
    for (src, dst, line) in new {
        tx.insert_edge(src, dst, EdgeType::Imports, Some(Resolution::Exact), Some((line, 0)), None)?;
    }
    // (Counted as resolved this time, as when every import edge was rewritten.)
    stats.edges += want.len() as u64;
    Ok(())
}

/// Makes the stored `IMPLEMENTS` edges derived from method sets ([`structural`]) exactly
/// those the resolved table implies, each `inferred` (methods match by name and arity, not
/// by their types) at the implementing type's line: deletes the stale ones, inserts the
/// new ones. Derived from the whole table every time, so incremental equals clean.
fn write_derived_implements(tx: &IngestTx<'_>, t: &Table, stats: &mut ResolveStats) -> Result<(), StoreError> {
    let want = structural::implements(t);
    let mut have: rustc_hash::FxHashMap<(i64, i64), Vec<i64>> = Default::default();
    let mut stale = Vec::new();
    for (id, src, dst, line, now) in tx.derived_implements()? {
        if line.is_some() && line == now {
            have.entry((src, dst)).or_default().push(id);
        } else {
            stale.push(id); // the type moved (or went): written again where it is
        }
    }
    let mut new = Vec::new();
    for &pair in &want {
        if have.get_mut(&pair).and_then(Vec::pop).is_none() {
            new.push(pair);
        }
    }
    stale.extend(have.into_values().flatten());
    tx.delete_edges(&stale)?;
    for (src, dst) in new {
        let line = tx.node_line(src)?.unwrap_or(0);
        tx.insert_edge(src, dst, EdgeType::Implements, Some(Resolution::Inferred), Some((line, 0)), None)?;
    }
    stats.edges += want.len() as u64;
    Ok(())
}

fn is_base(r: &RefRow) -> bool {
    matches!(r.kind, RefKind::Inherits | RefKind::Implements)
}

/// More rounds than this and the hierarchy is taken as it stands (a cycle of bases that
/// keeps changing its answer; none is known).
const MAX_BASE_ROUNDS: usize = 8;

/// Resolves base-class sites to a fixed point and writes them. A base named through another
/// class's members (`class Meta(UserCreationForm.Meta)`, found through
/// `UserCreationForm`'s own base) depends on other sites of this list: each round resolves
/// every site against the hierarchy the previous round found, until a round changes
/// nothing, so the answer does not depend on the order the sites come in (a full build
/// reads them by id, an incremental one after the rewritten files' new ids).
fn resolve_bases(tx: &IngestTx<'_>, t: &mut Table, stats: &mut ResolveStats, sites: &[RefRow]) -> Result<(), StoreError> {
    let (known, known_outside) = (t.bases.clone(), t.outside.clone());
    let mut cur: Vec<Bound> = sites.iter().map(|r| bound(t, r)).collect();
    for _ in 0..MAX_BASE_ROUNDS {
        t.bases = known.clone();
        t.outside = known_outside.clone();
        for (r, b) in sites.iter().zip(&cur) {
            if !b.targets.is_empty() {
                t.bases.entry(b.from).or_default().extend(&b.targets);
            }
            if b.status == RefStatus::External {
                // Only a class the site names itself: the store can tell those apart later.
                t.outside.extend(r.from_node);
            }
        }
        let next: Vec<Bound> = sites.iter().map(|r| bound(t, r)).collect();
        if next == cur {
            break;
        }
        cur = next;
    }
    // The bases the other sites see are the ones written, even where the rounds did not
    // settle.
    t.bases = known;
    t.outside = known_outside;
    for (r, b) in sites.iter().zip(&cur) {
        if !b.targets.is_empty() {
            t.bases.entry(b.from).or_default().extend(&b.targets);
        }
        if b.status == RefStatus::External {
            t.outside.extend(r.from_node);
        }
        write(tx, stats, r, b)?;
    }
    Ok(())
}

/// What one site binds to: its status, the node the edges start at, their targets, and
/// for an ambiguous site why and among how many.
#[derive(Debug, PartialEq, Eq)]
struct Bound {
    status: RefStatus,
    from: i64,
    targets: Vec<i64>,
    why: Option<table::Ambiguity>,
}

/// Resolves one site (reads the table only).
fn bound(t: &Table, r: &RefRow) -> Bound {
    let (mut status, targets, why) = t.resolve_site(r);
    let mut targets: Vec<i64> = targets.into_iter().map(|i| t.syms[i].id).collect();
    let from = match (r.from_node, r.kind) {
        (Some(f), _) => f,
        // `impl Trait for T` away from T: the implementing class is named, not enclosing.
        (None, RefKind::Inherits | RefKind::Implements) => {
            let class = t.files.get(&r.file_path).and_then(|fi| t.lookup_type(&r.file_path, fi, r.receiver_type.as_deref()?, None));
            match class {
                Some(c) => t.syms[c].id,
                None => {
                    if status != RefStatus::External {
                        status = RefStatus::Unresolved;
                    }
                    targets.clear();
                    0
                }
            }
        }
        (None, _) => t.files.get(&r.file_path).map_or(0, |f| f.node),
    };
    if is_base(r) {
        targets.retain(|&dst| dst != from); // a class is not its own base
    }
    let why = why.filter(|_| status == RefStatus::Ambiguous);
    Bound { status, from, targets, why }
}

/// Writes what a site binds to.
fn write(tx: &IngestTx<'_>, stats: &mut ResolveStats, r: &RefRow, b: &Bound) -> Result<(), StoreError> {
    let ty = match r.kind {
        RefKind::Call | RefKind::New => EdgeType::Calls,
        // A decorator application is a use of the decorator, not a call at run time.
        RefKind::Reference | RefKind::Decorator => EdgeType::References,
        RefKind::Inherits => EdgeType::Inherits,
        RefKind::Implements => EdgeType::Implements,
    };
    let res = match b.status {
        RefStatus::Exact => Resolution::Exact,
        RefStatus::Inferred => Resolution::Inferred,
        _ => Resolution::Ambiguous,
    };
    for &dst in &b.targets {
        match (res, b.why) {
            (Resolution::Ambiguous, Some(w)) => {
                tx.insert_ambiguous_edge(b.from, dst, ty, (r.line, r.col), r.id, w.reason.as_str(), w.candidates)?
            }
            _ => tx.insert_edge(b.from, dst, ty, Some(res), Some((r.line, r.col)), Some(r.id))?,
        }
        stats.edges += 1;
    }
    tx.set_ref_status(r.id, b.status)?;
    if matches!(r.kind, RefKind::Call | RefKind::New) {
        *stats.outcomes.entry(b.status.as_str().to_string()).or_default() += 1;
    }
    Ok(())
}
