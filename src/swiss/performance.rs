//! The rating tie-breaks (FIDE C.07, 2023, article 10): average rating of opponents (ARO),
//! tournament performance rating (TPR) and perfect tournament performance (PTP). They count
//! only games played over the board against rated opponents (15.2); FIDE's conversion tables
//! between a share of the points and a rating difference come from the ruleset.
use super::model::{Field, Outcome};
use crate::rules::swiss::SwissPerformance;

/// Hundredths of a point for a game's result (the tables are in hundredths).
fn hundredths(outcome: Outcome) -> u32 {
    match outcome {
        Outcome::Win => 100,
        Outcome::Draw => 50,
        Outcome::Loss => 0,
    }
}

/// The rated opponents `p` met over the board, each with `p`'s result in hundredths.
fn rated_games(field: &Field, p: usize) -> Vec<(u32, u32)> {
    field.entrants[p].rounds[..field.played_rounds]
        .iter()
        .filter(|r| r.played)
        .filter_map(|r| {
            r.opponent
                .map(|o| (field.entrants[o].rating, hundredths(r.outcome)))
        })
        .filter(|&(rating, _)| rating > 0)
        .collect()
}

/// `sum / n` rounded to the nearest whole number, a half up (C.07 10.1).
fn rounded_mean(sum: u64, n: u64) -> u64 {
    (2 * sum + n) / (2 * n)
}

/// C.07 10.1 (ARO): the average rating of the rated opponents met over the board, 0 if none.
pub(crate) fn average_rating_of_opponents(field: &Field, p: usize) -> f64 {
    let games = rated_games(field, p);
    if games.is_empty() {
        return 0.0;
    }
    let sum: u64 = games.iter().map(|&(r, _)| u64::from(r)).sum();
    rounded_mean(sum, games.len() as u64) as f64
}

/// C.07 10.2 (TPR): ARO plus the rating difference for the share of the points scored in
/// those games, rounded to hundredths; 0 if no rated game.
pub(crate) fn performance_rating(field: &Field, p: usize, table: &SwissPerformance) -> f64 {
    let games = rated_games(field, p);
    if games.is_empty() {
        return 0.0;
    }
    let n = games.len() as u64;
    let scored: u64 = games.iter().map(|&(_, s)| u64::from(s)).sum();
    let share = rounded_mean(scored, n) as u32;
    average_rating_of_opponents(field, p) + f64::from(table.dp(share))
}

/// C.07 10.3 (PTP): the lowest rating whose expected score against those opponents reaches
/// the points scored; a zero score is the lowest opponent's rating plus the table's
/// difference for 0, a perfect one the highest's plus the difference for 1.
pub(crate) fn perfect_performance(field: &Field, p: usize, table: &SwissPerformance) -> f64 {
    let games = rated_games(field, p);
    let (Some(lowest), Some(highest)) = (
        games.iter().map(|g| i64::from(g.0)).min(),
        games.iter().map(|g| i64::from(g.0)).max(),
    ) else {
        return 0.0;
    };
    let scored: u64 = games.iter().map(|&(_, s)| u64::from(s)).sum();
    if scored == 0 {
        return (lowest + i64::from(table.dp(0))) as f64;
    }
    if scored == 100 * games.len() as u64 {
        return (highest + i64::from(table.dp(100))) as f64;
    }
    let expected = |rating: i64| -> u64 {
        games
            .iter()
            .map(|&(r, _)| u64::from(table.expected(rating - i64::from(r))))
            .sum()
    };
    // Far enough below everyone the expectation is 0, far enough above it is all the points:
    // the answer lies between, and the expectation only grows with the rating.
    let reach = i64::from(*table.expected_score_until.last().unwrap_or(&0)) + 1;
    let (mut below, mut at_least) = (lowest - reach, highest + reach);
    while at_least - below > 1 {
        let mid = below + (at_least - below) / 2;
        if expected(mid) >= scored {
            at_least = mid;
        } else {
            below = mid;
        }
    }
    at_least as f64
}
