//! The league table: the ruleset's points for a win, draw and loss, then its tie-breakers
//! in order (see `tiebreak`: head-to-head criteria are mini-tables of the games among the
//! teams still level, re-applied whenever a group splits). Teams level after all of them
//! share a position (listed in the season's team order).
use super::season::Season;
use super::teams::Team;
use super::tiebreak::{self, tally, Game};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use serde::{Serialize, Serializer};

/// One line of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Standing {
    pub position: u32,
    pub team: Team,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    #[serde(rename = "for")]
    pub scored: u32,
    pub against: u32,
    pub difference: i64,
    #[serde(serialize_with = "whole_as_integer")]
    pub points: f64,
}

/// The table in standing order, with what it was computed from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    pub(crate) standings: Vec<Standing>,
    pub tiebreakers: Vec<String>,
    pub played: usize,
    pub scheduled: usize,
    #[serde(skip)]
    pub score_name: Option<String>,
}

fn whole_as_integer<S: Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        s.serialize_i64(*x as i64)
    } else {
        s.serialize_f64(*x)
    }
}

/// The standings of a season under a ruleset's league points and tie-breakers.
pub fn standings(rules: &Ruleset, season: &Season) -> Result<Standings> {
    let league = rules.league.as_ref().ok_or_else(|| {
        Error::msg(format!(
            "ruleset `{}` has no league section (points and tie-breakers)",
            rules.name
        ))
    })?;
    let points = league.points.as_ref().ok_or_else(|| {
        Error::msg(format!(
            "ruleset `{}` gives no league points (league.points: win, draw, loss)",
            rules.name
        ))
    })?;
    let teams = &season.teams;
    let index = |t: &Team| teams.iter().position(|u| u == t);
    // Results as (home index, away index, result), unknown teams already refused on load.
    let games: Vec<Game> = season
        .results
        .iter()
        .filter_map(|r| Some((index(&r.home)?, index(&r.away)?, r)))
        .collect();
    let all: Vec<usize> = (0..teams.len()).collect();
    let totals = tally(&games, teams.len(), &all, points);
    let groups = tiebreak::order(&games, teams.len(), points, &league.tiebreakers);
    let mut out = Vec::with_capacity(teams.len());
    for g in &groups {
        let position = out.len() as u32 + 1;
        let mut g = g.clone();
        g.sort_unstable();
        for t in g {
            let x = &totals[t];
            out.push(Standing {
                position,
                team: teams[t].clone(),
                played: x.played,
                won: x.won,
                drawn: x.drawn,
                lost: x.lost,
                scored: x.scored,
                against: x.against,
                difference: x.scored as i64 - x.against as i64,
                points: x.points,
            });
        }
    }
    let scheduled = season.schedule.rounds.iter().map(|r| r.matches.len()).sum();
    Ok(Standings {
        standings: out,
        tiebreakers: league.tiebreakers.clone(),
        played: games.len(),
        scheduled,
        score_name: league.score_name.clone(),
    })
}

impl Standings {
    /// The table for people.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{Align, Table};
        let mut t = Table::new(&[
            ("#", Align::Right),
            ("team", Align::Left),
            ("P", Align::Right),
            ("W", Align::Right),
            ("D", Align::Right),
            ("L", Align::Right),
            ("for", Align::Right),
            ("against", Align::Right),
            ("diff", Align::Right),
            ("points", Align::Right),
        ]);
        t.key(&["team", "points"]);
        let mut last = 0;
        for s in &self.standings {
            let pos = if s.position == last {
                "=".to_string()
            } else {
                s.position.to_string()
            };
            last = s.position;
            t.row(row_cells(pos, s, format!("{:+}", s.difference)));
        }
        let table = t.render(layout);
        let mut out = String::new();
        out.push_str(&format!(
            "\n{} of {} matches played",
            self.played, self.scheduled
        ));
        if let Some(name) = &self.score_name {
            out.push_str(&format!("; for/against count {name}"));
        }
        if !self.tiebreakers.is_empty() {
            out.push_str(&format!("; ties broken by {}", self.tiebreakers.join(", ")));
        }
        out.push_str("\nP played, W won, D drawn, L lost, diff for minus against; = level with the place above\n");
        format!("{table}{}", crate::output::fit_prose(&out, layout))
    }

    /// CSV with the JSON's columns.
    pub(crate) fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "position",
            "team",
            "played",
            "won",
            "drawn",
            "lost",
            "for",
            "against",
            "difference",
            "points",
        ]);
        for s in &self.standings {
            let _ = w.write_record(row_cells(
                s.position.to_string(),
                s,
                s.difference.to_string(),
            ));
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// One standing's cells in the columns the table, the CSV and the page use; the position and the
/// difference are written the way each wants them.
pub(crate) fn row_cells(position: String, s: &Standing, difference: String) -> [String; 10] {
    [
        position,
        s.team.to_string(),
        s.played.to_string(),
        s.won.to_string(),
        s.drawn.to_string(),
        s.lost.to_string(),
        s.scored.to_string(),
        s.against.to_string(),
        difference,
        crate::output::trim_number(s.points, 3),
    ]
}
