//! Any text as a game record or a rating history (YAML and CSV): loading, scoring and rating
//! never panic, and ratings are finite numbers.
#![no_main]
use arbiter::rules::load;
use arbiter::scoring::{self, game::ScoreInput, ratings::RateOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(doc) = load::parse_text("fuzz.yaml", text, arbiter::io::Format::Yaml) {
        if let Ok(input) = ScoreInput::from_doc(&doc) {
            for name in ["cep", "figf", "advciv"] {
                let rules = load::load(name).expect("a built-in ruleset loads");
                let _ = scoring::score_input(&rules, &input, Some(&doc));
            }
        }
    }
    let elo = load::load("elo").expect("elo loads");
    for name in ["fuzz.yaml", "fuzz.csv"] {
        let Ok(history) = scoring::parse_history(name, text.to_string()) else {
            continue;
        };
        if let Ok(report) = history.rate(&elo, RateOptions::default()) {
            assert!(
                report.players.iter().all(|p| p.rating.is_finite()),
                "a rating is not a number"
            );
        }
    }
});
