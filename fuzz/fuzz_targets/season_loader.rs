//! Any text as a season file: loading never panics, a season that loads gets a table, and a
//! season written back reads as the same season.
#![no_main]
use arbiter::league::{season::Season, standings::standings};
use arbiter::rules::load;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = load::parse_text("fuzz.yaml", text, arbiter::io::Format::Yaml) else {
        return;
    };
    let Ok(season) = Season::from_doc(&doc) else {
        return;
    };
    let rules = load::load("bloodbowl").expect("the built-in ruleset loads");
    let _ = standings(&rules, &season);
    let written = season.to_yaml();
    let again = load::parse_text("again.yaml", &written, arbiter::io::Format::Yaml)
        .expect("a written season parses");
    assert_eq!(
        Season::from_doc(&again).expect("a written season loads"),
        season
    );
});
