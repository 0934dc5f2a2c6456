//! Errors that carry where they happened: file, line, column and the line itself.
use crate::pointer::readable_path;
use std::fmt;
use std::sync::Arc;

/// One loaded text, kept so an error can show the offending line.
#[derive(Debug)]
pub(crate) struct Source {
    pub name: String,
    pub text: String,
}

/// A position in a source: 1-based line and column (in characters).
#[derive(Debug, Clone)]
pub(crate) struct Span {
    pub source: Arc<Source>,
    pub line: usize,
    pub col: usize,
}

impl Span {
    pub(crate) fn new(source: &Arc<Source>, line: usize, col: usize) -> Span {
        Span {
            source: source.clone(),
            line: line.max(1),
            col: col.max(1),
        }
    }

    /// The same place moved `chars` characters to the right (inside a formula, say).
    pub(crate) fn shifted(&self, chars: usize) -> Span {
        Span {
            source: self.source.clone(),
            line: self.line,
            col: self.col + chars,
        }
    }

    pub(crate) fn at(self, message: impl Into<String>) -> Error {
        Error::msg(message).with_place(Place::Span(self))
    }
}

/// An error: what went wrong (its kind, whose `Display` is the message), and where.
///
/// Engines build errors at a place in their input: a [`Span`] when they hold the text, or a
/// document pointer (`/sides/0/players/1`) that [`Error::locate`] (or `Doc::error_at`) later
/// resolves to file, line and column. Callers branch on [`Error::kind`]; the CLI adds its
/// flag hints there (engines never name a command-line flag).
#[derive(Debug, Clone)]
pub struct Error(Box<Inner>);

/// Boxed, so a `Result` stays small on the paths that do not fail.
#[derive(Debug, Clone)]
struct Inner {
    kind: ErrorKind,
    place: Place,
    /// Context written before the message ("in hook `x`: "), after the place.
    context: String,
}

/// Where an error happened.
#[derive(Debug, Clone, Default)]
pub(crate) enum Place {
    /// Nowhere in a file (a command-line value, say).
    #[default]
    Nowhere,
    /// At a JSON pointer into an input not yet matched to its file ("" is the whole input).
    Pointer(String),
    /// At a line and column of a loaded text.
    Span(Span),
}

/// What went wrong. The variants callers branch on are typed; the rest is `Invalid`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum ErrorKind {
    /// A name not among the known ones (a team, ship, ruleset...); the message suggests the
    /// nearest and lists them when they are few.
    #[error("{}", unknown_message(kind, name, known))]
    UnknownName {
        kind: String,
        name: String,
        known: Vec<String>,
    },
    /// A number outside what is allowed (`what` names the quantity).
    #[error("{message}")]
    OutOfRange { what: String, message: String },
    /// The request clashes with the state of the input or with another setting.
    #[error("{message}")]
    Conflict { with: Conflict, message: String },
    /// Anything else wrong: the message says what.
    #[error("{0}")]
    Invalid(String),
}

/// What a request clashes with (callers add their own advice, such as a flag to use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// The match already has a result.
    ResultRecorded,
    /// The match is in several rounds and the request does not say which.
    RoundNotGiven,
    /// Options (each named in backticks in the message, by its neutral name: `min`) that
    /// clash with each other or with another setting; the CLI writes them as flags (`--min`),
    /// scripts as map keys.
    Options(Vec<String>),
    /// The ruleset lacks a section the command needs (its name).
    MissingSection(String),
    /// The file to create is already there.
    FileExists,
}

fn unknown_message(kind: &str, name: &str, known: &[String]) -> String {
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    crate::names::unknown(kind, name, &known)
}

pub type Result<T> = std::result::Result<T, Error>;

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error(Box::new(Inner {
            kind,
            place: Place::Nowhere,
            context: String::new(),
        }))
    }
}

impl Error {
    /// An error with no place: the message says what.
    pub(crate) fn msg(message: impl Into<String>) -> Error {
        ErrorKind::Invalid(message.into()).into()
    }

    /// An unknown name, with the known ones (for the suggestion and the list).
    pub(crate) fn unknown<S: AsRef<str>>(kind: &str, name: &str, known: &[S]) -> Error {
        ErrorKind::UnknownName {
            kind: kind.to_string(),
            name: name.to_string(),
            known: known.iter().map(|k| k.as_ref().to_string()).collect(),
        }
        .into()
    }

    /// A number out of range.
    pub(crate) fn out_of_range(what: &str, message: impl Into<String>) -> Error {
        ErrorKind::OutOfRange {
            what: what.to_string(),
            message: message.into(),
        }
        .into()
    }

    /// A value given for `options` (neutral names, each in backticks in `message`) that is
    /// wrong with what else was asked.
    pub(crate) fn options(options: &[&str], message: impl Into<String>) -> Error {
        Error::conflict(
            Conflict::Options(options.iter().map(|o| o.to_string()).collect()),
            message,
        )
    }

    /// The options (neutral names) the error is about, if it is about some.
    pub(crate) fn option_names(&self) -> &[String] {
        match &self.0.kind {
            ErrorKind::Conflict {
                with: Conflict::Options(names),
                ..
            } => names,
            _ => &[],
        }
    }

    /// A short name for the error's kind, as scripts see it.
    pub(crate) fn kind_name(&self) -> &'static str {
        match &self.0.kind {
            ErrorKind::UnknownName { .. } => "unknown_name",
            ErrorKind::OutOfRange { .. } => "out_of_range",
            ErrorKind::Conflict { .. } => "conflict",
            ErrorKind::Invalid(_) => "invalid",
        }
    }

    /// The file, line and column, when the error has them.
    pub(crate) fn location(&self) -> Option<(&str, usize, usize)> {
        match &self.0.place {
            Place::Span(span) => Some((&span.source.name, span.line, span.col)),
            _ => None,
        }
    }

    /// A request that clashes with the input's state or another setting.
    pub(crate) fn conflict(with: Conflict, message: impl Into<String>) -> Error {
        ErrorKind::Conflict {
            with,
            message: message.into(),
        }
        .into()
    }

    /// An error about the value at `pointer` in an input, placed in its file by `locate`.
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error::msg(message).with_place(Place::Pointer(pointer.into()))
    }

    /// The same error at another place.
    pub(crate) fn with_place(mut self, place: Place) -> Error {
        self.0.place = place;
        self
    }

    pub(crate) fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    pub(crate) fn place(&self) -> &Place {
        &self.0.place
    }

    /// Whether the error has a line and column.
    /// The same error with its place (file, line, column) but without the line of the file
    /// under it: for a file the person did not name and that is not a ruleset, whose bytes
    /// no message may show.
    pub(crate) fn without_excerpt(mut self) -> Error {
        if let Place::Span(span) = &mut self.0.place {
            span.source = Arc::new(Source {
                name: span.source.name.clone(),
                text: String::new(),
            });
        }
        self
    }

    pub(crate) fn is_located(&self) -> bool {
        matches!(self.0.place, Place::Span(_))
    }

    /// The document pointer the error is at, if it is at one.
    pub(crate) fn pointer(&self) -> Option<&str> {
        match &self.0.place {
            Place::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// Put `prefix` before the pointer (a problem in one game is at `/games/3` + its pointer).
    pub(crate) fn under_pointer(mut self, prefix: &str) -> Error {
        if let Place::Pointer(p) = &mut self.0.place {
            *p = format!("{prefix}{p}");
        }
        self
    }

    /// The message without the place (the kind's message, after any context).
    pub(crate) fn message(&self) -> String {
        format!("{}{}", self.0.context, self.0.kind)
    }

    /// The message as it reads without a line and column: a pointer shown as a path.
    pub(crate) fn unplaced_message(&self) -> String {
        match &self.0.place {
            Place::Pointer(p) if !p.is_empty() => {
                format!("{}{}: {}", self.0.context, readable_path(p), self.0.kind)
            }
            _ => self.message(),
        }
    }

    /// The pointer it is at, if any, written into the message as a path (the place becomes
    /// nowhere), so it can be placed elsewhere without losing it.
    pub(crate) fn path_into_message(mut self) -> Error {
        if let Place::Pointer(p) = &self.0.place {
            if !p.is_empty() {
                self.0.context = format!("{}{}: ", self.0.context, readable_path(p));
            }
        }
        self.with_place(Place::Nowhere)
    }

    /// Prefix the message with some context, keeping the place and the kind.
    pub(crate) fn context(mut self, what: &str) -> Error {
        self.0.context = format!("{what}: {}", self.0.context);
        self
    }

    /// Add advice after the message (a conflict's way out, say).
    pub(crate) fn hint(mut self, advice: &str) -> Error {
        match &mut self.0.kind {
            ErrorKind::Conflict { message, .. }
            | ErrorKind::OutOfRange { message, .. }
            | ErrorKind::Invalid(message) => message.push_str(advice),
            ErrorKind::UnknownName { .. } => {
                let message = format!("{}{advice}", self.0.kind);
                self.0.kind = ErrorKind::Invalid(message);
            }
        }
        self
    }

    /// Reword the message (the CLI naming its flag for an option, say), keeping the kind.
    pub(crate) fn reworded(mut self, change: impl FnOnce(&str) -> String) -> Error {
        match &mut self.0.kind {
            ErrorKind::Conflict { message, .. }
            | ErrorKind::OutOfRange { message, .. }
            | ErrorKind::Invalid(message) => *message = change(message),
            ErrorKind::UnknownName { .. } => {
                let message = change(&self.0.kind.to_string());
                self.0.kind = ErrorKind::Invalid(message);
            }
        }
        self
    }
}

impl Error {
    /// The error as scripts read it (`--json`): `{"error": {"message", "file", "line",
    /// "column"}}`, the place's keys only when it has one.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut error = serde_json::Map::new();
        error.insert("message".into(), self.message().into());
        match &self.0.place {
            Place::Span(span) => {
                error.insert("file".into(), span.source.name.clone().into());
                error.insert("line".into(), span.line.into());
                error.insert("column".into(), span.col.into());
            }
            Place::Pointer(p) if !p.is_empty() => {
                error.insert("message".into(), self.unplaced_message().into());
                error.insert("path".into(), readable_path(p).into());
            }
            _ => {}
        }
        serde_json::json!({ "error": error })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Place::Span(span) = &self.0.place else {
            return write!(f, "{}", self.unplaced_message());
        };
        write!(
            f,
            "{}:{}:{}: {}",
            span.source.name,
            span.line,
            span.col,
            self.message()
        )?;
        if let Some(line) = span.source.text.lines().nth(span.line - 1) {
            let number = span.line.to_string();
            let pad = " ".repeat(number.len());
            let shown: String = line.chars().take(200).collect();
            let caret_at: String = shown
                .chars()
                .take(span.col.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            write!(f, "\n {pad} |\n {number} | {shown}\n {pad} | {caret_at}^")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::msg(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn as_json_an_error_names_its_file_line_and_column() {
        let source = std::sync::Arc::new(super::Source {
            name: "house.rules".into(),
            text: "a\nshields = -1\n".into(),
        });
        let e = super::Span::new(&source, 2, 11).at("shields cannot be negative");
        assert_eq!(
            e.to_json(),
            serde_json::json!({"error": {"message": "shields cannot be negative",
                "file": "house.rules", "line": 2, "column": 11}})
        );
        assert_eq!(
            super::Error::msg("no such ship").to_json(),
            serde_json::json!({"error": {"message": "no such ship"}})
        );
    }

    use super::*;

    fn doc() -> crate::rules::doc::Doc {
        crate::rules::yaml::parse("g.yaml", "rules: nowhere\nsides:\n  - name: A\n").unwrap()
    }

    #[test]
    fn an_unknown_name_suggests_and_lists() {
        let e = Error::unknown("team", "Orks", &["Orcs", "Elves"]);
        assert_eq!(
            e.to_string(),
            "unknown team `Orks` (did you mean `Orcs`?); known: Orcs, Elves"
        );
        assert!(matches!(e.kind(), ErrorKind::UnknownName { name, .. } if name == "Orks"));
    }

    #[test]
    fn a_pointer_is_a_path_until_located_in_its_document() {
        let e = Error::new("/sides/0/name", "is taken");
        assert_eq!(e.to_string(), "sides[1].name: is taken");
        let located = e.locate(Some(&doc()));
        assert!(located.is_located());
        assert!(
            located.to_string().starts_with("g.yaml:3:11: is taken\n"),
            "{located}"
        );
    }

    #[test]
    fn placing_keeps_the_kind_and_a_place_already_known() {
        let e = Error::unknown("ruleset", "nowhere", &["cep"]).placed_at(&doc(), "/rules");
        assert!(
            e.to_string()
                .starts_with("g.yaml:1:8: unknown ruleset `nowhere`"),
            "{e}"
        );
        assert!(matches!(e.kind(), ErrorKind::UnknownName { .. }));
        let again = e.clone().placed_at(&doc(), "/sides");
        assert_eq!(again.to_string(), e.to_string());
    }

    #[test]
    fn context_and_hints_keep_the_place() {
        let e = Error::conflict(Conflict::FileExists, "s.yaml: already exists")
            .context("league new")
            .hint("; use --force to replace it");
        assert_eq!(
            e.to_string(),
            "league new: s.yaml: already exists; use --force to replace it"
        );
        assert!(matches!(
            e.kind(),
            ErrorKind::Conflict {
                with: Conflict::FileExists,
                ..
            }
        ));
    }
}
