//! Range checks on a ruleset's numbers, so that engine arithmetic on them cannot wrap or
//! allocate without bound, with each error at the offending number.
use crate::error::Result;
use serde_json::Value;
use {super::doc::Doc, crate::pointer::pointer_push};

/// Largest number in the combat section and in ship stats: far above any real rule (the
/// source's largest is 100), and small enough that a product of two, or one times a
/// distance or a turn count, fits the engine's 32-bit arithmetic.
pub(crate) const MAX_COMBAT_NUMBER: f64 = 10_000.0;

/// Every number at or below `pointer` (except under the keys in `except`) must be at most
/// `max` in size.
pub(crate) fn at_most(doc: &Doc, pointer: &str, max: f64, except: &[&str]) -> Result<()> {
    let Some(value) = doc.value.pointer(pointer) else {
        return Ok(());
    };
    walk(doc, value, pointer, None, max, except)
}

/// `key`: the map key the value sits under (none for list items).
fn walk(
    doc: &Doc,
    value: &Value,
    pointer: &str,
    key: Option<&str>,
    max: f64,
    except: &[&str],
) -> Result<()> {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.abs() > max => {
                let what = key
                    .map(|k| format!("`{k}` = {n}"))
                    .unwrap_or_else(|| n.to_string());
                Err(doc.error_at(pointer, format!("{what} is too large (at most {max} here)")))
            }
            _ => Ok(()),
        },
        Value::Array(items) => items.iter().enumerate().try_for_each(|(i, v)| {
            walk(
                doc,
                v,
                &pointer_push(pointer, &i.to_string()),
                None,
                max,
                except,
            )
        }),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !except.contains(&k.as_str()))
            .try_for_each(|(k, v)| walk(doc, v, &pointer_push(pointer, k), Some(k), max, except)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_number_past_the_limit_is_named_at_its_line() {
        let doc = crate::rules::lang::parse(
            "t.rules",
            "combat {\n  a = 5\n  turn_limit = 90000\n  b { c = [1, 20000] }\n}\n",
        )
        .unwrap();
        let e = at_most(&doc, "/combat", MAX_COMBAT_NUMBER, &["turn_limit"])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.rules:4:15: 20000 is too large (at most 10000 here)"),
            "{e}"
        );
        assert!(at_most(&doc, "/combat/a", 5.0, &[]).is_ok());
        let e = at_most(&doc, "/combat", 4.0, &["turn_limit"])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.rules:2:7: `a` = 5 is too large (at most 4 here)"),
            "{e}"
        );
        assert!(at_most(&doc, "/nothing", 0.0, &[]).is_ok());
    }
}
