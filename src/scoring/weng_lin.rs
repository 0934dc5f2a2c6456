//! Weng and Lin's Bayesian approximation (JMLR 12, 2011) for free-for-all tables, each player a
//! team of one, in the five models python `openskill` offers: Plackett–Luce, Bradley–Terry
//! and Thurstone–Mosteller over every pair ("full") or over the nearest places ("partial").
//! The model is ruleset data (`weng_lin.model`); τ (`dynamics`) is added by the rating loop
//! before a game, as openskill adds it at the start of `rate`.
use super::normal::{cdf, pdf};
use crate::rules::scoring::{WengLinModel, WengLinRules};

/// New (μ, σ) of every player of a table; `ranks` 1 = first, tied players share a rank.
pub(crate) fn rate(
    players: &[(f64, f64)],
    ranks: &[usize],
    rules: &WengLinRules,
) -> Vec<(f64, f64)> {
    // openskill rates the teams sorted by rank (stably): the partial models' neighbours and
    // the Plackett–Luce sums follow that order.
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| ranks[i]);
    let sorted: Vec<(f64, f64)> = order.iter().map(|&i| players[i]).collect();
    let sorted_ranks: Vec<usize> = order.iter().map(|&i| ranks[i]).collect();
    let steps = match rules.model {
        WengLinModel::PlackettLuce => plackett_luce(&sorted, &sorted_ranks, rules),
        WengLinModel::BradleyTerryFull => {
            pairwise(&sorted, &sorted_ranks, rules, None, bradley_terry)
        }
        WengLinModel::BradleyTerryPart => pairwise(
            &sorted,
            &sorted_ranks,
            rules,
            Some(rules.window),
            bradley_terry,
        ),
        WengLinModel::ThurstoneMostellerFull => {
            pairwise(&sorted, &sorted_ranks, rules, None, thurstone_mosteller)
        }
        WengLinModel::ThurstoneMostellerPart => pairwise(
            &sorted,
            &sorted_ranks,
            rules,
            Some(rules.window),
            thurstone_mosteller,
        ),
    };
    let mut out = vec![(0.0, 0.0); players.len()];
    for (k, &i) in order.iter().enumerate() {
        let (mu, sigma) = sorted[k];
        let (omega, delta) = steps[k];
        out[i] = (
            mu + omega,
            sigma * (1.0 - delta).max(rules.tolerance).sqrt(),
        );
    }
    out
}

/// The chance that `a` (μ, σ) finishes above `b`: logistic for the Plackett–Luce and
/// Bradley–Terry models, normal for Thurstone–Mosteller, over c = √(σa² + σb² + 2β²).
pub(crate) fn expected(a: (f64, f64), b: (f64, f64), rules: &WengLinRules) -> f64 {
    let c = (a.1 * a.1 + b.1 * b.1 + 2.0 * rules.beta * rules.beta).sqrt();
    match rules.model {
        WengLinModel::ThurstoneMostellerFull | WengLinModel::ThurstoneMostellerPart => {
            cdf((a.0 - b.0) / c)
        }
        _ => 1.0 / (1.0 + ((b.0 - a.0) / c).exp()),
    }
}

/// Algorithm 4: each player's (Ω, Δ) against everyone placed at or above them.
fn plackett_luce(players: &[(f64, f64)], ranks: &[usize], rules: &WengLinRules) -> Vec<(f64, f64)> {
    let beta2 = rules.beta * rules.beta;
    let c = players
        .iter()
        .map(|p| p.1 * p.1 + beta2)
        .sum::<f64>()
        .sqrt();
    // e^(μ/c) relative to the best μ: the ratios below are the same, and nothing overflows.
    let top = players
        .iter()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = players.iter().map(|p| ((p.0 - top) / c).exp()).collect();
    let n = players.len();
    // S_q: the sum over the players placed at q's rank or below; A_q: players sharing q's rank.
    let sums: Vec<f64> = (0..n)
        .map(|q| (0..n).filter(|&i| ranks[i] >= ranks[q]).map(|i| e[i]).sum())
        .collect();
    let shared: Vec<f64> = (0..n)
        .map(|q| ranks.iter().filter(|&&r| r == ranks[q]).count() as f64)
        .collect();
    (0..n)
        .map(|i| {
            let (mut omega, mut delta) = (0.0, 0.0);
            for q in (0..n).filter(|&q| ranks[q] <= ranks[i]) {
                let p = e[i] / sums[q];
                delta += p * (1.0 - p) / shared[q];
                omega += if q == i { 1.0 - p } else { -p } / shared[q];
            }
            let s2 = players[i].1 * players[i].1;
            let gamma = players[i].1 / c;
            (omega * s2 / c, delta * s2 / (c * c) * gamma)
        })
        .collect()
}

/// One pair's contribution to player i's (Ω, Δ): i's (μ, σ²), q's, whether q finished
/// below (1), level (½) or above (0), and the system's parameters; `c` is the pair's spread.
type PairTerm =
    fn(i: (f64, f64), q: (f64, f64), s: f64, c: f64, rules: &WengLinRules) -> (f64, f64);

/// The pairwise models: each player against every other (`window` None) or against the
/// `window` places either side in rank order, averaged over those pairs.
fn pairwise(
    players: &[(f64, f64)],
    ranks: &[usize],
    rules: &WengLinRules,
    window: Option<usize>,
    term: PairTerm,
) -> Vec<(f64, f64)> {
    let n = players.len();
    let beta2 = rules.beta * rules.beta;
    (0..n)
        .map(|i| {
            let (from, to) = match window {
                Some(w) => (i.saturating_sub(w), (i + w + 1).min(n)),
                None => (0, n),
            };
            let (mut omega, mut delta, mut pairs) = (0.0, 0.0, 0usize);
            let mi = (players[i].0, players[i].1 * players[i].1);
            for q in (from..to).filter(|&q| q != i) {
                let mq = (players[q].0, players[q].1 * players[q].1);
                let s = match ranks[q].cmp(&ranks[i]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                let spread = (mi.1 + mq.1 + 2.0 * beta2).sqrt();
                // openskill's partial Thurstone–Mosteller doubles the pair's spread.
                let c = match (window, rules.model) {
                    (Some(_), WengLinModel::ThurstoneMostellerPart) => 2.0 * spread,
                    _ => spread,
                };
                let (o, d) = term(mi, mq, s, c, rules);
                omega += o;
                delta += d;
                pairs += 1;
            }
            match (window, pairs) {
                (Some(_), 0) => (0.0, 0.0),
                (Some(_), k) => (omega / k as f64, delta / k as f64),
                (None, _) => (omega, delta),
            }
        })
        .collect()
}

fn bradley_terry(i: (f64, f64), q: (f64, f64), s: f64, c: f64, _: &WengLinRules) -> (f64, f64) {
    let p = 1.0 / (1.0 + ((q.0 - i.0) / c).exp());
    let s2c = i.1 / c;
    let gamma = i.1.sqrt() / c;
    (s2c * (s - p), gamma * s2c / c * p * (1.0 - p))
}

fn thurstone_mosteller(
    i: (f64, f64),
    q: (f64, f64),
    s: f64,
    c: f64,
    rules: &WengLinRules,
) -> (f64, f64) {
    let d = (i.0 - q.0) / c;
    let t = rules.draw_margin / c;
    let s2c = i.1 / c;
    let gamma = i.1.sqrt() / c;
    if s == 1.0 {
        (s2c * v(d, t), gamma * s2c / c * w(d, t))
    } else if s == 0.0 {
        (-s2c * v(-d, t), gamma * s2c / c * w(-d, t))
    } else {
        (s2c * vt(d, t), gamma * s2c / c * wt(d, t))
    }
}

// Weng and Lin's V, W (a win by more than t) and Ṽ, W̃ (a draw within t), with openskill's
// guards where the normal tail vanishes.

fn v(x: f64, t: f64) -> f64 {
    let xt = x - t;
    let denominator = cdf(xt);
    if denominator < f64::EPSILON {
        -xt
    } else {
        pdf(xt) / denominator
    }
}

fn w(x: f64, t: f64) -> f64 {
    let xt = x - t;
    if cdf(xt) < f64::EPSILON {
        return if x < 0.0 { 1.0 } else { 0.0 };
    }
    v(x, t) * (v(x, t) + xt)
}

fn vt(x: f64, t: f64) -> f64 {
    let xx = x.abs();
    let b = cdf(t - xx) - cdf(-t - xx);
    if b < 1e-5 {
        return if x < 0.0 { -x - t } else { -x + t };
    }
    let a = pdf(-t - xx) - pdf(t - xx);
    (if x < 0.0 { -a } else { a }) / b
}

fn wt(x: f64, t: f64) -> f64 {
    let xx = x.abs();
    let b = cdf(t - xx) - cdf(-t - xx);
    if b < f64::EPSILON {
        return 1.0;
    }
    ((t - xx) * pdf(t - xx) + (t + xx) * pdf(-t - xx)) / b + vt(x, t) * vt(x, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Case {
        name: String,
        model: WengLinModel,
        tau: f64,
        players: Vec<(f64, f64)>,
        ranks: Vec<usize>,
        after: Vec<(f64, f64)>,
    }

    #[derive(Deserialize)]
    struct Reference {
        cases: Vec<Case>,
    }

    fn rules(model: WengLinModel, tau: f64) -> WengLinRules {
        WengLinRules {
            initial: 25.0,
            uncertainty: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            // openskill's κ
            tolerance: 1e-4,
            dynamics: tau,
            model,
            window: 4,
            draw_margin: 0.1,
            range: None,
            conservative: None,
        }
    }

    /// tests/data/openskill/make_reference.py made reference.json (python openskill 6.2.0):
    /// 60 tables, every model, with and without τ.
    #[test]
    fn every_model_matches_openskill() {
        let reference: Reference =
            serde_json::from_str(include_str!("../../tests/data/openskill/reference.json"))
                .unwrap();
        assert_eq!(reference.cases.len(), 60);
        for case in &reference.cases {
            let rules = rules(case.model, case.tau);
            // τ is added before the game (the rating loop's `grow_sigma`), as openskill does.
            let before: Vec<(f64, f64)> = case
                .players
                .iter()
                .map(|&(mu, sigma)| (mu, (sigma * sigma + case.tau * case.tau).sqrt()))
                .collect();
            let after = rate(&before, &case.ranks, &rules);
            for (k, (got, want)) in after.iter().zip(&case.after).enumerate() {
                assert!(
                    (got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9,
                    "{:?} τ {} {}: player {k}: {got:?}, openskill {want:?}",
                    case.model,
                    case.tau,
                    case.name
                );
            }
        }
    }

    #[test]
    fn the_models_disagree_where_they_should() {
        // Plackett–Luce and Bradley–Terry give different updates for one 4-player table: the
        // model is a real choice, not a label.
        let table = [(25.0, 25.0 / 3.0); 4];
        let ranks = [1, 2, 3, 4];
        let pl = rate(&table, &ranks, &rules(WengLinModel::PlackettLuce, 0.0));
        let bt = rate(&table, &ranks, &rules(WengLinModel::BradleyTerryFull, 0.0));
        assert!((pl[0].0 - bt[0].0).abs() > 0.5, "{pl:?} {bt:?}");
    }
}
