//! The read policy against a link swapped between the check and the open: a thread flips a
//! symlink inside the club's folder between a file there and a secret file outside, while the
//! loader reads through it a few hundred times. Each read must give the inside file or a
//! refusal, never the secret (the policy checks the file it opened, not the name again).
use arbiter::io::policy::{self, Kind, Policy};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

const MARKER: &str = "MARKER_5ecre7_race";
const ROUNDS: usize = 400;
/// The link flipped for rulesets and records: (link, inside target, outside target).
const BASE: (&str, &str, &str) = ("base.yaml", "real.yaml", "../secret/secret.yaml");

/// ROOT/secret/secret.{yaml,rhai} (outside) and ROOT/club/ with an inside ruleset `real.yaml`,
/// an inside hook `real.rhai`, and the links `base.yaml` and `hook.rhai` that get flipped.
fn layout() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let secret = root.path().join("secret");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("secret.yaml"), format!("{MARKER}: [\n")).unwrap();
    std::fs::write(secret.join("secret.rhai"), format!("{MARKER} +\n")).unwrap();
    let club = root.path().join("club");
    std::fs::create_dir(&club).unwrap();
    std::fs::write(club.join("real.yaml"), "extends: elo\nname: house\n").unwrap();
    std::fs::write(club.join("real.rhai"), "fn tiebreak(a) { 0 }\n").unwrap();
    std::fs::write(club.join("house.yaml"), "extends: base.yaml\n").unwrap();
    std::fs::write(
        club.join("hooked.rules"),
        "extends elo\nscript {\n  hooks { tiebreak = \"hook.rhai\" }\n}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("real.yaml", club.join("base.yaml")).unwrap();
    std::os::unix::fs::symlink("real.rhai", club.join("hook.rhai")).unwrap();
    (root, club)
}

/// Flip `link` between `inside` and `outside` until `stop`, counting flips; each flip is atomic
/// (a rename).
fn flipper(
    link: PathBuf,
    inside: PathBuf,
    outside: PathBuf,
    stop: Arc<AtomicBool>,
    flips: Arc<AtomicUsize>,
) {
    let temp = link.with_extension("swap");
    let mut out = false;
    while !stop.load(Ordering::Relaxed) {
        out = !out;
        let _ = std::fs::remove_file(&temp);
        std::os::unix::fs::symlink(if out { &outside } else { &inside }, &temp).unwrap();
        std::fs::rename(&temp, &link).unwrap();
        flips.fetch_add(1, Ordering::Relaxed);
    }
}

/// Run `read` ROUNDS times while the link flips; count the reads that showed the secret, and
/// check that some got the inside file (shown with `got_inside` in it), so the reads are real.
fn race(
    club: &Path,
    (link, inside, outside): (&str, &str, &str),
    got_inside: &str,
    read: impl Fn() -> String,
) -> usize {
    let stop = Arc::new(AtomicBool::new(false));
    let flips = Arc::new(AtomicUsize::new(0));
    let flipping = {
        let (link, inside, outside) = (club.join(link), club.join(inside), club.join(outside));
        let (stop, flips) = (stop.clone(), flips.clone());
        std::thread::spawn(move || flipper(link, inside, outside, stop, flips))
    };
    let (mut leaks, mut good) = (0, 0);
    for round in 0..ROUNDS {
        // Each read starts after a flip of its own, so reads and flips interleave whatever
        // the scheduler does.
        while flips.load(Ordering::Relaxed) <= round {
            std::thread::yield_now();
        }
        let seen = read();
        leaks += usize::from(seen.contains(MARKER));
        good += usize::from(seen.contains(got_inside));
    }
    stop.store(true, Ordering::Relaxed);
    flipping.join().unwrap();
    assert!(good > 0, "no read of {ROUNDS} got the inside file");
    leaks
}

/// What a result shows a person: its value's debug form or its error message.
fn shown<T: std::fmt::Debug>(r: arbiter::error::Result<T>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_extends_link_swapped_after_the_check_never_leaks() {
    let (_root, club) = layout();
    let house = club.join("house.yaml").display().to_string();
    // A plain command's policy: the current folder (the crate, not the club's) and the file
    // typed; `base.yaml` is allowed only as the house rule's companion, beside it.
    let command = Arc::new(Policy::for_command(std::slice::from_ref(&house), &[]).unwrap());
    let leaks = race(&club, BASE, "house", || {
        policy::enter(Some(command.clone()), || {
            shown(arbiter::rules::load::resolve_doc(&house).map(|d| d.value))
        })
    });
    assert_eq!(leaks, 0, "the secret showed in {leaks} of {ROUNDS} loads");
}

#[test]
fn a_hook_link_swapped_after_the_check_never_leaks() {
    let (_root, club) = layout();
    arbiter::script::hook::install();
    let hooked = club.join("hooked.rules").display().to_string();
    let command = Arc::new(Policy::for_command(std::slice::from_ref(&hooked), &[]).unwrap());
    let hook = ("hook.rhai", "real.rhai", "../secret/secret.rhai");
    let leaks = race(&club, hook, "elo", || {
        policy::enter(Some(command.clone()), || {
            shown(arbiter::rules::load::load(&hooked).map(|r| r.name))
        })
    });
    assert_eq!(leaks, 0, "the secret showed in {leaks} of {ROUNDS} loads");
}

#[test]
fn a_script_read_through_a_swapped_link_never_leaks() {
    let (_root, club) = layout();
    let mut script = Policy::current_folder();
    script.allow_read(club.to_str().unwrap()).unwrap();
    let script = Arc::new(script);
    let base = club.join("base.yaml");
    let leaks = race(&club, BASE, "extends: elo", || {
        policy::enter(Some(script.clone()), || {
            // What every script API read does: check the name, then read it.
            let checked = policy::check_script_path(base.to_str().unwrap(), Kind::Record);
            shown(checked.and_then(|_| arbiter::io::read_text(base.to_str().unwrap())))
        })
    });
    assert_eq!(leaks, 0, "the secret showed in {leaks} of {ROUNDS} reads");
}

#[test]
fn the_race_is_real_without_the_check_of_the_opened_file() {
    // The same swap read with no policy in force: some reads must see the secret, or the tests
    // above would pass whether or not the opened file is checked.
    let (_root, club) = layout();
    let base = club.join("base.yaml");
    let seen = race(&club, BASE, "extends: elo", || {
        shown(arbiter::io::read_text(base.to_str().unwrap()))
    });
    assert!(seen > 0, "no read of {ROUNDS} saw the swapped link");
}
