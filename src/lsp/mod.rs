//! `arbiter lsp`: a language server over standard input and output (lsp-server, the protocol
//! types from lsp-types) for `.rules` and ruleset YAML. It reads what the editor sends and,
//! for `extends`, the files named through `crate::io`; it never writes a file.
pub mod analysis;

use crate::error::{Error, Result};
use analysis::Document;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, Diagnostic, DiagnosticSeverity, Hover,
    HoverContents, HoverProviderCapability, MarkupContent, MarkupKind, Position,
    PublishDiagnosticsParams, Range, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;

/// Serve until the editor says `exit`.
pub fn serve() -> Result<()> {
    let (connection, io_threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions::default()),
        ..Default::default()
    };
    let caps = serde_json::to_value(capabilities).expect("capabilities serialise");
    connection
        .initialize(caps)
        .map_err(|e| Error::msg(format!("lsp: {e}")))?;
    let mut server = Server {
        connection: &connection,
        documents: HashMap::new(),
    };
    server.run()?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| Error::msg(format!("lsp: {e}")))?;
    Ok(())
}

struct Server<'a> {
    connection: &'a Connection,
    /// Open documents by URI: the file name it stands for, and the editor's text.
    documents: HashMap<String, (String, String)>,
}

impl Server<'_> {
    fn run(&mut self) -> Result<()> {
        for message in &self.connection.receiver {
            match message {
                Message::Request(request) => {
                    let shutting_down = self
                        .connection
                        .handle_shutdown(&request)
                        .map_err(|e| Error::msg(format!("lsp: {e}")))?;
                    if shutting_down {
                        return Ok(());
                    }
                    let response = self.answer(request);
                    self.send(Message::Response(response));
                }
                Message::Notification(n) => self.notified(n),
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn send(&self, message: Message) {
        // The editor went away: the loop ends when its input closes.
        let _ = self.connection.sender.send(message);
    }

    fn notified(&mut self, n: Notification) {
        let uri = match n.method.as_str() {
            "textDocument/didOpen" => {
                let uri = n.params["textDocument"]["uri"].as_str().map(str::to_string);
                let text = n.params["textDocument"]["text"]
                    .as_str()
                    .map(str::to_string);
                match (uri, text) {
                    (Some(u), Some(t)) => {
                        self.documents.insert(u.clone(), (file_name(&u), t));
                        u
                    }
                    _ => return,
                }
            }
            "textDocument/didChange" => {
                let Some(uri) = n.params["textDocument"]["uri"].as_str() else {
                    return;
                };
                // Full sync: the last change holds the whole text.
                let text = n.params["contentChanges"]
                    .as_array()
                    .and_then(|c| c.last())
                    .and_then(|c| c["text"].as_str());
                let Some(text) = text else { return };
                self.documents
                    .insert(uri.to_string(), (file_name(uri), text.to_string()));
                uri.to_string()
            }
            "textDocument/didClose" => {
                if let Some(uri) = n.params["textDocument"]["uri"].as_str() {
                    self.documents.remove(uri);
                    self.publish(uri, Vec::new());
                }
                return;
            }
            _ => return,
        };
        let diagnostics = match self.document(&uri) {
            Some(doc) => doc
                .problems()
                .into_iter()
                .map(|p| {
                    let at = Position::new(p.line, p.character);
                    Diagnostic {
                        range: Range::new(at, Position::new(p.line, p.character + 1)),
                        severity: Some(DiagnosticSeverity::ERROR),
                        source: Some("arbiter".into()),
                        message: p.message,
                        ..Default::default()
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        self.publish(&uri, diagnostics);
    }

    fn publish(&self, uri: &str, diagnostics: Vec<Diagnostic>) {
        let Ok(uri) = uri.parse::<Uri>() else { return };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        self.send(Message::Notification(Notification::new(
            "textDocument/publishDiagnostics".into(),
            params,
        )));
    }

    fn document(&self, uri: &str) -> Option<Document<'_>> {
        let (name, text) = self.documents.get(uri)?;
        Some(Document { name, text })
    }

    fn answer(&self, request: Request) -> Response {
        let uri = request.params["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default();
        let position = &request.params["position"];
        let line = position["line"].as_u64().unwrap_or(0).min(u32::MAX as u64) as u32;
        let character = position["character"]
            .as_u64()
            .unwrap_or(0)
            .min(u32::MAX as u64) as u32;
        let result = match (request.method.as_str(), self.document(uri)) {
            ("textDocument/hover", Some(doc)) => match doc.hover(line, character) {
                Some(text) => serde_json::to_value(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: text,
                    }),
                    range: None,
                }),
                None => Ok(serde_json::Value::Null),
            },
            ("textDocument/completion", Some(doc)) => {
                let items: Vec<CompletionItem> = doc
                    .completions(line, character)
                    .into_iter()
                    .map(|(label, detail)| CompletionItem {
                        label,
                        kind: Some(CompletionItemKind::PROPERTY),
                        detail,
                        ..Default::default()
                    })
                    .collect();
                serde_json::to_value(items)
            }
            ("textDocument/hover" | "textDocument/completion", None) => Ok(serde_json::Value::Null),
            _ => {
                return Response::new_err(
                    request.id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("arbiter lsp does not answer `{}`", request.method),
                )
            }
        };
        Response::new_ok(request.id, result.unwrap_or(serde_json::Value::Null))
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
