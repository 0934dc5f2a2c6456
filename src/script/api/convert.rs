//! Between engine data (serde) and script values (rhai `Dynamic`).
//!
//! Every engine result derives `Serialize` and every engine input `Deserialize`, so one pair of
//! conversions serves them all: `to_dynamic(&result)` gives a script the same keys as the JSON
//! output, and `from_dynamic::<Input>(value, "a game")` (or `input_doc` for "a map or a path")
//! turns what a script passes into typed input with a clear error.
use crate::rules::doc::Doc;
use rhai::{Array, Dynamic, EvalAltResult, Map, Position, INT};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// What API functions return on failure.
pub(crate) type ScriptResult<T> = Result<T, Box<EvalAltResult>>;

/// A script-visible error: a map a script's `catch (e)` reads as
/// `#{kind, message, file, line, column, option, text}` (`text` is what arbiter prints for it;
/// the place's keys are `()` when the error has no place, `option` when it is about none).
pub(crate) fn script_error(e: impl IntoScriptError) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from_map(e.into_map()),
        Position::NONE,
    ))
}

/// What can become a script's error map.
pub(crate) trait IntoScriptError {
    fn into_map(self) -> Map;
}

impl IntoScriptError for &crate::error::Error {
    fn into_map(self) -> Map {
        let mut m = Map::new();
        m.insert("kind".into(), self.kind_name().into());
        m.insert("message".into(), self.unplaced_message().into());
        let (file, line, column) = match self.location() {
            Some((f, l, c)) => (f.into(), (l as INT).into(), (c as INT).into()),
            None => (Dynamic::UNIT, Dynamic::UNIT, Dynamic::UNIT),
        };
        m.insert("file".into(), file);
        m.insert("line".into(), line);
        m.insert("column".into(), column);
        m.insert(
            "option".into(),
            self.option_names()
                .first()
                .map_or(Dynamic::UNIT, |o| o.clone().into()),
        );
        m.insert("text".into(), self.to_string().into());
        m
    }
}

impl IntoScriptError for crate::error::Error {
    fn into_map(self) -> Map {
        (&self).into_map()
    }
}

impl IntoScriptError for String {
    fn into_map(self) -> Map {
        crate::error::Error::msg(self).into_map()
    }
}

impl IntoScriptError for serde_json::Error {
    fn into_map(self) -> Map {
        crate::error::Error::msg(self.to_string()).into_map()
    }
}

impl IntoScriptError for &str {
    fn into_map(self) -> Map {
        crate::error::Error::msg(self).into_map()
    }
}

/// The text arbiter prints for a script's error value: an error map's `text`, anything else
/// (a script's own `throw "..."`) as it is.
pub(crate) fn error_text(value: &Dynamic) -> String {
    if let Some(map) = value.read_lock::<Map>() {
        if let (Some(kind), Some(text)) = (map.get("kind"), map.get("text")) {
            if kind.is_string() && text.is_string() {
                return text.to_string();
            }
        }
    }
    value.to_string()
}

/// Map an arbiter `Result` into a script result.
pub(crate) fn checked<T>(r: crate::error::Result<T>) -> ScriptResult<T> {
    r.map_err(script_error)
}

/// A JSON value as a script value: objects become maps, arrays arrays, integers INT.
pub fn json_to_dynamic(value: &Value) -> Dynamic {
    match value {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Dynamic::from(i as INT),
            None => Dynamic::from(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Dynamic::from(s.clone()),
        Value::Array(items) => {
            Dynamic::from_array(items.iter().map(json_to_dynamic).collect::<Array>())
        }
        Value::Object(map) => {
            let m: Map = map
                .iter()
                .map(|(k, v)| (k.as_str().into(), json_to_dynamic(v)))
                .collect();
            Dynamic::from_map(m)
        }
    }
}

/// A script value as JSON. Whole floats become integers (so `shields = 9.0` fits a whole-number
/// field; number fields accept integers anyway). Handles (a ruleset, a ship) give their data.
pub(crate) fn dynamic_to_json(value: &Dynamic) -> Result<Value, String> {
    if value.is_unit() {
        return Ok(Value::Null);
    }
    if let Some(b) = value.clone().try_cast::<bool>() {
        return Ok(Value::Bool(b));
    }
    if let Some(i) = value.clone().try_cast::<INT>() {
        return Ok(Value::from(i));
    }
    if let Some(x) = value.clone().try_cast::<f64>() {
        if !x.is_finite() {
            return Err(format!("{x} is not a number a ruleset or record can hold"));
        }
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            return Ok(Value::from(x as i64));
        }
        return Ok(Value::from(x));
    }
    if value.is_string() || value.is_char() {
        return Ok(Value::String(value.to_string()));
    }
    if value.is_array() {
        let items = value
            .read_lock::<Array>()
            .ok_or("an array that cannot be read")?;
        return items
            .iter()
            .map(dynamic_to_json)
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if value.is_map() {
        let map = value
            .read_lock::<Map>()
            .ok_or("a map that cannot be read")?;
        let mut out = serde_json::Map::new();
        for (k, v) in map.iter() {
            out.insert(k.to_string(), dynamic_to_json(v)?);
        }
        return Ok(Value::Object(out));
    }
    if let Some(h) = value
        .clone()
        .try_cast::<crate::script::handle::RulesHandle>()
    {
        return Ok(h.tree());
    }
    if let Some(n) = value.clone().try_cast::<crate::script::handle::Node>() {
        return n.value().map_err(|e| e.to_string());
    }
    Err(format!(
        "a value of type `{}` cannot be used as data",
        value.type_name()
    ))
}

/// Any serialisable engine result as a script map (same keys as its JSON).
pub(crate) fn to_dynamic<T: Serialize>(value: &T) -> ScriptResult<Dynamic> {
    let json = serde_json::to_value(value).map_err(script_error)?;
    bounded_map(&json)
}

/// Each copy of a big result takes memory: stop at the script's bound between them.
fn bounded_map(json: &Value) -> ScriptResult<Dynamic> {
    crate::stop::check().map_err(script_error)?;
    let result = json_to_dynamic(json);
    crate::stop::check().map_err(script_error)?;
    Ok(result)
}

/// An engine report made under a script's ruleset, as a map with the keys of the command's
/// JSON, the ruleset's version and hash included (of the ruleset as the script has it now).
pub(crate) fn report_under<T: Serialize>(
    rules: &crate::script::handle::RulesHandle,
    report: &T,
) -> ScriptResult<Dynamic> {
    let mut json = serde_json::to_value(report).map_err(script_error)?;
    rules
        .with(crate::rules::identity::Identity::of)
        .stamp(&mut json);
    bounded_map(&json)
}

/// A script value as typed engine input; `what` names it in errors ("a game record").
pub(crate) fn from_dynamic<T: DeserializeOwned>(value: &Dynamic, what: &str) -> ScriptResult<T> {
    let json = dynamic_to_json(value).map_err(|e| script_error(format!("{what}: {e}")))?;
    Doc::new(json)
        .deserialize::<T>()
        .map_err(|e| script_error(format!("{what}: {e}")))
}

/// Refuse a path a script may not read as `kind` (see `script::policy`): outside the
/// session's folders, or not a kind of file the call reads. Nothing is opened before this.
pub(crate) fn readable(path: &str, kind: crate::io::policy::Kind) -> ScriptResult<()> {
    crate::io::policy::check_script_path(path, kind).map_err(script_error)
}

/// "A map or a path": a string is read as a file (YAML/JSON or rules language, errors with
/// positions), anything else converted as data. Deserialise the result with `doc.deserialize()`.
pub(crate) fn input_doc(value: &Dynamic, what: &str) -> ScriptResult<Doc> {
    if value.is_string() {
        let path = value.to_string();
        readable(&path, crate::io::policy::Kind::Record)?;
        return super::super::sandbox::engine_call(|| crate::rules::load::read_doc(&path))
            .map_err(script_error);
    }
    let json = dynamic_to_json(value).map_err(|e| script_error(format!("{what}: {e}")))?;
    Ok(Doc::new(json))
}

/// Typed input from "a map or a path".
pub(crate) fn input<T: DeserializeOwned>(value: &Dynamic, what: &str) -> ScriptResult<T> {
    let doc = input_doc(value, what)?;
    doc.deserialize::<T>().map_err(|e| match e.is_located() {
        true => script_error(e),
        false => script_error(e.context(what)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_round_trips_through_script_values() {
        let v = json!({
            "name": "Ana", "points": 31, "rate": 0.75, "tags": ["a", true, null],
            "nested": {"x": -2}
        });
        let d = json_to_dynamic(&v);
        assert!(d.is_map());
        assert_eq!(dynamic_to_json(&d).unwrap(), v);
    }

    #[test]
    fn whole_floats_become_integers() {
        assert_eq!(dynamic_to_json(&Dynamic::from(9.0f64)).unwrap(), json!(9));
        assert_eq!(dynamic_to_json(&Dynamic::from(2.5f64)).unwrap(), json!(2.5));
        assert!(dynamic_to_json(&Dynamic::from(f64::NAN)).is_err());
    }

    #[test]
    fn typed_input_names_what_is_wrong() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Game {
            turns: u32,
        }
        let m = json_to_dynamic(&json!({"turns": "many"}));
        let e = from_dynamic::<Game>(&m, "a game").unwrap_err().to_string();
        assert!(e.contains("a game") && e.contains("wrong type"), "{e}");
        let g: Game = from_dynamic(&json_to_dynamic(&json!({"turns": 12})), "a game").unwrap();
        assert_eq!(g.turns, 12);
    }
}
