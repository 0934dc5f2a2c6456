//! The files this run has read, so that no write lands on one of its own inputs
//! (`league table s.yaml --html s.yaml` must not replace the season with HTML).
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

fn registry() -> &'static Mutex<HashSet<PathBuf>> {
    static READ: OnceLock<Mutex<HashSet<PathBuf>>> = OnceLock::new();
    READ.get_or_init(|| Mutex::new(HashSet::new()))
}

/// The identity of a file: its canonical path (symlinks resolved), or the path as given when
/// it cannot be resolved (it does not exist yet).
pub(super) fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Note that `path` was read.
pub(super) fn note_read(path: &Path) {
    let id = identity(path);
    registry()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id);
}

/// Whether `path` (after symlinks) is a file this run has read.
pub(super) fn was_read(path: &Path) -> bool {
    let id = identity(path);
    registry()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .contains(&id)
}
