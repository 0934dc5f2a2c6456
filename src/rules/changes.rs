//! What differs between two resolved rulesets, value by value: `rules diff`.
use super::doc::tidy_numbers;
use super::model::Ruleset;
use crate::pointer::pointer_push;
use serde::Serialize;
use serde_json::Value;

/// One value that differs: `old` is absent (`None`) for an added value, `new` for a removed one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Change {
    /// A JSON pointer into the ruleset (`/ships/UFP heavy cruiser/shields`).
    pub path: String,
    pub change: Kind,
    pub old: Option<Value>,
    pub new: Option<Value>,
    /// What the value means (the model's doc comment), with `--explain`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    Added,
    Removed,
    Changed,
    /// The same entries in another order (`old` and `new` are their names in order). Order is
    /// part of a ruleset: it is the order ships, ranks and tie-breaks are listed and tried in,
    /// and the sha256 (`rules hash`) is taken over it; so `diff` shows it, and two rulesets
    /// have no changes exactly when their hashes agree.
    Reordered,
}

/// Every value that differs from `old` to `new`, in the order of the rulesets (the old one's,
/// then what only the new one has). Sections and entries are gone into down to their values;
/// a list is one value; a removed entry or section is one change (its whole old value); a
/// section whose shared entries come in another order is one `Reordered` change. It walks the
/// same tree `crate::rules::identity::canonical` hashes, so it is empty exactly when the hashes are equal.
pub(crate) fn between(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
    let tree = |r: &Ruleset| {
        let mut t = serde_json::to_value(r).expect("a ruleset serialises");
        tidy_numbers(&mut t);
        t
    };
    let mut out = Vec::new();
    walk(Some(&tree(old)), Some(&tree(new)), "", &mut out);
    out
}

fn walk(old: Option<&Value>, new: Option<&Value>, path: &str, out: &mut Vec<Change>) {
    match (old, new) {
        (Some(Value::Object(o)), Some(Value::Object(n))) => {
            for (k, ov) in o {
                walk(Some(ov), n.get(k), &pointer_push(path, k), out);
            }
            for (k, nv) in n.iter().filter(|(k, _)| !o.contains_key(*k)) {
                walk(None, Some(nv), &pointer_push(path, k), out);
            }
            let shared = |a: &serde_json::Map<String, Value>,
                          b: &serde_json::Map<String, Value>| {
                a.keys()
                    .filter(|k| b.contains_key(*k))
                    .map(|k| Value::String(k.clone()))
                    .collect::<Vec<_>>()
            };
            let (old_order, new_order) = (shared(o, n), shared(n, o));
            if old_order != new_order {
                out.push(Change {
                    path: path.to_string(),
                    change: Kind::Reordered,
                    old: Some(Value::Array(old_order)),
                    new: Some(Value::Array(new_order)),
                    meaning: None,
                });
            }
        }
        (None, Some(Value::Object(n))) => {
            for (k, nv) in n {
                walk(None, Some(nv), &pointer_push(path, k), out);
            }
        }
        (Some(o), Some(n)) if o == n => {}
        (o, n) => out.push(Change {
            path: path.to_string(),
            change: match (o, n) {
                (None, _) => Kind::Added,
                (_, None) => Kind::Removed,
                _ => Kind::Changed,
            },
            old: o.cloned(),
            new: n.cloned(),
            meaning: None,
        }),
    }
}

/// One change as `rules diff` prints it: `~ /path: old -> new`, `+ /path: new`, `- /path`
/// (a removed entry or section is named, not spelt out), `~ /path: order [..] -> [..]`.
pub(crate) fn line(c: &Change) -> String {
    let shown = |v: &Option<Value>| {
        v.as_ref()
            .map(|v| serde_json::to_string(v).unwrap_or_default())
            .unwrap_or_default()
    };
    match c.change {
        Kind::Added => format!("+ {}: {}", c.path, shown(&c.new)),
        Kind::Removed if c.old.as_ref().is_some_and(Value::is_object) => format!("- {}", c.path),
        Kind::Removed => format!("- {}: {}", c.path, shown(&c.old)),
        Kind::Changed => format!("~ {}: {} -> {}", c.path, shown(&c.old), shown(&c.new)),
        Kind::Reordered => format!("~ {}: order {} -> {}", c.path, shown(&c.old), shown(&c.new)),
    }
}

/// The first `most` changes on one line, and how many more there are.
pub(crate) fn summary(changes: &[Change], most: usize) -> String {
    let mut out: Vec<String> = changes.iter().take(most).map(line).collect();
    if changes.len() > most {
        out.push(format!("and {} more", changes.len() - most));
    }
    if out.is_empty() {
        return "no changes".into();
    }
    out.join("; ")
}

/// Add what each changed value means, from the model's doc comments.
pub(crate) fn explain(changes: &mut [Change]) {
    for c in changes {
        let segments: Vec<String> = crate::pointer::pointer_segments(&c.path).collect();
        c.meaning = super::schema::describe(&segments);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Ruleset {
        let doc = super::super::lang::parse("t.rules", text).unwrap();
        let doc = super::super::load::resolve_loaded(doc, "t.rules", None).unwrap();
        super::super::load::ruleset_from_doc(&doc).unwrap()
    }

    #[test]
    fn changed_added_and_removed_values_by_path() {
        let base = load("extends startrek\n");
        let house = load(
            "extends startrek\nname = house\nships {\n  \"UFP heavy cruiser\" { shields = 12 }\n  \
             new Runabout { shields = 2 }\n  \"UFP frigate\" = null\n}\n",
        );
        let changes = between(&base, &house);
        let find = |p: &str| changes.iter().find(|c| c.path == p).cloned();
        let name = find("/name").unwrap();
        assert_eq!(
            (name.old, name.new),
            (Some("startrek".into()), Some("house".into()))
        );
        let shields = find("/ships/UFP heavy cruiser/shields").unwrap();
        assert_eq!(shields.change, Kind::Changed);
        assert_eq!(
            shields.old,
            Some(base.ships["UFP heavy cruiser"].shields.unwrap().into())
        );
        assert_eq!(shields.new, Some(12.into()));
        assert_eq!(find("/ships/Runabout/shields").unwrap().change, Kind::Added);
        // A removed entry is one change, holding what it was.
        assert!(!changes
            .iter()
            .any(|c| c.path.starts_with("/ships/UFP frigate/")));
        let frigate = find("/ships/UFP frigate").unwrap();
        assert_eq!(frigate.change, Kind::Removed);
        assert_eq!(
            frigate.old.unwrap()["structure"],
            serde_json::to_value(&base.ships["UFP frigate"]).unwrap()["structure"]
        );
        // Nothing that did not change is listed; the same ruleset has no changes.
        assert!(changes.iter().all(|c| c.old != c.new));
        assert!(between(&house, &house).is_empty());
        let mut explained = vec![shields];
        explain(&mut explained);
        assert!(explained[0].meaning.as_deref().unwrap().contains("hield"));
    }

    #[test]
    fn a_reordered_ruleset_is_one_change_and_changes_its_hash() {
        let base = load("extends startrek\n");
        let mut swapped = base.clone();
        swapped.ships.swap_indices(0, 1);
        let changes = between(&base, &swapped);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert_eq!(changes[0].path, "/ships");
        assert_eq!(changes[0].change, Kind::Reordered);
        let names: Vec<Value> = base.ships.keys().map(|k| k.as_str().into()).collect();
        assert_eq!(changes[0].old.as_ref().unwrap().as_array().unwrap(), &names);
        // No changes exactly when the hashes agree: the two are taken from one tree.
        use super::super::identity::hash;
        assert_ne!(hash(&base), hash(&swapped));
        let mut shields = base.clone();
        shields.ships[0].shields = Some(shields.ships[0].shields.unwrap_or(0) + 1);
        for (a, b) in [
            (&base, &swapped),
            (&base, &base),
            (&base, &shields),
            (&swapped, &swapped),
        ] {
            assert_eq!(between(a, b).is_empty(), hash(a) == hash(b));
        }
    }
}
