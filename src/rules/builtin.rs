//! The built-in rulesets: the files in rulesets/, embedded in the binary.

/// (name, file name, text) of every built-in ruleset.
pub const BUILTINS: &[(&str, &str, &str)] = &[
    ("cep", "cep.yaml", include_str!("../../rulesets/cep.yaml")),
    (
        "figf",
        "figf.rules",
        include_str!("../../rulesets/figf.rules"),
    ),
    (
        "advciv",
        "advciv.rules",
        include_str!("../../rulesets/advciv.rules"),
    ),
    ("elo", "elo.yaml", include_str!("../../rulesets/elo.yaml")),
    (
        "bloodbowl",
        "bloodbowl.rules",
        include_str!("../../rulesets/bloodbowl.rules"),
    ),
    (
        "swiss",
        "swiss.rules",
        include_str!("../../rulesets/swiss.rules"),
    ),
    (
        "bloodbowl-swiss",
        "bloodbowl-swiss.rules",
        include_str!("../../rulesets/bloodbowl-swiss.rules"),
    ),
    (
        "startrek",
        "startrek.rules",
        include_str!("../../rulesets/startrek.rules"),
    ),
];

/// The ruleset each engine uses when neither the command line, the input file nor the
/// script session names one (the CLI and the scripting layer agree on them).
pub const DEFAULT_COMBAT: &str = "startrek";
pub const DEFAULT_LEAGUE: &str = "bloodbowl";
pub const DEFAULT_RATING: &str = "elo";
pub const DEFAULT_SWISS: &str = "swiss";

/// A built-in ruleset by name (case and accents ignored).
pub fn find(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    BUILTINS
        .iter()
        .copied()
        .find(|(n, _, _)| crate::names::same(n, name))
}

pub fn names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.0).collect()
}
