//! A league schedule: options in (Deserialize, so a script can pass a map), the result out
//! (Serialize, plus a table and CSV for people). Legs, the seeded shuffle and the report of
//! carry-over and breaks are applied here to whatever single round robin a method builds.
use super::balanced::{balanced, is_power_of_two, MAX_BALANCED_TEAMS};
use super::berger::{berger, fide_double};
use super::breaks::venues;
use super::carryover::{carryover, Carryover};
use super::home_away::{balance, HomeAway};
use super::plan::{mirrored, Plan, RoundPlan};
use super::rotation::rotation;
use super::search::{SearchBudget, SearchReport};
use super::teams::{Team, Teams};
use crate::error::{Error, Result};
use crate::rules::league::LeagueRules;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// Most games a schedule may hold (a guard on memory and output size).
pub(crate) const MAX_GAMES: usize = 12_000_000;

/// How the single round robin is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The source's rotation; reproduces its tables.
    #[default]
    Rotation,
    /// FIDE Berger tables, white as home.
    Berger,
    /// Low carry-over: Russell's construction or a seeded search.
    Balanced,
}

impl Method {
    pub(crate) fn parse(name: &str) -> Result<Method> {
        let known = crate::rules::league::METHODS;
        match known.iter().position(|m| crate::names::same(m, name)) {
            Some(0) => Ok(Method::Rotation),
            Some(1) => Ok(Method::Berger),
            Some(2) => Ok(Method::Balanced),
            _ => Err(Error::unknown("scheduling method", name, known)),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Rotation => "rotation",
            Method::Berger => "berger",
            Method::Balanced => "balanced",
        }
    }
}

/// What to schedule. Every field has a default, so `{}` is the source's single rotation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScheduleOptions {
    pub method: Method,
    /// Each further leg swaps home and away.
    pub legs: u32,
    /// Play the rounds of a leg in a seeded random order.
    pub shuffle: bool,
    /// Seed for the shuffle and the balanced search; drawn (and reported) when absent.
    pub seed: Option<u64>,
    /// Include the carry-over matrix in the result.
    pub matrix: bool,
    /// Effort of the balanced search (n not a power of two).
    pub search: SearchBudget,
    /// Home and away as the method gives them, or re-chosen for even counts and few breaks.
    pub home_away: HomeAway,
}

impl Default for ScheduleOptions {
    fn default() -> ScheduleOptions {
        ScheduleOptions {
            method: Method::Rotation,
            legs: 1,
            shuffle: false,
            seed: None,
            matrix: false,
            search: SearchBudget::default(),
            home_away: HomeAway::Source,
        }
    }
}

impl ScheduleOptions {
    /// The defaults a ruleset's league section sets (method, legs, shuffle).
    pub(crate) fn from_rules(rules: Option<&LeagueRules>) -> Result<ScheduleOptions> {
        let mut o = ScheduleOptions::default();
        if let Some(r) = rules {
            o.method = Method::parse(&r.method)?;
            o.legs = r.legs;
            o.shuffle = r.shuffle;
        }
        Ok(o)
    }
}

/// One game of a schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    pub home: Team,
    pub away: Team,
}

/// One round of a schedule, numbered from 1 across all legs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Round {
    pub round: u32,
    #[serde(default = "one")]
    pub leg: u32,
    pub matches: Vec<Match>,
    /// The team that rests (odd leagues), null otherwise.
    #[serde(default)]
    pub bye: Option<Team>,
}

fn one() -> u32 {
    1
}

/// Home and away games and breaks of one team.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamBreaks {
    pub team: Team,
    pub home: u32,
    pub away: u32,
    pub breaks: u32,
}

/// A schedule with its carry-over and home/away report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    pub method: Method,
    pub legs: u32,
    pub shuffled: bool,
    pub home_away: HomeAway,
    pub rounds: Vec<Round>,
    /// Carry-over of the first leg as played (later legs repeat its pairings).
    pub carryover: Carryover,
    /// Per team, over all legs.
    pub breaks: Vec<TeamBreaks>,
    /// What the balanced search did (n not a power of two).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) search: Option<SearchReport>,
    /// The seed that reproduces this schedule; null when nothing was random.
    pub seed: Option<u64>,
    #[serde(skip)]
    pub teams: Vec<Team>,
}

/// Build a schedule.
pub fn schedule(options: &ScheduleOptions, teams: &Teams) -> Result<Schedule> {
    teams.check()?;
    let n = teams.len();
    if options.legs == 0 {
        return Err(Error::out_of_range(
            "legs",
            "a league needs at least one leg",
        ));
    }
    let games_per_leg = n * (n - 1) / 2;
    if games_per_leg.saturating_mul(options.legs as usize) > MAX_GAMES {
        return Err(Error::out_of_range(
            "games",
            format!(
                "{} legs of {n} teams is {} games, more than this program writes ({MAX_GAMES})",
                options.legs,
                games_per_leg.saturating_mul(options.legs as usize)
            ),
        ));
    }
    if options.method == Method::Balanced && n > MAX_BALANCED_TEAMS {
        return Err(Error::out_of_range(
            "teams",
            format!(
                "a balanced schedule is made for at most {MAX_BALANCED_TEAMS} teams, not {n}: \
                 its search grows with the square of the league (rotation and berger take more)"
            ),
        ));
    }
    if options.shuffle && options.method == Method::Balanced {
        return Err(Error::options(
            &["shuffle"],
            "`shuffle` would undo the balanced method's round order (it is what keeps the \
             carry-over low)",
        ));
    }
    let random = options.shuffle || (options.method == Method::Balanced && !is_power_of_two(n));
    let seed = random.then(|| options.seed.unwrap_or_else(draw_seed));
    let mut rng = Pcg64Mcg::seed_from_u64(seed.unwrap_or(0));
    let mut search = None;
    let mut base: Plan = match options.method {
        Method::Rotation => rotation(n),
        Method::Berger => berger(n),
        Method::Balanced => {
            let (p, report) = balanced(n, options.legs, &mut rng, &options.search);
            search = report;
            p
        }
    };
    if options.shuffle {
        base.shuffle(&mut rng);
    }
    if options.home_away == HomeAway::Balanced {
        let breaks_of = |plan: &Plan| -> u32 {
            let legs = lay_out_legs(plan, options.method, options.legs);
            let order: Vec<&RoundPlan> = legs.iter().flatten().collect();
            venues(&order, n).iter().map(|v| v.breaks).sum()
        };
        balance(&mut base, n, options.legs, &mut rng, breaks_of);
    }
    let legs: Vec<Plan> = lay_out_legs(&base, options.method, options.legs);
    let order: Vec<&RoundPlan> = legs.iter().flatten().collect();
    let all = teams.all();
    let breaks = venues(&order, n)
        .into_iter()
        .enumerate()
        .map(|(t, v)| TeamBreaks {
            team: all[t].clone(),
            home: v.home,
            away: v.away,
            breaks: v.breaks,
        })
        .collect();
    // Over the whole schedule, every leg (the last round carrying into the first).
    let whole: Vec<RoundPlan> = order.iter().map(|r| (*r).clone()).collect();
    let carry = carryover(&whole, n, options.matrix);
    let mut rounds = Vec::with_capacity(order.len());
    for (l, leg) in legs.iter().enumerate() {
        for r in leg {
            rounds.push(Round {
                round: rounds.len() as u32 + 1,
                leg: l as u32 + 1,
                matches: r
                    .games
                    .iter()
                    .map(|&(h, a)| Match {
                        home: all[h].clone(),
                        away: all[a].clone(),
                    })
                    .collect(),
                bye: r.bye.map(|b| all[b].clone()),
            });
        }
    }
    Ok(Schedule {
        method: options.method,
        legs: options.legs,
        shuffled: options.shuffle,
        home_away: options.home_away,
        rounds,
        carryover: carry,
        breaks,
        seed,
        search,
        teams: all,
    })
}

/// A fresh seed, short enough to type back and to survive any JSON reader.
pub(crate) fn draw_seed() -> u64 {
    rand::thread_rng().gen_range(0..1u64 << 40)
}

/// The legs in order: every further leg swaps home and away. Berger follows FIDE's double
/// round robin (the first cycle's last two rounds swapped) whenever there is a second leg.
fn lay_out_legs(base: &Plan, method: Method, legs: u32) -> Vec<Plan> {
    let (odd, even): (Plan, Plan) = if method == Method::Berger && legs >= 2 {
        fide_double(base)
    } else {
        (base.clone(), base.iter().map(mirrored).collect())
    };
    (0..legs)
        .map(|l| {
            if l % 2 == 0 {
                odd.clone()
            } else {
                even.clone()
            }
        })
        .collect()
}

impl Schedule {
    /// The most games any team plays at home more than away, or away more than at home.
    pub(crate) fn venue_spread(&self) -> u32 {
        self.breaks
            .iter()
            .map(|b| b.home.abs_diff(b.away))
            .max()
            .unwrap_or(0)
    }

    /// Breaks in all, then each team's home and away games and breaks (a table that fits
    /// `layout`).
    pub(crate) fn venue_summary(&self, layout: crate::output::Layout) -> String {
        let mut out = format!("breaks: {} in all\n\n", self.total_breaks());
        let mut t = crate::output::Table::new(&[
            ("team", crate::output::Align::Left),
            ("home", crate::output::Align::Right),
            ("away", crate::output::Align::Right),
            ("breaks", crate::output::Align::Right),
        ]);
        t.key(&["home", "away"]);
        for b in &self.breaks {
            t.row([
                b.team.to_string(),
                b.home.to_string(),
                b.away.to_string(),
                b.breaks.to_string(),
            ]);
        }
        out.push_str(&t.render(layout));
        out
    }

    pub(crate) fn total_breaks(&self) -> u32 {
        self.breaks.iter().map(|b| b.breaks).sum()
    }

    /// JSON with one round a line: readable, and quick to write for thousands of teams.
    /// The schedule as JSON, one round a line; `ruleset` names the ruleset whose defaults it
    /// was made with (`ruleset`, `ruleset_version`, `ruleset_sha256` first, as every report).
    pub fn to_json(&self, ruleset: Option<&crate::rules::identity::Identity>) -> String {
        let mut out = String::from("{\n");
        let field = |out: &mut String, key: &str, value: String| {
            out.push_str(&format!("  \"{key}\": {value},\n"));
        };
        if let Some(id) = ruleset {
            let mut stamp = serde_json::Value::Object(Default::default());
            id.stamp(&mut stamp);
            for (k, v) in stamp.as_object().into_iter().flatten() {
                field(&mut out, k, v.to_string());
            }
        }
        field(&mut out, "method", compact(&self.method));
        field(&mut out, "legs", self.legs.to_string());
        field(&mut out, "shuffled", self.shuffled.to_string());
        field(&mut out, "home_away", compact(&self.home_away));
        out.push_str("  \"rounds\": [\n");
        for (i, r) in self.rounds.iter().enumerate() {
            out.push_str("    ");
            out.push_str(&compact(r));
            out.push_str(if i + 1 < self.rounds.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        out.push_str("  ],\n");
        let mut carry = String::from("{");
        carry.push_str(&format!(
            "\"value\": {}, \"lower_bound\": {}",
            self.carryover.value, self.carryover.lower_bound
        ));
        if let Some(m) = &self.carryover.matrix {
            carry.push_str(",\n    \"matrix\": [\n");
            let rows: Vec<String> = m
                .iter()
                .map(|row| format!("      {}", compact(row)))
                .collect();
            carry.push_str(&rows.join(",\n"));
            carry.push_str("\n    ]\n  ");
        }
        carry.push('}');
        field(&mut out, "carryover", carry);
        out.push_str("  \"breaks\": [\n");
        for (i, b) in self.breaks.iter().enumerate() {
            out.push_str("    ");
            out.push_str(&compact(b));
            out.push_str(if i + 1 < self.breaks.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        out.push_str("  ],\n");
        if let Some(s) = &self.search {
            field(&mut out, "search", compact(s));
        }
        out.push_str(&format!("  \"seed\": {}\n}}\n", compact(&self.seed)));
        out
    }

    /// CSV: one line a game (round, leg, home, away); a resting team gets a line of its own
    /// with only `bye` filled in.
    pub(crate) fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(["round", "leg", "home", "away", "bye"]);
        for r in &self.rounds {
            let (round, leg) = (r.round.to_string(), r.leg.to_string());
            for m in &r.matches {
                let _ = w.write_record([
                    round.as_str(),
                    leg.as_str(),
                    &m.home.to_string(),
                    &m.away.to_string(),
                    "",
                ]);
            }
            if let Some(b) = &r.bye {
                let _ = w.write_record([round.as_str(), leg.as_str(), "", "", &b.to_string()]);
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The schedule for people: rounds in the source's layout, then carry-over, seed and
    /// breaks (and the carry-over matrix when it was asked for). `repeat` says how the caller
    /// asks for the same seed again (the CLI's flag, say).
    pub(crate) fn render(
        &self,
        repeat: impl Fn(u64) -> String,
        layout: crate::output::Layout,
    ) -> String {
        let width = self
            .teams
            .iter()
            .map(|t| t.to_string().chars().count())
            .max()
            .unwrap_or(1);
        let mut out = String::new();
        for r in &self.rounds {
            if self.legs > 1 {
                out.push_str(&format!("Round {} (leg {}): home - away\n", r.round, r.leg));
            } else {
                out.push_str(&format!("Round {}: home - away\n", r.round));
            }
            for m in &r.matches {
                out.push_str(&format!("  {:>width$} - {}\n", m.home.to_string(), m.away));
            }
            if let Some(b) = &r.bye {
                out.push_str(&format!("  rests: {b}\n"));
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "method: {}, {} teams, {} leg{}{}\n",
            self.method.name(),
            self.teams.len(),
            self.legs,
            if self.legs == 1 { "" } else { "s" },
            if self.shuffled {
                ", rounds shuffled"
            } else {
                ""
            }
        ));
        if self.home_away == HomeAway::Balanced {
            out.push_str("home/away: balanced (each team's home and away within one)\n");
        }
        out.push_str(&format!(
            "carry-over: {} (lower bound {})\n",
            self.carryover.value, self.carryover.lower_bound
        ));
        if let Some(search) = &self.search {
            out.push_str(&format!(
                "search: {} moves from the rotation's {}{}\n",
                search.moves,
                search.start_value,
                if search.stopped_by_time {
                    ", stopped by the time limit"
                } else {
                    ""
                }
            ));
        }
        if let Some(seed) = self.seed {
            out.push_str(&format!(
                "seed: {seed} (the same schedule again: {})\n",
                repeat(seed)
            ));
        }
        out.push_str(&self.venue_summary(layout));
        if let Some(m) = &self.carryover.matrix {
            out.push_str("\ncarry-over matrix (row: the team met, column: the team met next)\n");
            out.push_str(&matrix_table(&self.teams, m, layout));
        }
        out
    }
}

fn matrix_table(teams: &[Team], matrix: &[Vec<u32>], layout: crate::output::Layout) -> String {
    use crate::output::{Align, Table};
    let labels: Vec<String> = teams.iter().map(|t| t.to_string()).collect();
    let mut columns: Vec<(&str, Align)> = vec![("", Align::Left)];
    columns.extend(labels.iter().map(|l| (l.as_str(), Align::Right)));
    let mut t = Table::new(&columns);
    for (i, row) in matrix.iter().enumerate() {
        let mut cells = vec![labels[i].clone()];
        cells.extend(row.iter().enumerate().map(|(j, c)| {
            if i == j {
                "·".to_string()
            } else {
                c.to_string()
            }
        }));
        t.row(cells);
    }
    t.render(layout)
}

/// Compact JSON of one part of the schedule.
fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("schedule parts serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_json_is_the_serde_json() {
        for (n, method, matrix) in [
            (5, Method::Rotation, true),
            (6, Method::Balanced, false),
            (7, Method::Berger, true),
        ] {
            let o = ScheduleOptions {
                method,
                matrix,
                seed: Some(9),
                legs: 2,
                search: SearchBudget {
                    moves: Some(500),
                    seconds: None,
                },
                ..Default::default()
            };
            let s = schedule(&o, &Teams::Count(n)).unwrap();
            let fast: serde_json::Value = serde_json::from_str(&s.to_json(None)).unwrap();
            assert_eq!(fast, serde_json::to_value(&s).unwrap(), "{n} teams");
        }
    }
}
