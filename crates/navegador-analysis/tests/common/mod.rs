//! Helpers shared by the analysis layer's integration tests.

use std::path::{Path, PathBuf};

use navegador_analysis as analysis;
use navegador_index::{IngestConfig, NoProgress};
use navegador_store::Store;

/// Indexes `root` into a new graph at `db`; the graph is returned opened read-only.
#[allow(dead_code)] // each test binary compiles this module; not all of them call this
pub fn index(root: &Path, db: &Path) -> Store {
    let mut store = Store::open(db).unwrap();
    analysis::ingest(root, &mut store, &IngestConfig::default(), &NoProgress, None).unwrap();
    drop(store);
    Store::open_read_only(db).unwrap()
}

/// Like `index`, parsing on one thread: files are written in the walk's order, so node
/// ids (which exports show) are the same from run to run.
pub fn index_in_order(root: &Path, db: &Path) -> Store {
    let mut store = Store::open(db).unwrap();
    let cfg = IngestConfig { jobs: Some(1), ..IngestConfig::default() };
    analysis::ingest(root, &mut store, &cfg, &NoProgress, None).unwrap();
    drop(store);
    Store::open_read_only(db).unwrap()
}

/// A workspace given as text (each file starts at a `//- path` line; lines before the
/// first are comments) written out under `dir/ws` and indexed: (workspace root, store).
pub fn index_text(dir: &Path, fixture: &Path) -> (PathBuf, Store) {
    let root = dir.join("ws");
    let text = std::fs::read_to_string(fixture).unwrap();
    let mut current: Option<(PathBuf, String)> = None;
    let mut files = Vec::new();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("//- ") {
            files.extend(current.take());
            current = Some((root.join(p.trim()), String::new()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    files.extend(current);
    for (path, body) in files {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let store = index_in_order(&root, &dir.join("graph.db"));
    (root, store)
}
