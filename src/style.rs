//! Colour in arbiter's own output: bold table headers, red errors, yellow warnings. Only where
//! it helps: `--color auto` (the default) colours a terminal unless `NO_COLOR` is set;
//! `always` and `never` decide outright. Text that is not coloured is exactly the plain text.
use anstyle::{AnsiColor, Style};
use std::sync::atomic::{AtomicU8, Ordering};

/// The program's choice. The library alone (its tests, another program using it) stays plain
/// until the command line chooses.
static CHOICE: AtomicU8 = AtomicU8::new(NEVER);
const NEVER: u8 = 0;
const AUTO: u8 = 1;
const ALWAYS: u8 = 2;

/// Where text goes.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    Out,
    Err,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set
    #[default]
    Auto,
    Always,
    Never,
}

/// Set the choice for the whole program (`--color`), clap's messages included.
pub fn choose(choice: ColorChoice) {
    let (ours, theirs) = match choice {
        ColorChoice::Auto => (AUTO, anstream::ColorChoice::Auto),
        ColorChoice::Always => (ALWAYS, anstream::ColorChoice::Always),
        ColorChoice::Never => (NEVER, anstream::ColorChoice::Never),
    };
    CHOICE.store(ours, Ordering::Relaxed);
    theirs.write_global();
}

/// Whether text for `stream` is coloured, by `--color`, `NO_COLOR`, `CLICOLOR_FORCE` and
/// whether it is a terminal.
pub fn colored(stream: Stream) -> bool {
    match CHOICE.load(Ordering::Relaxed) {
        NEVER => return false,
        ALWAYS => return true,
        _ => {}
    }
    let choice = match stream {
        Stream::Out => anstream::AutoStream::choice(&std::io::stdout()),
        Stream::Err => anstream::AutoStream::choice(&std::io::stderr()),
    };
    !matches!(choice, anstream::ColorChoice::Never)
}

fn paint(stream: Stream, style: Style, text: &str) -> String {
    if colored(stream) {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// A table's header row, bold.
pub fn header(text: &str) -> String {
    paint(Stream::Out, Style::new().bold(), text)
}

/// `error:` in bold red, for standard error.
pub fn error_label() -> String {
    paint(
        Stream::Err,
        Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
        "error:",
    )
}

/// `warning:` in bold yellow, for standard error.
pub fn warning_label() -> String {
    paint(
        Stream::Err,
        Style::new().bold().fg_color(Some(AnsiColor::Yellow.into())),
        "warning:",
    )
}

/// Print an error on standard error, in the one style: `error: ` then the error (located
/// errors as `FILE:LINE:COL: message` with the line shown).
pub fn report_error(e: &crate::error::Error) {
    eprintln!("{} {e}", error_label());
}

/// Print a warning on standard error: `warning: TEXT`.
pub fn warn(text: &str) {
    eprintln!("{} {text}", warning_label());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_alone_is_plain() {
        // Until the command line chooses, nothing is coloured (library tests compare text).
        assert_eq!(header("ship  shields"), "ship  shields");
        assert_eq!(error_label(), "error:");
        assert_eq!(warning_label(), "warning:");
    }
}
