//! The README's two commands share one build: every dependency `cargo run` compiles, `cargo test`
//! reuses as it is, because the tests' dependencies turn on no feature that arbiter's own leave
//! off (a crate whose features differ is compiled twice, with everything built on it).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Each crate (name and version) in the build, with the feature sets it is compiled with (one
/// per unit: a crate built for the host and for the target appears twice).
fn units(edges: &str) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "--prefix", "none"])
        .args(["-e", edges, "-f", "{p}|{f}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut units: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let Some((package, features)) = line.split_once('|') else {
            continue;
        };
        // `cargo tree` marks a proc macro after its name and a crate it printed already after
        // its features (`anstream v1.0.0|auto,default,wincon (*)`).
        let package = package.trim_end_matches(" (proc-macro)");
        let features = features.trim_end_matches(" (*)");
        units
            .entry(package.to_string())
            .or_default()
            .insert(features.to_string());
    }
    units
}

#[test]
fn the_tests_compile_no_dependency_again() {
    let run = units("no-dev");
    let test = units("normal,build,dev");
    assert!(run.len() > 100 && test.len() > run.len(), "{run:?}");
    let mut twice = Vec::new();
    for (package, features) in &run {
        for set in features {
            if !test[package].contains(set) {
                twice.push(format!(
                    "{package}: [{set}] in `cargo run`, {:?} in `cargo test`",
                    test[package]
                ));
            }
        }
    }
    assert!(twice.is_empty(), "compiled twice:\n{}", twice.join("\n"));
}
