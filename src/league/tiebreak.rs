//! Ordering teams level on points by the ruleset's tie-breakers, in order. A head-to-head
//! criterion is a mini-table of the games among the teams still level; whenever a criterion
//! splits a group, each part still level starts again from the first criterion, so the
//! head-to-head mini-table is re-applied to the smaller group (in a cycle A>B>C>A where
//! difference lifts A out, the game between B and C then decides them).
use super::season::MatchResult;
use crate::rules::league::Points;

/// A played game by team index: (home, away, result).
pub(crate) type Game<'a> = (usize, usize, &'a MatchResult);

#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub scored: u32,
    pub against: u32,
    pub away_scored: u32,
    pub points: f64,
}

/// Totals of each of `teams` teams over the games whose both teams are in `among`.
pub(crate) fn tally(games: &[Game], teams: usize, among: &[usize], points: &Points) -> Vec<Tally> {
    let mut inside = vec![false; teams];
    for &t in among {
        inside[t] = true;
    }
    let mut out = vec![Tally::default(); teams];
    for &(h, a, r) in games {
        if !(inside[h] && inside[a]) {
            continue;
        }
        for (me, mine, theirs, away) in [
            (h, r.home_score, r.away_score, false),
            (a, r.away_score, r.home_score, true),
        ] {
            let x = &mut out[me];
            x.played += 1;
            x.scored += mine;
            x.against += theirs;
            if away {
                x.away_scored += mine;
            }
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => {
                    x.won += 1;
                    x.points += points.win;
                }
                std::cmp::Ordering::Equal => {
                    x.drawn += 1;
                    x.points += points.draw;
                }
                std::cmp::Ordering::Less => {
                    x.lost += 1;
                    x.points += points.loss;
                }
            }
        }
    }
    out
}

/// The teams `0..teams` in standing order, as groups of teams level on everything.
pub(crate) fn order(
    games: &[Game],
    teams: usize,
    points: &Points,
    criteria: &[String],
) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..teams).collect();
    let totals = tally(games, teams, &all, points);
    let ranking = Ranking {
        games,
        teams,
        points,
        criteria,
        totals: &totals,
    };
    split(all, |t| totals[t].points)
        .into_iter()
        .flat_map(|g| ranking.level(g))
        .collect()
}

struct Ranking<'a> {
    games: &'a [Game<'a>],
    teams: usize,
    points: &'a Points,
    criteria: &'a [String],
    totals: &'a [Tally],
}

impl Ranking<'_> {
    /// Order a group level on points: the first criterion that splits it decides, and each
    /// part is ordered again from the first criterion (its mini-tables are its own).
    fn level(&self, group: Vec<usize>) -> Vec<Vec<usize>> {
        if group.len() < 2 {
            return vec![group];
        }
        let among = if self.criteria.iter().any(|c| among_tied(c)) {
            tally(self.games, self.teams, &group, self.points)
        } else {
            Vec::new()
        };
        for criterion in self.criteria {
            let parts = split(group.clone(), |t| {
                let mini = among.get(t).unwrap_or(&self.totals[t]);
                value(criterion, &self.totals[t], mini)
            });
            if parts.len() > 1 {
                // Every part is smaller, so this ends.
                return parts.into_iter().flat_map(|p| self.level(p)).collect();
            }
        }
        vec![group]
    }
}

/// Whether a criterion counts only the games among the tied teams.
fn among_tied(criterion: &str) -> bool {
    criterion.starts_with("head_to_head")
}

/// A tie-breaker's value for a team (higher ranks first): `total` over all games, `among`
/// over the games among the group being ordered.
fn value(criterion: &str, total: &Tally, among: &Tally) -> f64 {
    let diff = |x: &Tally| x.scored as f64 - x.against as f64;
    match criterion {
        "head_to_head" => among.points,
        "head_to_head_difference" => diff(among),
        "head_to_head_scored" => among.scored as f64,
        "difference" => diff(total),
        "scored" => total.scored as f64,
        "conceded" => -(total.against as f64),
        "won" => total.won as f64,
        "away_scored" => total.away_scored as f64,
        "fewer_played" => -(total.played as f64),
        // The ruleset is validated against the known names before it gets here.
        _ => 0.0,
    }
}

/// Order a group by `key` (highest first, ties keep their order) and cut it where it changes.
fn split(mut group: Vec<usize>, key: impl Fn(usize) -> f64) -> Vec<Vec<usize>> {
    group.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for t in group {
        match out.last_mut() {
            Some(g) if key(g[0]) == key(t) => g.push(t),
            _ => out.push(vec![t]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: usize = 0;
    const B: usize = 1;
    const C: usize = 2;
    const D: usize = 3;
    const E: usize = 4;
    const F: usize = 5;

    /// 3/1/0 and Blood Bowl's tie-breakers.
    fn bloodbowl(teams: usize, played: &[(usize, usize, u32, u32)]) -> Vec<Vec<usize>> {
        let points = Points {
            win: 3.0,
            draw: 1.0,
            loss: 0.0,
        };
        let results: Vec<MatchResult> = played
            .iter()
            .map(|&(h, a, hs, as_)| MatchResult {
                round: 1,
                home: crate::league::teams::Team::Number(h as u32 + 1),
                away: crate::league::teams::Team::Number(a as u32 + 1),
                home_score: hs,
                away_score: as_,
            })
            .collect();
        let games: Vec<Game> = played
            .iter()
            .zip(&results)
            .map(|(&(h, a, ..), r)| (h, a, r))
            .collect();
        let criteria: Vec<String> = ["head_to_head", "difference", "scored", "won"]
            .map(String::from)
            .to_vec();
        order(&games, teams, &points, &criteria)
    }

    #[test]
    fn a_three_way_cycle_goes_back_to_head_to_head_once_difference_lifts_one_out() {
        // A, B and C beat each other round (1-0 each) and all beat D: 6 points each, 3 each
        // in the mini-table. Difference: A +5, B +1, C +1, so A is first; B and C are still
        // level, and their own game (B 1-0 C) decides before C's 4 scored against B's 2 can.
        let t = bloodbowl(
            4,
            &[
                (A, B, 1, 0),
                (B, C, 1, 0),
                (C, A, 1, 0),
                (A, D, 5, 0),
                (B, D, 1, 0),
                (C, D, 3, 2),
            ],
        );
        assert_eq!(t, vec![vec![A], vec![B], vec![C], vec![D]]);
    }

    #[test]
    fn a_two_way_tie_is_their_own_game_before_difference() {
        // A 1-0 B, B 4-0 C, C 1-1 D. A and B have 3 points: A won their game, although B has
        // the better difference (+3 against +1). C and D have 1 point and drew each other:
        // still level in their mini-table, so difference decides (D 0, C -4).
        let t = bloodbowl(4, &[(A, B, 1, 0), (B, C, 4, 0), (C, D, 1, 1)]);
        assert_eq!(t, vec![vec![A], vec![B], vec![D], vec![C]]);
        // Level on everything: one shared place.
        assert_eq!(bloodbowl(2, &[(A, B, 2, 2)]), vec![vec![A, B]]);
    }

    #[test]
    fn a_three_way_tie_split_by_the_mini_table_goes_again_on_the_pair_left() {
        // A 1-0 B, B 6-0 C, D 2-0 A: A, B and D on 3 points. Their mini-table: A 3, D 3, B 0;
        // then A and D alone: D won their game.
        let t = bloodbowl(4, &[(A, B, 1, 0), (B, C, 6, 0), (D, A, 2, 0)]);
        assert_eq!(t, vec![vec![D], vec![A], vec![B], vec![C]]);
    }

    #[test]
    fn a_four_way_group_splits_two_and_two_and_each_pair_plays_its_own_mini_table() {
        // Among A, B, C, D: A beat B and D, B beat C and D (5-0 each), C beat A, D beat C;
        // outside, C beat E 9-0 and D beat F. All four have 6 points; the four-team mini-table
        // gives A 6, B 6, C 3, D 3. Then A-B is their game (A won) although B's difference is
        // far better, and D-C is theirs (D won) although C's difference (+4 against -4) is.
        let t = bloodbowl(
            6,
            &[
                (A, B, 1, 0),
                (A, D, 1, 0),
                (B, C, 5, 0),
                (B, D, 5, 0),
                (C, A, 1, 0),
                (D, C, 1, 0),
                (C, E, 9, 0),
                (D, F, 1, 0),
            ],
        );
        // E and F, no points and no game between them: F lost by less.
        assert_eq!(
            t,
            vec![vec![A], vec![B], vec![D], vec![C], vec![F], vec![E]]
        );
    }
}
