//! A season: the league's record on disk (YAML: ruleset, teams, schedule, results).
//!
//! `record` changes it under an exclusive lock on a lock file beside it (SEASON.lock), and
//! writes the new text to a temporary file that is then renamed over the old one: readers
//! see the old file or the new one, concurrent records all land, and a refused record never
//! writes at all, so the file stays byte for byte as it was.
use super::schedule::{Method, Round, Schedule};
use super::teams::Team;
use crate::error::{Conflict, Error, Result};
use crate::{pointer::pointer_push, rules::doc::Doc};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The season file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Season {
    /// The season's name, for its pages and calendars (`league new --name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The ruleset (built-in name or path) whose points and tie-breakers the table uses.
    pub rules: String,
    /// The ruleset's name, version and sha256 when the season began: `league table` warns
    /// when the rules it names have changed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<crate::rules::identity::Identity>,
    /// The whole ruleset as it began (`league new --embed-rules`, a bundle in the rules
    /// language): the season is then always scored under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded_rules: Option<String>,
    pub teams: Vec<Team>,
    pub(crate) schedule: SeasonSchedule,
    #[serde(default)]
    pub(crate) results: Vec<MatchResult>,
}

/// The schedule as the season keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeasonSchedule {
    pub method: Method,
    pub legs: u32,
    #[serde(default)]
    pub seed: Option<u64>,
    pub rounds: Vec<Round>,
}

/// One played match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MatchResult {
    pub round: u32,
    pub home: Team,
    pub away: Team,
    pub home_score: u32,
    pub away_score: u32,
}

/// A result to record, as someone typed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    pub home: String,
    pub away: String,
    pub home_score: u32,
    pub away_score: u32,
    /// Which round, when the same home team meets the same away team more than once.
    #[serde(default)]
    pub round: Option<u32>,
    /// Replace a result already recorded.
    #[serde(default)]
    pub correct: bool,
}

/// What `record` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recorded {
    pub(crate) result: MatchResult,
    /// The result it replaced (with `correct`).
    pub(crate) replaced: Option<MatchResult>,
}

impl Season {
    /// A fresh season from a schedule.
    pub fn from_schedule(rules: &str, schedule: &Schedule) -> Season {
        Season {
            name: None,
            rules: rules.to_string(),
            ruleset: None,
            embedded_rules: None,
            teams: schedule.teams.clone(),
            schedule: SeasonSchedule {
                method: schedule.method,
                legs: schedule.legs,
                seed: schedule.seed,
                rounds: schedule.rounds.clone(),
            },
            results: Vec::new(),
        }
    }

    /// A season from a loaded document, checked.
    pub fn from_doc(doc: &Doc) -> Result<Season> {
        let season: Season = doc.deserialize()?;
        season.check(doc)?;
        Ok(season)
    }

    /// What types cannot say: every team listed once, every scheduled and recorded team
    /// known, no team twice in a round, every result a scheduled match, no match recorded
    /// twice. Linear in the size of the file (names are compared by key, in hash sets).
    pub(crate) fn check(&self, doc: &Doc) -> Result<()> {
        self.check_names()
            .map_err(|(at, e)| doc.error_at(&at, e.message()))?;
        let mut teams = HashSet::new();
        for (i, t) in self.teams.iter().enumerate() {
            if !teams.insert(team_key(t)) {
                return Err(doc.error_at(
                    &format!("/teams/{i}"),
                    format!("team `{t}` is listed twice"),
                ));
            }
        }
        if self.teams.len() < 2 {
            return Err(doc.error_at("/teams", "a season needs at least 2 teams"));
        }
        let mut scheduled = HashSet::new();
        for (r, round) in self.schedule.rounds.iter().enumerate() {
            let base = format!("/schedule/rounds/{r}");
            let mut playing = HashSet::new();
            let sides = round.matches.iter().enumerate().flat_map(|(m, game)| {
                [("home", &game.home), ("away", &game.away)]
                    .map(|(side, team)| (pointer_push(&format!("{base}/matches/{m}"), side), team))
            });
            for (at, team) in sides.chain(round.bye.iter().map(|b| (format!("{base}/bye"), b))) {
                let key = team_key(team);
                if !teams.contains(&key) {
                    return Err(
                        doc.error_at(&at, format!("`{team}` is not one of the season's teams"))
                    );
                }
                if !playing.insert(key) {
                    return Err(doc.error_at(
                        &at,
                        format!("`{team}` appears twice in round {}", round.round),
                    ));
                }
            }
            for game in &round.matches {
                scheduled.insert((round.round, team_key(&game.home), team_key(&game.away)));
            }
        }
        let mut recorded = HashSet::new();
        for (i, res) in self.results.iter().enumerate() {
            let at = format!("/results/{i}");
            let game = (res.round, team_key(&res.home), team_key(&res.away));
            if !scheduled.contains(&game) {
                return Err(doc.error_at(
                    &at,
                    format!(
                        "{} v {} in round {} is not in the schedule",
                        res.home, res.away, res.round
                    ),
                ));
            }
            if !recorded.insert(game) {
                return Err(doc.error_at(
                    &at,
                    format!(
                        "{} v {} in round {} is recorded twice",
                        res.home, res.away, res.round
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The season's and its teams' names are one line of printable text; the pointer of the
    /// first that is not.
    pub(crate) fn check_names(&self) -> std::result::Result<(), (String, Error)> {
        if let Some(name) = &self.name {
            crate::names::check_printable("season", name).map_err(|e| ("/name".into(), e))?;
        }
        for (i, t) in self.teams.iter().enumerate() {
            if let Team::Name(name) = t {
                crate::names::check_printable("team", name)
                    .map_err(|e| (format!("/teams/{i}"), e))?;
            }
        }
        Ok(())
    }

    /// The season's team a typed name or number means.
    pub(crate) fn team(&self, typed: &str) -> Result<Team> {
        if let Some(t) = self.teams.iter().find(|t| t.answers_to(typed)) {
            return Ok(t.clone());
        }
        let names: Vec<String> = self.teams.iter().map(|t| t.to_string()).collect();
        Err(Error::unknown("team", typed, &names))
    }

    /// Add one result (pure: the file side is `crate::engine_files::record_result`).
    pub fn record(&mut self, request: &RecordRequest) -> Result<Recorded> {
        let home = self.team(&request.home)?;
        let away = self.team(&request.away)?;
        if home == away {
            return Err(Error::msg(format!("`{home}` cannot play itself")));
        }
        let rounds: Vec<u32> = self
            .schedule
            .rounds
            .iter()
            .filter(|r| r.matches.iter().any(|m| m.home == home && m.away == away))
            .map(|r| r.round)
            .collect();
        if rounds.is_empty() {
            let reversed: Vec<u32> = self
                .schedule
                .rounds
                .iter()
                .filter(|r| r.matches.iter().any(|m| m.home == away && m.away == home))
                .map(|r| r.round)
                .collect();
            let hint = match reversed.first() {
                Some(r) => {
                    format!(" ({away} is at home to {home} in round {r}: give the home team first)")
                }
                None => String::new(),
            };
            return Err(Error::msg(format!(
                "{home} v {away} is not in the schedule{hint}"
            )));
        }
        let recorded = |round: u32, results: &[MatchResult]| {
            results
                .iter()
                .position(|x| x.round == round && x.home == home && x.away == away)
        };
        let round = match request.round {
            Some(r) if rounds.contains(&r) => r,
            Some(r) => {
                let list: Vec<String> = rounds.iter().map(|x| x.to_string()).collect();
                return Err(Error::msg(format!(
                    "{home} v {away} is not in round {r} (it is in round {})",
                    list.join(", ")
                )));
            }
            None if request.correct && rounds.len() > 1 => {
                let list: Vec<String> = rounds.iter().map(|x| x.to_string()).collect();
                return Err(Error::conflict(
                    Conflict::RoundNotGiven,
                    format!(
                        "{home} v {away} is in rounds {}: say which to correct",
                        list.join(", ")
                    ),
                ));
            }
            // The first of them still without a result (or the first, to report it).
            None => rounds
                .iter()
                .copied()
                .find(|&r| recorded(r, &self.results).is_none())
                .unwrap_or(rounds[0]),
        };
        let existing = recorded(round, &self.results);
        let result = MatchResult {
            round,
            home,
            away,
            home_score: request.home_score,
            away_score: request.away_score,
        };
        match existing {
            Some(i) if !request.correct => {
                let old = &self.results[i];
                Err(Error::conflict(
                    Conflict::ResultRecorded,
                    format!(
                        "{} v {} in round {round} already has a result ({}–{})",
                        old.home, old.away, old.home_score, old.away_score
                    ),
                ))
            }
            Some(i) => {
                let replaced = std::mem::replace(&mut self.results[i], result.clone());
                Ok(Recorded {
                    result,
                    replaced: Some(replaced),
                })
            }
            None => {
                self.results.push(result.clone());
                Ok(Recorded {
                    result,
                    replaced: None,
                })
            }
        }
    }

    /// The season as YAML: one round and one result a line, in flow style.
    pub fn to_yaml(&self) -> String {
        let mut out = String::from(
            "# arbiter league season. Add results with: arbiter league record FILE HOME AWAY \
             HOME_SCORE AWAY_SCORE\n",
        );
        if let Some(name) = &self.name {
            out.push_str(&format!("name: {}\n", flow(name)));
        }
        out.push_str(&format!("rules: {}\n", flow(&self.rules)));
        if let Some(id) = &self.ruleset {
            out.push_str(&format!("ruleset: {}\n", flow(id)));
        }
        if let Some(text) = &self.embedded_rules {
            // A JSON string is a YAML string, whatever the text holds.
            out.push_str(&format!("embedded_rules: {}\n", flow(text)));
        }
        out.push_str("teams:\n");
        for t in &self.teams {
            out.push_str(&format!("  - {}\n", flow(t)));
        }
        out.push_str("schedule:\n");
        out.push_str(&format!(
            "  method: {}\n  legs: {}\n  seed: {}\n",
            flow(&self.schedule.method),
            self.schedule.legs,
            flow(&self.schedule.seed)
        ));
        out.push_str("  rounds:\n");
        for r in &self.schedule.rounds {
            out.push_str(&format!("    - {}\n", flow(r)));
        }
        if self.results.is_empty() {
            out.push_str("results: []\n");
        } else {
            out.push_str("results:\n");
            for r in &self.results {
                out.push_str(&format!("  - {}\n", flow(r)));
            }
        }
        out
    }
}

/// What a team is compared by: its number, or its name ignoring case and accents.
#[derive(PartialEq, Eq, Hash)]
enum TeamKey {
    Number(u32),
    Name(String),
}

fn team_key(t: &Team) -> TeamKey {
    match t {
        Team::Number(n) => TeamKey::Number(*n),
        Team::Name(s) => TeamKey::Name(crate::names::normalize(s)),
    }
}

/// A value in YAML flow style: maps as `{key: value}`, strings JSON-quoted (a JSON string
/// is a valid YAML double-quoted scalar, so any name reads back as itself).
fn flow<T: Serialize + ?Sized>(value: &T) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                out.push('{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    if k.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !k.is_empty() {
                        out.push_str(k);
                    } else {
                        out.push_str(&serde_json::to_string(k).expect("strings serialise"));
                    }
                    out.push_str(": ");
                    write(v, out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(v, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(
        &serde_json::to_value(value).expect("seasons serialise"),
        &mut out,
    );
    out
}

// ---- the file side ----------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::{
        schedule::{schedule, ScheduleOptions},
        teams::Teams,
    };

    fn season(n: usize, legs: u32) -> Season {
        let o = ScheduleOptions {
            legs,
            ..ScheduleOptions::default()
        };
        Season::from_schedule("bloodbowl", &schedule(&o, &Teams::Count(n)).unwrap())
    }

    fn req(h: &str, a: &str, hs: u32, as_: u32) -> RecordRequest {
        RecordRequest {
            home: h.into(),
            away: a.into(),
            home_score: hs,
            away_score: as_,
            round: None,
            correct: false,
        }
    }

    #[test]
    fn records_refuses_and_corrects() {
        let mut s = season(4, 1);
        let done = s.record(&req("2", "3", 2, 1)).unwrap();
        assert_eq!(done.result.round, 1);
        let e = s.record(&req("2", "3", 0, 0)).unwrap_err();
        // The engine says what clashes; the flag that resolves it is the CLI's to add.
        assert!(
            matches!(
                e.kind(),
                crate::error::ErrorKind::Conflict {
                    with: Conflict::ResultRecorded,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = e.to_string();
        assert_eq!(e, "2 v 3 in round 1 already has a result (2–1)");
        let e = s.record(&req("3", "2", 0, 0)).unwrap_err().to_string();
        assert!(
            e.contains("not in the schedule (2 is at home to 3 in round 1"),
            "{e}"
        );
        let e = s.record(&req("9", "2", 0, 0)).unwrap_err().to_string();
        assert!(e.contains("unknown team `9`"), "{e}");
        let fixed = s
            .record(&RecordRequest {
                correct: true,
                ..req("2", "3", 1, 1)
            })
            .unwrap();
        assert_eq!(fixed.replaced.unwrap().home_score, 2);
        assert_eq!(s.results.len(), 1);
        assert_eq!(s.results[0].home_score, 1);
    }

    #[test]
    fn yaml_reads_back_as_the_same_season() {
        let mut s = season(5, 2);
        s.record(&req("2", "5", 3, 0)).unwrap();
        let text = s.to_yaml();
        let doc = crate::rules::load::parse_text("s.yaml", &text, crate::io::Format::Yaml).unwrap();
        let back: Season = doc.deserialize().unwrap();
        assert_eq!(back, s);
        back.check(&doc).unwrap();
    }
}
