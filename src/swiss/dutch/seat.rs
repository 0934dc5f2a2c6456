//! A player as the Dutch system sees them before a round (C.04.3 "Terms and definitions"):
//! score, colour difference and preference, the floats of the last two rounds, who they have
//! met, and whether they may take the pairing-allocated bye.
use crate::swiss::model::{Colour, Field};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    Down,
    Up,
    None,
}

#[derive(Clone, Debug)]
pub(crate) struct Seat {
    /// Entrant index (starting number − 1).
    pub id: usize,
    /// Pairing number among the players still in the tournament (0-based).
    pub rank: usize,
    /// Pairing score in tenths: the score plus this round's virtual points, if accelerated.
    pub score: u32,
    /// |games with white − games with black|.
    pub imbalance: usize,
    pub preference: Option<Colour>,
    /// The colour of the last two played games, when they were the same.
    pub repeated: Option<Colour>,
    /// A strong (not absolute) preference: a colour difference of one.
    pub strong: bool,
    pub bye_eligible: bool,
    /// Floats in the previous round and the one before (`None` when there was none).
    pub floats: [Float; 2],
    /// Colours of played games, oldest first (for the "last time they differed" rule).
    pub colours: Vec<Colour>,
    /// Games played over the board.
    pub games: usize,
}

impl Seat {
    /// An absolute colour preference (C.04.3 A.6.a): difference above one or the same colour
    /// twice running.
    pub(crate) fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }

    pub(crate) fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub(crate) fn new(field: &Field, id: usize, rank: usize) -> Seat {
        let e = &field.entrants[id];
        let (mut white, mut black, mut run) = (0usize, 0usize, 0usize);
        let mut last: Option<Colour> = None;
        let mut colours = Vec::new();
        for r in e
            .rounds
            .iter()
            .take(field.played_rounds)
            .filter(|r| r.played)
        {
            let c = r.colour.expect("a played game has a colour");
            colours.push(c);
            match c {
                Colour::White => white += 1,
                Colour::Black => black += 1,
            }
            run = if run == 0 || Some(c) != last {
                1
            } else {
                run + 1
            };
            last = Some(c);
        }
        let fewer = if white > black {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = white.abs_diff(black);
        let preference = if imbalance > 1 {
            Some(fewer)
        } else if run > 1 {
            last.map(Colour::other)
        } else if imbalance > 0 {
            Some(fewer)
        } else {
            last.map(Colour::other)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let points = &field.points;
        // C.04.3 (2025) C.2: no second bye-like full point: not after a pairing-allocated bye,
        // a forfeit win or a full-point bye.
        let bye_eligible = e
            .rounds
            .iter()
            .take(field.played_rounds)
            .all(|r| r.played || points.of(r) < points.win);
        let mut floats = [Float::None; 2];
        for (back, slot) in floats.iter_mut().enumerate() {
            let back = back + 1;
            if field.played_rounds >= back {
                *slot = float_in(field, id, field.played_rounds - back);
            }
        }
        Seat {
            id,
            rank,
            score: field.pairing_score(id, field.played_rounds),
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
            bye_eligible,
            floats,
            games: colours.len(),
            colours,
        }
    }
}

/// A player who did not play a round but scored in it (a bye, a forfeit win) counts as having
/// floated down; one who scored nothing did not float.
fn float_in(field: &Field, id: usize, round: usize) -> Float {
    let r = &field.entrants[id].rounds[round];
    let Some(o) = r.opponent.filter(|_| r.played) else {
        return if field.points.of(r) > field.points.loss {
            Float::Down
        } else {
            Float::None
        };
    };
    // Scores as that round's pairing saw them, its virtual points included.
    let mine = field.pairing_score(id, round);
    let theirs = field.pairing_score(o, round);
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}
