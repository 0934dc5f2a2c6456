//! A ruleset value named by its path (as `r.get` takes it), set to other values on copies of
//! the ruleset, each checked again as a loaded file is.
use crate::error::{Error, Result};
use crate::rules::edit;
use crate::rules::model::Ruleset;
use serde_json::Value;

/// Most values one axis of a sweep may have (a grid of two is at most its square).
pub(crate) const MAX_VALUES: usize = 1000;

#[derive(Debug, Clone)]
pub(crate) struct Parameter {
    /// The path as the user wrote it (what reports show).
    pub shown: String,
    /// The ruleset's own keys (ship aliases, case and accents resolved).
    pub path: Vec<String>,
    /// The value there now, if there is one (an optional stat may be absent).
    pub current: Option<Value>,
}

impl Parameter {
    /// The value at `text` in `ruleset`: its section must exist, and it must be a value, not a
    /// whole section.
    pub(crate) fn new(ruleset: &Ruleset, text: &str) -> Result<Parameter> {
        let shown = text.trim().to_string();
        let typed = edit::parse_path(&shown);
        if typed.is_empty() {
            return Err(Error::msg(
                "give the path of a ruleset value to vary, e.g. `/ships/Klingon battle \
                 cruiser/shields`",
            ));
        }
        let tree = edit::tree(ruleset);
        let path = edit::resolve(ruleset, &tree, &typed);
        let (_, parents) = path.split_last().expect("not empty");
        let missing = || {
            // The longest part of the path that is there, to say where it goes wrong.
            let known = (0..parents.len())
                .rev()
                .find(|&i| edit::value_at(&tree, &path[..=i]).is_some())
                .map(|i| format!(" (`{}` is there)", edit::show_path(&path[..=i])))
                .unwrap_or_default();
            Error::msg(format!(
                "`{shown}`: ruleset `{}` has no `{}`{known}",
                ruleset.name,
                edit::show_path(parents)
            ))
        };
        match edit::value_at(&tree, parents) {
            Some(Value::Object(_)) | Some(Value::Array(_)) => {}
            _ => return Err(missing()),
        }
        let current = edit::value_at(&tree, &path).cloned();
        if matches!(current, Some(Value::Object(_)) | Some(Value::Array(_))) {
            return Err(Error::msg(format!(
                "`{shown}` is a whole section of ruleset `{}`; give the path of one value in it",
                ruleset.name
            )));
        }
        Ok(Parameter {
            shown,
            path,
            current,
        })
    }

    /// A copy of `ruleset` with this value set, validated.
    pub(crate) fn apply(&self, ruleset: &Ruleset, value: &Value) -> Result<Ruleset> {
        edit::with_value(ruleset, &self.path, value.clone())
    }

    /// The current value, as a number (None if absent or not a number).
    pub(crate) fn current_number(&self) -> Option<f64> {
        self.current.as_ref().and_then(Value::as_f64)
    }

    /// Whether the value is a whole number now (so a search keeps to whole numbers).
    pub(crate) fn is_integer(&self) -> bool {
        matches!(&self.current, Some(Value::Number(n)) if n.is_i64() || n.is_u64())
    }
}

/// A number as a JSON value: whole numbers as integers (so a `u32` field accepts them).
pub(crate) fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// `LO..HI[:STEP]` (both ends included; STEP 1 by default) or `V1,V2,...` (numbers, `true`,
/// `false`, or text such as `3D6/3D3`).
pub(crate) fn values_from_range(text: &str) -> Result<Vec<Value>> {
    let text = text.trim();
    if let Some((lo, rest)) = text.split_once("..") {
        let (hi, step) = match rest.split_once(':') {
            Some((hi, step)) => (hi, Some(step)),
            None => (rest, None),
        };
        let num = |what: &str, s: &str| -> Result<f64> {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    Error::msg(format!(
                        "`{text}`: the {what} `{}` is not a number",
                        s.trim()
                    ))
                })
        };
        let (lo, hi) = (num("low end", lo)?, num("high end", hi)?);
        let step = match step {
            Some(s) => num("step", s)?,
            None => 1.0,
        };
        if step <= 0.0 {
            return Err(Error::msg(format!(
                "`{text}`: the step must be more than 0"
            )));
        }
        if hi < lo {
            return Err(Error::msg(format!(
                "`{text}`: the range runs from low to high (LO..HI)"
            )));
        }
        let count = ((hi - lo) / step + 1e-9).floor() + 1.0;
        if count > MAX_VALUES as f64 {
            return Err(Error::msg(format!(
                "`{text}` has {count} values, more than a sweep takes ({MAX_VALUES}); use a \
                 larger step"
            )));
        }
        // lo + i·step, rounded to the steps' decimals so 0.1 steps do not show 0.30000000004.
        let digits = [lo, step].iter().map(|x| decimals(*x)).max().unwrap_or(0);
        let scale = 10f64.powi(digits as i32);
        return Ok((0..count as usize)
            .map(|i| number(((lo + i as f64 * step) * scale).round() / scale))
            .collect());
    }
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.iter().any(|s| !s.is_empty()) {
        // `3,,5` or `3,5,`: an empty value is a slip, not a value to drop without a word.
        if let Some(k) = items.iter().position(|s| s.is_empty()) {
            return Err(Error::msg(format!(
                "`{text}`: value {} of the list is empty; give V1,V2,... with a value between \
                 each two commas",
                k + 1
            )));
        }
    }
    let values: Vec<Value> = items
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => match s.parse::<f64>() {
                Ok(x) if x.is_finite() => number(x),
                _ => Value::String(s.to_string()),
            },
        })
        .collect();
    if values.is_empty() {
        return Err(Error::msg(format!(
            "`{text}`: give LO..HI[:STEP] or a list of values V1,V2,..."
        )));
    }
    if values.len() > MAX_VALUES {
        return Err(Error::msg(format!(
            "{} values is more than a sweep takes ({MAX_VALUES})",
            values.len()
        )));
    }
    Ok(values)
}

/// Decimal places a number is written with (at most 9).
fn decimals(x: f64) -> usize {
    (0..9)
        .find(|&d| {
            let s = x * 10f64.powi(d as i32);
            (s - s.round()).abs() < 1e-9 * s.abs().max(1.0)
        })
        .unwrap_or(9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn startrek() -> Ruleset {
        crate::rules::load::load("startrek").unwrap()
    }

    #[test]
    fn ranges_include_both_ends_and_keep_whole_numbers_whole() {
        assert_eq!(
            values_from_range("5..9:2").unwrap(),
            [json!(5), json!(7), json!(9)]
        );
        assert_eq!(
            values_from_range("0..0.3:0.1").unwrap(),
            [json!(0), json!(0.1), json!(0.2), json!(0.3)]
        );
        assert_eq!(
            values_from_range("3,true,3D6/3D3").unwrap(),
            [json!(3), json!(true), json!("3D6/3D3")]
        );
        for (bad, says) in [
            ("9..5", "from low to high"),
            ("1..5:0", "more than 0"),
            ("1..5:-1", "more than 0"),
            ("a..5", "low end `a` is not a number"),
            ("0..1e9", "more than a sweep takes"),
            ("1..inf", "not a number"),
            (" , ", "give LO..HI"),
            ("3,,5", "value 2 of the list is empty"),
            ("3,5,", "value 3 of the list is empty"),
        ] {
            let e = values_from_range(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_parameter_resolves_aliases_and_refuses_what_is_not_there() {
        let r = startrek();
        let p = Parameter::new(&r, "/ships/crucero de batalla klingon/shields").unwrap();
        assert_eq!(p.path, ["ships", "Klingon battle cruiser", "shields"]);
        assert_eq!(p.current, Some(json!(9)));
        assert!(p.is_integer());
        let changed = p.apply(&r, &json!(4)).unwrap();
        assert_eq!(changed.ships["Klingon battle cruiser"].shields, Some(4));
        assert_eq!(r.ships["Klingon battle cruiser"].shields, Some(9));

        let e = Parameter::new(&r, "ships.Nonesuch.shields")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("has no `ships.Nonesuch` (`ships` is there)"),
            "{e}"
        );
        let e = Parameter::new(&r, "ships.UFP heavy cruiser").unwrap_err();
        assert!(e.to_string().contains("a whole section"), "{e}");
        let e = p.apply(&r, &json!("lots")).unwrap_err().to_string();
        assert!(
            e.contains("cannot set `ships.Klingon battle cruiser.shields` to \"lots\""),
            "{e}"
        );
        let typo = Parameter::new(&r, "ships.UFP heavy cruiser.sheilds").unwrap();
        assert!(
            typo.apply(&r, &json!(3)).is_err(),
            "an unknown field is refused"
        );
    }
}
