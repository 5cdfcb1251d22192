//! Memory budgets of queries: what a query holds is measured, not estimated.
//!
//! `CountingAlloc` wraps the system allocator and keeps, per thread, the bytes allocated
//! minus the bytes freed. A query runs on one thread, so the difference since it started
//! is everything it holds: rows, strings, lists, maps, sort buffers, aggregation state,
//! paths, and what the store handed it. The engine compares that figure with the query's
//! budget at every step of every loop (`eval::Guard::check`), and before an operation
//! that allocates a large block in one go (concatenation, `range()`, a copy of a big
//! value), so a query stops with an error naming the budget and the operator instead of
//! the process aborting. A binary installs the allocator once:
//!
//! ```
//! #[global_allocator]
//! static ALLOC: navegador_cypher::memory::CountingAlloc = navegador_cypher::memory::CountingAlloc;
//!
//! fn main() {
//!     assert!(navegador_cypher::memory::accounting_active());
//! }
//! ```
//!
//! Without it only the checks before large allocations apply ([`accounting_active`]).
//! Queries of one server share a [`MemoryPool`]: each reserves what it holds in chunks,
//! waits for its first chunk when the pool is full and is refused when it cannot grow
//! (growing always leaves a chunk free, room for eight queries to start, so a small query
//! gets in at once), so concurrent queries together stay under the pool's limit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use navegador_graph::Value;

/// Bytes a query may hold when nothing else is said (the CLI and the servers size it for
/// the machine).
pub const DEFAULT_QUERY_MEMORY: u64 = 512 << 20;

/// Granularity of reservations from a [`MemoryPool`].
pub const CHUNK: u64 = 8 << 20;

/// What a query takes from its pool to start: most queries never need more.
pub const FIRST_CHUNK: u64 = 1 << 20;

/// What freeing one block costs in wall-clock time, with the pointer chasing to reach
/// it: learnt from the queries that stopped at a budget (`learn_free_time`), since it
/// grows when the machine is busy. It starts at about what dropping the rows of a large
/// MATCH took on an idle 2-core machine.
static FREE_NANOS: AtomicU64 = AtomicU64::new(120);

/// Queries whose peak passed this make `MemoryPool::release_if_used` give freed memory
/// back to the system.
const TRIM_AFTER: u64 = 16 << 20;

/// Records that freeing `blocks` blocks took `took`: later queries keep back that much
/// time per block they hold (a moving average, between 20 ns and 20 µs a block).
pub fn learn_free_time(blocks: u64, took: std::time::Duration) {
    if blocks < 10_000 {
        return;
    }
    let seen = (took.as_nanos() / blocks as u128).clamp(20, 20_000) as u64;
    let old = FREE_NANOS.load(Ordering::Relaxed);
    FREE_NANOS.store((old * 3 + seen).div_ceil(4), Ordering::Relaxed);
}

thread_local! {
    /// Bytes allocated minus bytes freed on this thread through `CountingAlloc`.
    static NET: Cell<i64> = const { Cell::new(0) };
    /// Blocks allocated minus blocks freed on this thread (freeing costs per block).
    static BLOCKS: Cell<i64> = const { Cell::new(0) };
}

static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting per thread what is allocated and freed.
pub struct CountingAlloc;

#[inline]
fn count(bytes: i64, blocks: i64) {
    // `try_with`: a thread being torn down may still free memory.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
    if blocks != 0 {
        let _ = BLOCKS.try_with(|n| n.set(n.get().wrapping_add(blocks)));
    }
}

// SAFETY: every call is forwarded to `System` unchanged; the counter is a thread-local
// `Cell` with no destructor, which never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count(layout.size() as i64, 1);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as i64, 1);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as i64), -1);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if !INSTALLED.load(Ordering::Relaxed) {
                INSTALLED.store(true, Ordering::Relaxed);
            }
            count(new_size as i64 - layout.size() as i64, 0);
        }
        p
    }
}

/// Net bytes this thread allocated through `CountingAlloc` so far (0 without it).
pub fn thread_allocated() -> i64 {
    NET.try_with(Cell::get).unwrap_or(0)
}

/// Net blocks this thread allocated through `CountingAlloc` so far (0 without it).
pub fn thread_blocks() -> i64 {
    BLOCKS.try_with(Cell::get).unwrap_or(0)
}

/// Whether `CountingAlloc` is the global allocator, so budgets see every allocation.
pub fn accounting_active() -> bool {
    if INSTALLED.load(Ordering::Relaxed) {
        return true;
    }
    // A growing vector goes through `realloc`, which marks the allocator as installed.
    let mut v: Vec<u8> = Vec::with_capacity(1);
    v.extend_from_slice(&[0; 64]);
    std::hint::black_box(&v);
    INSTALLED.load(Ordering::Relaxed)
}

/// Gives memory freed by the allocator back to the system (glibc keeps freed small
/// blocks in its arenas otherwise, and a server's resident size would only grow).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim only walks glibc's own heap; it is thread-safe.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Makes the allocator give large blocks back to the system as soon as they are freed,
/// for a process that serves many queries over a long life. glibc raises its mmap
/// threshold to the size of the largest block freed (up to 32 MiB), after which such
/// blocks come from per-thread arenas and stay resident between queries (measured: eight
/// hostile queries at once left 150-220 MiB resident on a 14 MiB server; with fixed
/// thresholds, 50 MiB, the readers' page caches). Blocks of 1 MiB and more are mapped
/// and unmapped directly; a free top of an arena over 1 MiB is trimmed.
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            extern "C" {
                fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
            }
            const M_TRIM_THRESHOLD: std::ffi::c_int = -1;
            const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
            // SAFETY: mallopt only sets glibc's malloc parameters; setting either one
            // turns the dynamic adjustment off.
            unsafe {
                mallopt(M_MMAP_THRESHOLD, 1 << 20);
                mallopt(M_TRIM_THRESHOLD, 1 << 20);
            }
        });
    }
}

/// Memory shared by the queries of one server: together they reserve at most `limit`.
#[derive(Debug)]
pub struct MemoryPool {
    limit: u64,
    reserved: Mutex<u64>,
    freed: Condvar,
    /// A query that held much memory ended since the last `release_if_used`.
    big_query_ended: AtomicBool,
    /// Queries running now, and whether one ended since memory was last given back:
    /// when the last one ends, what the others left in the allocator's arenas goes back
    /// too (small queries, each under `TRIM_AFTER`, fragment the heap between them).
    running: Mutex<(u32, bool)>,
}

impl MemoryPool {
    /// A pool for a long-lived server's queries (see [`return_large_blocks`]).
    pub fn new(limit: u64) -> Arc<MemoryPool> {
        return_large_blocks();
        Arc::new(MemoryPool {
            limit: limit.max(FIRST_CHUNK),
            reserved: Mutex::new(0),
            freed: Condvar::new(),
            big_query_ended: AtomicBool::new(false),
            running: Mutex::new((0, false)),
        })
    }

    /// Gives freed memory back to the system if a query that held much of it ended
    /// since the last call (a server calls it after answering, off the query's clock).
    pub fn release_if_used(&self) {
        let idle = {
            let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
            let idle = r.0 == 0 && r.1;
            if idle {
                r.1 = false;
            }
            idle
        };
        if self.big_query_ended.swap(false, Ordering::Relaxed) || idle {
            release_free_memory();
        }
    }

    fn started(&self) {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
    }

    fn ended(&self) {
        let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
        r.0 = r.0.saturating_sub(1);
        r.1 = true;
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes reserved by running queries.
    pub fn reserved(&self) -> u64 {
        *self.reserved.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes `n` bytes if they are free, waiting for them until `deadline` when `wait`,
    /// and leaving `spare` bytes free.
    fn take(&self, n: u64, spare: u64, wait: Option<Instant>) -> bool {
        let mut r = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if *r + n + spare <= self.limit {
                *r += n;
                return true;
            }
            let Some(deadline) = wait else { return false };
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            r = self
                .freed
                .wait_timeout(r, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn give(&self, n: u64) {
        if n == 0 {
            return;
        }
        let mut r = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
        *r = r.saturating_sub(n);
        self.freed.notify_all();
    }
}

/// Why a query may not hold more memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The query's own budget.
    Query,
    /// The pool shared with the server's other queries.
    Pool,
}

/// What one query holds, against its budget and its server's pool.
#[derive(Debug)]
pub struct Meter {
    limit: u64,
    baseline: Cell<i64>,
    blocks_baseline: i64,
    pool: Option<Arc<MemoryPool>>,
    reserved: Cell<u64>,
    peak: Cell<u64>,
}

impl Meter {
    /// Starts measuring on this thread. With a pool, the first chunk is taken first,
    /// waiting for it until `deadline`.
    pub fn start(
        limit: u64,
        pool: Option<Arc<MemoryPool>>,
        deadline: Instant,
    ) -> Result<Meter, Refusal> {
        let m = Meter {
            limit: if limit == 0 { u64::MAX } else { limit },
            baseline: Cell::new(thread_allocated()),
            blocks_baseline: thread_blocks(),
            pool,
            reserved: Cell::new(0),
            peak: Cell::new(0),
        };
        if let Some(p) = &m.pool {
            // Counted from here: `drop` counts the end, a refusal included.
            p.started();
            let first = FIRST_CHUNK.min(m.limit);
            if !p.take(first, 0, Some(deadline)) {
                return Err(Refusal::Pool);
            }
            m.reserved.set(first);
        }
        Ok(m)
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    pub fn pool_limit(&self) -> Option<u64> {
        self.pool.as_ref().map(|p| p.limit())
    }

    /// Bytes the query holds now.
    pub fn used(&self) -> u64 {
        (thread_allocated() - self.baseline.get()).max(0) as u64
    }

    /// Counts `bytes` another thread allocated for this query (the parser runs on a
    /// thread of its own) as held by it: they are freed on this thread.
    pub fn adopt(&self, bytes: i64) {
        self.baseline.set(self.baseline.get() - bytes.max(0));
    }

    /// The most the query held at a check.
    pub fn peak(&self) -> u64 {
        self.peak.get()
    }

    /// About how long freeing what the query holds will take: a query that stops at its
    /// deadline must still drop its rows before it can answer, and that is part of its
    /// time budget.
    pub fn cleanup_time(&self) -> std::time::Duration {
        let blocks = (thread_blocks() - self.blocks_baseline).max(0) as u64;
        std::time::Duration::from_nanos(blocks.saturating_mul(FREE_NANOS.load(Ordering::Relaxed)))
    }

    /// Blocks the query holds now.
    pub fn blocks(&self) -> u64 {
        (thread_blocks() - self.blocks_baseline).max(0) as u64
    }

    /// Whether the query may hold what it holds now plus `more` bytes.
    pub fn check(&self, more: u64) -> Result<(), Refusal> {
        let want = self.used().saturating_add(more);
        if want > self.peak.get() {
            self.peak.set(want);
        }
        if want > self.limit {
            return Err(Refusal::Query);
        }
        if let Some(p) = &self.pool {
            let have = self.reserved.get();
            if want > have {
                let need = (want - have).div_ceil(CHUNK) * CHUNK;
                // Growing leaves a chunk free, so several new queries can start at once.
                if !p.take(need, CHUNK, None) {
                    return Err(Refusal::Pool);
                }
                self.reserved.set(have + need);
            }
        }
        Ok(())
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if let Some(p) = &self.pool {
            p.give(self.reserved.get());
            if self.peak.get() > TRIM_AFTER {
                p.big_query_ended.store(true, Ordering::Relaxed);
            }
            p.ended();
        }
    }
}

/// Bytes a copy of `v` allocates (nodes, relationships and paths are shared, not copied).
pub fn copy_size(v: &Value) -> usize {
    const SLOT: usize = std::mem::size_of::<Value>();
    match v {
        Value::String(s) => s.len(),
        Value::List(l) => l.iter().map(|x| SLOT + copy_size(x)).sum(),
        // A B-tree entry: key, value and a share of its node.
        Value::Map(m) => m
            .iter()
            .map(|(k, x)| k.len() + 2 * SLOT + 24 + copy_size(x))
            .sum(),
        _ => 0,
    }
}

/// About the bytes `v` takes once rendered for an answer: text and numbers, and the
/// labels and properties of nodes, relationships and paths. Past `cap` the figure is only
/// known to be larger (a long string is not scanned for escapes).
pub fn rendered_size(v: &Value, cap: usize) -> usize {
    let props = |m: &BTreeMap<String, Value>| -> usize {
        m.iter()
            .map(|(k, x)| k.len() + 4 + rendered_size(x, cap))
            .sum()
    };
    let labels = |ls: &[String]| -> usize { ls.iter().map(|l| l.len() + 3).sum() };
    match v {
        Value::Null | Value::Bool(_) => 5,
        Value::Int(_) | Value::Float(_) => 12,
        // Quotes, and escapes for quotes, backslashes and control characters.
        Value::String(s) if s.len() > cap => s.len() + 2,
        Value::String(s) => {
            s.len()
                + 2
                + 5 * s
                    .bytes()
                    .filter(|b| *b < 0x20 || *b == b'"' || *b == b'\\')
                    .count()
        }
        Value::List(l) => 2 + l.iter().map(|x| rendered_size(x, cap) + 1).sum::<usize>(),
        Value::Map(m) => 2 + props(m),
        Value::Node(n) => 32 + labels(&n.labels) + props(&n.props),
        Value::Relationship(r) => 64 + r.rel_type.len() + props(&r.props),
        Value::Path(p) => {
            p.nodes
                .iter()
                .map(|n| 32 + labels(&n.labels) + props(&n.props))
                .sum::<usize>()
                + p.edges
                    .iter()
                    .map(|r| 64 + r.rel_type.len() + props(&r.props))
                    .sum::<usize>()
        }
    }
}

/// Renders a byte count for messages (`512 MiB`, `1.5 GiB`).
pub fn human(bytes: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    let mib = bytes as f64 / MIB;
    if mib >= 1024.0 {
        let gib = mib / 1024.0;
        if gib.fract() == 0.0 {
            format!("{gib:.0} GiB")
        } else {
            format!("{gib:.1} GiB")
        }
    } else if mib >= 1.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}
