//! Properties of the two ruleset formats: any value tree survives rules language and YAML
//! round trips; formulas print canonically; dice distributions are distributions.
use arbiter::rules::dice::Dice;
use arbiter::rules::formula::{canonical, parse};
use arbiter::rules::{lang, load, yaml};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_][a-z0-9_]{0,8}",
        "[A-Za-z][A-Za-z ]{0,12}[a-z]",
        "[a-zé ó-]{1,10}",
        Just("if".to_string()),
        Just("extends".to_string()),
        Just("true".to_string()),
        Just("3D6".to_string()),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i32>().prop_map(|i| Value::from(i as i64)),
        (-1.0e6f64..1.0e6).prop_map(|f| Value::from((f * 1000.0).round() / 1000.0)),
        any::<bool>().prop_map(Value::from),
        "[ -~]{0,16}".prop_map(Value::from),
        "[a-z_]{1,8}".prop_map(Value::from),
        prop_oneof![
            Just("3D6/3D3"),
            Just("2D6+1"),
            Just("2 * phaser_dice + max_speed"),
            Just("max(1, x) - -2"),
            Just("null"),
            Just("0x10"),
            Just("1e3"),
            Just("~"),
            Just("yes"),
            Just("- a"),
            Just("a: b"),
            Just("#x")
        ]
        .prop_map(Value::from),
    ]
}

/// A mapping of the entries whose names differ (ignoring case and accents, as every ruleset
/// name does: two keys that differ only so are refused).
fn mapping(entries: Vec<(String, Value)>) -> Map<String, Value> {
    let mut m = Map::new();
    let mut names = std::collections::HashSet::new();
    for (k, v) in entries {
        if names.insert(arbiter::names::normalize(&k)) {
            m.insert(k, v);
        }
    }
    m
}

fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..5)
                .prop_map(|entries| { Value::Object(mapping(entries)) }),
        ]
    })
}

/// A variable name: not a keyword, not dice notation.
fn variable() -> impl Strategy<Value = String> {
    "[a-z]{1,3}".prop_filter("keywords and dice are not names", |v| {
        let keyword = [
            "if", "or", "and", "not", "then", "else", "true", "false", "null",
        ]
        .contains(&v.as_str());
        let dice = v.starts_with('d') && v.len() > 1 && v[1..].chars().all(|c| c.is_ascii_digit());
        !keyword && !dice
    })
}

fn root() -> impl Strategy<Value = Value> {
    proptest::collection::vec((key(), tree()), 0..6)
        .prop_map(|entries| Value::Object(mapping(entries)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_rules_language_round_trips_any_tree(v in root()) {
        let text = lang::write(&v);
        let doc = load::parse_text("p.rules", &text, arbiter::io::Format::Rules).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&doc.value, &v, "{}", text);
    }

    #[test]
    fn yaml_round_trips_any_tree(v in root()) {
        let text = yaml::write(&v);
        let doc = load::parse_text("p.yaml", &text, arbiter::io::Format::Yaml).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&doc.value, &v, "{}", text);
    }

    #[test]
    fn canonical_formulas_are_stable(a in variable(), b in 0u32..100, c in variable(), ops in proptest::collection::vec(0usize..8, 1..6)) {
        let symbols = ["+", "-", "*", "/", "^", "<", "and", "or"];
        let mut text = a.clone();
        for (i, o) in ops.iter().enumerate() {
            let operand = if i % 2 == 0 { b.to_string() } else { format!("({c} - {b})") };
            text = format!("{text} {} {operand}", symbols[*o]);
        }
        let once = canonical(&parse(&text).unwrap());
        let node = parse(&once).unwrap();
        prop_assert_eq!(canonical(&node), once.clone());
        // Same value before and after printing.
        let f1 = arbiter::rules::formula::Formula::parse(&text).unwrap();
        let f2 = arbiter::rules::formula::Formula::parse(&once).unwrap();
        let vars = |n: &str| Some(n.len() as f64 + 0.5);
        let (x, y) = (f1.eval_with(&vars), f2.eval_with(&vars));
        prop_assert!(x == y || (x.is_nan() && y.is_nan()), "{} vs {}", x, y);
    }

    #[test]
    fn dice_distributions_are_distributions(n in 1u32..8, s in 1u32..13, m in 0u32..3, t in 1u32..7, k in 0u32..5, minus in any::<bool>()) {
        let text = if m == 0 { format!("{n}D{s}+{k}") } else { format!("{n}D{s}{}{m}D{t}", if minus { "-" } else { "+" }) };
        let d = Dice::parse(&text).unwrap();
        let (low, probs) = d.distribution().unwrap();
        prop_assert_eq!(low, d.min());
        prop_assert_eq!(low + probs.len() as i64 - 1, d.max());
        prop_assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mean: f64 = probs.iter().enumerate().map(|(i, p)| (low + i as i64) as f64 * p).sum();
        prop_assert!((mean - d.mean()).abs() < 1e-9);
        // Symmetric around the mean, as sums of fair dice are.
        for (i, p) in probs.iter().enumerate() {
            prop_assert!((p - probs[probs.len() - 1 - i]).abs() < 1e-12);
        }
    }
}
