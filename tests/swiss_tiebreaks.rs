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
        ("performance_rating", "C.07 10.2"),
        ("perfect_performance", "C.07 10.3"),
        ("sonneborn_berger", "16.3"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim() == name)
            .unwrap_or_else(|| panic!("{name} in {help}"));
        let at = help.find(line).unwrap();
        // The meaning follows on the next lines, wrapped.
        let entry: String = help[at..].lines().take(7).collect::<Vec<_>>().join(" ");
        assert!(entry.contains(article), "{name}: {entry}");
    }
}

/// Six players, three rounds, every kind of unplayed round: a forfeit (Bob over Eve, round 2),
/// a full-point bye asked for (Cid, round 2), pairing-allocated byes (Dan round 2, Fay round
/// 3), a withdrawal (Eve from round 3), and an unrated player (Dan).
///   Ann 2000: beat Bob, Fay, Cid                 = 3.0
///   Bob 1900: lost to Ann, won by forfeit, lost to Dan = 1.0
///   Cid 1800: drew Eve, full-point bye, lost to Ann = 1.5
///   Eve 1700: drew Cid, lost by forfeit, withdrawn  = 0.5
///   Fay 1600: beat Dan, lost to Ann, bye            = 2.0
///   Dan    -: lost to Fay, bye, beat Bob            = 2.0
const UNPLAYED: &str = "\
rules: tb.rules
rounds: 3
players:
- {name: Ann, rating: 2000}
- {name: Bob, rating: 1900}
- {name: Cid, rating: 1800, byes: [{round: 2, kind: full}]}
- {name: Eve, rating: 1700, withdrawn_from: 3}
- {name: Fay, rating: 1600}
- {name: Dan}
paired:
- boards:
  - {white: 1, black: 2, result: 1-0}
  - {white: 3, black: 4, result: 1/2-1/2}
  - {white: 6, black: 5, result: 0-1}
- boards:
  - {white: 5, black: 1, result: 0-1}
  - {white: 2, black: 4, result: +-}
  bye: 6
- boards:
  - {white: 1, black: 3, result: 1-0}
  - {white: 2, black: 6, result: 0-1}
  bye: 5
";

const PERFORMANCE_RULES: &str = "\
extends = swiss
name = tb
version = \"1.0.0\"
swiss {
  tiebreakers = [buchholz, buchholz_cut1, sonneborn_berger, average_rating_of_opponents,
                 performance_rating, perfect_performance]
}
";

fn table_of(tournament: &str, rules: &str) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tb.rules"), rules).unwrap();
    std::fs::write(dir.path().join("t.yaml"), tournament).unwrap();
    let out = run_in(dir.path(), &["swiss", "table", "t.yaml", "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    v["standings"].as_array().unwrap().clone()
}

#[test]
fn sonneborn_berger_counts_a_withdrawn_opponent_as_the_buchholz_does() {
    let rows = table_of(UNPLAYED, PERFORMANCE_RULES);
    let tb = |name: &str, key: &str| {
        rows.iter().find(|r| r["name"] == name).unwrap()["tiebreaks"][key]
            .as_f64()
            .unwrap()
    };
    // Eve's score for her opponents: the round after the last she took part in (round 3,
    // withdrawn) is a draw; her forfeit loss stays a loss (she was paired): 0.5 + 0 + 0.5.
    //   Cid: Eve 1.0 + his own 1.5 for the full-point bye + Ann 3.0 = 5.5
    //   Bob: Ann 3.0 + his own 1.0 for the forfeit + Dan 2.0         = 6.0
    //   Eve: Cid 1.5 + her own 0.5 twice                              = 2.5
    for (name, bh) in [
        ("Ann", 4.5),
        ("Bob", 6.0),
        ("Cid", 5.5),
        ("Eve", 2.5),
        ("Fay", 7.0),
    ] {
        assert_eq!(tb(name, "buchholz"), bh, "{name}");
    }
    // Cut-1: a bye worth a win was not a round Cid chose to miss: his lowest term goes (Eve's
    // 1.0), not the bye's 1.5. Eve's rounds she missed go before anything else.
    assert_eq!(tb("Cid", "buchholz_cut1"), 4.5);
    assert_eq!(tb("Eve", "buchholz_cut1"), 2.0);
    // Sonneborn-Berger: each opponent's score as the Buchholz counts it, times the result.
    //   Cid: Eve 1.0 x 1/2 + his own 1.5 x 1 (the bye earned a win) + Ann 3.0 x 0 = 2.0
    //   Bob: his own 1.0 for the forfeit win                                      = 1.0
    //   Eve: Cid 1.5 x 1/2, nothing for the forfeit and the absence               = 0.75
    //   Fay: Dan 2.0 + her own 2.0 for the bye                                    = 4.0
    for (name, sb) in [
        ("Ann", 4.5),
        ("Bob", 1.0),
        ("Cid", 2.0),
        ("Eve", 0.75),
        ("Fay", 4.0),
        ("Dan", 3.0),
    ] {
        assert_eq!(tb(name, "sonneborn_berger"), sb, "{name}");
    }
}

#[test]
fn performance_ratings_by_fides_tables() {
    let rows = table_of(UNPLAYED, PERFORMANCE_RULES);
    let tb = |name: &str, key: &str| {
        rows.iter().find(|r| r["name"] == name).unwrap()["tiebreaks"][key]
            .as_f64()
            .unwrap()
    };
    // Only games over the board against rated opponents count: not Bob's forfeit, not the
    // byes, not the games against unrated Dan.
    // ARO, half up: Ann (1900 + 1600 + 1800) / 3 = 1766.67 -> 1767.
    // TPR = ARO + dp(share): Ann 3/3 -> +800; Cid 0.5/2 = .25 -> -193; Dan 1/2 -> 0;
    // Bob 0/1 (Ann) -> -800.
    for (name, aro, tpr) in [
        ("Ann", 1767.0, 2567.0),
        ("Bob", 2000.0, 1200.0),
        ("Cid", 1850.0, 1657.0),
        ("Eve", 1800.0, 1800.0),
        ("Fay", 2000.0, 1200.0),
        ("Dan", 1750.0, 1750.0),
    ] {
        assert_eq!(tb(name, "average_rating_of_opponents"), aro, "{name}");
        assert_eq!(tb(name, "performance_rating"), tpr, "{name}");
    }
    // PTP: a perfect score is the highest opponent + 800 (Ann: 1900 + 800), a zero score
    // the lowest - 800 (Bob, Fay: 2000 - 800). Otherwise the lowest rating whose expected
    // score reaches the points:
    //   Cid 0.5 against 1700 and 2000: at 1626, D = -74 -> .40 and D = -374 -> .10 = .50;
    //       at 1625, D = -375 -> .09, .49.
    //   Dan 1.0 against 1600 and 1900: at 1747, D = 147 -> .70 and D = -153 -> .30;
    //       at 1746, D = -154 -> .29, .99.
    //   Eve 0.5 against 1800: at 1797, D = -3 -> .50; at 1796, .49.
    for (name, ptp) in [
        ("Ann", 2700.0),
        ("Bob", 1200.0),
        ("Fay", 1200.0),
        ("Cid", 1626.0),
        ("Dan", 1747.0),
        ("Eve", 1797.0),
    ] {
        assert_eq!(tb(name, "perfect_performance"), ptp, "{name}");
    }
}

#[test]
fn performance_tie_breaks_need_fides_tables_in_the_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("r.rules");
    std::fs::write(
        &rules,
        "name = r\nversion = \"1.0.0\"\nswiss {\n  tiebreakers = [buchholz, performance_rating]\n}\n",
    )
    .unwrap();
    let e = fails(&["rules", "check", rules.to_str().unwrap()]);
    assert!(e.contains("r.rules:4:"), "{e}");
    assert!(e.contains("give them in `swiss.performance`"), "{e}");
    // A table cut short is refused at its key.
    std::fs::write(
        &rules,
        "extends = swiss\nname = r\nversion = \"1.0.0\"\nswiss {\n  performance {\n    \
         rating_difference = [-800, 0, 800]\n  }\n}\n",
    )
    .unwrap();
    let e = fails(&["rules", "check", rules.to_str().unwrap()]);
    assert!(e.contains("give 101 rating differences"), "{e}");
}

#[test]
fn rules_explain_gives_each_listed_tie_break_its_c07_article() {
    let out = ok(&["rules", "explain", "swiss.tiebreakers", "--rules", "swiss"]);
    // The built-in list, each with its article; FIDE's WIN closes it.
    for line in [
        "  buchholz_cut1: Buchholz without one term",
        "  sonneborn_berger: opponents' scores, counted as for the Buchholz",
        "(C.07 7.1, WIN)",
    ] {
        assert!(out.contains(line), "{line} in {out}");
    }
    assert!(!out.contains("  wins:"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("r.rules");
    std::fs::write(&rules, PERFORMANCE_RULES).unwrap();
    let one = ok(&[
        "rules",
        "explain",
        "swiss.tiebreakers.4",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert!(
        one.contains("  performance_rating: tournament performance rating"),
        "{one}"
    );
    assert!(one.contains("(C.07 10.2, TPR; FIDE B.02 8.1.1)"), "{one}");
    // The table itself is data in the built-in ruleset, explained with its source.
    let table = ok(&[
        "rules",
        "explain",
        "swiss.performance.rating_difference",
        "--rules",
        "swiss",
    ]);
    assert!(table.contains("B.02 8.1.1"), "{table}");
    assert!(table.contains("[-800,-677,-589,"), "{table}");
}
