//! A ruleset a script holds and edits: shared, so a ship handle writes back into it.
//!
//! Every edit goes through the same path as loading a file: the changed value tree is
//! deserialised and validated again, and a change the model refuses leaves the ruleset as it
//! was. Engine calls take a `snapshot()` (or `with`) of the current, always valid, ruleset.
use crate::error::{Error, Result};
use crate::rules::doc::{Doc, Place};
use crate::rules::edit::{self, diff, put, Syntax};
use crate::rules::load;
use crate::rules::model::Ruleset;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::rules::edit::show_path;

struct State {
    ruleset: Ruleset,
    /// The ruleset as a value tree (its canonical serialisation).
    tree: Value,
    /// The tree as loaded, to tell what a script changed.
    loaded: Value,
    /// The tree as last saved (at first, as loaded), to tell what would be lost.
    saved: Value,
    /// What it was loaded from: a built-in name or a path.
    origin: String,
    /// File positions under `/script`, so hook files keep resolving next to their ruleset.
    script_places: HashMap<String, Place>,
}

/// A shared, editable ruleset. Cloning the handle shares it; `copy()` makes an independent one.
#[derive(Clone)]
pub(crate) struct RulesHandle(Arc<RwLock<State>>);

/// A place inside a ruleset (a ship, a section) that reads and writes through its handle.
#[derive(Clone)]
pub(crate) struct Node {
    pub rules: RulesHandle,
    pub path: Vec<String>,
}

impl RulesHandle {
    /// Load a built-in name or a ruleset file.
    pub(crate) fn load(reference: &str) -> Result<RulesHandle> {
        let doc = load::resolve_doc(reference)?;
        let ruleset = load::ruleset_from_doc(&doc)?;
        Ok(RulesHandle::build(ruleset, reference, script_places(&doc)))
    }

    /// Load a ruleset a file in `dir` names (a record's `rules:`): relative paths start there,
    /// as on the command line (`load::beside`).
    pub(crate) fn load_beside(
        reference: &str,
        dir: Option<&std::path::Path>,
    ) -> Result<RulesHandle> {
        let doc = load::resolve_doc_beside(reference, load::beside(reference, dir))?;
        let ruleset = load::ruleset_from_doc(&doc)?;
        Ok(RulesHandle::build(ruleset, reference, script_places(&doc)))
    }

    /// Wrap an already loaded ruleset.
    pub(crate) fn from_ruleset(ruleset: Ruleset, origin: &str) -> RulesHandle {
        RulesHandle::build(ruleset, origin, HashMap::new())
    }

    fn build(ruleset: Ruleset, origin: &str, script_places: HashMap<String, Place>) -> RulesHandle {
        let tree = edit::tree(&ruleset);
        RulesHandle(Arc::new(RwLock::new(State {
            ruleset,
            loaded: tree.clone(),
            saved: tree.clone(),
            tree,
            origin: origin.to_string(),
            script_places,
        })))
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.0.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.0.write().unwrap_or_else(|p| p.into_inner())
    }

    /// A copy of the current ruleset, for an engine call.
    pub(crate) fn snapshot(&self) -> Ruleset {
        self.read().ruleset.clone()
    }

    /// Read the current ruleset without copying it.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&Ruleset) -> T) -> T {
        f(&self.read().ruleset)
    }

    pub(crate) fn name(&self) -> String {
        self.read().ruleset.name.clone()
    }

    pub(crate) fn origin(&self) -> String {
        self.read().origin.clone()
    }

    /// The whole ruleset as a value tree.
    pub(crate) fn tree(&self) -> Value {
        self.read().tree.clone()
    }

    /// An independent copy (edits to one do not show in the other).
    pub(crate) fn copy(&self) -> RulesHandle {
        let s = self.read();
        RulesHandle(Arc::new(RwLock::new(State {
            ruleset: s.ruleset.clone(),
            tree: s.tree.clone(),
            loaded: s.loaded.clone(),
            saved: s.saved.clone(),
            origin: s.origin.clone(),
            script_places: s.script_places.clone(),
        })))
    }

    /// Whether two handles share one ruleset.
    pub(crate) fn same_as(&self, other: &RulesHandle) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Ship names, in the ruleset's order and spelling.
    pub(crate) fn ship_names(&self) -> Vec<String> {
        self.read().ruleset.ships.keys().cloned().collect()
    }

    /// A handle on one ship, by name or alias (case and accents ignored).
    pub(crate) fn ship(&self, name: &str) -> Result<Node> {
        let key = self.read().ruleset.ship(name)?.0.to_string();
        Ok(Node {
            rules: self.clone(),
            path: vec!["ships".to_string(), key],
        })
    }

    /// The ruleset's own keys for a path typed by a person (ship aliases, case, accents).
    /// Segments not found are kept as typed (a key a `set` will add).
    pub(crate) fn resolve(&self, path: &[String]) -> Vec<String> {
        let s = self.read();
        edit::resolve(&s.ruleset, &s.tree, path)
    }

    /// The value at a path (after `resolve`); `None` if nothing is there.
    pub(crate) fn value_at(&self, path: &[String]) -> Option<Value> {
        let s = self.read();
        let mut node = &s.tree;
        for seg in path {
            node = match node {
                Value::Object(map) => map.get(seg)?,
                Value::Array(items) => items.get(seg.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node.clone())
    }

    /// Set the value at a path (after `resolve`); `null` removes the key. The ruleset is checked
    /// again; if it refuses the change, nothing changes.
    pub(crate) fn set(&self, path: &[String], value: Value) -> Result<()> {
        let shown = show_path(path);
        let mut tree = self.tree();
        put(&mut tree, path, value.clone())
            .map_err(|e| Error::msg(format!("cannot set `{shown}`: {e}")))?;
        let doc = Doc {
            value: tree,
            places: self.read().script_places.clone(),
        };
        self.replace(&doc).map_err(|e| {
            let v = serde_json::to_string(&value).unwrap_or_default();
            e.context(&format!("cannot set `{shown}` to {v}"))
        })
    }

    /// Apply an overlay (as an `extends` file would): maps merge key by key, `null` removes.
    /// An `extends` key in the overlay is ignored: the overlay applies to this ruleset.
    pub(crate) fn extend(&self, mut overlay: Doc) -> Result<()> {
        if let Some(map) = overlay.value.as_object_mut() {
            map.shift_remove("extends");
        } else {
            return Err(Error::msg(
                "an overlay must be a map of sections (`ships: ...`, `scoring: ...`)",
            ));
        }
        let mut doc = Doc {
            value: self.tree(),
            places: self.read().script_places.clone(),
        };
        let unmatched = doc.overlay(overlay)?;
        crate::rules::misses::check(&doc, &unmatched, &self.read().ruleset.name)?;
        self.replace(&doc)
    }

    /// Check a new tree and adopt it.
    fn replace(&self, doc: &Doc) -> Result<()> {
        let ruleset: Ruleset = doc.deserialize()?;
        if let (Some(new), Some(old)) = (&ruleset.script, &self.read().ruleset.script) {
            new.adopt_hooks(old);
        }
        ruleset.validate(doc)?;
        let mut s = self.write();
        s.tree = edit::tree(&ruleset);
        s.ruleset = ruleset;
        for (k, v) in script_places(doc) {
            s.script_places.insert(k, v);
        }
        Ok(())
    }

    /// What a script changed since loading, as an overlay (`null` marks a removed key).
    pub(crate) fn changes(&self) -> Value {
        let s = self.read();
        diff(&s.loaded, &s.tree).unwrap_or_else(|| Value::Object(Default::default()))
    }

    /// How many values changed since the ruleset was loaded or last saved (0: nothing to lose).
    pub(crate) fn unsaved_changes(&self) -> usize {
        let s = self.read();
        diff(&s.saved, &s.tree).map_or(0, |d| leaves(&d))
    }

    /// The ruleset as file text in the format `path`'s extension names.
    pub(crate) fn render_for(&self, path: &str, house_rule: bool) -> Result<String> {
        let syntax = Syntax::of_path(path)?;
        let value = if house_rule {
            edit::house_rule(
                edit::extends_reference(&self.origin(), path),
                self.changes(),
            )
        } else {
            self.tree()
        };
        Ok(edit::text(value, syntax))
    }

    /// Write the ruleset (or, with `house_rule`, `extends` plus the changes) to `path`, whole
    /// or not at all, after checking that the text loads back to a valid ruleset.
    pub(crate) fn save(&self, path: &str, house_rule: bool) -> Result<()> {
        let tree = self.tree();
        edit::save(path, &self.render_for(path, house_rule)?)?;
        self.write().saved = tree;
        Ok(())
    }
}

impl Node {
    /// The value here, or an error if it is gone (a ship removed since).
    pub(crate) fn value(&self) -> Result<Value> {
        self.rules.value_at(&self.path).ok_or_else(|| {
            Error::msg(format!(
                "`{}` is no longer in the ruleset",
                show_path(&self.path)
            ))
        })
    }

    /// A child path, with the key resolved the way people type names.
    pub(crate) fn child(&self, key: &str) -> Vec<String> {
        let mut p = self.path.clone();
        p.push(key.to_string());
        self.rules.resolve(&p)
    }

    pub(crate) fn shown(&self) -> String {
        show_path(&self.path)
    }
}

/// The values a diff holds (a removed key counts one).
fn leaves(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.values().map(leaves).sum(),
        _ => 1,
    }
}

fn script_places(doc: &Doc) -> HashMap<String, Place> {
    doc.places
        .iter()
        .filter(|(k, _)| k.starts_with("/script"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::edit::parse_path;
    use serde_json::json;

    fn startrek() -> RulesHandle {
        RulesHandle::load("startrek").unwrap()
    }

    #[test]
    fn a_ship_edit_writes_back_and_is_validated() {
        let r = startrek();
        let ship = r.ship("crucero pesado de la ufp").unwrap();
        assert_eq!(ship.path, vec!["ships", "UFP heavy cruiser"]);
        r.set(&ship.child("shields"), json!(9)).unwrap();
        assert_eq!(r.with(|rs| rs.ships["UFP heavy cruiser"].shields), Some(9));
        let e = r
            .set(&ship.child("shields"), json!("lots"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cannot set `ships.UFP heavy cruiser.shields`"),
            "{e}"
        );
        assert_eq!(
            r.with(|rs| rs.ships["UFP heavy cruiser"].shields),
            Some(9),
            "a refused edit changes nothing"
        );
    }

    #[test]
    fn a_bad_formula_is_refused_with_its_reason() {
        let r = startrek();
        let e = r
            .set(
                &r.resolve(&parse_path("ships.UFP heavy cruiser.generator")),
                json!("2 * warp"),
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("warp"), "{e}");
    }

    #[test]
    fn copies_are_independent_and_clones_shared() {
        let r = startrek();
        let shared = r.clone();
        let copy = r.copy();
        r.set(&r.resolve(&parse_path("combat.start_distance")), json!(7))
            .unwrap();
        assert_eq!(
            shared.value_at(&parse_path("combat.start_distance")),
            Some(json!(7))
        );
        assert_eq!(
            copy.value_at(&parse_path("combat.start_distance")),
            Some(json!(10))
        );
    }

    #[test]
    fn changes_are_an_overlay_of_what_differs() {
        let r = startrek();
        r.set(&parse_path("combat.start_distance"), json!(6))
            .unwrap();
        r.set(
            &r.resolve(&parse_path("ships.ufp heavy cruiser.max_speed")),
            Value::Null,
        )
        .unwrap();
        assert_eq!(
            r.changes(),
            json!({"ships": {"UFP heavy cruiser": {"max_speed": null}}, "combat": {"start_distance": 6}})
        );
        assert_eq!(r.unsaved_changes(), 2);
    }

    #[test]
    fn saving_leaves_nothing_unsaved_until_the_next_edit() {
        let dir = tempfile::tempdir().unwrap();
        let r = startrek();
        assert_eq!(r.unsaved_changes(), 0);
        r.set(&parse_path("combat.start_distance"), json!(6))
            .unwrap();
        assert_eq!(r.unsaved_changes(), 1);
        let path = dir.path().join("house.rules");
        r.save(path.to_str().unwrap(), true).unwrap();
        assert_eq!(r.unsaved_changes(), 0);
        r.set(&parse_path("combat.start_distance"), json!(7))
            .unwrap();
        assert_eq!(r.unsaved_changes(), 1);
        r.set(&parse_path("combat.start_distance"), json!(6))
            .unwrap();
        assert_eq!(r.unsaved_changes(), 0, "back to what was saved");
    }

    #[test]
    fn an_overlay_merges_and_is_checked() {
        let r = startrek();
        r.extend(Doc::new(
            json!({"extends": "cep", "ships": {"+Scout": {"shields": 4}}}),
        ))
        .unwrap();
        // The overlay's ship joins the ruleset's own, after them (its `extends` is ignored).
        let names = r.ship_names();
        assert_eq!(names.first().map(String::as_str), Some("UFP heavy cruiser"));
        assert_eq!(names.last().map(String::as_str), Some("Scout"));
        assert_eq!(names.len(), startrek().ship_names().len() + 1);
        assert!(r
            .extend(Doc::new(json!({"ships": {"Scout": {"sheilds": 4}}})))
            .is_err());
        assert_eq!(r.with(|rs| rs.ships["Scout"].shields), Some(4));
        // A name that matches no ship, undeclared, is a typo, not a new ship.
        let typo = r
            .extend(Doc::new(json!({"ships": {"Scuot": {"shields": 5}}})))
            .unwrap_err()
            .to_string();
        assert!(typo.contains("did you mean `Scout`?"), "{typo}");
        assert_eq!(r.ship_names().len(), startrek().ship_names().len() + 1);
    }
}
