//! Seasons through the binary: new, record (with its refusals, corrections and a crowd of
//! processes recording at once), and the table with the ruleset's points and tie-breakers.
use crate::common::*;
use std::process::Command;

const TEAMS: &str = "Orcs\nElves\nDwarfs\nSkaven\n";

fn record(season: &str, h: &str, a: &str, hs: &str, as_: &str) {
    ok(&["league", "record", season, h, a, hs, as_]);
}

/// The tie-break example: Orcs and Dwarfs level on 4 points; Orcs won their game, Dwarfs
/// have the better score difference.
fn play_example(season: &str) {
    // Rotation for 4: Elves-Dwarfs, Orcs-Skaven / Dwarfs-Orcs, Elves-Skaven / Orcs-Elves, Dwarfs-Skaven.
    record(season, "Elves", "Dwarfs", "1", "1");
    record(season, "Orcs", "Skaven", "1", "1");
    record(season, "Dwarfs", "Orcs", "0", "1");
    record(season, "Elves", "Skaven", "1", "0");
    record(season, "Orcs", "Elves", "0", "1");
    record(season, "dwarfs", "SKAVEN", "5", "0");
}

#[allow(clippy::too_many_arguments)]
fn row(team: &str, p: u32, w: u32, d: u32, l: u32, f: u32, a: u32, pts: u32) -> serde_json::Value {
    serde_json::json!({"team": team, "played": p, "won": w, "drawn": d, "lost": l, "for": f, "against": a, "points": pts})
}

fn standings(season: &str) -> Vec<serde_json::Value> {
    standings_with(season, &[])
}

fn standings_with(season: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["league", "table", season];
    args.extend_from_slice(extra);
    let d = json(&args);
    d["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut s = s.clone();
            let m = s.as_object_mut().unwrap();
            m.remove("position");
            m.remove("difference");
            s
        })
        .collect()
}

#[test]
fn head_to_head_first_as_bloodbowl_says() {
    let (_dir, season) = new_season(TEAMS, &[]);
    play_example(&season);
    assert_eq!(
        standings(&season),
        vec![
            row("Elves", 3, 2, 1, 0, 3, 1, 7),
            row("Orcs", 3, 1, 1, 1, 2, 2, 4),
            row("Dwarfs", 3, 1, 1, 1, 6, 2, 4),
            row("Skaven", 3, 0, 1, 2, 1, 7, 1),
        ]
    );
    let text = ok(&["league", "table", &season]);
    assert!(text.contains("6 of 6 matches played; for/against count touchdowns; ties broken by head_to_head, difference, scored, won"), "{text}");
}

#[test]
fn a_house_rule_changes_points_and_tie_breakers() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("house.rules");
    std::fs::write(&rules, "extends bloodbowl\nname = house\nleague {\n  points { win = 2 }\n  tiebreakers = [difference]\n}\n").unwrap();
    let (_d, season) = new_season(TEAMS, &["--rules", rules.to_str().unwrap()]);
    play_example(&season);
    // The season names a ruleset outside its folder: the command may read it only if asked.
    let err = fails(&["league", "table", &season]);
    assert!(
        err.contains("house.rules: outside what a file may name") && err.contains("--allow-read"),
        "{err}"
    );
    let allowed = dir.path().to_str().unwrap();
    assert_eq!(
        standings_with(&season, &["--allow-read", allowed]),
        vec![
            row("Elves", 3, 2, 1, 0, 3, 1, 5),
            row("Dwarfs", 3, 1, 1, 1, 6, 2, 3),
            row("Orcs", 3, 1, 1, 1, 2, 2, 3),
            row("Skaven", 3, 0, 1, 2, 1, 7, 1),
        ]
    );
}

#[test]
fn the_table_can_try_another_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("house.yaml");
    std::fs::write(
        &rules,
        "extends: bloodbowl\nname: house\nleague:\n  tiebreakers: [scored]\n",
    )
    .unwrap();
    let (_d, season) = new_season(TEAMS, &[]);
    play_example(&season);
    let d = json(&[
        "league",
        "table",
        &season,
        "--rescore",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert_eq!(d["standings"][1]["team"], "Dwarfs");
    assert_eq!(d["tiebreakers"], serde_json::json!(["scored"]));
    // Without --rescore, another ruleset than the season's is refused, saying what differs.
    let e = fails(&[
        "league",
        "table",
        &season,
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert!(
        e.contains("~ /league/tiebreakers: ") && e.contains("add --rescore"),
        "{e}"
    );
}

#[test]
fn teams_level_on_everything_share_a_position() {
    let (_dir, season) = new_season(TEAMS, &[]);
    for (h, a) in [("Elves", "Dwarfs"), ("Orcs", "Skaven")] {
        record(&season, h, a, "0", "0");
    }
    let d = json(&["league", "table", &season]);
    let positions: Vec<u64> = d["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["position"].as_u64().unwrap())
        .collect();
    assert_eq!(positions, [1, 1, 1, 1]);
    let text = ok(&["league", "table", &season]);
    assert!(text.lines().nth(3).unwrap().starts_with("="), "{text}");
}

#[test]
fn refused_records_leave_the_file_byte_for_byte() {
    let (_dir, season) = new_season(TEAMS, &[]);
    record(&season, "Elves", "Dwarfs", "2", "1");
    let before = std::fs::read(&season).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["Elvs", "Dwarfs", "1", "0"],
            "unknown team `Elvs` (did you mean `Elves`?)",
        ),
        (
            &["Dwarfs", "Elves", "1", "0"],
            "Dwarfs v Elves is not in the schedule (Elves is at home to Dwarfs in round 1",
        ),
        (
            &["Elves", "Dwarfs", "3", "3"],
            "already has a result (2–1); use --correct to replace it",
        ),
        (&["Elves", "Elves", "3", "3"], "cannot play itself"),
        (&["Orcs", "Skaven", "-1", "0"], "a score is a whole number"),
        (
            &["Orcs", "Skaven", "1", "0", "--round", "2"],
            "Orcs v Skaven is not in round 2 (it is in round 1)",
        ),
    ];
    for (args, message) in cases {
        let mut a = vec!["league", "record", season.as_str()];
        a.extend_from_slice(args);
        let e = fails(&a);
        assert!(e.contains(message), "{args:?}: {e}");
        assert_eq!(
            std::fs::read(&season).unwrap(),
            before,
            "{args:?} changed the file"
        );
    }
    let out = ok(&[
        "league",
        "record",
        &season,
        "Elves",
        "Dwarfs",
        "3",
        "3",
        "--correct",
    ]);
    assert_eq!(out, "round 1: Elves 3–3 Dwarfs (was 2–1)\n");
    let d = json(&["league", "table", &season]);
    assert_eq!(d["standings"][0]["drawn"], 1);
}

#[test]
fn new_refuses_to_overwrite_a_season() {
    let (dir, season) = new_season(TEAMS, &[]);
    record(&season, "Elves", "Dwarfs", "2", "1");
    let before = std::fs::read(&season).unwrap();
    let teams = dir.path().join("teams.txt");
    let e = fails(&["league", "new", &season, "--teams", teams.to_str().unwrap()]);
    assert!(e.contains("already exists"), "{e}");
    assert_eq!(std::fs::read(&season).unwrap(), before);
    ok(&[
        "league", "new", &season, "--teams", "6", "--force", "--legs", "2",
    ]);
    let d = json(&["league", "table", &season]);
    assert_eq!(d["standings"].as_array().unwrap().len(), 6);
    assert_eq!(d["played"], 0);
    assert_eq!(d["scheduled"], 30);
}

#[test]
fn a_second_leg_takes_the_next_unplayed_meeting() {
    let (_dir, season) = new_season(TEAMS, &["--legs", "3"]);
    // Elves host Dwarfs in legs 1 and 3 (rounds 1 and 7).
    assert_eq!(
        ok(&["league", "record", &season, "Elves", "Dwarfs", "1", "0"]),
        "round 1: Elves 1–0 Dwarfs\n"
    );
    assert_eq!(
        ok(&["league", "record", &season, "Elves", "Dwarfs", "2", "0"]),
        "round 7: Elves 2–0 Dwarfs\n"
    );
    let e = fails(&["league", "record", &season, "Elves", "Dwarfs", "2", "0"]);
    assert!(e.contains("round 1 already has a result"), "{e}");
    let e = fails(&[
        "league",
        "record",
        &season,
        "Elves",
        "Dwarfs",
        "2",
        "0",
        "--correct",
    ]);
    assert!(e.contains("say which to correct with --round"), "{e}");
    ok(&[
        "league",
        "record",
        &season,
        "Elves",
        "Dwarfs",
        "0",
        "0",
        "--correct",
        "--round",
        "7",
    ]);
}

#[test]
fn many_processes_recording_at_once_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let season = dir.path().join("big.yaml").to_str().unwrap().to_string();
    ok(&[
        "league",
        "new",
        &season,
        "--teams",
        "12",
        "--home-away",
        "source",
    ]);
    let schedule = json(&["league", "schedule", "12"]);
    let mut children = Vec::new();
    for r in schedule["rounds"].as_array().unwrap() {
        for m in r["matches"].as_array().unwrap() {
            let (h, a) = (m["home"].to_string(), m["away"].to_string());
            let child = Command::new(BIN)
                .args(["league", "record", &season, &h, &a, "2", "1"])
                .output_spawn();
            children.push(child);
        }
    }
    // And a crowd trying to record the same match: exactly one may win.
    let mut same = Vec::new();
    for _ in 0..8 {
        same.push(
            Command::new(BIN)
                .args([
                    "league", "record", &season, "2", "11", "0", "0", "--round", "1",
                ])
                .output_spawn(),
        );
    }
    // 2 v 11 in round 1 is among the 66 and races with the crowd: of those nine tries
    // exactly one lands, the others are refused; every other match lands.
    let mut landed = 0;
    for c in children.into_iter().chain(same) {
        let out = c.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            out.status.success()
                || (out.status.code() == Some(1)
                    && err.contains("2 v 11 in round 1 already has a result")),
            "{err}"
        );
        landed += usize::from(out.status.success());
    }
    assert_eq!(landed, 66);
    let d = json(&["league", "table", &season]);
    assert_eq!(d["played"], 66, "every match recorded once");
    let results = std::fs::read_to_string(&season).unwrap();
    assert_eq!(results.matches("home_score").count(), 66);
}

trait SpawnQuietly {
    fn output_spawn(&mut self) -> std::process::Child;
}

impl SpawnQuietly for Command {
    fn output_spawn(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("arbiter runs")
    }
}

#[test]
fn table_as_csv_and_html() {
    let (dir, season) = new_season(TEAMS, &[]);
    play_example(&season);
    let csv = ok(&["league", "table", &season, "--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "position,team,played,won,drawn,lost,for,against,difference,points"
    );
    assert_eq!(lines[1], "1,Elves,3,2,1,0,3,1,2,7");
    assert_eq!(lines[3], "3,Dwarfs,3,1,1,1,6,2,4,4");
    let page = dir.path().join("table.html");
    let o = run(&["league", "table", &season, "--html", page.to_str().unwrap()]);
    assert!(
        o.status.success() && stdout(&o).is_empty(),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o), format!("wrote {}\n", page.display()));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.contains("<th scope=\"row\" class=\"key-left\">Elves</th><td class=\"n\">3</td>"),
        "{html}"
    );
    assert!(
        html.contains("<tr><td>Dwarfs</td><td class=\"n\">5 – 0</td><td>Skaven</td></tr>"),
        "{html}"
    );
}

#[test]
fn names_are_escaped_in_the_page() {
    let (dir, season) = new_season("<script>alert(1)</script>\nR&D \"United\"\n", &[]);
    let season = season.as_str();
    let page = dir.path().join("p.html");
    ok(&["league", "table", season, "--html", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;") && html.contains("R&amp;D &quot;United&quot;"));
    // And the season file keeps such names exactly.
    assert_eq!(
        ok(&[
            "league",
            "record",
            season,
            "<script>alert(1)</script>",
            "r&d \"united\"",
            "1",
            "0"
        ]),
        "round 1: <script>alert(1)</script> 1–0 R&D \"United\"\n"
    );
    let d = json(&["league", "table", season]);
    assert_eq!(d["standings"][0]["team"], "<script>alert(1)</script>");
}

#[test]
fn a_broken_season_file_is_a_located_error() {
    let (_dir, season) = new_season(TEAMS, &[]);
    let text = std::fs::read_to_string(&season).unwrap();
    std::fs::write(
        &season,
        text.replacen(
            "{home: \"Elves\", away: \"Dwarfs\"}",
            "{home: \"Elves\", away: \"Goblins\"}",
            1,
        ),
    )
    .unwrap();
    let e = fails(&["league", "table", &season]);
    assert!(
        e.contains("season.yaml:") && e.contains("`Goblins` is not one of the season's teams"),
        "{e}"
    );
    std::fs::write(&season, "rules: bloodbowl\nteams: [1, 2]\nschedule: {method: rotation, legs: 1, rounds: []}\nresults:\n  - {round: 1, home: 1, away: 2, home_score: x, away_score: 0}\n").unwrap();
    let e = fails(&["league", "table", &season]);
    assert!(e.contains(":5:50:") || e.contains(":5:"), "{e}");
}

#[test]
fn a_ruleset_without_league_points_is_refused_for_the_table() {
    let (_dir, season) = new_season(TEAMS, &["--rules", "cep"]);
    let e = fails(&["league", "table", &season]);
    assert!(e.contains("ruleset `cep` has no league section"), "{e}");
}

#[test]
fn fixtures_show_home_first_with_results_and_the_page_is_titled_by_the_season() {
    let t = Test::new();
    let dir = t.dir().to_path_buf();
    let run = |args: &[&str]| run_in(&dir, args, None);
    let made = run(&[
        "league",
        "new",
        "s.yaml",
        "--teams",
        "4",
        "--name",
        "Old World Cup",
        // The source's tables, which the fixtures below spell out.
        "--home-away",
        "source",
    ]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    assert_eq!(
        run(&["league", "record", "s.yaml", "2", "3", "2", "1"])
            .status
            .code(),
        Some(0)
    );
    let f = run(&["league", "fixtures", "s.yaml", "--team", "3"]);
    assert_eq!(
        stdout(&f),
        "Round 1 (leg 1): home - away\n  2 2–1 3\nRound 2 (leg 1): home - away\n  3 - 1  \
         (to play)\nRound 3 (leg 1): home - away\n  3 - 4  (to play)\n"
    );
    let bad = run(&["league", "fixtures", "s.yaml", "--round", "4"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("round 4 is not in the season (rounds 1 to 3)"));
    assert_eq!(
        run(&["league", "table", "s.yaml", "--html", "t.html"])
            .status
            .code(),
        Some(0)
    );
    let page = std::fs::read_to_string(dir.join("t.html")).unwrap();
    assert!(
        page.contains("<title>Old World Cup — bloodbowl, 3/1/0 points</title>"),
        "{page}"
    );
}

#[test]
fn carry_over_counts_every_leg_and_a_seed_must_change_something() {
    let one = json(&["league", "schedule", "6", "--json"]);
    let two = json(&["league", "schedule", "6", "--legs", "2", "--json"]);
    // The second leg repeats the first with home and away swapped: twice the carry-overs in
    // every cell, four times the sum of squares, and the bound of twice the events.
    assert_eq!(one["carryover"]["value"], 60);
    assert_eq!(two["carryover"]["value"], 240);
    assert_eq!(two["carryover"]["lower_bound"], 120);
    let e = fails(&["league", "schedule", "8", "--seed", "5"]);
    assert!(e.contains("--seed changes nothing here"), "{e}");
    let hint = ok(&["league", "schedule", "6"]);
    assert!(
        hint.contains(
            "hint: --home-away balanced keeps these pairings and evens out home and away"
        ),
        "{hint}"
    );
    assert!(!ok(&["league", "schedule", "6", "--home-away", "balanced"]).contains("hint:"));
}
