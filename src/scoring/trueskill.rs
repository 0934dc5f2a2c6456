//! TrueSkill (Herbrich, Minka, Graepel 2006) as its factor graph, for any number of teams and
//! players: skills → performances → team performances → differences of neighbours in the
//! finishing order → a win or draw truncation on each difference. Messages are passed in the
//! schedule of the reference implementation (python `trueskill`): down the tree once, then
//! sweeps along the chain of differences until no message moves, then back up.
//!
//! The skillratings crate's version returns NaN from about 111 players on (its tail
//! functions underflow); here the truncation corrections are computed in scaled form, and a
//! game whose numbers still break is refused, never approximated.
use super::normal;
use crate::rules::scoring::TrueSkillRules;

/// A Gaussian in natural parameters: precision π = 1/σ² and precision-mean τ = π·μ.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Gauss {
    pi: f64,
    tau: f64,
}

impl Gauss {
    fn new(mu: f64, sigma: f64) -> Gauss {
        let pi = 1.0 / (sigma * sigma);
        Gauss { pi, tau: pi * mu }
    }
    fn mu(self) -> f64 {
        if self.pi == 0.0 {
            0.0
        } else {
            self.tau / self.pi
        }
    }
    fn times(self, o: Gauss) -> Gauss {
        Gauss {
            pi: self.pi + o.pi,
            tau: self.tau + o.tau,
        }
    }
    fn over(self, o: Gauss) -> Gauss {
        Gauss {
            pi: self.pi - o.pi,
            tau: self.tau - o.tau,
        }
    }
}

/// How far a variable moved, in its own units: the relative change of its precision, and
/// the change of its mean in standard deviations. (python `trueskill` measures
/// max(|Δτ|, √|Δπ|), which rounding alone keeps near 1e-4 once a truncated difference is
/// very precise.)
fn moved(old: Gauss, new: Gauss) -> f64 {
    if !(old.pi > 0.0 && new.pi > 0.0) || old.pi.is_infinite() || new.pi.is_infinite() {
        return if old == new { 0.0 } else { f64::INFINITY };
    }
    let precision = (old.pi - new.pi).abs() / old.pi.max(new.pi);
    let mean = (old.mu() - new.mu()).abs() * old.pi.min(new.pi).sqrt();
    precision.max(mean)
}

/// A variable's marginal and its message from one factor: the factor sends a new message.
fn send_message(value: &mut Gauss, message: &mut Gauss, new: Gauss) -> f64 {
    let old = *message;
    *message = new;
    let next = value.over(old).times(new);
    let d = moved(*value, next);
    *value = next;
    d
}

/// The factor sets the variable's marginal outright (a prior, a truncation).
fn set_value(value: &mut Gauss, message: &mut Gauss, new: Gauss) -> f64 {
    *message = new.times(*message).over(*value);
    let d = moved(*value, new);
    *value = new;
    d
}

/// The message of a weighted sum: Σ cᵢ·xᵢ of independent Gaussians (each the variable's
/// marginal over the message it got from this factor).
fn weighted_sum(terms: impl Iterator<Item = (Gauss, f64)>) -> Gauss {
    let mut mu = 0.0;
    let mut variance = 0.0;
    for (g, c) in terms {
        mu += c * g.mu();
        if variance != f64::INFINITY {
            variance += c * c / g.pi;
        }
    }
    let pi = 1.0 / variance;
    Gauss { pi, tau: pi * mu }
}

/// Variables and messages of one game's graph, in flat arrays.
struct Graph {
    beta2: f64,
    /// Skills: marginal, message from the prior, message from the likelihood.
    skill: Vec<Gauss>,
    skill_prior: Vec<Gauss>,
    skill_like: Vec<Gauss>,
    /// Performances: marginal, message from the likelihood, from the team sum.
    perf: Vec<Gauss>,
    perf_like: Vec<Gauss>,
    perf_sum: Vec<Gauss>,
    /// Team performances: marginal, from the team sum, from the difference on the left
    /// (this team second) and on the right (this team first).
    team: Vec<Gauss>,
    team_sum: Vec<Gauss>,
    team_left: Vec<Gauss>,
    team_right: Vec<Gauss>,
    /// Differences of neighbours: marginal, from the difference factor, from the truncation.
    diff: Vec<Gauss>,
    diff_sum: Vec<Gauss>,
    diff_trunc: Vec<Gauss>,
    /// Each team's players, as a range of the flat player arrays.
    members: Vec<std::ops::Range<usize>>,
}

impl Graph {
    fn likelihood_down(&mut self, i: usize) {
        let m = self.skill[i].over(self.skill_like[i]);
        let a = 1.0 / (1.0 + self.beta2 * m.pi);
        let new = Gauss {
            pi: a * m.pi,
            tau: a * m.tau,
        };
        send_message(&mut self.perf[i], &mut self.perf_like[i], new);
    }

    fn likelihood_up(&mut self, i: usize) {
        let m = self.perf[i].over(self.perf_like[i]);
        let a = 1.0 / (1.0 + self.beta2 * m.pi);
        let new = Gauss {
            pi: a * m.pi,
            tau: a * m.tau,
        };
        send_message(&mut self.skill[i], &mut self.skill_like[i], new);
    }

    fn team_down(&mut self, t: usize) {
        let r = self.members[t].clone();
        let new = weighted_sum(r.map(|i| (self.perf[i].over(self.perf_sum[i]), 1.0)));
        send_message(&mut self.team[t], &mut self.team_sum[t], new);
    }

    /// Player `i` of team `t`: the team's performance less the others'.
    fn team_up(&mut self, t: usize, i: usize) {
        let r = self.members[t].clone();
        let total = self.team[t].over(self.team_sum[t]);
        let others = r
            .filter(|&j| j != i)
            .map(|j| (self.perf[j].over(self.perf_sum[j]), -1.0));
        let new = weighted_sum(std::iter::once((total, 1.0)).chain(others));
        send_message(&mut self.perf[i], &mut self.perf_sum[i], new);
    }

    /// Difference `k` = team k − team k+1.
    fn diff_down(&mut self, k: usize) -> f64 {
        let a = self.team[k].over(self.team_right[k]);
        let b = self.team[k + 1].over(self.team_left[k + 1]);
        let new = weighted_sum([(a, 1.0), (b, -1.0)].into_iter());
        send_message(&mut self.diff[k], &mut self.diff_sum[k], new)
    }

    /// Back from difference `k` to its first team: team k = difference + team k+1.
    fn diff_up_first(&mut self, k: usize) -> f64 {
        let d = self.diff[k].over(self.diff_sum[k]);
        let b = self.team[k + 1].over(self.team_left[k + 1]);
        let new = weighted_sum([(d, 1.0), (b, 1.0)].into_iter());
        send_message(&mut self.team[k], &mut self.team_right[k], new)
    }

    /// Back from difference `k` to its second team: team k+1 = team k − difference.
    fn diff_up_second(&mut self, k: usize) -> f64 {
        let a = self.team[k].over(self.team_right[k]);
        let d = self.diff[k].over(self.diff_sum[k]);
        let new = weighted_sum([(a, 1.0), (d, -1.0)].into_iter());
        send_message(&mut self.team[k + 1], &mut self.team_left[k + 1], new)
    }

    /// The truncation of difference `k`: a win by more than `margin`, or a draw within it.
    fn truncate(&mut self, k: usize, margin: f64, draw: bool) -> Result<f64, String> {
        let m = self.diff[k].over(self.diff_trunc[k]);
        let root = m.pi.sqrt();
        let (x, e) = (m.tau / root, margin * root);
        let (v, w) = if draw {
            (normal::v_draw(x, e), normal::w_draw(x, e))
        } else {
            (normal::v_win(x, e), normal::w_win(x, e))
        };
        if !(w > 0.0 && w < 1.0 && v.is_finite()) {
            return Err(format!(
                "TrueSkill cannot rate this game: the result between places {} and {} is an upset beyond what double precision can hold",
                k + 1,
                k + 2
            ));
        }
        let new = Gauss {
            pi: m.pi / (1.0 - w),
            tau: (m.tau + root * v) / (1.0 - w),
        };
        Ok(set_value(&mut self.diff[k], &mut self.diff_trunc[k], new))
    }
}

/// Sweeps along the chain stop when no difference moves by more than this (see `moved`).
const SETTLED: f64 = 1e-8;
/// A cap on the sweeps: the chain settles in a handful even at 256 places.
const MOST_SWEEPS: usize = 100;

/// New (μ, σ) of every player. `teams` hold each team's players' (μ, σ); `ranks` are the
/// teams' places (lower is better, equal is a draw), in any order.
pub(crate) fn rate(
    teams: &[Vec<(f64, f64)>],
    ranks: &[usize],
    rules: &TrueSkillRules,
) -> Result<Vec<Vec<(f64, f64)>>, String> {
    assert_eq!(teams.len(), ranks.len(), "a rank per team");
    if teams.len() < 2 || teams.iter().any(|t| t.is_empty()) {
        return Err("TrueSkill rates two teams or more, each with a player".into());
    }
    // Teams in finishing order (a stable sort keeps tied teams in their given order).
    let mut order: Vec<usize> = (0..teams.len()).collect();
    order.sort_by_key(|&t| ranks[t]);
    let mut members = Vec::with_capacity(teams.len());
    let mut priors = Vec::new();
    for &t in &order {
        let from = priors.len();
        priors.extend(teams[t].iter().copied());
        members.push(from..priors.len());
    }
    let (n, nt) = (priors.len(), teams.len());
    let zero = |k| vec![Gauss::default(); k];
    let mut g = Graph {
        beta2: rules.beta * rules.beta,
        skill: zero(n),
        skill_prior: zero(n),
        skill_like: zero(n),
        perf: zero(n),
        perf_like: zero(n),
        perf_sum: zero(n),
        team: zero(nt),
        team_sum: zero(nt),
        team_left: zero(nt),
        team_right: zero(nt),
        diff: zero(nt - 1),
        diff_sum: zero(nt - 1),
        diff_trunc: zero(nt - 1),
        members,
    };
    // Down: priors (σ widened by the dynamics τ), performances, team sums.
    for (i, &(mu, sigma)) in priors.iter().enumerate() {
        let prior = Gauss::new(mu, (sigma * sigma + rules.dynamics * rules.dynamics).sqrt());
        set_value(&mut g.skill[i], &mut g.skill_prior[i], prior);
    }
    for i in 0..n {
        g.likelihood_down(i);
    }
    for t in 0..nt {
        g.team_down(t);
    }
    // The truncations: each neighbouring pair's draw margin from its player count.
    let draw_margin = |players: usize| {
        normal::ppf((rules.draw_probability + 1.0) / 2.0) * (players as f64).sqrt() * rules.beta
    };
    let truncations: Vec<(f64, bool)> = (0..nt - 1)
        .map(|k| {
            let players = g.members[k].len() + g.members[k + 1].len();
            (draw_margin(players), ranks[order[k]] == ranks[order[k + 1]])
        })
        .collect();
    let diffs = nt - 1;
    let mut settled = false;
    for _ in 0..MOST_SWEEPS {
        let mut delta: f64 = 0.0;
        if diffs == 1 {
            g.diff_down(0);
            delta = g.truncate(0, truncations[0].0, truncations[0].1)?;
        } else {
            // Settled when the teams' performances stop moving: a very precise truncated
            // difference carries rounding noise in its precision that reaches no player.
            for (k, &(margin, draw)) in truncations.iter().enumerate().take(diffs - 1) {
                g.diff_down(k);
                g.truncate(k, margin, draw)?;
                delta = delta.max(g.diff_up_second(k));
            }
            for (k, &(margin, draw)) in truncations.iter().enumerate().skip(1).rev() {
                g.diff_down(k);
                g.truncate(k, margin, draw)?;
                delta = delta.max(g.diff_up_first(k));
            }
        }
        if delta <= SETTLED {
            settled = true;
            break;
        }
    }
    if !settled {
        return Err(format!(
            "TrueSkill's messages did not settle in {MOST_SWEEPS} sweeps on this game"
        ));
    }
    g.diff_up_first(0);
    g.diff_up_second(diffs - 1);
    for t in 0..nt {
        for i in g.members[t].clone() {
            g.team_up(t, i);
        }
    }
    for i in 0..n {
        g.likelihood_up(i);
    }
    // Back to the caller's order.
    let mut out: Vec<Vec<(f64, f64)>> = teams.iter().map(|t| Vec::with_capacity(t.len())).collect();
    for (pos, &t) in order.iter().enumerate() {
        for i in g.members[pos].clone() {
            let s = g.skill[i];
            let after = (s.mu(), (1.0 / s.pi).sqrt());
            if !(after.0.is_finite() && after.1.is_finite() && after.1 > 0.0) {
                return Err("TrueSkill's update of this game is not a finite number".into());
            }
            out[t].push(after);
        }
    }
    Ok(out)
}

/// The chance that `a` (μ, σ) finishes above `b`: P(perf_a − perf_b > 0), the difference's
/// variance 2β² + σa² + σb².
pub(crate) fn expected(a: (f64, f64), b: (f64, f64), rules: &TrueSkillRules) -> f64 {
    let spread = (2.0 * rules.beta * rules.beta + a.1 * a.1 + b.1 * b.1).sqrt();
    normal::cdf((a.0 - b.0) / spread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Case {
        name: String,
        teams: Vec<Vec<(f64, f64)>>,
        ranks: Vec<usize>,
        after: Vec<Vec<(f64, f64)>>,
    }

    #[derive(Deserialize)]
    struct Reference {
        cases: Vec<Case>,
    }

    fn defaults() -> TrueSkillRules {
        TrueSkillRules {
            initial: 25.0,
            uncertainty: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            draw_probability: 0.1,
            dynamics: 25.0 / 300.0,
            range: None,
            conservative: Some(3.0),
        }
    }

    /// python `trueskill` 0.4.5 (mpmath backend) on 2, 8, 111 and 256 players and on teams:
    /// tests/data/trueskill/make_reference.py made reference.json.
    #[test]
    fn agrees_with_python_trueskill_at_every_table_size() {
        let reference: Reference =
            serde_json::from_str(include_str!("../../tests/data/trueskill/reference.json"))
                .expect("reference values");
        let sizes: Vec<usize> = reference
            .cases
            .iter()
            .map(|c| c.teams.iter().map(Vec::len).sum())
            .collect();
        for n in [2, 8, 111, 256] {
            assert!(sizes.contains(&n), "a case of {n} players");
        }
        for case in &reference.cases {
            let got = rate(&case.teams, &case.ranks, &defaults())
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            for (t, (gt, wt)) in got.iter().zip(&case.after).enumerate() {
                for (p, (g, w)) in gt.iter().zip(wt).enumerate() {
                    assert!(
                        (g.0 - w.0).abs() < 1e-9 && (g.1 - w.1).abs() < 1e-9,
                        "{} team {t} player {p}: {g:?} vs python {w:?}",
                        case.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_winner_of_111_newcomers_gains_what_python_gives() {
        // The case the crate got wrong: +4.4 for the winner and 0 for places 2–110.
        let teams = vec![vec![(25.0, 25.0 / 3.0)]; 111];
        let ranks: Vec<usize> = (0..111).collect();
        let after = rate(&teams, &ranks, &defaults()).unwrap();
        assert!((after[0][0].0 - 65.110_963_710_348_12).abs() < 1e-9);
        assert!(after[1][0].0 > after[2][0].0 && after[2][0].0 > 25.0);
    }

    #[test]
    fn an_upset_far_beyond_the_tables_is_rated_not_dropped() {
        // A 1-σ player beating a 90-μ one: Φ of the gap is 0 in doubles.
        let teams = vec![vec![(0.0, 1.0)], vec![(95.0, 1.0)]];
        let after = rate(&teams, &[0, 1], &defaults()).unwrap();
        assert!(after[0][0].0 > 0.0 && after[1][0].0 < 95.0, "{after:?}");
    }

    #[test]
    fn expected_matches_the_closed_form() {
        let r = defaults();
        assert_eq!(expected((25.0, 3.0), (25.0, 5.0), &r), 0.5);
        let p = expected((30.0, 2.0), (25.0, 2.0), &r);
        // Φ(5 / √(2·(25/6)² + 8)) = Φ(0.7636…)
        let z: f64 = 5.0 / (2.0 * (25.0f64 / 6.0).powi(2) + 8.0).sqrt();
        assert!((p - normal::cdf(z)).abs() < 1e-15 && p > 0.77 && p < 0.78);
    }
}
