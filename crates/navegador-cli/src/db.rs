//! Where the graph lives: `--db`, then `NAVEGADOR_DB`, then `<root>/.navegador/graph.db`
//! (an existing `./navegador.db` is still honoured when nothing else applies). A
//! `postgres://` URL in either puts it on a PostgreSQL server.

use std::path::{Path, PathBuf};

use anyhow::Context;
use navegador_store::Store;

/// The workspace root a command was given, made absolute (an error names the path).
pub fn workspace_root(path: &Path) -> anyhow::Result<PathBuf> {
    use anyhow::Context;
    path.canonicalize().with_context(|| format!("cannot open workspace root {}", path.display()))
}

/// The database path for a workspace root.
pub fn resolve_db(flag: Option<&Path>, root: &Path) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("NAVEGADOR_DB").filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    let default = root.join(".navegador").join("graph.db");
    let legacy = root.join("navegador.db");
    if !default.exists() && legacy.exists() {
        return legacy;
    }
    default
}

/// Opens the graph for writing, creating its folder.
pub fn open_rw(path: &Path) -> anyhow::Result<Store> {
    make_folder(path)?;
    Ok(Store::open(path)?)
}

/// Opens the graph for `ingest --clear`: an old schema is replaced, a damaged file moved
/// aside (its new path returned).
pub fn open_for_rebuild(path: &Path) -> anyhow::Result<(Store, Option<PathBuf>)> {
    make_folder(path)?;
    Ok(Store::open_for_rebuild(path)?)
}

fn make_folder(path: &Path) -> anyhow::Result<()> {
    if navegador_store::server_url(path).is_none() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    Ok(())
}

/// Opens an existing graph for reading; a missing file names the command that makes it.
pub fn open_ro(path: &Path) -> anyhow::Result<Store> {
    if !navegador_store::graph_may_exist(path) {
        anyhow::bail!("no graph at {}; run `navegador ingest PATH` first (or pass --db)", path.display());
    }
    Ok(Store::open_read_only(path)?)
}
