//! The value of a parameter at which a matchup comes out at a target share (even, by default):
//! a bracketing search (bisection between the ends of the range, on the assumption that the
//! share moves one way with the value) with sequential sampling at each candidate: rounds of
//! battles until the 95% interval of the share excludes the target (the search moves on) or is
//! within ±precision (the candidate is as close as this precision can tell), or until the
//! battle ceiling of a candidate. Every candidate draws the same rounds of seeds.
use super::parameter::{number, Parameter};
use super::sampling::{self, half_width, Job, Share, ROUND};
use crate::combat::sim::MAX_BATTLES;
use crate::combat::{sim::SimOptions, tactics::Tactic};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The 95% normal quantile (for the fixed-size comparison).
const Z95: f64 = 1.959_963_984_540_054;

/// What a script's options map (or the command line) may set.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BalanceOptions {
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// The share of the decided battles side a should win.
    pub target: f64,
    /// ± this on the share is close enough.
    pub precision: f64,
    pub seed: u64,
    /// Most battles spent on one candidate value.
    pub max_battles: u64,
}

impl Default for BalanceOptions {
    fn default() -> BalanceOptions {
        BalanceOptions {
            min: None,
            max: None,
            target: 0.5,
            precision: 0.03,
            seed: 1,
            max_battles: 20_000,
        }
    }
}

/// What sampling a candidate found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// The share's interval lies above the target.
    Above,
    /// ... below it.
    Below,
    /// The interval holds the target and is within ±precision.
    Close,
    /// The candidate's battle ceiling came first.
    Ceiling,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Tried {
    pub value: Value,
    pub share: f64,
    pub ci95: [f64; 2],
    pub battles: u64,
    /// Of them, battles neither ship won (escaped, disengaged or unfinished): the share
    /// counts only the others.
    pub undecided: u64,
    pub(crate) verdict: Verdict,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BalanceReport {
    pub parameter: String,
    pub a: String,
    pub b: String,
    pub target: f64,
    pub precision: f64,
    pub value: Value,
    pub share: f64,
    pub ci95: [f64; 2],
    /// Battles at the answer that neither ship won (escaped, disengaged or unfinished), and
    /// whether the answer's interval holds the target (when no value tried has one that
    /// does, the share crosses the target between the answer and a neighbour tried).
    pub undecided: u64,
    pub answer_battles: u64,
    pub holds_target: bool,
    /// Battles spent over the whole search.
    pub battles: u64,
    /// Whether the range's ends lie on either side of the target.
    pub bracketed: bool,
    pub tried: Vec<Tried>,
    /// What a fixed-size search of the same precision would have spent on the same values.
    pub fixed_size_battles: u64,
    pub seed: u64,
}

/// A candidate sampled so far (the search core works on numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sample {
    pub value: f64,
    pub share: Share,
    pub battles: u64,
    pub verdict: Verdict,
}

/// The search's settings, checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Search {
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    pub target: f64,
    pub precision: f64,
    /// Most battles for one candidate.
    pub ceiling: u64,
}

impl Search {
    /// Sample one value: rounds until a verdict. `round(value, k)` fights round k.
    fn sample(
        &self,
        value: f64,
        round: &mut dyn FnMut(f64, u64) -> Result<(Share, u64)>,
    ) -> Result<Sample> {
        let (mut share, mut battles) = (Share::default(), 0u64);
        for k in 0.. {
            let (s, n) = round(value, k)?;
            share = share.plus(s);
            battles += n;
            let ci = share.ci95();
            let verdict = if share.decided > 0 && ci[0] > self.target {
                Some(Verdict::Above)
            } else if share.decided > 0 && ci[1] < self.target {
                Some(Verdict::Below)
            } else if share.decided > 0 && half_width(share.value(), ci) <= self.precision {
                Some(Verdict::Close)
            } else if battles >= self.ceiling || n == 0 {
                Some(Verdict::Ceiling)
            } else {
                None
            };
            if let Some(verdict) = verdict {
                return Ok(Sample {
                    value,
                    share,
                    battles,
                    verdict,
                });
            }
        }
        unreachable!("the loop returns")
    }

    /// Bisect for the target; every sample in the order tried, and the index of the answer.
    pub(crate) fn run(
        &self,
        round: &mut dyn FnMut(f64, u64) -> Result<(Share, u64)>,
    ) -> Result<(Vec<Sample>, usize, bool)> {
        let mut tried = vec![self.sample(self.lo, round)?, self.sample(self.hi, round)?];
        let decided = |s: &Sample| matches!(s.verdict, Verdict::Above | Verdict::Below);
        let (lo_s, hi_s) = (tried[0], tried[1]);
        let bracketed = !(decided(&lo_s) && decided(&hi_s) && lo_s.verdict == hi_s.verdict);
        if bracketed && decided(&lo_s) && decided(&hi_s) {
            let (mut lo, mut hi) = (self.lo, self.hi);
            let resolution = (self.hi - self.lo) / 1000.0;
            loop {
                let mid = if self.integer {
                    if hi - lo <= 1.0 {
                        break;
                    }
                    ((lo + hi) / 2.0).floor()
                } else {
                    if hi - lo <= resolution {
                        break;
                    }
                    (lo + hi) / 2.0
                };
                let s = self.sample(mid, round)?;
                tried.push(s);
                if !decided(&s) {
                    break; // as close as this precision tells (or the ceiling came first)
                }
                if s.verdict == lo_s.verdict {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        // The answer: a candidate the sampling could not tell from the target, else the one
        // whose share is nearest it.
        let miss = |s: &Sample| (s.share.value() - self.target).abs();
        let best = (0..tried.len())
            .min_by(|&i, &j| {
                let key = |s: &Sample| (decided(s), miss(s));
                let (a, b) = (key(&tried[i]), key(&tried[j]));
                a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
            })
            .expect("two samples at least");
        Ok((tried, best, bracketed))
    }
}

/// Find the value of `parameter` at which `a` wins the target share of the decided battles
/// against `b`.
pub fn balance(
    rules: &Ruleset,
    a: &str,
    b: &str,
    parameter: &str,
    o: &BalanceOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<BalanceReport> {
    let p = Parameter::new(rules, parameter)?;
    let search = settings(&p, o)?;
    let base = SimOptions::new(a, b, ROUND, o.seed);
    // Check the ends (and the ships) before any battle: a value the model refuses is the
    // user's to fix, not a sample.
    let mut cache: Option<(f64, Ruleset)> = None;
    for end in [search.lo, search.hi] {
        let r = p.apply(rules, &number(end)).map_err(|e| {
            Error::options(
                &["min", "max"],
                format!(
                    "{} (give `min` and `max` inside the values the ruleset allows)",
                    e.unplaced_message()
                ),
            )
            .with_place(e.place().clone())
        })?;
        crate::combat::context::Context::new(&r)?.class(&r, a)?;
        crate::combat::context::Context::new(&r)?.class(&r, b)?;
        // A candidate may take its ceiling of battles: at the longer of the ends' limits.
        crate::combat::sim::check_battle_turns(
            "a candidate's ",
            o.max_battles,
            base.turn_limit(&r),
        )?;
    }
    let mut round = |value: f64, k: u64| -> Result<(Share, u64)> {
        if cache.as_ref().map(|c| c.0) != Some(value) {
            cache = Some((value, p.apply(rules, &number(value))?));
        }
        let r = &cache.as_ref().expect("just set").1;
        let jobs = Job::range(r, &base, (k * ROUND, (k + 1) * ROUND));
        let round =
            sampling::merge(sampling::run(&jobs, tactics, progress)?).expect("a round has batches");
        Ok((Share::of(&round), round.battles()))
    };
    let (samples, best, bracketed) = search.run(&mut round)?;
    Ok(report(&p, a, b, o, &samples, best, bracketed))
}

fn report(
    p: &Parameter,
    a: &str,
    b: &str,
    o: &BalanceOptions,
    samples: &[Sample],
    best: usize,
    bracketed: bool,
) -> BalanceReport {
    let tried: Vec<Tried> = samples
        .iter()
        .map(|s| Tried {
            value: number(s.value),
            share: s.share.value(),
            ci95: s.share.ci95(),
            battles: s.battles,
            undecided: s.battles - s.share.decided,
            verdict: s.verdict,
        })
        .collect();
    let answer = &tried[best];
    let holds_target = answer.ci95[0] <= o.target && o.target <= answer.ci95[1];
    let battles: u64 = samples.iter().map(|s| s.battles).sum();
    let decided: u64 = samples.iter().map(|s| s.share.decided).sum();
    BalanceReport {
        parameter: p.shown.clone(),
        a: a.to_string(),
        b: b.to_string(),
        target: o.target,
        precision: o.precision,
        value: tried[best].value.clone(),
        share: tried[best].share,
        ci95: tried[best].ci95,
        undecided: answer.undecided,
        answer_battles: answer.battles,
        holds_target,
        battles,
        bracketed,
        fixed_size_battles: fixed_size(o.precision, decided, battles) * samples.len() as u64,
        tried,
        seed: o.seed,
    }
}

/// Battles a fixed-size sample needs for a ±precision interval at the least favourable share
/// (one half), given the share of battles that are decided.
pub(crate) fn fixed_size(precision: f64, decided: u64, battles: u64) -> u64 {
    let decided_needed = (Z95 * Z95 * 0.25 / (precision * precision)).ceil();
    let fraction = if battles == 0 || decided == 0 {
        1.0
    } else {
        decided as f64 / battles as f64
    };
    (decided_needed / fraction).ceil() as u64
}

/// The range and settings, checked: the range defaults to 0 ..= twice the value now.
fn settings(p: &Parameter, o: &BalanceOptions) -> Result<Search> {
    let bad = |what: &str, m: String| Err(Error::out_of_range(what, m));
    if !(o.target > 0.0 && o.target < 1.0) {
        return bad(
            "target",
            format!("the target share is between 0 and 1, not {}", o.target),
        );
    }
    if !(o.precision > 0.0 && o.precision <= 0.5) {
        return bad(
            "precision",
            format!(
                "the precision is above 0 and at most 0.5, not {}",
                o.precision
            ),
        );
    }
    if o.max_battles < ROUND || o.max_battles > MAX_BATTLES {
        return bad(
            "max_battles",
            format!(
                "a candidate's battles are {ROUND} to {MAX_BATTLES}, not {}",
                o.max_battles
            ),
        );
    }
    let current = p.current_number();
    if current.is_none() && (o.min.is_none() || o.max.is_none()) && p.current.is_some() {
        return Err(Error::msg(format!(
            "`{}` is not a number ({}): a balance search varies a number",
            p.shown,
            p.current.clone().unwrap_or_default()
        )));
    }
    let c = current.unwrap_or(0.0);
    let lo = o.min.unwrap_or(if c >= 0.0 { 0.0 } else { 2.0 * c });
    let hi = o.max.unwrap_or((2.0 * c).max(c + 1.0));
    if current.is_none() && (o.min.is_none() || o.max.is_none()) {
        return Err(Error::options(
            &["min", "max"],
            format!("`{}` has no value now: give `min` and `max`", p.shown),
        ));
    }
    let integer = p.is_integer() || (current.is_none() && lo.fract() == 0.0 && hi.fract() == 0.0);
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(Error::options(
            &["min", "max"],
            format!("the range is `min` below `max`, not {lo} to {hi}"),
        ));
    }
    let (lo, hi) = if integer {
        (lo.ceil(), hi.floor())
    } else {
        (lo, hi)
    };
    if lo >= hi {
        return bad("min", format!("no two whole numbers between {lo} and {hi}"));
    }
    Ok(Search {
        lo,
        hi,
        integer,
        target: o.target,
        precision: o.precision,
        ceiling: o.max_battles,
    })
}

impl BalanceReport {
    /// The report for people; `range` names the options that set the range's ends as the
    /// caller takes them (the CLI's `--min/--max`).
    pub(crate) fn render(&self, range: &str, layout: crate::output::Layout) -> String {
        use crate::output::{percent, Align, Table};
        let mut t = Table::new(&[
            ("value", Align::Right),
            ("share", Align::Right),
            ("95% CI", Align::Right),
            ("battles", Align::Right),
            ("undecided", Align::Right),
            ("verdict", Align::Left),
        ]);
        t.key(&["share", "verdict"]);
        for s in &self.tried {
            t.row([
                super::sweep::shown(&s.value),
                percent(s.share),
                format!("{}–{}", percent(s.ci95[0]), percent(s.ci95[1])),
                s.battles.to_string(),
                percent(s.undecided as f64 / s.battles.max(1) as f64),
                match s.verdict {
                    Verdict::Above => "above the target".into(),
                    Verdict::Below => "below the target".into(),
                    Verdict::Close => format!("within ±{}", percent(self.precision)),
                    Verdict::Ceiling => "battle ceiling reached".into(),
                },
            ]);
        }
        let mut note = format!(
            "{} of the {} battles at this value were undecided (escaped, disengaged or \
             unfinished): the share counts only the others\n",
            self.undecided, self.answer_battles
        );
        if !self.bracketed {
            note += &format!(
                "the target is not between the range's ends: this is the nearer end (widen \
                 {range})\n"
            );
        } else if !self.holds_target {
            note += "no value tried has an interval that holds the target: the share crosses \
                     it between this value and its neighbour on the other side\n";
        }
        let saved = self.fixed_size_battles.saturating_sub(self.battles);
        format!(
            "{} = {}: {} wins {} of the decided battles against {} (95% CI {}–{}; target {})\n\
             {note}\nvalues tried, in order:\n{}\n{} battles; a fixed-size sample of the same \
             precision at each of these values would take {} ({} saved)\n",
            self.parameter,
            super::sweep::shown(&self.value),
            self.a,
            percent(self.share),
            self.b,
            percent(self.ci95[0]),
            percent(self.ci95[1]),
            percent(self.target),
            t.render(layout),
            self.battles,
            self.fixed_size_battles,
            saved
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use rand::SeedableRng;

    /// A synthetic matchup: round k of value v is ROUND Bernoulli trials at share f(v), from
    /// a generator seeded by k alone (common random numbers, as the real rounds).
    fn synthetic(f: impl Fn(f64) -> f64) -> impl FnMut(f64, u64) -> Result<(Share, u64)> {
        move |v, k| {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(k);
            let p = f(v);
            let wins = (0..ROUND).filter(|_| rng.gen::<f64>() < p).count() as u64;
            Ok((
                Share {
                    wins,
                    decided: ROUND,
                },
                ROUND,
            ))
        }
    }

    fn search(lo: f64, hi: f64, integer: bool) -> Search {
        Search {
            lo,
            hi,
            integer,
            target: 0.5,
            precision: 0.03,
            ceiling: 20_000,
        }
    }

    #[test]
    fn bisection_finds_the_even_value_of_a_monotone_share() {
        // Share 0.1·v: even at v = 5, clearly off at 4 (0.4) and 6 (0.6).
        let (tried, best, bracketed) = search(0.0, 10.0, true)
            .run(&mut synthetic(|v| 0.1 * v))
            .unwrap();
        assert!(bracketed);
        assert_eq!(tried[best].value, 5.0);
        assert_eq!(tried[best].verdict, Verdict::Close);
        let values: Vec<f64> = tried.iter().map(|s| s.value).collect();
        assert_eq!(values, [0.0, 10.0, 5.0]);
        // The ends are told apart after one round; the even value needs the ±3% interval.
        assert_eq!(tried[0].battles, ROUND);
        assert!(tried[best].battles >= 1024, "{tried:?}");
    }

    #[test]
    fn a_falling_share_and_a_real_value_work_too() {
        // Share 0.9 − 0.2·v on 0..4: even at v = 2.
        let (tried, best, _) = search(0.0, 4.0, false)
            .run(&mut synthetic(|v| 0.9 - 0.2 * v))
            .unwrap();
        assert!((tried[best].value - 2.0).abs() <= 0.15, "{tried:?}");
    }

    #[test]
    fn a_target_outside_the_range_gives_the_nearer_end() {
        let (tried, best, bracketed) = search(0.0, 10.0, true)
            .run(&mut synthetic(|v| 0.6 + 0.01 * v))
            .unwrap();
        assert!(!bracketed);
        assert_eq!((tried.len(), tried[best].value), (2, 0.0));
    }

    #[test]
    fn the_fixed_size_comparison_is_the_textbook_sample_size() {
        // ±3% at p = 0.5: 1.96² / (4 · 0.03²) = 1067.1 → 1068 decided; half decided → 2136.
        assert_eq!(fixed_size(0.03, 100, 100), 1068);
        assert_eq!(fixed_size(0.03, 50, 100), 2136);
    }
}
