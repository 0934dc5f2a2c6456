//! Formulas biased towards deep nesting: the first two bytes choose a run of `-`, `not `, `(`,
//! `^` or `if` (up to about a thousand) put before the rest of the input. Parsing, checking,
//! printing and evaluating never panic or overflow the stack; whatever parses evaluates the
//! same compiled and looked up, and prints to canonical text that parses back to itself.
#![no_main]
use arbiter::rules::formula::{canonical, parse, Formula};
use libfuzzer_sys::fuzz_target;

/// The formula text for fuzz input `data` (the same function as in tests/fuzz_regressions.rs).
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

fuzz_target!(|data: &[u8]| {
    let Some(text) = biased_text(data) else {
        return;
    };
    let Ok(f) = Formula::parse(&text) else { return };
    let names: Vec<&str> = f.variables().iter().map(|(n, _)| *n).collect();
    let _ = f.check(&names);
    let values: Vec<f64> = (0..names.len()).map(|i| i as f64 * 0.75 - 1.0).collect();
    let a = f.compile(&names).eval(&values);
    let b = f.eval_with(&|n| names.iter().position(|m| *m == n).map(|i| values[i]));
    assert!(
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        "compiled and looked-up evaluation differ"
    );
    let canon = canonical(f.node());
    let reparsed =
        parse(&canon).unwrap_or_else(|e| panic!("canonical `{canon}` does not parse: {e}"));
    assert_eq!(canonical(&reparsed), canon, "canonical text is not stable");
});
