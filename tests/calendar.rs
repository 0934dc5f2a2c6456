//! Calendars through the binary: a league's matches and a Swiss tournament's rounds as
//! iCalendar files, with UIDs that stay put so an export again updates the same events.
use crate::common::*;

/// The events of an iCalendar text, unfolded, each as its property lines.
fn events(ics: &str) -> Vec<Vec<String>> {
    assert!(
        ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
        "{ics}"
    );
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    let unfolded = ics.replace("\r\n ", "");
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in unfolded.split("\r\n") {
        match line {
            "BEGIN:VEVENT" => current = Some(Vec::new()),
            "END:VEVENT" => out.push(current.take().unwrap()),
            l => {
                if let Some(c) = current.as_mut() {
                    c.push(l.to_string());
                }
            }
        }
    }
    out
}

fn field<'a>(event: &'a [String], name: &str) -> &'a str {
    event
        .iter()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {event:?}"))
}

#[test]
fn a_league_calendar_has_a_match_an_event_and_a_teams_feed_the_same_events() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("teams.txt"),
        "Orcs\nElves\nDwarfs\nSkaven\nGoblins\n",
    )
    .unwrap();
    let cal = |extra: &[&str]| {
        let mut args = vec!["league", "schedule", "teams.txt", "--ics", "out.ics"];
        args.extend_from_slice(extra);
        let o = run_in(dir.path(), &args, None);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("wrote out.ics"));
        std::fs::read_to_string(dir.path().join("out.ics")).unwrap()
    };
    let text = cal(&[
        "--start",
        "2026-09-07",
        "--every",
        "2w",
        "--name",
        "Badlands, 2026",
    ]);
    let all = events(&text);
    // Five teams: five rounds of two matches (one team rests each round).
    assert_eq!(all.len(), 10);
    assert!(text.contains("\r\nX-WR-CALNAME:Badlands\\, 2026\r\n"));
    // Rotation, round 1: 02-05, 03-04, rest 01; round 5 is eight weeks after round 1.
    assert_eq!(field(&all[0], "SUMMARY:"), "Elves – Goblins");
    assert_eq!(field(&all[0], "DTSTART;VALUE=DATE:"), "20260907");
    assert_eq!(field(&all[0], "DTEND;VALUE=DATE:"), "20260908");
    assert_eq!(field(&all[1], "SUMMARY:"), "Dwarfs – Skaven");
    assert_eq!(field(&all[9], "DTSTART;VALUE=DATE:"), "20261102");
    let uids: std::collections::HashSet<&str> = all.iter().map(|e| field(e, "UID:")).collect();
    assert_eq!(uids.len(), 10);

    // Another start date: the same events (UIDs), moved.
    let later = events(&cal(&["--start", "2026-10-05", "--name", "Badlands, 2026"]));
    for (a, b) in all.iter().zip(&later) {
        assert_eq!(field(a, "UID:"), field(b, "UID:"));
    }
    assert_eq!(field(&later[2], "DTSTART;VALUE=DATE:"), "20261012");

    // One team's feed: its four matches, each the full calendar's event.
    let orcs = events(&cal(&[
        "--start",
        "2026-09-07",
        "--every",
        "2w",
        "--name",
        "Badlands, 2026",
        "--team",
        "ORCS",
    ]));
    assert_eq!(orcs.len(), 4);
    for e in &orcs {
        assert!(all.contains(e), "{e:?}");
        assert!(field(e, "SUMMARY:").contains("Orcs"));
    }
}

#[test]
fn a_swiss_calendar_has_a_round_an_event_that_updates_as_rounds_are_paired() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("players.csv"),
        "name,rating\nAnn,2100\nBob,2000\nCy,1900\nDee,1800\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = run_in(dir.path(), args, None);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let export = |extra: &[&str]| {
        let mut args = vec![
            "swiss",
            "export",
            "open.yaml",
            "--ics",
            "open.ics",
            "--start",
            "2026-10-03",
        ];
        args.extend_from_slice(extra);
        run(&args);
        events(&std::fs::read_to_string(dir.path().join("open.ics")).unwrap())
    };
    run(&[
        "swiss",
        "new",
        "open.yaml",
        "--players",
        "players.csv",
        "--rounds",
        "3",
        "--name",
        "Club Open",
    ]);
    let before = export(&[]);
    assert_eq!(before.len(), 3);
    assert_eq!(field(&before[1], "DTSTART;VALUE=DATE:"), "20261010");
    assert_eq!(field(&before[0], "DESCRIPTION:"), "not paired yet");
    assert!(!before[0].iter().any(|l| l.starts_with("SEQUENCE:")));

    // Paired: 1 Ann - 3 Cy, 4 Dee - 2 Bob (top half against bottom half, colours alternating).
    run(&["swiss", "pair", "open.yaml"]);
    run(&["swiss", "record", "open.yaml", "1", "Ann", "Cy", "1-0"]);
    let after = export(&[]);
    assert_eq!(field(&after[0], "UID:"), field(&before[0], "UID:"));
    assert_eq!(
        field(&after[0], "DESCRIPTION:"),
        "Board 1: Ann – Cy 1-0\\nBoard 2: Dee – Bob"
    );
    assert_eq!(field(&after[0], "SEQUENCE:"), "2");

    let bob = export(&["--player", "bob", "--every", "1d"]);
    assert_eq!(
        field(&bob[0], "SUMMARY:"),
        "Club Open: round 1\\, board 2\\, black against Dee"
    );
    assert_eq!(field(&bob[2], "DTSTART;VALUE=DATE:"), "20261005");
}
