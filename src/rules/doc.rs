//! A loaded document: a JSON-like value tree plus where each node came from.
//!
//! Both input formats (the rules language and YAML) load into a `Doc`, so `extends`,
//! typed deserialisation and error positions work the same way for both.
use crate::error::{Error, Place as ErrorPlace, Result, Span};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;

/// Where a node sits: its key (for map entries) and its value.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub key: Option<Span>,
    pub value: Span,
}

/// A value tree with the place of every node, addressed by JSON pointer ("/ships/virel/value").
#[derive(Debug, Clone)]
pub struct Doc {
    pub value: Value,
    pub(crate) places: HashMap<String, Place>,
}

/// Most bytes the pointers of one document's places may add up to. Each node's pointer
/// repeats its ancestors' keys, so a long key above many entries would otherwise cost its
/// length once per entry (a 1 MB key over 100,000 entries: 100 GB).
pub(crate) const MAX_PATH_BYTES: usize = 64 << 20;

/// The error for a document past `MAX_PATH_BYTES`.
pub(crate) fn too_long_paths() -> String {
    format!(
        "the keys leading to these entries are too long for so many of them (more than {} MiB of \
         paths)",
        MAX_PATH_BYTES >> 20
    )
}

use crate::pointer::pointer_push;

impl Doc {
    pub(crate) fn new(value: Value) -> Doc {
        Doc {
            value,
            places: HashMap::new(),
        }
    }

    /// The place of `pointer`, or of its nearest ancestor that has one.
    pub(crate) fn place(&self, pointer: &str) -> Option<&Place> {
        let mut p = pointer.to_string();
        loop {
            if let Some(place) = self.places.get(&p) {
                return Some(place);
            }
            match p.rfind('/') {
                Some(i) => p.truncate(i),
                None => return None,
            }
        }
    }

    /// An error located at the value of `pointer` (or the nearest known ancestor).
    pub(crate) fn error_at(&self, pointer: &str, message: impl Into<String>) -> Error {
        match self.place(pointer) {
            Some(place) => place.value.clone().at(message),
            None => Error::msg(message),
        }
    }

    /// An error located at the key of `pointer` (falls back to its value).
    pub(crate) fn error_at_key(&self, pointer: &str, message: impl Into<String>) -> Error {
        match self.place(pointer) {
            Some(place) => place
                .key
                .clone()
                .unwrap_or_else(|| place.value.clone())
                .at(message),
            None => Error::msg(message),
        }
    }

    /// Deserialise into a typed value; a type error names the place of the offending node.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T> {
        let result: std::result::Result<T, serde_path_to_error::Error<serde_json::Error>> =
            serde_path_to_error::deserialize(&self.value);
        result.map_err(|e| {
            let mut pointer = String::new();
            for segment in e.path().iter() {
                match segment {
                    serde_path_to_error::Segment::Seq { index } => {
                        pointer = pointer_push(&pointer, &index.to_string())
                    }
                    serde_path_to_error::Segment::Map { key } => {
                        pointer = pointer_push(&pointer, key)
                    }
                    _ => {}
                }
            }
            let field = e.path().iter().rev().find_map(|segment| match segment {
                serde_path_to_error::Segment::Map { key } => Some(key.as_str()),
                _ => None,
            });
            let message = friendly_serde_message(&e.inner().to_string(), field);
            if message.starts_with("unknown field") {
                self.error_at_key(&pointer, message)
            } else {
                self.error_at(&pointer, message)
            }
        })
    }

    /// Apply an overlay: maps merge key by key (keys matched as names are: ignoring case
    /// and accents, keeping the base's spelling), anything else is replaced, `null` removes.
    /// A key marked new (`+NAME`, `new NAME` in the rules language) must not be in the base;
    /// the unmarked keys that match nothing are returned, for the caller to judge (a field the
    /// base left out is fine, a ship name that matches none is a typo).
    pub(crate) fn overlay(&mut self, over: Doc) -> Result<Vec<Unmatched>> {
        let Doc { value, places } = over;
        let mut merge = Merge {
            places: &places,
            moved: HashMap::new(),
            unmatched: Vec::new(),
        };
        merge.value(&mut self.value, value, "", "")?;
        let Merge {
            moved, unmatched, ..
        } = merge;
        // Each overlay place follows its own node, or the nearest ancestor moved whole
        // (one pass over the places, not one per moved node).
        for (from, place) in places {
            let mut ancestor = from.as_str();
            loop {
                match moved.get(ancestor) {
                    Some(Move { to, .. }) if ancestor == from => {
                        self.places.insert(to.clone(), place);
                        break;
                    }
                    Some(Move { to, subtree: true }) => {
                        self.places
                            .insert(format!("{to}{}", &from[ancestor.len()..]), place);
                        break;
                    }
                    Some(_) => break,
                    None => {}
                }
                match ancestor.rfind('/') {
                    Some(i) => ancestor = &ancestor[..i],
                    None => break,
                }
            }
        }
        Ok(unmatched)
    }

    /// Drop the new-entry markers of a document that extends nothing (everything in it is new).
    pub(crate) fn without_markers(self) -> Result<Doc> {
        if !has_marker(&self.value) {
            return Ok(self);
        }
        let root = self.places.get("").cloned();
        let mut out = Doc::new(Value::Object(Default::default()));
        out.overlay(self)?;
        if let Some(root) = root {
            out.places.insert(String::new(), root);
        }
        Ok(out)
    }
}

/// The prefix that marks a key as a new entry, not a change to one of the base's.
pub(crate) const NEW_MARKER: &str = "+";

/// An overlay key that matched nothing in the base: `parent` is the map's pointer in the merged
/// document, `place` where the overlay wrote the key.
#[derive(Debug, Clone)]
pub(crate) struct Unmatched {
    pub parent: String,
    pub key: String,
    pub removal: bool,
    pub place: Option<Place>,
}

fn has_marker(v: &Value) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| k.starts_with(NEW_MARKER) || has_marker(v)),
        Value::Array(items) => items.iter().any(has_marker),
        _ => false,
    }
}

/// Where an overlay node went in the merged document, and whether everything below it went too.
struct Move {
    to: String,
    subtree: bool,
}

/// One overlay being merged: `moved` maps every overlay node's pointer to where it went, so its
/// places can follow it.
struct Merge<'a> {
    places: &'a HashMap<String, Place>,
    moved: HashMap<String, Move>,
    unmatched: Vec<Unmatched>,
}

impl Merge<'_> {
    fn error_at(&self, over_ptr: &str, message: String) -> Error {
        match self.places.get(over_ptr) {
            Some(p) => p.key.clone().unwrap_or_else(|| p.value.clone()).at(message),
            None => Error::msg(message),
        }
    }

    /// Merge `over` into `base`. Keys are found through a table of their names as compared, so
    /// a big overlay merges in linear time.
    fn value(
        &mut self,
        base: &mut Value,
        over: Value,
        base_ptr: &str,
        over_ptr: &str,
    ) -> Result<()> {
        let (b, o) = match (base, over) {
            (Value::Object(b), Value::Object(o)) => (b, o),
            (b, mut o) => {
                self.strip(&mut o, base_ptr, over_ptr)?;
                *b = o;
                self.moved.insert(
                    over_ptr.to_string(),
                    Move {
                        to: base_ptr.to_string(),
                        subtree: true,
                    },
                );
                return Ok(());
            }
        };
        let mut names: HashMap<String, String> = HashMap::with_capacity(b.len());
        for k in b.keys() {
            names
                .entry(crate::names::normalize(k))
                .or_insert_with(|| k.clone());
        }
        let mut removed = std::collections::HashSet::new();
        for (k, mut v) in o {
            let over_child = pointer_push(over_ptr, &k);
            let (name, marked) = match k.strip_prefix(NEW_MARKER) {
                Some(name) => (name.to_string(), true),
                None => (k.clone(), false),
            };
            let existing = if b.contains_key(&name) {
                Some(name.clone())
            } else {
                names.get(&crate::names::normalize(&name)).cloned()
            };
            if marked {
                if let Some(e) = &existing {
                    let message = format!(
                        "`{name}` is declared new, but the base already has `{e}` (to change \
                         it, drop the marker)"
                    );
                    return Err(self.error_at(&over_child, message));
                }
                if v.is_null() {
                    let message = format!("`{name}` is declared new and removed at once");
                    return Err(self.error_at(&over_child, message));
                }
            }
            if v.is_null() {
                match existing {
                    // Removed together at the end: one shift of the map, not one per key.
                    Some(e) => {
                        removed.insert(e);
                    }
                    None => self.unmatched.push(Unmatched {
                        parent: base_ptr.to_string(),
                        key: name,
                        removal: true,
                        place: self.places.get(&over_child).cloned(),
                    }),
                }
                continue;
            }
            match existing {
                Some(e) => {
                    let base_child = pointer_push(base_ptr, &e);
                    // The node's own place becomes the overlay's: that is where the change was
                    // written.
                    self.moved.insert(
                        over_child.clone(),
                        Move {
                            to: base_child.clone(),
                            subtree: false,
                        },
                    );
                    self.value(
                        b.get_mut(&e).expect("key exists"),
                        v,
                        &base_child,
                        &over_child,
                    )?;
                }
                None => {
                    let base_child = pointer_push(base_ptr, &name);
                    self.strip(&mut v, &base_child, &over_child)?;
                    self.moved.insert(
                        over_child.clone(),
                        Move {
                            to: base_child,
                            subtree: true,
                        },
                    );
                    if !marked {
                        self.unmatched.push(Unmatched {
                            parent: base_ptr.to_string(),
                            key: name.clone(),
                            removal: false,
                            place: self.places.get(&over_child).cloned(),
                        });
                    }
                    names.insert(crate::names::normalize(&name), name.clone());
                    b.insert(name, v);
                }
            }
        }
        if !removed.is_empty() {
            b.retain(|k, _| !removed.contains(k));
        }
        Ok(())
    }

    /// Inside a new subtree everything is new: markers there are dropped (their places follow).
    fn strip(&mut self, v: &mut Value, base_ptr: &str, over_ptr: &str) -> Result<()> {
        match v {
            Value::Object(_) if has_marker(v) => {
                let Value::Object(map) = std::mem::take(v) else {
                    unreachable!()
                };
                let mut out = serde_json::Map::with_capacity(map.len());
                let mut names = HashMap::new();
                for (k, mut child) in map {
                    let over_child = pointer_push(over_ptr, &k);
                    let name = k.strip_prefix(NEW_MARKER).unwrap_or(&k).to_string();
                    if let Some(first) = names.insert(crate::names::normalize(&name), k.clone()) {
                        let message = format!("`{k}` is the same entry as `{first}` above");
                        return Err(self.error_at(&over_child, message));
                    }
                    let base_child = pointer_push(base_ptr, &name);
                    self.strip(&mut child, &base_child, &over_child)?;
                    if name != k {
                        self.moved.insert(
                            over_child,
                            Move {
                                to: base_child,
                                subtree: true,
                            },
                        );
                    }
                    out.insert(name, child);
                }
                *v = Value::Object(out);
            }
            Value::Array(items) if items.iter().any(has_marker) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let i = i.to_string();
                    self.strip(
                        item,
                        &pointer_push(base_ptr, &i),
                        &pointer_push(over_ptr, &i),
                    )?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// serde_json's messages speak of JSON and Rust; ours speak of the file. `field` is the key
/// the value sits under, which names what a choice is ("unknown result `lose`").
fn friendly_serde_message(m: &str, field: Option<&str>) -> String {
    // Drop serde_json's own " at line L column C" suffix: our positions come from the Doc.
    let m = match m.find(" at line ") {
        Some(i) => &m[..i],
        None => m,
    };
    if let Some(rest) = m.strip_prefix("unknown variant `") {
        // "unknown variant `lose`, expected one of `win`, `loss`, `draw`" (or "expected `a` or
        // `b`", or "there are no variants").
        if let Some((name, expected)) = rest.split_once('`') {
            let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
            let what = field.map_or("value".to_string(), |f| f.replace('_', " "));
            let hint = crate::names::suggestion(name, known.iter().copied());
            let choices = super::grammar::join_or(known.iter().map(|k| k.to_string()).collect());
            return match choices.is_empty() {
                true => format!("unknown {what} `{name}`"),
                false => format!("unknown {what} `{name}`, expected {choices}{hint}"),
            };
        }
    }
    if let Some(rest) = m.strip_prefix("unknown field `") {
        // "unknown field `sheilds`, expected one of `shields`, ..." → with a suggestion first.
        if let Some((name, expected)) = rest.split_once('`') {
            let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
            let hint = crate::names::suggestion(name, known.iter().copied());
            return match known.is_empty() {
                true => format!("unknown field `{name}`: nothing more is read here"),
                false => format!(
                    "unknown field `{name}`{hint}; the fields here are {}",
                    known.join(", ")
                ),
            };
        }
    }
    if let Some(name) = m.strip_prefix("data did not match any variant of untagged enum ") {
        // serde names the Rust type; say what the file may hold there.
        let forms = match name.trim() {
            "Raw" => "a number or text",
            "Team" => "a team number or name",
            "Teams" => "a number of teams or a list of names",
            "Placing" => "a player's name or a list of tied names (a name that looks like a number needs quotes: \"42\")",
            "StartRating" => "a rating, or {rating, deviation, volatility}",
            _ => "a value of another form",
        };
        let what = field.map_or("this value".to_string(), |f| format!("`{f}`"));
        return format!("wrong type: {what} takes {forms}");
    }
    // A YAML number or boolean where a name belongs: the fix is quoting it.
    let quote = if m.starts_with("invalid type: ")
        && m.ends_with("expected a string")
        && ["integer", "floating point", "boolean"]
            .iter()
            .any(|k| m.contains(k))
    {
        " (a name that looks like a number needs quotes: \"42\")"
    } else {
        ""
    };
    let mut m = m
        .replace("invalid type: ", "wrong type: found ")
        .replace("invalid value: ", "wrong value: found ");
    for (rust, person) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u32", "expected a whole number, 0 or more"),
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected usize", "expected a whole number, 0 or more"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a sequence", "expected a list"),
        ("expected a map", "expected a mapping (key: value)"),
    ] {
        if m.ends_with(rust) {
            m = format!("{}{person}", &m[..m.len() - rust.len()]);
        }
    }
    m + quote
}

impl Doc {
    /// An error inside the formula at `pointer`, pointing at the character it concerns.
    pub(crate) fn formula_error(&self, pointer: &str, e: &super::formula::FormulaError) -> Error {
        match self.places.get(pointer) {
            Some(place) => {
                let span = &place.value;
                let opening = span
                    .source
                    .text
                    .lines()
                    .nth(span.line - 1)
                    .and_then(|l| l.chars().nth(span.col - 1));
                let quote = usize::from(matches!(opening, Some('"') | Some('\'')));
                span.shifted(e.offset + quote).at(e.message.clone())
            }
            None => self.error_at(pointer, e.to_string()),
        }
    }
}

/// Whole floating-point numbers as integers (27.0 → 27), for output meant for people.
pub(crate) fn tidy_numbers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64() {
                if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    *value = Value::Number((f as i64).into());
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy_numbers),
        Value::Object(map) => map.values_mut().for_each(tidy_numbers),
        _ => {}
    }
}

/// Placing errors in a document (here, so the error type knows nothing of documents).
impl Error {
    /// Resolve a pointer to its file, line and column in `doc` (the nearest known ancestor);
    /// without a document, or a place for it, the pointer is shown as a path.
    pub(crate) fn locate(self, doc: Option<&Doc>) -> Error {
        let Some(pointer) = self.pointer() else {
            return self;
        };
        match doc {
            Some(d) => match d.place(pointer) {
                Some(place) => {
                    let span = place.value.clone();
                    self.with_place(ErrorPlace::Span(span))
                }
                None => self.with_place(ErrorPlace::Nowhere),
            },
            None => self,
        }
    }

    /// Place an error that has no line and column at `pointer` in `doc` (one that has keeps
    /// its place). A pointer it had is kept in the message as a path.
    pub(crate) fn placed_at(self, doc: &Doc, pointer: &str) -> Error {
        if self.is_located() {
            return self;
        }
        self.path_into_message()
            .with_place(ErrorPlace::Pointer(pointer.to_string()))
            .locate(Some(doc))
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::lang::parse;

    #[test]
    fn serdes_words_become_the_files() {
        let say = super::friendly_serde_message;
        assert_eq!(
            say(
                "unknown variant `lose`, expected one of `win`, `loss`, `draw`",
                Some("result")
            ),
            "unknown result `lose`, expected win, loss or draw (did you mean `loss`?)"
        );
        assert_eq!(
            say(
                "unknown variant `up`, expected `a` or `b` at line 3 column 4",
                Some("first_move")
            ),
            "unknown first move `up`, expected a or b"
        );
        assert_eq!(
            say("unknown field `x`, there are no fields", None),
            "unknown field `x`: nothing more is read here"
        );
        assert_eq!(
            say(
                "data did not match any variant of untagged enum Team",
                Some("home")
            ),
            "wrong type: `home` takes a team number or name"
        );
        assert_eq!(
            say("invalid type: string \"a\", expected u8", None),
            "wrong type: found string \"a\", expected a whole number from 0 to 255"
        );
    }

    fn line(doc: &super::Doc, pointer: &str) -> (String, usize) {
        let place = doc
            .places
            .get(pointer)
            .unwrap_or_else(|| panic!("no place for {pointer}"));
        (place.value.source.name.clone(), place.value.line)
    }

    #[test]
    fn an_overlay_merges_by_name_removes_with_null_and_moves_its_places() {
        let mut base = parse(
            "base.rules",
            "ships {\n  Alpha { shields = 1 }\n  \"Bêta\" { shields = 2\n    hull = 3 }\n}\n",
        )
        .unwrap();
        let over = parse(
            "over.rules",
            "ships {\n  alpha = null\n  beta { shields = 5 }\n  gamma {\n    crew { x = 1 }\n  \
             }\n}\n",
        )
        .unwrap();
        base.overlay(over).unwrap();
        assert_eq!(
            base.value,
            serde_json::json!({
                "ships": {"Bêta": {"shields": 5, "hull": 3}, "gamma": {"crew": {"x": 1}}}
            })
        );
        assert_eq!(line(&base, "/ships/Bêta"), ("over.rules".into(), 3));
        assert_eq!(line(&base, "/ships/Bêta/shields"), ("over.rules".into(), 3));
        assert_eq!(line(&base, "/ships/Bêta/hull"), ("base.rules".into(), 4));
        assert_eq!(line(&base, "/ships/gamma/crew/x"), ("over.rules".into(), 5));
        assert!(!base.places.contains_key("/ships/alpha"));
    }

    #[test]
    fn a_big_overlay_keeps_every_ship_and_its_place() {
        let mut base = parse("base.rules", "ships { a { shields = 1 } }\n").unwrap();
        let ships: String = (0..20_000)
            .map(|i| format!("  \"s{i}\" {{ shields = 1 }}\n"))
            .collect();
        base.overlay(
            parse(
                "over.rules",
                &format!("ships {{\n{ships}  A {{ shields = 2 }}\n}}\n"),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(base.value["ships"].as_object().unwrap().len(), 20_001);
        assert_eq!(base.value["ships"]["a"]["shields"], 2);
        assert_eq!(
            line(&base, "/ships/s19999/shields"),
            ("over.rules".into(), 20_001)
        );
    }
}
