//! `arbiter lsp`: a language server over standard input and output (lsp-server's message
//! types, lsp-types' protocol types) for `.rules` and ruleset YAML, and the records that name
//! a ruleset. It reads what the editor sends and, through `crate::io`, the files `extends`
//! names (under the read policy) and the open folder's rulesets; the only files it writes
//! are read-only copies of built-in rulesets in the cache folder, for go to definition.
//!
//! * `framing` reads each message's header and checks its length before the body is read
//!   (at most `framing::MAX_MESSAGE_BYTES`, 64 MiB);
//! * `transport` hands the messages to this loop and writes the answers;
//! * this loop keeps each open document's newest text and answers `shutdown` itself;
//! * `worker` analyses on a thread of its own (loading a ruleset runs its hooks, under the
//!   sandbox's limits), dropping analyses a newer change makes stale;
//! * `analysis` is what is said about one document (diagnostics, hover, completion), with
//!   `formulas` for what a formula value may call and read; `records` tells a record from a
//!   ruleset and checks it;
//! * `live_balance` simulates each ship against its rivals on a thread of its own, for the
//!   code lenses `lenses` shows (cancelled by the next edit);
//! * `requests` answers the editor's requests: `navigate` (definition, symbols), `edits`
//!   (formatting, rename, quick fixes), `workspace` (the open folder), over `bases` (the
//!   chain a document extends) and `tokens` (where things are in the text).
pub mod analysis;
pub(crate) mod bases;
pub(crate) mod context;
pub(crate) mod edits;
pub(crate) mod formulas;
pub(crate) mod framing;
pub(crate) mod lenses;
pub mod live_balance;
pub(crate) mod navigate;
pub(crate) mod records;
pub(crate) mod requests;
pub(crate) mod tokens;
pub(crate) mod transport;
pub(crate) mod worker;
pub(crate) mod workspace;

use crate::error::Result;
use live_balance::LiveBalance;
use lsp_server::{ErrorCode, Message, Notification, Response};
use lsp_types::Uri;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use transport::Out;
use worker::{Documents, Job, Open, Worker};

/// Serve until the editor says `exit` (or its input ends).
pub(crate) fn serve() -> Result<()> {
    // Standard output carries the protocol: a hook's `print` goes to standard error.
    crate::script::engine::print_to_stderr();
    let out = Out::stdout();
    let (messages, failure) = transport::read_stdin(out.clone())?;
    // The input broke the protocol (or ended) before `initialize`: say how.
    let broken = || failure.take().map_or(Ok(()), Err);
    let Some((root, refresh)) = initialize(&messages, &out)? else {
        return broken();
    };
    let documents = Documents::default();
    let balance = std::sync::Arc::new(LiveBalance::start(out.clone(), refresh)?);
    let server = Server {
        messages: &messages,
        out: &out,
        worker: Worker::start(documents.clone(), out.clone(), root, balance.clone())?,
        documents,
        balance,
    };
    if server.run() == Ended::InputClosed {
        // No `shutdown`: what the editor sent before its input closed is still answered.
        server.worker.finish();
    }
    broken()
}

/// The folder the editor opened, and whether it takes `workspace/codeLens/refresh`.
type Initialized = (Option<PathBuf>, bool);

/// Wait for `initialize` and answer it, with the folder the editor opened (its first
/// workspace folder, else its root, else the current folder); `None` if the input ended (or
/// said `exit`) first.
fn initialize(messages: &Receiver<Message>, out: &Out) -> Result<Option<Initialized>> {
    let capabilities = requests::capabilities();
    for message in messages {
        match message {
            Message::Request(r) if r.method == "initialize" => {
                let root = root_folder(&r.params);
                let refresh = r
                    .params
                    .pointer("/capabilities/workspace/codeLens/refreshSupport")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false);
                let result = serde_json::json!({ "capabilities": capabilities });
                out.send(Response::new_ok(r.id, result));
                return Ok(Some((root, refresh)));
            }
            Message::Request(r) => out.send(Response::new_err(
                r.id,
                ErrorCode::ServerNotInitialized as i32,
                format!("`{}` before `initialize`", r.method),
            )),
            Message::Notification(n) if n.method == "exit" => return Ok(None),
            _ => {}
        }
    }
    Ok(None)
}

/// The folder `initialize` names: a `file://` workspace folder or root URI, else `rootPath`,
/// else the current folder.
fn root_folder(params: &serde_json::Value) -> Option<PathBuf> {
    let uris = [
        params.pointer("/workspaceFolders/0/uri"),
        params.pointer("/rootUri"),
    ];
    let from_uri = uris
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str())
        .find(|u| u.starts_with("file:"))
        .map(file_name);
    let path = params.pointer("/rootPath").and_then(|p| p.as_str());
    from_uri
        .or(path.map(str::to_string))
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .filter(|p| p.is_dir())
}

/// How the server's loop ended.
#[derive(PartialEq)]
enum Ended {
    Exit,
    InputClosed,
}

struct Server<'a> {
    messages: &'a Receiver<Message>,
    out: &'a Out,
    /// Open documents by URI (the worker reads them).
    documents: Documents,
    worker: Worker,
    /// Cancelled here, on an edit, before the worker sees it.
    balance: std::sync::Arc<LiveBalance>,
}

impl Server<'_> {
    /// Read the editor's messages: keep each document's newest text and queue the work, which
    /// the worker does; this loop never waits for an analysis.
    fn run(&self) -> Ended {
        let mut shut_down = false;
        for message in self.messages {
            match message {
                Message::Request(r) if shut_down => self.out.send(Response::new_err(
                    r.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down: only `exit` is expected".into(),
                )),
                Message::Request(r) if r.method == "shutdown" => {
                    // Answered at once, whatever the worker is doing; queued work is dropped.
                    shut_down = true;
                    self.out
                        .send(Response::new_ok(r.id, serde_json::Value::Null));
                }
                Message::Request(r) => self.worker.send(Job::Answer(r)),
                Message::Notification(n) if n.method == "exit" => return Ended::Exit,
                Message::Notification(n) if !shut_down => self.notified(n),
                Message::Notification(_) | Message::Response(_) => {}
            }
        }
        Ended::InputClosed
    }

    fn notified(&self, mut n: Notification) {
        use serde_json::Value;
        let uri = n
            .params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str);
        let Some(uri) = uri.map(str::to_string) else {
            return;
        };
        // Taken out of the message, not copied: a document may be megabytes.
        let text = match n.method.as_str() {
            "textDocument/didOpen" => n.params.pointer_mut("/textDocument/text").map(Value::take),
            // Full sync: the last change holds the whole text.
            "textDocument/didChange" => n
                .params
                .pointer_mut("/contentChanges")
                .and_then(Value::as_array_mut)
                .and_then(|changes| changes.pop())
                .and_then(|mut change| change.get_mut("text").map(Value::take)),
            "textDocument/didClose" => {
                self.balance.changed(&uri, None);
                self.open_documents().remove(&uri);
                self.worker.send(Job::Closed(uri));
                return;
            }
            _ => return,
        };
        let Some(Value::String(text)) = text else {
            return;
        };
        self.balance.changed(&uri, Some(&text));
        let open = Open {
            name: file_name(&uri),
            text: text.into(),
        };
        self.open_documents().insert(uri.clone(), open);
        self.worker.send(Job::Analyse(uri));
    }

    fn open_documents(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Open>> {
        self.documents.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The file name a `file://` URI stands for (percent escapes decoded, `/C:/x` as `C:/x`);
/// another URI as it is.
fn file_name(uri: &str) -> String {
    let file = uri.parse::<Uri>().ok().filter(|u| {
        u.scheme()
            .is_some_and(|s| s.as_str().eq_ignore_ascii_case("file"))
    });
    let Some(file) = file else {
        return uri.to_string();
    };
    let path = file
        .path()
        .as_estr()
        .decode()
        .into_string_lossy()
        .into_owned();
    let drive = path.as_bytes();
    if drive.len() >= 3 && drive[0] == b'/' && drive[1].is_ascii_alphabetic() && drive[2] == b':' {
        path[1..].to_string()
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn a_file_uri_is_the_file_it_names() {
        assert_eq!(
            file_name("file:///home/ana/house%20rules.rules"),
            "/home/ana/house rules.rules"
        );
        assert_eq!(file_name("file:///tmp/caf%C3%A9.yaml"), "/tmp/café.yaml");
        assert_eq!(
            file_name("file:///C:/clubs/a%23b.rules"),
            "C:/clubs/a#b.rules"
        );
        assert_eq!(file_name("untitled:Untitled-1"), "untitled:Untitled-1");
    }
}
