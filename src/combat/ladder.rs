//! The tactics ladder: a round robin of tactics in mirror matches (both sides the same ship
//! class) over ship classes, each pairing played with each tactic on each side, on the same
//! seeds; the decided battles are rated as games by a rating system of the project.
//!
//! The battles are rated in rounds, not one rating period per ship class: a rating period of
//! hundreds of games between the same two players makes both move by a whole step at once
//! against each other's old rating, and Glicko-2 then overshoots further each period (a
//! ladder of 1,000 battles rated 63% rated the tactics ±10^24; Elo, whose period changes
//! add up, did the same). Each round holds about `per_period` decided battles of each tactic,
//! every pairing's battles spread evenly over the ladder and their wins and losses too: the
//! battles of a pairing are alike, so their order is ours to choose. Measured on that ladder,
//! Glicko-2's rating gap predicts 67% at 10 a period, 64% at 50 and 63% at 200 (TrueSkill
//! overshoots again at 200). Elo stays bounded but imprecise at any period: its last rating
//! is the end of a random walk of steps of K.
use super::side::First;
use super::sim::{simulate_with, stats::wilson, Outcomes, SimOptions};
use super::tactics::Tactic;
use super::turn::OutcomeKind;
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use crate::rules::scoring::System;
use crate::scoring::history::{prepare, History, HistoryGame, Period, Placing};
use serde::Serialize;

/// Most battles one ladder runs, all matches together: each decided battle becomes a rated
/// game held in memory (a few hundred bytes) until the ratings are worked out.
pub(crate) const MAX_LADDER_BATTLES: u64 = 1_000_000;

/// What to run.
pub(crate) struct LadderOptions<'a> {
    /// The tactics, each with the name it is shown and rated under.
    pub tactics: Vec<(String, &'a dyn Tactic)>,
    pub ships: Vec<String>,
    /// Battles per ship class, pairing and side.
    pub battles: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    /// The ruleset whose `scoring` section rates the tactics, and the system to use.
    pub ratings: &'a Ruleset,
    pub system: System,
    /// Decided battles of each tactic in one rating period, about.
    pub per_period: u64,
}

impl LadderOptions<'_> {
    /// The options of one class's mirror battles: `SimOptions::new` with these threads, and
    /// each tactic moving first in half its battles on each side (so a field added to
    /// `SimOptions` is added in one place).
    pub(crate) fn battle(&self, ship: &str) -> SimOptions {
        SimOptions {
            threads: self.threads,
            first: Some(First::Alternate),
            ..SimOptions::new(ship, ship, self.battles, self.seed)
        }
    }
}

/// One mirror match: `a` played side a, `b` side b.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct LadderMatch {
    pub ship: String,
    pub a: String,
    pub b: String,
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    /// How the battles ended, under the names `sim`, `sweep`, `balance` and `matrix` use.
    pub outcomes: Outcomes,
    /// a's wins over the decided battles (None when none was decided), and its Wilson 95%
    /// interval.
    pub a_share: Option<f64>,
    pub ci95: [f64; 2],
}

/// One tactic's standing.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct LadderTactic {
    pub tactic: String,
    pub rating: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<f64>,
    pub wins: u64,
    pub losses: u64,
    /// Wins over its decided battles.
    pub share: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct LadderReport {
    pub ruleset: String,
    pub system: String,
    pub battles: u64,
    pub seed: u64,
    pub ships: Vec<String>,
    /// Best rated first.
    pub tactics: Vec<LadderTactic>,
    pub matches: Vec<LadderMatch>,
}

/// `share`, or None when nothing was decided (a ship without weapons), not a share of 0.
fn decided_share(wins: u64, losses: u64) -> Option<f64> {
    (wins + losses > 0).then(|| share(wins, losses))
}

/// Share of `wins` over `wins + losses` (0 when nothing was decided).
fn share(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        0.0
    } else {
        wins as f64 / (wins + losses) as f64
    }
}

/// The decided battles of the matches as rated games in rounds of about `per_period` games
/// for each of `tactics` tactics: every match's games spread evenly over the whole ladder
/// (its j-th of n at (j + ½) / n of the way), wins and losses spread evenly within it.
fn rounds(matches: &[LadderMatch], tactics: usize, per_period: u64) -> Vec<HistoryGame> {
    let mut order: Vec<(f64, usize)> = Vec::new();
    for (k, m) in matches.iter().enumerate() {
        let n = m.a_wins + m.b_wins;
        order.extend((0..n).map(|j| ((j as f64 + 0.5) / n as f64, k)));
    }
    // Stable: a match's own games keep their order.
    order.sort_by(|x, y| x.0.total_cmp(&y.0));
    // A game is two tactics' game: per_period games each is per_period · tactics / 2 games.
    let per_period = usize::try_from(per_period).unwrap_or(usize::MAX);
    let round = (per_period.saturating_mul(tactics) / 2).max(1);
    let mut spreads: Vec<Spread> = matches
        .iter()
        .map(|m| Spread::new(m.a_wins, m.b_wins))
        .collect();
    order
        .iter()
        .enumerate()
        .map(|(i, &(_, k))| {
            let m = &matches[k];
            let (winner, loser) = if spreads[k].next_is_win() {
                (&m.a, &m.b)
            } else {
                (&m.b, &m.a)
            };
            HistoryGame {
                period: Some(Period::Number((i / round) as i64)),
                order: Some(vec![
                    Placing::One(winner.clone()),
                    Placing::One(loser.clone()),
                ]),
                ..HistoryGame::default()
            }
        })
        .collect()
}

/// Wins and losses in an even order: the k-th win sits at (k + ½) / wins of the way through,
/// the k-th loss at (k + ½) / losses, and they come in that order (a tie to the win).
struct Spread {
    wins: u64,
    losses: u64,
    /// How many of each have come.
    won: u64,
    lost: u64,
}

impl Spread {
    fn new(wins: u64, losses: u64) -> Spread {
        Spread {
            wins,
            losses,
            won: 0,
            lost: 0,
        }
    }

    fn next_is_win(&mut self) -> bool {
        // (2·won + 1) / (2·wins) ≤ (2·lost + 1) / (2·losses), cross-multiplied.
        let at = |k: u64, of: u64| (2 * k as u128 + 1) * of as u128;
        let win = self.won < self.wins
            && (self.lost == self.losses || at(self.won, self.losses) <= at(self.lost, self.wins));
        if win {
            self.won += 1;
        } else {
            self.lost += 1;
        }
        win
    }
}

pub(crate) fn ladder(rules: &Ruleset, opts: &LadderOptions) -> Result<LadderReport> {
    if opts.tactics.len() < 2 {
        return Err(Error::msg("a ladder needs two tactics or more"));
    }
    if opts.ships.is_empty() {
        return Err(Error::msg("a ladder needs one ship class or more"));
    }
    for (i, ship) in opts.ships.iter().enumerate() {
        if opts.ships[..i].iter().any(|s| crate::names::same(s, ship)) {
            return Err(Error::msg(format!(
                "ship `{ship}` is named twice for the ladder (an alias or another spelling is \
                 the same ship): each ship class fights once"
            )));
        }
    }
    // The ratings are checked before the battles, not after them.
    crate::scoring::ratings::check_system(opts.ratings, opts.system).map_err(|e| e.locate(None))?;
    // Every battle is a rated game kept until the rating, and every battle may run to the turn
    // limit: both totals are checked before any battle.
    let tactics = opts.tactics.len() as u64;
    let pairings = tactics.saturating_mul(tactics - 1);
    let matches = (opts.ships.len() as u64).saturating_mul(pairings);
    let total = matches.saturating_mul(opts.battles);
    if total > MAX_LADDER_BATTLES {
        return Err(Error::out_of_range(
            "battles",
            format!(
                "{} ship classes × {pairings} pairings of tactics × {} battles is {total} \
                 battles, more than a ladder runs ({MAX_LADDER_BATTLES})",
                opts.ships.len(),
                opts.battles
            ),
        ));
    }
    let turn_limit = rules.combat.as_ref().map_or(0, |c| c.turn_limit);
    crate::combat::sim::check_battle_turns(
        &format!("{matches} matches of {} battles: ", opts.battles),
        total,
        turn_limit,
    )?;
    let mut matches = Vec::new();
    for ship in &opts.ships {
        for i in 0..opts.tactics.len() {
            for j in 0..opts.tactics.len() {
                if i == j {
                    continue;
                }
                let (a, b) = (&opts.tactics[i], &opts.tactics[j]);
                let sim = opts.battle(ship);
                let r = simulate_with(rules, &sim, [a.1, b.1], &|_| {})?;
                matches.push(LadderMatch {
                    ship: r.a.name.clone(),
                    a: a.0.clone(),
                    b: b.0.clone(),
                    battles: r.battles,
                    a_wins: r.a.wins,
                    b_wins: r.b.wins,
                    outcomes: r.outcomes,
                    a_share: decided_share(r.a.wins, r.b.wins),
                    ci95: wilson(r.a.wins, r.a.wins + r.b.wins),
                });
            }
        }
    }
    let names: Vec<String> = opts.tactics.iter().map(|(n, _)| n.clone()).collect();
    let mut tactics = rate(&names, &matches, opts)?;
    tactics.sort_by(|x, y| y.rating.total_cmp(&x.rating));
    let mut ships: Vec<String> = Vec::new();
    for m in &matches {
        if !ships.contains(&m.ship) {
            ships.push(m.ship.clone());
        }
    }
    Ok(LadderReport {
        ruleset: rules.name.clone(),
        system: opts.system.name().to_string(),
        battles: opts.battles,
        seed: opts.seed,
        ships,
        tactics,
        matches,
    })
}

/// Each tactic's rating and record over the matches' decided battles.
fn rate(
    names: &[String],
    matches: &[LadderMatch],
    opts: &LadderOptions,
) -> Result<Vec<LadderTactic>> {
    let history = History {
        games: rounds(matches, names.len(), opts.per_period),
        ..History::default()
    };
    let prepared = prepare(&history).map_err(|e| e.locate(None))?;
    let rated = crate::scoring::ratings::rate_prepared_as(
        opts.ratings,
        opts.system,
        &prepared,
        Default::default(),
    )
    .map_err(|e| e.locate(None))?;
    Ok(names
        .iter()
        .map(|name| {
            let (wins, losses) = matches.iter().fold((0, 0), |(w, l), m| {
                if m.a == *name {
                    (w + m.a_wins, l + m.b_wins)
                } else if m.b == *name {
                    (w + m.b_wins, l + m.a_wins)
                } else {
                    (w, l)
                }
            });
            let rating = rated.players.iter().find(|p| p.name == *name);
            LadderTactic {
                tactic: name.clone(),
                rating: rating.map_or(0.0, |p| p.rating),
                deviation: rating.and_then(|p| p.deviation),
                wins,
                losses,
                share: share(wins, losses),
            }
        })
        .collect())
}

impl LadderReport {
    /// Per ship class and pairing, the first tactic's share as side a, as side b, and both;
    /// then the ratings.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        // A share of nothing decided is no share.
        let of = |w: u64, l: u64| {
            if w + l == 0 {
                "–".to_string()
            } else {
                percent(share(w, l))
            }
        };
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("tactic", Align::Left),
            ("vs", Align::Left),
            ("share as a", Align::Right),
            ("share as b", Align::Right),
            ("both", Align::Right),
            ("95% CI", Align::Right),
        ]);
        t.key(&["tactic", "vs", "both"]);
        // How the battles ended: its own table, as in `sweep`, so both fit 80 columns; the
        // pairing in one column that wraps ("default vs" over "classic").
        let mut heads = vec![("ship", Align::Left), ("tactics", Align::Left)];
        heads.extend(OutcomeKind::ALL.map(|k| (k.name(), Align::Right)));
        let mut ends = Table::new(&heads);
        ends.key(&OutcomeKind::ALL.map(|k| k.name()));
        for (k, m) in self.matches.iter().enumerate() {
            // Each pairing once: the match with its first tactic as a, and the return match.
            let Some(back) = self.matches[k + 1..]
                .iter()
                .find(|o| o.ship == m.ship && o.a == m.b && o.b == m.a)
            else {
                continue;
            };
            let (w, l) = (m.a_wins + back.b_wins, m.b_wins + back.a_wins);
            let ci = wilson(w, w + l);
            t.row([
                m.ship.clone(),
                m.a.clone(),
                m.b.clone(),
                of(m.a_wins, m.b_wins),
                of(back.b_wins, back.a_wins),
                of(w, l),
                if w + l == 0 {
                    "–".to_string()
                } else {
                    format!("{}–{}", percent(ci[0]), percent(ci[1]))
                },
            ]);
            let outcomes = m.outcomes + back.outcomes;
            let mut row = vec![m.ship.clone(), format!("{} vs {}", m.a, m.b)];
            row.extend(OutcomeKind::ALL.map(|k| percent(outcomes.share(k))));
            ends.row(row);
        }
        let mut r = Table::new(&[
            ("tactic", Align::Left),
            ("rating", Align::Right),
            ("deviation", Align::Right),
            ("wins", Align::Right),
            ("losses", Align::Right),
            ("share", Align::Right),
        ]);
        r.key(&["rating", "share"]);
        for s in &self.tactics {
            r.row([
                s.tactic.clone(),
                trim_number(s.rating, 1),
                s.deviation.map_or(String::new(), |d| trim_number(d, 1)),
                s.wins.to_string(),
                s.losses.to_string(),
                percent(s.share),
            ]);
        }
        let headline = format!(
            "{} battles per ship, pairing and side (ruleset {}, seed {}); share: wins over \
             decided battles",
            self.battles, self.ruleset, self.seed
        );
        format!(
            "{}\n\n{}\nhow the battles ended (share of each pairing's battles):\n\n{}\n\
             ratings ({}):\n{}",
            crate::output::fit_prose(&headline, layout),
            t.render(layout),
            ends.render(layout),
            self.system,
            r.render(layout)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ladder_refuses_before_any_battle() {
        let rules = crate::rules::load::load("startrek").unwrap();
        let elo = crate::rules::load::load("elo").unwrap();
        let t = crate::combat::default_tactic::DefaultTactic::of(&rules).unwrap();
        let opts = |ships: &[&str], battles: u64, ratings, system| LadderOptions {
            tactics: vec![("a".into(), &t as &dyn Tactic), ("b".into(), &t)],
            ships: ships.iter().map(|s| s.to_string()).collect(),
            battles,
            seed: 1,
            threads: None,
            ratings,
            system,
            per_period: 50,
        };
        // Each would take hours to fail after its battles; each fails at once.
        let e = ladder(
            &rules,
            &opts(&["Transport", "transport"], 1000, &elo, System::Elo),
        );
        assert!(e.unwrap_err().to_string().contains("is named twice"));
        let e = ladder(&rules, &opts(&["Transport"], 1000, &rules, System::Elo));
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("has no `scoring` section"));
        let e = ladder(&rules, &opts(&["Transport"], 1000, &elo, System::Pot));
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("does not rate finishing orders"));
        // Too many battles to keep as rated games, then too many turns at a long turn limit.
        let e = ladder(&rules, &opts(&["Transport"], 1_000_000, &elo, System::Elo));
        assert!(e.unwrap_err().to_string().contains(
            "1 ship classes × 2 pairings of tactics × 1000000 battles is 2000000 battles, more \
             than a ladder runs (1000000)"
        ));
        let mut long = rules.clone();
        long.combat.as_mut().unwrap().turn_limit = 1000;
        let e = ladder(&long, &opts(&["Transport"], 100_000, &elo, System::Elo));
        assert!(e
            .unwrap_err()
            .to_string()
            .starts_with("2 matches of 100000 battles: 200000 battles of up to 1000 turns"));
    }

    #[test]
    fn the_outcome_split_has_the_lab_s_names_and_fits_80_columns() {
        let ended = |destroyed, escaped, unfinished| Outcomes {
            destroyed,
            escaped,
            unfinished,
            ..Outcomes::default()
        };
        let mut there = game("default", "classic", 6, 2);
        there.ship = "Klingon battle cruiser".into();
        there.battles = 10;
        there.outcomes = ended(8, 1, 1);
        let mut back = game("classic", "default", 3, 4);
        back.ship = there.ship.clone();
        back.battles = 10;
        back.outcomes = ended(7, 0, 3);
        let report = LadderReport {
            ruleset: "startrek".into(),
            system: "glicko2".into(),
            battles: 10,
            seed: 1,
            ships: vec![there.ship.clone()],
            tactics: Vec::new(),
            matches: vec![there, back],
        };
        let text = report.render(crate::output::Layout::fitted(80));
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(
            !text.contains("draws") && !text.contains("escapes"),
            "{text}"
        );
        // Both matches' 20 battles: 15 destroyed, 1 escaped, 4 unfinished.
        let row = text
            .lines()
            .find(|l| l.contains("default vs"))
            .expect("the pairing's outcome row");
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells[cells.len() - 5..],
            ["75.0%", "0.0%", "5.0%", "0.0%", "20.0%"],
            "{text}"
        );
        let header = text
            .lines()
            .find(|l| l.contains("destroyed"))
            .expect("the outcome header");
        assert_eq!(
            header.split_whitespace().skip(2).collect::<Vec<_>>(),
            OutcomeKind::ALL.map(|k| k.name())
        );
        // JSON: the same names, under `outcomes`.
        let j = serde_json::to_value(&report.matches[1]).unwrap();
        assert_eq!(j["outcomes"]["unfinished"], 3);
        assert!(j.get("draws").is_none() && j.get("escapes").is_none());
    }

    #[test]
    fn wins_and_losses_are_spread_evenly() {
        let order = |w, l| {
            let mut s = Spread::new(w, l);
            (0..w + l)
                .map(|_| if s.next_is_win() { 'W' } else { 'L' })
                .collect::<String>()
        };
        // Wins at 1/6, 3/6, 5/6 of the way, the loss at 1/2 (a tie goes to the win).
        assert_eq!(order(3, 1), "WWLW");
        assert_eq!(order(2, 2), "WLWL");
        assert_eq!(order(1, 4), "LLWLL");
        assert_eq!(order(0, 2), "LL");
        assert_eq!(order(5, 0), "WWWWW");
    }

    fn game(a: &str, b: &str, a_wins: u64, b_wins: u64) -> LadderMatch {
        LadderMatch {
            ship: "s".into(),
            a: a.into(),
            b: b.into(),
            battles: a_wins + b_wins,
            a_wins,
            b_wins,
            outcomes: Outcomes {
                destroyed: a_wins + b_wins,
                ..Outcomes::default()
            },
            a_share: decided_share(a_wins, b_wins),
            ci95: wilson(a_wins, a_wins + b_wins),
        }
    }

    #[test]
    fn every_round_holds_a_slice_of_every_match() {
        let matches = [game("x", "y", 25, 5), game("z", "w", 3, 7)];
        // Four tactics at 10 games each a round: 20 games a round, so 2 rounds of 40.
        let games = rounds(&matches, 4, 10);
        assert_eq!(games.len(), 40);
        let count = |round: i64, who: &[&str]| {
            games
                .iter()
                .filter(|g| g.period == Some(Period::Number(round)))
                .filter(|g| {
                    who.iter()
                        .any(|w| g.order.as_ref().unwrap()[0] == Placing::One(w.to_string()))
                })
                .count()
        };
        // Each round: half of each match, and of each match's wins.
        for round in 0..2 {
            assert_eq!(count(round, &["x", "y"]), 15);
            assert_eq!(count(round, &["z", "w"]), 5);
        }
        assert_eq!([count(0, &["x"]), count(1, &["x"])], [13, 12]);
        assert_eq!(count(2, &["x", "y", "z", "w"]), 0);
    }

    /// A real ladder's record by ship class (the default's wins and losses against classic,
    /// `-n 1000 --seed 1`), which rated the two tactics at ±9.7·10^23 when each class was one
    /// rating period.
    const RECORD: [(u64, u64); 11] = [
        (461, 302),
        (572, 385),
        (604, 400),
        (197, 150),
        (183, 138),
        (572, 385),
        (1115, 575),
        (943, 436),
        (1206, 724),
        (948, 544),
        (480, 214),
    ];

    #[test]
    fn rounds_rate_a_long_lopsided_ladder_where_its_share_says() {
        let mut matches = Vec::new();
        for (w, l) in RECORD {
            // Half of each class's record with the default on each side.
            matches.push(game("default", "classic", w / 2, l / 2));
            matches.push(game("classic", "default", l - l / 2, w - w / 2));
        }
        let ratings = crate::rules::load::load("elo").unwrap();
        let names = ["default".to_string(), "classic".to_string()];
        let opts = LadderOptions {
            tactics: Vec::new(),
            ships: Vec::new(),
            battles: 0,
            seed: 0,
            threads: None,
            ratings: &ratings,
            system: System::Glicko2,
            per_period: 50,
        };
        let rated = rate(&names, &matches, &opts).unwrap();
        let (won, lost) = RECORD.iter().fold((0, 0), |(w, l), r| (w + r.0, l + r.1));
        assert_eq!((rated[0].wins, rated[0].losses), (won, lost));
        let share = won as f64 / (won + lost) as f64;
        // The rating gap's expected score (Glicko's logistic on 400 points) is the share.
        let gap = rated[0].rating - rated[1].rating;
        let expected = 1.0 / (1.0 + 10f64.powf(-gap / 400.0));
        assert!((expected - share).abs() < 0.02, "{rated:?}, share {share}");
        assert!(rated.iter().all(|t| (1400.0..1600.0).contains(&t.rating)));
    }
}
