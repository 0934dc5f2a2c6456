//! The server's input and output. A thread reads standard input a message at a time
//! ([`framing`](super::framing) checks each header before any buffer is sized from it) and
//! hands the server each message once it is ready for it, so unread messages never pile up in
//! memory; a message that cannot be used is answered with a JSON-RPC error and skipped. Output
//! is written whole by the thread that has it, under one lock: when `send` returns the
//! message is out, so nothing is lost when the server ends right after it.
use super::framing::{read_frame, skip, Frame, MAX_MESSAGE_BYTES};
use crate::error::{Error, Result};
use lsp_server::{ErrorCode, Message};
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

/// Where messages to the editor go (standard output), shared by the threads that answer.
#[derive(Clone)]
pub(crate) struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub(crate) fn stdout() -> Out {
        Out::to(Box::new(io::stdout()))
    }

    pub(crate) fn to(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(writer)))
    }

    /// Write a message whole. An editor that went away ends the server through its input, so
    /// a failed write is not an error here.
    pub(crate) fn send(&self, message: impl Into<Message>) {
        let mut out = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let _ = message.into().write(&mut *out);
    }

    /// Answer a message that cannot be used, and say why on standard error.
    fn refuse(&self, code: ErrorCode, why: &str) {
        eprintln!("arbiter lsp: {why}");
        // Its id is null, which lsp-server's messages cannot say: written here.
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": code as i32, "message": why},
        })
        .to_string();
        let mut out = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let _ =
            write!(out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|_| out.flush());
    }
}

/// What broke the input, if something did; set before the server sees the input end.
#[derive(Clone, Default)]
pub(crate) struct Failure(Arc<Mutex<Option<Error>>>);

impl Failure {
    fn set(&self, e: Error) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    }

    pub(crate) fn take(&self) -> Option<Error> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Read standard input on a thread of its own: the messages, and what broke the input.
pub(crate) fn read_stdin(out: Out) -> Result<(Receiver<Message>, Failure)> {
    // A rendezvous: the reader waits for the server to take each message.
    let (to_server, messages) = sync_channel::<Message>(0);
    let failure = Failure::default();
    let failed = failure.clone();
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let read = read_messages(&mut io::stdin().lock(), MAX_MESSAGE_BYTES, &to_server, &out);
            if let Err(e) = read {
                failed.set(e);
            }
            // Only now does the server see the input end (and then finds the failure).
            drop(to_server);
        })
        .map_err(|e| Error::msg(format!("lsp: cannot start the reader: {e}")))?;
    Ok((messages, failure))
}

/// Read messages until the input ends, `exit`, or a broken header; a message that cannot be
/// used is answered on `out` with a JSON-RPC error (and a line on standard error) and skipped.
pub(crate) fn read_messages(
    input: &mut impl BufRead,
    max_body: u64,
    to_server: &SyncSender<Message>,
    out: &Out,
) -> Result<()> {
    loop {
        match read_frame(input, max_body)? {
            Frame::End => return Ok(()),
            Frame::TooLarge(n) => {
                // Said before reading past it: the input may well end first.
                out.refuse(
                    ErrorCode::InvalidRequest,
                    &format!(
                        "a message of {n} bytes is over the limit of {max_body} bytes (its \
                         Content-Length); it was skipped"
                    ),
                );
                skip(input, n)?;
            }
            Frame::Body(body) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        return Ok(());
                    }
                }
                Err(e) => out.refuse(
                    ErrorCode::ParseError,
                    &format!("a message that is not JSON-RPC ({e}); it was skipped"),
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Output kept for a test to read.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn messages_past_a_refused_one_still_reach_the_server() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let over = good.len() as u64 + 1;
        let mut bytes = format!("Content-Length: {over}\r\n\r\n").into_bytes();
        bytes.resize(bytes.len() + over as usize, b'x');
        bytes.extend_from_slice(b"Content-Length: 3\r\n\r\nnot");
        bytes.extend_from_slice(format!("Content-Length: {}\r\n\r\n{good}", good.len()).as_bytes());
        let (tx, rx) = sync_channel(8);
        let kept = Kept::default();
        let limit = good.len() as u64;
        let out = Out::to(Box::new(kept.clone()));
        read_messages(&mut io::Cursor::new(bytes), limit, &tx, &out).unwrap();
        let got: Vec<Message> = rx.try_iter().collect();
        assert_eq!(got.len(), 1);
        assert!(matches!(&got[0], Message::Notification(n) if n.method == "initialized"));
        let answers = String::from_utf8(kept.0.lock().unwrap().clone()).unwrap();
        let bodies: Vec<serde_json::Value> = answers
            .split("Content-Length: ")
            .skip(1)
            .map(|f| serde_json::from_str(f.split_once("\r\n\r\n").unwrap().1).unwrap())
            .collect();
        assert_eq!(bodies.len(), 2, "{answers}");
        assert_eq!(bodies[0]["id"], serde_json::Value::Null);
        assert_eq!(bodies[0]["error"]["code"], -32600);
        assert_eq!(
            bodies[0]["error"]["message"],
            format!(
                "a message of {over} bytes is over the limit of {limit} bytes (its Content-Length); \
                 it was skipped"
            )
        );
        assert_eq!(bodies[1]["error"]["code"], -32700);
    }
}
