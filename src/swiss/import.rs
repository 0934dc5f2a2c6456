//! A TRF turned into an arbiter tournament (`swiss import`): every game with its result,
//! forfeits, the pairing-allocated byes, byes asked for (full, half, zero) and absences, so
//! that `swiss export --trf` of it reads back to the same data.
use super::acceleration::{baku, baku_rounds};
use super::model::{Colour, Field, Outcome};
use super::tournament::{Board, ByeKind, PairedRound, Player, RequestedBye, Tournament};
use crate::error::{Error, Result};

/// The tournament `field` describes, named `name`, scored by the ruleset `rules` (whose points
/// the caller has checked against the file's).
pub(crate) fn tournament(name: &str, rules: &str, field: &Field) -> Result<Tournament> {
    let n = field.entrants.len();
    let played = field.played_rounds;
    let mut players: Vec<Player> = field
        .entrants
        .iter()
        .map(|e| Player {
            name: e.name.clone(),
            rating: e.rating,
            byes: Vec::new(),
            withdrawn_from: None,
            entered_at: None,
        })
        .collect();
    let mut paired = Vec::with_capacity(played);
    for k in 0..played {
        let mut round = PairedRound {
            boards: Vec::new(),
            bye: None,
        };
        for p in 0..n {
            let r = &field.entrants[p].rounds[k];
            let mut bye = |kind| players[p].byes.push(RequestedBye { round: k + 1, kind });
            match r.opponent {
                Some(o) if p < o => {
                    let theirs = &field.entrants[o].rounds[k];
                    // A forfeit written without colours: the lower number takes white.
                    let p_white = r.colour != Some(Colour::Black);
                    let (white, black) = if p_white { (p, o) } else { (o, p) };
                    let (w, b) = if p_white { (r, theirs) } else { (theirs, r) };
                    let result = match (w.outcome, b.outcome, r.played) {
                        (Outcome::Win, Outcome::Loss, true) => "1-0",
                        (Outcome::Loss, Outcome::Win, true) => "0-1",
                        (Outcome::Draw, Outcome::Draw, true) => "1/2-1/2",
                        (Outcome::Win, Outcome::Loss, false) => "+-",
                        (Outcome::Loss, Outcome::Win, false) => "-+",
                        (Outcome::Loss, Outcome::Loss, false) => "--",
                        _ => {
                            return Err(Error::msg(format!(
                                "round {}: the result between {} and {} has no arbiter form \
                                 (1-0, 0-1, 1/2-1/2, +-, -+, --)",
                                k + 1,
                                p + 1,
                                o + 1
                            )))
                        }
                    };
                    round.boards.push(Board {
                        white: white + 1,
                        black: black + 1,
                        result: Some(result.to_string()),
                    });
                }
                Some(_) => {}
                None if r.is_pairing_bye() => round.bye = Some(p + 1),
                None => bye(match r.outcome {
                    Outcome::Win => ByeKind::Full,
                    Outcome::Draw => ByeKind::Half,
                    Outcome::Loss => ByeKind::Zero,
                }),
            }
        }
        paired.push(round);
    }
    // Byes already asked for the round to come.
    for (p, e) in field.entrants.iter().enumerate() {
        if let Some(r) = e.rounds.get(played).filter(|r| !r.paired) {
            let kind = match r.outcome {
                Outcome::Win => ByeKind::Full,
                Outcome::Draw => ByeKind::Half,
                Outcome::Loss => ByeKind::Zero,
            };
            players[p].byes.push(RequestedBye {
                round: played + 1,
                kind,
            });
        }
    }
    let t = Tournament {
        name: name.to_string(),
        rules: rules.to_string(),
        ruleset: None,
        embedded_rules: None,
        rounds: field.total_rounds.max(played).max(1),
        first_colour: field.initial_colour.unwrap_or(Colour::White),
        players,
        paired,
        accelerated_rounds: accelerated_rounds(field)?,
    };
    t.check()?;
    Ok(t)
}

/// The file's virtual points as the tournament format keeps them: the Baku method's number of
/// accelerated rounds (FIDE's own, half the rounds rounded up, when the file's points fit it
/// too). Other virtual points have no place in the format and are refused.
fn accelerated_rounds(field: &Field) -> Result<Option<usize>> {
    let given = &field.acceleration;
    if given.iter().all(|row| row.iter().all(|&v| v == 0)) {
        return Ok(None);
    }
    let n = field.entrants.len();
    let p = &field.points;
    // A file gives the rounds so far, or all of them: compare what it gives.
    let width = given.iter().map(Vec::len).max().unwrap_or(0);
    let fits = |a: usize| {
        let expected = baku(n, a, &[p.win, p.draw]);
        (0..n).all(|i| {
            let row = given.get(i).map_or(&[][..], Vec::as_slice);
            (0..width).all(|r| {
                row.get(r).copied().unwrap_or(0) == expected[i].get(r).copied().unwrap_or(0)
            })
        })
    };
    let fide = baku_rounds(field.total_rounds);
    let found = std::iter::once(fide)
        .chain(1..=field.total_rounds)
        .find(|&a| fits(a));
    match found {
        Some(a) => Ok(Some(a)),
        None => Err(Error::msg(
            "the file's virtual points (XXA, 250) are not the Baku acceleration's (the top half \
             of the players, rounded up to an even number, a win's points then a draw's): an \
             arbiter tournament keeps only that; pair this file with `swiss pair FILE.trf`",
        )),
    }
}
