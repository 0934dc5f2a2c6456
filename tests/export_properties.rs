//! Every file arbiter writes reads back to the same thing (issue 28): a Swiss tournament as
//! TRF and as its YAML file, a league season, a ruleset bundle (to the ruleset and the hash its
//! header states), for any names arbiter accepts, awkward ones included: quotes, YAML and
//! rules-language syntax, accents, wide characters. Names with control characters are refused
//! where they enter, which the last properties check.
use arbiter::league::{
    schedule::{schedule, ScheduleOptions},
    season::{RecordRequest, Season},
    teams::Teams,
};
use arbiter::rules::bundle::{bundle, stated_hash};
use arbiter::rules::edit::Syntax;
use arbiter::rules::identity::Identity;
use arbiter::rules::{load, yaml};
use arbiter::swiss::model::Field;
use arbiter::swiss::tournament::{Board, PairedRound, Tournament, RESULTS};
use arbiter::swiss::{trf, trf_out};
use proptest::prelude::*;
use std::collections::HashSet;

/// A name people might give: letters, digits, spaces and the characters that mean something
/// in one of the formats (quotes, `#`, `:`, `-`, `{`, `=`, `,`, `\`, backticks), or a word
/// that YAML reads as something else when bare.
fn awkward_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-zéøßÜ中🎲0-9 ,.'\"#:{}=\\-\\\\`!&*%@|>\\[\\]]{1,40}",
        "[a-z]{1,6}",
        prop_oneof![
            Just("yes"),
            Just("null"),
            Just("~"),
            Just("- a"),
            Just("a: b"),
            Just("#1 Seed"),
            Just("1e3"),
            Just("0x10"),
            Just("12"),
            Just("'quoted'"),
            Just("\"double\""),
            Just("&anchor"),
            Just("*alias"),
            Just("!tag"),
            Just("O'Brien, Seán"),
            Just("Łukasz Ćwik")
        ]
        .prop_map(String::from),
    ]
    .prop_filter("a name has a letter or digit", |n| {
        n.chars().any(char::is_alphanumeric)
    })
}

/// `n` names that differ as arbiter compares names (case, accents and spacing ignored), each
/// as it is entered (trimmed).
fn distinct_names(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(awkward_name(), n).prop_map(|names| {
        let mut seen = HashSet::new();
        names
            .into_iter()
            .map(|n| n.trim().to_string())
            .filter(|n| seen.insert(arbiter::names::normalize(n)))
            .collect()
    })
}

/// A tournament of the players with some rounds played: each round pairs the players in a
/// shuffled order (the last one gets the pairing-allocated bye when they are odd), every
/// board with one of the results arbiter records.
fn tournament() -> impl Strategy<Value = Tournament> {
    (
        awkward_name(),
        distinct_names(2..=12),
        proptest::collection::vec(0u32..=9999, 12),
        1usize..=5,
        any::<u64>(),
        prop_oneof![Just("swiss"), Just("bloodbowl-swiss")],
    )
        .prop_filter("two players at least", |t| t.1.len() >= 2)
        .prop_map(|(title, names, ratings, rounds, seed, rules)| {
            // No more rounds than the players can play without a rematch (byes when odd).
            let n = names.len();
            let rounds = rounds.min(if n % 2 == 0 { n - 1 } else { n });
            let players = names.into_iter().zip(ratings).collect();
            let mut t = Tournament::new(&title, rules, rounds, players).expect("accepted");
            let mut rng = seed;
            let mut next = move |n: usize| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((rng >> 33) % n as u64) as usize
            };
            let n = t.players.len();
            for _ in 0..next(rounds + 1) {
                let mut order: Vec<usize> = (1..=n).collect();
                for i in (1..n).rev() {
                    order.swap(i, next(i + 1));
                }
                let bye = (n % 2 == 1).then(|| order.pop().expect("odd"));
                let boards = order
                    .chunks(2)
                    .map(|p| Board {
                        white: p[0],
                        black: p[1],
                        result: Some(RESULTS[next(RESULTS.len())].to_string()),
                    })
                    .collect();
                t.paired.push(PairedRound { boards, bye });
            }
            t.check().expect("a valid tournament");
            t
        })
}

fn field_of(t: &Tournament) -> Field {
    let rules = load::load(&t.rules).unwrap().swiss.unwrap();
    t.field(&rules, false).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `swiss export --trf`: the TRF reads back to the same field, names as TRF's 33 columns
    /// hold them, and one line per header field and player (no name adds a line).
    #[test]
    fn a_tournament_exported_as_trf_reads_back_the_same(t in tournament()) {
        let field = field_of(&t);
        let text = trf_out::write(&field, &t.name, None).unwrap();
        let first = text.lines().next().unwrap();
        let title = format!("012 {}", t.name);
        prop_assert_eq!(first.trim_end(), title.trim_end());
        let players = text.lines().filter(|l| l.starts_with("001")).count();
        prop_assert_eq!(players, t.players.len());
        let back = trf::parse("t.trf", &text, false).unwrap();
        let mut want = field.clone();
        for e in &mut want.entrants {
            e.name = e.name.chars().take(33).collect::<String>().trim().to_string();
        }
        prop_assert_eq!(back, want);
    }

    /// The tournament file `swiss new` writes and every command rewrites.
    #[test]
    fn a_tournament_file_reads_back_the_same(t in tournament()) {
        let text = t.to_yaml();
        let back: Tournament = yaml::parse("t.yaml", &text).unwrap().deserialize().unwrap();
        back.check().unwrap();
        prop_assert_eq!(back, t);
    }

    /// The season file `league new` writes and `league record` rewrites.
    #[test]
    fn a_season_file_reads_back_the_same(
        name in awkward_name(),
        teams in distinct_names(2..=10),
        scores in proptest::collection::vec((0u32..50, 0u32..50), 0..8),
    ) {
        prop_assume!(teams.len() >= 2);
        let options = ScheduleOptions { seed: Some(1), ..ScheduleOptions::default() };
        let s = schedule(&options, &Teams::Names(teams)).unwrap();
        let mut season = Season::from_schedule("bloodbowl", &s);
        season.name = Some(name);
        let games: Vec<_> = s.rounds.iter().flat_map(|r| r.matches.iter().map(move |m| (r.round, m))).collect();
        for ((round, m), (home_score, away_score)) in games.iter().zip(scores) {
            season.record(&RecordRequest {
                home: m.home.to_string(),
                away: m.away.to_string(),
                home_score,
                away_score,
                round: Some(*round),
                correct: false,
            }).unwrap();
        }
        let text = season.to_yaml();
        let back = Season::from_doc(&yaml::parse("s.yaml", &text).unwrap()).unwrap();
        prop_assert_eq!(back, season);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// `rules bundle`: the bundle loads to the same ruleset, its hash is the one its header
    /// states, and the header is comment lines only, whatever the names in it.
    #[test]
    fn a_bundle_loads_back_to_the_ruleset_and_hash_it_states(
        base_name in awkward_name(),
        name in awkward_name(),
        description in awkward_name(),
        alias in awkward_name(),
        version in (0u32..20, 0u32..20, 0u32..20),
        yaml_out in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let base = serde_json::json!({
            "extends": "startrek",
            "name": base_name,
            "ships": {"Gorn attack cruiser": {"aliases": [format!("x {alias}")]}},
        });
        std::fs::write(dir.path().join("base #1.rules"), arbiter::rules::edit::render(&base, Syntax::Rules)).unwrap();
        let child = serde_json::json!({
            "extends": "base #1.rules",
            "name": name,
            "version": format!("{}.{}.{}", version.0, version.1, version.2),
            "description": description,
        });
        let child_path = dir.path().join("house.yaml");
        std::fs::write(&child_path, arbiter::rules::edit::render(&child, Syntax::Yaml)).unwrap();
        let child_path = child_path.to_str().unwrap();
        let ruleset = load::load(child_path).unwrap();
        let syntax = if yaml_out { Syntax::Yaml } else { Syntax::Rules };
        let text = bundle(child_path, syntax).unwrap();
        let header: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        prop_assert!(header.iter().all(|l| l.starts_with('#')), "{}", text);
        let out = dir.path().join(if yaml_out { "bundle.yaml" } else { "bundle.rules" });
        std::fs::write(&out, &text).unwrap();
        let again = load::load(out.to_str().unwrap()).unwrap();
        prop_assert_eq!(&again, &ruleset);
        let hash = Identity::of(&ruleset).sha256;
        prop_assert_eq!(stated_hash(&text), Some(hash.as_str()));
        prop_assert_eq!(Identity::of(&again).sha256, hash);
    }

    /// A control character anywhere in a name is refused where the name enters, never written.
    #[test]
    fn a_name_with_a_control_character_is_refused_at_input(
        before in "[a-z]{0,5}",
        control in prop_oneof![Just('\n'), Just('\r'), Just('\u{1b}'), Just('\t'), Just('\u{7}'), Just('\u{85}'), Just('\u{2028}')],
        after in "[a-z]{1,5}",
    ) {
        // After a letter: a name is trimmed as it enters, which would drop a leading newline.
        let bad = format!("x{before}{control}{after}");
        let four = |first: &str| [first, "B", "C", "D"].map(|n| (n.to_string(), 0)).to_vec();
        let good = || four("A");
        let players = four(&bad);
        prop_assert!(Tournament::new("Open", "swiss", 3, players).is_err());
        prop_assert!(Tournament::new(&bad, "swiss", 3, good()).is_err());
        let mut t = Tournament::new("Open", "swiss", 3, good()).unwrap();
        let e = t.add(&bad, 0).unwrap_err().to_string();
        prop_assert!(e.contains("holds a control character"), "{}", e);
        prop_assert!(Teams::Names(vec![bad.clone(), "Ok".into()]).check().is_err());
        let ruleset = |name: &str| {
            let text = arbiter::rules::edit::render(&serde_json::json!({"name": name}), Syntax::Rules);
            load::ruleset_from_doc(&arbiter::rules::lang::parse("h.rules", &text).unwrap())
        };
        prop_assert!(ruleset("house").is_ok());
        let e = ruleset(&bad).unwrap_err().to_string();
        prop_assert!(e.contains("ruleset name") && e.contains("control character"), "{}", e);
    }
}

#[test]
fn numbers_trf_cannot_write_are_refused_at_input() {
    let rated = |top: u32, n: usize| -> Vec<(String, u32)> {
        (0..n)
            .map(|i| (format!("P{i}"), if i == 0 { top } else { 0 }))
            .collect()
    };
    let e = Tournament::new("Open", "swiss", 3, rated(10_000, 4)).unwrap_err();
    assert!(
        e.to_string()
            .contains("rating 10000 is more than 9999 (TRF writes ratings in four digits)"),
        "{e}"
    );
    // 34 players can play 33 rounds without a rematch.
    let mut t = Tournament::new("Open", "bloodbowl-swiss", 33, rated(9999, 34)).unwrap();
    let points = |name: &str| {
        arbiter::swiss::tournament::points_of(&load::load(name).unwrap().swiss.unwrap())
    };
    // 33 rounds at 3 points fit 99.9; 34 do not.
    t.check_scores_fit(&points("bloodbowl-swiss")).unwrap();
    t.rounds = 34;
    let e = t.check_scores_fit(&points("bloodbowl-swiss")).unwrap_err();
    assert!(
        e.to_string()
            .contains("34 rounds at up to 3.0 points a round can reach 102.0 points"),
        "{e}"
    );
    t.check_scores_fit(&points("swiss")).unwrap();
}
