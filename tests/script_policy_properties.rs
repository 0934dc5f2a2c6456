//! Property: whatever paths a script names, it never reads a file outside its read policy.
//! A secret file with a marker sits outside the script's folder (and outside the current
//! folder); scripts are drawn from a corpus of API calls with path arguments (absolute paths,
//! `..` escapes, symlinks leading out, good paths, wrong extensions). The marker must never
//! appear in any output, and every call naming a path outside must get the policy's error.
use crate::common::*;
use proptest::prelude::*;
use std::path::Path;

const MARKER: &str = "MARKER_c0ffee_7e57";
const REFUSED: &str = "outside what this script may read (its folder and the current folder; --allow-read DIR widens it)";

/// The layout: ROOT/secret/{secret.yaml, secret.txt, secret.rhai, secret.csv, secret.rules},
/// ROOT/club/ (the script's folder and the current folder) with a good record and team list,
/// and symlinks out of it to the secret files and folder.
fn layout() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let secret = root.path().join("secret");
    std::fs::create_dir(&secret).unwrap();
    for ext in ["yaml", "txt", "rhai", "csv", "rules", "json"] {
        std::fs::write(
            secret.join(format!("secret.{ext}")),
            format!("{MARKER}: {MARKER}\n{MARKER}\n"),
        )
        .unwrap();
    }
    let club = root.path().join("club");
    std::fs::create_dir(&club).unwrap();
    std::fs::write(club.join("teams.txt"), "Ana\nBo\nCy\nDee\n").unwrap();
    std::fs::write(club.join("notes.txt"), format!("{MARKER}\n")).unwrap();
    std::fs::copy(
        format!(
            "{}/scripts/records/cep_example.yaml",
            env!("CARGO_MANIFEST_DIR")
        ),
        club.join("game.yaml"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        for ext in ["yaml", "txt", "rhai", "rules"] {
            std::os::unix::fs::symlink(
                secret.join(format!("secret.{ext}")),
                club.join(format!("link.{ext}")),
            )
            .unwrap();
        }
        std::os::unix::fs::symlink(&secret, club.join("up")).unwrap();
    }
    root
}

/// Paths a script might name, and whether each leads outside the folder.
fn paths(root: &Path) -> Vec<(String, bool)> {
    let secret = root.join("secret");
    let mut out = Vec::new();
    for ext in ["yaml", "txt", "rhai", "rules", "csv", "json"] {
        out.push((
            secret.join(format!("secret.{ext}")).display().to_string(),
            true,
        ));
        out.push((format!("../secret/secret.{ext}"), true));
        out.push((format!("./../secret/secret.{ext}"), true));
        out.push((format!("sub/../../secret/secret.{ext}"), true));
        out.push((format!("up/secret.{ext}"), true));
    }
    for ext in ["yaml", "txt", "rhai", "rules"] {
        out.push((format!("link.{ext}"), true));
    }
    out.push(("/etc/passwd".to_string(), true));
    out.push(("game.yaml".to_string(), false));
    out.push(("teams.txt".to_string(), false));
    out.push(("notes.txt".to_string(), false));
    out.push(("missing.yaml".to_string(), false));
    out
}

/// API calls taking a path.
const CALLS: &[&str] = &[
    "rules(\"{}\")",
    "score(\"{}\")",
    "rules(\"cep\").score(\"{}\")",
    "rules(\"cep\").score_vs(#{ Ana: 1, Bo: 2 }, \"{}\")",
    "rate(\"{}\")",
    "schedule(\"{}\")",
    "standings(\"{}\")",
    "rules(\"startrek\").extend(\"{}\")",
    "rules(\"startrek\").set(\"script\", #{ hooks: #{ tiebreak: \"{}\" } })",
    "simulate(\"UFP heavy cruiser\", \"Klingon battle cruiser\", 2, 1, #{ scenario: \"{}\" })",
    "simulate(\"UFP heavy cruiser\", \"Klingon battle cruiser\", 2, 1, #{ tactic_a: \"{}\" })",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn no_script_reads_outside_its_policy(picks in proptest::collection::vec((0usize..CALLS.len(), 0usize..64), 1..4)) {
        let root = layout();
        let club = root.path().join("club");
        let all = paths(root.path());
        // Each call in its own script: each must fail or succeed on its own.
        for (call, p) in picks {
            let (path, outside) = &all[p % all.len()];
            let code = CALLS[call].replace("{}", path);
            std::fs::write(club.join("t.rhai"), format!("let x = {code};\nprint(x);\n")).unwrap();
            let o = run_in(&club, &["run", "t.rhai"], None);
            let (out, err) = (stdout(&o), stderr(&o));
            prop_assert!(!out.contains(MARKER) && !err.contains(MARKER), "{code} leaked:\n{out}\n{err}");
            prop_assert!(!err.contains("panicked"), "{code}: {err}");
            if *outside {
                prop_assert_eq!(o.status.code(), Some(1), "{}", code);
                // Hooks and extends name the path where it was written; the message is the same.
                prop_assert!(err.contains(&format!("{path}: {REFUSED}")) || err.contains(REFUSED), "{code}: {err}");
            }
        }
    }
}

#[test]
fn allow_read_opens_exactly_that_folder() {
    let root = layout();
    let club = root.path().join("club");
    let other = root.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(club.join("game.yaml"), other.join("game.yaml")).unwrap();
    std::fs::write(club.join("t.rhai"), "print(score(\"../other/game.yaml\").players[0].points);\nscore(\"../secret/secret.yaml\");\n").unwrap();
    let o = run_in(&club, &["run", "t.rhai", "--allow-read", "../other"], None);
    assert_eq!(stdout(&o), "31\n", "{}", stderr(&o));
    assert!(
        stderr(&o).contains(REFUSED) && !stderr(&o).contains(MARKER),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_path_typed_after_dashes_is_the_persons_to_name() {
    let root = layout();
    let club = root.path().join("club");
    let elsewhere = root.path().join("elsewhere.yaml");
    std::fs::copy(club.join("game.yaml"), &elsewhere).unwrap();
    std::fs::write(
        club.join("t.rhai"),
        "print(score(ARGS[0]).players[0].points);\n",
    )
    .unwrap();
    let o = run_in(
        &club,
        &["run", "t.rhai", "--", elsewhere.to_str().unwrap()],
        None,
    );
    assert_eq!(stdout(&o), "31\n", "{}", stderr(&o));
    // Only that file: its neighbour stays out of reach.
    std::fs::write(club.join("t.rhai"), "score(ARGS[0]);\n").unwrap();
    let neighbour = root.path().join("secret/secret.yaml");
    let o = run_in(
        &club,
        &["run", "t.rhai", "--", elsewhere.to_str().unwrap()],
        None,
    );
    assert!(o.status.success());
    std::fs::write(
        club.join("t.rhai"),
        format!("score(\"{}\");\n", neighbour.display()),
    )
    .unwrap();
    let o = run_in(
        &club,
        &["run", "t.rhai", "--", elsewhere.to_str().unwrap()],
        None,
    );
    assert!(
        stderr(&o).contains(REFUSED) && !stderr(&o).contains(MARKER),
        "{}",
        stderr(&o)
    );
}
