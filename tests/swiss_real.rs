//! Real TRF exports as arbiters have them (issue 34): the free-text `092` line, a `.txt` name,
//! JaVaFo's TRF(x) codes `XXS` (points) and `XXZ` (absent players), standings from a TRF.
//! Sources of the files: tests/data/swiss_real/SOURCES.md.
use crate::common::*;

fn real(name: &str) -> String {
    format!(
        "{}/tests/data/swiss_real/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// White-black pairs in board order as "W-B", and the bye.
fn pairing(file: &str) -> (Vec<String>, serde_json::Value) {
    let v = json(&["swiss", "pair", file, "--json"]);
    let pairs = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}-{}", p["white"], p["black"]))
        .collect();
    (pairs, v["bye"].clone())
}

/// JaVaFo's output for the file, from the manual: one pair a line, white first, `47 0` the
/// pairing-allocated bye.
const GROS_R5_JAVAFO: &str = "1-2 3-4 5-6 7-13 11-21 23-12 19-16 17-52 35-18 8-24 9-26 37-10 \
     14-29 45-15 46-20 27-38 34-30 39-31 41-32 42-33 44-48 25-49 40-50 51-36";

#[test]
fn an_untouched_real_export_pairs_as_the_reference_engine() {
    // A `.txt` with `092 Individual: Swiss-System`: recognised by its content, 092 is words.
    let (pairs, bye) = pairing(&real("gros-2010-r5.txt"));
    assert_eq!(pairs.join(" "), GROS_R5_JAVAFO);
    assert_eq!(bye, 47);
}

#[test]
fn the_092_line_changes_nothing() {
    let text = std::fs::read_to_string(real("gros-2010-r5.txt")).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("092"))
        .map(|l| format!("{l}\n"))
        .collect();
    let f = temp_file(&without, ".trf");
    assert_eq!(pairing(path(&f)), pairing(&real("gros-2010-r5.txt")));
}

#[test]
fn a_trf_is_known_by_its_content_whatever_its_name() {
    // TRF(x) written by a program often starts with its XX codes.
    let text = std::fs::read_to_string(real("gros-2010-r5.txt")).unwrap();
    let xx_first: String = std::iter::once("XXR 9\n".to_string())
        .chain(
            text.lines()
                .filter(|l| !l.starts_with("XXR"))
                .map(|l| format!("{l}\n")),
        )
        .collect();
    let f = temp_file(&format!("\u{feff}{xx_first}"), ".txt");
    assert_eq!(pairing(path(&f)).0.join(" "), GROS_R5_JAVAFO);
    // The coded system line still decides: another system is refused, located.
    let other = text.replace("092 Individual: Swiss-System", "192 FIDE_BURSTEIN");
    let f = temp_file(&other, ".txt");
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(e.contains(":9:5: only the FIDE Dutch system"), "{e}");
}

#[test]
fn javafo_absent_players_are_not_paired() {
    // 22 and 43 asked for round 5 off in their round cells; XXZ says the same in one line
    // (43's half-point bye becomes an absence, so his points lose its half point).
    let text = std::fs::read_to_string(real("gros-2010-r5.txt")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("001   22") || l.starts_with("001   43") {
                let mut l = l[..131].to_string();
                if l.starts_with("001   43") {
                    l.replace_range(80..84, " 0.5");
                }
                l
            } else {
                l.to_string()
            }
        })
        .collect();
    let f = temp_file(&format!("{}\nXXZ 22 43\n", lines.join("\n")), ".trf");
    assert_eq!(pairing(path(&f)).0.join(" "), GROS_R5_JAVAFO);
}

#[test]
fn javafo_points_codes_read_like_the_162_line() {
    let case = format!(
        "{}/tests/data/swiss/cases/p12-r04",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(format!("{case}.trf")).unwrap();
    assert!(text.contains("162  W 3.0    D 1.0"));
    let xxs = text.replace("162  W 3.0    D 1.0", "XXS W=3 D=1\nXXS PAB=3.0");
    let f = temp_file(&xxs, ".trf");
    assert_eq!(pairing(path(&f)), pairing(&format!("{case}.trf")));
    let bad = temp_file(&text.replace("162  W 3.0    D 1.0", "XXS W=3 Q=1"), ".trf");
    let e = fails(&["swiss", "pair", path(&bad)]);
    assert!(e.contains("`Q` is not an XXS code"), "{e}");
    let colour = temp_file(
        &text.replace("162  W 3.0    D 1.0", "XXS WW=3 BW=2"),
        ".trf",
    );
    let e = fails(&["swiss", "pair", path(&colour)]);
    assert!(e.contains("WW and BW differ"), "{e}");
}

#[test]
fn standings_straight_from_a_trf() {
    let v = json(&["swiss", "table", &real("gros-2010-r5.txt"), "--json"]);
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 52);
    assert_eq!(rows[0]["name"], "Mirzoev Azer");
    assert_eq!(rows[0]["points"], 4.0);
    // Player 6: 1 + 1 + 1 + ½ against 32, 21, 11 and 3.
    let p6 = rows.iter().find(|r| r["player"] == 6).unwrap();
    assert_eq!(p6["points"], 3.5);
}

#[test]
fn a_players_list_without_its_header_reads_name_and_rating_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("p.csv");
    std::fs::write(&csv, "Ann,2000\nBob, 1900\nCarlsen, Magnus\nDan\n").unwrap();
    let t = dir.path().join("t.yaml");
    let out = run(&[
        "swiss",
        "new",
        t.to_str().unwrap(),
        "--players",
        csv.to_str().unwrap(),
        "--rounds",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("p.csv:1: no header line `name,rating`"));
    let yaml = std::fs::read_to_string(&t).unwrap();
    // Sorted by rating; a name with a comma and no number after it stays whole.
    for want in [
        "name: Ann\n  rating: 2000",
        "name: Bob\n  rating: 1900",
        "name: Carlsen, Magnus",
    ] {
        assert!(yaml.contains(want), "{want} in {yaml}");
    }
    assert!(!yaml.contains("Ann,2000"));
    // A typed name close to a player's gets a suggestion.
    let e = fails(&[
        "swiss",
        "record",
        t.to_str().unwrap(),
        "1",
        "Anne",
        "Bob",
        "1-0",
    ]);
    assert!(
        e.contains("no player named `Anne` (did you mean `Ann`?)"),
        "{e}"
    );
}

#[test]
fn an_imported_trf_keeps_its_games_byes_and_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("gros.yaml");
    let t = t.to_str().unwrap();
    let out = ok(&["swiss", "import", &real("gros-2010-r5.txt"), "-o", t]);
    assert_eq!(out, "52 players, 4 of 9 rounds paired\n");
    let yaml = std::fs::read_to_string(t).unwrap();
    // 13-39 was a forfeit (39 did not come), 48 had the pairing-allocated bye in round 4,
    // 14 a half-point bye in round 3, 22 asked for round 5 off.
    assert!(
        yaml.contains("white: 13\n    black: 39\n    result: +-"),
        "{yaml}"
    );
    assert!(yaml.contains("bye: 48"));
    // The tournament pairs round 5 as the reference engine did from the file.
    let (pairs, bye) = pairing(t);
    assert_eq!(pairs.join(" "), GROS_R5_JAVAFO);
    assert_eq!(bye, 47);
    // Standings agree, and its TRF export reads back to the same standings.
    let from_trf = json(&["swiss", "table", &real("gros-2010-r5.txt"), "--json"]);
    let from_yaml = json(&["swiss", "table", t, "--json"]);
    assert_eq!(from_trf["standings"], from_yaml["standings"]);
    let again = dir.path().join("again.trf");
    ok(&["swiss", "export", t, "--trf", "-o", again.to_str().unwrap()]);
    let back = json(&["swiss", "table", again.to_str().unwrap(), "--json"]);
    assert_eq!(back["standings"], from_trf["standings"]);
    // Points the ruleset does not give are refused, naming both.
    let e = fails(&[
        "swiss",
        "import",
        &real("gros-2010-r5.txt"),
        "-o",
        &format!("{t}.2"),
        "--rules",
        "bloodbowl-swiss",
    ]);
    assert!(e.contains("are not ruleset `bloodbowl-swiss`'s"), "{e}");
}

/// Points of the round cells kept: the corpus files score 1 / ½ / 0 (no `162` line).
fn points_of(cells: &str) -> f64 {
    cells
        .chars()
        .skip(7)
        .step_by(10)
        .map(|r| match r {
            '1' | '+' | 'W' | 'F' | 'U' => 1.0,
            '=' | 'D' | 'H' => 0.5,
            _ => 0.0,
        })
        .fold(0.0, |a, b| a + b)
}

/// The file as it stood before round `k` (1-based): each player's rounds up to `k - 1` and
/// the points they make, his round-`k` cell only when it is a bye asked for ahead (`0000`
/// with `H`, `Z` or `F`), and, when the file does not say it, the first player's colour in
/// round 1 (`XXC`) as the file shows it.
fn before_round(text: &str, k: usize) -> String {
    let start = 91 + 10 * (k - 1);
    let mut first_colour = None;
    let mut out: String = text
        .lines()
        .map(|l| {
            if !l.starts_with("001") {
                return format!("{l}\n");
            }
            let chars: Vec<char> = l.chars().collect();
            if first_colour.is_none() && chars.len() > 96 && "wb".contains(chars[96]) {
                first_colour = Some(chars[96]);
            }
            let cell: String = chars.iter().skip(start).take(8).collect();
            let asked =
                cell.starts_with("0000") && ["H", "Z", "F"].iter().any(|c| cell.ends_with(c));
            let keep = if asked { start + 8 } else { start }.min(chars.len());
            let head: String = chars[..80].iter().collect();
            let tail: String = chars[84..keep].iter().collect();
            let rounds: String = chars[91.min(keep)..keep].iter().collect();
            let kept = format!("{head}{:4.1}{tail}", points_of(&rounds));
            format!("{}\n", kept.trim_end())
        })
        .collect();
    if !text.lines().any(|l| l.starts_with("XXC")) {
        // The lowest starting number with a colour in round 1 decides (the lines are not
        // always in starting order).
        let first = text
            .lines()
            .filter(|l| l.starts_with("001") && l.chars().nth(96).is_some_and(|c| "wb".contains(c)))
            .min_by_key(|l| l[4..8].trim().parse::<u32>().unwrap_or(u32::MAX));
        if let Some(c) = first.and_then(|l| l.chars().nth(96)).or(first_colour) {
            out.push_str(if c == 'w' {
                "XXC white1\n"
            } else {
                "XXC black1\n"
            });
        }
    }
    assert!(
        text.lines().any(|l| l.starts_with("XXR")),
        "the corpus files give their total rounds"
    );
    out
}

/// Round `k` as the file has it: each board as "W-B" (sorted) and the pairing-allocated bye.
fn round_in_file(text: &str, k: usize) -> (Vec<String>, serde_json::Value) {
    let start = 91 + 10 * (k - 1);
    let mut boards = Vec::new();
    let mut bye = serde_json::Value::Null;
    for l in text.lines().filter(|l| l.starts_with("001")) {
        let chars: Vec<char> = l.chars().collect();
        let me: u64 = l[4..8].trim().parse().unwrap();
        let cell: String = chars.iter().skip(start).take(8).collect();
        if cell.len() < 6 {
            continue;
        }
        let opponent: u64 = cell[..4].trim().parse().unwrap_or(0);
        if cell.ends_with('U') {
            bye = me.into();
        } else if opponent > me {
            // Each board once, its colours from the lower starting number's line.
            boards.push(if &cell[5..6] == "w" {
                format!("{me}-{opponent}")
            } else {
                format!("{opponent}-{me}")
            });
        }
    }
    boards.sort();
    (boards, bye)
}

/// The corpus (sources, and why the rounds left out differ: SOURCES.md): each file with the
/// rounds a FIDE-endorsed Dutch engine paired as the file has them.
const CORPUS: &[(&str, &[usize])] = &[
    ("bilkent-2024-r2.trf", &[1, 2]),
    ("british-2026-r9.trf", &[1, 3, 4, 5, 6, 7, 8, 9]),
    ("arad-2026-a.trf", &[2, 3, 4, 5, 6, 7, 8, 9]),
    ("frome-2026-open.trf", &[2, 3, 4, 5]),
    ("frome-2026-standard.trf", &[1, 3]),
];

#[test]
fn real_tournaments_pair_each_round_as_their_files_do() {
    // Each round paired again by arbiter from the rounds before it, as the file has them.
    for (name, rounds) in CORPUS {
        let text = std::fs::read_to_string(real(name)).unwrap();
        for &k in *rounds {
            let case = temp_file(&before_round(&text, k), ".trf");
            let (mut pairs, bye) = pairing(path(&case));
            pairs.sort();
            let (want, want_bye) = round_in_file(&text, k);
            assert_eq!(pairs, want, "{name} round {k}");
            assert_eq!(bye, want_bye, "{name} round {k}");
        }
    }
    // Gros stops before round 5: JaVaFo's pairing from the manual.
    let text = std::fs::read_to_string(real("gros-2010-r5.txt")).unwrap();
    let case = temp_file(&before_round(&text, 5), ".trf");
    let (mut pairs, bye) = pairing(path(&case));
    pairs.sort();
    let mut want: Vec<&str> = GROS_R5_JAVAFO.split(' ').collect();
    want.sort();
    assert_eq!(pairs, want);
    assert_eq!(bye, 47);
}

#[test]
fn every_real_file_untouched_loads_for_standings_and_import() {
    let dir = tempfile::tempdir().unwrap();
    let names = CORPUS.iter().map(|(n, _)| *n).chain(["gros-2010-r5.txt"]);
    for name in names {
        let text = std::fs::read_to_string(real(name)).unwrap();
        let players = text.lines().filter(|l| l.starts_with("001")).count();
        let v = json(&["swiss", "table", &real(name), "--json"]);
        assert_eq!(v["standings"].as_array().unwrap().len(), players, "{name}");
        let t = dir.path().join(format!("{name}.yaml"));
        let out = ok(&["swiss", "import", &real(name), "-o", t.to_str().unwrap()]);
        assert!(
            out.starts_with(&format!("{players} players, ")),
            "{name}: {out}"
        );
        // Imported, the standings are the file's.
        let from_yaml = json(&["swiss", "table", t.to_str().unwrap(), "--json"]);
        assert_eq!(from_yaml["standings"], v["standings"], "{name}");
    }
}

#[test]
fn a_round_paired_but_not_played_counts_in_standings_only_once_played() {
    // Bilkent's file was written after round 2 was paired: each line ends `   8 b`, its
    // result column trimmed. Standings are those of round 1; pairing it again is refused.
    let v = json(&["swiss", "table", &real("bilkent-2024-r2.trf"), "--json"]);
    let rows = v["standings"].as_array().unwrap();
    let total: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    // Ten boards and the pairing-allocated bye of round 1: 11 points in all.
    assert_eq!(total, 11.0);
    let e = fails(&["swiss", "pair", &real("bilkent-2024-r2.trf")]);
    assert!(
        e.contains("round 2: paired against 8 but not played yet"),
        "{e}"
    );
    // Imported, the tournament stands after round 1 (round 2 is to be paired again).
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("bilkent.yaml");
    let t = t.to_str().unwrap();
    let out = run(&["swiss", "import", &real("bilkent-2024-r2.trf"), "-o", t]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "21 players, 1 of 6 rounds paired\n");
    assert!(
        stderr(&out).contains("its last round is paired but not played yet; imported without it"),
        "{}",
        stderr(&out)
    );
}
