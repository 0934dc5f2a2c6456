//! The score ladders treat equal scores equally: the Advanced Civilization pot shares its
//! remainder among whole groups of equal scores and takes nothing back, FIGF refuses a
//! negative total, and `--vs` refuses two systems whose points are on different scales.
use crate::common::*;

fn points(args: &[&str]) -> Vec<i64> {
    let mut a = vec!["score", "--rules", "advciv"];
    a.extend_from_slice(args);
    let v = json(&a);
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .collect()
}

#[test]
fn the_sources_table_still_comes_out_digit_for_digit() {
    let p = points(&[
        "Illyria=5042",
        "Crete=3791",
        "Egypt=3789",
        "Africa=3211",
        "Babylon=3183",
        "Assyria=2878",
        "Iberia=1807",
    ]);
    assert_eq!(p, [206, 127, 125, 88, 87, 67, 0]);
}

#[test]
fn seven_equal_leaders_and_a_remainder_they_cannot_share() {
    // Rounded shares (14.3% each) would pay 1001 of 1000: the exact shares are paid, 142
    // each. The 6 points left cannot go to the seven leaders whole, and the three at the
    // lowest score took no share and take no remainder (the spec: top first): by the
    // spec's ruling on equal scores, the first six listed get one each, and a note says so.
    let mut args: Vec<String> = (1..=7).map(|i| format!("L{i}=9")).collect();
    args.extend(["X=1".into(), "Y=1".into(), "Z=1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let p = points(&args);
    assert_eq!(p, [143, 143, 143, 143, 143, 143, 142, 0, 0, 0]);
    assert_eq!(p.iter().sum::<i64>(), 1000);
    let mut full = vec!["score", "--rules", "advciv"];
    full.extend(args.iter().copied());
    let text = ok(&full);
    assert!(
        text.contains("one point each to L1, L2, L3, L4, L5, L6"),
        "{text}"
    );
}

#[test]
fn a_tie_does_not_split_by_listing_order() {
    // Floors 233, 233, 77, 77, 77: 3 points left; the tied leaders cannot share 3, the three
    // tied at 2 can. Listing the tied players the other way round changes nothing.
    let a = points(&["A=4", "B=4", "C=2", "D=2", "E=2", "F=1", "G=1"]);
    assert_eq!(a, [233, 233, 78, 78, 78, 0, 0]);
    let b = points(&["B=4", "A=4", "E=2", "D=2", "C=2", "G=1", "F=1"]);
    assert_eq!(b, a);
    // Two equal leaders and one more player: 2000, 2000, 1000 → 150 each, 0.
    assert_eq!(points(&["A=2000", "B=2000", "C=1000"]), [150, 150, 0]);
}

#[test]
fn figf_refuses_a_negative_total() {
    let e = fails(&["score", "--rules", "figf", "A=7500", "B=-1", "C=6600"]);
    assert!(e.contains("`B` has a negative total (-1)"), "{e}");
    // The worked example is untouched.
    let v = json(&["score", "--rules", "figf", "A=7500", "B=7200", "C=6600"]);
    let p: Vec<i64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .collect();
    assert_eq!(p, [2040, 960, 880]);
}

#[test]
fn vs_between_different_scales_is_refused_with_a_reason() {
    let e = fails(&[
        "score", "--rules", "figf", "--vs", "advciv", "A=7500", "B=7200",
    ]);
    assert!(
        e.contains("the two scales do not compare point for point"),
        "{e}"
    );
    // The same system twice still compares.
    ok(&[
        "score", "--rules", "advciv", "--vs", "advciv", "A=7500", "B=7200",
    ]);
}
