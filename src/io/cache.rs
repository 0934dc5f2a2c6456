//! Read-only copies of text the program carries (a built-in ruleset), written to a cache
//! folder for another program to open: an editor shows the base an `extends` names as a file.
use super::write::{write_file, Replace};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The folder copies go to: `$XDG_CACHE_HOME/arbiter` (else `~/.cache/arbiter`, else a folder
/// of the user's in the temporary folder), one folder per version of the program.
pub(crate) fn cache_folder() -> PathBuf {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let base = std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".cache"))
        })
        .map(|c| c.join("arbiter"))
        .unwrap_or_else(|| std::env::temp_dir().join(format!("arbiter-{}", user_id())));
    base.join(format!("v{}", env!("CARGO_PKG_VERSION")))
}

#[cfg(unix)]
fn user_id() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

#[cfg(not(unix))]
fn user_id() -> u32 {
    0
}

/// `contents` as the read-only file `folder/name` (folders made as needed): left alone when it
/// already holds them, written again (atomically) when it holds anything else.
pub(crate) fn read_only_copy(folder: &Path, name: &str, contents: &str) -> Result<PathBuf> {
    let path = folder.join(name);
    let shown = path.display().to_string();
    if std::fs::read(&path).is_ok_and(|held| held == contents.as_bytes()) {
        return Ok(path);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .create(folder)
        .map_err(|e| Error::msg(format!("{}: cannot make the folder: {e}", folder.display())))?;
    let set_read_only = |read_only: bool| {
        let mut permissions = std::fs::metadata(&path)?.permissions();
        permissions.set_readonly(read_only);
        std::fs::set_permissions(&path, permissions)
    };
    let cannot = |e: std::io::Error| Error::msg(format!("{shown}: {e}"));
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        set_read_only(false).map_err(cannot)?;
    }
    write_file(&shown, contents, Replace::ItsOwnInput)?;
    set_read_only(true).map_err(cannot)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_written_read_only_and_rewritten_when_it_differs() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("a/b");
        let path = read_only_copy(&folder, "x.rules", "one\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\n");
        assert!(std::fs::metadata(&path).unwrap().permissions().readonly());
        read_only_copy(&folder, "x.rules", "one\n").unwrap();
        read_only_copy(&folder, "x.rules", "two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
        assert!(std::fs::metadata(&path).unwrap().permissions().readonly());
    }
}
