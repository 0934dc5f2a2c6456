//! Errors that carry where they happened: file, line, column and the line itself.
use std::fmt;
use std::sync::Arc;

/// One loaded text, kept so an error can show the offending line.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// A position in a source: 1-based line and column (in characters).
#[derive(Debug, Clone)]
pub struct Span {
    pub source: Arc<Source>,
    pub line: usize,
    pub col: usize,
}

impl Span {
    pub fn new(source: &Arc<Source>, line: usize, col: usize) -> Span {
        Span {
            source: source.clone(),
            line: line.max(1),
            col: col.max(1),
        }
    }

    /// The same place moved `chars` characters to the right (inside a formula, say).
    pub fn shifted(&self, chars: usize) -> Span {
        Span {
            source: self.source.clone(),
            line: self.line,
            col: self.col + chars,
        }
    }

    pub fn at(self, message: impl Into<String>) -> Error {
        Error::Located {
            span: self,
            message: message.into(),
        }
    }
}

#[derive(Debug)]
pub enum Error {
    /// Something wrong at a known place in an input file.
    Located { span: Span, message: String },
    /// Something wrong that has no place in a file (a command-line value, say).
    Plain(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn msg(message: impl Into<String>) -> Error {
        Error::Plain(message.into())
    }

    /// Prefix the message with some context, keeping the place.
    pub fn context(self, what: &str) -> Error {
        match self {
            Error::Located { span, message } => Error::Located {
                span,
                message: format!("{what}: {message}"),
            },
            Error::Plain(m) => Error::Plain(format!("{what}: {m}")),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Plain(m) => write!(f, "{m}"),
            Error::Located { span, message } => {
                write!(
                    f,
                    "{}:{}:{}: {}",
                    span.source.name, span.line, span.col, message
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
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Plain(e.to_string())
    }
}
