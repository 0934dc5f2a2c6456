//! The built-in tactics by name (`--tactic-a default`): the CLI and scripts add rhai files.
use super::default_tactic::DefaultTactic;
use super::tactics::{ClassicTactic, Tactic};
use crate::error::Error;
use crate::rules::tactic::TacticRules;

/// The built-in tactics' names, the default first.
pub(crate) const BUILT_IN_TACTICS: &[&str] = &["default", "classic"];

/// The built-in tactic `name` (case ignored), the default one playing with `knobs`.
pub(crate) fn built_in(name: &str, knobs: &TacticRules) -> Option<Box<dyn Tactic>> {
    if crate::names::same(name, "default") {
        Some(Box::new(DefaultTactic::new(knobs.clone())))
    } else if crate::names::same(name, "classic") {
        Some(Box::new(ClassicTactic::default()))
    } else {
        None
    }
}

/// The error for a tactic that is neither built in nor a script.
pub(crate) fn unknown(name: &str) -> Error {
    Error::msg(format!(
        "unknown tactic `{name}`{}: a tactic is {} or a .rhai file defining `fn tactic(me, \
         enemy, ctx)`",
        crate::names::suggestion(name, BUILT_IN_TACTICS.iter().copied()),
        BUILT_IN_TACTICS.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_built_in_tactics_answer_to_their_names() {
        let knobs = TacticRules::of(&crate::rules::load::load("startrek").unwrap()).unwrap();
        for name in BUILT_IN_TACTICS {
            assert_eq!(built_in(name, &knobs).unwrap().name(), *name);
        }
        assert_eq!(built_in("Classic", &knobs).unwrap().name(), "classic");
        assert!(built_in("clasic", &knobs).is_none());
        assert!(unknown("clasic")
            .to_string()
            .contains("did you mean `classic`"));
    }
}
