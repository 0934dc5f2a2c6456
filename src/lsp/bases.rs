//! The rulesets a document extends, nearest first, each as its own file writes it (places and
//! all), for going to where an entry is defined and showing what a base gives. Each is read
//! through the read policy as `extends` reads it (a base outside it is never opened); a
//! built-in is shown as a read-only copy written to the cache folder when an editor is sent to
//! it.
use crate::error::Result;
use crate::rules::doc::Doc;
use crate::rules::load::{self, Found, MAX_EXTENDS_DEPTH};
use crate::{io::Format, rules::pin};
use std::path::{Path, PathBuf};

/// One ruleset of the chain.
pub(crate) struct Base {
    pub origin: Origin,
    pub text: String,
    pub doc: Doc,
}

/// Where a base comes from.
#[derive(Clone, PartialEq)]
pub(crate) enum Origin {
    /// A built-in: its name and its file under `rulesets/`.
    Builtin(&'static str, &'static str),
    File(PathBuf),
}

impl Origin {
    /// How a person calls it: `startrek (built-in)`, or the file's path.
    pub(crate) fn shown(&self) -> String {
        match self {
            Origin::Builtin(name, _) => format!("{name} (built-in)"),
            Origin::File(path) => path.display().to_string(),
        }
    }

    /// The file an editor opens for it (a built-in's read-only copy, written if need be).
    pub(crate) fn file(&self, text: &str) -> Result<PathBuf> {
        match self {
            Origin::Builtin(_, file) => {
                crate::io::cache::read_only_copy(&builtin_folder(), file, text)
            }
            Origin::File(path) => Ok(std::fs::canonicalize(path).unwrap_or(path.clone())),
        }
    }
}

/// Where built-ins are copied for an editor to open.
pub(crate) fn builtin_folder() -> PathBuf {
    crate::io::cache::cache_folder().join("builtin")
}

/// The base `reference` names from a file in `dir` (a document with no folder: the current
/// one), read and parsed; the read policy decides as it does for `extends` (the file's folder
/// and the current folder), so a base elsewhere is never opened.
pub(crate) fn open(reference: &str, dir: Option<&Path>) -> Result<Base> {
    let here = std::env::current_dir().ok();
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .or(here.as_deref());
    let (origin, text) = match load::find_reference(reference, dir)? {
        Found::Builtin(name, file, text) => (Origin::Builtin(name, file), text.to_string()),
        Found::File(path, text) => (Origin::File(path), text),
    };
    let shown = match &origin {
        Origin::Builtin(_, file) => file.to_string(),
        Origin::File(path) => path.display().to_string(),
    };
    let doc = load::parse_text(&shown, &text, Format::of(&shown))?;
    Ok(Base { origin, text, doc })
}

/// The chain `doc` extends (a record: the ruleset its `rules:` names), nearest first: as far as it can be read (a base that is missing,
/// refused or broken ends it), at most `MAX_EXTENDS_DEPTH` long, never round in a circle.
pub(crate) fn chain(doc: &Doc, dir: Option<&Path>) -> Vec<Base> {
    let mut bases: Vec<Base> = Vec::new();
    // A record names its ruleset with `rules:` instead.
    let rules = doc
        .value
        .get("rules")
        .and_then(|r| r.as_str())
        .map(String::from);
    let mut next = pin::read_extends(doc)
        .ok()
        .flatten()
        .map(|p| p.name)
        .or(rules);
    let mut dir = dir.map(Path::to_path_buf);
    while let Some(reference) = next.take() {
        if bases.len() + 1 >= MAX_EXTENDS_DEPTH {
            break;
        }
        let Ok(base) = open(&reference, dir.as_deref()) else {
            break;
        };
        if bases.iter().any(|b| b.origin == base.origin) {
            break;
        }
        next = pin::read_extends(&base.doc).ok().flatten().map(|p| p.name);
        dir = match &base.origin {
            Origin::File(path) => path.parent().map(Path::to_path_buf),
            Origin::Builtin(..) => None,
        };
        bases.push(base);
    }
    bases
}

/// The pointer of `pointer`'s entry as `doc` spells it: each key matched as names are
/// (ignoring case and accents, a `new` marker aside), so `/ships/ufp heavy cruiser` finds
/// `/ships/UFP heavy cruiser`.
pub(crate) fn find(doc: &Doc, pointer: &str) -> Option<String> {
    let mut at = &doc.value;
    let mut found = String::new();
    for segment in crate::pointer::pointer_segments(pointer) {
        let wanted = crate::names::normalize(unmarked(&segment));
        let (key, value) = match at {
            serde_json::Value::Object(map) => map
                .iter()
                .find(|(k, _)| crate::names::normalize(unmarked(k)) == wanted)?,
            serde_json::Value::Array(items) => {
                let i: usize = segment.parse().ok()?;
                (&segment, items.get(i)?)
            }
            _ => return None,
        };
        found = crate::pointer::pointer_push(&found, key);
        at = value;
    }
    Some(found)
}

/// A key without the `+` that marks it new.
pub(crate) fn unmarked(key: &str) -> &str {
    key.strip_prefix('+').unwrap_or(key)
}
