//! Advanced Civilization ladder pot: everyone stakes into a pot that is shared by spread.
//! Integer arithmetic only: the source's table is made with shares in whole per-mille.
use super::game::{Invalid, ResultRow};
use super::percentile::check_rows;
use crate::output::{Align, Table};
use crate::rules::scoring::{PotRules, Remainder};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PotReport {
    pub ruleset: String,
    pub system: &'static str,
    pub pot: i64,
    pub game_spread: i64,
    /// Shares are in 1/share_scale parts of the game spread.
    pub share_scale: i64,
    pub players: Vec<PotPlayer>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PotPlayer {
    pub name: String,
    pub score: i64,
    pub spread: i64,
    /// Share of the game spread in 1/share_scale parts (per-mille by default).
    pub share: i64,
    /// floor(pot · share / share_scale).
    pub floor: i64,
    /// Points handed out of (or, if the rounded shares overshoot, back into) the remainder.
    pub remainder: i64,
    /// What the player takes from the pot.
    pub points: i64,
    /// Ladder change: points − stake.
    pub change: i64,
}

pub fn score(ruleset: &str, rules: &PotRules, rows: &[ResultRow]) -> Result<PotReport, Invalid> {
    check_rows(rows)?;
    let mut scores = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        if r.score.fract() != 0.0 || r.score.abs() > 1e15 {
            return Err(Invalid::new(
                format!("/players/{i}/score"),
                format!(
                    "pot scores are whole numbers (found {} for `{}`)",
                    r.score, r.name
                ),
            ));
        }
        scores.push(r.score as i128);
    }
    let n = rows.len() as i128;
    let stake = rules.stake as i128;
    let scale = rules.share_scale as i128;
    let pot = stake * n;
    // i128 holds every product below unless the ruleset's numbers are absurd.
    if pot
        .checked_mul(scale)
        .and_then(|x| x.checked_mul(4))
        .is_none()
    {
        return Err(Invalid::new(
            "",
            "the pot's stake and share scale are too large to compute with",
        ));
    }
    let low = *scores.iter().min().expect("two players at least");
    let spreads: Vec<i128> = scores.iter().map(|s| s - low).collect();
    let game_spread: i128 = spreads.iter().sum();

    let (shares, floors) = if game_spread == 0 {
        // Everyone equal: nobody's share is larger, each gets the stake back.
        (vec![scale / n; rows.len()], vec![stake; rows.len()])
    } else {
        // A share is rounded to the nearest part (halves up), the payout rounded down.
        let shares: Vec<i128> = spreads
            .iter()
            .map(|s| (2 * s * scale + game_spread) / (2 * game_spread))
            .collect();
        let floors = shares.iter().map(|sh| pot * sh / scale).collect();
        (shares, floors)
    };
    let fractions: Vec<i128> = shares.iter().map(|sh| pot * sh % scale).collect();
    let mut extra = vec![0i128; rows.len()];
    let left = pot - floors.iter().sum::<i128>();
    // Ranking order: best score first, equal scores in listed order.
    let mut ranking: Vec<usize> = (0..rows.len()).collect();
    ranking.sort_by(|a, b| scores[*b].cmp(&scores[*a]).then(a.cmp(b)));
    if left > 0 {
        let order: Vec<usize> = match rules.remainder {
            Remainder::TopFirst => ranking.clone(),
            Remainder::LargestFraction => {
                let mut o = ranking.clone();
                o.sort_by(|a, b| fractions[*b].cmp(&fractions[*a]));
                o
            }
        };
        for i in 0..left as usize {
            extra[order[i % order.len()]] += 1;
        }
    } else if left < 0 {
        // Rounded shares can add up past the whole: take the excess back from the bottom.
        let mut owed = -left;
        while owed > 0 {
            for &i in ranking.iter().rev() {
                if owed > 0 && floors[i] + extra[i] > 0 {
                    extra[i] -= 1;
                    owed -= 1;
                }
            }
        }
    }
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let points = floors[i] + extra[i];
            PotPlayer {
                name: r.name.clone(),
                score: scores[i] as i64,
                spread: spreads[i] as i64,
                share: shares[i] as i64,
                floor: floors[i] as i64,
                remainder: extra[i] as i64,
                points: points as i64,
                change: (points - stake) as i64,
            }
        })
        .collect();
    Ok(PotReport {
        ruleset: ruleset.to_string(),
        system: "pot",
        pot: pot as i64,
        game_spread: game_spread as i64,
        share_scale: rules.share_scale,
        players,
    })
}

impl PotReport {
    pub fn table(&self) -> String {
        let mut t = Table::new(&[
            ("player", Align::Left),
            ("score", Align::Right),
            ("spread", Align::Right),
            ("share", Align::Right),
            ("floor", Align::Right),
            ("+", Align::Right),
            ("points", Align::Right),
            ("change", Align::Right),
        ]);
        for p in &self.players {
            t.row([
                p.name.clone(),
                p.score.to_string(),
                p.spread.to_string(),
                share_text(p.share, self.share_scale),
                p.floor.to_string(),
                if p.remainder == 0 {
                    String::new()
                } else {
                    format!("{:+}", p.remainder)
                },
                p.points.to_string(),
                format!("{:+}", p.change),
            ]);
        }
        format!(
            "Pot ({}): pot {}, game spread {}\n\n{}",
            self.ruleset,
            self.pot,
            self.game_spread,
            t.render()
        )
    }
}

/// A share as a percentage when the scale is a power of ten of at least 100 ("29.3%").
fn share_text(share: i64, scale: i64) -> String {
    let mut digits = 0usize;
    let mut s = scale;
    while s > 100 && s % 10 == 0 {
        s /= 10;
        digits += 1;
    }
    if s == 100 {
        format!("{:.*}%", digits, share as f64 * 100.0 / scale as f64)
    } else {
        format!("{share}/{scale}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_print_as_the_source_does() {
        assert_eq!(share_text(293, 1000), "29.3%");
        assert_eq!(share_text(18, 100), "18%");
        assert_eq!(share_text(5, 7), "5/7");
    }
}
