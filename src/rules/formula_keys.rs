//! Which ruleset keys hold formulas and which variables each may read, gathered from the
//! lists the checks use (so completion offers exactly what loading accepts), and what each
//! variable means, read from the formulas help topic (`arbiter help formulas`).
use super::scoring::{CepVariables, DECAY_VARIABLES, INITIAL_VARIABLES, K_VARIABLES};
use super::ship::ship_formula_variables;
use crate::rules::formula::Variables;

/// The help topic whose "Variables" section documents each formula key's variables.
const HELP: &str = include_str!("../../doc/help/formulas.md");

/// The variables the formula at `path` (its keys, a ship's name as any segment) may read;
/// `None` if the key holds no formula.
pub(crate) fn variables_at(path: &[&str]) -> Option<Vec<&'static str>> {
    Some(match path {
        ["scoring", "cep", "points"] => CepVariables::NAMES.to_vec(),
        ["scoring", "elo", "k"] => K_VARIABLES.to_vec(),
        ["scoring", "elo", "decay"] => DECAY_VARIABLES.to_vec(),
        ["scoring", "elo", "initial"] => INITIAL_VARIABLES.to_vec(),
        ["combat", field @ ("generator" | "battery")]
        | ["ships", _, field @ ("generator" | "battery")] => ship_formula_variables(field),
        _ => return None,
    })
}

/// What variable `name` means, as the help topic's "Variables" section says (its line and the
/// lines continuing it); `None` if no line there documents it alone.
pub(crate) fn variable_help(name: &str) -> Option<String> {
    let section = HELP.split("\n## Variables").nth(1)?;
    let section = section.split("\n## ").next()?;
    let lines: Vec<&str> = section.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let start = lines.iter().position(|l| {
        let Some(rest) = l.strip_prefix("    ").and_then(|r| r.strip_prefix(name)) else {
            return false;
        };
        // A documented name is followed by a gap and words, not by more names (a list).
        rest.starts_with("  ") && !list_of_names(rest)
    })?;
    let first = lines[start];
    let text_col = first.len() - first[4 + name.len()..].trim_start().len();
    let mut text = first[text_col..].trim().to_string();
    for l in &lines[start + 1..] {
        if l.trim().is_empty() || indent(l) < text_col {
            break;
        }
        text.push(' ');
        text.push_str(l.trim());
    }
    Some(text)
}

/// Whether `rest` is only more variable names (the help's one-line lists of ship stats).
fn list_of_names(rest: &str) -> bool {
    let known = |w: &str| {
        [
            CepVariables::NAMES,
            K_VARIABLES,
            DECAY_VARIABLES,
            INITIAL_VARIABLES,
            super::ship::SHIP_FORMULA_VARIABLES,
        ]
        .iter()
        .any(|names| names.contains(&w))
    };
    rest.split_whitespace().all(known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_formula_key_reads_what_its_check_allows() {
        assert_eq!(
            variables_at(&["scoring", "elo", "initial"]),
            Some(vec!["mean_rating", "players"])
        );
        let generator = variables_at(&["ships", "UFP frigate", "generator"]).unwrap();
        assert!(generator.contains(&"shields") && !generator.contains(&"generator"));
        assert!(variables_at(&["combat", "battery"])
            .unwrap()
            .contains(&"generator"));
        assert_eq!(variables_at(&["combat", "sensor_range"]), None);
        assert_eq!(variables_at(&["ships", "a", "crew", "generator"]), None);
        assert_eq!(variables_at(&["combat", "energy", "battery"]), None);
    }

    #[test]
    fn variables_are_documented_from_the_help_topic() {
        assert_eq!(
            variable_help("idle_days").as_deref(),
            Some("days since the player's last game")
        );
        assert_eq!(
            variable_help("field").as_deref(),
            Some(
                "(k only) players in the game's rating period, or in the game itself \
                 outside a period"
            )
        );
        assert!(variable_help("result").unwrap().starts_with("Res = In"));
        // Listed on one line with others, not documented alone.
        assert_eq!(variable_help("shields"), None);
    }
}
