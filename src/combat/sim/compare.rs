//! Two rulesets on the same seeds: did the house rule change the outcomes?
use super::stats::chi_square;
use super::{simulate_with, SimOptions, SimReport};
use crate::combat::tactics::Tactic;
use crate::error::Result;
use crate::rules::model::Ruleset;
use serde::Serialize;

/// Two rulesets on the same seeds.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Comparison {
    pub base: SimReport,
    pub variant: SimReport,
    /// Variant minus base, in side a's win rate.
    pub difference: f64,
    /// Variant minus base, in side b's win rate.
    pub b_difference: f64,
    /// Pearson chi-square of the outcomes (a wins, b wins, neither) under both rulesets.
    pub chi2: f64,
    pub p_value: f64,
    /// p < 0.05: the outcomes differ significantly.
    pub significant: bool,
    pub verdict: String,
}

/// Run `opts` under `base` and `variant` on the same seeds and test whether the outcomes changed.
pub(crate) fn compare(
    base: &Ruleset,
    variant: &Ruleset,
    opts: &SimOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Comparison> {
    let b = simulate_with(base, opts, tactics, progress)?;
    let v = simulate_with(variant, opts, tactics, progress)?;
    let row = |r: &SimReport| [r.a.wins, r.b.wins, r.battles - r.a.wins - r.b.wins];
    let (chi2, p_value) = chi_square([row(&b), row(&v)]);
    let significant = p_value < 0.05;
    use crate::output::{p_value as p_text, percent};
    let names = b.side_names();
    let verdict = format!(
        "{} wins {} → {}, {} wins {} → {} ({} → {}): {} (chi-square {:.2}, {})",
        names[0],
        percent(b.a.win_rate),
        percent(v.a.win_rate),
        names[1],
        percent(b.b.win_rate),
        percent(v.b.win_rate),
        b.ruleset,
        v.ruleset,
        if significant {
            "a significant difference"
        } else {
            "no significant difference"
        },
        chi2,
        p_text(p_value)
    );
    Ok(Comparison {
        difference: v.a.win_rate - b.a.win_rate,
        b_difference: v.b.win_rate - b.b.win_rate,
        base: b,
        variant: v,
        chi2,
        p_value,
        significant,
        verdict,
    })
}
