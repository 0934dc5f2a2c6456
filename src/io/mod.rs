//! The one I/O layer: every file arbiter reads or writes goes through here. Engines and the
//! scripting layer call it, never `std::fs` directly.
//!
//! * `read_text`: only regular files, a bounded size, UTF-8 (BOM dropped), empty refused.
//! * `write_file`: atomic, through symlinks, modes kept, never over an input or a read-only file.
//! * `create_folder`: a folder to write a set of files into (a site).
//! * `with_file_lock`: read-change-write a file under a lock held on the file itself.
//! * `policy`: which files a script, and the rulesets it loads, may read.
//! * `FileKind`/`Format`: the one table of extensions.
//! * `entries_of_kinds`: a folder's names, for completion (nothing is opened).
//! * `install_interrupt_cleanup`: Ctrl-C removes the temporary file of a write in progress.
pub(crate) mod cache;
mod format;
mod input_guard;
mod listing;
mod lock;
pub mod policy;
mod read;
mod write;

pub use format::{FileKind, Format};
pub(crate) use listing::entries_of_kinds;
pub(crate) use lock::with_file_lock;
pub use read::{open_text_stream, read_text, MAX_FILE_BYTES};
pub(crate) use write::{
    create_folder, remove_temporaries, write_atomically, write_file, write_file_quietly, Replace,
};

/// On Ctrl-C (or SIGTERM), remove the temporary file of any write in progress, then exit with
/// the usual 130; unless the work in progress is interruptible (a REPL entry), which then stops
/// and leaves the program running. Installed once by the program's `main`.
pub(crate) fn install_interrupt_cleanup() {
    let _ = ctrlc::set_handler(|| {
        if crate::stop::CTRL_C.interrupt() {
            return;
        }
        remove_temporaries();
        std::process::exit(130);
    });
}
