//! The server's analysis, on a thread of its own: loading a document's ruleset runs its hooks
//! (each under the ruleset's limits, all of them under one bound), which the loop reading the
//! editor's messages must never wait for. The loop keeps the newest text of each document and
//! hands the worker jobs naming documents; the worker takes every job queued when it is free,
//! drops the analyses a later one makes stale (a document changed twenty times while a hook
//! ran is analysed once, in its newest version), and answers requests in order.
use super::analysis::{Document, Problem};
use super::live_balance::LiveBalance;
use super::requests::{answer, Context};
use super::transport::Out;
use lsp_server::{Message, Notification, Request};
use lsp_types::{Diagnostic, DiagnosticSeverity, Position, PublishDiagnosticsParams, Range, Uri};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// An open document: the file name it stands for, and the editor's newest text.
#[derive(Clone)]
pub(crate) struct Open {
    pub name: String,
    pub text: Arc<str>,
}

/// The open documents by URI, shared by the loop (which writes) and the worker (which reads).
pub(crate) type Documents = Arc<Mutex<HashMap<String, Open>>>;

/// Work for the worker.
#[derive(Debug)]
pub(crate) enum Job {
    /// Publish the diagnostics of a document's newest text.
    Analyse(String),
    /// A document was closed: clear its diagnostics.
    Closed(String),
    /// Answer a request (hover, completion) on the newest text.
    Answer(Request),
}

impl Job {
    fn document(&self) -> Option<&str> {
        match self {
            Job::Analyse(uri) | Job::Closed(uri) => Some(uri),
            Job::Answer(_) => None,
        }
    }
}

/// The jobs worth doing, in order: of the analyses and closings of one document only the last
/// (it sees the newest text, or the document gone), every request.
pub(crate) fn latest(jobs: Vec<Job>) -> Vec<Job> {
    let mut seen = HashSet::new();
    let mut kept: Vec<Job> = jobs
        .into_iter()
        .rev()
        .filter(|job| {
            job.document()
                .is_none_or(|uri| seen.insert(uri.to_string()))
        })
        .collect();
    kept.reverse();
    kept
}

/// The worker's queue; dropping it ends the worker once it is free.
pub(crate) struct Worker {
    jobs: mpsc::Sender<Job>,
    thread: std::thread::JoinHandle<()>,
}

impl Worker {
    /// Start the worker; `root` is the folder the editor opened (workspace symbols, rename).
    pub(crate) fn start(
        documents: Documents,
        out: Out,
        root: Option<PathBuf>,
        balance: Arc<LiveBalance>,
    ) -> crate::error::Result<Worker> {
        let (jobs, queue) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("lsp-analysis".into())
            // A ruleset's hooks may recurse to the sandbox's call-level limit.
            .stack_size(64 * 1024 * 1024)
            .spawn(move || work(&queue, &documents, &out, root, &balance))
            .map_err(|e| {
                crate::error::Error::msg(format!("lsp: cannot start the analysis: {e}"))
            })?;
        Ok(Worker { jobs, thread })
    }

    /// Do the work queued so far, then end (each job is bounded by the sandbox's limits).
    pub(crate) fn finish(self) {
        drop(self.jobs);
        let _ = self.thread.join();
    }

    pub(crate) fn send(&self, job: Job) {
        // The worker only ends when this queue is dropped.
        let _ = self.jobs.send(job);
    }
}

fn work(
    queue: &mpsc::Receiver<Job>,
    documents: &Documents,
    out: &Out,
    root: Option<PathBuf>,
    balance: &LiveBalance,
) {
    while let Ok(first) = queue.recv() {
        let waiting: Vec<Job> = std::iter::once(first).chain(queue.try_iter()).collect();
        for job in latest(waiting) {
            let reply = match job {
                Job::Analyse(uri) => match snapshot(documents, &uri) {
                    Some(open) => publish(&uri, diagnostics(&open)),
                    // Closed since: its `Closed` job cleared it.
                    None => continue,
                },
                Job::Closed(uri) => publish(&uri, Vec::new()),
                Job::Answer(request) => {
                    let cx = Context {
                        documents,
                        root: root.as_deref(),
                        balance,
                    };
                    Some(Message::Response(answer(request, &cx)))
                }
            };
            if let Some(message) = reply {
                out.send(message);
            }
        }
    }
}

fn snapshot(documents: &Documents, uri: &str) -> Option<Open> {
    documents
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(uri)
        .cloned()
}

fn diagnostics(open: &Open) -> Vec<Diagnostic> {
    let doc = Document {
        name: &open.name,
        text: &open.text,
    };
    doc.problems().iter().map(diagnostic).collect()
}

/// A problem as the editor shows it: the word it is at underlined.
pub(crate) fn diagnostic(p: &Problem) -> Diagnostic {
    Diagnostic {
        range: Range::new(
            Position::new(p.line, p.character),
            Position::new(p.line, p.end),
        ),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("arbiter".into()),
        message: p.message.clone(),
        ..Default::default()
    }
}

fn publish(uri: &str, diagnostics: Vec<Diagnostic>) -> Option<Message> {
    let uri = uri.parse::<Uri>().ok()?;
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version: None,
    };
    Some(Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".into(),
        params,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::RequestId;

    fn names(jobs: &[Job]) -> Vec<String> {
        jobs.iter()
            .map(|j| match j {
                Job::Analyse(u) => format!("analyse {u}"),
                Job::Closed(u) => format!("closed {u}"),
                Job::Answer(r) => format!("answer {}", r.id),
            })
            .collect()
    }

    fn request(id: i32) -> Job {
        Job::Answer(Request::new(
            RequestId::from(id),
            "textDocument/hover".into(),
            serde_json::Value::Null,
        ))
    }

    #[test]
    fn only_the_last_analysis_of_a_document_is_kept_and_every_request() {
        let a = || "file:///a.rules".to_string();
        let b = || "file:///b.rules".to_string();
        let mut jobs: Vec<Job> = (0..50).map(|_| Job::Analyse(a())).collect();
        jobs.insert(10, request(1));
        jobs.push(Job::Analyse(b()));
        jobs.push(request(2));
        jobs.push(Job::Analyse(a()));
        assert_eq!(
            names(&latest(jobs)),
            [
                "answer 1",
                "analyse file:///b.rules",
                "answer 2",
                "analyse file:///a.rules"
            ]
        );
    }

    #[test]
    fn a_closing_wins_over_the_analyses_before_it_and_loses_to_a_reopening() {
        let a = || "file:///a.rules".to_string();
        let closed = vec![Job::Analyse(a()), Job::Closed(a())];
        assert_eq!(names(&latest(closed)), ["closed file:///a.rules"]);
        let reopened = vec![Job::Analyse(a()), Job::Closed(a()), Job::Analyse(a())];
        assert_eq!(names(&latest(reopened)), ["analyse file:///a.rules"]);
    }
}
