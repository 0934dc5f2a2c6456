//! Every `arbiter ...` command in the README's ```sh blocks works as written.
//! They run in a scratch folder holding copies of examples/, scripts/ and rulesets/.

use std::path::Path;
use std::process::Command;

fn sh_blocks(readme: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if in_sh && !t.is_empty() && !t.starts_with('#') {
            commands.push(t.to_string());
        }
    }
    commands
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        } else if p.is_dir() {
            copy_dir(&p, &to.join(p.file_name().unwrap()));
        }
    }
}

#[test]
fn the_readme_starts_with_the_two_commands() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let commands = sh_blocks(&readme);
    assert!(commands[0].starts_with("cargo run -- "), "{}", commands[0]);
    assert_eq!(commands[1], "cargo test");
    assert_eq!(
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run"))
            .unwrap()
            .lines()
            .last(),
        Some("cargo test --locked")
    );
}

#[test]
fn every_readme_command_works_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    for dir in ["examples", "scripts", "rulesets"] {
        copy_dir(&root.join(dir), &scratch.path().join(dir));
    }
    // `arbiter` on the PATH is the binary under test.
    let bin_dir = scratch.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(crate::common::BIN, bin_dir.join("arbiter")).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for command in sh_blocks(&readme) {
        // The first command (the main job, built in the tests' profile) is run below without
        // cargo.
        let command = match command.strip_prefix("cargo run -- ") {
            Some(rest) => format!("arbiter {rest}"),
            None => command,
        };
        if command.starts_with("cargo ") {
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(scratch.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README command failed: {command}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !out.stdout.is_empty()
                || command.contains('>')
                || command.contains(" -o ")
                || command.contains("--html"),
            "{command} printed nothing"
        );
        ran += 1;
    }
    assert!(ran >= 25, "only {ran} README commands ran");
}

#[test]
fn the_readme_help_and_man_name_every_built_in_ruleset() {
    let listed = crate::common::ok(&["rules", "list", "--wide"]);
    let names: Vec<&str> = listed
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names.len(), 8, "{listed}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .unwrap()
        .replace('\n', " ");
    let help = crate::common::ok(&["--help"]).replace('\n', " ");
    let man = crate::common::ok(&["man"]).replace("\\-", "-");
    for name in names {
        assert!(readme.contains(&format!("`{name}`")), "README lacks {name}");
        assert!(
            help.contains(&format!(" {name},")) || help.contains(&format!(" {name} (")),
            "--help lacks {name}: {help}"
        );
        assert!(man.contains(&format!(" {name}")), "man lacks {name}");
    }
}
