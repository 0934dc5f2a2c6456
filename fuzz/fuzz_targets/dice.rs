//! Any text: dice notation never panics; accepted dice have a distribution that sums to 1
//! between their min and max, or a clear refusal when too large.
#![no_main]
use arbiter::rules::dice::{parse_pair, Dice};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_pair(text);
    let Ok(dice) = Dice::parse(text) else { return };
    assert_eq!(
        Dice::parse(&dice.to_string()).as_ref(),
        Ok(&dice),
        "display does not read back"
    );
    if let Ok((low, probs)) = dice.distribution() {
        assert_eq!(low, dice.min());
        assert_eq!(low + probs.len() as i64 - 1, dice.max());
        let total: f64 = probs.iter().sum();
        assert!((total - 1.0).abs() < 1e-6, "probabilities sum to {total}");
    }
});
