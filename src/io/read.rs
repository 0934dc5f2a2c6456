//! Reading an input file: only regular files, a bounded number of bytes, UTF-8 text.
use super::input_guard;
use crate::error::{Error, Result, Source, Span};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// Longest input file accepted (a guard against feeding the program a disk image).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Longest input read as a stream (a CSV rating history): it is never held whole, so the
/// cap is only a backstop; what bounds memory is the reader's own count of rows.
pub(crate) const MAX_STREAM_BYTES: u64 = 4 * 1024 * 1024 * 1024;

const BOM: char = '\u{feff}';

/// Read a text file. Refuses directories, devices, pipes and sockets by their type (a FIFO
/// would block, `/dev/zero` would never end), reads at most `MAX_FILE_BYTES` whatever the
/// file claims its size is, drops a UTF-8 byte-order mark, and refuses empty or non-UTF-8
/// files with the place of the first bad byte.
///
/// Under a read policy (a script session, a plain command), the file actually opened must be
/// inside it too: see `policy`.
pub fn read_text(path: &str) -> Result<String> {
    read_checked(path, |file| match super::policy::current() {
        Some(policy) => policy.check_opened(path, &opened_path(path, file)?),
        None => Ok(()),
    })
}

/// A text file to read as it goes (a CSV history too big to hold): the same checks as
/// `read_text` (a regular file, inside the read policy), at most `MAX_STREAM_BYTES`, a UTF-8
/// byte-order mark dropped. UTF-8 is the reader's to check; an empty file is refused here.
pub fn open_text_stream(path: &str) -> Result<impl std::io::BufRead> {
    use std::io::BufRead;
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    refuse_non_regular(path, &meta)?;
    let file = open_nonblocking(Path::new(path)).map_err(|e| io_error(path, &e))?;
    let meta = file.metadata().map_err(|e| io_error(path, &e))?;
    refuse_non_regular(path, &meta)?;
    if meta.len() > MAX_STREAM_BYTES {
        return Err(Error::msg(format!(
            "{path}: too large (more than {MAX_STREAM_BYTES} bytes)"
        )));
    }
    if let Some(policy) = super::policy::current() {
        policy.check_opened(path, &opened_path(path, &file)?)?;
    }
    input_guard::note_read(Path::new(path));
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file.take(MAX_STREAM_BYTES));
    let head = reader.fill_buf().map_err(|e| io_error(path, &e))?;
    if head.is_empty() {
        return Err(decode(path, Vec::new()).expect_err("empty is refused"));
    }
    if head.starts_with("\u{feff}".as_bytes()) {
        reader.consume(BOM.len_utf8());
    }
    Ok(reader)
}

/// `read_text` of a file the policy allowed as `allowed` (its canonical path): refused unless
/// the file opened is that one, whatever the name leads to by now.
pub(super) fn read_text_opened_as(path: &str, allowed: &Path) -> Result<String> {
    read_checked(path, |file| {
        if opened_path(path, file)? == allowed {
            return Ok(());
        }
        // Not the file the policy allowed: the name was changed between the check and the open.
        let scope = super::policy::current()
            .map(|p| p.scope())
            .unwrap_or_default();
        Err(Error::msg(scope.outside(path)))
    })
}

/// Open `path` once, check the open file (its type, then `verify`), and read it.
fn read_checked(path: &str, verify: impl Fn(&std::fs::File) -> Result<()>) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    refuse_non_regular(path, &meta)?;
    let file = open_nonblocking(Path::new(path)).map_err(|e| io_error(path, &e))?;
    // The name may have been swapped for something else since it was looked at.
    refuse_non_regular(path, &file.metadata().map_err(|e| io_error(path, &e))?)?;
    verify(&file)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, &e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::msg(format!(
            "{path}: too large (more than {MAX_FILE_BYTES} bytes)"
        )));
    }
    input_guard::note_read(Path::new(path));
    decode(path, bytes)
}

/// Bytes to text: the BOM dropped, empty and non-UTF-8 input refused.
fn decode(path: &str, mut bytes: Vec<u8>) -> Result<String> {
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..BOM.len_utf8());
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        let source = Arc::new(Source {
            name: path.to_string(),
            text: String::new(),
        });
        let what = if bytes.is_empty() {
            "the file is empty"
        } else {
            "the file holds only blank lines"
        };
        return Err(Span::new(&source, 1, 1).at(what));
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let col = String::from_utf8_lossy(before)
            .chars()
            .rev()
            .take_while(|c| *c != '\n')
            .count()
            + 1;
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let source = Arc::new(Source {
            name: path.to_string(),
            text,
        });
        Span::new(&source, line, col).at(format!(
            "not UTF-8 text (byte {offset} is 0x{:02x}; a binary file?)",
            e.as_bytes()[offset]
        ))
    })
}

fn refuse_non_regular(path: &str, meta: &std::fs::Metadata) -> Result<()> {
    let t = meta.file_type();
    if t.is_dir() {
        return Err(Error::msg(format!("{path}: is a directory, not a file")));
    }
    if !t.is_file() {
        return Err(Error::msg(format!(
            "{path}: is not a regular file ({}); arbiter reads only files",
            special_kind(&t)
        )));
    }
    Ok(())
}

#[cfg(unix)]
fn special_kind(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "not a file"
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// The canonical path of an open file, from its descriptor (what was opened, not what the name
/// leads to now).
#[cfg(target_os = "linux")]
fn opened_path(path: &str, file: &std::fs::File) -> Result<std::path::PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .map_err(|e| Error::msg(format!("{path}: cannot tell which file was opened ({e})")))
}

/// Elsewhere the name is resolved again right after the open: a narrower window, not none.
#[cfg(not(target_os = "linux"))]
fn opened_path(path: &str, _file: &std::fs::File) -> Result<std::path::PathBuf> {
    std::fs::canonicalize(path).map_err(|e| io_error(path, &e))
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// A file error in a person's words.
pub(crate) fn io_error(path: &str, e: &std::io::Error) -> Error {
    let reason = match e.kind() {
        // ELOOP: a chain of links back to itself (or longer than the system follows).
        _ if e.raw_os_error() == Some(libc::ELOOP) => {
            "a symbolic link loops (the links lead back to themselves)".to_string()
        }
        std::io::ErrorKind::NotFound if Path::new(path).is_symlink() => {
            "a symbolic link to a file that is not there".to_string()
        }
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".to_string(),
        _ => e.to_string(),
    };
    Error::msg(format!("{path}: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(bytes: &[u8]) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), bytes).unwrap();
        f
    }

    #[test]
    fn the_bom_is_dropped() {
        let f = temp("\u{feff}# comment\nname: x\n".as_bytes());
        assert_eq!(
            read_text(f.path().to_str().unwrap()).unwrap(),
            "# comment\nname: x\n"
        );
    }

    #[test]
    fn empty_and_binary_files_say_so() {
        let f = temp(b"");
        assert!(read_text(f.path().to_str().unwrap())
            .unwrap_err()
            .to_string()
            .contains(":1:1: the file is empty"));
        let f = temp(b"name: x\nab\xffc\n");
        let e = read_text(f.path().to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains(":2:3: not UTF-8 text (byte 10 is 0xff"), "{e}");
    }

    #[test]
    fn directories_and_devices_are_refused_by_type() {
        let d = tempfile::tempdir().unwrap();
        let e = read_text(d.path().to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("is a directory, not a file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_text("/dev/zero").unwrap_err().to_string();
            assert_eq!(
                e,
                "/dev/zero: is not a regular file (a device); arbiter reads only files"
            );
        }
        let e = read_text(&format!("{}/missing.yaml", d.path().display()))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("missing.yaml: no such file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn links_that_loop_or_lead_nowhere_say_so() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a.yaml"), d.path().join("b.yaml"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = read_text(a.to_str().unwrap()).unwrap_err().to_string();
        assert!(e.ends_with("a.yaml: a symbolic link loops (the links lead back to themselves)"));
        let dangling = d.path().join("c.yaml");
        std::os::unix::fs::symlink(d.path().join("gone.yaml"), &dangling).unwrap();
        let e = read_text(dangling.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("c.yaml: a symbolic link to a file that is not there"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("pipe.yaml");
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(p.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            e.ends_with("is not a regular file (a pipe); arbiter reads only files"),
            "{e}"
        );
    }
}
