//! Dice notation ("3D6", "D100", "2D6+1D3", "4D6-2", "3D6/3D3") and exact distributions.
use super::grammar::{Rule, RulesParser};
use pest::Parser;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One signed part of a dice sum: `count` dice of `sides` faces, or a constant when `sides` is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DiceTerm {
    pub negative: bool,
    pub count: u32,
    pub sides: u32,
}

/// A sum of dice and constants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    pub(crate) terms: Vec<DiceTerm>,
}

/// The largest distribution `distribution` will enumerate: outcomes, dice rolled, and
/// work (dice × outcomes × sides), so that no expression takes more than about a second.
pub(crate) const MAX_OUTCOMES: i64 = 1_000_000;
pub(crate) const MAX_DICE: i64 = 10_000;
pub(crate) const MAX_WORK: i128 = 100_000_000;
/// Largest count, number of sides or constant in one term.
pub(crate) const MAX_TERM: u32 = 1_000_000;
/// Most terms in dice read from a file (a ruleset's phasers, say): "2D6+1D3" has two.
pub(crate) const MAX_FILE_TERMS: usize = 100;

impl Dice {
    /// `count` dice of `sides` faces.
    pub(crate) fn new(count: u32, sides: u32) -> Dice {
        Dice {
            terms: vec![DiceTerm {
                negative: false,
                count,
                sides,
            }],
        }
    }

    pub fn parse(text: &str) -> Result<Dice, String> {
        let pair = parse_pair(text)?;
        if pair.1.is_some() {
            return Err(format!(
                "`{}` is a pair of dice (intact/damaged); one roll is expected here",
                super::formula::shorten(text)
            ));
        }
        Ok(pair.0)
    }

    pub fn min(&self) -> i64 {
        self.terms
            .iter()
            .map(|t| t.signed(if t.negative { t.high() } else { t.low() }))
            .sum()
    }

    pub fn max(&self) -> i64 {
        self.terms
            .iter()
            .map(|t| t.signed(if t.negative { t.low() } else { t.high() }))
            .sum()
    }

    pub fn mean(&self) -> f64 {
        self.terms
            .iter()
            .map(|t| if t.negative { -t.mean() } else { t.mean() })
            .sum()
    }

    /// How many dice are rolled (constants excluded).
    pub(crate) fn dice_count(&self) -> u32 {
        self.terms
            .iter()
            .filter(|t| t.sides > 0)
            .fold(0u32, |n, t| n.saturating_add(t.count))
    }

    /// Dice read from a file are rolled again and again (every turn of every battle), so they
    /// hold at most `MAX_DICE` dice and `MAX_FILE_TERMS` terms.
    pub(crate) fn check_rollable(&self) -> Result<(), String> {
        if self.terms.len() > MAX_FILE_TERMS {
            return Err(format!(
                "`{}` has more than {MAX_FILE_TERMS} terms",
                super::formula::shorten(&self.to_string())
            ));
        }
        let dice: u64 = self
            .terms
            .iter()
            .filter(|t| t.sides > 0)
            .map(|t| t.count as u64)
            .sum();
        if dice > MAX_DICE as u64 {
            return Err(format!(
                "`{self}` rolls {dice} dice; dice in a file roll at most {MAX_DICE}"
            ));
        }
        Ok(())
    }

    /// Roll with any random source.
    pub(crate) fn roll<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut total = 0i64;
        for t in &self.terms {
            let v: i64 = if t.sides == 0 {
                t.count as i64
            } else {
                (0..t.count)
                    .map(|_| rng.gen_range(1..=t.sides as i64))
                    .sum()
            };
            total += if t.negative { -v } else { v };
        }
        total
    }

    /// The exact distribution, by convolution: (min, probabilities of min..=max).
    pub fn distribution(&self) -> Result<(i64, Vec<f64>), String> {
        let outcomes = self.max() - self.min() + 1;
        let dice: i64 = self
            .terms
            .iter()
            .filter(|t| t.sides > 0)
            .map(|t| t.count as i64)
            .sum();
        let widest = self
            .terms
            .iter()
            .map(|t| t.sides as i128)
            .max()
            .unwrap_or(1);
        let work = dice as i128 * outcomes as i128 * widest;
        if outcomes > MAX_OUTCOMES || dice > MAX_DICE || work > MAX_WORK {
            return Err(format!(
                "{self} is too large to enumerate exactly ({outcomes} outcomes, {dice} dice; the \
                 limits are {MAX_OUTCOMES} outcomes, {MAX_DICE} dice, and dice × outcomes × sides \
                 up to {MAX_WORK})"
            ));
        }
        if let Some(exact) = self.exact_counts() {
            return Ok(exact);
        }
        let mut low = 0i64;
        let mut dist = vec![1.0f64];
        for t in &self.terms {
            if t.sides == 0 {
                low += t.signed(t.count as i64);
                continue;
            }
            let face = vec![1.0 / t.sides as f64; t.sides as usize];
            for _ in 0..t.count {
                dist = convolve(&dist, &face);
                if t.negative {
                    low -= t.sides as i64;
                } else {
                    low += 1;
                }
            }
        }
        // A negative die's faces run high to low: convolution above used them in rising order,
        // which is the same distribution of -X shifted, since a die is symmetric.
        Ok((low, dist))
    }
}

impl Dice {
    /// The distribution from whole counts of ways (exact until the division), when the number
    /// of possible rolls fits in 128 bits.
    fn exact_counts(&self) -> Option<(i64, Vec<f64>)> {
        let mut total: u128 = 1;
        for t in self.terms.iter().filter(|t| t.sides > 0) {
            total = total.checked_mul((t.sides as u128).checked_pow(t.count)?)?;
        }
        let mut low = 0i64;
        let mut ways: Vec<u128> = vec![1];
        for t in &self.terms {
            if t.sides == 0 {
                low += t.signed(t.count as i64);
                continue;
            }
            for _ in 0..t.count {
                let mut next = vec![0u128; ways.len() + t.sides as usize - 1];
                for (i, w) in ways.iter().enumerate() {
                    for j in 0..t.sides as usize {
                        next[i + j] += w;
                    }
                }
                ways = next;
                low += if t.negative { -(t.sides as i64) } else { 1 };
            }
        }
        let total = total as f64;
        Some((low, ways.into_iter().map(|w| w as f64 / total).collect()))
    }
}

impl DiceTerm {
    /// The lowest face total: every die showing 1 (or the constant itself).
    fn low(&self) -> i64 {
        self.count as i64
    }
    fn high(&self) -> i64 {
        if self.sides == 0 {
            self.count as i64
        } else {
            self.count as i64 * self.sides as i64
        }
    }
    fn mean(&self) -> f64 {
        if self.sides == 0 {
            self.count as f64
        } else {
            self.count as f64 * (self.sides as f64 + 1.0) / 2.0
        }
    }
    fn signed(&self, v: i64) -> i64 {
        if self.negative {
            -v
        } else {
            v
        }
    }
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// Parse "A" or "A/B" into the first roll and, if given, the second.
pub fn parse_pair(text: &str) -> Result<(Dice, Option<Dice>), String> {
    let pairs = RulesParser::parse(Rule::dice_pair, text.trim()).map_err(|e| {
        let e = e.renamed_rules(super::grammar::rule_name);
        let at = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        format!(
            "`{}` is not dice notation (like 3D6, D100, 2D6+1, 3D6/3D3): problem at character {}",
            super::formula::shorten(text),
            at + 1
        )
    })?;
    let mut sums = Vec::new();
    for sum in pairs.filter(|p| p.as_rule() == Rule::dice_sum) {
        let mut terms = Vec::new();
        let mut negative = false;
        for p in sum.into_inner() {
            match p.as_rule() {
                Rule::dice_sign => negative = p.as_str() != "+",
                Rule::dice => {
                    let s = p.as_str().to_uppercase();
                    let (c, d) = s.split_once('D').expect("dice has a D");
                    let count: u32 = if c.is_empty() {
                        1
                    } else {
                        c.parse()
                            .ok()
                            .filter(|n| *n <= MAX_TERM)
                            .ok_or_else(|| format!("`{c}` dice is too many (at most {MAX_TERM})"))?
                    };
                    let sides: u32 =
                        d.parse().ok().filter(|n| *n <= MAX_TERM).ok_or_else(|| {
                            format!("a die of `{d}` sides is too many (at most {MAX_TERM})")
                        })?;
                    if count == 0 {
                        return Err(format!("`{s}`: a roll needs at least one die"));
                    }
                    if sides == 0 {
                        return Err(format!("`{s}`: a die needs at least one side"));
                    }
                    terms.push(DiceTerm {
                        negative,
                        count,
                        sides,
                    });
                }
                _ => {
                    let n: u32 = p
                        .as_str()
                        .parse()
                        .ok()
                        .filter(|n| *n <= MAX_TERM)
                        .ok_or_else(|| {
                            format!("`{}` is not a whole number up to {MAX_TERM}", p.as_str())
                        })?;
                    terms.push(DiceTerm {
                        negative,
                        count: n,
                        sides: 0,
                    });
                }
            }
        }
        sums.push(Dice { terms });
    }
    let mut it = sums.into_iter();
    let first = it
        .next()
        .ok_or_else(|| format!("`{}` holds no dice", super::formula::shorten(text)))?;
    Ok((first, it.next()))
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if t.negative {
                write!(f, "-")?;
            } else if i > 0 {
                write!(f, "+")?;
            }
            if t.sides == 0 {
                write!(f, "{}", t.count)?;
            } else if t.count == 1 && t.sides == 100 {
                write!(f, "D100")?;
            } else {
                write!(f, "{}D{}", t.count, t.sides)?;
            }
        }
        Ok(())
    }
}

/// Accept a string or a number where text is expected (so `hull: 3` reads as "3").
pub(crate) fn text_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        S(String),
        I(i64),
        F(f64),
    }
    Ok(
        match Raw::deserialize(d).map_err(|_| serde::de::Error::custom("expected text"))? {
            Raw::S(s) => s,
            Raw::I(i) => i.to_string(),
            Raw::F(x) => x.to_string(),
        },
    )
}

impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        let text = text_or_number(d)?;
        let dice = Dice::parse(&text).map_err(serde::de::Error::custom)?;
        dice.check_rollable().map_err(serde::de::Error::custom)?;
        Ok(dice)
    }
}

/// Two rolls written "A/B": the first while a component is intact, the second once damaged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DicePair {
    pub intact: Dice,
    pub damaged: Dice,
}

impl fmt::Display for DicePair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.intact, self.damaged)
    }
}

impl Serialize for DicePair {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for DicePair {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DicePair, D::Error> {
        let text = text_or_number(d)?;
        let (intact, damaged) = parse_pair(&text).map_err(serde::de::Error::custom)?;
        for d in std::iter::once(&intact).chain(damaged.as_ref()) {
            d.check_rollable().map_err(serde::de::Error::custom)?;
        }
        match (intact, damaged) {
            (intact, Some(damaged)) => Ok(DicePair { intact, damaged }),
            (intact, None) => Ok(DicePair {
                damaged: intact.clone(),
                intact,
            }),
        }
    }
}

/// Dice are written as text ("4D6", "2D6+1"); a plain number is a fixed roll.
impl schemars::JsonSchema for Dice {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Dice".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "integer"],
            "description": "Dice to roll, written NdS (\"4D6\", \"2D6+1\"); a plain number is a fixed result.",
            "examples": ["4D6", "1D6"],
        })
    }
}

/// A pair is written "intact/damaged" ("3D6/3D3"); one roll alone serves for both.
impl schemars::JsonSchema for DicePair {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DicePair".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "integer"],
            "description": "Two rolls, intact / damaged (\"3D6/3D3\"); one roll alone serves for both.",
            "examples": ["3D6/3D3"],
        })
    }
}
