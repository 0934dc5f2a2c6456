//! Writing files safely: whole or not at all.
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// A temporary file beside the target, flushed to disk, then a rename: the file is whole or
/// untouched, never half-written.
pub fn write_atomically(path: &str, contents: &str) -> Result<()> {
    let target = Path::new(path);
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let fail = |e: &dyn std::fmt::Display| Error::msg(format!("{path}: cannot write: {e}"));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| fail(&e))?;
    tmp.write_all(contents.as_bytes()).map_err(|e| fail(&e))?;
    tmp.as_file().sync_all().map_err(|e| fail(&e))?;
    tmp.persist(target).map_err(|e| fail(&e.error))?;
    Ok(())
}
