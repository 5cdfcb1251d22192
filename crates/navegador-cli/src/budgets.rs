//! Default memory budgets of Cypher queries, sized for the machine: a query may hold a
//! sixteenth of the memory available to the process (64 MiB to 512 MiB), and a server's
//! concurrent queries a quarter of it together (at least one query's worth, at most
//! 2 GiB). "Available" is the smaller of the physical memory and a cgroup limit.

const MIB: u64 = 1 << 20;

/// Bytes one query may hold when `--max-memory-mb` / `--max-query-memory-mb` is not given.
pub fn query_memory() -> u64 {
    match machine_memory() {
        Some(m) => (m / 16).clamp(64 * MIB, 512 * MIB),
        None => navegador_cypher::memory::DEFAULT_QUERY_MEMORY,
    }
}

/// Bytes a server's queries may hold together when `--query-memory-pool-mb` is not given.
pub fn pool_memory(query: u64) -> u64 {
    match machine_memory() {
        Some(m) => (m / 4).clamp(query, (2048 * MIB).max(query)),
        None => 4 * query,
    }
}

/// A budget flag in MiB to bytes (0 stays 0: no budget).
pub fn mib(n: u64) -> u64 {
    n.saturating_mul(MIB)
}

/// Physical memory, or the cgroup's limit when it is smaller (Linux; `None` elsewhere).
fn machine_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let total = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())?
        .saturating_mul(1024);
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok());
    Some(cgroup.map_or(total, |c| c.min(total)))
}
