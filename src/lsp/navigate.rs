//! Navigation in a ruleset: going to where an entry, a base or a ship is defined, the outline
//! of a document (sections, ships, torpedo kinds, with their ranges), and the ships and kinds
//! of every ruleset in the open folder. Read from the document as far as it parses (an entry
//! with a syntax error is left out, the rest is found), so a buffer being typed navigates too.
use super::analysis::Document;
use super::bases::{self, Base};
use super::tokens::{contains, unquoted, Lines};
use crate::io::Format;
use crate::pointer::pointer_segments;
use crate::rules::doc::Doc;
use lsp_types::{DocumentSymbol, Position, Range, SymbolKind};
use std::collections::HashMap;
use std::path::PathBuf;

/// Where a definition is: in the document itself, or in a file (a base, a built-in's copy).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub file: Option<PathBuf>,
    pub range: Range,
}

/// What the cursor is on.
#[derive(Debug, PartialEq)]
enum Under {
    /// The key of the entry at this pointer.
    Key(String),
    /// The value at this pointer, and its text unquoted.
    Value(String, String),
}

/// The document as far as it parses.
pub(crate) fn parsed(doc: &Document) -> Option<Doc> {
    let format = Format::of(doc.name);
    crate::rules::recover::parse_text_recovering(doc.name, doc.text, format)
}

/// The key or value under the cursor, by the places the parse gave.
fn under(parsed: &Doc, lines: &Lines, at: Position) -> Option<Under> {
    let line = at.line as usize + 1;
    let mut found = None;
    for (pointer, place) in &parsed.places {
        if let Some(key) = place.key.as_ref().filter(|k| k.line == line) {
            if contains(lines.token(key.line, key.col), at) {
                return Some(Under::Key(pointer.clone()));
            }
        }
        let value = &place.value;
        if value.line == line {
            let range = lines.token(value.line, value.col);
            let text = lines.token_text(range);
            if !text.starts_with(['{', '[']) && contains(range, at) {
                found = Some(Under::Value(pointer.clone(), unquoted(&text)));
            }
        }
    }
    found
}

/// Where the thing under the cursor is defined: an overlay entry's in the nearest base that has
/// it, `extends`'s base file, a ship's (size class's, torpedo kind's) entry in this document
/// or a base.
pub(crate) fn definition(doc: &Document, at: Position) -> Option<Target> {
    let own = parsed(doc)?;
    let lines = Lines::new(doc.text);
    let under = under(&own, &lines, at)?;
    let is_extends = |p: &str| p == "/extends" || p.starts_with("/extends/");
    match under {
        Under::Key(p) | Under::Value(p, _) if is_extends(&p) => {
            let reference = crate::rules::pin::read_extends(&own).ok()??.name;
            let base = bases::open(&reference, doc.dir()).ok()?;
            let file = base.origin.file(&base.text).ok()?;
            Some(Target {
                file: Some(file),
                range: Range::default(),
            })
        }
        Under::Key(p) => in_bases(&bases::chain(&own, doc.dir()), &p),
        Under::Value(p, name) => {
            let field = pointer_segments(&p)
                .filter(|s| s.parse::<usize>().is_err())
                .last()?;
            let section = match field.as_str() {
                "size" => "/combat/sizes",
                "torpedo_kind" => "/combat/torpedoes",
                _ => "/ships",
            };
            let wanted = crate::pointer::pointer_push(section, &name);
            if let Some(here) = bases::find(&own, &wanted) {
                let key = own.places.get(&here)?.key.as_ref()?;
                return Some(Target {
                    file: None,
                    range: lines.token(key.line, key.col),
                });
            }
            in_bases(&bases::chain(&own, doc.dir()), &wanted)
        }
    }
}

/// The entry at `pointer` in the nearest base that has it.
fn in_bases(chain: &[Base], pointer: &str) -> Option<Target> {
    chain.iter().find_map(|base| {
        let found = bases::find(&base.doc, pointer)?;
        let key = base.doc.places.get(&found)?.key.clone()?;
        let range = Lines::new(&base.text).token(key.line, key.col);
        let file = base.origin.file(&base.text).ok()?;
        Some(Target {
            file: Some(file),
            range,
        })
    })
}

/// Most symbols listed for one document (a 20,000-ship overlay lists its first ones).
pub(crate) const MAX_SYMBOLS: usize = 10_000;

/// How deep the outline goes: sections, their entries (ships), and theirs (a ship's fields, a
/// torpedo kind).
const OUTLINE_DEPTH: usize = 3;

/// The document's outline: each section with its entries, each with the range it spans and the
/// range of its key.
pub(crate) fn document_symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let Some(parsed) = parsed(doc) else {
        return Vec::new();
    };
    let lines = Lines::new(doc.text);
    let ends = entry_ends(&parsed, &lines);
    let mut entries: Vec<(&String, Range)> = parsed
        .places
        .iter()
        .filter(|(p, _)| pointer_segments(p).count() <= OUTLINE_DEPTH)
        .filter_map(|(p, place)| {
            let key = place.key.as_ref()?;
            let selection = lines.token(key.line, key.col);
            Some((p, selection))
        })
        .collect();
    entries.sort_by_key(|(_, r)| r.start);
    entries.truncate(MAX_SYMBOLS);
    // Children are gathered below their parents, deepest first.
    let mut by_pointer: HashMap<String, DocumentSymbol> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for (pointer, selection) in &entries {
        let end = ends
            .get(pointer.as_str())
            .copied()
            .unwrap_or(selection.end)
            .max(selection.end);
        let segments: Vec<String> = pointer_segments(pointer).collect();
        let name = bases::unmarked(segments.last().map_or("", String::as_str)).to_string();
        let value = parsed.value.pointer(pointer);
        #[allow(deprecated)]
        let symbol = DocumentSymbol {
            name: if name.is_empty() { "\"\"".into() } else { name },
            detail: value.and_then(detail),
            kind: kind_of(&segments, value),
            tags: None,
            deprecated: None,
            range: Range::new(selection.start, end),
            selection_range: *selection,
            children: None,
        };
        by_pointer.insert(pointer.to_string(), symbol);
        order.push(pointer.to_string());
    }
    let mut roots = Vec::new();
    for pointer in order.iter().rev() {
        let Some(symbol) = by_pointer.remove(pointer) else {
            continue;
        };
        let parent = pointer.rfind('/').map(|i| &pointer[..i]).unwrap_or("");
        match by_pointer.get_mut(parent) {
            Some(p) => p.children.get_or_insert_with(Vec::new).insert(0, symbol),
            None => roots.insert(0, symbol),
        }
    }
    roots
}

fn kind_of(segments: &[String], value: Option<&serde_json::Value>) -> SymbolKind {
    let at: Vec<&str> = segments.iter().map(String::as_str).collect();
    match at.as_slice() {
        [_] => SymbolKind::NAMESPACE,
        ["ships", _] => SymbolKind::STRUCT,
        ["combat", "torpedoes" | "sizes"] => SymbolKind::ENUM,
        ["combat", "torpedoes" | "sizes", _] => SymbolKind::ENUM_MEMBER,
        ["ships", _, _] => SymbolKind::FIELD,
        _ if value.is_some_and(|v| v.is_object()) => SymbolKind::OBJECT,
        _ => SymbolKind::PROPERTY,
    }
}

/// A scalar's value, shown beside its name.
fn detail(value: &serde_json::Value) -> Option<String> {
    let shown = match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => return None,
        other => other.to_string(),
    };
    Some(shown.chars().take(60).collect())
}

/// Where each entry's value ends: a block's closing bracket, or the last thing below it.
fn entry_ends(parsed: &Doc, lines: &Lines) -> HashMap<String, Position> {
    let mut ends: HashMap<String, Position> = HashMap::new();
    for (pointer, place) in &parsed.places {
        let value = &place.value;
        let token = lines.token(value.line, value.col);
        let end = lines.closing(value.line, value.col).unwrap_or(token.end);
        let mut at = pointer.as_str();
        loop {
            let e = ends.entry(at.to_string()).or_insert(end);
            *e = (*e).max(end);
            match at.rfind('/') {
                Some(i) => at = &at[..i],
                None => break,
            }
        }
    }
    ends
}
