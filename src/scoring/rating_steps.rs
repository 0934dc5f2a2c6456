//! The ratings a player actually held, and from when: what a chart of ratings over time may
//! draw. A game rated against its period's start (Elo, Glicko-2 with periods) changes nobody's
//! rating until the period ends, so its row's `after` is not a rating anyone held; the rating
//! the period leaves is the one the player carries into their next game (or ends with).
use super::rating_report::{GameChanges, RatingReport};
use crate::names;

/// A rating a player held from `at` (games rated so far) until their next step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Held {
    /// Games rated when this rating took effect (0: before the first game).
    pub at: usize,
    pub rating: f64,
    /// Its deviation, for the systems that keep one (none recorded for a starting rating).
    pub deviation: Option<f64>,
}

/// Each rating `name` held, in order: the start (just before their first game) and then one
/// step per game, or per rating period for the games rated against its start. Empty when the
/// player has no recorded game.
pub(crate) fn held(report: &RatingReport, name: &str) -> Vec<Held> {
    let games = &report.games;
    let mut steps: Vec<Held> = Vec::new();
    let mut g = 0;
    while g < games.len() {
        // A run of games rated against one period's start counts as one step at its end.
        let end = block_end(games, g);
        let mine: Vec<usize> = (g..end)
            .filter(|&k| games[k].players.iter().any(|c| names::same(&c.name, name)))
            .collect();
        if let Some(&last) = mine.last() {
            let row = |k: usize| {
                games[k]
                    .players
                    .iter()
                    .find(|c| names::same(&c.name, name))
                    .expect("the player's row")
            };
            if steps.is_empty() {
                let first = row(mine[0]);
                let start = report
                    .players
                    .iter()
                    .find(|p| p.name == first.name)
                    .map_or(first.before, |p| p.start);
                steps.push(Held {
                    at: mine[0],
                    rating: start,
                    deviation: None,
                });
            }
            let rating = if games[g].from_period_start {
                carried(report, name, end).unwrap_or(row(last).after)
            } else {
                row(last).after
            };
            steps.push(Held {
                at: end,
                rating,
                deviation: row(last).deviation,
            });
        }
        g = end;
    }
    steps
}

/// One past the last game of the block starting at `g`: the game itself, or every following
/// game of the same period rated against its start.
fn block_end(games: &[GameChanges], g: usize) -> usize {
    let mut end = g + 1;
    if games[g].from_period_start {
        while end < games.len()
            && games[end].from_period_start
            && games[end].period == games[g].period
        {
            end += 1;
        }
    }
    end
}

/// The rating `name` carries out of the games before `from`: the `before` of their next
/// game, else their final rating (only games change a rating).
fn carried(report: &RatingReport, name: &str, from: usize) -> Option<f64> {
    report.games[from..]
        .iter()
        .flat_map(|g| &g.players)
        .find(|c| names::same(&c.name, name))
        .map(|c| c.before)
        .or_else(|| {
            report
                .players
                .iter()
                .find(|p| names::same(&p.name, name))
                .map(|p| p.rating)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scoring::System;
    use crate::scoring::{parse_history, ratings::RateOptions};

    fn report(system: System, text: &str) -> RatingReport {
        let mut ruleset = crate::rules::load::load("elo").expect("built-in elo");
        ruleset.scoring.as_mut().expect("scoring").system = system;
        parse_history("h.yaml", text.to_string())
            .expect("history")
            .rate(
                &ruleset,
                RateOptions {
                    record_games: true,
                    ..RateOptions::default()
                },
            )
            .expect("rated")
    }

    const PERIOD: &str = "ratings: { Ana: 1613, Bo: 1609 }\ngames:\n  - { period: 1, order: [Bo, Ana] }\n  - { period: 1, order: [Ana, Cy] }\n  - { order: [Ana, Bo] }\n";

    #[test]
    fn a_period_rated_from_its_start_is_one_step_at_its_end() {
        let r = report(System::Elo, PERIOD);
        assert!(
            r.games[0].from_period_start,
            "elo rates a period from its start"
        );
        let ana = held(&r, "ana");
        let at: Vec<usize> = ana.iter().map(|h| h.at).collect();
        assert_eq!(at, vec![0, 2, 3], "start, period end, the free game");
        assert_eq!(ana[0].rating, 1613.0);
        // The period's end is the rating Ana took into game 3, not game 1's row alone.
        assert_eq!(ana[1].rating, r.games[2].players[0].before);
        let sum = r.games[0].players[1].change + r.games[1].players[0].change;
        assert!((ana[1].rating - (1613.0 + sum)).abs() < 1e-9);
        assert!(
            (ana[1].rating - r.games[1].players[0].after).abs() > 10.0,
            "game 2's row (1613 + its own change) is a rating Ana never held"
        );
        assert_eq!(ana[2].rating, r.players[0].rating);
        // Cy's only game is in the period: he ends with his final rating.
        let cy = held(&r, "Cy");
        assert_eq!(cy.len(), 2);
        assert_eq!(cy[0].at, 1, "Cy's line starts where he arrives");
        assert_eq!(cy[1].rating, r.players[2].rating);
    }

    #[test]
    fn games_rated_in_order_step_at_every_game() {
        let r = report(
            System::TrueSkill,
            &PERIOD.replace("ratings: { Ana: 1613, Bo: 1609 }\n", ""),
        );
        let ana = held(&r, "Ana");
        assert_eq!(
            ana.iter().map(|h| h.at).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        assert_eq!(ana[1].rating, r.games[0].players[1].after);
        assert!(ana[1..].iter().all(|h| h.deviation.is_some()));
        assert!(held(&r, "Zed").is_empty());
    }
}
