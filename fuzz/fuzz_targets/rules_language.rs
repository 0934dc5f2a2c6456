//! Any text: the rules-language parser never panics, and whatever it accepts writes back
//! to text that reads as the same value (the lossless round trip).
#![no_main]
use arbiter::rules::{lang, load};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = load::parse_text("fuzz.rules", text, arbiter::io::Format::Rules) else {
        return;
    };
    let written = lang::write(&doc.value);
    let again = load::parse_text("again.rules", &written, arbiter::io::Format::Rules)
        .unwrap_or_else(|e| panic!("written text does not parse: {e}\n{written}"));
    assert_eq!(
        doc.value, again.value,
        "round trip changed the value:\n{written}"
    );
    let _ = load::ruleset_from_doc(&doc);
});
