//! The tournament file `swiss new` writes and the other commands change: players, rounds
//! paired, results, byes asked for ahead, withdrawals. It turns into a [`Field`] for the
//! pairing and the standings. Pure: the CLI reads and writes the file.
use super::dutch::Pairing;
use super::model::{Colour, Entrant, Field, Outcome, Points, Round};
use crate::error::{Conflict, Error, Result};
use crate::rules::swiss::{SwissPoints, SwissRules};
use serde::{Deserialize, Serialize};

/// Most players a tournament file may hold (TRF numbers have four digits).
pub(crate) const MAX_PLAYERS: usize = 9999;
pub(crate) const MAX_ROUNDS: usize = 99;
/// Highest rating a player may have: TRF writes ratings in four columns (49-52).
pub(crate) const MAX_RATING: u32 = 9999;
/// Most points a player may reach, in tenths: TRF writes a score in four columns (`99.9`).
pub(crate) const MAX_SCORE_TENTHS: u32 = 999;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    #[serde(default)]
    pub name: String,
    /// The ruleset (points and tie-breaks), by name or path.
    pub rules: String,
    /// The ruleset's name, version and sha256 when the tournament began (`swiss table` warns
    /// when the rules it names have changed since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<crate::rules::identity::Identity>,
    /// The whole ruleset as it began (`swiss new --embed-rules`, in the rules language): the
    /// tournament is then always counted under it, whatever `rules` names now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded_rules: Option<String>,
    pub rounds: usize,
    /// The colour of pairing number 1 in round 1.
    #[serde(default = "white")]
    pub first_colour: Colour,
    pub players: Vec<Player>,
    #[serde(default)]
    pub paired: Vec<PairedRound>,
    /// The first rounds paired with the Baku acceleration (FIDE C.04.5.1), the virtual points
    /// the ruleset's `acceleration` section gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accelerated_rounds: Option<usize>,
}

fn white() -> Colour {
    Colour::White
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    #[serde(default)]
    pub rating: u32,
    /// Byes asked for ahead: round → half or zero.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) byes: Vec<RequestedBye>,
    /// Plays no more from this round on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<usize>,
    /// Entered late: absent (zero) before this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered_at: Option<usize>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct RequestedBye {
    pub round: usize,
    pub kind: ByeKind,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ByeKind {
    Half,
    Zero,
    /// Worth a win, asked for ahead (TRF `F`; C.04.2 allows it, FIDE rarely uses it).
    Full,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PairedRound {
    pub boards: Vec<Board>,
    /// The pairing-allocated bye (player number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub white: usize,
    pub black: usize,
    /// `1-0`, `0-1`, `1/2-1/2`, forfeits `+-`, `-+`, `--`; absent until played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// The results a board may record.
pub const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"];

/// (white's outcome, black's outcome, played over the board)
fn outcome(result: &str) -> Option<(Outcome, Outcome, bool)> {
    Some(match result {
        "1-0" => (Outcome::Win, Outcome::Loss, true),
        "0-1" => (Outcome::Loss, Outcome::Win, true),
        "1/2-1/2" | "½-½" => (Outcome::Draw, Outcome::Draw, true),
        "+-" => (Outcome::Win, Outcome::Loss, false),
        "-+" => (Outcome::Loss, Outcome::Win, false),
        "--" => (Outcome::Loss, Outcome::Loss, false),
        _ => return None,
    })
}

/// Points in tenths from the ruleset's values.
pub fn points_of(rules: &SwissRules) -> Points {
    let p: &SwissPoints = &rules.points;
    let t = SwissRules::tenths;
    let all = p.all();
    let v = |name: &str| t(all.iter().find(|(n, _)| *n == name).expect("known").1);
    Points {
        win: v("win"),
        draw: v("draw"),
        forfeit_win: v("forfeit_win"),
        half_bye: v("half_bye"),
        loss: v("loss"),
        forfeit_loss: v("forfeit_loss"),
        zero_bye: v("zero_bye"),
        pairing_bye: v("pairing_bye"),
    }
}

impl Tournament {
    /// A new tournament; players are numbered by rating, highest first (the entry order
    /// breaks ties), as FIDE's initial ranking list.
    pub fn new(
        name: &str,
        rules: &str,
        rounds: usize,
        mut players: Vec<(String, u32)>,
    ) -> Result<Tournament> {
        if rounds == 0 || rounds > MAX_ROUNDS {
            return Err(Error::msg(format!(
                "a tournament has 1 to {MAX_ROUNDS} rounds"
            )));
        }
        if players.len() < 2 || players.len() > MAX_PLAYERS {
            return Err(Error::msg(format!(
                "a tournament has 2 to {MAX_PLAYERS} players"
            )));
        }
        // n − 1 rounds (n, with a bye each, when n is odd) pair every two players once: one
        // more round would need a rematch, so the field could never be paired to the end.
        let n = players.len();
        let most = n - 1 + n % 2;
        if rounds > most {
            let byes = if n % 2 == 1 { ", one bye each" } else { "" };
            let plural = if most == 1 { "" } else { "s" };
            return Err(Error::out_of_range(
                "rounds",
                format!(
                    "{n} players can play at most {most} round{plural} without a rematch (each \
                     meets every other once{byes}): no pairing could be made after round {most}"
                ),
            ));
        }
        players.sort_by_key(|p| std::cmp::Reverse(p.1));
        let t = Tournament {
            name: name.trim().to_string(),
            rules: rules.to_string(),
            ruleset: None,
            embedded_rules: None,
            rounds,
            first_colour: Colour::White,
            players: players
                .into_iter()
                .map(|(name, rating)| Player {
                    name: name.trim().to_string(),
                    rating,
                    byes: Vec::new(),
                    withdrawn_from: None,
                    entered_at: None,
                })
                .collect(),
            paired: Vec::new(),
            accelerated_rounds: None,
        };
        t.check()?;
        Ok(t)
    }

    /// What types cannot say: names unique and printable, numbers in range (ratings as TRF
    /// writes them), each player once a round, every result known, no bye requested for a
    /// round already paired.
    pub fn check(&self) -> Result<()> {
        crate::names::check_printable("tournament", &self.name)?;
        let n = self.players.len();
        if self.rounds == 0 || self.rounds > MAX_ROUNDS || self.paired.len() > self.rounds {
            return Err(Error::msg(format!(
                "{} rounds paired of {} (a tournament has 1 to {MAX_ROUNDS})",
                self.paired.len(),
                self.rounds
            )));
        }
        if n > MAX_PLAYERS {
            return Err(Error::msg(format!("more than {MAX_PLAYERS} players")));
        }
        if let Some(a) = self.accelerated_rounds {
            if a == 0 || a > self.rounds {
                return Err(Error::out_of_range(
                    "accelerated_rounds",
                    format!(
                        "{a} accelerated rounds in a tournament of {} (1 to {})",
                        self.rounds, self.rounds
                    ),
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for p in &self.players {
            if p.name.trim().is_empty() {
                return Err(Error::msg("a player has an empty name"));
            }
            crate::names::check_printable("player", &p.name)?;
            if p.rating > MAX_RATING {
                return Err(Error::out_of_range(
                    "rating",
                    format!(
                        "player `{}`: rating {} is more than {MAX_RATING} (TRF writes ratings in \
                         four digits)",
                        p.name, p.rating
                    ),
                ));
            }
            if !seen.insert(crate::names::normalize(&p.name)) {
                return Err(Error::msg(format!("player `{}` is listed twice", p.name)));
            }
        }
        for (k, r) in self.paired.iter().enumerate() {
            let mut used = vec![false; n];
            let mut take = |x: usize| -> Result<()> {
                if x == 0 || x > n {
                    return Err(Error::msg(format!("round {}: no player number {x}", k + 1)));
                }
                if std::mem::replace(&mut used[x - 1], true) {
                    return Err(Error::msg(format!(
                        "round {}: player {x} is paired twice",
                        k + 1
                    )));
                }
                Ok(())
            };
            for b in &r.boards {
                take(b.white)?;
                take(b.black)?;
                if let Some(res) = &b.result {
                    if outcome(res).is_none() {
                        return Err(Error::msg(format!(
                            "round {}: `{res}` is not a result ({})",
                            k + 1,
                            RESULTS.join(", ")
                        )));
                    }
                }
            }
            if let Some(b) = r.bye {
                take(b)?;
            }
        }
        Ok(())
    }

    /// Player number (1-based) from a number or a name.
    pub(crate) fn player(&self, who: &str) -> Result<usize> {
        if let Ok(n) = who.trim().parse::<usize>() {
            if n >= 1 && n <= self.players.len() {
                return Ok(n);
            }
            return Err(Error::msg(format!("no player number {n}")));
        }
        let key = crate::names::normalize(who);
        self.players
            .iter()
            .position(|p| crate::names::normalize(&p.name) == key)
            .map(|i| i + 1)
            .ok_or_else(|| {
                let names = self.players.iter().map(|p| p.name.as_str());
                let hint = crate::names::suggestion(who, names);
                Error::msg(format!("no player named `{who}`{hint}"))
            })
    }

    fn absent_in(&self, p: usize, round: usize) -> Option<Round> {
        let pl = &self.players[p];
        let gone = pl.withdrawn_from.is_some_and(|r| round + 1 >= r)
            || pl.entered_at.is_some_and(|r| round + 1 < r);
        let bye = pl.byes.iter().find(|b| b.round == round + 1);
        match (gone, bye) {
            (true, _) => Some(Round::absent()),
            (false, Some(b)) => Some(Round {
                outcome: match b.kind {
                    ByeKind::Half => Outcome::Draw,
                    ByeKind::Zero => Outcome::Loss,
                    ByeKind::Full => Outcome::Win,
                },
                ..Round::absent()
            }),
            _ => None,
        }
    }

    /// The history as the pairing and standings see it. `next`: include the next round's
    /// known absences (requested byes, withdrawals) so they are not paired.
    pub fn field(&self, rules: &SwissRules, next: bool) -> Result<Field> {
        let n = self.players.len();
        let mut rounds: Vec<Vec<Round>> = vec![Vec::new(); n];
        // Standings and exports count the rounds whose results are all in.
        let unfinished = self
            .paired
            .last()
            .is_some_and(|r| r.boards.iter().any(|b| b.result.is_none()));
        let counted = if !next && unfinished {
            self.paired.len() - 1
        } else {
            self.paired.len()
        };
        for (k, r) in self.paired[..counted].iter().enumerate() {
            let mut slot: Vec<Option<Round>> = vec![None; n];
            for b in &r.boards {
                let (w, bl) = (b.white - 1, b.black - 1);
                let res = b.result.as_deref();
                let (ow, ob, played) = match res.and_then(outcome) {
                    Some(o) => o,
                    None => {
                        return Err(Error::msg(format!(
                        "round {} is not finished: {} - {} has no result (arbiter swiss record)",
                        k + 1,
                        self.players[w].name,
                        self.players[bl].name
                    )))
                    }
                };
                let mk = |opp: usize, c: Colour, o: Outcome| Round {
                    opponent: Some(opp),
                    colour: Some(c),
                    outcome: o,
                    played,
                    paired: true,
                };
                slot[w] = Some(mk(bl, Colour::White, ow));
                slot[bl] = Some(mk(w, Colour::Black, ob));
            }
            if let Some(b) = r.bye {
                slot[b - 1] = Some(Round {
                    outcome: Outcome::Win,
                    paired: true,
                    ..Round::absent()
                });
            }
            for (p, s) in slot.into_iter().enumerate() {
                rounds[p].push(
                    s.or_else(|| self.absent_in(p, k))
                        .unwrap_or(Round::absent()),
                );
            }
        }
        let played = counted;
        if next && played < self.rounds {
            for (p, r) in rounds.iter_mut().enumerate() {
                if let Some(a) = self.absent_in(p, played) {
                    r.push(a);
                }
            }
        }
        let entrants = self
            .players
            .iter()
            .zip(rounds)
            .enumerate()
            .map(|(i, (p, rounds))| Entrant {
                number: i + 1,
                name: p.name.clone(),
                rating: p.rating,
                rounds,
            })
            .collect();
        Ok(Field {
            entrants,
            played_rounds: played,
            total_rounds: self.rounds,
            points: points_of(rules),
            initial_colour: Some(self.first_colour),
            forbidden: Vec::new(),
            acceleration: self.acceleration(rules)?,
        })
    }

    /// The Baku acceleration's virtual points by player and round, when the tournament asks
    /// for it. Group A is fixed by the players entered before round 1 was paired: a later
    /// entry does not move its last player (C.04.5.1 3), it only joins it when numbered
    /// above him.
    fn acceleration(&self, rules: &SwissRules) -> Result<Vec<Vec<u32>>> {
        let Some(rounds) = self.accelerated_rounds else {
            return Ok(Vec::new());
        };
        let Some(a) = &rules.acceleration else {
            return Err(Error::msg(format!(
                "the tournament asks for {rounds} accelerated rounds, but its ruleset `{}` has \
                 no `swiss.acceleration` section (its virtual points)",
                self.rules
            )));
        };
        let stages: Vec<u32> = a
            .virtual_points
            .iter()
            .map(|&v| SwissRules::tenths(v))
            .collect();
        let original = self
            .players
            .iter()
            .filter(|p| p.entered_at.is_none())
            .count();
        let group = super::acceleration::baku_group(original);
        let last = self
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.entered_at.is_none())
            .nth(group.saturating_sub(1))
            .map_or(0, |(i, _)| i + 1);
        let per_round = super::acceleration::by_round(rounds, &stages);
        let table = (0..self.players.len())
            .map(|i| {
                if i < last {
                    per_round.clone()
                } else {
                    Vec::new()
                }
            })
            .collect();
        Ok(table)
    }

    /// Record a result on the board of `white` and `black` in `round`; the result it replaced,
    /// if any. A board that has a result keeps it unless `correct`; a round the next one was
    /// paired on keeps its results even then (that pairing rests on them).
    pub(crate) fn record(
        &mut self,
        round: usize,
        white: usize,
        black: usize,
        result: &str,
        correct: bool,
    ) -> Result<Option<String>> {
        if outcome(result).is_none() {
            return Err(Error::msg(format!(
                "`{result}` is not a result ({})",
                RESULTS.join(", ")
            )));
        }
        let paired = self.paired.len();
        let names = |p: usize| self.players.get(p.wrapping_sub(1)).map(|p| p.name.clone());
        let (white_name, black_name) = (
            names(white).unwrap_or_else(|| white.to_string()),
            names(black).unwrap_or_else(|| black.to_string()),
        );
        let r = self
            .paired
            .get_mut(round.wrapping_sub(1))
            .ok_or_else(|| Error::msg(format!("round {round} is not paired")))?;
        let board = r
            .boards
            .iter_mut()
            .find(|b| (b.white, b.black) == (white, black))
            .ok_or_else(|| {
                Error::msg(format!(
                    "round {round} has no board with {white} white and {black} black"
                ))
            })?;
        let game = format!("round {round}: {white_name} - {black_name}");
        if round < paired {
            let had = board
                .result
                .as_deref()
                .map(|r| format!(" (it has {r})"))
                .unwrap_or_default();
            return Err(Error::msg(format!(
                "{game} cannot change{had}: round {} is already paired on round {round}'s \
                 results",
                round + 1
            )));
        }
        match &board.result {
            Some(old) if !correct => Err(Error::conflict(
                Conflict::ResultRecorded,
                format!("{game} already has a result ({old})"),
            )),
            _ => Ok(board.result.replace(result.to_string())),
        }
    }

    /// A bye asked for ahead, for a round not paired yet.
    pub(crate) fn request_bye(&mut self, player: usize, round: usize, kind: ByeKind) -> Result<()> {
        if round <= self.paired.len() || round > self.rounds {
            return Err(Error::msg(format!(
                "a bye is asked for a round still to pair ({} to {})",
                self.paired.len() + 1,
                self.rounds
            )));
        }
        let p = &mut self.players[player - 1];
        p.byes.retain(|b| b.round != round);
        p.byes.push(RequestedBye { round, kind });
        p.byes.sort_by_key(|b| b.round);
        Ok(())
    }

    pub(crate) fn withdraw(&mut self, player: usize, from: usize) -> Result<()> {
        if from <= self.paired.len() || from > self.rounds {
            return Err(Error::msg(format!(
                "a withdrawal starts at a round still to pair ({} to {})",
                self.paired.len() + 1,
                self.rounds
            )));
        }
        self.players[player - 1].withdrawn_from = Some(from);
        Ok(())
    }

    /// A late entry: numbered after everyone already in, absent (zero points) before.
    pub fn add(&mut self, name: &str, rating: u32) -> Result<usize> {
        let name = name.trim();
        if self.paired.len() >= self.rounds {
            return Err(Error::msg("the tournament has no round left to play"));
        }
        // Numbers are starting ranks (rating order, earlier entries first on a tie): a late
        // entry takes its place in that order and the players below it move down one, in
        // the rounds already paired too.
        let at = self
            .players
            .iter()
            .position(|p| p.rating < rating)
            .unwrap_or(self.players.len());
        self.players.insert(
            at,
            Player {
                name: name.to_string(),
                rating,
                byes: Vec::new(),
                withdrawn_from: None,
                entered_at: (!self.paired.is_empty()).then(|| self.paired.len() + 1),
            },
        );
        let number = at + 1;
        let shift = |x: &mut usize| {
            if *x >= number {
                *x += 1;
            }
        };
        for r in &mut self.paired {
            for b in &mut r.boards {
                shift(&mut b.white);
                shift(&mut b.black);
            }
            if let Some(b) = r.bye.as_mut() {
                shift(b);
            }
        }
        self.check()?;
        Ok(number)
    }

    /// Refuse a tournament whose scores could outgrow TRF's points column: `rounds` times the
    /// most a round can be worth must stay within 99.9.
    pub fn check_scores_fit(&self, points: &Points) -> Result<()> {
        let p = points;
        let most = [
            p.win,
            p.draw,
            p.forfeit_win,
            p.half_bye,
            p.loss,
            p.forfeit_loss,
            p.zero_bye,
            p.pairing_bye,
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        let reach = most as usize * self.rounds;
        if reach > MAX_SCORE_TENTHS as usize {
            return Err(Error::out_of_range(
                "rounds",
                format!(
                    "{} rounds at up to {} points a round can reach {} points, more than the \
                     {} a TRF score holds (play fewer rounds)",
                    self.rounds,
                    super::trf::show_tenths(most),
                    super::trf::show_tenths(reach as u32),
                    super::trf::show_tenths(MAX_SCORE_TENTHS)
                ),
            ));
        }
        Ok(())
    }

    /// A tournament file's text (`name` is the file's, for messages), checked.
    pub(crate) fn parse(name: &str, text: &str) -> Result<Tournament> {
        let doc = crate::rules::yaml::parse(name, text)?;
        let t: Tournament = doc.deserialize()?;
        t.check().map_err(|e| e.context(name))?;
        Ok(t)
    }

    /// Pair the next round under `rules` (FIDE Dutch) and add it to the tournament; the field
    /// it was paired from and the pairing (players by index).
    pub(crate) fn pair_next(&mut self, rules: &SwissRules) -> Result<(Field, Pairing)> {
        let field = self.field(rules, true)?;
        let pairing = super::dutch::pair(&field).map_err(|e| Error::msg(e.to_string()))?;
        self.paired.push(PairedRound {
            boards: pairing
                .pairs
                .iter()
                .map(|&(w, b)| Board {
                    white: w + 1,
                    black: b + 1,
                    result: None,
                })
                .collect(),
            bye: pairing.bye.map(|b| b + 1),
        });
        Ok((field, pairing))
    }

    pub fn to_yaml(&self) -> String {
        let body = serde_yaml::to_string(self).expect("a tournament serialises");
        format!(
            "# arbiter Swiss tournament. Pair the next round with: arbiter swiss pair FILE\n{body}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(n: usize) -> Vec<(String, u32)> {
        (0..n).map(|i| (format!("P{i}"), 2000 - i as u32)).collect()
    }

    #[test]
    fn rounds_that_would_need_a_rematch_are_refused_at_the_start() {
        // Four players meet each other in three rounds; five (a bye each) in five.
        assert!(Tournament::new("t", "swiss", 3, players(4)).is_ok());
        assert!(Tournament::new("t", "swiss", 5, players(5)).is_ok());
        let e = Tournament::new("t", "swiss", 4, players(4)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "4 players can play at most 3 rounds without a rematch (each meets every other \
             once): no pairing could be made after round 3"
        );
        let e = Tournament::new("t", "swiss", 2, players(2)).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("2 players can play at most 1 round "));
    }
}
