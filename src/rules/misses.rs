//! Overlays cannot miss silently: a name an overlay writes that matches nothing in its base is
//! an error with "did you mean", unless it is declared new (`new NAME`, YAML `+NAME`).
//!
//! Which maps hold names (ships, ranks, locations...) and which are sections of fixed fields is
//! the model's to say, and it says so through serde: a section refuses a key it does not know
//! (`deny_unknown_fields`), a map of names takes any. So each kind of map is asked once, by
//! adding a probe entry to a copy and deserialising it; no list of name maps to keep in step.
use super::model::Ruleset;
use crate::error::Result;
use crate::io::Format;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use {
    super::doc::{Doc, Unmatched},
    crate::pointer::{pointer_push, pointer_segments},
};

/// A key no ruleset uses (a control character), for probing a map's kind.
const PROBE: &str = "\u{1}probe";

/// Refuse the first unmatched name of an overlay merged into `merged` from base `base_name`.
pub(crate) fn check(merged: &Doc, unmatched: &[Unmatched], base_name: &str) -> Result<()> {
    if unmatched.is_empty() {
        return Ok(());
    }
    // Whether the entries as written make a valid ruleset once declared new: only then is
    // "declare it" advice that works. A misspelt name with a partial body (`brige: {excess:
    // explosion}`) does not deserialise; the name is still asked about first, against the
    // ruleset without the unmatched entries, before any "missing field".
    let whole = serde_json::from_value::<Ruleset>(merged.value.clone()).ok();
    // Asked only on the way to an error: validating may run the ruleset's hooks.
    let declarable = || whole.as_ref().is_some_and(|r| r.validate(merged).is_ok());
    // Complete entries that still fail once declared (a crew skill the game does not have):
    // declaring them is no way out, so it is not advised.
    let partial = whole.is_none();
    let root = if !partial {
        merged.value.clone()
    } else {
        let mut without = merged.value.clone();
        for u in unmatched.iter().filter(|u| !u.removal) {
            if let Some(Value::Object(m)) = without.pointer_mut(&u.parent) {
                m.shift_remove(&u.key);
            }
        }
        if serde_json::from_value::<Ruleset>(without.clone()).is_err() {
            // Wrong for another reason: its own (located) error comes later.
            return Ok(());
        }
        without
    };
    let mut kinds = Kinds::default();
    // The names each map's unmatched entries add, and the names it had before them: once a
    // map, not once a miss (an overlay of 20,000 new names is 20,000 misses of one map).
    let mut added: HashMap<&str, HashSet<&str>> = HashMap::new();
    for u in unmatched.iter().filter(|u| !u.removal) {
        added
            .entry(u.parent.as_str())
            .or_default()
            .insert(u.key.as_str());
    }
    let mut known_in: HashMap<&str, Vec<&str>> = HashMap::new();
    for miss in unmatched {
        if !kinds.holds_names(&root, &miss.parent) {
            continue; // a field the base left out: the model checks its name
        }
        let known = known_in.entry(miss.parent.as_str()).or_insert_with(|| {
            let added = added.get(miss.parent.as_str());
            node(&root, &miss.parent)
                .and_then(Value::as_object)
                .map(|m| m.keys().map(|k| k.as_str()))
                .into_iter()
                .flatten()
                .filter(|k| !added.is_some_and(|a| a.contains(k)))
                .collect()
        });
        let section = shown_path(&miss.parent);
        let hint = crate::names::suggestion(&miss.key, known.iter().copied());
        if partial && hint.is_empty() && !miss.removal {
            // No near name and a body that is wrong on its own: the body's own error (an
            // unknown or missing field) says more than "matches nothing".
            continue;
        }
        let rules_form = miss
            .place
            .as_ref()
            .is_none_or(|p| Format::of(&p.value.source.name) == Format::Rules);
        let message = if miss.removal {
            format!(
                "`{}` removes nothing: the base `{base_name}` has no such entry in `{section}`{hint}",
                miss.key
            )
        } else if !declarable() {
            format!(
                "`{}` matches nothing in `{section}` of the base `{base_name}`{hint}",
                miss.key
            )
        } else {
            let declare = if rules_form {
                format!("new {}", super::lang::key_text(&miss.key))
            } else {
                format!("+{}", miss.key)
            };
            format!(
                "`{}` matches nothing in `{section}` of the base `{base_name}`{hint}; if it is a \
                 new entry, declare it: `{declare}`",
                miss.key
            )
        };
        return Err(match &miss.place {
            Some(p) => p.key.clone().unwrap_or_else(|| p.value.clone()).at(message),
            None => merged.error_at_key(&pointer_push(&miss.parent, &miss.key), message),
        });
    }
    Ok(())
}

/// A pointer as people read it: `/ships` → `ships`, `/combat/locations` → `combat.locations`.
fn shown_path(pointer: &str) -> String {
    let segments: Vec<String> = pointer_segments(pointer).collect();
    if segments.is_empty() {
        "the ruleset".into()
    } else {
        segments.join(".")
    }
}

fn node<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    pointer_segments(pointer).try_fold(root, |v, seg| match v {
        Value::Object(m) => m.get(&seg),
        Value::Array(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// The kind of each map, by its place in the model: the pointer with every name replaced by
/// `*` (all ships' crews are one kind of map).
#[derive(Default)]
struct Kinds {
    names_maps: HashMap<String, bool>,
}

impl Kinds {
    fn holds_names(&mut self, root: &Value, pointer: &str) -> bool {
        self.kind_of(root, pointer).1
    }

    /// (model path, holds names) of the map at `pointer`.
    fn kind_of(&mut self, root: &Value, pointer: &str) -> (String, bool) {
        if pointer.is_empty() {
            return (String::new(), false); // the ruleset itself: a section
        }
        let (parent, last) = pointer.rsplit_once('/').expect("a pointer below the root");
        let (parent_kind, parent_holds_names) = self.kind_of(root, parent);
        let kind = if parent_holds_names || last.parse::<usize>().is_ok() {
            format!("{parent_kind}/*")
        } else {
            format!("{parent_kind}/{last}")
        };
        if let Some(known) = self.names_maps.get(&kind) {
            return (kind, *known);
        }
        let holds = probe(root, pointer);
        self.names_maps.insert(kind.clone(), holds);
        (kind, holds)
    }
}

/// Whether the map at `pointer` takes a key it has never seen (a copy of one of its entries).
fn probe(root: &Value, pointer: &str) -> bool {
    let mut copy = root.clone();
    let Some(Value::Object(map)) = copy.pointer_mut(pointer) else {
        return false;
    };
    let Some(sample) = map.values().next().cloned() else {
        return false;
    };
    map.insert(PROBE.to_string(), sample);
    serde_json::from_value::<Ruleset>(copy).is_ok()
}
