//! One ingest: change detection, parallel extraction streamed to the writer, resolution,
//! commit.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

use navegador_lang::{extract, ExtractOptions};
use navegador_model::{EdgeType, FileFacts, Label, Language};
use navegador_store::{FileState, IngestTx, NewNode, Store};
use rayon::prelude::*;
use serde_json::{json, Map, Value};

use crate::walk::{walk, WalkedFile};
use crate::endpoints::{self, Detected};
use crate::{resolve, IndexError};
pub use crate::resolve::Resident;

/// How to ingest.
#[derive(Debug, Clone)]
pub struct IngestConfig {
    /// Drop the code graph first and rebuild it (knowledge nodes stay).
    pub clear: bool,
    /// With `clear`: drop the knowledge layer too (hand-added nodes, links).
    pub clear_all: bool,
    /// Extra globs to leave out, gitignore syntax.
    pub excludes: Vec<String>,
    /// Files larger than this are skipped.
    pub max_file_size: u64,
    /// Threads that read and parse files (`None`: one per core). With one, files are
    /// written in the walk's order, so node ids are the same from run to run.
    pub jobs: Option<usize>,
}

impl Default for IngestConfig {
    fn default() -> Self {
        IngestConfig { clear: false, clear_all: false, excludes: Vec::new(), max_file_size: 1024 * 1024, jobs: None }
    }
}

/// Progress of a long ingest, for a bar or MCP progress notifications.
pub trait Progress: Sync {
    /// A new phase starts; `total` files (or 0 when unknown).
    fn phase(&self, name: &str, total: u64);
    /// `n` more items of the current phase are done.
    fn advance(&self, n: u64);
}

/// Progress that goes nowhere.
pub struct NoProgress;
impl Progress for NoProgress {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// What an ingest did.
#[derive(Debug, Clone, Default)]
pub struct IngestReport {
    /// Files of a supported language seen by the walk.
    pub files_seen: u64,
    /// Files (re)parsed this time.
    pub files_parsed: u64,
    pub files_unchanged: u64,
    pub files_removed: u64,
    pub files_by_language: BTreeMap<String, u64>,
    /// Symbols written this time, by label.
    pub symbols: BTreeMap<String, u64>,
    /// Edges written this time (structural and resolved).
    pub edges: u64,
    /// Reference sites resolved this time, by outcome.
    pub resolution: BTreeMap<String, u64>,
    /// (path, reason) of every file not indexed: code files the walk or the reader left
    /// out, and knowledge files (ADRs, docs, CODEOWNERS) too large or unreadable.
    pub skipped: Vec<(String, String)>,
    /// (path, line, message): files indexed with a problem (syntax error, invalid UTF-8).
    pub diagnostics: Vec<(String, u32, String)>,
    pub duration: Duration,
}

enum Outcome {
    /// Same content as last time (only the mtime moved).
    Unchanged(WalkedFile),
    Parsed(WalkedFile, String, Box<FileFacts>, Option<String>, Box<Detected>),
    Skipped(String, String),
}

/// Indexes `root` into `store`: only what changed since the last ingest is re-parsed.
pub fn ingest(
    root: &Path,
    store: &mut Store,
    cfg: &IngestConfig,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
) -> Result<IngestReport, IndexError> {
    ingest_resident(root, store, cfg, progress, cancel, &mut Resident::default())
}

/// [`ingest`] for a process that ingests the same store again and again (the MCP server's
/// live index): `resident` keeps the symbol table between calls, so an edit reads back only
/// the changed files' definitions. It is left empty when the ingest fails.
pub fn ingest_resident(
    root: &Path,
    store: &mut Store,
    cfg: &IngestConfig,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
    resident: &mut Resident,
) -> Result<IngestReport, IndexError> {
    run(root, store, cfg, progress, cancel, resident, None)
}

/// [`ingest_resident`] told which paths changed since the last ingest through `resident`
/// (a file watcher's events, absolute paths under `root`): only those are looked at, not
/// the whole tree. It walks the whole tree as [`ingest_resident`] does when the list cannot
/// tell (a path new to the index, a directory, an ignore file: see `walk::walk_paths`) or
/// the graph was written by someone else since (its `table_stamp` moved).
pub fn ingest_paths(
    root: &Path,
    store: &mut Store,
    cfg: &IngestConfig,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
    resident: &mut Resident,
    changed: &[std::path::PathBuf],
) -> Result<IngestReport, IndexError> {
    run(root, store, cfg, progress, cancel, resident, Some(changed))
}

fn run(
    root: &Path,
    store: &mut Store,
    cfg: &IngestConfig,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
    resident: &mut Resident,
    changed: Option<&[std::path::PathBuf]>,
) -> Result<IngestReport, IndexError> {
    let mut kept = Some(std::mem::take(resident));
    let started = Instant::now();
    if !root.is_dir() {
        return Err(IndexError::NotADirectory { path: root.to_path_buf() });
    }
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    progress.phase("walking", 0);
    // The paths alone only with a resident state this writer left (and a file list to
    // read the rest from); otherwise the whole tree, before the transaction starts.
    let changed = changed.filter(|_| !cfg.clear && kept.as_ref().is_some_and(|r| r.stamp().is_some()));
    let mut walked = match changed {
        Some(_) => None,
        None => Some(walk(root, &cfg.excludes, cfg.max_file_size)?),
    };

    let mut tx = store.begin()?;
    if cfg.clear {
        tx.clear(cfg.clear_all)?;
    }
    let previous = tx.file_states()?;
    // The changed paths' answer, with every other file as it was.
    let mut partial: Option<Vec<String>> = None;
    if let (None, Some(paths)) = (&walked, changed) {
        let resident = kept.as_ref().expect("checked above");
        let ours = tx.meta("table_stamp")?.as_deref() == resident.stamp();
        let known = |p: &str| previous.contains_key(p);
        let known_under = |d: &str| previous.keys().any(|k| k.len() > d.len() && k.starts_with(d) && k.as_bytes()[d.len()] == b'/');
        let skipped: HashSet<&str> = resident.walk_skipped.iter().map(|(p, _)| p.as_str()).collect();
        let skipped = |p: &str| skipped.contains(p);
        if let Some((files, gone)) = ours.then(|| crate::walk::walk_paths(root, &cfg.excludes, cfg.max_file_size, paths, &known, &known_under, &skipped)).flatten() {
            tracing::info!(paths = paths.len(), files = files.len(), gone = gone.len(), "changed paths looked at (no walk)");
            walked = Some(crate::walk::Walked { files, skipped: resident.walk_skipped.clone() });
            partial = Some(gone);
        }
    }
    let walked = match walked {
        Some(w) => w,
        None => walk(root, &cfg.excludes, cfg.max_file_size)?,
    };
    let mut report = IngestReport { files_seen: walked.files.len() as u64, ..Default::default() };
    report.skipped = walked.skipped;
    // A full build bulk-loads without secondary indexes and builds them once at the end.
    let bulk = previous.is_empty();
    if bulk {
        tx.drop_indexes()?;
    }
    let removed: Vec<String> = match &partial {
        Some(gone) => gone.clone(),
        None => {
            let seen: HashSet<&str> = walked.files.iter().map(|f| f.rel.as_str()).collect();
            previous.keys().filter(|p| !seen.contains(p.as_str())).cloned().collect()
        }
    };
    // A file whose size and mtime are as recorded is unchanged without being read.
    let (candidates, unchanged): (Vec<WalkedFile>, Vec<WalkedFile>) = walked.files.into_iter().partition(|f| {
        previous.get(&f.rel).is_none_or(|s| s.size != f.size || s.mtime_ns != f.mtime_ns)
    });
    for f in &unchanged {
        *report.files_by_language.entry(f.language.as_str().to_string()).or_default() += 1;
    }
    report.files_unchanged = unchanged.len() as u64;
    if partial.is_some() {
        // The files no path named: as they were (not counted by language).
        let looked = report.files_seen as usize + removed.len();
        report.files_unchanged += previous.len().saturating_sub(looked) as u64;
        report.files_seen = (previous.len() - removed.len()) as u64;
    }
    // Something will be written: the store's integrity check runs beside what follows.
    // (Nothing changed: no check, and the commit writes nothing.) A file to read may turn
    // out unchanged or still skipped (a minified file is read again every time): the check
    // starts at the first outcome that writes.
    if cfg.clear || !removed.is_empty() {
        tx.expect_writes();
    }

    let repo_name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "workspace".into());
    let repo_id = tx.repository_node(&repo_name, {
        let mut m = Map::new();
        m.insert("path".into(), json!("."));
        m
    })?;

    let mut changes = Changes::default();
    for path in &removed {
        changes.forget(&tx, path, true)?;
        changes.files.push(path.clone());
    }
    report.files_removed = removed.len() as u64;

    progress.phase("parsing", candidates.len() as u64);
    let opts = ExtractOptions::default();
    // A pool of its own only when asked for a number of threads; otherwise rayon's global one.
    let pool = match cfg.jobs {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| IndexError::Threads { jobs: n, message: e.to_string() })?,
        ),
        None => None,
    };
    let (sender, receiver) = sync_channel::<Outcome>(256);
    let mut write_err: Option<IndexError> = None;
    std::thread::scope(|scope| {
        let prev = &previous;
        scope.spawn(move || {
            let parse = move || {
                candidates.into_par_iter().for_each_with(sender, |s, f| {
                    if cancelled() {
                        return;
                    }
                    let _ = s.send(read_and_extract(f, prev, &opts));
                });
            };
            match pool {
                Some(pool) => pool.install(parse),
                None => parse(),
            }
        });
        for outcome in receiver {
            if write_err.is_some() || cancelled() {
                continue; // drain so the workers can finish
            }
            progress.advance(1);
            if !matches!(&outcome, Outcome::Skipped(path, _) if !previous.contains_key(path)) {
                tx.expect_writes();
            }
            let r = match outcome {
                Outcome::Skipped(path, reason) => {
                    // A file that was indexed before and is now unreadable loses its facts.
                    if previous.contains_key(&path) {
                        match changes.forget(&tx, &path, true) {
                            Ok(()) => changes.files.push(path.clone()),
                            Err(e) => write_err = Some(e.into()),
                        }
                    }
                    report.skipped.push((path, reason));
                    continue;
                }
                Outcome::Unchanged(f) => {
                    *report.files_by_language.entry(f.language.as_str().to_string()).or_default() += 1;
                    report.files_unchanged += 1;
                    tx.touch_file(&f.rel, f.mtime_ns).map_err(IndexError::from)
                }
                Outcome::Parsed(f, hash, facts, utf8_problem, found) => {
                    report.files_parsed += 1;
                    *report.files_by_language.entry(f.language.as_str().to_string()).or_default() += 1;
                    if let Some(p) = utf8_problem {
                        report.diagnostics.push((f.rel.clone(), 0, p));
                    }
                    for d in &facts.diagnostics {
                        report.diagnostics.push((f.rel.clone(), d.line, d.message.clone()));
                    }
                    let mut go = || -> Result<(), IndexError> {
                        let existed = previous.contains_key(&f.rel);
                        if existed {
                            changes.forget(&tx, &f.rel, false)?;
                        }
                        write_file(&tx, repo_id, &f, &hash, &facts, &found, &mut report)?;
                        if !bulk {
                            // (A full build resolves everything; and without indexes this
                            // per-file lookup would scan the whole table.)
                            changes.learn(&tx, &f.rel, !existed)?;
                        }
                        changes.files.push(f.rel.clone());
                        Ok(())
                    };
                    go()
                }
            };
            if let Err(e) = r {
                write_err = Some(e);
            }
        }
    });
    if let Some(e) = write_err {
        return Err(e);
    }
    if cancelled() {
        return Err(IndexError::Cancelled);
    }

    tracing::info!(elapsed = ?started.elapsed(), parsed = report.files_parsed, "parsed and written");
    // Path aliases of tsconfig.json / jsconfig.json steer JS/TS imports (the root's and
    // each one above a JS/TS file); when they or the resolver's rules change, every site is
    // re-resolved.
    // (Over the files there are now: a package whose last file went is no longer one.)
    let files = previous.keys().chain(&changes.files).filter(|p| !changes.gone.contains(*p)).map(String::as_str);
    let resolve_config = resolve::Config::read(root, files);
    let config_key = resolve_config.fingerprint();
    let config_changed = tx.meta("resolve_config")?.as_deref() != Some(config_key.as_str());
    if !changes.files.is_empty() || cfg.clear || config_changed {
        progress.phase("resolving", 0);
        let full = cfg.clear || previous.is_empty() || config_changed;
        let (stats, next) = resolve::resolve(&tx, full, &changes, &resolve_config, kept.take())?;
        kept = Some(next);
        tx.set_meta("resolve_config", &config_key)?;
        report.edges += stats.edges;
        report.resolution = stats.outcomes;
        for (path, language) in stats.unknown {
            report.diagnostics.push((path, 0, format!("language '{language}' has no module system in this version: its references stay unresolved")));
        }
    }
    if !changes.files.is_empty() || cfg.clear {
        report.edges += write_packages(&tx)?;
    }
    if bulk {
        tx.create_indexes()?;
    }
    // Endpoints spanning files (React Router, Django) and every handler link, recomputed
    // from the graph as it now is (needs the indexes).
    if !changes.files.is_empty() || cfg.clear || config_changed {
        let full = cfg.clear || previous.is_empty();
        let (n, edges) = endpoints::derive_and_link(&tx, root, (!full).then_some(&changes.files[..]))?;
        *report.symbols.entry(Label::Endpoint.as_str().to_string()).or_default() += n;
        report.edges += edges;
    }
    // Knowledge layer (needs the indexes): changed ADRs/docs/CODEOWNERS/annotations, links
    // re-attached to the new code ids.
    // What the walk and the reader left out, for the next ingest told the changed paths.
    let walk_skipped = report.skipped.clone();
    let knowledge = navegador_knowledge::sync(&tx, root, &changes.files)?;
    report.diagnostics.extend(knowledge.warnings);
    report.skipped.extend(knowledge.skipped);
    report.skipped.sort();
    tx.replace_skipped(&report.skipped)?;
    if cancelled() {
        return Err(IndexError::Cancelled);
    }
    tracing::info!(elapsed = ?started.elapsed(), "resolved");
    progress.phase("committing", 0);
    tx.commit()?;
    *resident = kept.unwrap_or_default();
    resident.walk_skipped = walk_skipped;
    tracing::info!(elapsed = ?started.elapsed(), "committed");
    report.duration = started.elapsed();
    Ok(report)
}

/// What an incremental ingest changed, for resolution to know what to redo.
#[derive(Default)]
pub(crate) struct Changes {
    /// Files written, rewritten or removed.
    pub files: Vec<String>,
    /// Names whose definitions or bindings in those files differ before and after (see
    /// `touched_names`), and module path segments of files that appeared or disappeared.
    pub names: HashSet<String>,
    before: HashMap<String, Vec<String>>,
    after: HashMap<String, Vec<String>>,
    /// Reference sites elsewhere whose target was removed.
    pub orphaned: Vec<i64>,
    /// Files removed (gone, or now unreadable), among `files`.
    pub gone: HashSet<String>,
    /// The bases of the classes of rewritten and removed files before the edit, by class
    /// node id (a class keeps its id across a rewrite), with its qualified name, sorted,
    /// `0` for one outside the workspace (`IngestTx::bases_in_file`): a class whose bases
    /// resolve otherwise after it, or that went, moves what its subclasses and the other
    /// parts of an open class in other files resolve through
    /// (`resolve::through_moved_bases`).
    pub bases_before: HashMap<i64, (String, Vec<i64>)>,
    /// Files that imported a file whose interface changed (see `reshaped`), before the
    /// change.
    pub importers: HashSet<String>,
    /// Changed files whose interface (what other files can see of them: definitions,
    /// bindings, base classes, declared module) differs before and after, or that
    /// appeared or disappeared. A comment or a body edit leaves a file's interface as it
    /// was: then only its own sites and the sites bound into it are re-resolved.
    pub reshaped: HashSet<String>,
    /// Reshaped files whose change is more than their definitions and bindings (their base
    /// classes, declared module or a wildcard re-export moved, or they came or went), and the files that
    /// imported those before: what a resident table, which can tell which imports' targets
    /// moved, re-resolves whole. A new function or a rename moves a file's definitions
    /// alone: then sites elsewhere are picked by name (`touched_names`) and by the imports
    /// whose target moved.
    pub whole: HashSet<String>,
    pub whole_importers: HashSet<String>,
    /// Interfaces of rewritten files before the change, and their importers then, until
    /// `learn` tells whether the interface moved.
    interface_before: HashMap<String, (Vec<String>, Vec<String>)>,
}

impl Changes {
    /// Removes a file's facts, remembering what depended on them.
    fn forget(&mut self, tx: &IngestTx<'_>, path: &str, gone: bool) -> Result<(), navegador_store::StoreError> {
        let defs = tx.defs_in_file(path)?;
        let importers = tx.importers_of(&[path.to_string()])?;
        if gone {
            self.gone.insert(path.to_string());
            self.names.extend(tx.module_names_of(path)?);
            self.importers.extend(importers.iter().cloned());
            self.whole_importers.extend(importers);
            self.reshaped.insert(path.to_string());
            self.whole.insert(path.to_string());
        } else {
            self.interface_before.insert(path.to_string(), (interface(tx, path, &defs)?, importers));
        }
        for (class, qname, base) in tx.bases_in_file(path)? {
            let (_, v) = self.bases_before.entry(class).or_insert_with(|| (qname, Vec::new()));
            if let Err(at) = v.binary_search(&base) {
                v.insert(at, base);
            }
        }
        for (name, key) in defs {
            self.before.entry(name).or_default().push(key);
        }
        if gone {
            self.orphaned.extend(tx.remove_file(path)?);
        } else {
            // Rewritten in place: the sites elsewhere bound into it stay bound unless
            // `learn` finds their target gone or the file's interface moved.
            tx.rewrite_file(path)?;
        }
        Ok(())
    }

    /// Records what a freshly written file defines.
    fn learn(&mut self, tx: &IngestTx<'_>, path: &str, new: bool) -> Result<(), navegador_store::StoreError> {
        let defs = tx.defs_in_file(path)?;
        match self.interface_before.remove(path) {
            Some((before, importers)) => {
                let now = interface(tx, path, &defs)?;
                let moved = now != before;
                // (A binding of no name, a wildcard re-export, is shape: what the file
                // exports through it has no names to pick sites by.)
                let named = |l: &str| l.strip_prefix("def\t").and_then(|d| d.split('\t').next()).is_some_and(|n| n.contains(|c: char| c.is_alphanumeric() || c == '_'));
                let shape = |v: &[String]| v.iter().filter(|l| !named(l)).cloned().collect::<Vec<_>>();
                let whole = moved && shape(&now) != shape(&before);
                if moved {
                    self.reshaped.insert(path.to_string());
                    self.importers.extend(importers.iter().cloned());
                }
                if whole {
                    self.whole.insert(path.to_string());
                    self.whole_importers.extend(importers);
                }
                // Sites elsewhere bound to a definition that stayed keep their binding
                // unless the file's shape moved: a new candidate for their name picks them
                // by name.
                self.orphaned.extend(tx.finish_rewrite(whole)?);
            }
            None => {
                self.reshaped.insert(path.to_string());
                self.whole.insert(path.to_string());
            }
        }
        for (name, key) in defs {
            self.after.entry(name).or_default().push(key);
        }
        if new {
            self.names.extend(tx.module_names_of(path)?);
        }
        Ok(())
    }

    /// Names whose set of definitions changed: only sites with these names elsewhere can
    /// resolve differently (sites bound to a rewritten definition are `orphaned`).
    pub(crate) fn touched_names(&self) -> HashSet<String> {
        let mut out = self.names.clone();
        for name in self.before.keys().chain(self.after.keys()) {
            let mut a = self.before.get(name).cloned().unwrap_or_default();
            let mut b = self.after.get(name).cloned().unwrap_or_default();
            a.sort();
            b.sort();
            if a != b {
                out.insert(name.clone());
            }
        }
        out
    }
}

/// What resolution elsewhere can see of a file, sorted: its definitions and bindings
/// (`defs`, from [`IngestTx::defs_in_file`]), its base-class sites and its declared
/// module. Equal before and after an edit, no site outside the file can bind differently
/// except those bound into it (which are re-resolved as orphans).
fn interface(tx: &IngestTx<'_>, path: &str, defs: &[(String, String)]) -> Result<Vec<String>, navegador_store::StoreError> {
    let mut out: Vec<String> = defs.iter().map(|(n, k)| format!("def\t{n}\t{k}")).collect();
    out.extend(tx.base_sites_of(path)?.into_iter().map(|b| format!("base\t{b}")));
    out.extend(tx.module_names_of(path)?.into_iter().map(|m| format!("module\t{m}")));
    out.sort();
    Ok(out)
}

/// Reads, sniffs, hashes and (when the content changed) extracts one file. Pure apart from
/// reading the file: safe on the worker pool.
fn read_and_extract(mut f: WalkedFile, previous: &HashMap<String, FileState>, opts: &ExtractOptions) -> Outcome {
    let bytes = match std::fs::read(&f.abs) {
        Ok(b) => b,
        Err(e) => return Outcome::Skipped(f.rel, format!("unreadable: {e}")),
    };
    // The walk went by extension; an extension several packs claim (`.h`) is decided here,
    // by content.
    if let Some(l) = navegador_lang::registry().detect(&f.rel, &bytes) {
        f.language = l;
    }
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Outcome::Skipped(f.rel, "binary (NUL bytes)".into());
    }
    let hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes));
    if previous.get(&f.rel).is_some_and(|s| s.hash == hash) {
        return Outcome::Unchanged(f);
    }
    if looks_minified(&bytes, f.language) {
        return Outcome::Skipped(f.rel, "minified or generated (very long lines)".into());
    }
    let (text, problem) = match String::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(format!("invalid UTF-8 at byte {at}; parsed with replacement characters")))
        }
    };
    let facts = extract(&f.rel, &text, f.language, opts);
    let found = endpoints::detect(&f.rel, f.language, &text, &facts);
    Outcome::Parsed(f, hash, Box::new(facts), problem, Box::new(found))
}

fn looks_minified(bytes: &[u8], lang: Language) -> bool {
    if !lang.info().skip_minified || bytes.len() < 4096 {
        return false;
    }
    let lines = bytecount_newlines(bytes) + 1;
    bytes.len() / lines > 500
}

fn bytecount_newlines(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}

/// Writes one file's facts: File node, symbols, imports, decorators, structural edges and
/// the reference sites resolution will bind.
fn write_file(
    tx: &IngestTx<'_>,
    repo_id: i64,
    f: &WalkedFile,
    hash: &str,
    facts: &FileFacts,
    found: &Detected,
    report: &mut IngestReport,
) -> Result<(), IndexError> {
    let name = f.rel.rsplit('/').next().unwrap_or(&f.rel);
    let lang = f.language.as_str();
    let mut props = Map::new();
    props.insert("path".into(), json!(f.rel));
    props.insert("language".into(), json!(lang));
    props.insert("size".into(), json!(f.size));
    props.insert("line_count".into(), json!(facts.line_count));
    props.insert("content_hash".into(), json!(hash));
    if let Some(m) = &facts.module {
        props.insert("module".into(), json!(m));
    }
    props.extend(found.file_props());
    let file_id = tx.insert_node(&NewNode {
        label: Some(Label::File),
        name,
        qualified_name: Some(&f.rel),
        file_path: Some(&f.rel),
        line_start: Some(1),
        line_end: Some(facts.line_count.max(1)),
        props,
        ..Default::default()
    })?;
    tx.insert_edge(repo_id, file_id, EdgeType::Contains, None, None, None)?;
    report.edges += 1;
    // Parents are written before their children (a Go method may precede its type).
    let depth = |mut i: usize| {
        let mut d = 0;
        while let Some(p) = facts.symbols[i].parent {
            d += 1;
            i = p as usize;
            if d > facts.symbols.len() {
                break; // a malformed cycle: stop rather than loop
            }
        }
        d
    };
    let mut order: Vec<usize> = (0..facts.symbols.len()).collect();
    order.sort_by_key(|&i| (depth(i), i));
    let mut ids: Vec<i64> = vec![0; facts.symbols.len()];
    for &si in &order {
        let s = &facts.symbols[si];
        let mut p = Map::new();
        p.insert("language".into(), json!(lang));
        p.insert("column_start".into(), json!(s.range.start_col));
        p.insert("column_end".into(), json!(s.range.end_col));
        p.insert("name_line".into(), json!(s.name_range.start_line));
        p.insert("name_column".into(), json!(s.name_range.start_col));
        if let Some(k) = s.kind {
            p.insert("kind".into(), json!(k));
        }
        if let Some(c) = &s.class_name {
            p.insert("class_name".into(), json!(c));
        }
        for (k, v) in [("docstring", &s.docstring), ("signature", &s.signature), ("type_annotation", &s.type_annotation)] {
            if let Some(v) = v {
                p.insert(k.into(), json!(v));
            }
        }
        if matches!(s.label, Label::Function | Label::Method | Label::Class | Label::Variable) {
            p.insert("is_exported".into(), json!(s.is_exported));
        }
        if matches!(s.label, Label::Function | Label::Method) {
            p.insert("is_async".into(), json!(s.is_async));
        }
        if s.is_default_export {
            p.insert("is_default_export".into(), json!(true));
        }
        let parent = s.parent.map(|i| ids[i as usize]).filter(|&p| p != 0);
        let id = tx.insert_node(&NewNode {
            label: Some(s.label),
            name: &s.name,
            qualified_name: Some(&s.qualified_name),
            file_path: Some(&f.rel),
            parent,
            line_start: Some(s.range.start_line),
            line_end: Some(s.range.end_line),
            props: p,
        })?;
        ids[si] = id;
        *report.symbols.entry(s.label.as_str().to_string()).or_default() += 1;
        tx.insert_edge(parent.unwrap_or(file_id), id, EdgeType::Contains, None, None, None)?;
        tx.insert_edge(file_id, id, EdgeType::Defines, None, None, None)?;
        report.edges += 2;
        for (dname, args, line) in &s.decorators {
            let mut p = Map::new();
            p.insert("language".into(), json!(lang));
            if let Some(a) = args {
                p.insert("arguments".into(), json!(a));
            }
            let did = tx.insert_node(&NewNode {
                label: Some(Label::Decorator),
                name: dname,
                file_path: Some(&f.rel),
                line_start: Some(*line),
                line_end: Some(*line),
                props: p,
                ..Default::default()
            })?;
            tx.insert_edge(did, id, EdgeType::Decorates, None, None, None)?;
            report.edges += 1;
        }
    }
    for i in &facts.imports {
        let mut p = Map::new();
        p.insert("module".into(), json!(i.module));
        p.insert("language".into(), json!(lang));
        p.insert("column_start".into(), json!(i.column));
        if let Some(n) = &i.name {
            p.insert("imported".into(), json!(n));
        }
        p.insert("alias".into(), i.alias.as_ref().map_or(Value::Null, |a| json!(a)));
        let shown = i.name.as_deref().unwrap_or(&i.module);
        let iid = tx.insert_node(&NewNode {
            label: Some(Label::Import),
            name: shown,
            file_path: Some(&f.rel),
            line_start: Some(i.line),
            line_end: Some(i.line),
            props: p,
            ..Default::default()
        })?;
        tx.insert_edge(file_id, iid, EdgeType::Imports, None, None, None)?;
        report.edges += 1;
    }
    if !found.endpoints.is_empty() {
        let n = endpoints::write_file_endpoints(tx, &f.rel, facts, &found.endpoints)?;
        *report.symbols.entry(Label::Endpoint.as_str().to_string()).or_default() += n;
    }
    for r in &facts.refs {
        let from = r.from.map(|i| ids[i as usize]);
        tx.insert_ref(&f.rel, from, r.kind, &r.name, r.receiver.as_deref(), r.receiver_type.as_deref(), r.line, r.column, r.arity, r.arg_types.as_deref())?;
    }
    tx.upsert_file(
        &f.rel,
        f.language.as_str(),
        &FileState { size: f.size, mtime_ns: f.mtime_ns, hash: hash.to_string() },
        file_id,
        facts.module.as_deref(),
    )?;
    Ok(())
}

/// Package `Module` nodes (Python packages, Java packages, Go package directories), each
/// `CONTAINS` its files. They are derived from the files table after every change, always
/// equal to a clean build's; only the nodes and edges that differ from the stored ones are
/// written (an edit rewrites one file's node: one edge).
fn write_packages(tx: &IngestTx<'_>) -> Result<u64, IndexError> {
    let package_of = resolve::package_nodes();
    let mut packages: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
    for (path, node, language, module) in tx.files()? {
        let Some(key) = package_of(&language, &path, module.as_deref()) else { continue };
        if key.is_empty() {
            continue;
        }
        packages.entry((language, key)).or_default().push(node);
    }
    let (nodes, stored_edges) = tx.derived_modules()?;
    let mut stored: HashMap<(String, String), i64> = HashMap::new();
    for (id, language, key) in nodes {
        // (A duplicate, which no ingest writes, goes with the ones no longer wanted.)
        if !packages.contains_key(&(language.clone(), key.clone())) || stored.insert((language, key), id).is_some() {
            tx.delete_derived_module(id)?;
        }
    }
    let kept: HashSet<i64> = stored.values().copied().collect();
    let mut have: HashMap<(i64, i64), Vec<i64>> = HashMap::new();
    for (e, src, dst) in stored_edges {
        if kept.contains(&src) {
            have.entry((src, dst)).or_default().push(e);
        }
    }
    let mut edges = 0;
    for ((language, key), files) in packages {
        let id = match stored.get(&(language.clone(), key.clone())) {
            Some(&id) => id,
            None => {
                let name = key.rsplit(['.', '/']).next().unwrap_or(&key).to_string();
                let mut props = Map::new();
                props.insert("derived".into(), json!(true));
                props.insert("language".into(), json!(language));
                props.insert("kind".into(), json!("package"));
                tx.insert_node(&NewNode {
                    label: Some(Label::Module),
                    name: &name,
                    qualified_name: Some(&key),
                    props,
                    ..Default::default()
                })?
            }
        };
        for f in files {
            if have.get_mut(&(id, f)).and_then(Vec::pop).is_none() {
                tx.insert_edge(id, f, EdgeType::Contains, None, None, None)?;
            }
            edges += 1;
        }
    }
    let stale: Vec<i64> = have.into_values().flatten().collect();
    tx.delete_edges(&stale)?;
    Ok(edges)
}
