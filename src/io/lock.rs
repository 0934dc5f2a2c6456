//! Holding a file while it is read, changed and written back, so two people recording at once
//! both land. The lock is on the file itself (no lock file is left beside it): after the lock
//! is taken, the name must still lead to the locked file, since a writer that got there first
//! renames a new file over the old one.
use super::read::io_error;
use crate::error::{Error, Result};
use std::path::Path;

/// Run `work` while holding an exclusive lock on the existing file `path`.
pub(crate) fn with_file_lock<T>(path: &str, work: impl FnOnce() -> Result<T>) -> Result<T> {
    for _ in 0..1000 {
        let file = std::fs::File::open(path).map_err(|e| io_error(path, &e))?;
        fs4::FileExt::lock(&file).map_err(|e| Error::msg(format!("{path}: cannot lock: {e}")))?;
        if same_file(&file, Path::new(path)) {
            let result = work();
            let _ = fs4::FileExt::unlock(&file);
            return result;
        }
        // Replaced while we waited: lock the new file instead.
    }
    Err(Error::msg(format!(
        "{path}: cannot lock: the file keeps being replaced"
    )))
}

#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::File, _: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{write_file, Replace};

    #[test]
    fn concurrent_updates_all_land_and_leave_no_lock_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("count.txt");
        std::fs::write(&p, "0").unwrap();
        let path = p.to_str().unwrap().to_string();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10 {
                        with_file_lock(&path, || {
                            let n: u32 = std::fs::read_to_string(&path).unwrap().parse().unwrap();
                            write_file(&path, &(n + 1).to_string(), Replace::ItsOwnInput)
                        })
                        .unwrap();
                    }
                });
            }
        });
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "40");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
