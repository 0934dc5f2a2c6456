//! `arbiter dice`: exact distributions by convolution.
use crate::common::*;

fn dist(expr: &str) -> serde_json::Value {
    json(&["dice", expr])
}

#[test]
fn three_d6_is_exact() {
    let d = dist("3D6");
    assert_eq!(d["min"], 3);
    assert_eq!(d["max"], 18);
    assert_eq!(d["mean"], 10.5);
    // Ways to roll each total with 3D6, out of 216.
    let ways = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    for (i, w) in ways.iter().enumerate() {
        let p = d["distribution"][(i + 3).to_string()].as_f64().unwrap();
        assert!((p - *w as f64 / 216.0).abs() < 1e-15, "P({}) = {p}", i + 3);
    }
}

#[test]
fn d100_is_uniform() {
    let d = dist("D100");
    assert_eq!(d["min"], 1);
    assert_eq!(d["max"], 100);
    assert_eq!(d["distribution"].as_object().unwrap().len(), 100);
    assert!((d["distribution"]["37"].as_f64().unwrap() - 0.01).abs() < 1e-15);
}

#[test]
fn constants_negatives_and_mixed_dice() {
    let d = dist("4D6-2");
    assert_eq!((d["min"].as_i64(), d["max"].as_i64()), (Some(2), Some(22)));
    assert!((d["mean"].as_f64().unwrap() - 12.0).abs() < 1e-12);
    // 2D6+1D3: P(total 3) = P(1,1,1) = 1/108; P(15) = 1/108; P(9) by hand = (5 + 6 + 5)/108.
    let d = dist("2D6+1D3");
    assert_eq!((d["min"].as_i64(), d["max"].as_i64()), (Some(3), Some(15)));
    let p = |k: &str| d["distribution"][k].as_f64().unwrap();
    assert!((p("3") - 1.0 / 108.0).abs() < 1e-15);
    assert!((p("15") - 1.0 / 108.0).abs() < 1e-15);
    assert!((p("9") - 16.0 / 108.0).abs() < 1e-15);
    let d = dist("1D6-1D6");
    assert_eq!((d["min"].as_i64(), d["max"].as_i64()), (Some(-5), Some(5)));
    assert!((d["distribution"]["0"].as_f64().unwrap() - 6.0 / 36.0).abs() < 1e-15);
}

#[test]
fn the_distribution_sums_to_one() {
    for e in ["3D6", "10D10", "2D6+1", "D4-D8+3"] {
        let d = dist(e);
        let total: f64 = d["distribution"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{e}: {total}");
    }
}

#[test]
fn the_table_has_a_bar_chart() {
    let out = ok(&["dice", "2D6"]);
    assert!(out.contains("2D6: 2..12, mean 7"), "{out}");
    let seven = out
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .unwrap();
    assert!(
        // 6/36 and, at least 7, 21/36: one decimal.
        seven.split_whitespace().take(3).collect::<Vec<_>>() == ["7", "16.7%", "58.3%"]
            && seven.ends_with(&"#".repeat(40)),
        "{seven}"
    );
}

#[test]
fn too_large_or_malformed_dice_fail_fast_and_clearly() {
    let err = fails(&["dice", "100000D100"]);
    assert!(err.contains("too large to enumerate"), "{err}");
    let err = fails(&["dice", "99999999999D6"]);
    assert!(err.contains("too many"), "{err}");
    let err = fails(&["dice", "3D"]);
    assert!(err.contains("not dice notation"), "{err}");
    let err = fails(&["dice", "3D0"]);
    assert!(err.contains("at least one side"), "{err}");
    let err = fails(&["dice", "3D6/3D3"]);
    assert!(err.contains("pair"), "{err}");
}

#[test]
fn a_chance_too_small_for_one_decimal_is_not_shown_as_none() {
    // 10D6: 10 and 60 each have 1/6^10 (1.7e-8); at least 11 is 1 - 1/6^10.
    let out = ok(&["dice", "10D6"]);
    let row = |total: &str| {
        out.lines()
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>())
            .find(|w| w.first() == Some(&total))
            .unwrap_or_else(|| panic!("no {total} in {out}"))
    };
    assert_eq!(row("10"), ["10", "<0.1%", "100.0%"]);
    assert_eq!(row("11"), ["11", "<0.1%", ">99.9%"]);
    assert_eq!(row("60"), ["60", "<0.1%", "<0.1%"]);
    // 35 is the most likely total: 4395456 of 6^10 ways, 7.3%.
    assert_eq!(row("35")[1], "7.3%");
}
