//! Inputs the fuzzers (fuzz/, `cargo fuzz run TARGET`) once broke, kept with the fuzzers'
//! own assertions so the bugs stay fixed. Add a file to tests/fuzz_regressions/TARGET/ for each
//! new finding.
use arbiter::rules::dice::{parse_pair, Dice};
use arbiter::rules::formula::{canonical, parse, Formula};
use arbiter::rules::{lang, load};

fn inputs(target: &str) -> Vec<(String, String)> {
    let dir = format!(
        "{}/tests/fuzz_regressions/{target}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut found: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            std::fs::read(&p).ok().map(|b| {
                (
                    p.display().to_string(),
                    String::from_utf8_lossy(&b).into_owned(),
                )
            })
        })
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no regression inputs in {dir}");
    found
}

#[test]
fn rules_language_round_trips() {
    for (name, text) in inputs("rules_language") {
        let Ok(doc) = load::parse_text("fuzz.rules", &text, arbiter::io::Format::Rules) else {
            continue;
        };
        let written = lang::write(&doc.value);
        let again = load::parse_text("again.rules", &written, arbiter::io::Format::Rules)
            .unwrap_or_else(|e| panic!("{name}: written text does not parse: {e}\n{written}"));
        assert_eq!(
            doc.value, again.value,
            "{name}: round trip changed the value"
        );
        let _ = load::ruleset_from_doc(&doc);
    }
}

#[test]
fn yaml_converts_to_the_rules_language_and_back() {
    for (name, text) in inputs("yaml_loader") {
        let Ok(doc) = load::parse_text("fuzz.yaml", &text, arbiter::io::Format::Yaml) else {
            continue;
        };
        let _ = load::ruleset_from_doc(&doc);
        if doc.value.is_object() {
            let written = lang::write(&doc.value);
            let again = load::parse_text("again.rules", &written, arbiter::io::Format::Rules)
                .unwrap_or_else(|e| {
                    panic!("{name}: converted text does not parse: {e}\n{written}")
                });
            assert_eq!(
                doc.value, again.value,
                "{name}: conversion changed the value"
            );
        }
    }
}

#[test]
fn formulas_have_stable_canonical_text() {
    for (name, text) in inputs("formula") {
        let Ok(f) = Formula::parse(&text) else {
            continue;
        };
        let canon = canonical(f.node());
        let reparsed = parse(&canon)
            .unwrap_or_else(|e| panic!("{name}: canonical `{canon}` does not parse: {e}"));
        assert_eq!(canonical(&reparsed), canon, "{name}");
    }
}

#[test]
fn dice_read_back_and_sum_to_one() {
    for (name, text) in inputs("dice") {
        let _ = parse_pair(&text);
        let Ok(dice) = Dice::parse(&text) else {
            continue;
        };
        assert_eq!(Dice::parse(&dice.to_string()).as_ref(), Ok(&dice), "{name}");
        if let Ok((_, probs)) = dice.distribution() {
            assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-6, "{name}");
        }
    }
}

/// The formula text for fuzz input `data` (the same function as in fuzz/fuzz_targets/formula_eval.rs).
fn biased_text(data: &[u8]) -> Option<String> {
    let (head, rest) = data.split_at(data.len().min(2));
    let rest = std::str::from_utf8(rest).ok()?;
    let (count, kind) = match head {
        [a, b] => (*a as usize * 4, *b),
        _ => (0, 0),
    };
    let run = ["-", "not ", "(", "2^", "if x then 1 else "][kind as usize % 5];
    let close = if kind % 5 == 2 && kind & 8 != 0 {
        ")".repeat(count)
    } else {
        String::new()
    };
    Some(format!("{}{rest}{close}", run.repeat(count)))
}

#[test]
fn deeply_nested_formulas_evaluate_and_print_or_are_refused() {
    let dir = format!(
        "{}/tests/fuzz_regressions/formula_eval",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no regression inputs in {dir}");
    let mut parsed = 0;
    for path in paths {
        let name = path.display().to_string();
        let Some(text) = biased_text(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        let Ok(f) = Formula::parse(&text) else {
            continue;
        };
        parsed += 1;
        let names: Vec<&str> = f.variables().iter().map(|(n, _)| *n).collect();
        let _ = f.check(&names);
        let values: Vec<f64> = (0..names.len()).map(|i| i as f64 * 0.75 - 1.0).collect();
        let a = f.compile(&names).eval(&values);
        let b = f.eval_with(&|n| names.iter().position(|m| *m == n).map(|i| values[i]));
        assert!(
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            "{name}: compiled and looked-up evaluation differ"
        );
        let canon = canonical(f.node());
        let reparsed = parse(&canon)
            .unwrap_or_else(|e| panic!("{name}: canonical `{canon}` does not parse: {e}"));
        assert_eq!(canonical(&reparsed), canon, "{name}");
    }
    assert!(
        parsed >= 4,
        "the regression inputs should include formulas that parse ({parsed} did)"
    );
}

#[test]
fn seasons_load_get_a_table_and_read_back_the_same() {
    use arbiter::league::{season::Season, standings::standings};
    let rules = load::load("bloodbowl").unwrap();
    let mut loaded = 0;
    for (name, text) in inputs("season_loader") {
        let Ok(doc) = load::parse_text("fuzz.yaml", &text, arbiter::io::Format::Yaml) else {
            continue;
        };
        let Ok(season) = Season::from_doc(&doc) else {
            continue;
        };
        loaded += 1;
        let _ = standings(&rules, &season);
        let written = season.to_yaml();
        let again = load::parse_text("again.yaml", &written, arbiter::io::Format::Yaml)
            .unwrap_or_else(|e| panic!("{name}: a written season does not parse: {e}"));
        assert_eq!(Season::from_doc(&again).unwrap(), season, "{name}");
    }
    assert!(loaded >= 2, "the valid seasons among the inputs load");
}

#[test]
fn records_and_histories_score_and_rate_to_finite_numbers() {
    use arbiter::scoring::{self, game::ScoreInput, ratings::RateOptions};
    let elo = load::load("elo").unwrap();
    let mut rated = 0;
    for (name, text) in inputs("record_loader") {
        if let Ok(doc) = load::parse_text("fuzz.yaml", &text, arbiter::io::Format::Yaml) {
            if let Ok(input) = ScoreInput::from_doc(&doc) {
                for rules in ["cep", "figf", "advciv"] {
                    let _ = scoring::score_input(&load::load(rules).unwrap(), &input, Some(&doc));
                }
            }
        }
        for as_file in ["fuzz.yaml", "fuzz.csv"] {
            let Ok(history) = scoring::parse_history(as_file, text.clone()) else {
                continue;
            };
            if let Ok(report) = history.rate(&elo, RateOptions::default()) {
                rated += 1;
                assert!(
                    report.players.iter().all(|p| p.rating.is_finite()),
                    "{name}"
                );
            }
        }
    }
    assert!(rated >= 2, "the valid histories among the inputs are rated");
}
