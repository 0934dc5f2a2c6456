//! `rules schema`: a JSON Schema of the YAML form, with every field described, that every
//! built-in ruleset (as `rules show --format yaml` prints it) validates against, and that
//! refuses what `rules check` refuses by type (an unknown key, a word for a number, a value
//! outside an enum). `rules explain` reads its descriptions.
use crate::common::*;
use serde_json::{json, Value};

/// A validator for the part of JSON Schema 2020-12 the schema uses: `$ref`, `type`,
/// `properties`, `additionalProperties`, `required`, `enum`, `const`, `items`, `prefixItems`,
/// `minItems`/`maxItems`, `minimum`, `anyOf`, `oneOf`, `if`/`then`/`else`, `pattern`. Any other
/// keyword fails the test, so the schema cannot grow past what is checked here.
struct Validator<'a> {
    root: &'a Value,
}

const KNOWN: &[&str] = &[
    "$schema",
    "title",
    "description",
    "examples",
    "default",
    "format",
    "$defs",
    "$ref",
    "type",
    "properties",
    "additionalProperties",
    "required",
    "enum",
    "const",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "pattern",
];

impl Validator<'_> {
    fn check(&self, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let Value::Object(s) = schema else {
            if schema == &json!(false) {
                errors.push(format!("{at}: not allowed here"));
            }
            return;
        };
        for k in s.keys() {
            assert!(KNOWN.contains(&k.as_str()), "keyword `{k}` not checked");
        }
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.strip_prefix("#/$defs/").expect("a local reference");
            self.check(&self.root["$defs"][name], v, at, errors);
        }
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(t) => vec![t],
                Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
                _ => panic!("bad type"),
            };
            let is = |t: &str| match t {
                "null" => v.is_null(),
                "boolean" => v.is_boolean(),
                "string" => v.is_string(),
                "number" => v.is_number(),
                "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
                "object" => v.is_object(),
                "array" => v.is_array(),
                other => panic!("type {other}"),
            };
            if !types.iter().any(|t| is(t)) {
                errors.push(format!("{at}: {v} is not {}", types.join(" or ")));
                return;
            }
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            if !values.contains(v) {
                errors.push(format!("{at}: {v} is not one of {values:?}"));
            }
        }
        if let Some(c) = s.get("const") {
            if c != v {
                errors.push(format!("{at}: {v} is not {c}"));
            }
        }
        if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
            if x < min {
                errors.push(format!("{at}: {x} < {min}"));
            }
        }
        if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), v.as_f64()) {
            if x > max {
                errors.push(format!("{at}: {x} > {max}"));
            }
        }
        if let (Some(p), Some(text)) = (s.get("pattern").and_then(Value::as_str), v.as_str()) {
            if !regex::Regex::new(p).unwrap().is_match(text) {
                errors.push(format!("{at}: {text:?} does not match {p}"));
            }
        }
        if let Value::Object(map) = v {
            let props = s.get("properties").and_then(Value::as_object);
            for (k, child) in map {
                let here = format!("{at}/{k}");
                match props.and_then(|p| p.get(k)) {
                    Some(p) => self.check(p, child, &here, errors),
                    None => match s.get("additionalProperties") {
                        Some(a) => self.check(a, child, &here, errors),
                        None if props.is_some() => {}
                        None => {}
                    },
                }
            }
            for r in s
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !map.contains_key(r.as_str().unwrap()) {
                    errors.push(format!("{at}: `{}` is required", r.as_str().unwrap()));
                }
            }
        }
        if let Value::Array(items) = v {
            let prefix = s.get("prefixItems").and_then(Value::as_array);
            for (i, item) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                match prefix.and_then(|p| p.get(i)) {
                    Some(p) => self.check(p, item, &here, errors),
                    None => {
                        if let Some(each) = s.get("items") {
                            self.check(each, item, &here, errors)
                        }
                    }
                }
            }
            let n = items.len() as u64;
            if s.get("minItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| n < m)
                || s.get("maxItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| n > m)
            {
                errors.push(format!("{at}: {n} items"));
            }
        }
        for (key, need) in [("anyOf", 1..usize::MAX), ("oneOf", 1..2)] {
            if let Some(Value::Array(branches)) = s.get(key) {
                let mut why = Vec::new();
                let mut passing = 0;
                for b in branches {
                    let mut e = Vec::new();
                    self.check(b, v, at, &mut e);
                    passing += usize::from(e.is_empty());
                    why.extend(e);
                }
                if !need.contains(&passing) {
                    errors.push(format!("{at}: {passing} branches of {key} match"));
                    errors.extend(why);
                }
            }
        }
        if let Some(cond) = s.get("if") {
            let mut e = Vec::new();
            self.check(cond, v, at, &mut e);
            let branch = if e.is_empty() {
                s.get("then")
            } else {
                s.get("else")
            };
            if let Some(b) = branch {
                self.check(b, v, at, errors);
            }
        }
    }
}

fn schema() -> Value {
    serde_json::from_str(&ok(&["rules", "schema"])).expect("the schema is JSON")
}

fn errors(schema: &Value, doc: &Value) -> Vec<String> {
    let mut e = Vec::new();
    Validator { root: schema }.check(schema, doc, "", &mut e);
    e
}

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).expect("YAML")
}

#[test]
fn every_built_in_ruleset_validates_against_the_schema() {
    let schema = schema();
    assert_eq!(
        schema["$schema"],
        json!("https://json-schema.org/draft/2020-12/schema")
    );
    for name in [
        "cep",
        "figf",
        "advciv",
        "elo",
        "bloodbowl",
        "swiss",
        "bloodbowl-swiss",
        "startrek",
    ] {
        let doc = yaml(&ok(&["rules", "show", name, "--format", "yaml"]));
        assert_eq!(errors(&schema, &doc), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn the_schema_describes_fields_and_refuses_what_the_model_refuses() {
    let schema = schema();
    let ruleset = &schema["$defs"]["Ruleset"];
    assert_eq!(ruleset["required"], json!(["name"]));
    assert_eq!(ruleset["additionalProperties"], json!(false));
    assert_eq!(
        ruleset["properties"]["name"]["description"],
        json!("The ruleset's name, as `rules list` and `--rules` know it.")
    );
    let ship = &schema["$defs"]["Ship"];
    assert_eq!(
        ship["properties"]["shields"]["description"],
        json!("Shield rating of each of the six faces.")
    );
    assert!(ship["properties"]["hull"]["description"]
        .as_str()
        .unwrap()
        .contains("3D6/3D3"));

    let startrek = yaml(&ok(&["rules", "show", "startrek", "--format", "yaml"]));
    let broken = |change: &dyn Fn(&mut Value)| {
        let mut doc = startrek.clone();
        change(&mut doc);
        errors(&schema, &doc)
    };
    let e = broken(&|d| d["ships"]["UFP heavy cruiser"]["shields"] = json!("ten"));
    assert!(
        e.iter()
            .any(|m| m.contains("/ships/UFP heavy cruiser/shields")),
        "{e:?}"
    );
    let e = broken(&|d| d["ships"]["UFP heavy cruiser"]["sheilds"] = json!(3));
    assert!(
        e.iter().any(|m| m.contains("sheilds: not allowed")),
        "{e:?}"
    );
    let e = broken(&|d| d["combat"]["skill_rolls"]["rounding"] = json!("sideways"));
    assert!(e.iter().any(|m| m.contains("is not one of")), "{e:?}");
    let e = broken(&|d| {
        d.as_object_mut().unwrap().shift_remove("name");
    });
    assert_eq!(e, vec![": `name` is required".to_string()]);
}

#[test]
fn a_house_rule_names_only_what_it_changes_but_its_keys_are_still_checked() {
    let schema = schema();
    let house = yaml(
        "extends: {name: startrek, version: \">=1.0\"}\n\
         ships:\n  UFP heavy cruiser:\n    shields: 12\n  +Romulan warbird:\n    shields: 8\n\
         combat:\n  start_distance: 8\n  torpedoes: null\n",
    );
    assert_eq!(errors(&schema, &house), Vec::<String>::new());
    // Entries of maps of names are removed with `null`, the documented way: a ship, a
    // torpedo kind (with the ships that fire it), a rank; `rules check` takes them all.
    let romulans = yaml(&ok(&["rules", "show", "startrek", "--format", "yaml"]))["ships"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, s)| s["torpedo_kind"] == "plasma")
        .map(|(name, _)| format!("  {name}: null\n"))
        .collect::<String>();
    let no_plasma =
        format!("extends: startrek\nships:\n{romulans}combat:\n  torpedoes:\n    plasma: null\n");
    for (text, file) in [
        ("extends: startrek\nships:\n  UFP frigate: null\n", "s.yaml"),
        (no_plasma.as_str(), "t.yaml"),
        (
            "extends: cep\nscoring:\n  cep:\n    ranks:\n      mayor: null\n",
            "r.yaml",
        ),
    ] {
        assert_eq!(errors(&schema, &yaml(text)), Vec::<String>::new(), "{text}");
        Test::new()
            .file(file, text)
            .args(["rules", "check", file])
            .run();
    }
    let typo = yaml("extends: startrek\ncombat:\n  start_distanse: 8\n");
    assert!(!errors(&schema, &typo).is_empty());
    let bad_pin = yaml("extends: {name: startrek, sha256: abc}\n");
    assert!(!errors(&schema, &bad_pin).is_empty());
}

#[test]
fn explain_says_what_a_value_means_and_its_value_through_extends() {
    let t = Test::new()
        .file(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" { shields = 12 }\n}\n",
        )
        .args([
            "rules",
            "explain",
            "ships.ufp heavy cruiser.shields",
            "--rules",
            "house.rules",
        ])
        .stdout_has("ships.UFP heavy cruiser.shields\n")
        .stdout_has("  Shield rating of each of the six faces.\n")
        .stdout_has("  type: integer (at least 0)\n")
        .stdout_has("in ")
        .stdout_has(": 12\n")
        .run();
    drop(t);
    let j = json(&["rules", "explain", "/combat/sensor_range", "--json"]);
    assert_eq!(j["value"], json!(10));
    assert_eq!(j["ruleset"], json!("startrek"));
    assert_eq!(j["pointer"], json!("/combat/sensor_range"));
    assert!(j["notes"][0][1]
        .as_str()
        .unwrap()
        .contains("10 hexes (1000 km)"));
    let j = json(&["rules", "explain", "league.legs", "--json"]);
    assert_eq!(j["default"], json!(1));
    assert_eq!(j["ruleset"], json!("bloodbowl"));
    let e = fails(&["rules", "explain", "combat.start_distanse"]);
    assert!(e.contains("did you mean `start_distance`"), "{e}");
    let e = fails(&["rules", "explain", "ships.Klingon battel cruiser.shields"]);
    assert!(e.contains("did you mean `Klingon battle cruiser`"), "{e}");
}

/// Ten broken rulesets, each wrong for a reason of its own place: `rules check` refuses every
/// one, and so does the schema (the figure the issue-30 note reports).
#[test]
fn ten_broken_files_are_refused_by_rules_check_and_by_the_schema() {
    let schema = schema();
    let shown = |name: &str| yaml(&ok(&["rules", "show", name, "--format", "yaml"]));
    let startrek = shown("startrek");
    let bloodbowl = shown("bloodbowl");
    let swiss = shown("bloodbowl-swiss");
    let heavy = "UFP heavy cruiser";
    type Break = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, &Value, Break)> = vec![
        (
            "a word for a number",
            &startrek,
            Box::new(move |d| d["ships"][heavy]["shields"] = json!("ten")),
        ),
        (
            "a misspelt field",
            &startrek,
            Box::new(move |d| d["ships"][heavy]["sheilds"] = json!(3)),
        ),
        (
            "an unknown section",
            &startrek,
            Box::new(|d| d["shps"] = json!({})),
        ),
        (
            "a value outside an enum",
            &startrek,
            Box::new(|d| d["combat"]["skill_rolls"]["rounding"] = json!("sideways")),
        ),
        (
            "no name",
            &startrek,
            Box::new(|d| {
                d.as_object_mut().unwrap().shift_remove("name");
            }),
        ),
        (
            "a negative count",
            &startrek,
            Box::new(move |d| d["ships"][heavy]["shields"] = json!(-1)),
        ),
        (
            "a version not MAJOR.MINOR.PATCH",
            &startrek,
            Box::new(|d| d["version"] = json!("1.0")),
        ),
        (
            "dice that are not dice",
            &startrek,
            Box::new(move |d| d["ships"][heavy]["hull"] = json!("3X6")),
        ),
        (
            "an unknown Swiss tie-break",
            &swiss,
            Box::new(|d| d["swiss"]["tiebreakers"] = json!(["buchholz", "coin_toss"])),
        ),
        (
            "an unknown league tie-breaker",
            &bloodbowl,
            Box::new(|d| d["league"]["tiebreakers"] = json!(["coin_toss"])),
        ),
    ];
    let mut refused_by_schema = 0;
    for (why, base, change) in &cases {
        let mut doc = (*base).clone();
        change(&mut doc);
        let text = serde_yaml::to_string(&doc).unwrap();
        Test::new()
            .file("broken.yaml", &text)
            .args(["rules", "check", "broken.yaml"])
            .status(1)
            .run();
        let e = errors(&schema, &doc);
        assert!(!e.is_empty(), "the schema takes {why}");
        refused_by_schema += 1;
    }
    assert_eq!((cases.len(), refused_by_schema), (10, 10));
}
