//! Script values shown for people: maps and lists of maps as tables, numbers tidy.
use super::api::dice::Roller;
use super::handle::{Node, RulesHandle};
use crate::output::{trim_number, Align, Layout, Table};
use rhai::{Array, Dynamic, Map, INT};

/// The text the REPL prints for a result (empty for `()`), laid out for `layout`.
pub(crate) fn render(value: &Dynamic, layout: Layout) -> String {
    if value.is_unit() {
        return String::new();
    }
    if let Some(r) = value.clone().try_cast::<RulesHandle>() {
        return render_ruleset(&r, layout);
    }
    if let Some(n) = value.clone().try_cast::<Node>() {
        return match n.value() {
            Ok(v) => format!(
                "{}\n{}",
                n.shown(),
                render(&super::api::convert::json_to_dynamic(&v), layout)
            ),
            Err(e) => format!("{e}\n"),
        };
    }
    if let Some(t) = value
        .clone()
        .try_cast::<super::api::swiss::SwissTournament>()
    {
        return format!("{}\n", t.summary());
    }
    if value.is::<Roller>() {
        return "a seeded dice roller\n".to_string();
    }
    if let Some(map) = value.read_lock::<Map>() {
        return render_map(&map, layout);
    }
    if let Some(items) = value.read_lock::<Array>() {
        if !items.is_empty() && items.iter().all(|v| v.is_map()) {
            return render_rows(&items, layout);
        }
    }
    format!("{}\n", cell(value))
}

/// A value on one line (a table cell).
pub(crate) fn cell(value: &Dynamic) -> String {
    if value.is_unit() {
        return String::new();
    }
    if let Some(x) = value.clone().try_cast::<f64>() {
        return trim_number(x, 6);
    }
    if let Some(i) = value.clone().try_cast::<INT>() {
        return i.to_string();
    }
    if value.is_string() || value.is_char() {
        return value.to_string();
    }
    if let Some(items) = value.read_lock::<Array>() {
        return format!(
            "[{}]",
            items.iter().map(cell).collect::<Vec<_>>().join(", ")
        );
    }
    if let Some(map) = value.read_lock::<Map>() {
        let parts: Vec<String> = ordered_keys(&map)
            .iter()
            .map(|k| format!("{k}: {}", cell(&map[k.as_str()])))
            .collect();
        return format!("#{{{}}}", parts.join(", "));
    }
    value.to_string()
}

/// Keys in a readable order: numerically when they are all numbers ("2", "3", ..., "12").
fn ordered_keys(map: &Map) -> Vec<String> {
    let mut keys: Vec<String> = map.keys().map(|k| k.to_string()).collect();
    if keys.iter().all(|k| k.parse::<f64>().is_ok()) {
        keys.sort_by(|a, b| {
            a.parse::<f64>()
                .unwrap_or(0.0)
                .total_cmp(&b.parse::<f64>().unwrap_or(0.0))
        });
    }
    keys
}

fn is_nested(v: &Dynamic) -> bool {
    v.is_map()
        || v.read_lock::<Array>()
            .is_some_and(|a| a.iter().any(|x| x.is_map() || x.is_array()))
}

/// Scalars as a key/value table, then each nested map or list under its key.
fn render_map(map: &Map, layout: Layout) -> String {
    let keys = ordered_keys(map);
    let mut t = Table::new(&[("key", Align::Left), ("value", Align::Left)]);
    for k in keys.iter().filter(|k| !is_nested(&map[k.as_str()])) {
        t.row([k.clone(), cell(&map[k.as_str()])]);
    }
    let mut out = if t.is_empty() {
        String::new()
    } else {
        t.render(layout)
    };
    for k in keys.iter().filter(|k| is_nested(&map[k.as_str()])) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{k}:\n"));
        out.push_str(&indent(&render(&map[k.as_str()], layout)));
    }
    if out.is_empty() {
        out.push_str("#{}\n");
    }
    out
}

/// A list of maps as one table, a column per key (in order of first appearance).
fn render_rows(items: &Array, layout: Layout) -> String {
    let mut columns: Vec<String> = Vec::new();
    let mut numeric: Vec<bool> = Vec::new();
    for item in items {
        if let Some(m) = item.read_lock::<Map>() {
            for (k, v) in m.iter() {
                let k = k.to_string();
                match columns.iter().position(|c| *c == k) {
                    Some(i) => numeric[i] &= is_number(v),
                    None => {
                        columns.push(k);
                        numeric.push(is_number(v));
                    }
                }
            }
        }
    }
    // A name-like column first.
    if let Some(i) = columns.iter().position(|c| c == "name" || c == "team") {
        let c = columns.remove(i);
        let n = numeric.remove(i);
        columns.insert(0, c);
        numeric.insert(0, n);
    }
    let spec: Vec<(&str, Align)> = columns
        .iter()
        .zip(&numeric)
        .map(|(c, n)| (c.as_str(), if *n { Align::Right } else { Align::Left }))
        .collect();
    let mut t = Table::new(&spec);
    for item in items {
        if let Some(m) = item.read_lock::<Map>() {
            t.row(
                columns
                    .iter()
                    .map(|c| m.get(c.as_str()).map(cell).unwrap_or_default()),
            );
        }
    }
    t.render(layout)
}

fn is_number(v: &Dynamic) -> bool {
    v.is::<INT>() || v.is::<f64>() || v.is_unit()
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("  {l}\n")
            }
        })
        .collect()
}

/// A ruleset: its name, then its ships as a table.
fn render_ruleset(r: &RulesHandle, layout: Layout) -> String {
    let tree = r.tree();
    let mut out = format!("ruleset `{}`", r.name());
    if let Some(d) = tree.get("description").and_then(|d| d.as_str()) {
        out.push_str(&format!(": {d}"));
    }
    out.push('\n');
    let ships: Array = tree
        .get("ships")
        .and_then(|s| s.as_object())
        .map(|ships| {
            ships
                .iter()
                .map(|(name, ship)| {
                    let mut m = Map::new();
                    m.insert("name".into(), Dynamic::from(name.clone()));
                    if let Some(fields) = ship.as_object() {
                        for (k, v) in fields.iter().filter(|(k, _)| *k != "aliases") {
                            m.insert(k.as_str().into(), super::api::convert::json_to_dynamic(v));
                        }
                    }
                    Dynamic::from_map(m)
                })
                .collect()
        })
        .unwrap_or_default();
    if !ships.is_empty() {
        out.push('\n');
        out.push_str(&render_rows(&ships, layout));
    }
    let sections: Vec<&str> = ["scoring", "league", "combat", "script"]
        .into_iter()
        .filter(|s| tree.get(*s).is_some())
        .collect();
    if !sections.is_empty() {
        out.push_str(&format!(
            "\nsections: {} (r.{} ... to read or change them)\n",
            sections.join(", "),
            sections[0]
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_map_of_scalars_is_a_key_value_table_in_numeric_order() {
        let v =
            super::super::api::convert::json_to_dynamic(&json!({"12": 0.25, "2": 0.5, "3": 0.25}));
        let text = render(&v, Layout::PLAIN);
        let rows: Vec<&str> = text
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(rows, vec!["2", "3", "12"]);
    }

    #[test]
    fn a_list_of_maps_is_one_table_with_the_name_first() {
        let v = super::super::api::convert::json_to_dynamic(
            &json!([{"points": 31, "name": "Teniente"}, {"points": 16.5, "name": "Capitán"}]),
        );
        let text = render(&v, Layout::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("name") && lines[0].trim_end().ends_with("points"),
            "{text}"
        );
        assert!(
            lines[3].starts_with("Capitán") && lines[3].ends_with("16.5"),
            "{text}"
        );
    }
}
