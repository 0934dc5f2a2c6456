//! CEP scenario scoring: points = result · violence · grade · game value (by default; the
//! ruleset's `points` formula decides), with every factor kept for the table.
use super::game::{at, unique_names, GameRecord, Invalid, Outcome, ShipRecord};
use crate::output::{trim_number, Align, Table};
use crate::rules::formula::round_to;
use crate::rules::model::Ruleset;
use crate::rules::scoring::{CepRules, CepVariables, Rounding};
use serde::Serialize;

/// Decimals of the factors when the ruleset rounds intermediates (`two_decimals`).
const INTERMEDIATE_DIGITS: i32 = 2;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CepReport {
    pub ruleset: String,
    pub system: &'static str,
    pub turns: i64,
    pub ranked: bool,
    /// Vp: victory points of every ship.
    pub game_value: f64,
    /// Rp: residual points of the surviving ships.
    pub residue: f64,
    /// v = Rp / Vp (rounded if the ruleset rounds intermediates).
    pub violence: f64,
    pub(crate) sides: Vec<CepSide>,
    pub(crate) players: Vec<CepPlayer>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct CepSide {
    pub name: String,
    pub result: Outcome,
    /// Nb: victory points of the side's ships.
    pub value: f64,
    /// The side's top rank (ladder spelling), when ranked.
    pub rank: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct CepPlayer {
    pub name: String,
    pub side: String,
    pub rank: Option<String>,
    /// The final points, rounded.
    pub points: i64,
    /// The points before the final rounding.
    pub exact: f64,
    /// Nj: victory points of the player's ships.
    pub own_value: f64,
    /// Nb: victory points of the player's side.
    pub side_value: f64,
    /// In: the side's result index.
    pub index: f64,
    /// Res = In · Nj / Nb.
    pub result: f64,
    /// Ig: rank steps below the enemy (clamped); 0 when unranked.
    pub grade_index: i64,
    /// G.
    pub grade: f64,
}

/// One ship line's numbers once looked up and checked.
struct ShipLine {
    victory_points: f64,
    residue: f64,
}

pub(crate) fn score(
    ruleset: &Ruleset,
    rules: &CepRules,
    game: &GameRecord,
) -> Result<CepReport, Invalid> {
    let turns = game.turns;
    if turns < 1 {
        return Err(Invalid::new(
            "/turns",
            format!("`turns` must be at least 1 (found {turns})"),
        ));
    }
    check_sides(game)?;
    let ranked = game.ranked.unwrap_or_else(|| {
        game.sides
            .iter()
            .flat_map(|s| &s.players)
            .any(|p| p.rank.is_some())
    });

    // Victory points and residue of every player's ships.
    let mut own: Vec<Vec<f64>> = Vec::new();
    let mut residue = 0.0;
    for (si, side) in game.sides.iter().enumerate() {
        let mut values = Vec::new();
        for (pi, player) in side.players.iter().enumerate() {
            let base = format!("/sides/{si}/players/{pi}");
            if player.ships.is_empty() {
                return Err(Invalid::new(
                    at(&base, "ships"),
                    format!("player `{}` flies no ships", player.name),
                ));
            }
            let mut nj = 0.0;
            for (k, ship) in player.ships.iter().enumerate() {
                let line = ship_line(ruleset, ship, turns, &at(&at(&base, "ships"), k))?;
                nj += line.victory_points;
                residue += line.residue;
            }
            values.push(nj);
        }
        own.push(values);
    }
    let side_values: Vec<f64> = own.iter().map(|v| v.iter().sum()).collect();
    let game_value: f64 = side_values.iter().sum();
    if game_value <= 0.0 {
        return Err(Invalid::new(
            "/sides",
            "the game has no value: every ship is worth 0 victory points",
        ));
    }
    let rounded = |x: f64| match rules.rounding {
        Rounding::Final => x,
        Rounding::TwoDecimals => round_to(x, INTERMEDIATE_DIGITS),
    };
    let violence = rounded(residue / game_value);

    // Ranks: each player's level, and each side's top rank.
    let levels = if ranked {
        Some(rank_levels(rules, game)?)
    } else {
        None
    };
    let side_top: Vec<Option<(String, i64)>> = match &levels {
        Some(l) => l
            .iter()
            .map(|side| side.iter().max_by_key(|r| r.1).cloned())
            .collect(),
        None => vec![None; game.sides.len()],
    };

    let formula = rules.points.compile_for::<CepVariables>();
    let mut players = Vec::new();
    for (si, side) in game.sides.iter().enumerate() {
        let index = match side.result {
            Outcome::Win => rules.index.win,
            Outcome::Loss => rules.index.loss,
            Outcome::Draw => rules.index.draw,
        };
        for (pi, player) in side.players.iter().enumerate() {
            let nj = own[si][pi];
            let nb = side_values[si];
            let result = rounded(if nb > 0.0 { index * nj / nb } else { 0.0 });
            let (rank, grade_index, grade) = match &levels {
                Some(l) => {
                    let (rank, level) = l[si][pi].clone();
                    let enemy = side_top
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != si)
                        .filter_map(|(_, t)| t.as_ref().map(|t| t.1))
                        .max();
                    let ig = enemy
                        .map(|e| (e - level).clamp(-rules.grade.clamp, rules.grade.clamp))
                        .unwrap_or(0);
                    (
                        Some(rank),
                        ig,
                        rounded(rules.grade.base + rules.grade.step * ig as f64),
                    )
                }
                None => (player.rank.clone(), 0, rules.grade.unranked),
            };
            let exact = formula.eval(&CepVariables {
                result,
                violence,
                grade,
                game_value,
                index,
                own_value: nj,
                side_value: nb,
                residue,
                grade_index: grade_index as f64,
                turns: turns as f64,
            });
            if !exact.is_finite() {
                return Err(Invalid::new(
                    format!("/sides/{si}/players/{pi}"),
                    format!(
                        "the ruleset's points formula gives {exact} for `{}`",
                        player.name
                    ),
                ));
            }
            players.push(CepPlayer {
                name: player.name.clone(),
                side: side.name.clone(),
                rank,
                points: super::round_points(exact) as i64,
                exact,
                own_value: nj,
                side_value: nb,
                index,
                result,
                grade_index,
                grade,
            });
        }
    }
    let sides = game
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| CepSide {
            name: s.name.clone(),
            result: s.result,
            value: side_values[i],
            rank: side_top[i].as_ref().map(|t| t.0.clone()),
        })
        .collect();
    Ok(CepReport {
        ruleset: ruleset.name.clone(),
        system: "cep",
        turns,
        ranked,
        game_value,
        residue,
        violence,
        sides,
        players,
    })
}

/// Sides and players: at least two sides, unique names, one winner unless drawn.
fn check_sides(game: &GameRecord) -> Result<(), Invalid> {
    if game.sides.len() < 2 {
        return Err(Invalid::new(
            "/sides",
            format!(
                "a scenario needs at least two sides (found {})",
                game.sides.len()
            ),
        ));
    }
    unique_names(game.sides.iter().map(|s| s.name.as_str()), "side", |i| {
        format!("/sides/{i}/name")
    })?;
    let everyone: Vec<(usize, usize, &str)> = game
        .sides
        .iter()
        .enumerate()
        .flat_map(|(si, s)| {
            s.players
                .iter()
                .enumerate()
                .map(move |(pi, p)| (si, pi, p.name.as_str()))
        })
        .collect();
    unique_names(everyone.iter().map(|e| e.2), "player", |i| {
        format!("/sides/{}/players/{}/name", everyone[i].0, everyone[i].1)
    })?;
    for (si, side) in game.sides.iter().enumerate() {
        if side.players.is_empty() {
            return Err(Invalid::new(
                format!("/sides/{si}/players"),
                format!("side `{}` has no players", side.name),
            ));
        }
    }
    let wins: Vec<usize> = game
        .sides
        .iter()
        .enumerate()
        .filter(|(_, s)| s.result == Outcome::Win)
        .map(|(i, _)| i)
        .collect();
    let draws = game
        .sides
        .iter()
        .filter(|s| s.result == Outcome::Draw)
        .count();
    if wins.len() > 1 {
        return Err(Invalid::new(
            format!("/sides/{}/result", wins[1]),
            "only one side can win; a shared result is `draw`",
        ));
    }
    if wins.len() == 1 && draws > 0 {
        let d = game
            .sides
            .iter()
            .position(|s| s.result == Outcome::Draw)
            .unwrap_or(0);
        return Err(Invalid::new(
            format!("/sides/{d}/result"),
            "a side cannot draw when another side won",
        ));
    }
    if wins.is_empty() && draws == 0 {
        return Err(Invalid::new(
            "/sides",
            "no side won: mark the winner `result: win`, or every side `draw`",
        ));
    }
    Ok(())
}

/// Each player's (rank spelling, level), side by side.
fn rank_levels(rules: &CepRules, game: &GameRecord) -> Result<Vec<Vec<(String, i64)>>, Invalid> {
    let known: Vec<&str> = rules.ranks.keys().map(|k| k.as_str()).collect();
    let mut out = Vec::new();
    for (si, side) in game.sides.iter().enumerate() {
        let mut levels = Vec::new();
        for (pi, player) in side.players.iter().enumerate() {
            let base = format!("/sides/{si}/players/{pi}");
            let Some(name) = &player.rank else {
                return Err(Invalid::new(base, format!("`{}` has no `rank`, but the game is ranked (say `ranked: false` to play without ranks)", player.name)));
            };
            let (spelling, level) = rules.rank(name).ok_or_else(|| {
                Invalid::new(
                    at(&base, "rank"),
                    crate::names::unknown("rank", name, &known),
                )
            })?;
            levels.push((spelling.to_string(), level));
        }
        out.push(levels);
    }
    Ok(out)
}

/// Look a ship line up in the ruleset and compute its victory points and residue.
fn ship_line(
    ruleset: &Ruleset,
    ship: &ShipRecord,
    turns: i64,
    pointer: &str,
) -> Result<ShipLine, Invalid> {
    let known = match &ship.kind {
        Some(kind) => Some(
            ruleset
                .ship(kind)
                .map_err(|e| Invalid::new(at(pointer, "type"), plain(e)))?,
        ),
        None => None,
    };
    let label = known
        .map(|k| k.0.to_string())
        .unwrap_or_else(|| "ship".to_string());
    let value = ship
        .value
        .or(known.and_then(|k| k.1.value))
        .ok_or_else(|| match known {
            Some((name, _)) => Invalid::new(
                at(pointer, "type"),
                format!(
                    "`{name}` has no `value` in ruleset `{}`; give `value` here",
                    ruleset.name
                ),
            ),
            None => Invalid::new(
                pointer,
                "a ship needs a `type` (a ship of the ruleset) or a `value`",
            ),
        })?;
    if !(value.is_finite() && value >= 0.0) {
        return Err(Invalid::new(
            at(pointer, "value"),
            "`value` must be a number, 0 or more",
        ));
    }
    let count = ship.count.unwrap_or(1);
    if count < 1 {
        return Err(Invalid::new(
            at(pointer, "count"),
            format!("`count` must be at least 1 (found {count})"),
        ));
    }
    let entered = ship.entered.unwrap_or(1);
    if !(1..=turns).contains(&entered) {
        return Err(Invalid::new(
            at(pointer, "entered"),
            format!("`entered` must be a turn of the game, 1 to {turns} (found {entered})"),
        ));
    }
    let last = match ship.left {
        Some(left) if !(entered..=turns).contains(&left) => {
            return Err(Invalid::new(at(pointer, "left"), format!("`left` must be a turn from its entry ({entered}) to the end ({turns}); found {left}")))
        }
        Some(_) if ship.destroyed => return Err(Invalid::new(at(pointer, "left"), "a ship that left the map was not destroyed: give `left` or `destroyed`, not both")),
        Some(left) => left,
        None => turns,
    };
    let victory_points = value * count as f64 * (last - entered + 1) as f64 / turns as f64;
    let fraction_left = match ship.structure_left {
        None => 1.0,
        Some(left) => {
            let structure = ship
                .structure
                .or(known.and_then(|k| k.1.structure))
                .ok_or_else(|| {
                    Invalid::new(
                        at(pointer, "structure_left"),
                        format!(
                            "{label} has no `structure` in ruleset `{}`; give `structure` here",
                            ruleset.name
                        ),
                    )
                })?;
            if !(structure.is_finite() && structure > 0.0) {
                return Err(Invalid::new(
                    at(pointer, "structure"),
                    "`structure` must be a positive number",
                ));
            }
            if !(0.0..=structure).contains(&left) {
                return Err(Invalid::new(
                    at(pointer, "structure_left"),
                    format!(
                        "`structure_left` must be from 0 to the ship's structure ({}); found {}",
                        trim_number(structure, 4),
                        trim_number(left, 4)
                    ),
                ));
            }
            if ship.destroyed && left > 0.0 {
                return Err(Invalid::new(
                    at(pointer, "structure_left"),
                    "a destroyed ship has no structure left",
                ));
            }
            left / structure
        }
    };
    let residue = if ship.destroyed {
        0.0
    } else {
        victory_points * fraction_left
    };
    Ok(ShipLine {
        victory_points,
        residue,
    })
}

fn plain(e: crate::error::Error) -> String {
    match e.is_located() {
        false => e.unplaced_message(),
        true => e.to_string(),
    }
}

impl CepReport {
    /// The factors per player, so anyone can redo the arithmetic.
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        let mut t = Table::new(&[
            ("player", Align::Left),
            ("side", Align::Left),
            ("rank", Align::Left),
            ("Nj", Align::Right),
            ("Nb", Align::Right),
            ("In", Align::Right),
            ("Res", Align::Right),
            ("v", Align::Right),
            ("Ig", Align::Right),
            ("G", Align::Right),
            ("Vp", Align::Right),
            ("exact", Align::Right),
            ("points", Align::Right),
        ]);
        t.key(&["points"]);
        for p in &self.players {
            t.row([
                p.name.clone(),
                p.side.clone(),
                p.rank.clone().unwrap_or_else(|| "-".into()),
                trim_number(p.own_value, 2),
                trim_number(p.side_value, 2),
                trim_number(p.index, 2),
                trim_number(p.result, 4),
                trim_number(self.violence, 4),
                format!("{:+}", p.grade_index),
                trim_number(p.grade, 2),
                trim_number(self.game_value, 2),
                trim_number(p.exact, 2),
                p.points.to_string(),
            ]);
        }
        format!(
            "CEP ({}), {} turns{}: Vp = {}, Rp = {}, v = Rp/Vp = {}\n\n{}",
            self.ruleset,
            self.turns,
            if self.ranked {
                ", ranked"
            } else {
                ", unranked"
            },
            trim_number(self.game_value, 4),
            trim_number(self.residue, 4),
            trim_number(self.violence, 4),
            t.render(layout)
        )
    }
}
