//! Who plays: teams numbered 1..n, or names from a file (one a line).
use crate::error::{Error, Result, Source, Span};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Most teams a league may have (a guard: the schedule grows with the square of it).
pub(crate) const MAX_TEAMS: usize = 4096;
/// Longest team name, in characters (a name is for tables and fixtures, not a payload).
pub(crate) const MAX_NAME_CHARS: usize = 200;

/// Whether a line of a names file is a comment: `#` and a space, or `#` alone. A name may
/// start with `#` (`#1 Seed`).
fn is_comment(line: &str) -> bool {
    line == "#" || line.starts_with("# ") || line.starts_with("#\t")
}

/// One team as it appears in schedules and tables: its number, or its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Team {
    Number(u32),
    Name(String),
}

impl std::fmt::Display for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Team::Number(n) => write!(f, "{n}"),
            Team::Name(s) => write!(f, "{s}"),
        }
    }
}

impl Team {
    /// Whether what someone typed names this team (numbers as digits, names ignoring case
    /// and accents).
    pub(crate) fn answers_to(&self, typed: &str) -> bool {
        match self {
            Team::Number(n) => typed
                .trim()
                .parse::<u32>()
                .map(|t| t == *n)
                .unwrap_or(false),
            Team::Name(s) => crate::names::same(s, typed),
        }
    }
}

/// The teams of a league: a count (teams are 1..n) or a list of names. A script may pass
/// either a number or a list of strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Teams {
    Count(usize),
    Names(Vec<String>),
}

impl Teams {
    /// A TEAMS argument that is a number (`None` when it is not one: then it names a file of
    /// names, which `crate::engine_files::teams` reads).
    pub(crate) fn from_number(arg: &str) -> Option<Result<Teams>> {
        match arg.trim().parse::<i64>() {
            Ok(n) => {
                let teams = Teams::Count(usize::try_from(n).unwrap_or(0));
                Some(teams.check().map(|_| teams))
            }
            Err(_) if !arg.trim().is_empty() && arg.trim().chars().all(|c| c.is_ascii_digit()) => {
                Some(Err(Error::out_of_range(
                    "teams",
                    format!(
                        "{} teams is more than this program schedules ({MAX_TEAMS})",
                        arg.trim()
                    ),
                )))
            }
            Err(_) => None,
        }
    }

    /// Names from text (a file with one team name a line; blank lines and `# comments` are
    /// skipped), one a line. Errors name the file and line.
    pub(crate) fn parse(file: &str, text: &str) -> Result<Teams> {
        let source = Arc::new(Source {
            name: file.to_string(),
            text: text.to_string(),
        });
        let mut names: Vec<String> = Vec::new();
        let mut first_line: HashMap<String, usize> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let name = line.trim();
            if name.is_empty() || is_comment(name) {
                continue;
            }
            let col = line.find(name).unwrap_or(0) + 1;
            let at = || Span::new(&source, i + 1, col);
            if name.chars().count() > MAX_NAME_CHARS {
                return Err(at().at(format!(
                    "a team name is longer than {MAX_NAME_CHARS} characters"
                )));
            }
            crate::names::check_printable("team", name).map_err(|e| at().at(e.message()))?;
            if names.len() == MAX_TEAMS {
                return Err(at().at(format!(
                    "more than {MAX_TEAMS} teams (the most this program schedules)"
                )));
            }
            if let Some(first) = first_line.insert(crate::names::normalize(name), i + 1) {
                return Err(at().at(format!(
                    "team `{name}` is listed twice (first on line {first})"
                )));
            }
            names.push(name.to_string());
        }
        let teams = Teams::Names(names);
        teams.check().map_err(|e| e.context(file))?;
        Ok(teams)
    }

    /// At least two teams, and not more than the guard allows.
    pub fn check(&self) -> Result<()> {
        let n = self.len();
        if n < 2 {
            return Err(Error::out_of_range(
                "teams",
                format!("a league needs at least 2 teams (got {n})"),
            ));
        }
        if n > MAX_TEAMS {
            return Err(Error::out_of_range(
                "teams",
                format!("{n} teams is more than this program schedules ({MAX_TEAMS})"),
            ));
        }
        if let Teams::Names(names) = self {
            let mut seen = HashSet::new();
            for a in names {
                if a.trim().is_empty() {
                    return Err(Error::msg("a team name is empty"));
                }
                crate::names::check_printable("team", a)?;
                if a.chars().count() > MAX_NAME_CHARS {
                    return Err(Error::msg(format!(
                        "a team name is longer than {MAX_NAME_CHARS} characters"
                    )));
                }
                if !seen.insert(crate::names::normalize(a)) {
                    return Err(Error::msg(format!("team `{a}` is listed twice")));
                }
            }
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        match self {
            Teams::Count(n) => *n,
            Teams::Names(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The team at 0-based index `i`.
    pub(crate) fn team(&self, i: usize) -> Team {
        match self {
            Teams::Count(_) => Team::Number(i as u32 + 1),
            Teams::Names(v) => Team::Name(v[i].clone()),
        }
    }

    pub(crate) fn all(&self) -> Vec<Team> {
        (0..self.len()).map(|i| self.team(i)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_skip_blanks_and_comments() {
        let t = Teams::parse(
            "t.txt",
            "# my league\nOrcs\n\n  Elves \n#\n#1 Seed\nDwarfs\n",
        )
        .unwrap();
        assert_eq!(
            t,
            Teams::Names(vec![
                "Orcs".into(),
                "Elves".into(),
                "#1 Seed".into(),
                "Dwarfs".into()
            ])
        );
    }

    #[test]
    fn an_overlong_name_is_refused_at_its_line() {
        let text = format!("Orcs\n{}\n", "A".repeat(65536));
        let e = Teams::parse("t.txt", &text).unwrap_err().to_string();
        assert!(
            e.starts_with("t.txt:2:1: a team name is longer than 200 characters"),
            "{e}"
        );
        let e = Teams::Names(vec!["Orcs".into(), "B".repeat(201)])
            .check()
            .unwrap_err()
            .to_string();
        assert_eq!(e, "a team name is longer than 200 characters");
    }

    #[test]
    fn a_repeated_name_is_located() {
        let e = Teams::parse("t.txt", "Orcs\nElves\n  orcs\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.txt:3:3: team `orcs` is listed twice (first on line 1)"),
            "{e}"
        );
    }

    #[test]
    fn numbers_and_limits() {
        let number = |arg: &str| Teams::from_number(arg).expect("a number");
        assert_eq!(number("6").unwrap(), Teams::Count(6));
        assert!(number("1").is_err());
        assert!(number("-3").is_err());
        assert!(number("100000").is_err());
        assert!(Teams::from_number("orcs.txt").is_none());
        assert!(number("99999999999999999999999")
            .unwrap_err()
            .to_string()
            .contains("more than"));
        assert!(Team::Number(7).answers_to("7"));
        assert!(Team::Name("Übersreik".into()).answers_to("ubersreik"));
    }
}
