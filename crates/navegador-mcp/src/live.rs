//! The live index: the server indexes its workspace on start (incrementally, reusing the
//! graph file) and keeps it fresh. A filesystem watcher (`notify`) marks the index stale on
//! every change under the root; a tool that answers from the graph first calls
//! [`LiveIndex::ensure_fresh`], which re-ingests what changed (an incremental ingest: only
//! changed files are re-parsed) before answering. So a file saved before a call is reflected
//! in that call's answer. While the first index is being built, tools answer from what is
//! committed and say the index is incomplete. The watcher's paths are the change set: a
//! refresh looks at them alone (`navegador_index::ingest_paths`); the whole tree is walked
//! at start, after an overflow or rescan event, and where the paths cannot tell (a new
//! file, a directory, an ignore file).
//!
//! The watcher reports changes asynchronously, so before each graph answer the server creates
//! a barrier file under `.navegador/sync/` and waits (at most 200 ms) until the watcher
//! reports it: events arrive in order, so every change made before the call has been counted
//! by then. Where no watcher can be set up (inotify limits, unsupported filesystems), every
//! graph answer runs the incremental ingest's change check instead (a walk and a stat per
//! file).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use navegador_index::{IngestConfig, NoProgress, HARD_IGNORED};
use navegador_store::Store;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// What a caller learns before answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// The first index of the workspace has been committed.
    pub complete: bool,
}

pub struct LiveIndex {
    root: PathBuf,
    db: PathBuf,
    /// Serializes writers: the live index and the `ingest` tool.
    lock: Arc<tokio::sync::Mutex<()>>,
    /// Bumped by the watcher on every relevant change.
    changes: AtomicU64,
    /// The value of `changes` the last committed ingest started from.
    indexed: AtomicU64,
    complete: AtomicBool,
    watching: AtomicBool,
    last_error: Mutex<Option<String>>,
    watcher: Mutex<Option<RecommendedWatcher>>,
    /// Barrier files (`.navegador/sync/<n>`): the number of the last one created and the
    /// highest one the watcher has reported. Events arrive in order, so once the watcher
    /// reports barrier n, every change made before it was created has been counted.
    barrier_sent: AtomicU64,
    barrier_seen: AtomicU64,
    barrier_dir: PathBuf,
    /// The writer's store, its file's identity when opened, and the resident symbol table.
    kept: Mutex<Option<(Store, Option<(u64, u64)>, navegador_index::Resident)>>,
    /// The paths the watcher reported since the last refresh took them: the next ingest
    /// looks at these alone, not at the whole tree (see `navegador_index::ingest_paths`).
    pending: Mutex<Pending>,
}

/// Changed paths the watcher reported, or that it could not say which (an overflow, a
/// rescan, more paths than a walk costs).
#[derive(Default)]
struct Pending {
    paths: std::collections::HashSet<PathBuf>,
    rescan: bool,
}

/// More changed paths than this between two refreshes and the tree is walked instead.
const MAX_PENDING: usize = 10_000;

impl Drop for LiveIndex {
    /// The kept store is closed on a thread of its own: a PostgreSQL client owns a runtime,
    /// which may not be dropped inside the server's (the last `Arc` can go there at shutdown).
    fn drop(&mut self) {
        let kept = self.kept.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(kept) = kept {
            let _ = std::thread::spawn(move || drop(kept)).join();
        }
    }
}

/// (device, inode) of the graph file: a file replaced under the server (a reset, a copy)
/// is opened again; one value for a PostgreSQL URL; `None` for a missing file.
fn file_identity(db: &Path) -> Option<(u64, u64)> {
    // A PostgreSQL server has no file to be replaced: its store is kept as a file's is (a
    // failed ingest drops it, and the next refresh connects again).
    if navegador_store::server_url(db).is_some() {
        return Some((0, 0));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(db).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = db;
        None
    }
}

/// True for paths whose change can alter the graph (not our own files, not ignored trees).
fn relevant(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else { return false };
    !rel.components().any(|c| HARD_IGNORED.iter().any(|h| c.as_os_str() == *h))
}

impl LiveIndex {
    /// Starts watching `root` and builds the first index on a background thread.
    pub fn start(root: &Path, db: &Path, lock: Arc<tokio::sync::Mutex<()>>) -> Arc<LiveIndex> {
        let live = Arc::new(LiveIndex {
            root: root.to_path_buf(),
            db: db.to_path_buf(),
            lock,
            changes: AtomicU64::new(1),
            indexed: AtomicU64::new(0),
            complete: AtomicBool::new(false),
            watching: AtomicBool::new(false),
            last_error: Mutex::new(None),
            watcher: Mutex::new(None),
            barrier_sent: AtomicU64::new(0),
            barrier_seen: AtomicU64::new(0),
            barrier_dir: root.join(".navegador").join("sync"),
            kept: Mutex::new(None),
            pending: Mutex::new(Pending::default()),
        });
        live.watch();
        let bg = live.clone();
        std::thread::Builder::new()
            .name("navegador-first-index".into())
            .spawn(move || {
                bg.refresh();
                bg.complete.store(true, Ordering::SeqCst);
            })
            .expect("spawn the indexing thread");
        live
    }

    fn watch(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let root = self.root.clone();
        let barriers = self.barrier_dir.clone();
        // Made before the watch starts, so the recursive watch covers it from the start.
        let barriers_ok = std::fs::create_dir_all(&barriers).is_ok();
        let handler = move |res: notify::Result<notify::Event>| {
            let Some(live) = weak.upgrade() else { return };
            match res {
                Ok(ev) => {
                    for p in &ev.paths {
                        if p.parent() == Some(barriers.as_path()) {
                            if let Some(n) = p.file_name().and_then(|n| n.to_str()).and_then(|n| n.parse::<u64>().ok()) {
                                live.barrier_seen.fetch_max(n, Ordering::SeqCst);
                            }
                        }
                    }
                    if matches!(ev.kind, EventKind::Access(_)) {
                        return;
                    }
                    let rescan = ev.need_rescan();
                    let mut hit = rescan;
                    {
                        // (Recorded before the count moves: a refresh reads the count first.)
                        let mut pending = live.pending.lock().unwrap_or_else(|e| e.into_inner());
                        pending.rescan |= rescan;
                        for p in ev.paths.iter().filter(|p| relevant(&root, p)) {
                            hit = true;
                            if pending.paths.len() < MAX_PENDING {
                                pending.paths.insert(p.clone());
                            } else {
                                pending.rescan = true;
                            }
                        }
                    }
                    if hit {
                        live.changes.fetch_add(1, Ordering::SeqCst);
                    }
                }
                Err(e) => {
                    tracing::warn!("file watcher: {e}; answers will check for changes themselves");
                    live.watching.store(false, Ordering::SeqCst);
                }
            }
        };
        match notify::recommended_watcher(handler).and_then(|mut w| w.watch(&self.root, RecursiveMode::Recursive).map(|_| w)) {
            Ok(mut w) => {
                // The trees no ingest reads, at the root, are not watched: among them the
                // index's own (every commit writes the graph's WAL page by page, an event
                // each, ~10% of a live edit's CPU on Django). The barriers' folder in it is
                // watched again, alone.
                for name in HARD_IGNORED {
                    let dir = self.root.join(name);
                    if dir.is_dir() {
                        let _ = w.unwatch(&dir);
                    }
                }
                let barriers_ok = barriers_ok && w.watch(&self.barrier_dir, RecursiveMode::NonRecursive).is_ok();
                *self.watcher.lock().unwrap() = Some(w);
                self.watching.store(true, Ordering::SeqCst);
                if !barriers_ok {
                    tracing::warn!("cannot create {}; a change made just before a call may be seen one call late", self.barrier_dir.display());
                }
            }
            Err(e) => tracing::warn!(
                "cannot watch {}: {e}; every graph answer will check for changed files first (raise fs.inotify.max_user_watches to watch)",
                self.root.display()
            ),
        }
    }

    /// Runs an incremental ingest when something changed since the last one.
    fn refresh(&self) {
        let _guard = self.lock.blocking_lock();
        let target = self.changes.load(Ordering::SeqCst);
        if self.watching.load(Ordering::SeqCst) && self.indexed.load(Ordering::SeqCst) >= target {
            return; // another caller refreshed while we waited
        }
        // The paths changed up to `target` (and perhaps a few after: looked at twice, no
        // harm); none known without a watcher, or after a rescan: the whole tree is walked.
        let changed: Option<Vec<PathBuf>> = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            let p = std::mem::take(&mut *pending);
            (self.watching.load(Ordering::SeqCst) && !p.rescan).then(|| p.paths.into_iter().collect())
        };
        let started = std::time::Instant::now();
        let result = (|| -> Result<navegador_index::IngestReport, String> {
            if let Some(dir) = self.db.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            // The store stays open and the symbol table resident between refreshes (see
            // `navegador_index::Resident`), unless the file was replaced since.
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            let identity = file_identity(&self.db);
            let reuse = matches!(&*kept, Some((_, id, _)) if identity.is_some() && *id == identity);
            if !reuse {
                let store = Store::open(&self.db).map_err(|e| e.to_string())?;
                *kept = Some((store, file_identity(&self.db), navegador_index::Resident::default()));
            }
            let (store, _, resident) = kept.as_mut().expect("opened above");
            let cfg = IngestConfig::default();
            let r = match &changed {
                Some(paths) => navegador_index::ingest_paths(&self.root, store, &cfg, &NoProgress, None, resident, paths),
                None => navegador_index::ingest_resident(&self.root, store, &cfg, &NoProgress, None, resident),
            };
            if r.is_err() {
                *kept = None; // reopened next time
            }
            r.map_err(|e| e.to_string())
        })();
        match result {
            Ok(r) => {
                self.indexed.store(target, Ordering::SeqCst);
                *self.last_error.lock().unwrap() = None;
                if r.files_parsed > 0 || r.files_removed > 0 {
                    tracing::info!(parsed = r.files_parsed, removed = r.files_removed, ms = started.elapsed().as_millis() as u64, "index refreshed");
                }
            }
            Err(e) => {
                tracing::error!("indexing {} failed: {e}", self.root.display());
                *self.last_error.lock().unwrap() = Some(e);
            }
        }
    }

    /// Brings the index up to date with the files (when the first index is done), from a
    /// blocking thread. Cheap when nothing changed.
    pub fn ensure_fresh(&self) -> Freshness {
        if !self.complete.load(Ordering::SeqCst) {
            return Freshness { complete: false };
        }
        if self.watching.load(Ordering::SeqCst) {
            self.sync_with_watcher();
        }
        let stale = !self.watching.load(Ordering::SeqCst) || self.indexed.load(Ordering::SeqCst) < self.changes.load(Ordering::SeqCst);
        if stale {
            self.refresh();
        }
        Freshness { complete: true }
    }

    /// Waits (at most 200 ms) until the watcher has reported every change made before this
    /// call: it creates a barrier file and waits for the watcher to report it; events come
    /// in order, so a file saved before the call has been counted by then.
    fn sync_with_watcher(&self) {
        let n = self.barrier_sent.fetch_add(1, Ordering::SeqCst) + 1;
        let file = self.barrier_dir.join(n.to_string());
        if std::fs::write(&file, b"").is_err() {
            return;
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
        while self.barrier_seen.load(Ordering::SeqCst) < n && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let _ = std::fs::remove_file(&file);
    }

    /// The last indexing error, if the last attempt failed.
    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().unwrap().clone()
    }

    /// Waits until the first index is committed (for tests and benchmarks).
    pub fn wait_complete(&self, timeout: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while !self.complete.load(Ordering::SeqCst) {
            if std::time::Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        true
    }
}
