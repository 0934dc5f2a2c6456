//! A season's fixtures: every match by round, with its result once played, for all teams or
//! one, for the whole season or one round.
use super::season::Season;
use super::teams::Team;
use crate::error::{Error, Result};
use serde::Serialize;

/// The fixtures asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Fixtures {
    /// The team asked for, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<Team>,
    pub rounds: Vec<FixtureRound>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct FixtureRound {
    pub round: u32,
    pub leg: u32,
    pub matches: Vec<Fixture>,
    /// Who rests this round (odd leagues), when it concerns the fixtures asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<Team>,
}

/// One match: who is at home, who away, and the score once played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Fixture {
    pub home: Team,
    pub away: Team,
    pub home_score: Option<u32>,
    pub away_score: Option<u32>,
}

impl Season {
    /// The fixtures of `team` (every team's when `None`) in `round` (every round's when `None`).
    pub(crate) fn fixtures(&self, team: Option<&str>, round: Option<u32>) -> Result<Fixtures> {
        let team = team.map(|t| self.team(t)).transpose()?;
        let last = self.schedule.rounds.len() as u32;
        if let Some(r) = round {
            if r == 0 || r > last {
                return Err(Error::out_of_range(
                    "round",
                    format!("round {r} is not in the season (rounds 1 to {last})"),
                ));
            }
        }
        let concerns = |t: &Team| team.as_ref().is_none_or(|mine| mine == t);
        let rounds =
            self.schedule
                .rounds
                .iter()
                .filter(|r| round.is_none_or(|wanted| wanted == r.round))
                .map(|r| FixtureRound {
                    round: r.round,
                    leg: r.leg,
                    matches: r
                        .matches
                        .iter()
                        .filter(|m| concerns(&m.home) || concerns(&m.away))
                        .map(|m| {
                            let played = self.results.iter().find(|x| {
                                x.round == r.round && x.home == m.home && x.away == m.away
                            });
                            Fixture {
                                home: m.home.clone(),
                                away: m.away.clone(),
                                home_score: played.map(|p| p.home_score),
                                away_score: played.map(|p| p.away_score),
                            }
                        })
                        .collect(),
                    bye: r.bye.clone().filter(|b| concerns(b)),
                })
                .filter(|r| !r.matches.is_empty() || r.bye.is_some())
                .collect();
        Ok(Fixtures { team, rounds })
    }
}

impl Fixtures {
    /// As text: each round's matches, home team first, with the score or "to play".
    pub(crate) fn render(&self) -> String {
        let width = self
            .rounds
            .iter()
            .flat_map(|r| &r.matches)
            .map(|m| m.home.to_string().chars().count())
            .max()
            .unwrap_or(1);
        let mut out = String::new();
        for r in &self.rounds {
            out.push_str(&format!("Round {} (leg {}): home - away\n", r.round, r.leg));
            for m in &r.matches {
                let home = m.home.to_string();
                let score = match (m.home_score, m.away_score) {
                    (Some(h), Some(a)) => format!("{h}–{a}"),
                    _ => "-".to_string(),
                };
                let pending = if m.home_score.is_none() {
                    "  (to play)"
                } else {
                    ""
                };
                out.push_str(&format!("  {home:>width$} {score} {}{pending}\n", m.away));
            }
            if let Some(b) = &r.bye {
                out.push_str(&format!("  rests: {b}\n"));
            }
        }
        if self.rounds.is_empty() {
            out.push_str("no fixtures\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::league::season::{MatchResult, Season};
    use crate::league::{
        schedule::{schedule, ScheduleOptions},
        teams::{Team, Teams},
    };

    fn season() -> Season {
        let s = schedule(&ScheduleOptions::default(), &Teams::Count(5)).unwrap();
        let mut season = Season::from_schedule("bloodbowl", &s);
        let first = &s.rounds[0].matches[0];
        season.results.push(MatchResult {
            round: 1,
            home: first.home.clone(),
            away: first.away.clone(),
            home_score: 2,
            away_score: 1,
        });
        season
    }

    #[test]
    fn one_team_plays_every_other_once_and_rests_once() {
        let f = season().fixtures(Some("3"), None).unwrap();
        assert_eq!(f.rounds.len(), 5, "four matches and a rest");
        let matches: Vec<_> = f.rounds.iter().flat_map(|r| &r.matches).collect();
        assert_eq!(matches.len(), 4);
        assert!(matches
            .iter()
            .all(|m| m.home == Team::Number(3) || m.away == Team::Number(3)));
        assert_eq!(f.rounds.iter().filter(|r| r.bye.is_some()).count(), 1);
    }

    #[test]
    fn a_played_match_shows_its_score_and_the_rest_are_to_play() {
        let f = season().fixtures(None, Some(1)).unwrap();
        assert_eq!(f.rounds.len(), 1);
        let m = &f.rounds[0].matches;
        assert_eq!((m[0].home_score, m[0].away_score), (Some(2), Some(1)));
        assert!(m[1..].iter().all(|m| m.home_score.is_none()));
        let text = f.render();
        assert!(text.starts_with("Round 1 (leg 1): home - away\n"), "{text}");
        assert!(
            text.contains(" 2–1 ") && text.contains("(to play)"),
            "{text}"
        );
    }

    #[test]
    fn an_unknown_team_or_round_is_refused() {
        assert!(season().fixtures(Some("9"), None).is_err());
        let e = season().fixtures(None, Some(6)).unwrap_err().to_string();
        assert_eq!(e, "round 6 is not in the season (rounds 1 to 5)");
    }
}
