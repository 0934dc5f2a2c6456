//! Head-to-head through the binary: the mini-table is re-applied to the teams a later
//! tie-breaker leaves level, and `rules show bloodbowl` says so.
use crate::common::*;

#[test]
fn a_three_way_cycle_then_difference_leaves_the_last_two_to_their_own_game() {
    let (_dir, season) = new_season("Orcs\nElves\nDwarfs\nSkaven\n", &[]);
    let season = season.as_str();
    // Orcs > Elves > Dwarfs > Orcs, 1-0 each; all beat Skaven: 6 points and 3 in the
    // mini-table each. Difference: Orcs +5, Elves +1, Dwarfs +1. Elves beat Dwarfs, so they
    // rank above although Dwarfs scored more (4 against 2).
    for (h, a, hs, as_) in [
        ("Orcs", "Elves", "1", "0"),
        ("Elves", "Dwarfs", "1", "0"),
        ("Dwarfs", "Orcs", "1", "0"),
        ("Orcs", "Skaven", "5", "0"),
        ("Elves", "Skaven", "1", "0"),
        ("Dwarfs", "Skaven", "3", "2"),
    ] {
        ok(&["league", "record", season, h, a, hs, as_]);
    }
    let d = json(&["league", "table", season]);
    let order: Vec<(&str, u64)> = d["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["team"].as_str().unwrap(), s["position"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        order,
        [("Orcs", 1), ("Elves", 2), ("Dwarfs", 3), ("Skaven", 4)]
    );
}

#[test]
fn rules_show_bloodbowl_explains_head_to_head() {
    let text = ok(&["rules", "show", "bloodbowl"]);
    assert!(
        text.contains("mini-table of the games among the teams level on points")
            && text.contains("again among any teams still level after a later tie-breaker"),
        "{text}"
    );
}
