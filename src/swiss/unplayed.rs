//! Unplayed rounds in the tie-breaks (FIDE C.07, 2023, article 16). A round the player chose
//! not to play (a forfeit loss, a bye asked for that scored less than a win, an absence) is
//! "voluntarily unplayed": Cut-1 and Median cut it first (16.5). For his opponents' Buchholz
//! and Sonneborn-Berger he counts the rounds he was not paired in after the last round he took
//! part in (a withdrawal) as draws (16.2.5, 16.3); every other round counts what it earned.
//! These are the values of FIDE's published tie-break exercises (C.07, 2024-03-22) and of the
//! tie-break checker FIDE's Technical Commission publishes.
use super::model::{Field, Outcome, Round};

/// C.07 16.5: a round the player chose not to play. Not the pairing-allocated bye, not a win
/// by the opponent's forfeit, not a bye worth a win.
pub(crate) fn voluntarily_unplayed(r: &Round) -> bool {
    !r.played && !r.is_pairing_bye() && r.outcome != Outcome::Win
}

/// C.07 16.3: a player's score as his opponents' Buchholz and Sonneborn-Berger count it, in
/// tenths: the rounds after the last one he did not choose to miss, where he was not paired,
/// count as draws.
pub(crate) fn adjusted_score(field: &Field, p: usize) -> u32 {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    let last_taken_part = rounds.iter().rposition(|r| !voluntarily_unplayed(r));
    rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let after_leaving = last_taken_part.is_none_or(|last| i > last);
            if after_leaving && r.opponent.is_none() {
                field.points.draw
            } else {
                field.points.of(r)
            }
        })
        .sum()
}

/// Each round's opponent score for the Buchholz family and Sonneborn-Berger, in tenths: the
/// opponent's adjusted score, or the player's own score when the round was not played over
/// the board (the dummy opponent of 16.4).
pub(crate) fn opponent_scores(field: &Field, score: &[u32], p: usize) -> Vec<u32> {
    field.entrants[p].rounds[..field.played_rounds]
        .iter()
        .map(|r| match r.opponent.filter(|_| r.played) {
            Some(o) => adjusted_score(field, o),
            None => score[p],
        })
        .collect()
}

/// The round Cut-1 drops (C.07 14.1 with 16.5): the lowest of the rounds the player chose not
/// to play, else the lowest of all.
pub(crate) fn cut_one(field: &Field, p: usize, terms: &[u32]) -> Option<usize> {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    let lowest = |pick: &dyn Fn(usize) -> bool| {
        (0..terms.len())
            .filter(|&i| pick(i))
            .min_by_key(|&i| terms[i])
    };
    lowest(&|i| voluntarily_unplayed(&rounds[i])).or_else(|| lowest(&|_| true))
}
