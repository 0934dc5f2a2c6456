//! Game records are checked before scoring; every problem is reported at its place, exit 1.
use crate::common::*;

const GAME: &str = "rules: cep
turns: 12
sides:
  - name: Trialones
    result: win
    players:
      - name: Teniente
        rank: teniente
        ships:
          - { type: trialon, count: 3 }
  - name: Virel
    result: loss
    players:
      - name: Mayor
        rank: mayor
        ships:
          - { type: virel, entered: 3 }
";

/// A test that scores `game.yaml`: GAME with `from` replaced by `to`.
fn broken(from: &str, to: &str) -> Test {
    assert!(GAME.contains(from), "{from}");
    Test::new()
        .file("game.yaml", GAME.replacen(from, to, 1))
        .args(["score", "game.yaml"])
        .status(1)
}

/// Score a broken variant of GAME and return the error, which must name the file.
fn error_of(from: &str, to: &str) -> String {
    broken(from, to)
        .stderr_regex(r"^error: game\.yaml:\d+:\d+: ")
        .run()
        .stderr
}

#[test]
fn the_unbroken_record_scores() {
    Test::new()
        .file("game.yaml", GAME)
        .args(["score", "game.yaml"])
        .stdout_has("Teniente")
        .stderr_empty()
        .run();
}

#[test]
fn turns_must_be_positive() {
    broken("turns: 12", "turns: 0")
        .stderr_regex(r"^error: game\.yaml:2:8: .*at least 1")
        .run();
}

#[test]
fn entry_must_be_inside_the_game() {
    let e = error_of("entered: 3", "entered: 13");
    assert!(e.contains(":17:37:") && e.contains("1 to 12"), "{e}");
}

#[test]
fn leaving_must_follow_entry() {
    let e = error_of("entered: 3 }", "entered: 3, left: 2 }");
    assert!(e.contains(":17:46:") && e.contains("`left`"), "{e}");
}

#[test]
fn structure_left_within_structure() {
    let e = error_of("count: 3 }", "count: 3, structure_left: 5 }");
    assert!(
        e.contains(":10:56:") && e.contains("from 0 to the ship's structure (4)"),
        "{e}"
    );
    // virel has no structure in the ruleset: say so.
    let e = error_of("entered: 3 }", "entered: 3, structure_left: 1 }");
    assert!(e.contains("has no `structure`"), "{e}");
}

#[test]
fn exactly_one_winning_side_unless_drawn() {
    let e = error_of("result: loss", "result: win");
    assert!(
        e.contains(":12:13:") && e.contains("only one side can win"),
        "{e}"
    );
    let e = error_of("result: win", "result: loss");
    assert!(e.contains("no side won"), "{e}");
    let e = error_of("result: loss", "result: draw");
    assert!(e.contains("cannot draw when another side won"), "{e}");
}

#[test]
fn unknown_ship_types_and_ranks_are_named_with_a_suggestion() {
    let e = error_of("type: trialon", "type: trialin");
    assert!(
        e.contains(":10:21:") && e.contains("unknown ship `trialin`") && e.contains("trialón"),
        "{e}"
    );
    let e = error_of("rank: mayor", "rank: mayorr");
    assert!(
        e.contains(":15:15:")
            && e.contains("unknown rank `mayorr`")
            && e.contains("did you mean `mayor`"),
        "{e}"
    );
}

#[test]
fn player_names_are_unique() {
    let e = error_of("- name: Mayor", "- name: teniente");
    assert!(e.contains(":14:15:") && e.contains("listed twice"), "{e}");
}

#[test]
fn a_ranked_game_needs_every_rank() {
    let e = error_of("        rank: mayor\n", "");
    assert!(e.contains("has no `rank`"), "{e}");
}

#[test]
fn type_errors_and_unknown_keys_are_located() {
    let e = error_of("count: 3", "count: three");
    assert!(e.contains(":10:37:"), "{e}");
    let e = error_of("result: loss", "outcome: loss");
    assert!(e.contains(":12:5:") && e.contains("unknown field"), "{e}");
}

#[test]
fn the_wrong_kind_of_input_for_the_ruleset_is_explained() {
    Test::new()
        .file("game.yaml", GAME)
        .args(["score", "game.yaml", "--rules", "figf"])
        .status(1)
        .stderr_has("not a CEP game record")
        .run();
    let e = fails(&["score", "--rules", "cep", "A=1", "B=2"]);
    assert!(e.contains("CEP game records"), "{e}");
    let e = fails(&["score", "A=1", "B=2"]);
    assert!(e.contains("--rules"), "{e}");
    let e = fails(&["score", "--rules", "figf", "A=x", "B=2"]);
    assert!(e.contains("`A=x`"), "{e}");
}

#[test]
fn a_bad_rules_line_in_the_record_is_located() {
    let e = error_of("rules: cep", "rules: cpe");
    assert!(e.contains(":1:8:") && e.contains("unknown ruleset"), "{e}");
}
