//! The editor's requests, answered on the worker's thread from the newest text of the open
//! documents: hover, completion, definition, document and workspace symbols, formatting,
//! rename and code actions. Each takes what it needs from the request's parameters, and a
//! malformed one is answered with an error, never a panic.
use super::analysis::{Document, ItemKind};
use super::worker::{Documents, Open};
use super::{edits, navigate, workspace};
use lsp_server::{ErrorCode, Request, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CompletionItem, CompletionItemKind, Documentation, Hover,
    HoverContents, MarkupContent, MarkupKind, Position, Range, SymbolInformation, TextEdit, Uri,
    WorkspaceEdit,
};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// What a request is answered from: the open documents and the open folder.
pub(crate) struct Context<'a> {
    pub documents: &'a Documents,
    pub root: Option<&'a Path>,
    pub balance: &'a super::live_balance::LiveBalance,
}

/// The methods answered here (the rest get MethodNotFound).
pub(crate) const METHODS: &[&str] = &[
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
    "textDocument/documentSymbol",
    "workspace/symbol",
    "textDocument/formatting",
    "textDocument/rangeFormatting",
    "textDocument/rename",
    "textDocument/codeAction",
    "textDocument/codeLens",
];

pub(crate) fn answer(request: Request, cx: &Context) -> Response {
    if !METHODS.contains(&request.method.as_str()) {
        return Response::new_err(
            request.id,
            ErrorCode::MethodNotFound as i32,
            format!("arbiter lsp does not answer `{}`", request.method),
        );
    }
    let params = &request.params;
    if request.method == "workspace/symbol" {
        let query = params["query"].as_str().unwrap_or_default();
        return ok(request.id, workspace_symbols(cx, query));
    }
    let uri_text = params["textDocument"]["uri"].as_str().unwrap_or_default();
    let open = snapshot(cx.documents, uri_text);
    let (Some(open), Ok(uri)) = (open, uri_text.parse::<Uri>()) else {
        // A document the editor never opened: nothing to say about it.
        return ok(request.id, Value::Null);
    };
    let doc = Document {
        name: &open.name,
        text: &open.text,
    };
    let at = position(&params["position"]);
    let result = match request.method.as_str() {
        "textDocument/hover" => hover(&doc, at),
        "textDocument/completion" => completion(&doc, at),
        "textDocument/definition" => navigate::definition(&doc, at)
            .and_then(|t| workspace::location(t.file.as_deref(), &uri, t.range))
            .map_or(Value::Null, json),
        "textDocument/documentSymbol" => json(navigate::document_symbols(&doc)),
        "textDocument/formatting" | "textDocument/rangeFormatting" => {
            let only = serde_json::from_value::<Range>(params["range"].clone()).ok();
            match edits::formatting(&doc, only) {
                Ok(e) => json(e),
                Err(why) => return failed(request.id, why),
            }
        }
        "textDocument/rename" => {
            let to = params["newName"].as_str().unwrap_or_default();
            let folder = match cx.root {
                Some(root) => workspace::rulesets(root, &open_documents(cx.documents)),
                None => Vec::new(),
            };
            match edits::rename(&doc, at, to, &folder) {
                Ok(found) => json(workspace_edit(found, &uri)),
                Err(why) => return failed(request.id, why),
            }
        }
        "textDocument/codeAction" => {
            let range =
                serde_json::from_value::<Range>(params["range"].clone()).unwrap_or_default();
            json(code_actions(&doc, &uri, range))
        }
        "textDocument/codeLens" => json(super::lenses::code_lenses(
            &doc, uri_text, &open.text, cx.balance,
        )),
        _ => Value::Null,
    };
    ok(request.id, result)
}

fn ok(id: lsp_server::RequestId, result: Value) -> Response {
    Response::new_ok(id, result)
}

fn failed(id: lsp_server::RequestId, why: String) -> Response {
    Response::new_err(id, ErrorCode::RequestFailed as i32, why)
}

fn json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn position(at: &Value) -> Position {
    let number = |v: &Value| v.as_u64().unwrap_or(0).min(u32::MAX as u64) as u32;
    Position::new(number(&at["line"]), number(&at["character"]))
}

fn snapshot(documents: &Documents, uri: &str) -> Option<Open> {
    documents
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(uri)
        .cloned()
}

fn open_documents(documents: &Documents) -> HashMap<String, Open> {
    documents.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

fn hover(doc: &Document, at: Position) -> Value {
    match doc.hover(at.line, at.character) {
        Some(text) => json(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: None,
        }),
        None => Value::Null,
    }
}

fn completion(doc: &Document, at: Position) -> Value {
    let items: Vec<CompletionItem> = doc
        .completions(at.line, at.character)
        .into_iter()
        .map(|item| CompletionItem {
            label: item.label,
            kind: Some(match item.kind {
                ItemKind::Key => CompletionItemKind::PROPERTY,
                ItemKind::Value => CompletionItemKind::VALUE,
                ItemKind::Function => CompletionItemKind::FUNCTION,
                ItemKind::Variable => CompletionItemKind::VARIABLE,
                ItemKind::Operator => CompletionItemKind::OPERATOR,
            }),
            detail: item.detail,
            documentation: item.documentation.map(|text| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: text,
                })
            }),
            ..Default::default()
        })
        .collect();
    json(items)
}

fn workspace_symbols(cx: &Context, query: &str) -> Value {
    let Some(root) = cx.root else {
        return json(Vec::<SymbolInformation>::new());
    };
    let rulesets = workspace::rulesets(root, &open_documents(cx.documents));
    #[allow(deprecated)]
    let found: Vec<SymbolInformation> = workspace::symbols(&rulesets, query)
        .into_iter()
        .map(|s| SymbolInformation {
            name: s.name,
            kind: s.kind,
            tags: None,
            deprecated: None,
            location: s.location,
            container_name: Some(s.container.to_string()),
        })
        .collect();
    json(found)
}

// lsp-types keys WorkspaceEdit.changes by Uri, whose only interior mutability is a cache of
// its parsed authority; its hash and equality are those of the text, so the key cannot move.
#[allow(clippy::mutable_key_type)]
fn workspace_edit(found: edits::Renamed, here: &Uri) -> WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (file, edits) in found {
        let uri = match file {
            None => Some(here.clone()),
            Some(path) => workspace::file_uri(&path),
        };
        if let Some(uri) = uri {
            changes.entry(uri).or_default().extend(edits);
        }
    }
    WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }
}

/// The quick fixes of the "did you mean" diagnostics in `range`, each naming its diagnostic.
#[allow(clippy::mutable_key_type)] // as in workspace_edit: lsp-types' own key type
fn code_actions(doc: &Document, uri: &Uri, range: Range) -> Vec<CodeAction> {
    edits::quick_fixes(doc, doc.problems(), range)
        .into_iter()
        .map(|fix| {
            let diagnostic = super::worker::diagnostic(&fix.problem);
            let changes = HashMap::from([(uri.clone(), vec![fix.edit])]);
            CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(WorkspaceEdit {
                    changes: Some(changes),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            }
        })
        .collect()
}

/// The capabilities `initialize` advertises: everything answered above.
pub(crate) fn capabilities() -> lsp_types::ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions::default()),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        ..Default::default()
    }
}
