//! `rules fmt` and `rules convert` keep comments with their keys; `fmt` is the canonical
//! layout (`--check`, `--write`).
use crate::common::*;

const MESSY: &str = "# A house rule.\nextends startrek   # the base\nname=house\n\nships{\n  # stronger\n  \"UFP heavy cruiser\"{shields=12}  # was 10\n}\n";

#[test]
fn fmt_prints_the_canonical_layout_with_every_comment() {
    let f = temp_file(MESSY, ".rules");
    let out = ok(&["rules", "fmt", path(&f)]);
    assert_eq!(
        out,
        "# A house rule.\nextends startrek  # the base\n\nname = house\n\nships {\n  # stronger\n  \
         \"UFP heavy cruiser\" {  # was 10\n    shields = 12\n  }\n}\n"
    );
    let again = temp_file(&out, ".rules");
    assert_eq!(
        ok(&["rules", "fmt", path(&again)]),
        out,
        "fmt is idempotent"
    );
    ok(&["rules", "fmt", "--check", path(&again)]);
}

#[test]
fn check_names_the_files_not_formatted_and_exits_1() {
    let messy = temp_file(MESSY, ".rules");
    let tidy = temp_file("name = house\n", ".rules");
    Test::new()
        .args(["rules", "fmt", "--check", path(&messy), path(&tidy)])
        .status(1)
        .stdout_has(format!("{}: not formatted", path(&messy)))
        .stderr_has("1 of 2 files are not formatted")
        .run();
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        MESSY,
        "--check writes nothing"
    );
}

#[test]
fn write_rewrites_in_place_through_a_link_keeping_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.rules");
    let link = dir.path().join("house.rules");
    std::fs::write(&real, MESSY).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    Test::new()
        .args(["rules", "fmt", "--write", link.to_str().unwrap()])
        .status(0)
        .stderr_has("wrote")
        .run();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("\"UFP heavy cruiser\" {  # was 10\n"),
        "{text}"
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    ok(&["rules", "fmt", "--check", link.to_str().unwrap()]);
}

#[test]
fn the_builtin_startrek_keeps_its_comments_through_yaml_and_back() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/startrek.rules");
    let source = std::fs::read_to_string(file).unwrap();
    let comments = source
        .lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .count();
    assert!(comments >= 3, "startrek.rules has comments to keep");
    let yaml = ok(&["rules", "convert", file, "--to", "yaml"]);
    assert!(yaml.starts_with("# Star Trek starship combat"), "{yaml}");
    let y = temp_file(&yaml, ".yaml");
    let back = ok(&["rules", "convert", path(&y), "--to", "rules"]);
    let formatted = ok(&["rules", "fmt", file]);
    assert_eq!(
        back, formatted,
        "rules -> YAML -> rules is the formatted file"
    );
    let kept = back.lines().filter(|l| l.contains('#')).count();
    assert!(kept >= comments, "{kept} of {comments} comment lines kept");
}

/// The rulesets arbiter ships, and the example rulesets, are in the layout `fmt` gives: the
/// canonical layout is what the project itself writes (short maps of numbers on one line).
#[test]
fn the_shipped_rulesets_are_in_the_canonical_layout() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<String> = Vec::new();
    for dir in ["rulesets", "examples"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let p = entry.unwrap().path();
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            let ruleset = dir == "rulesets" || name.starts_with("house");
            if ruleset && (name.ends_with(".rules") || name.ends_with(".yaml")) {
                files.push(p.to_str().unwrap().to_string());
            }
        }
    }
    assert!(files.len() >= 12, "{files:?}");
    let mut args = vec!["rules", "fmt", "--check"];
    args.extend(files.iter().map(String::as_str));
    ok(&args);
    let bloodbowl = std::fs::read_to_string(format!("{root}/rulesets/bloodbowl.rules")).unwrap();
    assert!(
        bloodbowl.contains("  points { win = 3, draw = 1, loss = 0 }\n"),
        "{bloodbowl}"
    );
}

/// Blank lines between groups of comments, and between a group and the entry below it, are
/// what people wrote: `fmt`, `convert` and `bundle` keep them (one for several). A header
/// parted from `extends` by one stays the file's header.
const GROUPS: &str = "# A house rule.\n\nextends startrek\n\n# Ships\n# (stronger)\n\nships {\n  \
                      # the flagship\n\n  # stronger\n  \"UFP heavy cruiser\" { shields = 12 }\n  \
                      # closing\n\n  # last\n}\n";

#[test]
fn blank_lines_between_comment_groups_survive_fmt_convert_and_bundle() {
    let f = temp_file(GROUPS, ".rules");
    assert_eq!(ok(&["rules", "fmt", path(&f)]), GROUPS);
    let yaml = ok(&["rules", "convert", path(&f), "--to", "yaml"]);
    assert_eq!(
        yaml,
        "# A house rule.\n\nextends: startrek\n\n# Ships\n# (stronger)\n\nships:\n  \
         # the flagship\n\n  # stronger\n  UFP heavy cruiser: { shields: 12 }\n  # closing\n\n  \
         # last\n"
    );
    let y = temp_file(&yaml, ".yaml");
    assert_eq!(ok(&["rules", "fmt", path(&y)]), yaml);
    assert_eq!(ok(&["rules", "convert", path(&y), "--to", "rules"]), GROUPS);
    for (file, syntax) in [(&f, "rules"), (&y, "yaml")] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join(format!("bundle.{syntax}"));
        let bundle_path = out.to_str().unwrap();
        Test::new()
            .args(["rules", "bundle", path(file), "-o", bundle_path])
            .run();
        let bundle = std::fs::read_to_string(bundle_path).unwrap();
        let from = format!("# (from {})\n", path(file));
        // The header stays above everything, not at `extends` (which the bundle has not).
        let header = format!("\n\n{from}# A house rule.\n\n");
        assert!(bundle.contains(&header), "{bundle}");
        let (ships, flagship, closing) = match syntax {
            "rules" => (
                "# Ships\n# (stronger)\n\nships {\n",
                "  # the flagship\n\n  # stronger\n  \"UFP heavy cruiser\" {\n",
                "  # closing\n\n  # last\n}\n",
            ),
            _ => (
                "# Ships\n# (stronger)\n\nships:\n",
                "  # the flagship\n\n  # stronger\n  UFP heavy cruiser:\n",
                "  # closing\n\n  # last\n",
            ),
        };
        for kept in [ships, flagship, closing] {
            assert!(bundle.contains(kept), "{kept:?} in\n{bundle}");
        }
    }
}

#[test]
fn a_blank_line_above_a_comment_group_stays_and_blank_lines_at_the_edges_go() {
    let messy =
        "\n\n# top\n\n\nname = x\n\n# a\n\n\n# b\nversion = \"1.0.0\"\nships {\n\n  # c\n  \
                 \"UFP frigate\" { shields = 1 }\n\n  # d\n\n}\n";
    let f = temp_file(messy, ".rules");
    assert_eq!(
        ok(&["rules", "fmt", path(&f)]),
        "# top\n\nname = x\n\n# a\n\n# b\nversion = \"1.0.0\"\n\nships {\n\n  # c\n  \
         \"UFP frigate\" { shields = 1 }\n\n  # d\n}\n"
    );
}
