//! The rules language: text to `Doc` (with places) and `Value` back to text.
use super::comments::{push_after, push_before, push_end, Comments};
use super::formula;
use super::grammar::{pest_error, Rule, RulesParser};
use super::lines::LineIndex;
use crate::error::{Result, Source, Span};
use pest::iterators::Pair;
use pest::Parser;
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::sync::Arc;
use {
    super::doc::{Doc, Place, NEW_MARKER},
    crate::pointer::pointer_push,
};

/// The text being parsed, with its line table for placing nodes.
struct Text {
    source: Arc<Source>,
    lines: LineIndex,
    /// Bytes of pointers made so far (see `MAX_PATH_BYTES`).
    path_bytes: std::cell::Cell<usize>,
    /// Where keys, sections and lists are, when comments are to be placed among them.
    layout: Option<std::cell::RefCell<Layout>>,
}

impl Text {
    /// Count a new pointer against `MAX_PATH_BYTES`.
    fn charge(&self, pointer: &str, at: &Span) -> Result<()> {
        self.path_bytes.set(self.path_bytes.get() + pointer.len());
        if self.path_bytes.get() > super::doc::MAX_PATH_BYTES {
            return Err(at.clone().at(super::doc::too_long_paths()));
        }
        Ok(())
    }

    fn span_at(&self, pos: usize) -> Span {
        let (line, col) = self.lines.line_col(&self.source.text, pos);
        Span::new(&self.source, line, col)
    }

    fn span_of(&self, pair: &Pair<Rule>) -> Span {
        self.span_at(pair.as_span().start())
    }

    fn anchor(&self, pos: usize, pointer: &str) {
        if let Some(layout) = &self.layout {
            layout.borrow_mut().anchors.push((pos, pointer.to_string()));
        }
    }

    /// A section or list from its opening bracket to its closing one.
    fn container(&self, pair: &Pair<Rule>, pointer: &str) {
        if let Some(layout) = &self.layout {
            let span = pair.as_span();
            layout
                .borrow_mut()
                .containers
                .push(super::lang_comments::Container {
                    open: span.start(),
                    close: span.end().saturating_sub(1),
                    pointer: pointer.to_string(),
                });
        }
    }

    /// Whether only blanks come before `pos` on its line.
    fn starts_line(&self, pos: usize) -> bool {
        // Backwards to the first non-blank: one step for items that share a line.
        let before = self.source.text.as_bytes()[..pos].iter().rev();
        before
            .take_while(|b| **b != b'\n')
            .all(|b| b.is_ascii_whitespace())
    }
}

/// Keys and brackets by position (see `lang_comments`).
#[derive(Default)]
pub(crate) struct Layout {
    pub anchors: Vec<(usize, String)>,
    pub containers: Vec<super::lang_comments::Container>,
}

/// Parse rules-language text. `name` is what errors call the file.
pub fn parse(name: &str, text: &str) -> Result<Doc> {
    parse_laid_out(name, text, false).map(|(doc, _)| doc)
}

/// Parse rules-language text with its comments, each placed at the node it belongs to.
pub(crate) fn parse_with_comments(name: &str, text: &str) -> Result<(Doc, Comments)> {
    let (doc, layout) = parse_laid_out(name, text, true)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut comments = super::lang_comments::attach(text, layout.unwrap_or_default());
    if let Some(first) = doc.value.as_object().and_then(|m| m.keys().next()) {
        comments.split_header(&pointer_push("", first));
    }
    Ok((doc, comments))
}

fn parse_laid_out(name: &str, text: &str, keep_layout: bool) -> Result<(Doc, Option<Layout>)> {
    // A byte-order mark is no part of the text (editors on Windows write one).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = Arc::new(Source {
        name: name.to_string(),
        text: text.to_string(),
    });
    let t = Text {
        lines: LineIndex::new(text),
        source,
        path_bytes: Default::default(),
        layout: keep_layout.then(Default::default),
    };
    if let Some((pos, message)) = super::nesting::precheck(text) {
        return Err(t.span_at(pos).at(message));
    }
    let mut pairs = RulesParser::parse(Rule::ruleset_file, text).map_err(|e| {
        // Where the parser wanted another key or the end, a block was left open: show its
        // bracket (and always a closer of the wrong kind, or an open string). Another error
        // comes first, with the open bracket as a note.
        let wants_key = matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. }
            if positives.contains(&Rule::key));
        let error_line = match e.line_col {
            pest::error::LineColLocation::Pos((l, _)) | pest::error::LineColLocation::Span((l, _), _) => l,
        };
        if let Some((line, col, words)) = loose_words(text).filter(|w| w.0 <= error_line) {
            return Span::new(&t.source, line, col).at(format!(
                "`{words}` is more than one word: a value of several words is a string, so \
                 write it in quotes (\"{words}\")"
            ));
        }
        match super::brackets::unbalanced(text) {
            Some(u) if wants_key || !u.only_left_open => {
                Span::new(&t.source, u.line, u.col).at(u.message)
            }
            Some(u) => pest_error(e, &t.source, 0, 0)
                .reworded(|m| format!("{m} (and the bracket at {}:{} is never closed)", u.line, u.col)),
            None => pest_error(e, &t.source, 0, 0),
        }
    })?;
    let file = pairs.next().expect("ruleset_file");
    let mut doc = Doc::new(Value::Null);
    let mut root = Keys::default();
    let root_span = Span::new(&t.source, 1, 1);
    doc.places.insert(
        String::new(),
        Place {
            key: None,
            value: root_span,
        },
    );
    for pair in file.into_inner() {
        match pair.as_rule() {
            Rule::extends_decl => {
                t.anchor(pair.as_span().start(), "/extends");
                let (value, span) = extends_value(pair, &mut doc, &t)?;
                root.insert("extends".into(), value, span)?;
            }
            Rule::EOI => {}
            _ => statement(pair, "", &mut root, &mut doc, &t)?,
        }
    }
    doc.value = Value::Object(root.map);
    Ok((doc, t.layout.map(|l| l.into_inner())))
}

/// The first line that reads `key = some words` (a string left unquoted, which the grammar
/// takes for a value and then a key with no `=`): its line, the value's column and the words.
fn loose_words(text: &str) -> Option<(usize, usize, String)> {
    let is_word = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && w.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '\''))
            && !matches!(
                w,
                "if" | "then" | "else" | "and" | "or" | "not" | "true" | "false" | "null" | "new"
            )
    };
    for (i, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or_default();
        if code.contains(['"', '{', '[', '(']) {
            continue;
        }
        let Some((key, value)) = code.split_once(['=', ':']) else {
            continue;
        };
        let key = key.trim();
        let words: Vec<&str> = value.split_whitespace().collect();
        if key.is_empty() || !key.split_whitespace().all(is_word) || words.len() < 2 {
            continue;
        }
        if words.iter().all(|w| is_word(w)) {
            let col = code.len() - value.trim_start().len();
            let col = code[..col].chars().count() + 1;
            return Some((i + 1, col, words.join(" ")));
        }
    }
    None
}

/// `extends NAME` as the name alone; with pins (`sha256 "HEX"`, `version "REQ"`) as the map
/// the YAML form writes, `{name, sha256, version}`.
fn extends_value(pair: Pair<Rule>, doc: &mut Doc, t: &Text) -> Result<(Value, Span)> {
    let mut inner = pair.into_inner().skip(1);
    let target = inner.next().expect("extends target");
    let span = t.span_of(&target);
    let name = match target.as_rule() {
        Rule::string => unescape(&target, t)?,
        _ => target.as_str().to_string(),
    };
    let place = |span: &Span| Place {
        key: Some(span.clone()),
        value: span.clone(),
    };
    doc.places.insert("/extends".into(), place(&span));
    let mut pins = Keys::default();
    for pin in inner {
        let pin_span = t.span_of(&pin);
        let mut parts = pin.into_inner();
        let kind = parts.next().expect("pin keyword").as_str().to_string();
        let text = parts.next().expect("pin text");
        let value_span = t.span_of(&text);
        let text = unescape(&text, t)?;
        doc.places.insert(
            format!("/extends/{kind}"),
            Place {
                key: Some(pin_span.clone()),
                value: value_span,
            },
        );
        pins.insert(kind, Value::String(text), pin_span)?;
    }
    if pins.map.is_empty() {
        return Ok((Value::String(name), span));
    }
    doc.places.insert("/extends/name".into(), place(&span));
    let mut map = Map::new();
    map.insert("name".into(), Value::String(name));
    map.extend(pins.map);
    Ok((Value::Object(map), span))
}

/// A block's entries, with their names as compared (case and accents ignored), so that two
/// keys only a capital apart are refused: name lookups elsewhere would not tell them apart.
#[derive(Default)]
struct Keys {
    map: Map<String, Value>,
    names: HashMap<String, String>,
}

impl Keys {
    fn insert(&mut self, key: String, value: Value, at: Span) -> Result<()> {
        self.claim(&key, at)?;
        self.map.insert(key, value);
        Ok(())
    }

    /// Take a key's name for this block, refusing one it already has.
    fn claim(&mut self, key: &str, at: Span) -> Result<()> {
        let name = crate::names::normalize(key);
        if let Some(first) = self.names.get(&name) {
            return Err(at.at(if *first == key {
                format!("`{key}` is given twice in the same block")
            } else {
                format!(
                    "`{key}` is the same name as `{first}` above (case and accents are ignored)"
                )
            }));
        }
        self.names.insert(name, key.to_string());
        Ok(())
    }
}

fn unescape(pair: &Pair<Rule>, t: &Text) -> Result<String> {
    serde_json::from_str::<String>(pair.as_str())
        .map_err(|e| t.span_of(pair).at(format!("bad string: {e}")))
}

fn statement(pair: Pair<Rule>, base: &str, keys: &mut Keys, doc: &mut Doc, t: &Text) -> Result<()> {
    let mut inner = pair.into_inner();
    let key_pair = inner.next().expect("statement key");
    let key_span = t.span_of(&key_pair);
    let key_pair_start = key_pair.as_span().start();
    let mut key_parts = key_pair.into_inner();
    let mut key_inner = key_parts.next().expect("key content");
    // `new NAME` is the key `+NAME`, as YAML writes it.
    let marker = if key_inner.as_rule() == Rule::new_kw {
        key_inner = key_parts.next().expect("key after `new`");
        NEW_MARKER
    } else {
        ""
    };
    let key = match key_inner.as_rule() {
        Rule::string => unescape(&key_inner, t)?,
        _ => key_inner.as_str().to_string(),
    };
    let key = format!("{marker}{key}");
    let pointer = pointer_push(base, &key);
    t.charge(&pointer, &key_span)?;
    t.anchor(key_pair_start, &pointer);
    // Refused before the value is read, so the error is the duplicate, not something inside it.
    keys.claim(&key, key_span.clone())?;
    let value_pair = inner.next().expect("statement value");
    let value_span = t.span_of(&value_pair);
    doc.places.insert(
        pointer.clone(),
        Place {
            key: Some(key_span),
            value: value_span,
        },
    );
    let value = match value_pair.as_rule() {
        Rule::block => block(value_pair, &pointer, doc, t)?,
        _ => value(value_pair, &pointer, doc, t)?,
    };
    keys.map.insert(key, value);
    Ok(())
}

fn block(pair: Pair<Rule>, pointer: &str, doc: &mut Doc, t: &Text) -> Result<Value> {
    t.container(&pair, pointer);
    let mut keys = Keys::default();
    for st in pair.into_inner() {
        statement(st, pointer, &mut keys, doc, t)?;
    }
    Ok(Value::Object(keys.map))
}

fn value(pair: Pair<Rule>, pointer: &str, doc: &mut Doc, t: &Text) -> Result<Value> {
    let pair = if pair.as_rule() == Rule::value {
        pair.into_inner().next().expect("value content")
    } else {
        pair
    };
    Ok(match pair.as_rule() {
        Rule::block => block(pair, pointer, doc, t)?,
        Rule::string => Value::String(unescape(&pair, t)?),
        Rule::null_value => Value::Null,
        Rule::list => {
            t.container(&pair, pointer);
            let mut items = Vec::new();
            for (i, item) in pair.into_inner().enumerate() {
                let p = pointer_push(pointer, &i.to_string());
                let span = t.span_of(&item);
                t.charge(&p, &span)?;
                if t.layout.is_some() && t.starts_line(item.as_span().start()) {
                    t.anchor(item.as_span().start(), &p);
                }
                doc.places.insert(
                    p.clone(),
                    Place {
                        key: None,
                        value: span,
                    },
                );
                items.push(value(item, &p, doc, t)?);
            }
            Value::Array(items)
        }
        Rule::expr => {
            let start = pair.as_span().start();
            let text = pair.as_str();
            let node =
                formula::build(pair, text, start).map_err(|e| t.span_at(e.pos).at(e.message))?;
            bare_value(&node, text)
        }
        other => unreachable!("not a value: {other:?}"),
    })
}

/// A bare expression: a plain number, boolean or name stays what it is; a hyphenated word
/// (`my-club`, `bloodbowl-swiss`) is the word as written, as YAML reads it, so that a key
/// that takes a string never gets the formula `my - club` (a key that takes a formula reads
/// `a-b` as `a - b` all the same); anything else (formulas, dice) becomes its canonical text.
fn bare_value(node: &formula::Node, written: &str) -> Value {
    match node {
        formula::Node::Num { text, value } => number_value(text, *value),
        formula::Node::Bool(b) => Value::Bool(*b),
        formula::Node::Var { name, .. } => Value::String(name.clone()),
        other => match one_line(written).filter(|w| is_hyphenated_word(w)) {
            Some(word) => Value::String(word.to_string()),
            None => Value::String(formula::canonical(other)),
        },
    }
}

/// Words joined by hyphens, no blanks: `my-club`, `club-2`.
fn is_hyphenated_word(text: &str) -> bool {
    let mut parts = text.split('-');
    let first_is_a_name = parts
        .next()
        .and_then(|p| p.chars().next())
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    first_is_a_name
        && text.contains('-')
        && text
            .split('-')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// An expression's text without the blanks and comments the grammar lets follow it, if it is
/// on one line (a formula has no strings, so `#` always starts a comment).
fn one_line(written: &str) -> Option<&str> {
    let mut lines = written
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty());
    let first = lines.next()?;
    lines.next().is_none().then_some(first)
}

fn number_value(text: &str, value: f64) -> Value {
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Number(i.into());
        }
    }
    Number::from_f64(value)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

// ---- writing ----------------------------------------------------------------------------

/// Write a value tree (whose root is a map) as rules-language text.
pub fn write(value: &Value) -> String {
    write_with_comments(value, &Comments::default())
}

/// Write a value tree with its comments, each at its node (the canonical layout `rules fmt`
/// gives).
pub fn write_with_comments(value: &Value, comments: &Comments) -> String {
    let writer = Writer {
        comments,
        marked: comments.commented_paths(),
    };
    let mut out = String::new();
    super::comments::push_header(&mut out, comments);
    if let Value::Object(map) = value {
        if let Some(e) = map.get("extends").filter(|e| writes_on_its_line(e)) {
            let notes = comments.get("/extends");
            push_before(&mut out, "", notes);
            write_extends(e, &mut out);
            push_after(&mut out, notes);
            out.push_str("\n\n");
        }
        writer.statements(map, "", 0, &mut out, true);
    }
    let notes = comments.get("");
    if notes.is_some_and(|n| !n.end.is_empty()) {
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        push_end(&mut out, "", notes);
    }
    out
}

/// `extends NAME [sha256 "HEX"] [version "REQ"]` (without its end of line).
fn write_extends(e: &Value, out: &mut String) {
    let name = |n: &str| {
        if is_bare_extends_name(n) {
            n.to_string()
        } else {
            quote(n)
        }
    };
    match e {
        Value::String(n) => out.push_str(&format!("extends {}", name(n))),
        Value::Object(m) => {
            let n = m.get("name").and_then(Value::as_str).unwrap_or_default();
            out.push_str(&format!("extends {}", name(n)));
            for (k, v) in m.iter().filter(|(k, _)| *k != "name") {
                out.push_str(&format!(" {k} {}", quote(v.as_str().unwrap_or_default())));
            }
        }
        _ => {}
    }
}

/// Whether `extends` is a form the rules language writes on its line: a name, or a map of a
/// name and string pins. Another form is left to the statements, where the checks refuse it.
fn writes_on_its_line(e: &Value) -> bool {
    match e {
        Value::String(_) => true,
        Value::Object(m) => {
            // Any word reads back as a pin (a misspelt one too, for the check to name), but
            // `new`, which would start a statement.
            m.get("name").is_some_and(Value::is_string)
                && m.iter()
                    .all(|(k, v)| k == "name" || (is_bare_name(k) && k != "new" && v.is_string()))
        }
        _ => false,
    }
}

/// The printer: the comments to place, and the pointers that have some at or below them.
struct Writer<'a> {
    comments: &'a Comments,
    marked: std::collections::HashSet<String>,
}

impl Writer<'_> {
    fn statements(
        &self,
        map: &Map<String, Value>,
        base: &str,
        depth: usize,
        out: &mut String,
        top: bool,
    ) {
        let indent = "  ".repeat(depth);
        let mut previous_was_block = false;
        // Counted from the first statement written here: `extends` on its line is not one
        // (it leaves its own blank line), so a block after it gets no second one.
        let mut i = 0;
        for (k, v) in map {
            if top && k == "extends" && writes_on_its_line(v) {
                continue;
            }
            let pointer = self.comments.child(base, k);
            let notes = self.comments.get(&pointer);
            let one_line = v.is_object() && self.comments.on_one_line(v, &pointer, &self.marked);
            let is_block = v.is_object() && !one_line;
            if i > 0 && (is_block || previous_was_block) && depth <= 1 {
                out.push('\n');
            }
            i += 1;
            previous_was_block = is_block;
            push_before(out, &indent, notes);
            out.push_str(&indent);
            out.push_str(&key_text(k));
            match v {
                Value::Object(m) if one_line => {
                    out.push(' ');
                    self.one_line_map(m, out);
                    push_after(out, notes);
                    out.push('\n');
                }
                Value::Object(m) => {
                    out.push_str(" {");
                    push_after(out, notes);
                    out.push('\n');
                    self.statements(m, &pointer, depth + 1, out, false);
                    push_end(out, &"  ".repeat(depth + 1), notes);
                    out.push_str(&indent);
                    out.push_str("}\n");
                }
                other => {
                    out.push_str(" = ");
                    if !self.value(other, &pointer, depth, out) {
                        push_after(out, notes);
                    }
                    out.push('\n');
                }
            }
        }
    }

    /// `{ a = 1, b = 2 }`: a map of scalars on one line (no comments inside).
    fn one_line_map(&self, m: &Map<String, Value>, out: &mut String) {
        out.push_str("{ ");
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&key_text(k));
            out.push_str(" = ");
            self.value(v, "", 0, out);
        }
        out.push_str(" }");
    }

    /// Write a value; says whether it wrote its own end-of-line comment (a list or block that
    /// takes several lines has it after its opening bracket).
    fn value(&self, v: &Value, pointer: &str, depth: usize, out: &mut String) -> bool {
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(&number_text(n)),
            Value::String(s) => out.push_str(&if is_bare(s) { s.clone() } else { quote(s) }),
            Value::Array(items) => {
                let notes = self.comments.get(pointer);
                if self.comments.on_one_line(v, pointer, &self.marked) {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.value(item, "", depth, out);
                    }
                    out.push(']');
                    return false;
                }
                let inner = "  ".repeat(depth + 1);
                out.push('[');
                push_after(out, notes);
                out.push('\n');
                let numbers = items.iter().all(Value::is_number);
                let uncommented = (0..items.len()).all(|i| {
                    self.comments
                        .get(&self.comments.child(pointer, &i.to_string()))
                        .is_none()
                });
                if numbers && uncommented {
                    // A long table of numbers (a rating table) ten to a row, so that a row's
                    // first entry is the index of a multiple of ten.
                    for row in items.chunks(NUMBERS_PER_ROW) {
                        let cells: Vec<String> = row
                            .iter()
                            .map(|n| n.as_number().map(number_text).unwrap_or_default())
                            .collect();
                        out.push_str(&format!("{inner}{},\n", cells.join(", ")));
                    }
                    push_end(out, &inner, notes);
                    out.push_str(&"  ".repeat(depth));
                    out.push(']');
                    return true;
                }
                for (i, item) in items.iter().enumerate() {
                    let item_pointer = self.comments.child(pointer, &i.to_string());
                    let item_notes = self.comments.get(&item_pointer);
                    push_before(out, &inner, item_notes);
                    out.push_str(&inner);
                    let wrote = self.value(item, &item_pointer, depth + 1, out);
                    out.push(',');
                    if !wrote {
                        push_after(out, item_notes);
                    }
                    out.push('\n');
                }
                push_end(out, &inner, notes);
                out.push_str(&"  ".repeat(depth));
                out.push(']');
                return true;
            }
            Value::Object(m) => {
                let notes = self.comments.get(pointer);
                out.push('{');
                push_after(out, notes);
                out.push('\n');
                self.statements(m, pointer, depth + 1, out, false);
                push_end(out, &"  ".repeat(depth + 1), notes);
                out.push_str(&"  ".repeat(depth));
                out.push('}');
                return true;
            }
        }
        false
    }
}

/// Numbers a row when a list of numbers is too long for one line.
const NUMBERS_PER_ROW: usize = 10;

fn number_text(n: &Number) -> String {
    if n.is_f64() {
        let f = n.as_f64().unwrap_or(0.0);
        let s = format!("{f:?}");
        if s.contains(['.', 'e', 'E']) {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        n.to_string()
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

/// A name that reads back as itself when written without quotes.
fn is_bare_name(s: &str) -> bool {
    RulesParser::parse(Rule::ident, s)
        .map(|p| p.as_str() == s)
        .unwrap_or(false)
        && !matches!(s, "true" | "false" | "null")
}

/// A name `extends` takes without quotes: a name, hyphens allowed (`bloodbowl-swiss`).
fn is_bare_extends_name(s: &str) -> bool {
    RulesParser::parse(Rule::extends_name, s)
        .map(|p| p.as_str() == s)
        .unwrap_or(false)
        && !matches!(s, "true" | "false" | "null")
}

/// A key as the rules language writes it: bare if it reads back as itself, else quoted; a key
/// marked new (`+NAME`) as `new NAME`.
pub(crate) fn key_text(k: &str) -> String {
    if let Some(name) = k.strip_prefix(NEW_MARKER) {
        return match name.starts_with(NEW_MARKER) {
            true => format!("new {}", quote(name)),
            false => format!("new {}", key_text(name)),
        };
    }
    if RulesParser::parse(Rule::ident, k)
        .map(|p| p.as_str() == k)
        .unwrap_or(false)
        || RulesParser::parse(Rule::keyword, k)
            .map(|p| p.as_str() == k)
            .unwrap_or(false)
    {
        k.to_string()
    } else {
        quote(k)
    }
}

/// A string written bare only if reading it back gives exactly the same string.
fn is_bare(s: &str) -> bool {
    if s.is_empty() || s.contains('#') || s.contains('\n') {
        return false;
    }
    match formula::parse(s) {
        Ok(node) => bare_value(&node, s) == Value::String(s.to_string()),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse("t.rules", text)
            .unwrap_err()
            .to_string()
            .lines()
            .next()
            .unwrap()
            .to_string()
    }

    #[test]
    fn formula_limits_are_reported_at_their_line_and_column() {
        let minus = format!("a {{\n  b = {}1\n}}\n", "-".repeat(20_000));
        assert_eq!(
            error(&minus),
            "t.rules:2:107: more than 100 signs (`-`, `not`) in a row"
        );
        let terms = format!("a = 1\nb = 1 +\n  {}1\n", "1+".repeat(100_000));
        assert_eq!(
            error(&terms),
            "t.rules:3:2002: more than 1000 operators in one formula"
        );
        let ifs = format!("x = {}1", "if 1 then 1 else ".repeat(200));
        assert_eq!(
            error(&ifs),
            "t.rules:1:1705: nested more than 100 deep (`if`s and brackets)"
        );
        let brackets = format!("a = 1\nb = {}", "[".repeat(101));
        assert_eq!(
            error(&brackets),
            "t.rules:2:105: nested more than 100 brackets deep"
        );
    }

    #[test]
    fn numbers_too_large_are_errors_not_null() {
        assert_eq!(
            error("a {\n  shields = 1e309\n}\n"),
            "t.rules:2:13: number too large: 1e309"
        );
        assert_eq!(
            error("a = [1, -1e400]\n"),
            "t.rules:1:10: number too large: 1e400"
        );
        let doc = parse("t.rules", "a = 1e308\n").unwrap();
        assert_eq!(doc.value["a"].as_f64(), Some(1e308));
    }

    #[test]
    fn keys_a_capital_or_an_accent_apart_are_refused_at_the_second() {
        assert_eq!(
            error("s {\n  Shields = 1\n  shields = 2\n}\n"),
            "t.rules:3:3: `shields` is the same name as `Shields` above (case and accents are \
             ignored)"
        );
        assert_eq!(
            error("\"Trialón\" = 1\ntrialon = 2\n"),
            "t.rules:2:1: `trialon` is the same name as `Trialón` above (case and accents are \
             ignored)"
        );
        assert_eq!(
            error("a = 1\na = 2\n"),
            "t.rules:2:1: `a` is given twice in the same block"
        );
        // The same name in different blocks is fine.
        assert!(parse("t.rules", "a { x = 1 }\nb { X = 1 }\n").is_ok());
    }

    #[test]
    fn a_long_key_above_many_entries_is_refused_before_its_paths_fill_memory() {
        let key = "k".repeat(1_000_000);
        let text = format!("a = 1\n\"{key}\" = [{}]\n", vec!["1"; 100].join(", "));
        // Each item's path is the key again: the 67th passes 64 MiB (item 0 is at column
        // 1,000,007).
        assert_eq!(
            error(&text),
            format!(
                "t.rules:2:{}: {}",
                1_000_007 + 3 * 66,
                super::super::doc::too_long_paths()
            )
        );
        let fine = format!("\"{key}\" = [{}]\n", vec!["1"; 50].join(", "));
        assert!(parse("t.rules", &fine).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_text() {
        let doc = parse("t.rules", "\u{feff}# comment\nname = x\nbad = \n")
            .unwrap_err()
            .to_string();
        assert!(doc.starts_with("t.rules:4:1: "), "{doc}");
        let doc = parse("t.rules", "\u{feff}extends startrek\n").unwrap();
        assert_eq!(doc.value["extends"], "startrek");
    }

    #[test]
    fn places_on_a_long_line_with_wide_characters_are_in_characters() {
        let items: Vec<String> = (0..20_000).map(|i| format!("\"é{i}\"")).collect();
        let doc = parse("t.rules", &format!("a = [{}]\n", items.join(", "))).unwrap();
        let place = doc.place("/a/19999").unwrap();
        let expected = 6 + items[..19_999]
            .iter()
            .map(|s| s.chars().count() + 2)
            .sum::<usize>();
        assert_eq!((place.value.line, place.value.col), (1, expected));
    }
}
