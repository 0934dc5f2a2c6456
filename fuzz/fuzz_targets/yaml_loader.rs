//! Any text: the YAML loader and the model never panic, and a loaded tree converts to the
//! rules language and back unchanged.
#![no_main]
use arbiter::rules::{lang, load};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = load::parse_text("fuzz.yaml", text, arbiter::io::Format::Yaml) else {
        return;
    };
    if let Ok(ruleset) = load::ruleset_from_doc(&doc) {
        let _ = serde_json::to_string(&ruleset).expect("a ruleset serialises");
    }
    if doc.value.is_object() {
        let written = lang::write(&doc.value);
        let again = load::parse_text("again.rules", &written, arbiter::io::Format::Rules)
            .unwrap_or_else(|e| panic!("converted text does not parse: {e}\n{written}"));
        assert_eq!(
            doc.value, again.value,
            "conversion changed the value:\n{written}"
        );
    }
});
