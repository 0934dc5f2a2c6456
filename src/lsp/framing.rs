//! The protocol's framing on standard input (`Content-Length: N`, a blank line,
//! N bytes of JSON-RPC), read here rather than by lsp-server: its reader sizes the body's
//! buffer from the header before looking at it, so `Content-Length: 3000000000` allocated 3 GB
//! and aborted the program. Here every header line is capped, the length is checked against
//! [`MAX_MESSAGE_BYTES`] before anything is allocated for the body, and:
//!
//! * a body over the limit is answered with a JSON-RPC error (`id: null`, Invalid Request)
//!   naming the limit, then read past in small pieces (never held); the server goes on;
//! * a body that is not JSON-RPC is answered with a Parse error; the server goes on;
//! * a malformed header (no `Content-Length`, a length that is not a number, a line without
//!   `\r\n` or longer than [`MAX_HEADER_LINE`]) leaves no way to find the next message: the
//!   server ends with exit status 1 and a message saying what was wrong.
use crate::error::{Error, Result};
use std::io::{self, BufRead, Read};

/// Most bytes of one message's body: a document at the server's size limit
/// (`analysis::MAX_DOCUMENT_BYTES`, 16 MiB), with room for its JSON escapes.
pub(crate) const MAX_MESSAGE_BYTES: u64 = 4 * super::analysis::MAX_DOCUMENT_BYTES as u64;
/// Most bytes of one header line (the protocol's are a few dozen).
pub(crate) const MAX_HEADER_LINE: usize = 1024;
/// Most header lines of one message (the protocol defines two).
const MAX_HEADER_LINES: usize = 32;

/// One message read from the input.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame {
    /// The body, within the limit.
    Body(Vec<u8>),
    /// A body of this many bytes, over the limit: not read yet ([`skip`] reads past it).
    TooLarge(u64),
    /// The input ended between messages.
    End,
}

/// Read the next message: its headers, then its body if its length is at most `max_body`.
pub(crate) fn read_frame(input: &mut impl BufRead, max_body: u64) -> Result<Frame> {
    let mut length: Option<u64> = None;
    let mut lines = 0;
    loop {
        let mut line = Vec::new();
        input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(read_error)?;
        if line.is_empty() {
            if lines == 0 {
                return Ok(Frame::End);
            }
            return Err(bad_header("the input ended inside a message's header"));
        }
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(bad_header(&if line.len() > MAX_HEADER_LINE {
                format!("a header line longer than {MAX_HEADER_LINE} bytes")
            } else if line.ends_with(b"\n") {
                format!("header line `{}` ends without \\r\\n", shown(&line))
            } else {
                "the input ended inside a message's header".to_string()
            }));
        };
        if text.is_empty() {
            break;
        }
        lines += 1;
        if lines > MAX_HEADER_LINES {
            return Err(bad_header(&format!(
                "more than {MAX_HEADER_LINES} header lines in one message"
            )));
        }
        let text = std::str::from_utf8(text)
            .map_err(|_| bad_header(&format!("header line `{}` is not text", shown(text))))?;
        let Some((name, value)) = text.split_once(':') else {
            return Err(bad_header(&format!(
                "header line `{}` is not `Name: value`",
                shown(text.as_bytes())
            )));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            let n = value.parse::<u64>().map_err(|_| {
                bad_header(&format!(
                    "Content-Length `{}` is not a whole number of bytes",
                    shown(value.as_bytes())
                ))
            })?;
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| bad_header("a message without a Content-Length header"))?;
    if length > max_body {
        return Ok(Frame::TooLarge(length));
    }
    // Within the limit: the buffer is sized only now.
    let mut body = Vec::with_capacity(length as usize);
    input
        .by_ref()
        .take(length)
        .read_to_end(&mut body)
        .map_err(read_error)?;
    if (body.len() as u64) < length {
        return Err(ended(body.len() as u64, length));
    }
    Ok(Frame::Body(body))
}

/// Read past a body of `length` bytes without keeping it.
pub(crate) fn skip(input: &mut impl BufRead, length: u64) -> Result<()> {
    let skipped =
        io::copy(&mut input.by_ref().take(length), &mut io::sink()).map_err(read_error)?;
    if skipped < length {
        return Err(ended(skipped, length));
    }
    Ok(())
}

fn bad_header(what: &str) -> Error {
    Error::msg(format!(
        "lsp: a malformed message header on standard input: {what} (each message is \
         `Content-Length: N`, a blank line, then N bytes of JSON-RPC, lines ending in \\r\\n)"
    ))
}

fn ended(got: u64, length: u64) -> Error {
    Error::msg(format!(
        "lsp: the input ended {got} bytes into a message of {length} bytes (its Content-Length)"
    ))
}

fn read_error(e: io::Error) -> Error {
    Error::msg(format!("lsp: cannot read standard input: {e}"))
}

/// Header text for a message: at most 60 characters, control characters escaped.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text.chars().take(60).flat_map(char::escape_debug).collect();
    if text.chars().count() > 60 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(input: &[u8]) -> Result<Frame> {
        read_frame(&mut io::Cursor::new(input), MAX_MESSAGE_BYTES)
    }

    #[test]
    fn a_message_is_its_header_then_its_body() {
        let mut input = io::Cursor::new(
            b"Content-Length: 2\r\nContent-Type: x\r\n\r\n{}content-length:3\r\n\r\n[1]".to_vec(),
        );
        let max = MAX_MESSAGE_BYTES;
        assert_eq!(
            read_frame(&mut input, max).unwrap(),
            Frame::Body(b"{}".to_vec())
        );
        assert_eq!(
            read_frame(&mut input, max).unwrap(),
            Frame::Body(b"[1]".to_vec())
        );
        assert_eq!(read_frame(&mut input, max).unwrap(), Frame::End);
    }

    #[test]
    fn a_length_over_the_limit_is_named_then_read_past_without_keeping_it() {
        let mut input =
            io::Cursor::new(b"Content-Length: 11\r\n\r\n[1,2,3,4,5]Content-Length: 2\r\n\r\n{}");
        assert_eq!(read_frame(&mut input, 10).unwrap(), Frame::TooLarge(11));
        skip(&mut input, 11).unwrap();
        assert_eq!(
            read_frame(&mut input, 10).unwrap(),
            Frame::Body(b"{}".to_vec())
        );
        assert_eq!(read_frame(&mut input, 10).unwrap(), Frame::End);
    }

    #[test]
    fn a_huge_length_with_a_short_body_is_an_error_not_an_allocation() {
        let mut input = io::Cursor::new(b"Content-Length: 3000000000\r\n\r\n{}");
        let max = MAX_MESSAGE_BYTES;
        let n = 3_000_000_000;
        assert_eq!(read_frame(&mut input, max).unwrap(), Frame::TooLarge(n));
        let e = skip(&mut input, n).unwrap_err().to_string();
        assert_eq!(
            e,
            "lsp: the input ended 2 bytes into a message of 3000000000 bytes (its Content-Length)"
        );
        let e = frame(b"Content-Length: 99999999999999999999999\r\n\r\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("Content-Length `99999999999999999999999` is not a whole number"),
            "{e}"
        );
    }

    #[test]
    fn malformed_headers_are_named() {
        for (input, says) in [
            (&b"Content-Length: 2\n\n{}"[..], "ends without \\r\\n"),
            (
                b"Content-Length: two\r\n\r\n{}",
                "`two` is not a whole number",
            ),
            (
                b"Content-Type: x\r\n\r\n{}",
                "without a Content-Length header",
            ),
            (b"Content-Length 2\r\n\r\n{}", "is not `Name: value`"),
            (b"Content-Length: 2\r\n", "ended inside a message's header"),
            (b"\xff\xfe: 2\r\n\r\n", "is not text"),
        ] {
            let e = frame(input).unwrap_err().to_string();
            assert!(e.contains(says), "{input:?}: {e}");
            assert!(
                e.starts_with("lsp: a malformed message header") || e.contains("ended"),
                "{e}"
            );
        }
        let long = format!("X-Long: {}\r\n\r\n", "a".repeat(5000));
        let e = frame(long.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("longer than 1024 bytes"), "{e}");
    }
}
