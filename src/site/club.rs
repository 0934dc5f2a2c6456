//! The club file: the club's name and the files its site is made from. Every path in it is
//! relative to the club file itself; every entry keeps its place, so a file that cannot be
//! read is reported at the club file's line that names it.
use crate::error::{Error, Result};
use crate::rules::doc::Doc;
use serde::Deserialize;

/// A minimal club file, shown when none is found.
pub(crate) const MINIMAL: &str = "club: Tuesday Night Games
seasons: [season.yaml]        # league seasons (`arbiter league new`)
tournaments: [open.yaml]      # Swiss tournaments (`arbiter swiss new`)
ratings: [history.yaml]       # rating histories (`arbiter rate`)
rulesets: [bloodbowl]         # built-in names or ruleset files
# balance: { rules: startrek, ships: [\"UFP heavy cruiser\", \"Klingon battle cruiser\"], battles: 200, seed: 1 }
";

/// Battles a cell of the balance matrix when the club file does not say.
pub(crate) const DEFAULT_BATTLES: u64 = 200;

/// Points the strongest ship is worth when the club file does not say (as `combat matrix`).
pub(crate) const DEFAULT_POINTS_SCALE: f64 = 100.0;

/// Most battles a cell: the site is rebuilt every week, the matrix with it.
pub(crate) const MOST_BATTLES: u64 = 20_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClubFile {
    club: String,
    #[serde(default)]
    seasons: Vec<String>,
    #[serde(default)]
    tournaments: Vec<String>,
    #[serde(default)]
    ratings: Vec<String>,
    #[serde(default)]
    rulesets: Vec<String>,
    #[serde(default)]
    balance: Option<BalanceFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BalanceFile {
    rules: String,
    ships: Vec<String>,
    #[serde(default)]
    battles: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    points_scale: Option<f64>,
}

/// One file the club file names, with where it names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// As written in the club file (relative to it).
    pub given: String,
    /// Its place in the club file (a JSON pointer: `/seasons/0`).
    pub pointer: String,
}

/// The balance page asked for: a ruleset, its ships, battles a cell and the seed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Balance {
    pub rules: Entry,
    pub ships: Vec<String>,
    pub battles: u64,
    pub seed: u64,
    /// Points the strongest ship is worth (the suggested points' scale).
    pub points_scale: f64,
}

/// A club file, read and checked.
#[derive(Debug, Clone)]
pub(crate) struct Club {
    /// The club file's path, as given.
    pub path: String,
    pub name: String,
    pub seasons: Vec<Entry>,
    pub tournaments: Vec<Entry>,
    pub ratings: Vec<Entry>,
    pub rulesets: Vec<Entry>,
    pub balance: Option<Balance>,
    doc: Doc,
}

impl Club {
    /// Check a club file's document (read by the caller); errors are at its lines.
    pub(crate) fn from_doc(path: &str, doc: Doc) -> Result<Club> {
        if !doc.value.is_object() {
            return Err(doc.error_at(
                "",
                format!("a club file is a mapping (`club: NAME`, `seasons: [...]`); for example:\n{MINIMAL}"),
            ));
        }
        let file: ClubFile = doc.deserialize()?;
        if file.club.trim().is_empty() {
            return Err(doc.error_at("/club", "the club needs a name"));
        }
        let entries = |key: &str, given: Vec<String>| -> Result<Vec<Entry>> {
            given
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let pointer = format!("/{key}/{i}");
                    if g.trim().is_empty() {
                        return Err(doc.error_at(&pointer, "an empty file name"));
                    }
                    Ok(Entry { given: g, pointer })
                })
                .collect()
        };
        let balance = match file.balance {
            None => None,
            Some(b) => {
                let battles = b.battles.unwrap_or(DEFAULT_BATTLES);
                if battles == 0 || battles > MOST_BATTLES {
                    return Err(doc.error_at(
                        "/balance/battles",
                        format!("battles a cell is 1 to {MOST_BATTLES}, not {battles}"),
                    ));
                }
                if b.ships.len() < 2 {
                    return Err(doc.error_at(
                        "/balance/ships",
                        "the balance matrix needs at least two ships",
                    ));
                }
                Some(Balance {
                    rules: Entry {
                        given: b.rules,
                        pointer: "/balance/rules".into(),
                    },
                    ships: b.ships,
                    battles,
                    seed: b.seed.unwrap_or(1),
                    points_scale: b.points_scale.unwrap_or(DEFAULT_POINTS_SCALE),
                })
            }
        };
        Ok(Club {
            path: path.to_string(),
            name: file.club,
            seasons: entries("seasons", file.seasons)?,
            tournaments: entries("tournaments", file.tournaments)?,
            ratings: entries("ratings", file.ratings)?,
            rulesets: entries("rulesets", file.rulesets)?,
            balance,
            doc,
        })
    }

    /// An error about `entry`, at the club file's line that names it (an error already placed
    /// in the file it names, at a line of that file, keeps its place).
    pub(crate) fn error_at(&self, entry: &Entry, e: Error) -> Error {
        if e.is_located() {
            return e;
        }
        self.doc.error_at(&entry.pointer, e.unplaced_message())
    }

    /// An error at `pointer` of the club file.
    pub(crate) fn error_at_pointer(&self, pointer: &str, message: impl Into<String>) -> Error {
        self.doc.error_at(pointer, message)
    }

    /// The folder paths in the club file are relative to.
    pub(crate) fn folder(&self) -> std::path::PathBuf {
        std::path::Path::new(&self.path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."))
            .to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn club(text: &str) -> Result<Club> {
        let doc = crate::rules::load::parse_text("club.yaml", text, crate::io::Format::Yaml)?;
        Club::from_doc("club.yaml", doc)
    }

    #[test]
    fn the_minimal_club_file_reads() {
        let c = club(MINIMAL).unwrap();
        assert_eq!(c.name, "Tuesday Night Games");
        assert_eq!(c.seasons[0].given, "season.yaml");
        assert_eq!(c.seasons[0].pointer, "/seasons/0");
        assert_eq!(c.rulesets[0].given, "bloodbowl");
        assert!(c.balance.is_none());
    }

    #[test]
    fn mistakes_are_at_their_lines() {
        let e = club("club: A\nseason: [s.yaml]\n").unwrap_err();
        assert_eq!(e.location().map(|l| l.1), Some(2), "{e}");
        let e = club("club: A\nbalance: {rules: startrek, ships: [A]}\n").unwrap_err();
        assert!(e.to_string().contains("at least two ships"), "{e}");
        let e =
            club("club: A\nbalance: {rules: startrek, ships: [A, B], battles: 0}\n").unwrap_err();
        assert!(e.to_string().contains("battles a cell is 1 to"), "{e}");
    }
}
