//! Monte Carlo: many battles on rayon. Battle i's seed is derived from the run seed and i,
//! and tallies are integer sums, so the result does not depend on the thread count.
use super::context::Context;
use super::default_tactic::DefaultTactic;
use super::events::Silent;
use super::roller::{battle_seed, Pcg};
use super::scenario::Resolved;
use super::ship::ShipClass;
use super::tactics::Tactic;
use super::turn::{Battle, OutcomeKind, Setup};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use rayon::prelude::*;
use serde::Serialize;

/// What to simulate (a script may pass it as a map).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimOptions {
    pub a: String,
    pub b: String,
    pub battles: u64,
    pub seed: u64,
    /// Worker threads (None: rayon's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// A scenario instead of the standard start (its ships win over `a` and `b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<super::Scenario>,
}

/// Most battles one simulation runs (a guard: at about 20,000 battles a second a core, this
/// is hours of work).
pub const MAX_BATTLES: u64 = 100_000_000;
/// Most worker threads a simulation starts.
pub const MAX_THREADS: usize = 256;

impl SimOptions {
    /// Refuse sizes no simulation should have; the threads to start (never more than battles).
    pub fn check(&self) -> Result<Option<usize>> {
        if self.battles == 0 {
            return Err(Error::out_of_range(
                "battles",
                "the number of battles must be at least 1",
            ));
        }
        if self.battles > MAX_BATTLES {
            return Err(Error::out_of_range(
                "battles",
                format!(
                    "{} battles is more than one simulation runs ({MAX_BATTLES})",
                    self.battles
                ),
            ));
        }
        match self.threads {
            Some(0) => Err(Error::out_of_range(
                "threads",
                "the number of threads must be at least 1",
            )),
            Some(n) if n > MAX_THREADS => Err(Error::out_of_range(
                "threads",
                format!("{n} threads is more than a simulation starts ({MAX_THREADS})"),
            )),
            // The result is the same whatever the number: idle threads would only cost memory.
            Some(n) => Ok(Some(n.min(usize::try_from(self.battles).unwrap_or(n)))),
            None => Ok(None),
        }
    }
}

/// One side's results.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SideStats {
    pub name: String,
    pub wins: u64,
    pub win_rate: f64,
    /// Wilson 95% interval for the win rate.
    pub ci95: [f64; 2],
    /// Times this ship was destroyed, captured, or escaped.
    pub destroyed: u64,
    pub captured: u64,
    pub escaped: u64,
}

/// Battles ending on each turn, by outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TurnCounts {
    pub turn: u32,
    pub a_wins: u64,
    pub b_wins: u64,
    pub escapes: u64,
    pub draws: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SimReport {
    pub ruleset: String,
    pub battles: u64,
    pub seed: u64,
    pub a: SideStats,
    pub b: SideStats,
    /// Battles that reached the turn limit.
    pub draws: u64,
    pub escapes: u64,
    pub captures: u64,
    pub mean_turns: f64,
    pub turn_limit: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_turn: Vec<TurnCounts>,
}

/// Integer tallies of a batch of battles (order-independent sums).
#[derive(Debug, Clone, Default)]
struct Tally {
    wins: [u64; 2],
    destroyed: [u64; 2],
    captured: [u64; 2],
    escaped: [u64; 2],
    draws: u64,
    turns: u64,
    /// [a wins, b wins, escapes, draws] by turn.
    by_turn: Vec<[u64; 4]>,
}

impl Tally {
    fn new(limit: u32) -> Tally {
        Tally {
            by_turn: vec![[0; 4]; limit as usize + 1],
            ..Tally::default()
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        for i in 0..2 {
            self.wins[i] += o.wins[i];
            self.destroyed[i] += o.destroyed[i];
            self.captured[i] += o.captured[i];
            self.escaped[i] += o.escaped[i];
        }
        self.draws += o.draws;
        self.turns += o.turns;
        for (a, b) in self.by_turn.iter_mut().zip(o.by_turn) {
            for k in 0..4 {
                a[k] += b[k];
            }
        }
        self
    }
}

/// Wilson score interval at 95%.
pub fn wilson(successes: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = successes as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Run the simulation with the default tactic on both sides.
pub fn simulate(rules: &Ruleset, opts: &SimOptions) -> Result<SimReport> {
    let t = DefaultTactic::of(rules)?;
    simulate_with(rules, opts, [&t, &t], &|_| {})
}

/// Run the simulation with given tactics; `progress` hears how many battles finished (in batches).
pub fn simulate_with(
    rules: &Ruleset,
    opts: &SimOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport> {
    let ctx = Context::new(rules)?;
    let Resolved { classes, setup } = match &opts.scenario {
        Some(s) => s.resolve(rules, &ctx, None)?,
        None => Resolved {
            classes: [ctx.class(rules, &opts.a)?, ctx.class(rules, &opts.b)?],
            setup: Setup::standard(&ctx),
        },
    };
    let threads = opts.check()?;
    // The caller's bound (a script's limits) goes with the work to every worker thread; it is
    // read here, on the caller's thread, before any pool takes the work.
    let bound = crate::stop::current();
    let run = || {
        run_battles(
            &ctx,
            [&classes[0], &classes[1]],
            tactics,
            setup,
            (opts.battles, opts.seed),
            bound.clone(),
            progress,
        )
    };
    let tally = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::msg(format!("cannot start {n} threads: {e}")))?
            .install(run),
        None => run(),
    };
    // A bound the caller set (a script's time or memory limit) ended the battles early.
    crate::stop::check()?;
    Ok(report(&ctx, [&classes[0], &classes[1]], setup, opts, tally))
}

const BATCH: u64 = 512;

fn run_battles(
    ctx: &Context,
    classes: [&ShipClass; 2],
    tactics: [&dyn Tactic; 2],
    setup: Setup,
    (n, seed): (u64, u64),
    bound: Option<std::sync::Arc<crate::stop::Bound>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    let batches = n.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            crate::stop::enter(bound.clone(), || {
                let mut t = Tally::new(setup.turn_limit);
                let end = ((b + 1) * BATCH).min(n);
                for i in b * BATCH..end {
                    if crate::stop::reason().is_some() || tactics.iter().any(|t| t.failed()) {
                        break; // the caller reports it (`simulate_with` checks again)
                    }
                    let mut battle = Battle::new(
                        ctx,
                        classes,
                        tactics,
                        setup,
                        Pcg::new(battle_seed(seed, i)),
                        Silent,
                    );
                    let o = battle.play();
                    t.turns += o.turns as u64;
                    let turn = (o.turns as usize).min(t.by_turn.len() - 1);
                    match (o.kind, o.side) {
                        (OutcomeKind::TurnLimit, _) | (_, None) => {
                            t.draws += 1;
                            t.by_turn[turn][3] += 1;
                        }
                        (OutcomeKind::Escaped, Some(s)) => {
                            t.escaped[s as usize] += 1;
                            t.by_turn[turn][2] += 1;
                        }
                        (kind, Some(s)) => {
                            let s = s as usize;
                            if kind == OutcomeKind::Destroyed {
                                t.destroyed[s] += 1;
                            } else {
                                t.captured[s] += 1;
                            }
                            t.wins[1 - s] += 1;
                            t.by_turn[turn][1 - s] += 1;
                        }
                    }
                }
                progress(end - b * BATCH);
                t
            })
        })
        .reduce(|| Tally::new(setup.turn_limit), Tally::merge)
}

fn report(
    ctx: &Context,
    classes: [&ShipClass; 2],
    setup: Setup,
    opts: &SimOptions,
    t: Tally,
) -> SimReport {
    let n = opts.battles;
    let side = |i: usize| SideStats {
        name: classes[i].name.clone(),
        wins: t.wins[i],
        win_rate: if n == 0 {
            0.0
        } else {
            t.wins[i] as f64 / n as f64
        },
        ci95: wilson(t.wins[i], n),
        destroyed: t.destroyed[i],
        captured: t.captured[i],
        escaped: t.escaped[i],
    };
    SimReport {
        ruleset: ctx.ruleset.clone(),
        battles: n,
        seed: opts.seed,
        a: side(0),
        b: side(1),
        draws: t.draws,
        escapes: t.escaped[0] + t.escaped[1],
        captures: t.captured[0] + t.captured[1],
        mean_turns: if n == 0 {
            0.0
        } else {
            t.turns as f64 / n as f64
        },
        turn_limit: setup.turn_limit,
        by_turn: t
            .by_turn
            .iter()
            .enumerate()
            .skip(1)
            .map(|(turn, c)| TurnCounts {
                turn: turn as u32,
                a_wins: c[0],
                b_wins: c[1],
                escapes: c[2],
                draws: c[3],
            })
            .collect(),
    }
}

/// Two rulesets on the same seeds.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
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

/// Chi-square test of homogeneity for two rows of counts: (statistic, p-value).
pub fn chi_square(rows: [[u64; 3]; 2]) -> (f64, f64) {
    let total: u64 = rows.iter().flatten().sum();
    if total == 0 {
        return (0.0, 1.0);
    }
    let row_sum = [
        rows[0].iter().sum::<u64>() as f64,
        rows[1].iter().sum::<u64>() as f64,
    ];
    let mut chi2 = 0.0;
    let mut categories = 0;
    for k in 0..3 {
        let col = (rows[0][k] + rows[1][k]) as f64;
        if col == 0.0 {
            continue;
        }
        categories += 1;
        for (r, row) in rows.iter().enumerate() {
            let expected = row_sum[r] * col / total as f64;
            if expected > 0.0 {
                chi2 += (row[k] as f64 - expected).powi(2) / expected;
            }
        }
    }
    let p = match categories {
        0 | 1 => 1.0,
        // One degree of freedom: P(χ² > x) = erfc(√(x/2)).
        2 => erfc((chi2 / 2.0).sqrt()),
        // Two: P(χ² > x) = e^(−x/2).
        _ => (-chi2 / 2.0).exp(),
    };
    (chi2, p)
}

/// Complementary error function (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let e = poly * (-x * x).exp();
    if x >= 0.0 {
        e
    } else {
        2.0 - e
    }
}

/// Run `opts` under `base` and `variant` on the same seeds and test whether the outcomes changed.
pub fn compare(
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
    let verdict = format!(
        "{} wins {:.1}% → {:.1}%, {} wins {:.1}% → {:.1}% ({} → {}): {} (chi-square {:.2}, p = \
         {:.3})",
        b.a.name,
        b.a.win_rate * 100.0,
        v.a.win_rate * 100.0,
        b.b.name,
        b.b.win_rate * 100.0,
        v.b.win_rate * 100.0,
        b.ruleset,
        v.ruleset,
        if significant {
            "a significant difference"
        } else {
            "no significant difference"
        },
        chi2,
        p_value
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

impl SimReport {
    pub fn render(&self) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        let pct = |x: f64| percent(x, 1);
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("wins", Align::Right),
            ("win rate", Align::Right),
            ("95% CI", Align::Right),
            ("destroyed", Align::Right),
            ("captured", Align::Right),
            ("escaped", Align::Right),
        ]);
        for s in [&self.a, &self.b] {
            t.row([
                s.name.clone(),
                s.wins.to_string(),
                pct(s.win_rate),
                format!("{}–{}", pct(s.ci95[0]), pct(s.ci95[1])),
                s.destroyed.to_string(),
                s.captured.to_string(),
                s.escaped.to_string(),
            ]);
        }
        format!(
            "{} battles (ruleset {}, seed {})\n\n{}\ndraws (turn limit {}): {}   escapes: {}   \
             captures: {}   mean turns: {}\n",
            self.battles,
            self.ruleset,
            self.seed,
            t.render(),
            self.turn_limit,
            self.draws,
            self.escapes,
            self.captures,
            trim_number(self.mean_turns, 2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_known_values() {
        // 50 of 100: 0.4038 to 0.5962; 0 of 10: 0 to 0.2775.
        let [lo, hi] = wilson(50, 100);
        assert!(
            (lo - 0.403_831).abs() < 1e-5 && (hi - 0.596_169).abs() < 1e-5,
            "{lo} {hi}"
        );
        let [lo, hi] = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.277_533).abs() < 1e-5, "{hi}");
    }

    #[test]
    fn chi_square_known_values() {
        // Identical rows: 0, p = 1.
        assert_eq!(chi_square([[10, 20, 70], [10, 20, 70]]).0, 0.0);
        // [[30, 70, 0], [50, 50, 0]]: one degree of freedom, χ² = 8.333, p ≈ 0.00389.
        let (c, p) = chi_square([[30, 70, 0], [50, 50, 0]]);
        assert!(
            (c - 8.333_333).abs() < 1e-5 && (p - 0.003_892).abs() < 1e-5,
            "{c} {p}"
        );
        // Two degrees: p = e^(−χ²/2).
        let (c, p) = chi_square([[40, 64, 296], [28, 200, 172]]);
        assert!((p - (-c / 2.0).exp()).abs() < 1e-15 && p < 0.001);
    }
}
