//! One player's value for one tie-break (FIDE C.07, 2023), by the name a ruleset lists it
//! under: points for the Buchholz family and Sonneborn-Berger, counts for wins and games with
//! black, ratings for ARO, TPR and PTP. Direct encounter depends on the tied group and is
//! worked out in `standings`.
use super::model::{Colour, Field, Outcome};
use super::performance;
use super::unplayed::{cut_one, opponent_scores};
use crate::rules::swiss::SwissPerformance;

fn pts(t: u32) -> f64 {
    t as f64 / 10.0
}

/// The share of a win a round earned: 1, ½, 0 for a game; a bye or a forfeit by what it
/// scored against a win's points.
fn share(field: &Field, r: &super::model::Round) -> f64 {
    if r.played {
        match r.outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    } else {
        field.points.of(r) as f64 / field.points.win.max(1) as f64
    }
}

/// `name`'s value for player `p` (`score`: everyone's points, in tenths).
pub(crate) fn individual(
    field: &Field,
    score: &[u32],
    p: usize,
    name: &str,
    performance_table: Option<&SwissPerformance>,
) -> f64 {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    let points = &field.points;
    let terms = opponent_scores(field, score, p);
    let buchholz: u32 = terms.iter().sum();
    let cut = cut_one(field, p, &terms);
    let cut_value = cut.map_or(0, |i| terms[i]);
    let count = |keep: &dyn Fn(&&super::model::Round) -> bool| rounds.iter().filter(keep).count();
    // An empty sum of floats is -0.0; + 0.0 makes it 0 (JSON would say -0.0).
    match name {
        // C.07 8.1 with 16.3 and 16.4.
        "buchholz" => pts(buchholz),
        // C.07 8.1 with the Cut-1 modifier (14.1) and 16.5.
        "buchholz_cut1" => pts(buchholz - cut_value),
        // C.07 8.1 with the Median-1 modifier (14.3): the Cut-1 term and the highest.
        "buchholz_median" => {
            if terms.len() < 3 {
                return 0.0;
            }
            let highest = (0..terms.len())
                .filter(|&i| Some(i) != cut)
                .map(|i| terms[i])
                .max()
                .unwrap_or(0);
            pts(buchholz - cut_value - highest)
        }
        // C.07 9.1: each opponent's score (as the Buchholz counts it) times the result.
        "sonneborn_berger" => {
            rounds
                .iter()
                .zip(&terms)
                .map(|(r, &s)| pts(s) * share(field, r))
                .sum::<f64>()
                + 0.0
        }
        "wins" => count(&|r| r.outcome == Outcome::Win && r.opponent.is_some()) as f64,
        // C.07 7.1: rounds that earned a win's points, played or not (byes and forfeits too).
        "win" => count(&|r| points.of(r) >= points.win) as f64,
        // C.07 7.2: games won over the board.
        "won" => count(&|r| r.played && r.outcome == Outcome::Win) as f64,
        // C.07 7.4: games won with black over the board.
        "black_wins" => {
            count(&|r| r.played && r.outcome == Outcome::Win && r.colour == Some(Colour::Black))
                as f64
        }
        // C.07 7.3: games played with black.
        "black_games" => count(&|r| r.played && r.colour == Some(Colour::Black)) as f64,
        // C.07 9.2 (Koya, for round robins): points against the opponents who scored at least
        // half of what the rounds played could give.
        "koya" => {
            let max = field.played_rounds as u32 * points.win;
            rounds
                .iter()
                .filter(|r| r.opponent.is_some_and(|o| 2 * score[o] >= max))
                .map(|r| pts(points.of(r)))
                .sum::<f64>()
                + 0.0
        }
        "average_rating_of_opponents" => performance::average_rating_of_opponents(field, p),
        "performance_rating" => {
            performance_table.map_or(0.0, |t| performance::performance_rating(field, p, t))
        }
        "perfect_performance" => {
            performance_table.map_or(0.0, |t| performance::perfect_performance(field, p, t))
        }
        // C.07 7.5: the running score after each round, summed.
        "progressive" => {
            let mut run = 0;
            let mut total = 0;
            for r in rounds {
                run += points.of(r);
                total += run;
            }
            pts(total)
        }
        _ => 0.0,
    }
}
