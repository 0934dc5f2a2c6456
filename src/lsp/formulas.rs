//! Completion inside a formula value (`points = result * vio`, `k: if games < 10 ...`): the
//! functions the formula language knows, with their signatures, the variables this key's
//! formula may read, and the word operators. The lists are the engine's own (`FUNCTIONS`,
//! `OPERATORS`, `formula_keys`), so completion offers exactly what loading accepts.
use super::analysis::{Item, ItemKind};
use crate::rules::formula::operators::FUNCTIONS;
use crate::rules::formula::operators::OPERATORS;
use crate::rules::{formula_keys, schema};

/// What may be written in the formula at `path` (its key's path, outermost first); `None`
/// if that key holds no formula.
pub(crate) fn items(path: &[&str]) -> Option<Vec<Item>> {
    let variables = formula_keys::variables_at(path)?;
    let key = path.join(".");
    let mut items: Vec<Item> = variables
        .into_iter()
        .map(|name| {
            let meaning = formula_keys::variable_help(name).or_else(|| ship_stat(name));
            let doc = match meaning {
                Some(m) => format!("{m}\n\nA variable `{key}` may read."),
                None => format!("A variable `{key}` may read."),
            };
            Item {
                detail: Some(format!("variable of {key}")),
                ..Item::new(ItemKind::Variable, name.to_string(), Some(doc))
            }
        })
        .collect();
    items.extend(FUNCTIONS.iter().map(|f| {
        let doc = format!(
            "`{}`: {} ({}).\n\nSee `arbiter help formulas`.",
            f.signature,
            f.help,
            f.arity_text()
        );
        Item {
            detail: Some(f.signature.to_string()),
            ..Item::new(ItemKind::Function, f.name.to_string(), Some(doc))
        }
    }));
    items.extend(
        OPERATORS
            .iter()
            .filter(|o| o.symbol.chars().all(|c| c.is_ascii_alphabetic()))
            .map(|o| Item::new(ItemKind::Operator, o.symbol.to_string(), None)),
    );
    Some(items)
}

/// What a ship stat means, as the ship's own field of that name says (`phaser_dice` counts
/// the dice of `phasers`).
fn ship_stat(name: &str) -> Option<String> {
    let field = match name {
        "phaser_dice" => "phasers",
        other => other,
    };
    let about = schema::describe(&["ships".into(), "_".into(), field.into()])?;
    Some(match name {
        "phaser_dice" => format!("how many dice the ship's phasers roll ({about})"),
        _ => about,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(path: &[&str], kind: ItemKind) -> Vec<String> {
        items(path)
            .unwrap()
            .into_iter()
            .filter(|i| i.kind == kind)
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn a_formula_completes_its_keys_variables_and_every_function() {
        assert_eq!(
            labels(&["scoring", "elo", "initial"], ItemKind::Variable),
            ["mean_rating", "players"]
        );
        let functions = labels(&["scoring", "elo", "k"], ItemKind::Function);
        assert_eq!(functions.len(), FUNCTIONS.len());
        assert!(functions.contains(&"clamp".to_string()));
        assert_eq!(
            labels(&["scoring", "elo", "k"], ItemKind::Operator),
            ["or", "and", "not"]
        );
        let clamp = items(&["combat", "battery"])
            .unwrap()
            .into_iter()
            .find(|i| i.label == "clamp")
            .unwrap();
        assert_eq!(clamp.detail.as_deref(), Some("clamp(x, lo, hi)"));
        assert!(clamp.documentation.unwrap().contains("3 arguments"));
        assert!(items(&["combat", "sensor_range"]).is_none());
    }

    #[test]
    fn each_variable_says_what_it_is() {
        let all = items(&["ships", "UFP frigate", "battery"]).unwrap();
        let doc = |name: &str| {
            all.iter()
                .find(|i| i.label == name)
                .and_then(|i| i.documentation.clone())
                .unwrap()
        };
        assert!(
            doc("generator").contains("(battery only)"),
            "{}",
            doc("generator")
        );
        assert!(
            doc("phaser_dice").contains("dice"),
            "{}",
            doc("phaser_dice")
        );
        assert!(doc("shields").contains("ships.UFP frigate.battery"));
    }
}
