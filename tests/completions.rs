//! Shell completion knows arbiter's own names: built-in rulesets after `--rules`, ships where
//! a combat command takes ships, help topics after `help`. The bash script is run by bash.
use crate::common::*;

/// What the generated bash completion offers for the words typed so far (the last one is
/// the word being completed), or None when bash is not installed.
fn bash_offers(words: &[&str]) -> Option<Vec<String>> {
    let script = ok(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("arbiter.bash");
    std::fs::write(&file, script).unwrap();
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_arbiter arbiter '{}' '{}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        file.display(),
        quoted.join(" "),
        words[cword],
        prev
    );
    // The script calls arbiter itself for nothing: PATH holds only the shell's own tools.
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .ok()?;
    assert!(o.status.success(), "{}", stderr(&o));
    Some(stdout(&o).lines().map(str::to_string).collect())
}

#[test]
fn bash_completes_ruleset_names_after_rules() {
    let Some(offered) = bash_offers(&["arbiter", "combat", "sim", "--rules", ""]) else {
        return;
    };
    for name in arbiter::rules::builtin::names() {
        assert!(offered.iter().any(|o| o == name), "{name}: {offered:?}");
    }
    let offered = bash_offers(&["arbiter", "score", "game.yaml", "--rules", "st"]).unwrap();
    assert_eq!(offered, ["startrek"]);
}

#[test]
fn bash_completes_ship_names_quoted_for_combat_commands() {
    let Some(offered) = bash_offers(&["arbiter", "combat", "sim", ""]) else {
        return;
    };
    assert!(
        offered.iter().any(|o| o == r"UFP\ heavy\ cruiser"),
        "{offered:?}"
    );
    // The second ship, after the first, and options still come after a dash.
    let offered =
        bash_offers(&["arbiter", "combat", "sim", "UFP\\ heavy\\ cruiser", "Kl"]).unwrap();
    assert_eq!(
        offered,
        [r"Klingon\ battle\ cruiser", r"Klingon\ bird\ of\ prey"]
    );
    let offered = bash_offers(&["arbiter", "combat", "sim", "--bat"]).unwrap();
    assert_eq!(offered, ["--battles"]);
    // After an option that takes a value, the value, not a ship.
    let offered = bash_offers(&["arbiter", "combat", "sim", "--rules", "e"]).unwrap();
    assert_eq!(offered, ["elo"]);
    // In the balance lab too.
    let offered = bash_offers(&["arbiter", "combat", "sweep", "UFP\\ f"]).unwrap();
    assert_eq!(offered, [r"UFP\ frigate"]);
}

#[test]
fn bash_completes_help_topics() {
    let Some(offered) = bash_offers(&["arbiter", "help", ""]) else {
        return;
    };
    for topic in [
        "rules",
        "formulas",
        "dice",
        "league",
        "ratings",
        "scripting",
        "combat",
    ] {
        assert!(offered.iter().any(|o| o == topic), "{topic}: {offered:?}");
    }
}

#[test]
fn zsh_and_fish_scripts_list_the_built_in_names() {
    for shell in ["zsh", "fish"] {
        let script = ok(&["completions", shell]);
        assert!(script.contains("startrek"), "{shell}");
        assert!(script.contains("bloodbowl-swiss"), "{shell}");
        assert!(script.contains("UFP"), "{shell}: ships");
        assert!(script.contains("scripting"), "{shell}: help topics");
    }
}
