//! The read policy: which files a script, and the rulesets it loads, may read.
//!
//! Every path a script or a ruleset names passes `Policy::check` before anything opens it:
//! the file must be inside the script's folder, the current folder or a `--allow-read DIR`
//! (compared as canonical paths, so neither `..` nor a symlink leads out), or be exactly a
//! file the person named on the command line (`--rules`, a script argument); and it must be a
//! kind of file the call reads (a ruleset, a record, a team list, a tactic or hook). A path
//! written inside a ruleset or a script never widens the policy: what such a file names is
//! checked the same way, except that a ruleset's companions (its hooks, what it extends) may
//! also sit in its own folder. A refused file is never opened, so no error can show its bytes.
//!
//! Plain commands hold a policy too (`Policy::for_command`): the current folder, every file
//! typed on the command line and each `--allow-read DIR`; so a shared file's `extends`, a
//! record's `rules:` and a ruleset's hooks reach no further from `arbiter rules check` than
//! from a script. Only the messages differ (`Scope`).
//!
//! Checking a name and then opening it again by name would let a link swapped in between lead
//! anywhere, so the check is made twice: on the name before anything is opened (a refused file
//! is never opened), then on the file actually opened (`Permit::read_text`, and `read_text`
//! under a policy), by the canonical path of its open descriptor.
//!
//! The policy in force is kept per thread (`enter`), and handed to the threads a script starts
//! (`current`). Library callers with none in force read the files they name as given; what
//! those files name must still sit beside them or in the current folder.
use super::FileKind;
use crate::error::{Error, Result};
use std::cell::RefCell;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// What a call reads: each kind allows its own file extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A ruleset (`rules()`, `extends`, a record's `rules:`, `r.extend(path)`).
    Ruleset,
    /// A game record, history, season or scenario (also CSV for histories).
    Record,
    /// A team list: one name a line, or a record file.
    TeamList,
    /// Rhai code: a tactic file, a hook, `:load`.
    Script,
}

impl Kind {
    /// The kinds of file (in the one extension table) this call reads.
    pub(crate) fn files(self) -> &'static [FileKind] {
        match self {
            Kind::Ruleset => &[FileKind::Rules, FileKind::Yaml, FileKind::Json],
            Kind::Record => &[
                FileKind::Rules,
                FileKind::Yaml,
                FileKind::Json,
                FileKind::Csv,
            ],
            Kind::TeamList => &[
                FileKind::Names,
                FileKind::Yaml,
                FileKind::Json,
                FileKind::Csv,
            ],
            Kind::Script => &[FileKind::Script],
        }
    }

    /// Why a file of another kind is refused, in `scope`'s words.
    fn refusal(self, path: &str, scope: Scope) -> String {
        let list = FileKind::extensions(self.files());
        let who = match scope {
            Scope::Script => "scripts may read",
            Scope::Command => "a file may name",
        };
        match self {
            Kind::Ruleset | Kind::Record => {
                format!("{path}: {who} only ruleset and record files here ({list})")
            }
            Kind::TeamList => format!(
                "{path}: {who} team lists only from .txt files (one name a line) or record \
                 files ({list})"
            ),
            Kind::Script => format!("{path}: {who} only rhai files here (.rhai)"),
        }
    }
}

/// Who the policy speaks for, which only changes how a refusal reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A script or REPL session: what the script may read.
    #[default]
    Script,
    /// A plain command: what the files it reads may name.
    Command,
}

/// The folders and files a session may read.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Canonical folders: everything below them may be read.
    roots: Vec<PathBuf>,
    /// Canonical files the person named on the command line.
    named: HashSet<PathBuf>,
    /// A plain command's arguments as typed: read as given, whatever their kind, so a typed
    /// device or missing file is reported as such.
    typed: HashSet<PathBuf>,
    scope: Scope,
}

/// The message for a path a script may not read: it names the path only, never anything read
/// from it.
pub(crate) fn outside(path: &str) -> String {
    Scope::Script.outside(path)
}

impl Scope {
    /// The refusal of a path outside the policy, in this scope's words.
    pub(crate) fn outside(self, path: &str) -> String {
        match self {
            Scope::Script => format!(
                "{path}: outside what this script may read (its folder and the current folder; \
                 --allow-read DIR widens it)"
            ),
            Scope::Command => format!(
                "{path}: outside what a file may name (its own folder, the current folder and \
                 the files on the command line; --allow-read DIR widens it)"
            ),
        }
    }
}

impl Policy {
    /// The current folder only (the REPL, and sessions made in tests).
    pub fn current_folder() -> Policy {
        Policy::current_folder_in(Scope::Script)
    }

    fn current_folder_in(scope: Scope) -> Policy {
        let mut p = Policy {
            scope,
            ..Policy::default()
        };
        if let Ok(dir) = std::env::current_dir() {
            p.allow_folder(&dir);
        }
        p
    }

    /// A plain command's policy: the current folder, each `--allow-read DIR`, and every
    /// argument that names an existing file (a `--flag=PATH` counts by its value).
    pub fn for_command(args: &[String], allow_read: &[String]) -> Result<Policy> {
        let mut p = Policy::current_folder_in(Scope::Command);
        for dir in allow_read {
            p.allow_read(dir)?;
        }
        for arg in args {
            let value = arg.split_once('=').map(|(_, v)| v);
            for typed in std::iter::once(arg.as_str()).chain(value) {
                p.allow_named(typed);
                // Even a missing path typed is read as given, to be reported as missing.
                p.typed.insert(PathBuf::from(typed));
            }
        }
        Ok(p)
    }

    /// A script's policy: its folder and the current folder.
    pub(crate) fn for_script(script: &str) -> Policy {
        let mut p = Policy::current_folder();
        let dir = Path::new(script)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        p.allow_folder(dir);
        p
    }

    /// Everything below `dir` (`--allow-read DIR`). A folder that does not exist is an error.
    pub fn allow_read(&mut self, dir: &str) -> Result<()> {
        let canonical = std::fs::canonicalize(dir)
            .map_err(|e| Error::msg(format!("--allow-read {dir}: {e}")))?;
        if !canonical.is_dir() {
            return Err(Error::msg(format!("--allow-read {dir}: not a folder")));
        }
        self.roots.push(canonical);
        Ok(())
    }

    fn allow_folder(&mut self, dir: &Path) {
        if let Ok(c) = std::fs::canonicalize(dir) {
            if !self.roots.contains(&c) {
                self.roots.push(c);
            }
        }
    }

    /// A path the person typed (`--rules PATH`, a script argument): exactly that file may be read.
    /// Anything that is not an existing file (a built-in name, a number) is ignored.
    pub(crate) fn allow_named(&mut self, path: &str) {
        if let Ok(c) = std::fs::canonicalize(path) {
            if c.is_file() {
                self.named.insert(c);
            }
        }
    }

    /// Whether `path` may be read as `kind`; `beside` is the folder of the file that names it,
    /// when it is a ruleset's hook or `extends`, or a record's `rules:` (which may sit there).
    pub(crate) fn check(&self, path: &Path, kind: Kind, beside: Option<&Path>) -> Result<()> {
        self.permit(path, kind, beside).map(|_| ())
    }

    /// `check`, keeping what was allowed: the file's canonical path, which the file opened
    /// later must still have.
    pub(crate) fn permit(&self, path: &Path, kind: Kind, beside: Option<&Path>) -> Result<Permit> {
        if beside.is_none() && self.typed.contains(path) {
            // The person's own: read as given (and the opened file checked as `read_text` does).
            return Ok(Permit::as_given(path));
        }
        let shown = path.display().to_string();
        let real = real_path(path).filter(|real| self.allows(real, beside));
        let Some(real) = real else {
            return Err(Error::msg(self.scope.outside(&shown)));
        };
        if !path
            .to_str()
            .and_then(FileKind::of)
            .is_some_and(|k| kind.files().contains(&k))
        {
            return Err(Error::msg(kind.refusal(&shown, self.scope)));
        }
        Ok(Permit {
            path: path.to_path_buf(),
            real: Some(real),
        })
    }

    fn is_within(&self, path: &Path, beside: Option<&Path>) -> bool {
        real_path(path).is_some_and(|real| self.allows(&real, beside))
    }

    /// Whether a canonical path is inside the policy (or in `beside`'s folder tree).
    fn allows(&self, real: &Path, beside: Option<&Path>) -> bool {
        if self.named.contains(real) || self.roots.iter().any(|r| real.starts_with(r)) {
            return true;
        }
        beside
            .and_then(|d| std::fs::canonicalize(d).ok())
            .is_some_and(|dir| real.starts_with(dir))
    }

    /// Who this policy speaks for.
    pub(crate) fn scope(&self) -> Scope {
        self.scope
    }

    /// The file just opened as `path`, by the canonical path of its descriptor: a name that
    /// passed `check` may have been swapped for a link elsewhere since.
    pub(super) fn check_opened(&self, path: &str, opened: &Path) -> Result<()> {
        match self.allows(opened, None) {
            true => Ok(()),
            false => Err(Error::msg(self.scope.outside(path))),
        }
    }
}

/// A file the policy let a caller read: read it with `read_text`, which opens it once and
/// refuses it if what was opened is not the file that was allowed.
#[derive(Debug, Clone)]
pub(crate) struct Permit {
    path: PathBuf,
    /// The canonical path allowed; `None` for a file its caller was handed (read as given).
    real: Option<PathBuf>,
}

impl Permit {
    /// A file read as given: one the person named, or a library caller's own.
    pub(crate) fn as_given(path: &Path) -> Permit {
        Permit {
            path: path.to_path_buf(),
            real: None,
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The file's text, read through the one open descriptor that was checked.
    pub(crate) fn read_text(&self) -> Result<String> {
        let shown = self.path.display().to_string();
        match &self.real {
            Some(real) => super::read::read_text_opened_as(&shown, real),
            None => super::read::read_text(&shown),
        }
    }
}

/// The canonical form of a path: the file's own if it exists; for a file not there (yet), its
/// folder's canonical form plus the name (so a missing file is refused or reported as missing
/// the same way whatever its folder holds). `None` if not even the folder resolves.
pub(crate) fn real_path(path: &Path) -> Option<PathBuf> {
    if let Ok(c) = std::fs::canonicalize(path) {
        return Some(c);
    }
    let name = path.file_name()?;
    if path
        .components()
        .next_back()
        .is_some_and(|c| matches!(c, Component::ParentDir))
    {
        return None;
    }
    let parent = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::canonicalize(parent).ok().map(|d| d.join(name))
}

thread_local! {
    static ACTIVE: crate::scoped::Slot<Policy> = const { RefCell::new(None) };
}

/// The policy in force on this thread, if a script session is running here.
pub(crate) fn current() -> Option<Arc<Policy>> {
    crate::scoped::current(&ACTIVE)
}

/// Run `work` with `policy` in force on this thread (and restore what was there before).
pub fn enter<T>(policy: Option<Arc<Policy>>, work: impl FnOnce() -> T) -> T {
    crate::scoped::enter(&ACTIVE, policy, work)
}

/// A path a script names, checked against the session's policy (every script API read).
pub fn check_script_path(path: &str, kind: Kind) -> Result<()> {
    match current() {
        Some(p) => p.check(Path::new(path), kind, None),
        // API functions only run inside a session; refuse rather than read unchecked.
        None => Err(Error::msg(outside(path))),
    }
}

/// Only where a path a script names leads (for calls with their own word on formats).
pub(crate) fn check_script_location(path: &str) -> Result<()> {
    match current() {
        Some(p) if p.is_within(Path::new(path), None) => Ok(()),
        Some(p) => Err(Error::msg(p.scope.outside(path))),
        None => Err(Error::msg(outside(path))),
    }
}

/// A file about to be read as `kind` because the person or a file named it: `beside` is the
/// folder of the file that names it (`extends`, a record's `rules:`, a hook), `None` for a
/// name the person gave. The policy in force decides; with none (a library caller), a name
/// the caller gave is read as given, and what a file names must sit beside it or in the
/// current folder.
pub(crate) fn permit(path: &Path, kind: Kind, beside: Option<&Path>) -> Result<Permit> {
    match (current(), beside) {
        (Some(p), _) => p.permit(path, kind, beside),
        (None, None) => Ok(Permit::as_given(path)),
        (None, Some(_)) => Policy::current_folder_in(Scope::Command).permit(path, kind, beside),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy_for(dir: &Path) -> Policy {
        let mut p = Policy::default();
        p.allow_folder(dir);
        p
    }

    #[test]
    fn files_inside_the_folder_pass_and_escapes_do_not() {
        let outer = tempfile::tempdir().unwrap();
        let inner = outer.path().join("club");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(inner.join("game.yaml"), "x: 1\n").unwrap();
        std::fs::write(outer.path().join("secret.yaml"), "x: 1\n").unwrap();
        let p = policy_for(&inner);
        assert!(p
            .check(&inner.join("game.yaml"), Kind::Record, None)
            .is_ok());
        assert!(
            p.check(&inner.join("missing.yaml"), Kind::Record, None)
                .is_ok(),
            "missing files are reported by the reader"
        );
        let e = p
            .check(&inner.join("../secret.yaml"), Kind::Record, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside what this script may read"), "{e}");
        assert!(p
            .check(&outer.path().join("secret.yaml"), Kind::Record, None)
            .is_err());
        assert!(p
            .check(&inner.join("nowhere/../../secret.yaml"), Kind::Record, None)
            .is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_out_of_the_folder_is_refused() {
        let outer = tempfile::tempdir().unwrap();
        let inner = outer.path().join("club");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(outer.path().join("secret.yaml"), "x: 1\n").unwrap();
        std::os::unix::fs::symlink(outer.path().join("secret.yaml"), inner.join("link.yaml"))
            .unwrap();
        std::os::unix::fs::symlink(outer.path(), inner.join("up")).unwrap();
        let p = policy_for(&inner);
        assert!(p
            .check(&inner.join("link.yaml"), Kind::Record, None)
            .is_err());
        assert!(p
            .check(&inner.join("up/secret.yaml"), Kind::Record, None)
            .is_err());
    }

    #[test]
    fn named_files_pass_exactly_and_companions_sit_beside_them() {
        let outer = tempfile::tempdir().unwrap();
        std::fs::write(outer.path().join("house.rules"), "x").unwrap();
        std::fs::write(outer.path().join("other.rules"), "x").unwrap();
        std::fs::write(outer.path().join("hook.rhai"), "x").unwrap();
        let mut p = Policy::default();
        p.allow_named(outer.path().join("house.rules").to_str().unwrap());
        assert!(p
            .check(&outer.path().join("house.rules"), Kind::Ruleset, None)
            .is_ok());
        assert!(p
            .check(&outer.path().join("other.rules"), Kind::Ruleset, None)
            .is_err());
        assert!(p
            .check(
                &outer.path().join("hook.rhai"),
                Kind::Script,
                Some(outer.path())
            )
            .is_ok());
        assert!(p
            .check(&outer.path().join("hook.rhai"), Kind::Script, None)
            .is_err());
    }

    #[test]
    fn each_kind_reads_only_its_formats() {
        let dir = tempfile::tempdir().unwrap();
        let p = policy_for(dir.path());
        let e = p
            .check(&dir.path().join("teams.txt"), Kind::Record, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("only ruleset and record files here"), "{e}");
        assert!(p
            .check(&dir.path().join("teams.txt"), Kind::TeamList, None)
            .is_ok());
        assert!(p
            .check(&dir.path().join("passwd"), Kind::Ruleset, None)
            .is_err());
    }

    #[test]
    fn the_policy_is_per_thread_and_restored() {
        assert!(current().is_none());
        enter(Some(Arc::new(Policy::default())), || {
            assert!(current().is_some());
            assert!(std::thread::spawn(|| current().is_none()).join().unwrap());
        });
        assert!(current().is_none());
    }
}
