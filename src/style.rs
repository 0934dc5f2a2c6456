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

/// How much arbiter says on standard error besides errors: `-q` nothing more, `-v` also why
/// it did what it did (which ruleset, and why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

static VERBOSITY: AtomicU8 = AtomicU8::new(Verbosity::Normal as u8);

/// Set how much the program says (`-q`, `-v`).
pub(crate) fn set_verbosity(v: Verbosity) {
    VERBOSITY.store(v as u8, Ordering::Relaxed);
}

fn verbosity() -> u8 {
    VERBOSITY.load(Ordering::Relaxed)
}

/// A note on standard error (`wrote season.yaml`), unless `-q`.
pub(crate) fn note(text: &str) {
    if verbosity() > Verbosity::Quiet as u8 {
        eprintln!("{}", printable(text, Stream::Err));
    }
}

/// Whether `-v` asked for the reasons (so that what only `-v` prints is only then computed).
pub(crate) fn is_verbose() -> bool {
    verbosity() == Verbosity::Verbose as u8
}

/// Why arbiter did something (`ruleset startrek: the command's default`), only with `-v`.
pub(crate) fn explain(text: &str) {
    if verbosity() == Verbosity::Verbose as u8 {
        eprintln!("{}", printable(text, Stream::Err));
    }
}

/// Where text goes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stream {
    Out,
    Err,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set
    #[default]
    Auto,
    Always,
    Never,
}

/// Set the choice for the whole program (`--color`), clap's messages included.
pub(crate) fn choose(choice: ColorChoice) {
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
pub(crate) fn colored(stream: Stream) -> bool {
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

fn header_style() -> Style {
    Style::new().bold()
}

fn error_style() -> Style {
    Style::new().bold().fg_color(Some(AnsiColor::Red.into()))
}

fn warning_style() -> Style {
    Style::new().bold().fg_color(Some(AnsiColor::Yellow.into()))
}

/// A table's header row, bold when `color`.
pub(crate) fn header(text: &str, color: bool) -> String {
    if color {
        let style = header_style();
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// `error:` in bold red, for standard error.
pub(crate) fn error_label() -> String {
    paint(Stream::Err, error_style(), "error:")
}

/// `warning:` in bold yellow, for standard error.
pub(crate) fn warning_label() -> String {
    paint(Stream::Err, warning_style(), "warning:")
}

/// Print an error on standard error, in the one style: `error: ` then the error (located
/// errors as `FILE:LINE:COL: message` with the line shown).
pub(crate) fn report_error(e: &crate::error::Error) {
    eprintln!(
        "{} {}",
        error_label(),
        printable(&e.to_string(), Stream::Err)
    );
}

/// Print a warning on standard error: `warning: TEXT`.
pub(crate) fn warn(text: &str) {
    if verbosity() == Verbosity::Quiet as u8 {
        return;
    }
    eprintln!("{} {}", warning_label(), printable(text, Stream::Err));
}

/// Text for the terminal as it should show, never act: every control character a name or a
/// file brought in (an escape sequence, a carriage return, a bell) is written out as `\u{1b}`,
/// except line breaks and tabs, and the colour sequences arbiter itself adds to `stream`.
/// Everything arbiter prints goes through here.
pub(crate) fn printable(text: &str, stream: Stream) -> std::borrow::Cow<'_, str> {
    let shown = |c: char| !crate::names::is_unprintable(c) || c == '\n' || c == '\t';
    if text.chars().all(shown) {
        return std::borrow::Cow::Borrowed(text);
    }
    let own = if colored(stream) {
        own_sequences()
    } else {
        Vec::new()
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(seq) = own.iter().find(|s| rest.starts_with(s.as_str())) {
            out.push_str(seq);
            rest = &rest[seq.len()..];
            continue;
        }
        if shown(c) {
            out.push(c);
        } else {
            out.push_str(&crate::names::escaped(c.encode_utf8(&mut [0; 4])));
        }
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

/// The escape sequences of arbiter's own styles (and their reset).
fn own_sequences() -> Vec<String> {
    [header_style(), error_style(), warning_style()]
        .iter()
        .flat_map(|s| [s.render().to_string(), s.render_reset().to_string()])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_alone_is_plain() {
        // Until the command line chooses, nothing is coloured (library tests compare text).
        assert_eq!(header("ship  shields", false), "ship  shields");
        assert_eq!(error_label(), "error:");
        assert_eq!(warning_label(), "warning:");
    }

    #[test]
    fn control_characters_print_as_text_but_lines_and_tabs_stay() {
        let shown = printable("Ana\u{1b}]0;owned\u{7}\tBo\r\nnext\u{9b}31m", Stream::Out);
        assert_eq!(shown, "Ana\\u{1b}]0;owned\\u{7}\tBo\\u{d}\nnext\\u{9b}31m");
        assert!(matches!(
            printable("plain\ttext\n", Stream::Err),
            std::borrow::Cow::Borrowed(_)
        ));
        // Plain output keeps no escape at all, not even one that looks like arbiter's own.
        let bold = header_style().render().to_string();
        assert_eq!(printable(&bold, Stream::Out), "\\u{1b}[1m");
    }
}
