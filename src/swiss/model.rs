//! A Swiss tournament's history as the pairing sees it: players by starting number, what each
//! did in each round, and the point system. Points are kept in tenths (TRF's own precision), so
//! a half point and a 3/1/0 win are both exact integers.
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub(crate) fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

/// One player's round: a game (played or forfeited), a bye, or absence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Index of the opponent, `None` for a bye or an absence.
    pub opponent: Option<usize>,
    pub colour: Option<Colour>,
    pub outcome: Outcome,
    /// Over the board (a forfeit is paired but not played).
    pub played: bool,
    /// Paired, or given the pairing-allocated bye (not a requested bye or an absence).
    pub paired: bool,
}

impl Round {
    /// A round the player sat out with nothing scored (an absence, a zero-point bye).
    pub fn absent() -> Round {
        Round {
            opponent: None,
            colour: None,
            outcome: Outcome::Loss,
            played: false,
            paired: false,
        }
    }

    pub(crate) fn is_pairing_bye(&self) -> bool {
        self.paired && self.opponent.is_none()
    }
}

/// What each kind of result is worth, in tenths of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    pub win: u32,
    pub draw: u32,
    pub forfeit_win: u32,
    pub half_bye: u32,
    pub loss: u32,
    pub forfeit_loss: u32,
    pub zero_bye: u32,
    pub pairing_bye: u32,
}

impl Default for Points {
    fn default() -> Points {
        Points {
            win: 10,
            draw: 5,
            forfeit_win: 10,
            half_bye: 5,
            loss: 0,
            forfeit_loss: 0,
            zero_bye: 0,
            pairing_bye: 10,
        }
    }
}

impl Points {
    /// What one round earned.
    pub(crate) fn of(&self, round: &Round) -> u32 {
        match round.outcome {
            Outcome::Loss if !round.paired => self.zero_bye,
            Outcome::Loss if round.played => self.loss,
            Outcome::Loss => self.forfeit_loss,
            Outcome::Win if round.is_pairing_bye() => self.pairing_bye,
            Outcome::Win if round.opponent.is_some() && !round.played => self.forfeit_win,
            Outcome::Win => self.win,
            Outcome::Draw if !round.paired => self.half_bye,
            Outcome::Draw => self.draw,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Starting number (1-based, as in the TRF).
    pub number: usize,
    pub name: String,
    /// 0 when unrated.
    pub rating: u32,
    pub rounds: Vec<Round>,
}

/// Everything the pairing reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Indexed by starting number − 1.
    pub entrants: Vec<Entrant>,
    /// Rounds already paired.
    pub played_rounds: usize,
    pub total_rounds: usize,
    pub points: Points,
    /// The colour of the top-ranked player in round 1 (`None`: not said, and not inferable).
    pub initial_colour: Option<Colour>,
    /// Pairs that may never meet (TRF `XXP`), as entrant indices.
    pub forbidden: Vec<Vec<usize>>,
    /// Virtual points (accelerated pairings, FIDE C.04.5.1), in tenths: `acceleration[p][r]`
    /// is added to player `p`'s pairing score before round `r` (0-based) is paired; missing
    /// entries are zero. They never count in the standings.
    pub acceleration: Vec<Vec<u32>>,
}

impl Field {
    /// A player's score after the first `rounds` rounds, in tenths.
    pub(crate) fn score_after(&self, player: usize, rounds: usize) -> u32 {
        self.entrants[player]
            .rounds
            .iter()
            .take(rounds)
            .map(|r| self.points.of(r))
            .sum()
    }

    /// The virtual points player `player` has before round `round` (0-based) is paired.
    pub(crate) fn virtual_points(&self, player: usize, round: usize) -> u32 {
        self.acceleration
            .get(player)
            .and_then(|a| a.get(round))
            .copied()
            .unwrap_or(0)
    }

    /// The score the pairing of round `round` (0-based) sees: the real score after the
    /// rounds before it plus that round's virtual points.
    pub(crate) fn pairing_score(&self, player: usize, round: usize) -> u32 {
        self.score_after(player, round) + self.virtual_points(player, round)
    }
}
