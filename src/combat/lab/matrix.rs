//! Every ordered pair of ships, each side moving first in half the battles; a Bradley–Terry
//! strength per ship (draws as halves) and suggested points in proportion to it.
use super::sampling::{self, Job};
use super::strength::{bradley_terry, elo_scale, PairScore};
use crate::combat::side::First;
use crate::combat::sim::{Outcomes, MAX_BATTLES};
use crate::combat::turn::OutcomeKind;
use crate::combat::{context::Context, sim::SimOptions, tactics::Tactic};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use serde::Serialize;

/// Most ships one matrix takes (40 ships are 1,560 cells).
pub(crate) const MAX_SHIPS: usize = 40;

/// Virtual battles per pair of ships the fit adds, split evenly (see `strength`).
const PRIOR_BATTLES: f64 = 1.0;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Cell {
    pub a: String,
    pub b: String,
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    /// Battles neither ship won: escaped, disengaged or unfinished (kept under its agreed
    /// name; `outcomes` splits it with the names `sim`, `sweep` and `balance` use).
    pub draws: u64,
    pub outcomes: Outcomes,
}

/// A ranking that disagrees with a head-to-head: `higher` ranks above `lower`, which wins
/// more of their battles (both orders, undecided as halves); the ranking weighs every
/// opponent, and `higher` scores better against the others.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Disagreement {
    pub higher: String,
    pub lower: String,
    /// `higher`'s score against `lower`, and each one's mean score against the other ships.
    pub head_to_head: f64,
    pub higher_vs_rest: f64,
    pub lower_vs_rest: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Strength {
    pub ship: String,
    /// Elo scale: 1500 for the average ship; a 400-point gap is 10:1 odds.
    pub rating: f64,
    /// Suggested points: proportional to the fitted strength, the strongest at the scale.
    pub points: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MatrixReport {
    pub ruleset: String,
    pub seed: u64,
    pub ships: Vec<String>,
    pub(crate) cells: Vec<Cell>,
    pub(crate) strength: Vec<Strength>,
    pub(crate) disagreements: Vec<Disagreement>,
}

/// Matrix options: ships (empty: every ship of the ruleset), battles a cell, seed, and the
/// points the strongest ship is worth.
#[derive(Debug, Clone)]
pub struct MatrixOptions {
    pub ships: Vec<String>,
    pub battles: u64,
    pub seed: u64,
    pub points_scale: f64,
}

impl MatrixOptions {
    /// The options of its `a`-against-`b` battles: `SimOptions::new` with each pairing's
    /// first move alternating, so a field added to `SimOptions` is added in one place.
    pub(crate) fn battle(&self, a: &str, b: &str) -> SimOptions {
        SimOptions {
            first: Some(First::Alternate),
            ..SimOptions::new(a, b, self.battles, self.seed)
        }
    }
}

pub fn matrix(
    rules: &Ruleset,
    o: &MatrixOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<MatrixReport> {
    let ctx = Context::new(rules)?;
    let ships: Vec<String> = if o.ships.is_empty() {
        ctx.ships.iter().map(|c| c.name.clone()).collect()
    } else {
        let mut names: Vec<String> = Vec::new();
        for s in &o.ships {
            let name = ctx.class(rules, s)?.name;
            if names.contains(&name) {
                return Err(Error::msg(format!("`{s}` is named twice ({name})")));
            }
            names.push(name);
        }
        names
    };
    if ships.len() < 2 {
        return Err(Error::msg("a matrix needs at least two ships"));
    }
    if ships.len() > MAX_SHIPS {
        return Err(Error::out_of_range(
            "ships",
            format!(
                "{} ships is more than a matrix takes ({MAX_SHIPS})",
                ships.len()
            ),
        ));
    }
    if !(o.points_scale.is_finite() && o.points_scale > 0.0 && o.points_scale <= 1.0e9) {
        return Err(Error::out_of_range(
            "points-scale",
            format!(
                "the points scale is a number above 0, not {}",
                o.points_scale
            ),
        ));
    }
    let base = o.battle("", "");
    base.check()?;
    // Checked before the batches are listed: a list for 10^9 battles took 2.9 GB.
    let cells = (ships.len() * (ships.len() - 1)) as u64;
    let total = cells.saturating_mul(o.battles);
    if total > MAX_BATTLES {
        return Err(Error::out_of_range(
            "battles",
            format!(
                "{} ships at {} battles a cell is {total} battles, more than one run takes \
                 ({MAX_BATTLES})",
                ships.len(),
                o.battles
            ),
        ));
    }
    let pairs: Vec<(usize, usize)> = (0..ships.len())
        .flat_map(|i| {
            (0..ships.len())
                .filter(move |&j| j != i)
                .map(move |j| (i, j))
        })
        .collect();
    // Each cell alternates the first move (the sim's R9 default, asked for by name): each
    // ship moves first in half its battles, and the batches stay even.
    let mut jobs: Vec<Job> = Vec::new();
    let mut counts = Vec::new();
    for &(i, j) in &pairs {
        let opts = o.battle(&ships[i], &ships[j]);
        let cell = Job::batches(rules, &opts, o.battles);
        counts.push(cell.len());
        jobs.extend(cell);
    }
    let tallies = sampling::run(&jobs, tactics, progress)?;
    let mut tallies = tallies.into_iter();
    let cells: Vec<Cell> = pairs
        .iter()
        .zip(counts)
        .map(|(&(i, j), n)| {
            let m = sampling::merge(tallies.by_ref().take(n)).expect("at least one batch");
            let [a_wins, b_wins] = m.wins();
            Cell {
                a: ships[i].clone(),
                b: ships[j].clone(),
                battles: m.battles(),
                a_wins,
                b_wins,
                // Escapes decide nothing either: they count with the draws.
                draws: m.battles() - a_wins - b_wins,
                outcomes: m.report(o.seed).outcomes,
            }
        })
        .collect();
    let strength = strengths(&ships, &pairs, &cells, o.points_scale);
    let mut report = MatrixReport {
        ruleset: rules.name.clone(),
        seed: o.seed,
        ships,
        cells,
        strength,
        disagreements: Vec::new(),
    };
    report.disagreements = report.find_disagreements();
    Ok(report)
}

fn strengths(
    ships: &[String],
    pairs: &[(usize, usize)],
    cells: &[Cell],
    scale: f64,
) -> Vec<Strength> {
    let results: Vec<_> = pairs
        .iter()
        .zip(cells)
        .map(|(&(i, j), c)| {
            let half = c.draws as f64 / 2.0;
            PairScore {
                i,
                j,
                score_i: c.a_wins as f64 + half,
                score_j: c.b_wins as f64 + half,
            }
        })
        .collect();
    let p = bradley_terry(ships.len(), &results, PRIOR_BATTLES);
    let strongest = p.iter().copied().fold(0.0, f64::max);
    ships
        .iter()
        .zip(&p)
        .map(|(s, &x)| Strength {
            ship: s.clone(),
            rating: (elo_scale(x) * 10.0).round() / 10.0,
            points: (scale * x / strongest).round() as u64,
        })
        .collect()
}

impl MatrixReport {
    /// The cell of `a` against `b`.
    pub(crate) fn cell(&self, a: &str, b: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| c.a == a && c.b == b)
    }

    /// Share of the battles a (row) won, draws as halves.
    pub(crate) fn score(c: &Cell) -> f64 {
        (c.a_wins as f64 + c.draws as f64 / 2.0) / c.battles.max(1) as f64
    }

    /// `x`'s score against `y` over both orders (undecided as halves), if they met.
    fn head_to_head(&self, x: &str, y: &str) -> Option<f64> {
        let (xy, yx) = (self.cell(x, y)?, self.cell(y, x)?);
        let won = xy.a_wins as f64 + yx.b_wins as f64 + (xy.draws + yx.draws) as f64 / 2.0;
        Some(won / (xy.battles + yx.battles).max(1) as f64)
    }

    /// `x`'s mean score against every ship but `y` (and itself).
    fn vs_rest(&self, x: &str, y: &str) -> f64 {
        let scores: Vec<f64> = (self.ships.iter())
            .filter(|z| *z != x && *z != y)
            .filter_map(|z| self.head_to_head(x, z))
            .collect();
        scores.iter().sum::<f64>() / scores.len().max(1) as f64
    }

    /// Every pair the ranking orders against their head-to-head.
    fn find_disagreements(&self) -> Vec<Disagreement> {
        let mut out = Vec::new();
        for hi in &self.strength {
            for lo in self.strength.iter().filter(|s| s.rating < hi.rating) {
                let Some(h2h) = self.head_to_head(&hi.ship, &lo.ship) else {
                    continue;
                };
                if h2h < 0.5 {
                    out.push(Disagreement {
                        higher: hi.ship.clone(),
                        lower: lo.ship.clone(),
                        head_to_head: h2h,
                        higher_vs_rest: self.vs_rest(&hi.ship, &lo.ship),
                        lower_vs_rest: self.vs_rest(&lo.ship, &hi.ship),
                    });
                }
            }
        }
        out
    }

    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        // Rows and columns by number (names are long); the key names them.
        let mut cols: Vec<(String, Align)> =
            vec![("#".into(), Align::Right), ("ship".into(), Align::Left)];
        for k in 1..=self.ships.len() {
            cols.push((k.to_string(), Align::Right));
        }
        let refs: Vec<(&str, Align)> = cols.iter().map(|(c, a)| (c.as_str(), *a)).collect();
        let mut t = Table::new(&refs);
        t.key(&["ship"]);
        for (i, a) in self.ships.iter().enumerate() {
            let mut row = vec![(i + 1).to_string(), a.clone()];
            for b in &self.ships {
                row.push(match self.cell(a, b) {
                    Some(c) => format!(
                        "{}/{}",
                        percent(c.a_wins as f64 / c.battles.max(1) as f64),
                        percent(c.draws as f64 / c.battles.max(1) as f64)
                    ),
                    None => "—".into(),
                });
            }
            t.row(row);
        }
        let mut s = Table::new(&[
            ("ship", Align::Left),
            ("rating", Align::Right),
            ("points", Align::Right),
        ]);
        s.key(&["rating", "points"]);
        let mut order: Vec<&Strength> = self.strength.iter().collect();
        order.sort_by(|x, y| y.rating.total_cmp(&x.rating));
        for st in order {
            s.row([
                st.ship.clone(),
                trim_number(st.rating, 1),
                st.points.to_string(),
            ]);
        }
        let battles = self.cells.first().map(|c| c.battles).unwrap_or(0);
        let mut why = String::new();
        for d in &self.disagreements {
            why += &format!(
                "\n{} ranks above {} though it scores {} against it (both orders, undecided \
                 as halves): the ranking weighs every opponent, and against the other ships \
                 {} scores {} on average, {} {}\n",
                d.higher,
                d.lower,
                percent(d.head_to_head),
                d.higher,
                percent(d.higher_vs_rest),
                d.lower,
                percent(d.lower_vs_rest)
            );
        }
        let total = self
            .cells
            .iter()
            .fold(Outcomes::default(), |t, c| t + c.outcomes);
        let split: Vec<String> = OutcomeKind::ALL
            .iter()
            .map(|k| format!("{} {}", k.name(), percent(total.share(*k))))
            .collect();
        format!(
            "{} ships, {battles} battles a cell, each side moving first in half (ruleset {}, \
             seed {})\nall battles: {}\nrow's wins / undecided (escaped, disengaged or \
             unfinished) against the column:\n\n{}\nstrength (Bradley–Terry, undecided as \
             halves; points in proportion to strength):\n\n{}{why}",
            self.ships.len(),
            self.ruleset,
            self.seed,
            split.join(", "),
            t.render(layout),
            s.render(layout)
        )
    }

    /// The points as a ruleset overlay (`ships: NAME: value: P`), to paste into a ruleset.
    pub(crate) fn points_overlay(&self) -> serde_json::Value {
        let mut ships = serde_json::Map::new();
        for s in &self.strength {
            ships.insert(s.ship.clone(), serde_json::json!({ "value": s.points }));
        }
        serde_json::json!({ "ships": ships })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::default_tactic::DefaultTactic;

    #[test]
    fn a_small_matrix_has_every_ordered_pair_and_the_strongest_at_the_scale() {
        let r = crate::rules::load::load("startrek").unwrap();
        let t = DefaultTactic::of(&r).unwrap();
        let o = MatrixOptions {
            ships: vec![
                "UFP heavy cruiser".into(),
                "transporte".into(),
                "UFP frigate".into(),
            ],
            battles: 60,
            seed: 1,
            points_scale: 250.0,
        };
        let m = matrix(&r, &o, [&t, &t], &|_| {}).unwrap();
        assert_eq!(m.ships[1], "Transport");
        assert_eq!(m.cells.len(), 6);
        assert!(m
            .cells
            .iter()
            .all(|c| c.battles == 60 && c.a_wins + c.b_wins + c.draws == 60));
        // The outcome split adds up to the battles, and the undecided ones are the draws.
        assert!(m.cells.iter().all(|c| c.outcomes.total() == 60
            && c.outcomes.decided() == c.a_wins + c.b_wins
            && c.draws == 60 - c.outcomes.decided()));
        let top = m.strength.iter().map(|s| s.points).max();
        assert_eq!(top, Some(250));
        let cruiser = &m.strength[0];
        let transport = &m.strength[1];
        assert!(cruiser.rating > transport.rating, "{m:?}");
        let e = matrix(
            &r,
            &MatrixOptions {
                ships: vec!["UFP frigate".into(), "ufp FRIGATE".into()],
                ..o.clone()
            },
            [&t, &t],
            &|_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("named twice"), "{e}");
    }

    #[test]
    fn a_total_over_the_limit_is_refused_before_any_batch_is_listed() {
        let r = crate::rules::load::load("startrek").unwrap();
        let t = DefaultTactic::of(&r).unwrap();
        let o = MatrixOptions {
            ships: vec!["UFP frigate".into(), "Transport".into()],
            battles: MAX_BATTLES / 2 + 1,
            seed: 1,
            points_scale: 100.0,
        };
        let e = matrix(&r, &o, [&t, &t], &|_| panic!("no battle runs"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "2 ships at {} battles a cell is {} battles, more than one run takes \
                 ({MAX_BATTLES})",
                MAX_BATTLES / 2 + 1,
                MAX_BATTLES + 2
            )
        );
    }

    /// A ranks above B though B wins their head-to-head: A beats C, which beats B.
    #[test]
    fn a_ranking_against_a_head_to_head_is_reported_with_the_scores_behind_it() {
        let cell = |a: &str, b: &str, a_wins: u64, b_wins: u64| Cell {
            a: a.into(),
            b: b.into(),
            battles: 100,
            a_wins,
            b_wins,
            draws: 100 - a_wins - b_wins,
            outcomes: Outcomes {
                destroyed: a_wins + b_wins,
                unfinished: 100 - a_wins - b_wins,
                ..Outcomes::default()
            },
        };
        let ships: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let cells = vec![
            cell("A", "B", 40, 60),
            cell("B", "A", 60, 40),
            cell("A", "C", 95, 5),
            cell("C", "A", 5, 95),
            cell("B", "C", 30, 70),
            cell("C", "B", 70, 30),
        ];
        let pairs = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)];
        let strength = strengths(&ships, &pairs, &cells, 100.0);
        let mut m = MatrixReport {
            ruleset: "startrek".into(),
            seed: 1,
            ships,
            cells,
            strength,
            disagreements: Vec::new(),
        };
        assert!(
            m.strength[0].rating > m.strength[1].rating,
            "{:?}",
            m.strength
        );
        m.disagreements = m.find_disagreements();
        let d = (m.disagreements.iter())
            .find(|d| (d.higher.as_str(), d.lower.as_str()) == ("A", "B"))
            .expect("A over B is named");
        assert_eq!((d.higher.as_str(), d.lower.as_str()), ("A", "B"));
        assert!((d.head_to_head - 0.4).abs() < 1e-9);
        assert!((d.higher_vs_rest - 0.95).abs() < 1e-9);
        assert!((d.lower_vs_rest - 0.3).abs() < 1e-9);
        assert!(m
            .render(crate::output::Layout::PLAIN)
            .contains("A ranks above B though it scores 40.0% against it"));
    }
}
