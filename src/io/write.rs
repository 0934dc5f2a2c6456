//! Writing a file: whole or not at all, through symlinks, keeping modes, never over an input.
use super::input_guard;
use super::read::io_error;
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// What a write may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replace {
    /// Nothing: only a new file (checked atomically, so two runs cannot both create it).
    Nothing,
    /// An output: a new file, or one that is none of this run's inputs.
    Output,
    /// The file this run read in order to update it (a season recording a result).
    ItsOwnInput,
}

/// Write `contents` to `path` as an output (see `write_file`).
pub(crate) fn write_atomically(path: &str, contents: &str) -> Result<()> {
    write_file(path, contents, Replace::Output)
}

/// Write a file atomically: a temporary file beside the target, flushed, then renamed over it,
/// so the file is whole or untouched. A symlink is written through (the link stays, its target
/// changes) when it leads to a file in the same folder or below; one leading out of it is
/// refused (a link planted in an output folder must not aim a write elsewhere). An existing
/// file keeps its mode, a new one gets the umask's (0644 under 022); a read-only file is
/// refused, and so is any file this run read, unless the write is that file's own update.
/// Says `wrote FILE` on standard error.
pub(crate) fn write_file(path: &str, contents: &str, replace: Replace) -> Result<()> {
    write_file_quietly(path, contents, replace)?;
    crate::style::note(&format!("wrote {path}"));
    Ok(())
}

/// `write_file` without the `wrote FILE` (a command writing many files says so once).
pub(crate) fn write_file_quietly(path: &str, contents: &str, replace: Replace) -> Result<()> {
    let target = through_links(Path::new(path)).map_err(|e| io_error(path, &e))?;
    if target != Path::new(path) {
        stays_in_its_folder(path, &target)?;
    }
    let existing = match std::fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(path, &e)),
    };
    if let Some(meta) = &existing {
        if meta.is_dir() {
            return Err(Error::msg(format!("{path}: is a directory, not a file")));
        }
        if !meta.is_file() {
            return Err(Error::msg(format!(
                "{path}: is not a regular file; arbiter writes only files"
            )));
        }
        if meta.permissions().readonly() {
            return Err(Error::msg(format!(
                "{path}: is read-only; not writing over it"
            )));
        }
        if replace == Replace::Nothing {
            return Err(Error::msg(format!(
                "{path}: already exists; not writing over it"
            )));
        }
        if replace == Replace::Output && input_guard::was_read(&target) {
            return Err(Error::msg(format!(
                "{path}: is one of this command's inputs; not writing over it (choose another \
                 file)"
            )));
        }
    }
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temporaries(dir, &name);
    let fail = |e: &dyn std::fmt::Display| Error::msg(format!("{path}: cannot write: {e}"));
    let tmp = temporary_beside(dir, &name).map_err(|e| fail(&e))?;
    let guard = InFlight::new(tmp.path().to_path_buf());
    let result = (|| {
        let mut file = tmp.as_file();
        file.write_all(contents.as_bytes())?;
        if let Some(meta) = &existing {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        if replace == Replace::Nothing {
            tmp.persist_noclobber(&target).map_err(|e| e.error)?;
        } else {
            tmp.persist(&target).map_err(|e| e.error)?;
        }
        Ok::<(), std::io::Error>(())
    })();
    drop(guard);
    result.map_err(|e| fail(&e))?;
    Ok(())
}

/// Make a folder to write files into (and the folders above it); one already there is fine,
/// anything else by that name is an error.
pub(crate) fn create_folder(path: &str) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => {
            return Err(Error::msg(format!(
                "{path}: is a file, not a folder; name a folder to write into"
            )))
        }
        Err(_) => {}
    }
    std::fs::create_dir_all(path).map_err(|e| io_error(path, &e))
}

/// The file a path finally names, symlinks followed (a dangling link names its missing target).
fn through_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Refuse a link `path` whose final `target` is outside the folder `path` is in (compared
/// canonically, so `..` and linked folders on the way count where they lead).
fn stays_in_its_folder(path: &str, target: &Path) -> Result<()> {
    let folder_of = |p: &Path| {
        p.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf()
    };
    let folder = folder_of(Path::new(path));
    let inside = match (
        std::fs::canonicalize(&folder),
        std::fs::canonicalize(folder_of(target)),
    ) {
        (Ok(folder), Ok(lands)) => lands.starts_with(&folder),
        _ => false,
    };
    if inside {
        return Ok(());
    }
    Err(Error::msg(format!(
        "{path}: is a symlink to {}, outside {}; not writing through it (remove the link, or \
         write to its target by name)",
        target.display(),
        folder.display()
    )))
}

/// Temporary files are named `.NAME.PID.XXXXXX.arbiter-tmp`, so a later write of the same file
/// can recognise (and remove) one left by a run that was killed.
const TEMP_SUFFIX: &str = ".arbiter-tmp";

fn temporary_beside(dir: &Path, name: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!(".{name}.{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with 0666, so the umask decides a new file's mode as it does for any program.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Remove temporary files of `name` left behind by runs that no longer exist (`kill -9`).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(middle) = file
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        let Some(pid) = middle.split('.').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // Signal 0 checks for existence; EPERM means it exists but is someone else's.
    unsafe {
        libc::kill(pid, 0) == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
}

#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    true
}

// ---- temporary files to remove if the run is interrupted --------------------------------------

fn in_flight() -> &'static Mutex<HashSet<PathBuf>> {
    static FILES: OnceLock<Mutex<HashSet<PathBuf>>> = OnceLock::new();
    FILES.get_or_init(|| Mutex::new(HashSet::new()))
}

/// A temporary file registered for removal on Ctrl-C while it exists.
struct InFlight(PathBuf);

impl InFlight {
    fn new(path: PathBuf) -> InFlight {
        in_flight()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(path.clone());
        InFlight(path)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        in_flight()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.0);
    }
}

/// Remove every temporary file a write in progress holds (called on Ctrl-C, before exiting).
pub(crate) fn remove_temporaries() {
    let files = in_flight().lock().unwrap_or_else(|p| p.into_inner());
    for f in files.iter() {
        let _ = std::fs::remove_file(f);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn an_existing_file_keeps_its_mode_and_a_symlink_stays_a_link() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.yaml");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = d.path().join("link.yaml");
        std::os::unix::fs::symlink("real.yaml", &link).unwrap();
        write_atomically(link.to_str().unwrap(), "new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(mode(&real), 0o640);
        assert_eq!(leftovers(d.path()), ["link.yaml", "real.yaml"]);
    }

    #[test]
    fn a_link_leading_out_of_its_folder_is_refused_and_both_ends_left_alone() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let outside = d.path().join("precious.txt");
        std::fs::write(&outside, "keep").unwrap();
        let planted = out.join("page.1");
        std::os::unix::fs::symlink("../precious.txt", &planted).unwrap();
        let e = write_atomically(planted.to_str().unwrap(), "roff")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is a symlink to") && e.contains("outside"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert!(std::fs::symlink_metadata(&planted)
            .unwrap()
            .file_type()
            .is_symlink());
        // A dangling link out of the folder would create the file there: refused too.
        let dangling = out.join("new.1");
        std::os::unix::fs::symlink("../created.txt", &dangling).unwrap();
        assert!(write_atomically(dangling.to_str().unwrap(), "x").is_err());
        assert!(!d.path().join("created.txt").exists());
        // Into a subfolder is inside.
        std::fs::create_dir(out.join("sub")).unwrap();
        let down = out.join("down.1");
        std::os::unix::fs::symlink("sub/real.1", &down).unwrap();
        write_atomically(down.to_str().unwrap(), "ok").unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("sub/real.1")).unwrap(),
            "ok"
        );
        assert_eq!(leftovers(&out), ["down.1", "new.1", "page.1", "sub"]);
    }

    #[test]
    fn read_only_files_and_inputs_are_refused_and_left_alone() {
        let d = tempfile::tempdir().unwrap();
        let locked = d.path().join("locked.yaml");
        std::fs::write(&locked, "keep").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = write_atomically(locked.to_str().unwrap(), "x")
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("is read-only; not writing over it"), "{e}");
        let input = d.path().join("season.yaml");
        std::fs::write(&input, "name: x\n").unwrap();
        crate::io::read_text(input.to_str().unwrap()).unwrap();
        let e = write_atomically(input.to_str().unwrap(), "<html>")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is one of this command's inputs"), "{e}");
        write_file(input.to_str().unwrap(), "name: y\n", Replace::ItsOwnInput).unwrap();
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "name: y\n");
        assert_eq!(std::fs::read_to_string(&locked).unwrap(), "keep");
        assert_eq!(leftovers(d.path()), ["locked.yaml", "season.yaml"]);
    }

    #[test]
    fn a_temporary_left_by_a_killed_run_is_removed_by_the_next_write() {
        let d = tempfile::tempdir().unwrap();
        // No process has pid 2^22 + 1 (Linux caps pids at 2^22).
        let stale = d
            .path()
            .join(format!(".out.svg.{}.abc123{TEMP_SUFFIX}", (1u32 << 22) + 1));
        std::fs::write(&stale, "half").unwrap();
        let other = d.path().join(format!(
            ".other.svg.{}.abc123{TEMP_SUFFIX}",
            (1u32 << 22) + 1
        ));
        std::fs::write(&other, "not ours").unwrap();
        write_atomically(d.path().join("out.svg").to_str().unwrap(), "<svg/>").unwrap();
        assert!(!stale.exists());
        assert!(
            other.exists(),
            "a temporary of another file is left to that file's next write"
        );
    }
}
