//! C.07 (2023) tie-breaks worked by hand (issue 34): an opponent's rounds after he withdrew
//! count as draws in a Buchholz (16.3), Cut-1 and Median cut a round the player chose not to
//! play first (16.5), WIN and WON are two tie-breaks (7.1, 7.2), wins with black (7.4), Koya
//! (9.2).
use crate::common::*;

/// Four players, three rounds. Bob withdraws after round 2 (absent in round 3, a round he chose
/// not to play); Cid gets the pairing-allocated bye in round 3 (not his choice).
///   Ann: beat Bob, drew Cid, beat Dan  = 2.5
///   Bob: lost to Ann, beat Dan (black) = 1.0, absent in round 3
///   Cid: beat Dan, drew Ann, bye       = 2.5
///   Dan: lost all                      = 0
const TOURNAMENT: &str = "\
rules: tb.rules
rounds: 3
players:
- {name: Ann, rating: 2000}
- {name: Bob, rating: 1900, withdrawn_from: 3}
- {name: Cid, rating: 1800}
- {name: Dan, rating: 1700}
paired:
- boards:
  - {white: 1, black: 2, result: 1-0}
  - {white: 3, black: 4, result: 1-0}
- boards:
  - {white: 3, black: 1, result: 1/2-1/2}
  - {white: 4, black: 2, result: 0-1}
- boards:
  - {white: 1, black: 4, result: 1-0}
  bye: 3
";

const RULES: &str = "\
name = tb
version = \"1.0.0\"
swiss {
  tiebreakers = [buchholz, buchholz_cut1, buchholz_median, win, won, black_wins, koya]
}
";

#[test]
fn unplayed_rounds_cuts_and_wins_by_c07_2023() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tb.rules"), RULES).unwrap();
    let t = dir.path().join("t.yaml");
    std::fs::write(&t, TOURNAMENT).unwrap();
    // Run beside the files: a tournament's `rules:` is looked up from where the command runs.
    let out = run_in(dir.path(), &["swiss", "table", "t.yaml", "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = v["standings"].as_array().unwrap();
    let tb = |name: &str, key: &str| {
        rows.iter().find(|r| r["name"] == name).unwrap()["tiebreaks"][key]
            .as_f64()
            .unwrap()
    };
    // Buchholz, opponents' scores with Bob's absence a draw: Bob counts 1.5, not 1.0.
    //   Ann: Bob 1.5 + Cid 2.5 + Dan 0 = 4.0
    //   Bob: Ann 2.5 + Dan 0 + his own 1.0 for the round he missed = 3.5
    //   Cid: Dan 0 + Ann 2.5 + his own 2.5 for the bye = 5.0
    //   Dan: Cid 2.5 + Bob 1.5 + Ann 2.5 = 6.5
    for (name, bh) in [("Ann", 4.0), ("Bob", 3.5), ("Cid", 5.0), ("Dan", 6.5)] {
        assert_eq!(tb(name, "buchholz"), bh, "{name}");
    }
    // Cut-1: Bob's missed round goes first (3.5 - 1.0), not his lowest term (Dan's 0); Cid's
    // bye was not his choice, so his lowest goes.
    for (name, c1) in [("Ann", 4.0), ("Bob", 2.5), ("Cid", 5.0), ("Dan", 5.0)] {
        assert_eq!(tb(name, "buchholz_cut1"), c1, "{name}");
    }
    // Median: the Cut-1 term and the highest.
    for (name, m) in [("Ann", 1.5), ("Bob", 0.0), ("Cid", 2.5), ("Dan", 2.5)] {
        assert_eq!(tb(name, "buchholz_median"), m, "{name}");
    }
    // WIN counts the bye worth a win; WON only games won on the board.
    for (name, win, won) in [
        ("Ann", 2.0, 2.0),
        ("Bob", 1.0, 1.0),
        ("Cid", 2.0, 1.0),
        ("Dan", 0.0, 0.0),
    ] {
        assert_eq!(tb(name, "win"), win, "{name}");
        assert_eq!(tb(name, "won"), won, "{name}");
    }
    assert_eq!(tb("Bob", "black_wins"), 1.0);
    assert_eq!(tb("Ann", "black_wins"), 0.0);
    // Koya: points against Ann and Cid (2.5 of 3, at least half).
    for (name, k) in [("Ann", 0.5), ("Bob", 0.0), ("Cid", 0.5), ("Dan", 0.0)] {
        assert_eq!(tb(name, "koya"), k, "{name}");
    }
}

#[test]
fn each_tie_break_names_its_c07_article_in_the_help() {
    let help = ok(&["swiss", "table", "--help"]);
    for (name, article) in [
        ("buchholz", "C.07 8.1"),
        ("buchholz_cut1", "14 and 16.5"),
        ("win", "C.07 7.1"),
        ("won", "C.07 7.2"),
        ("black_wins", "C.07 7.4"),
        ("koya", "C.07 9.2"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim() == name)
            .unwrap_or_else(|| panic!("{name} in {help}"));
        let at = help.find(line).unwrap();
        // The meaning follows on the next lines, wrapped.
        let entry: String = help[at..].lines().take(4).collect::<Vec<_>>().join(" ");
        assert!(entry.contains(article), "{name}: {entry}");
    }
}
