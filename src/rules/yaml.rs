//! YAML to `Doc`, keeping the line and column of every key and value.
use super::comments::Comments;
use crate::error::{Error, Result, Source, Span};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::sync::Arc;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use {
    super::doc::{Doc, Place},
    crate::pointer::pointer_push,
};

/// Deepest nesting accepted in an input file (deeper is an error, not a stack overflow):
/// the rules language's bracket limit, plus the root mapping, which has no brackets there,
/// so that whatever YAML loads also converts.
pub(crate) const MAX_DEPTH: usize = super::nesting::MAX_NESTING + 1;
/// Most nodes a document may expand to through aliases (guards against "billion laughs").
const MAX_NODES: usize = 2_000_000;
/// Most bytes of text (keys and strings) a document may expand to: a few aliases of one long
/// string are few nodes but many bytes. The same order as the file size limit.
pub(crate) const MAX_TEXT_BYTES: usize = 64 * 1024 * 1024;

enum Frame {
    /// `names`: the keys as names are compared (case and accents ignored), to refuse two
    /// keys only a capital apart.
    Map {
        map: Map<String, Value>,
        names: HashMap<String, String>,
        key: Option<String>,
        pointer: String,
    },
    Seq {
        items: Vec<Value>,
        pointer: String,
    },
}

struct Builder {
    source: Arc<Source>,
    stack: Vec<(Frame, usize)>,
    root: Option<Value>,
    anchors: HashMap<usize, Value>,
    places: HashMap<String, Place>,
    nodes: usize,
    text_bytes: usize,
    /// Bytes of pointers made so far (see `MAX_PATH_BYTES`).
    path_bytes: usize,
    error: Option<Error>,
    documents: usize,
    /// Where keys, items and collections are, when comments are to be placed among them.
    layout: Option<super::yaml_comments::Layout>,
}

impl Builder {
    fn span(&self, m: Marker) -> Span {
        Span::new(&self.source, m.line(), m.col() + 1)
    }

    fn fail(&mut self, m: Marker, message: String) {
        if self.error.is_none() {
            self.error = Some(self.span(m).at(message));
        }
    }

    /// Where the next value goes, and whether it is a map key.
    fn next_pointer(&self) -> (String, bool) {
        match self.stack.last() {
            None => (String::new(), false),
            Some((
                Frame::Map {
                    key: None, pointer, ..
                },
                _,
            )) => (pointer.clone(), true),
            Some((
                Frame::Map {
                    key: Some(k),
                    pointer,
                    ..
                },
                _,
            )) => (pointer_push(pointer, k), false),
            Some((Frame::Seq { items, pointer }, _)) => {
                (pointer_push(pointer, &items.len().to_string()), false)
            }
        }
    }

    fn put(&mut self, value: Value, mark: Marker) {
        let (pointer, is_key) = self.next_pointer();
        let span = self.span(mark);
        let mut failure = None;
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some((
                Frame::Map {
                    map, names, key, ..
                },
                _,
            )) => match key.take() {
                None => {
                    let k = match value {
                        Value::String(s) => s,
                        Value::Null => "null".to_string(),
                        other => other.to_string(),
                    };
                    let name = crate::names::normalize(&k);
                    if let Some(first) = names.get(&name) {
                        failure = Some(if *first == k {
                            format!("`{k}` is given twice in the same mapping")
                        } else {
                            format!(
                                "`{k}` is the same name as `{first}` above (case and accents are \
                                 ignored)"
                            )
                        });
                    } else {
                        names.insert(name, k.clone());
                        let child = pointer_push(&pointer, &k);
                        self.path_bytes += child.len();
                        if let Some(layout) = &mut self.layout {
                            layout.key(&child, mark, &self.source.text);
                        }
                        self.places.insert(
                            child,
                            Place {
                                key: Some(span.clone()),
                                value: span,
                            },
                        );
                        *key = Some(k);
                    }
                }
                Some(k) => {
                    map.insert(k, value);
                }
            },
            Some((Frame::Seq { items, .. }, _)) => items.push(value),
        }
        let _ = is_key;
        if let Some(m) = failure {
            self.fail(mark, m);
        }
    }

    fn note_value_place(&mut self, mark: Marker) {
        let (pointer, is_key) = self.next_pointer();
        self.path_bytes += pointer.len();
        if !is_key {
            let span = self.span(mark);
            let key = self.places.get(&pointer).and_then(|p| p.key.clone());
            self.places.insert(pointer, Place { key, value: span });
        }
    }

    /// A list item, for placing comments.
    fn note_item(&mut self, mark: Marker, is_mapping: bool) {
        if self.layout.is_none() || !matches!(self.stack.last(), Some((Frame::Seq { .. }, _))) {
            return;
        }
        let (pointer, _) = self.next_pointer();
        if let Some(layout) = &mut self.layout {
            layout.item(&pointer, mark, &self.source.text, is_mapping);
        }
    }

    fn count(&mut self, (nodes, bytes): (usize, usize), mark: Marker) -> bool {
        self.nodes += nodes;
        self.text_bytes += bytes;
        if self.nodes > MAX_NODES {
            self.fail(
                mark,
                format!("the document expands to more than {MAX_NODES} values (aliases?)"),
            );
            false
        } else if self.text_bytes > MAX_TEXT_BYTES {
            self.fail(
                mark,
                format!(
                    "the document expands to more than {} MiB of text (aliases?)",
                    MAX_TEXT_BYTES >> 20
                ),
            );
            false
        } else {
            true
        }
    }
}

/// A plain scalar's value; a number too large for a 64-bit float is an error (it would be
/// infinity, which JSON cannot hold: it used to become `null`, which an overlay reads as "remove").
pub(super) fn scalar_value(text: &str, style: TScalarStyle) -> std::result::Result<Value, String> {
    if style != TScalarStyle::Plain {
        return Ok(Value::String(text.to_string()));
    }
    Ok(match yaml_rust2::Yaml::from_str(text) {
        yaml_rust2::Yaml::Integer(i) => Value::Number(i.into()),
        yaml_rust2::Yaml::Real(r) => match r.parse::<f64>() {
            Ok(f) if !f.is_finite() => {
                return Err(format!(
                    "number too large: {}",
                    super::formula::shorten(text)
                ))
            }
            Ok(f) => Number::from_f64(f)
                .map(Value::Number)
                .unwrap_or_else(|| Value::String(text.to_string())),
            // `.inf` and `.nan` are YAML's words, which Rust does not read: they stay text.
            Err(_) => Value::String(text.to_string()),
        },
        yaml_rust2::Yaml::Boolean(b) => Value::Bool(b),
        yaml_rust2::Yaml::Null => Value::Null,
        _ => Value::String(text.to_string()),
    })
}

/// Nodes and bytes of text in a value (what expanding an alias of it adds).
fn size(v: &Value) -> (usize, usize) {
    let add = |(n, b): (usize, usize), (m, c): (usize, usize)| (n + m, b + c);
    match v {
        Value::Array(a) => a.iter().map(size).fold((1, 0), add),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| add(size(v), (0, k.len())))
            .fold((1, 0), add),
        Value::String(s) => (1, s.len()),
        _ => (1, 0),
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        if self.path_bytes > super::doc::MAX_PATH_BYTES {
            return self.fail(mark, super::doc::too_long_paths());
        }
        match ev {
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    self.fail(mark, "only one YAML document is expected in a file".into());
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                if !self.count((1, text.len()), mark) {
                    return;
                }
                self.note_value_place(mark);
                self.note_item(mark, false);
                let v = match scalar_value(&text, style) {
                    Ok(v) => v,
                    Err(message) => return self.fail(mark, message),
                };
                if anchor > 0 {
                    self.anchors.insert(anchor, v.clone());
                }
                self.put(v, mark);
            }
            Event::Alias(id) => {
                self.note_value_place(mark);
                self.note_item(mark, false);
                // Counted before it is copied, so a copy past the limits is never made.
                match self.anchors.get(&id).map(size) {
                    Some(expanded) => {
                        if self.count(expanded, mark) {
                            let v = self.anchors[&id].clone();
                            self.put(v, mark);
                        }
                    }
                    None => self.fail(mark, "unknown alias".into()),
                }
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    self.fail(mark, format!("nested more than {MAX_DEPTH} levels deep"));
                    return;
                }
                if !self.count((1, 0), mark) {
                    return;
                }
                let (pointer, is_key) = self.next_pointer();
                if is_key {
                    self.fail(
                        mark,
                        "a key must be a plain value, not a list or mapping".into(),
                    );
                    return;
                }
                self.note_value_place(mark);
                self.note_item(mark, matches!(ev, Event::MappingStart(..)));
                if let Some(layout) = &mut self.layout {
                    layout.open(
                        &pointer,
                        mark,
                        matches!(ev, Event::SequenceStart(..)),
                        &self.source.text,
                    );
                }
                let frame = if matches!(ev, Event::MappingStart(..)) {
                    Frame::Map {
                        map: Map::new(),
                        names: HashMap::new(),
                        key: None,
                        pointer,
                    }
                } else {
                    Frame::Seq {
                        items: Vec::new(),
                        pointer,
                    }
                };
                self.stack.push((frame, anchor));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(layout) = &mut self.layout {
                    layout.close(mark, &self.source.text);
                }
                if let Some((frame, anchor)) = self.stack.pop() {
                    let v = match frame {
                        Frame::Map { map, .. } => Value::Object(map),
                        Frame::Seq { items, .. } => Value::Array(items),
                    };
                    if anchor > 0 {
                        self.anchors.insert(anchor, v.clone());
                    }
                    self.put(v, mark);
                }
            }
            _ => {}
        }
    }
}

/// Parse YAML text (JSON too, being YAML). `name` is what errors call the file.
pub fn parse(name: &str, text: &str) -> Result<Doc> {
    parse_laid_out(name, text, false).map(|(doc, _)| doc)
}

/// Parse YAML text with its comments, each placed at the node it belongs to.
pub(crate) fn parse_with_comments(name: &str, text: &str) -> Result<(Doc, Comments)> {
    let (doc, layout) = parse_laid_out(name, text, true)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut comments = layout.unwrap_or_default().attach(text);
    if let Some(first) = doc.value.as_object().and_then(|m| m.keys().next()) {
        comments.split_header(&crate::pointer::pointer_push("", first));
    }
    Ok((doc, comments))
}

fn parse_laid_out(
    name: &str,
    text: &str,
    keep_layout: bool,
) -> Result<(Doc, Option<super::yaml_comments::Layout>)> {
    // A byte-order mark is no part of the text (it would make the first comment a key).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = Arc::new(Source {
        name: name.to_string(),
        text: text.to_string(),
    });
    let mut builder = Builder {
        source: source.clone(),
        stack: Vec::new(),
        root: None,
        anchors: HashMap::new(),
        places: HashMap::new(),
        nodes: 0,
        text_bytes: 0,
        path_bytes: 0,
        error: None,
        documents: 0,
        layout: keep_layout.then(Default::default),
    };
    builder.places.insert(
        String::new(),
        Place {
            key: None,
            value: Span::new(&source, 1, 1),
        },
    );
    let mut parser = Parser::new_from_str(text);
    if let Err(e) = parser.load(&mut builder, true) {
        let m = e.marker();
        let info = if e.info().contains("recursion limit") {
            "nested too deep"
        } else {
            e.info()
        };
        return Err(Span::new(&source, m.line(), m.col() + 1).at(format!("YAML: {info}")));
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    let mut doc = Doc::new(builder.root.unwrap_or(Value::Null));
    doc.places = builder.places;
    Ok((doc, builder.layout))
}

/// Write a value tree as YAML.
pub fn write(value: &Value) -> String {
    super::yaml_write::write_with_comments(value, &Comments::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse("t.yaml", text)
            .unwrap_err()
            .to_string()
            .lines()
            .next()
            .unwrap()
            .to_string()
    }

    #[test]
    fn aliases_are_capped_in_bytes_as_well_as_values() {
        let bomb = format!(
            "a: &a \"{}\"\nb: [{}]\n",
            "x".repeat(100_000),
            vec!["*a"; 1000].join(", ")
        );
        assert_eq!(
            error(&bomb),
            "t.yaml:2:2685: the document expands to more than 64 MiB of text (aliases?)"
        );
        let fine = format!(
            "a: &a \"{}\"\nb: [{}]\n",
            "x".repeat(100_000),
            vec!["*a"; 100].join(", ")
        );
        assert_eq!(
            parse("t.yaml", &fine).unwrap().value["b"][99]
                .as_str()
                .map(str::len),
            Some(100_000)
        );
    }

    #[test]
    fn numbers_too_large_are_errors_not_text_or_null() {
        assert_eq!(
            error("ships:\n  s:\n    shields: 1e309\n"),
            "t.yaml:3:14: number too large: 1e309"
        );
        assert_eq!(
            error("a: [1, -1e999]\n"),
            "t.yaml:1:8: number too large: -1e999"
        );
        let doc = parse("t.yaml", "a: .inf\nb: 1e308\nc: '1e309'\n").unwrap();
        assert_eq!(doc.value["a"], ".inf");
        assert_eq!(doc.value["b"].as_f64(), Some(1e308));
        assert_eq!(doc.value["c"], "1e309");
    }

    #[test]
    fn keys_a_capital_or_an_accent_apart_are_refused_at_the_second() {
        assert_eq!(
            error("ships:\n  Virel: {}\n  virel: {}\n"),
            "t.yaml:3:3: `virel` is the same name as `Virel` above (case and accents are ignored)"
        );
        assert_eq!(
            error("s:\n  Shields: 1\n  shíelds: 2\n"),
            "t.yaml:3:3: `shíelds` is the same name as `Shields` above (case and accents are \
             ignored)"
        );
        assert_eq!(
            error("a: 1\na: 2\n"),
            "t.yaml:2:1: `a` is given twice in the same mapping"
        );
        assert!(parse("t.yaml", "a: {x: 1}\nb: {X: 1}\n").is_ok());
    }

    #[test]
    fn a_long_key_above_many_entries_is_refused_before_its_paths_fill_memory() {
        let text = format!(
            "? {}\n: [{}]\n",
            "k".repeat(1_000_000),
            vec!["1"; 100].join(", ")
        );
        let e = error(&text);
        assert!(
            e.starts_with("t.yaml:2:") && e.ends_with(&super::super::doc::too_long_paths()),
            "{e}"
        );
        assert!(parse(
            "t.yaml",
            &format!(
                "? {}\n: [{}]\n",
                "k".repeat(1_000_000),
                vec!["1"; 20].join(", ")
            )
        )
        .is_ok());
    }

    #[test]
    fn a_byte_order_mark_does_not_turn_the_first_comment_into_a_key() {
        let doc = parse("t.yaml", "\u{feff}# a comment\nextends: startrek\n").unwrap();
        assert_eq!(doc.value, serde_json::json!({"extends": "startrek"}));
        assert_eq!(doc.place("/extends").map(|p| p.value.line), Some(2));
    }
}
