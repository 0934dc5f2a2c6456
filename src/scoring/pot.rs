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
    /// The rounded shares would pay more than the pot, so the exact shares were paid.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact_shares: bool,
    /// Players who took a remainder point a player with the same score did not (only when
    /// no split among whole groups of equal scores pays the pot exactly).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unequal: Vec<String>,
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
    /// Points handed out of the remainder.
    pub remainder: i64,
    /// What the player takes from the pot.
    pub points: i64,
    /// Ladder change: points − stake.
    pub change: i64,
}

pub(crate) fn score(
    ruleset: &str,
    rules: &PotRules,
    rows: &[ResultRow],
) -> Result<PotReport, Invalid> {
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

    let (shares, mut floors) = if game_spread == 0 {
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
    // Rounded shares can add up past the whole: then the exact shares are paid (their floors
    // never exceed the pot), so nobody is paid a point that must be taken back.
    let exact = floors.iter().sum::<i128>() > pot;
    if exact {
        floors = spreads.iter().map(|s| pot * s / game_spread).collect();
    }
    let mut left = pot - floors.iter().sum::<i128>();
    // Ranking order: best score first, equal scores in listed order.
    let mut ranking: Vec<usize> = (0..rows.len()).collect();
    ranking.sort_by(|a, b| scores[*b].cmp(&scores[*a]).then(a.cmp(b)));
    let order: Vec<usize> = match rules.remainder {
        Remainder::TopFirst => ranking.clone(),
        Remainder::LargestFraction => {
            let mut o = ranking.clone();
            o.sort_by(|a, b| fractions[*b].cmp(&fractions[*a]));
            o
        }
    };
    // Equal scores are one group: a group takes a point for each member or none.
    // A player at the lowest score took no share and takes no remainder (the spec: the
    // remainder goes top first).
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in order.iter().filter(|&&i| spreads[i] > 0) {
        match groups.iter_mut().find(|g| scores[g[0]] == scores[i]) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    let mut extra = vec![0i128; rows.len()];
    let mut unequal = Vec::new();
    if left > 0 {
        let reachable = sums_of(&groups, left as usize);
        while left > 0 {
            let mut gave = false;
            for g in &groups {
                let size = g.len() as i128;
                if left >= size && reachable[(left - size) as usize] {
                    for &i in g {
                        extra[i] += 1;
                    }
                    left -= size;
                    gave = true;
                }
                if left == 0 {
                    break;
                }
            }
            if !gave {
                // No way to pay the rest to whole groups: one point each in ranking order.
                let paid = order.iter().filter(|&&i| spreads[i] > 0);
                for &i in paid.cycle().take(left as usize) {
                    extra[i] += 1;
                    unequal.push(rows[i].name.clone());
                }
                left = 0;
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
        exact_shares: exact,
        unequal,
    })
}

/// `reachable[x]`: x points can be handed out as whole groups (each group any number of
/// times).
fn sums_of(groups: &[Vec<usize>], most: usize) -> Vec<bool> {
    let mut reachable = vec![false; most + 1];
    reachable[0] = true;
    for x in 1..=most {
        reachable[x] = groups
            .iter()
            .any(|g| g.len() <= x && reachable[x - g.len()]);
    }
    reachable
}

impl PotReport {
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
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
        t.key(&["points"]);
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
        let mut text = format!(
            "Pot ({}): pot {}, game spread {}\n\n{}",
            self.ruleset,
            self.pot,
            self.game_spread,
            t.render(layout)
        );
        if self.exact_shares {
            text.push_str("\nthe rounded shares add up to more than the pot: the floors are of the exact shares\n");
        }
        if !self.unequal.is_empty() {
            text.push_str(&format!(
                "\nthe remainder cannot go to whole groups of equal scores: one point each to {} (ranking order)\n",
                self.unequal.join(", ")
            ));
        }
        text
    }
}

/// A share as a percentage when the scale is a power of ten of at least 100 ("29.3%"), else
/// as the fraction it is ("5/7").
fn share_text(share: i64, scale: i64) -> String {
    let mut s = scale;
    while s > 100 && s % 10 == 0 {
        s /= 10;
    }
    if s == 100 {
        crate::output::percent(share as f64 / scale as f64)
    } else {
        format!("{share}/{scale}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    fn rules() -> PotRules {
        PotRules {
            initial: 1000,
            stake: 100,
            share_scale: 1000,
            remainder: Remainder::TopFirst,
        }
    }

    fn table(scores: &[i64]) -> Vec<ResultRow> {
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| ResultRow {
                name: format!("P{i}"),
                score: *s as f64,
            })
            .collect()
    }

    #[test]
    fn seven_equal_leaders_and_no_remainder_for_the_lowest() {
        // Rounded shares of 14.3% each would pay 7 × 143 = 1001 of a 1000 pot: exact shares,
        // 142 each. The 6 left cannot go to the seven whole, nor to the three at the lowest
        // score (no share, no remainder): the first six listed take one each, and say so.
        let r = score("", &rules(), &table(&[9, 9, 9, 9, 9, 9, 9, 1, 1, 1])).unwrap();
        assert!(r.exact_shares);
        let points: Vec<i64> = r.players.iter().map(|p| p.points).collect();
        assert_eq!(points, [143, 143, 143, 143, 143, 143, 142, 0, 0, 0]);
        assert_eq!(r.unequal.len(), 6);
    }

    #[test]
    fn a_remainder_skips_a_tie_it_cannot_share() {
        // Floors 233, 233, 77 ×3: 3 left; the tied leaders cannot take 3, the three 2s can.
        let r = score("", &rules(), &table(&[4, 4, 2, 2, 2, 1, 1])).unwrap();
        let points: Vec<i64> = r.players.iter().map(|p| p.points).collect();
        assert_eq!(points, [233, 233, 78, 78, 78, 0, 0]);
        assert!(r.unequal.is_empty());
    }

    proptest! {
        #[test]
        fn equal_scores_equal_points_and_the_pot_paid_exactly(
            scores in proptest::collection::vec(0i64..30, 2..12)
        ) {
            let r = score("", &rules(), &table(&scores)).unwrap();
            let total: i64 = r.players.iter().map(|p| p.points).sum();
            prop_assert_eq!(total, r.pot);
            for p in &r.players {
                // Nothing is taken back once the pot is shared.
                prop_assert!(p.remainder >= 0);
                for q in &r.players {
                    if p.score == q.score && r.unequal.is_empty() {
                        prop_assert_eq!(p.points, q.points);
                    }
                    if p.score > q.score {
                        prop_assert!(p.floor >= q.floor);
                    }
                }
            }
        }
    }

    #[test]
    fn shares_print_as_the_source_does() {
        assert_eq!(share_text(293, 1000), "29.3%");
        assert_eq!(share_text(18, 100), "18.0%");
        assert_eq!(share_text(2934, 10_000), "29.3%");
        assert_eq!(share_text(5, 7), "5/7");
    }
}
