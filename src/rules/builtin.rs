//! The built-in rulesets: the files in rulesets/, embedded in the binary.

/// (name, file name, text) of every built-in ruleset.
pub(crate) const BUILTINS: &[(&str, &str, &str)] = &[
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
pub(crate) const DEFAULT_COMBAT: &str = "startrek";
pub(crate) const DEFAULT_LEAGUE: &str = "bloodbowl";
pub(crate) const DEFAULT_RATING: &str = "elo";
pub(crate) const DEFAULT_SWISS: &str = "swiss";

/// A built-in ruleset by name (case and accents ignored).
pub(crate) fn find(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    BUILTINS
        .iter()
        .copied()
        .find(|(n, _, _)| crate::names::same(n, name))
}

pub fn names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::identity::hash;

    /// Each built-in's (name, version, sha256). A built-in whose content changes must change
    /// its version too: a club's `extends startrek version "^1.0"` is a promise about content.
    const IDENTITIES: &[(&str, &str, &str)] = &[
        (
            "cep",
            "1.0.0",
            "0b25ae7c56c5c2a57ccca21c4f538c23aa60abbfcf45ffa1077b5a73d3bca33b",
        ),
        (
            "figf",
            "1.0.0",
            "f48714ded65d900a0990f0907a4cac46b7b8e0bb84d8cb21ce19047209fd7591",
        ),
        (
            "advciv",
            "1.0.0",
            "eb4ca6d7d0fc51f34aba8217c807dc1bd83c84878e0ebd3220edff5eea93d536",
        ),
        (
            "elo",
            "1.0.0",
            "9b01026c7ffd124344a5b7eb334924882867845e00b2514eca74f6001a3ad401",
        ),
        (
            "bloodbowl",
            "1.0.0",
            "644c3d00d0482cc76cba2619a394130d190f7939ac822496fce8a3673f2682f0",
        ),
        (
            "swiss",
            "1.2.0",
            "7bac99d084d0c7879deba810203eb41f6094123dc6eced80330376fc25d62a9f",
        ),
        (
            "bloodbowl-swiss",
            "1.1.0",
            "514849a20e86b3ffb2092dc4c52b5caf45bce0964f344de4dde259736f40a755",
        ),
        (
            "startrek",
            "2.0.0",
            "4fcf6f8ba0327017338a25d1b6cf494ac2a8778be7f1a04f836cf45afc03ffd1",
        ),
    ];

    #[test]
    fn every_builtin_is_named_as_it_is_listed() {
        for (listed, file, _) in BUILTINS {
            let r = crate::rules::load::load(listed).unwrap();
            assert_eq!(
                &r.name, listed,
                "rulesets/{file} says `name = {}` but is listed as `{listed}`",
                r.name
            );
        }
    }

    #[test]
    fn a_builtins_content_changes_only_with_its_version() {
        assert_eq!(IDENTITIES.len(), BUILTINS.len(), "one line per built-in");
        for (name, version, sha256) in IDENTITIES {
            let r = crate::rules::load::load(name).unwrap();
            let now = r.version.clone().unwrap_or_default();
            let got = hash(&r);
            assert!(
                got == *sha256 || now != *version,
                "built-in `{name}` changed (sha256 {got}) but is still version {version}: bump \
                 `version` in its file in rulesets/, then put the new (version, sha256) here"
            );
            assert!(
                got == *sha256 && now == *version,
                "built-in `{name}` is now version {now} with sha256 {got}: put that here in \
                 place of ({version}, {sha256})"
            );
        }
    }
}
