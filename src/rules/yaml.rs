//! YAML to `Doc`, keeping the line and column of every key and value.
use super::doc::{pointer_push, Doc, Place};
use crate::error::{Error, Result, Source, Span};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::sync::Arc;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deepest nesting accepted in an input file (deeper is an error, not a stack overflow):
/// the rules language's bracket limit, plus the root mapping, which has no brackets there,
/// so that whatever YAML loads also converts.
pub const MAX_DEPTH: usize = super::nesting::MAX_NESTING + 1;
/// Most nodes a document may expand to through aliases (guards against "billion laughs").
const MAX_NODES: usize = 2_000_000;

enum Frame {
    Map { map: Map<String, Value>, key: Option<String>, pointer: String },
    Seq { items: Vec<Value>, pointer: String },
}

struct Builder {
    source: Arc<Source>,
    stack: Vec<(Frame, usize)>,
    root: Option<Value>,
    anchors: HashMap<usize, Value>,
    places: HashMap<String, Place>,
    nodes: usize,
    error: Option<Error>,
    documents: usize,
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
            Some((Frame::Map { key: None, pointer, .. }, _)) => (pointer.clone(), true),
            Some((Frame::Map { key: Some(k), pointer, .. }, _)) => (pointer_push(pointer, k), false),
            Some((Frame::Seq { items, pointer }, _)) => (pointer_push(pointer, &items.len().to_string()), false),
        }
    }

    fn put(&mut self, value: Value, mark: Marker) {
        let (pointer, is_key) = self.next_pointer();
        let span = self.span(mark);
        let mut failure = None;
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some((Frame::Map { map, key, .. }, _)) => match key.take() {
                None => {
                    let k = match value {
                        Value::String(s) => s,
                        Value::Null => "null".to_string(),
                        other => other.to_string(),
                    };
                    if map.contains_key(&k) {
                        failure = Some(format!("`{k}` is given twice in the same mapping"));
                    } else {
                        let child = pointer_push(&pointer, &k);
                        self.places.insert(child, Place { key: Some(span.clone()), value: span });
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
        if !is_key {
            let span = self.span(mark);
            let key = self.places.get(&pointer).and_then(|p| p.key.clone());
            self.places.insert(pointer, Place { key, value: span });
        }
    }

    fn count(&mut self, n: usize, mark: Marker) -> bool {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            self.fail(mark, format!("the document expands to more than {MAX_NODES} values (aliases?)"));
            false
        } else {
            true
        }
    }
}

fn scalar_value(text: &str, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::String(text.to_string());
    }
    match yaml_rust2::Yaml::from_str(text) {
        yaml_rust2::Yaml::Integer(i) => Value::Number(i.into()),
        yaml_rust2::Yaml::Real(r) => match r.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Value::Number(n),
            None => Value::String(text.to_string()),
        },
        yaml_rust2::Yaml::Boolean(b) => Value::Bool(b),
        yaml_rust2::Yaml::Null => Value::Null,
        _ => Value::String(text.to_string()),
    }
}

fn size(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(size).sum::<usize>(),
        Value::Object(m) => 1 + m.values().map(size).sum::<usize>(),
        _ => 1,
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        match ev {
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    self.fail(mark, "only one YAML document is expected in a file".into());
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                if !self.count(1, mark) {
                    return;
                }
                self.note_value_place(mark);
                let v = scalar_value(&text, style);
                if anchor > 0 {
                    self.anchors.insert(anchor, v.clone());
                }
                self.put(v, mark);
            }
            Event::Alias(id) => {
                self.note_value_place(mark);
                match self.anchors.get(&id).cloned() {
                    Some(v) => {
                        if self.count(size(&v), mark) {
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
                if !self.count(1, mark) {
                    return;
                }
                let (pointer, is_key) = self.next_pointer();
                if is_key {
                    self.fail(mark, "a key must be a plain value, not a list or mapping".into());
                    return;
                }
                self.note_value_place(mark);
                let frame = if matches!(ev, Event::MappingStart(..)) {
                    Frame::Map { map: Map::new(), key: None, pointer }
                } else {
                    Frame::Seq { items: Vec::new(), pointer }
                };
                self.stack.push((frame, anchor));
            }
            Event::MappingEnd | Event::SequenceEnd => {
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
    let source = Arc::new(Source { name: name.to_string(), text: text.to_string() });
    let mut builder = Builder {
        source: source.clone(),
        stack: Vec::new(),
        root: None,
        anchors: HashMap::new(),
        places: HashMap::new(),
        nodes: 0,
        error: None,
        documents: 0,
    };
    builder.places.insert(String::new(), Place { key: None, value: Span::new(&source, 1, 1) });
    let mut parser = Parser::new_from_str(text);
    if let Err(e) = parser.load(&mut builder, true) {
        let m = e.marker();
        let info = if e.info().contains("recursion limit") { "nested too deep" } else { e.info() };
        return Err(Span::new(&source, m.line(), m.col() + 1).at(format!("YAML: {info}")));
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    let mut doc = Doc::new(builder.root.unwrap_or(Value::Null));
    doc.places = builder.places;
    Ok(doc)
}

/// Write a value tree as YAML.
pub fn write(value: &Value) -> String {
    serde_yaml::to_string(value).unwrap_or_default()
}
