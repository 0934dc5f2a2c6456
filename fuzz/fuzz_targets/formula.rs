//! Any text: the formula parser and evaluator never panic; canonical text is stable.
#![no_main]
use arbiter::rules::formula::{canonical, parse, Formula};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(f) = Formula::parse(text) else { return };
    let canon = canonical(f.node());
    let reparsed =
        parse(&canon).unwrap_or_else(|e| panic!("canonical `{canon}` does not parse: {e}"));
    assert_eq!(canonical(&reparsed), canon, "canonical text is not stable");
    let names: Vec<&str> = f.variables().iter().map(|(n, _)| *n).collect();
    let _ = f.check(&names);
    let compiled = f.compile(&names);
    let values: Vec<f64> = (0..names.len()).map(|i| i as f64 - 1.5).collect();
    let a = compiled.eval(&values);
    let b = f.eval_with(&|n| names.iter().position(|m| *m == n).map(|i| values[i]));
    assert!(
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        "compiled and looked-up evaluation differ"
    );
});
