//! Helpers shared by the CLI's integration tests.

use std::path::{Path, PathBuf};

/// Writes the files of a workspace given as text: each `//- path` line starts a file
/// under `root`, the lines after it are its content.
pub fn write_files(root: &Path, text: &str) {
    let mut path: Option<PathBuf> = None;
    let mut content = String::new();
    let flush = |p: &Option<PathBuf>, c: &str| {
        if let Some(p) = p {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, c).unwrap();
        }
    };
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("//- ") {
            flush(&path, &content);
            path = Some(root.join(p.trim()));
            content.clear();
        } else {
            content.push_str(line);
            content.push('\n');
        }
    }
    flush(&path, &content);
}
