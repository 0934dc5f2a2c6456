//! A late entry takes the number its rating gives (numbers are starting ranks), and the
//! rounds already paired follow the players who move down.
use crate::common::*;

#[test]
fn a_late_entry_is_numbered_by_rating_and_the_paired_rounds_follow() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("players.csv"),
        "name,rating\nAnn,2100\nBob,2000\nCy,1900\nDee,1800\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = run_in(dir.path(), args, None);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    run(&[
        "swiss",
        "new",
        "t.yaml",
        "--players",
        "players.csv",
        "--rounds",
        "3",
    ]);
    // Round 1: 1 Ann - 3 Cy, 4 Dee - 2 Bob.
    run(&["swiss", "pair", "t.yaml"]);
    run(&["swiss", "record", "t.yaml", "1", "Ann", "Cy", "1-0"]);
    run(&["swiss", "record", "t.yaml", "1", "Dee", "Bob", "0-1"]);
    let said = run(&["swiss", "add", "t.yaml", "Eve", "--rating", "1950"]);
    assert!(said.contains("Eve entered as player 3"), "{said}");
    let text = std::fs::read_to_string(dir.path().join("t.yaml")).unwrap();
    let t: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let names: Vec<&str> = t["players"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bob", "Eve", "Cy", "Dee"]);
    // Cy is 4 and Dee 5 now, in round 1 as well.
    let boards = &t["paired"][0]["boards"];
    assert_eq!(
        (boards[0]["white"].as_u64(), boards[0]["black"].as_u64()),
        (Some(1), Some(4))
    );
    assert_eq!(
        (boards[1]["white"].as_u64(), boards[1]["black"].as_u64()),
        (Some(5), Some(2))
    );
    // The table still gives each player their own result.
    let table = json(&[
        "swiss",
        "table",
        dir.path().join("t.yaml").to_str().unwrap(),
    ]);
    let points = |name: &str| {
        table["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["points"].as_f64().unwrap())
            .unwrap()
    };
    assert_eq!(
        (
            points("Ann"),
            points("Bob"),
            points("Cy"),
            points("Dee"),
            points("Eve")
        ),
        (1.0, 1.0, 0.0, 0.0, 0.0)
    );
}
