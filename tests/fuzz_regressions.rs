//! Inputs the fuzzers (fuzz/, `cargo fuzz run TARGET`) once broke, kept with the fuzzers'
//! own assertions so the bugs stay fixed. Add a file to tests/fuzz_regressions/TARGET/ for each
//! new finding.
use arbiter::rules::dice::{parse_pair, Dice};
use arbiter::rules::formula::{canonical, parse, Formula};
use arbiter::rules::{lang, load};

fn inputs(target: &str) -> Vec<(String, String)> {
    let dir = format!("{}/tests/fuzz_regressions/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut found: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p.display().to_string(), String::from_utf8_lossy(&b).into_owned())))
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no regression inputs in {dir}");
    found
}

#[test]
fn rules_language_round_trips() {
    for (name, text) in inputs("rules_language") {
        let Ok(doc) = load::parse_text("fuzz.rules", &text, load::Format::Rules) else { continue };
        let written = lang::write(&doc.value);
        let again = load::parse_text("again.rules", &written, load::Format::Rules)
            .unwrap_or_else(|e| panic!("{name}: written text does not parse: {e}\n{written}"));
        assert_eq!(doc.value, again.value, "{name}: round trip changed the value");
        let _ = load::ruleset_from_doc(&doc);
    }
}

#[test]
fn yaml_converts_to_the_rules_language_and_back() {
    for (name, text) in inputs("yaml_loader") {
        let Ok(doc) = load::parse_text("fuzz.yaml", &text, load::Format::Yaml) else { continue };
        let _ = load::ruleset_from_doc(&doc);
        if doc.value.is_object() {
            let written = lang::write(&doc.value);
            let again = load::parse_text("again.rules", &written, load::Format::Rules)
                .unwrap_or_else(|e| panic!("{name}: converted text does not parse: {e}\n{written}"));
            assert_eq!(doc.value, again.value, "{name}: conversion changed the value");
        }
    }
}

#[test]
fn formulas_have_stable_canonical_text() {
    for (name, text) in inputs("formula") {
        let Ok(f) = Formula::parse(&text) else { continue };
        let canon = canonical(f.node());
        let reparsed = parse(&canon).unwrap_or_else(|e| panic!("{name}: canonical `{canon}` does not parse: {e}"));
        assert_eq!(canonical(&reparsed), canon, "{name}");
    }
}

#[test]
fn dice_read_back_and_sum_to_one() {
    for (name, text) in inputs("dice") {
        let _ = parse_pair(&text);
        let Ok(dice) = Dice::parse(&text) else { continue };
        assert_eq!(Dice::parse(&dice.to_string()).as_ref(), Ok(&dice), "{name}");
        if let Ok((_, probs)) = dice.distribution() {
            assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-6, "{name}");
        }
    }
}
