//! A history of games to rate (the input of `arbiter rate`), and its preparation for the
//! rating loop: names interned, places worked out, every problem located.
use super::game::Invalid;
use super::prepared::{Prepared, Ranking};
use crate::pointer::pointer_push;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A file of games to rate.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct History {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Starting ratings; anyone else starts at the ruleset's `initial`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub ratings: IndexMap<String, StartRating>,
    pub games: Vec<HistoryGame>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum StartRating {
    Rating(f64),
    /// For the systems with an uncertainty: a rating (μ), its deviation (σ), and for
    /// Glicko-2 a volatility.
    Full(FullStart),
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FullStart {
    #[serde(alias = "mu")]
    pub rating: f64,
    #[serde(
        default,
        alias = "uncertainty",
        alias = "sigma",
        skip_serializing_if = "Option::is_none"
    )]
    pub deviation: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
}

impl StartRating {
    pub(crate) fn full(self) -> FullStart {
        match self {
            StartRating::Rating(rating) => FullStart {
                rating,
                deviation: None,
                volatility: None,
            },
            StartRating::Full(f) => f,
        }
    }
}

/// One game: a finishing order (best first; an inner list is a tie) or final scores.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HistoryGame {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// When it was played (`2024-03-17`): idle days count from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<Placing>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<IndexMap<String, f64>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Placing {
    One(String),
    Tied(Vec<String>),
}

/// A rating period: a whole number or a name (`2024-spring`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Hash)]
#[serde(untagged)]
pub enum Period {
    Number(i64),
    Name(String),
}

impl<'de> Deserialize<'de> for Period {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Period, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Period;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a period: a whole number or a name")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Period, E> {
                Ok(Period::Number(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Period, E> {
                i64::try_from(v)
                    .map(Period::Number)
                    .map_err(|_| E::custom("a period number this large is not a period"))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Period, E> {
                Err(E::custom(format!(
                    "a period is a whole number or a name, not {v}"
                )))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Period, E> {
                Ok(Period::Name(v.to_string()))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Period::Number(n) => write!(f, "{n}"),
            Period::Name(s) => write!(f, "{s}"),
        }
    }
}

/// A player about to join a game that has `so_far` players: a name, and room for one more.
fn check_player(name: &str, so_far: usize, at: impl Fn() -> String) -> Result<(), Invalid> {
    if name.trim().is_empty() {
        return Err(Invalid::new(at(), "a player needs a name"));
    }
    if so_far == super::game::MAX_PLAYERS_PER_GAME {
        return Err(Invalid::new(at(), super::game::too_many("player")));
    }
    Ok(())
}

/// Check a history and turn it into the rating loop's form.
pub(crate) fn prepare(history: &History) -> Result<Prepared, Invalid> {
    let mut p = Prepared::default();
    for (name, start) in &history.ratings {
        let pointer = || pointer_push("/ratings", name);
        let before = p.names.len();
        let id = p.names.id(name);
        if id < before {
            // Names are compared without case and accents: `ANA` is `Ana` again.
            let first = &p.names.shown[id];
            let again = if first == name {
                String::new()
            } else {
                format!(" (as `{first}`: case and accents are ignored)")
            };
            return Err(Invalid::new(
                pointer(),
                format!("`{name}` is given twice{again}"),
            ));
        }
        let start = start.full();
        let positive = |x: Option<f64>| x.is_none_or(|x| x.is_finite() && x > 0.0);
        if !start.rating.is_finite() || !positive(start.deviation) || !positive(start.volatility) {
            return Err(Invalid::new(
                pointer(),
                "a starting rating must be a number (and a deviation or volatility, above 0)",
            ));
        }
        p.starts.push((id, start));
    }
    let mut rows: Vec<(usize, f64, usize)> = Vec::new();
    // Where each row was written: (order index, tie member) or (score index, 0).
    let mut written: Vec<(usize, usize)> = Vec::new();
    for (g, game) in history.games.iter().enumerate() {
        let base = || format!("/games/{g}");
        let period = game.period.as_ref().map(|pd| p.period_id(&pd.to_string()));
        let day = match &game.date {
            None => None,
            Some(d) => Some(super::dates::day_number(d).ok_or_else(|| {
                Invalid::new(
                    format!("{}/date", base()),
                    format!("`{d}` is not a date: write it YYYY-MM-DD"),
                )
            })?),
        };
        rows.clear();
        written.clear();
        let ranking = match (&game.order, &game.scores) {
            (Some(_), Some(_)) => {
                return Err(Invalid::new(
                    base(),
                    "give a game's `order` or its `scores`, not both",
                ))
            }
            (None, None) => {
                return Err(Invalid::new(
                    base(),
                    "a game needs an `order` (best first) or `scores`",
                ))
            }
            (Some(order), None) => {
                for (j, placing) in order.iter().enumerate() {
                    let group: &[String] = match placing {
                        Placing::One(n) => std::slice::from_ref(n),
                        Placing::Tied(ns) => ns,
                    };
                    if group.is_empty() {
                        return Err(Invalid::new(
                            format!("{}/order/{j}", base()),
                            "an empty tie",
                        ));
                    }
                    for (m, name) in group.iter().enumerate() {
                        let at = || match placing {
                            Placing::One(_) => format!("{}/order/{j}", base()),
                            Placing::Tied(_) => format!("{}/order/{j}/{m}", base()),
                        };
                        check_player(name, rows.len(), at)?;
                        rows.push((p.names.id(name), j as f64, written.len()));
                        written.push((j, m));
                    }
                }
                Ranking::Ascending
            }
            (None, Some(scores)) => {
                for (j, (name, score)) in scores.iter().enumerate() {
                    let at = || pointer_push(&format!("{}/scores", base()), name);
                    check_player(name, rows.len(), at)?;
                    if !score.is_finite() {
                        return Err(Invalid::new(at(), "a score must be a number"));
                    }
                    rows.push((p.names.id(name), *score, written.len()));
                    written.push((j, 0));
                }
                Ranking::Descending
            }
        };
        if rows.len() < 2 {
            return Err(Invalid::new(
                base(),
                format!("a game needs at least two players (found {})", rows.len()),
            ));
        }
        if let Err(tag) = p.push_game(&mut rows, ranking, period, day, game.label.clone()) {
            let (j, m) = written[tag];
            let (pointer, name) = match (&game.order, &game.scores) {
                (Some(order), _) => match &order[j] {
                    Placing::One(n) => (format!("{}/order/{j}", base()), n.clone()),
                    Placing::Tied(ns) => (format!("{}/order/{j}/{m}", base()), ns[m].clone()),
                },
                (_, Some(scores)) => {
                    let name = scores.get_index(j).map(|e| e.0.clone()).unwrap_or_default();
                    (pointer_push(&format!("{}/scores", base()), &name), name)
                }
                _ => (base(), String::new()),
            };
            return Err(Invalid::new(
                pointer,
                format!("`{name}` is listed twice in this game"),
            ));
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_ratings(names: &[&str]) -> History {
        History {
            ratings: names
                .iter()
                .map(|n| (n.to_string(), StartRating::Rating(1500.0)))
                .collect(),
            ..History::default()
        }
    }

    #[test]
    fn a_starting_rating_given_twice_is_refused_at_the_second() {
        // The only two names given: the second once replaced the first without a word.
        let e = prepare(&with_ratings(&["Ana", "ANA"]))
            .err()
            .expect("refused");
        assert_eq!(e.pointer(), Some("/ratings/ANA"));
        assert_eq!(
            e.message(),
            "`ANA` is given twice (as `Ana`: case and accents are ignored)"
        );
        let e = prepare(&with_ratings(&["Ana", "Bo", "Aña"]))
            .err()
            .expect("refused");
        assert_eq!(e.pointer(), Some("/ratings/Aña"));
        assert!(prepare(&with_ratings(&["Ana", "Bo"])).is_ok());
    }
}
