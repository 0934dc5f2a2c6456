//! What a script may write: rulesets (`r.save`, `r.save_changes`), only with the person's
//! leave (`--allow-write`, or a yes in the REPL at a terminal), only under the current folder,
//! and never over a file this session did not write itself.
use crate::error::{Error, Result};
use crate::io::policy::real_path;
use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub(crate) struct Writes {
    /// `--allow-write`, or the person said yes.
    allowed: AtomicBool,
    /// Ask before the first write (the REPL at a terminal, without `--allow-write`).
    ask: bool,
    asked: AtomicBool,
    /// The current folder when the session started (canonical): writes go below it.
    folder: Option<PathBuf>,
    /// Files this session wrote (canonical): it may write them again.
    written: Mutex<HashSet<PathBuf>>,
}

impl Writes {
    pub(crate) fn new(allowed: bool, ask: bool) -> Writes {
        Writes {
            allowed: AtomicBool::new(allowed),
            ask,
            asked: AtomicBool::new(false),
            folder: std::env::current_dir()
                .ok()
                .and_then(|d| std::fs::canonicalize(d).ok()),
            written: Mutex::new(HashSet::new()),
        }
    }

    pub(crate) fn allowed(&self) -> bool {
        self.allowed.load(Ordering::Relaxed)
    }

    /// Check that `path` may be written (`call` names the script call in messages), then
    /// write it with `write` and remember it.
    pub(crate) fn write(
        &self,
        call: &str,
        path: &str,
        write: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        self.permission(call, path)?;
        let real = self.place(path)?;
        write()?;
        self.written
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(real);
        Ok(())
    }

    fn permission(&self, call: &str, path: &str) -> Result<()> {
        if self.allowed() {
            return Ok(());
        }
        if self.ask
            && !self.asked.swap(true, Ordering::Relaxed)
            && ask_yes(&format!(
                "{call}: let scripts in this session write files under the current folder? [y/N] "
            ))
        {
            self.allowed.store(true, Ordering::Relaxed);
            return Ok(());
        }
        let _ = path;
        Err(Error::msg(format!(
            "{call}: not written: scripts write files only with --allow-write (or a yes when the \
             REPL asks)"
        )))
    }

    /// The file's canonical place, if a script may write there.
    fn place(&self, path: &str) -> Result<PathBuf> {
        let under = || {
            Error::msg(format!(
                "{path}: scripts write only under the current folder"
            ))
        };
        let real = real_path(Path::new(path)).ok_or_else(under)?;
        let folder = self.folder.as_ref().ok_or_else(under)?;
        if !real.starts_with(folder) {
            return Err(under());
        }
        let exists = std::fs::symlink_metadata(path).is_ok() || real.exists();
        if exists
            && !self
                .written
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .contains(&real)
        {
            return Err(Error::msg(format!(
                "{path}: already exists; scripts write only new files (or files they wrote this \
                 session): choose another name"
            )));
        }
        Ok(real)
    }
}

/// Ask on the terminal; anything but y/yes is no.
pub(super) fn ask_yes(question: &str) -> bool {
    if !std::io::stdin().is_terminal() {
        return false;
    }
    eprint!("{question}");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_lowercase().as_str(), "y" | "yes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_leave_nothing_is_written() {
        let w = Writes::new(false, false);
        let e = w
            .write("r.save(\"x.rules\")", "x.rules", || {
                panic!("must not write")
            })
            .unwrap_err()
            .to_string();
        assert!(e.contains("--allow-write"), "{e}");
    }

    #[test]
    fn outside_the_current_folder_nothing_is_written() {
        let w = Writes::new(true, false);
        let e = w
            .write("r.save", "/definitely/not/here.rules", || {
                panic!("must not write")
            })
            .unwrap_err()
            .to_string();
        assert!(e.contains("only under the current folder"), "{e}");
        let e = w
            .write("r.save", "../up.rules", || panic!("must not write"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("only under the current folder"), "{e}");
    }
}
