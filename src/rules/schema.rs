//! The JSON Schema of the YAML form, generated from the model (schemars reads the `///` doc
//! comments of src/rules/ into descriptions): what `rules schema` prints for editors, and what
//! `rules explain`, `rules diff --explain` and the language server read a value's meaning from.
use super::model::Ruleset;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// Prefix of the copies of the definitions that a house rule (a file with `extends`) is checked
/// against: the same fields, none of them required, since the base gives the rest.
const OVERLAY: &str = "Overlay";

/// The schema, as `rules schema` prints it (draft 2020-12).
pub(crate) fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(build)
}

fn build() -> Value {
    let generated = serde_json::to_value(schemars::schema_for!(Ruleset)).expect("a schema");
    let Value::Object(mut root) = generated else {
        unreachable!("a schema is an object")
    };
    let mut defs = match root.remove("$defs") {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    // The root is the Ruleset's own schema: move it among the definitions, beside its overlay.
    let schema_uri = root.remove("$schema").unwrap_or(Value::Null);
    root.remove("title");
    let mut ruleset = root;
    if let Some(Value::Object(props)) = ruleset.get_mut("properties") {
        props.insert("extends".into(), extends_schema());
    }
    defs.insert("Ruleset".into(), Value::Object(ruleset));
    closed_sets(&mut defs);
    let overlays: Vec<(String, Value)> = defs
        .iter()
        .map(|(name, def)| {
            let mut def = def.clone();
            for_overlay(&mut def);
            (format!("{OVERLAY}{name}"), def)
        })
        .collect();
    defs.extend(overlays);
    json!({
        "$schema": schema_uri,
        "title": "arbiter ruleset (YAML form)",
        "description": "A ruleset for arbiter: ships, scoring, league, Swiss and combat rules. \
            A file with `extends` is a house rule: it names only what it changes.",
        "type": "object",
        "if": {"required": ["extends"]},
        "then": {"$ref": format!("#/$defs/{OVERLAY}Ruleset")},
        "else": {"$ref": "#/$defs/Ruleset"},
        "$defs": defs,
    })
}

/// What the model checks beyond types, for editors to check too: the tie-breakers' names, a
/// version's form (MAJOR.MINOR.PATCH).
fn closed_sets(defs: &mut Map<String, Value>) {
    let names =
        |list: &[(&str, &str)]| -> Value { list.iter().map(|(n, _)| Value::from(*n)).collect() };
    let tiebreakers = [
        ("LeagueRules", names(super::league::TIEBREAKERS)),
        ("SwissRules", names(super::swiss::TIEBREAKS)),
    ];
    for (def, known) in tiebreakers {
        if let Some(items) = defs
            .get_mut(def)
            .and_then(|d| d.pointer_mut("/properties/tiebreakers/items"))
        {
            items["enum"] = known;
        }
    }
    // Dice as grammar/formula.pest reads them: `3D6`, `2D6+1`, `4D6-2`, `D100`; a pair
    // `intact/damaged`.
    let term = r"([0-9]*[dD][0-9]+|[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)";
    let sum = format!(r"\s*{term}(\s*[-+−]\s*{term})*\s*");
    for (def, pattern) in [
        ("Dice", format!("^{sum}$")),
        ("DicePair", format!("^{sum}(/{sum})?$")),
    ] {
        if let Some(d) = defs.get_mut(def) {
            d["pattern"] = pattern.into();
        }
    }
    if let Some(version) = defs
        .get_mut("Ruleset")
        .and_then(|d| d.pointer_mut("/properties/version"))
    {
        version["pattern"] =
            r"^\s*[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$".into();
    }
}

/// `extends: NAME` or `extends: {name, sha256, version}` (see src/rules/pin.rs).
fn extends_schema() -> Value {
    json!({
        "description": "The ruleset this one changes (a built-in name or a path), optionally \
            pinned: `{name, sha256, version}` refuses a base that changed.",
        "anyOf": [
            {"type": "string"},
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "description": "The base ruleset's name or path."},
                    "sha256": {
                        "type": "string",
                        "pattern": "^[0-9a-fA-F]{64}$",
                        "description": "The base's hash, as `arbiter rules hash BASE` prints it."
                    },
                    "version": {
                        "type": "string",
                        "description": "A version requirement on the base, like \">=1.2\"."
                    }
                }
            }
        ]
    })
}

/// Make a definition the overlay's: nothing required, references to the overlay's copies, and
/// any value may be `null` (an overlay's `null` removes the key).
fn for_overlay(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("required");
            if let Some(Value::String(r)) = map.get_mut("$ref") {
                if let Some(name) = r.strip_prefix("#/$defs/") {
                    *r = format!("#/$defs/{OVERLAY}{name}");
                } else if r == "#" {
                    *r = format!("#/$defs/{OVERLAY}Ruleset");
                }
            }
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for p in props.values_mut() {
                    for_overlay(p);
                    *p = json!({"anyOf": [p.take(), {"type": "null"}]});
                }
            }
            // An entry of a map of names (a ship, a torpedo kind, a rank) is removed with
            // `null` too, the documented way.
            if let Some(entry) = map
                .get_mut("additionalProperties")
                .filter(|a| a.is_object())
            {
                for_overlay(entry);
                *entry = json!({"anyOf": [entry.take(), {"type": "null"}]});
            }
            for (k, child) in map.iter_mut() {
                if k != "properties" && k != "additionalProperties" {
                    for_overlay(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(for_overlay),
        _ => {}
    }
}

/// A definition by reference ("#/$defs/Ship"), or the node itself if it is no reference.
fn deref(node: &Value) -> &Value {
    let mut node = node;
    for _ in 0..8 {
        match node.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let name = r.strip_prefix("#/$defs/").unwrap_or("Ruleset");
                match schema()["$defs"].get(name) {
                    Some(def) => node = def,
                    None => break,
                }
            }
            None => break,
        }
    }
    node
}

/// The branch of an `Option` (`anyOf: [T, null]`) that is not null, dereferenced.
fn unwrap_optional(node: &Value) -> &Value {
    let node = deref(node);
    if let Some(Value::Array(branches)) = node.get("anyOf").or_else(|| node.get("oneOf")) {
        let real: Vec<&Value> = branches
            .iter()
            .filter(|b| b.get("type") != Some(&json!("null")))
            .collect();
        if real.len() == 1 {
            return deref(real[0]);
        }
    }
    node
}

/// What the schema says about one value of a ruleset.
#[derive(Debug, Clone)]
pub(crate) struct Field<'a> {
    /// The field's own schema (as its section declares it: description, default, `$ref`).
    pub declared: &'a Value,
    /// What it holds: references and `Option` taken away.
    pub holds: &'a Value,
    /// Its meaning: its own description, else its type's, else the entry it is part of.
    pub description: Option<String>,
}

/// Why a path has no place in the schema: the segment that fails and the keys it could be.
#[derive(Debug, Clone)]
pub(crate) struct Unknown {
    pub depth: usize,
    pub known: Vec<String>,
}

/// The schema of the value at `segments` (names of ships and other entries are any key).
pub(crate) fn field(segments: &[String]) -> Result<Field<'static>, Unknown> {
    let root = deref(&schema()["$defs"]["Ruleset"]);
    let mut current = Field {
        declared: root,
        holds: root,
        description: text(root),
    };
    for (depth, seg) in segments.iter().enumerate() {
        let here = current.holds;
        let next = if let Some(p) = here.get("properties").and_then(|p| p.get(seg.as_str())) {
            Some(p)
        } else if let Some(a) = here.get("additionalProperties").filter(|a| a.is_object()) {
            Some(a)
        } else {
            here.get("items").filter(|_| seg.parse::<usize>().is_ok())
        };
        let Some(declared) = next else {
            let known = here
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            return Err(Unknown { depth, known });
        };
        let holds = unwrap_optional(declared);
        let description = text(declared)
            .or_else(|| text(holds))
            .or(current.description.take());
        current = Field {
            declared,
            holds,
            description,
        };
    }
    Ok(current)
}

fn text(node: &Value) -> Option<String> {
    node.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
        .filter(|d| !d.is_empty())
}

/// The doc comment of the value at `segments` (a path into the ruleset, as `rules diff` and
/// `r.get` write them), or of the entry it is part of; `None` if the model does not say.
pub(crate) fn describe(segments: &[String]) -> Option<String> {
    field(segments).ok()?.description
}

/// The keys a section at `segments` may hold (empty for a map of names or a plain value).
pub(crate) fn keys_at(segments: &[String]) -> Vec<(String, Option<String>)> {
    let Ok(f) = field(segments) else {
        return Vec::new();
    };
    let mut keys: Vec<(String, Option<String>)> = f
        .holds
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .map(|(k, v)| (k.clone(), text(v).or_else(|| text(unwrap_optional(v)))))
                .collect()
        })
        .unwrap_or_default();
    if segments.is_empty() {
        keys.retain(|(k, _)| k != "extends");
        keys.insert(0, ("extends".into(), describe(&["extends".into()])));
    }
    keys
}

/// The values the field at `segments` (or each item of it, for a list) may take when they are
/// a fixed few, each with what it means: an enum's, a choice's, true and false.
pub(crate) fn choices(segments: &[String]) -> Vec<(String, Option<String>)> {
    let Ok(f) = field(segments) else {
        return Vec::new();
    };
    let node = f.holds.get("items").map_or(f.holds, unwrap_optional);
    let mut out = Vec::new();
    collect_choices(node, f.description.as_deref(), &mut out);
    out
}

fn collect_choices(node: &Value, about: Option<&str>, out: &mut Vec<(String, Option<String>)>) {
    let node = unwrap_optional(node);
    let meaning = || text(node).or_else(|| about.map(str::to_string));
    if let Some(Value::Array(values)) = node.get("enum") {
        out.extend(
            values
                .iter()
                .filter_map(|v| Some((v.as_str()?.to_string(), meaning()))),
        );
    }
    if let Some(c) = node.get("const").and_then(Value::as_str) {
        out.push((c.to_string(), meaning()));
    }
    if node.get("type") == Some(&json!("boolean")) {
        out.extend(["true", "false"].map(|b| (b.to_string(), meaning())));
    }
    for branches in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = node.get(branches) {
            for b in branches {
                collect_choices(b, about, out);
            }
        }
    }
}

/// A type as people read it: "integer (at least 0)", "one of: round, floor", "map of names to
/// Ship", "section CombatRules".
pub(crate) fn type_name(node: &Value) -> String {
    let node = unwrap_optional(node);
    if let Some(Value::Array(values)) = node.get("enum") {
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return format!("one of {}", shown.join(", "));
    }
    if let Some(c) = node.get("const") {
        return format!("exactly {c}");
    }
    if let Some(Value::Array(branches)) = node.get("oneOf").or_else(|| node.get("anyOf")) {
        let shown: Vec<String> = branches.iter().map(type_name).collect();
        return shown.join(" or ");
    }
    let types: Vec<&str> = match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    };
    let mut out = match types.as_slice() {
        ["object"] if node.get("properties").is_some() => "section".to_string(),
        ["object"] => match node.get("additionalProperties") {
            Some(v) if v.is_object() => format!("map of names to {}", type_name(v)),
            _ => "mapping".to_string(),
        },
        ["array"] => match node.get("items") {
            Some(items) => format!("list of {}", type_name(items)),
            None => "list".to_string(),
        },
        [] => "any value".to_string(),
        ts => ts.join(" or "),
    };
    if let Some(min) = node.get("minimum") {
        out.push_str(&format!(" (at least {min})"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<String> {
        crate::pointer::pointer_segments(p).collect()
    }

    #[test]
    fn fields_are_described_by_their_doc_comments_through_maps_and_sections() {
        assert_eq!(
            describe(&path("/name")).unwrap(),
            "The ruleset's name, as `rules list` and `--rules` know it."
        );
        let ships = describe(&path("/ships")).unwrap();
        assert!(ships.starts_with("Ships (or any playing pieces"), "{ships}");
        // A ship's own field, under a name the model cannot know.
        assert_eq!(
            describe(&path("/ships/Any name/shields")).unwrap(),
            "Shield rating of each of the six faces."
        );
        assert!(field(&path("/ships/Any name/no such field")).is_err());
        assert!(describe(&path("/league/points/win")).is_some());
        assert!(describe(&path("/combat/start_distance"))
            .unwrap()
            .contains("Hexes between the ships"));
    }

    #[test]
    fn an_unknown_key_says_where_and_what_could_be_there() {
        let e = field(&path("/combat/start_distanse")).unwrap_err();
        assert_eq!(e.depth, 1);
        assert!(e.known.iter().any(|k| k == "start_distance"));
    }

    #[test]
    fn types_read_as_people_write_them() {
        let shields = field(&path("/ships/X/shields")).unwrap();
        assert_eq!(type_name(shields.declared), "integer (at least 0)");
        let ships = field(&path("/ships")).unwrap();
        assert_eq!(type_name(ships.declared), "map of names to section");
    }
}

#[cfg(test)]
mod coverage {
    use super::*;

    /// Every field of every section, `definition.field`, that has no description of its own
    /// nor one from its type.
    pub(crate) fn undescribed() -> Vec<String> {
        let mut out = Vec::new();
        for (name, def) in schema()["$defs"].as_object().unwrap() {
            if name.starts_with(OVERLAY) {
                continue;
            }
            let Some(props) = def.get("properties").and_then(Value::as_object) else {
                continue;
            };
            for (field, p) in props {
                if text(p).or_else(|| text(unwrap_optional(p))).is_none() {
                    out.push(format!("{name}.{field}"));
                }
            }
        }
        out
    }

    #[test]
    fn every_field_has_a_description() {
        assert_eq!(undescribed(), Vec::<String>::new());
    }
}
