//! Editing a ruleset as a value tree: a value put at a path, the changes since loading (an
//! overlay), the file text (the whole ruleset, or a house rule that `extends` its base) and a
//! checked save. The scripting layer's ruleset handle and the `rules` commands share these.
use super::doc::tidy_numbers;
use super::{lang, load, model::Ruleset, yaml};
use crate::error::{Error, Result};
use crate::io::FileKind;
use serde_json::Value;
use std::path::Path;

/// The syntax a ruleset is written out in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Rules,
    Yaml,
    Json,
}

impl Syntax {
    /// The syntax a ruleset file's name asks for (`.rules`, `.yaml`/`.yml`, `.json`).
    pub(crate) fn of_path(path: &str) -> Result<Syntax> {
        match FileKind::of(path) {
            Some(FileKind::Rules) => Ok(Syntax::Rules),
            Some(FileKind::Yaml) => Ok(Syntax::Yaml),
            Some(FileKind::Json) => Ok(Syntax::Json),
            _ => {
                let kinds = [FileKind::Rules, FileKind::Yaml, FileKind::Json];
                Err(Error::msg(format!(
                    "{path}: a ruleset file ends in {}",
                    FileKind::extensions(&kinds)
                )))
            }
        }
    }
}

/// A ruleset as a value tree (its canonical serialisation).
pub(crate) fn tree(ruleset: &Ruleset) -> Value {
    serde_json::to_value(ruleset).expect("a ruleset serialises")
}

/// A value tree as text, as written (numbers as they are in the tree).
pub fn render(value: &Value, syntax: Syntax) -> String {
    match syntax {
        Syntax::Rules => lang::write(value),
        Syntax::Yaml => yaml::write(value),
        Syntax::Json => crate::output::json_string(value),
    }
}

/// A ruleset's tree (or a house rule's) as file text, whole numbers written whole.
pub(crate) fn text(mut value: Value, syntax: Syntax) -> String {
    tidy_numbers(&mut value);
    render(&value, syntax)
}

/// A loaded ruleset as file text, with its `extends` applied.
pub(crate) fn show(ruleset: &Ruleset, syntax: Syntax) -> String {
    text(tree(ruleset), syntax)
}

/// A house rule: `extends` its base, then the changes (an overlay, see `diff`).
pub(crate) fn house_rule(extends: String, changes: Value) -> Value {
    let mut v = serde_json::Map::new();
    v.insert("extends".to_string(), Value::String(extends));
    if let Value::Object(changes) = changes {
        v.extend(changes);
    }
    Value::Object(v)
}

/// Write ruleset text to `path`, whole or not at all, after checking that it loads back to a
/// valid ruleset (with what it extends, found beside `path`).
pub(crate) fn save(path: &str, text: &str) -> Result<()> {
    let doc = load::parse_text(path, text, crate::io::Format::of(path))?;
    let dir = Path::new(path).parent().map(|p| p.to_path_buf());
    let resolved = load::resolve_loaded(
        doc,
        path,
        dir.as_deref().filter(|d| !d.as_os_str().is_empty()),
    )?;
    load::ruleset_from_doc(&resolved)
        .map_err(|e| e.context("the saved ruleset would not load back"))?;
    crate::io::write_atomically(path, text)
}

/// "a.b.c" or a JSON pointer "/a/b" into segments.
pub(crate) fn parse_path(text: &str) -> Vec<String> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    if text.starts_with('/') {
        return crate::pointer::pointer_segments(text).collect();
    }
    text.split('.').map(|s| s.trim().to_string()).collect()
}

/// A path as people write it ("ships.Scout.shields").
pub(crate) fn show_path(path: &[String]) -> String {
    if path.is_empty() {
        "(the ruleset)".to_string()
    } else {
        path.join(".")
    }
}

/// Put `value` at `path` in `tree`, making the sections on the way; `null` removes the key.
/// A list's items are reached by index, and only existing ones.
pub(crate) fn put(
    tree: &mut Value,
    path: &[String],
    value: Value,
) -> std::result::Result<(), String> {
    let Some((last, parents)) = path.split_last() else {
        return Err(
            "give the path of a value (`ships.NAME.shields`), not the whole ruleset".to_string(),
        );
    };
    let mut node = tree;
    for seg in parents {
        node = match node {
            Value::Object(map) => map
                .entry(seg.clone())
                .or_insert_with(|| Value::Object(Default::default())),
            Value::Array(items) => {
                let n = items.len();
                seg.parse::<usize>()
                    .ok()
                    .and_then(|i| items.get_mut(i))
                    .ok_or(format!("`{seg}` is not an index of this list of {n}"))?
            }
            _ => return Err(format!("`{seg}` is inside a value that is not a section")),
        };
    }
    match node {
        Value::Object(map) if value.is_null() => {
            map.shift_remove(last);
        }
        Value::Object(map) => {
            map.insert(last.clone(), value);
        }
        Value::Array(items) => {
            let n = items.len();
            let slot = last
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or(format!("`{last}` is not an index of this list of {n}"))?;
            *slot = value;
        }
        _ => return Err(format!("`{last}` is inside a value that is not a section")),
    }
    Ok(())
}

/// The ruleset's own keys for a path typed by a person (ship aliases, case, accents).
/// Segments not found are kept as typed (a key a `set` would add).
pub(crate) fn resolve(ruleset: &Ruleset, tree: &Value, path: &[String]) -> Vec<String> {
    let mut node = Some(tree);
    let mut out = Vec::new();
    for seg in path {
        let key = match node {
            Some(Value::Object(map)) if !map.contains_key(seg) => {
                let alias = if out.len() == 1 && out[0] == "ships" {
                    ruleset.ship_key(seg).map(str::to_string)
                } else {
                    None
                };
                alias
                    .or_else(|| map.keys().find(|k| crate::names::same(k, seg)).cloned())
                    .unwrap_or_else(|| seg.clone())
            }
            _ => seg.clone(),
        };
        node = match node {
            Some(Value::Object(map)) => map.get(&key),
            Some(Value::Array(items)) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        out.push(key);
    }
    out
}

/// The value at a path of a tree, if there is one.
pub(crate) fn value_at<'a>(tree: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut node = tree;
    for seg in path {
        node = match node {
            Value::Object(map) => map.get(seg)?,
            Value::Array(items) => items.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// A copy of `ruleset` with `value` at `path` (already `resolve`d), deserialised and validated
/// again as a loaded file is: a value the model refuses is an error naming the path.
pub(crate) fn with_value(ruleset: &Ruleset, path: &[String], value: Value) -> Result<Ruleset> {
    let shown = show_path(path);
    let mut tree = tree(ruleset);
    put(&mut tree, path, value.clone())
        .map_err(|e| Error::msg(format!("cannot set `{shown}`: {e}")))?;
    let doc = super::doc::Doc::new(tree);
    let changed = doc.deserialize::<Ruleset>().and_then(|r| {
        if let (Some(new), Some(old)) = (&r.script, &ruleset.script) {
            new.adopt_hooks(old);
        }
        r.validate(&doc)?;
        Ok(r)
    });
    changed.map_err(|e| {
        let v = serde_json::to_string(&value).unwrap_or_default();
        e.context(&format!("cannot set `{shown}` to {v}"))
    })
}

/// The overlay that turns `old` into `new` (`null` marks a removed key), or `None` if they
/// are equal.
pub(crate) fn diff(old: &Value, new: &Value) -> Option<Value> {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            let mut out = serde_json::Map::new();
            for (k, v) in n {
                match o.get(k) {
                    Some(ov) => {
                        if let Some(d) = diff(ov, v) {
                            out.insert(k.clone(), d);
                        }
                    }
                    None => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            for k in o.keys().filter(|k| !n.contains_key(*k)) {
                out.insert(k.clone(), Value::Null);
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        _ if old == new => None,
        _ => Some(new.clone()),
    }
}

/// How a house-rule file at `target` refers to the ruleset it extends, loaded from `origin`
/// (a built-in name, or a path): the file's name when both sit in one folder, else its
/// absolute path.
pub(crate) fn extends_reference(origin: &str, target: &str) -> String {
    let origin_path = Path::new(origin);
    if !origin_path.is_file() {
        return origin.to_string(); // a built-in name
    }
    let Ok(origin_abs) = std::fs::canonicalize(origin_path) else {
        return origin.to_string();
    };
    let target_dir = Path::new(target)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match std::fs::canonicalize(target_dir) {
        Ok(dir) if origin_abs.parent() == Some(dir.as_path()) => origin_abs
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or(origin.to_string()),
        _ => origin_abs.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(text: &str) -> Vec<String> {
        parse_path(text)
    }

    #[test]
    fn put_makes_sections_replaces_list_items_and_removes_with_null() {
        let mut tree = json!({"combat": {"start_distance": 10}, "list": [1, 2]});
        put(&mut tree, &path("ships.Scout.shields"), json!(4)).unwrap();
        put(&mut tree, &path("/list/1"), json!(5)).unwrap();
        put(&mut tree, &path("combat.start_distance"), Value::Null).unwrap();
        assert_eq!(
            tree,
            json!({"combat": {}, "list": [1, 5], "ships": {"Scout": {"shields": 4}}})
        );
        assert_eq!(
            put(&mut tree, &path("list.2"), json!(1)).unwrap_err(),
            "`2` is not an index of this list of 2"
        );
        assert_eq!(
            put(&mut tree, &path("list.0.x"), json!(1)).unwrap_err(),
            "`x` is inside a value that is not a section"
        );
        assert!(put(&mut tree, &[], json!(1))
            .unwrap_err()
            .contains("not the whole ruleset"));
    }

    #[test]
    fn a_diff_is_the_overlay_of_what_changed() {
        let old = json!({"a": {"b": 1, "c": 2}, "d": [1], "e": 3});
        let new = json!({"a": {"b": 1, "c": 5}, "d": [1, 2], "f": 4});
        assert_eq!(
            diff(&old, &new),
            Some(json!({"a": {"c": 5}, "d": [1, 2], "f": 4, "e": null}))
        );
        assert_eq!(diff(&old, &old), None);
    }

    #[test]
    fn a_house_rule_extends_its_base_and_text_writes_whole_numbers_whole() {
        let v = house_rule(
            "startrek".into(),
            json!({"combat": {"start_distance": 6.0}}),
        );
        let written: Value = serde_json::from_str(&text(v, Syntax::Json)).unwrap();
        assert_eq!(
            written,
            json!({"extends": "startrek", "combat": {"start_distance": 6}})
        );
        assert_eq!(extends_reference("startrek", "house.rules"), "startrek");
        assert_eq!(Syntax::of_path("h.YML").unwrap(), Syntax::Yaml);
        let e = Syntax::of_path("h.txt").unwrap_err().to_string();
        assert!(e.starts_with("h.txt: a ruleset file ends in"), "{e}");
    }

    #[test]
    fn paths_are_dotted_or_json_pointers() {
        assert_eq!(
            path(" ships.Scout . shields "),
            ["ships", "Scout", "shields"]
        );
        assert_eq!(path("/ships/a~1b"), ["ships", "a/b"]);
        assert!(path("").is_empty());
        assert_eq!(show_path(&[]), "(the ruleset)");
    }
}
