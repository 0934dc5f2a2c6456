//! `rules schema`: a JSON Schema of the YAML form, with every field described, that every
//! built-in ruleset (as `rules show --format yaml` prints it) validates against, and that
//! refuses what `rules check` refuses by type (an unknown key, a word for a number, a value
//! outside an enum). `rules explain` reads its descriptions.
use crate::common::*;
use serde_json::{json, Value};

/// Every built-in ruleset, as `rules list` names them.
const BUILT_INS: [&str; 8] = [
    "cep",
    "figf",
    "advciv",
    "elo",
    "bloodbowl",
    "swiss",
    "bloodbowl-swiss",
    "startrek",
];

fn schema() -> Value {
    serde_json::from_str(&ok(&["rules", "schema"])).expect("the schema is JSON")
}

/// Every error a real JSON Schema validator (the `boon` crate, draft 2020-12 as the schema's
/// `$schema` says) finds, each as `POINTER: message`, innermost causes only.
fn errors(schema: &Value, doc: &Value) -> Vec<String> {
    fn leaves(e: &boon::ValidationError, out: &mut Vec<String>) {
        if e.causes.is_empty() {
            out.push(format!("{}: {}", e.instance_location, e.kind));
        }
        for cause in &e.causes {
            leaves(cause, out);
        }
    }
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("arbiter-ruleset.schema.json", schema.clone())
        .expect("the schema is a resource");
    let id = compiler
        .compile("arbiter-ruleset.schema.json", &mut schemas)
        .expect("the schema compiles");
    let mut out = Vec::new();
    if let Err(e) = schemas.validate(doc, id) {
        leaves(&e, &mut out);
    }
    out
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
    for name in BUILT_INS {
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
        e.iter()
            .any(|m| m.starts_with("/ships/UFP heavy cruiser:") && m.contains("'sheilds'")),
        "{e:?}"
    );
    let e = broken(&|d| d["combat"]["skill_rolls"]["rounding"] = json!("sideways"));
    assert!(
        e.iter()
            .any(|m| m.starts_with("/combat/skill_rolls/rounding:") && m.contains("'down'")),
        "{e:?}"
    );
    let e = broken(&|d| {
        d.as_object_mut().unwrap().shift_remove("name");
    });
    assert_eq!(e, vec![": missing properties 'name'".to_string()]);
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

/// Every JSON pointer in a tree, the root excepted.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                let here = format!("{at}/{}", escape(k));
                out.push(here.clone());
                pointers(child, here, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                out.push(here.clone());
                pointers(child, here, out);
            }
        }
        _ => {}
    }
}

/// A value of a random kind: numbers near the rules' own, words the rulesets use, null.
fn some_value(rng: &mut impl rand::Rng) -> Value {
    const WORDS: &[&str] = &[
        "x", "3D6", "2D6+1", "win", "plasma", "photon", "bridge", "1.2.3", "round", "large",
        "buchholz", "points", "UFP", "",
    ];
    match rng.gen_range(0..6) {
        0 => json!(rng.gen_range(-3..40)),
        1 => json!(f64::from(rng.gen_range(-8..160)) / 4.0),
        2 => Value::Null,
        3 => json!(WORDS[rng.gen_range(0..WORDS.len())]),
        4 => json!(rng.gen_bool(0.5)),
        _ => json!([rng.gen_range(0..12), rng.gen_range(0..12)]),
    }
}

/// Change (or remove, or add a sibling to) the node at a pointer.
fn mutate(doc: &mut Value, pointer: &str, rng: &mut impl rand::Rng) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let key = key.replace("~1", "/").replace("~0", "~");
    let Some(parent) = doc.pointer_mut(parent) else {
        return;
    };
    match (parent, rng.gen_range(0..4)) {
        (Value::Object(m), 0) => {
            m.shift_remove(&key);
        }
        (Value::Object(m), 1) => {
            // A copy of an entry under a new name: a new ship, rank or kind.
            if let Some(v) = m.get(&key).cloned() {
                m.insert(format!("{key} II"), v);
            }
        }
        (parent, _) => {
            if let Some(slot) =
                parent.pointer_mut(&format!("/{}", key.replace('~', "~0").replace('/', "~1")))
            {
                *slot = some_value(rng);
            }
        }
    }
}

/// A house rule over `base` holding the nodes at `picked` (as changed in `changed`), nested as
/// in the base: what a club writes when it changes a few values.
fn house_rule(name: &str, changed: &Value, picked: &[String]) -> Value {
    let mut house = json!({ "extends": name });
    for p in picked {
        let parts: Vec<String> = p
            .split('/')
            .skip(1)
            .map(|k| k.replace("~1", "/").replace("~0", "~"))
            .collect();
        // Stop at the first array: a list is replaced whole.
        let mut depth = 0;
        let mut node = changed;
        while depth < parts.len() && node.is_object() {
            node = &node[&parts[depth]];
            depth += 1;
        }
        let value = node.clone();
        let mut at = &mut house;
        for k in &parts[..depth.saturating_sub(1)] {
            at = at
                .as_object_mut()
                .unwrap()
                .entry(k.clone())
                .or_insert_with(|| json!({}));
            if !at.is_object() {
                break;
            }
        }
        if let (Some(m), Some(last)) = (at.as_object_mut(), parts.get(depth.saturating_sub(1))) {
            m.insert(last.clone(), value);
        }
    }
    house
}

fn accepted(text: &str) -> bool {
    use arbiter::rules::load;
    load::parse_text("g.yaml", text, arbiter::io::Format::Yaml)
        .and_then(|doc| load::resolve_loaded(doc, "g.yaml", None))
        .and_then(|doc| load::ruleset_from_doc(&doc))
        .is_ok()
}

/// The schema takes every file the loader takes: built-ins changed at random (values of other
/// kinds, entries removed, copied under new names, set to null), whole and as house rules.
/// The loader refuses many of them; every one it accepts must validate.
#[test]
fn every_generated_ruleset_the_loader_accepts_validates_against_the_schema() {
    use rand::{Rng, SeedableRng};
    let schema = schema();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(30);
    let bases: Vec<(&str, Value, Vec<String>)> = BUILT_INS
        .iter()
        .map(|name| {
            let doc = yaml(&ok(&["rules", "show", name, "--format", "yaml"]));
            let mut at = Vec::new();
            pointers(&doc, String::new(), &mut at);
            (*name, doc, at)
        })
        .collect();
    let (mut tried, mut taken) = (0, 0);
    for round in 0..600 {
        let (name, base, at) = &bases[round % bases.len()];
        let mut doc = base.clone();
        let picked: Vec<String> = (0..rng.gen_range(1..4))
            .map(|_| at[rng.gen_range(0..at.len())].clone())
            .collect();
        for p in &picked {
            mutate(&mut doc, p, &mut rng);
        }
        let candidate = if round % 2 == 0 {
            doc
        } else {
            house_rule(name, &doc, &picked)
        };
        let text = serde_yaml::to_string(&candidate).unwrap();
        tried += 1;
        if accepted(&text) {
            taken += 1;
            assert_eq!(
                errors(&schema, &candidate),
                Vec::<String>::new(),
                "the loader takes this, the schema does not:\n{text}"
            );
        }
    }
    // Enough of each kind that the property says something.
    assert!(taken >= 60 && taken < tried, "{taken} of {tried} accepted");
}
