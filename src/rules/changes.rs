//! What differs between two resolved rulesets, value by value: `rules diff`.
use super::doc::tidy_numbers;
use super::model::Ruleset;
use crate::pointer::pointer_push;
use serde::Serialize;
use serde_json::Value;

/// One value that differs: `old` is absent (`None`) for an added value, `new` for a removed one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
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
pub enum Kind {
    Added,
    Removed,
    Changed,
}

/// Every value that differs from `old` to `new`, in the order of the rulesets (the old one's,
/// then what only the new one has). Sections and entries are gone into down to their values;
/// a list is one value.
pub fn between(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
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
        }
        (Some(Value::Object(o)), None) => {
            for (k, ov) in o {
                walk(Some(ov), None, &pointer_push(path, k), out);
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

/// Add what each changed value means, from the model's doc comments.
pub fn explain(changes: &mut [Change]) {
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
        let frigate: Vec<&Change> = changes
            .iter()
            .filter(|c| c.path.starts_with("/ships/UFP frigate/"))
            .collect();
        assert!(!frigate.is_empty() && frigate.iter().all(|c| c.change == Kind::Removed));
        // Nothing that did not change is listed; the same ruleset has no changes.
        assert!(changes.iter().all(|c| c.old != c.new));
        assert!(between(&house, &house).is_empty());
        let mut explained = vec![shields];
        explain(&mut explained);
        assert!(explained[0].meaning.as_deref().unwrap().contains("hield"));
    }
}
