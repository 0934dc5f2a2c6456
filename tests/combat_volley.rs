//! `combat volley`: exact values against brute-force enumeration of every die.
use crate::common::*;

/// Every way `n` dice of `sides` faces can fall, as sums with their counts.
fn sums(n: u32, sides: u32) -> Vec<(i64, f64)> {
    let mut dist = vec![(0i64, 1.0f64)];
    for _ in 0..n {
        let mut next = Vec::new();
        for (s, p) in &dist {
            for f in 1..=sides as i64 {
                next.push((s + f, p / sides as f64));
            }
        }
        dist = next;
    }
    dist
}

/// (expected shield loss, chance of internal damage, expected internal) given a hit, by brute force.
fn given_hit(damage: &[(i64, f64)], shield: i64, hull: &[(i64, f64)]) -> (f64, f64, f64) {
    let (mut loss, mut chance, mut internal) = (0.0, 0.0, 0.0);
    for (x, p) in damage {
        let x = (*x).max(0);
        let over = (x - shield).max(0);
        let face = (shield - over).max(0);
        loss += p * (shield - face) as f64;
        let to_hull = (x - 2 * shield).max(0);
        for (h, q) in hull {
            let inside = to_hull - h;
            if to_hull > 0 && inside > 0 {
                chance += p * q;
                internal += p * q * inside as f64;
            }
        }
    }
    (loss, chance, internal)
}

fn close(a: f64, b: f64) -> bool {
    // Exact up to the rounding of summing ~10^6 products.
    (a - b).abs() < 1e-9
}

#[test]
fn phaser_volley_matches_enumeration() {
    let d = json(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--range",
        "5",
        "--dice",
        "4",
    ]);
    for key in [
        "hit_chance",
        "expected_shield_loss",
        "internal_chance",
        "expected_internal",
    ] {
        assert!(d[key].is_number(), "{key} missing: {d}");
    }
    // Gunnery 60 − 5·5 = 35%.
    let hit = 0.35;
    assert!(close(d["hit_chance"].as_f64().unwrap(), hit));
    let (loss, chance, internal) = given_hit(&sums(4, 6), 9, &sums(3, 6));
    assert!(
        close(d["expected_shield_loss"].as_f64().unwrap(), hit * loss),
        "{d}"
    );
    assert!(
        close(d["internal_chance"].as_f64().unwrap(), hit * chance),
        "{d}"
    );
    assert!(
        close(d["expected_internal"].as_f64().unwrap(), hit * internal),
        "{d}"
    );
    // Only 4D6 of 23 or 24 beats 2·9 + 3D6 ≥ 21: (5 + 1)/1296 outcomes ... checked above; it is rare but not zero.
    assert!(d["internal_chance"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_hand_computed_volley() {
    // One die at range 1 on a transport (shield 4): hit 55%; a 5 takes 1 off the face, a 6 takes 2:
    // expected loss 0.55 · 3/6 = 0.275; nothing reaches the hull (6 < 2·4).
    let d = json(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Transport",
        "--range",
        "1",
        "--dice",
        "1",
    ]);
    assert!(close(d["hit_chance"].as_f64().unwrap(), 0.55));
    assert!(close(d["expected_shield_loss"].as_f64().unwrap(), 0.275));
    assert_eq!(d["internal_chance"].as_f64().unwrap(), 0.0);
    assert_eq!(d["expected_internal"].as_f64().unwrap(), 0.0);
}

#[test]
fn photon_torpedo_matches_enumeration() {
    let d = json(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--range",
        "3",
        "--torpedo",
    ]);
    // Dodged on a special Piloting success (12 or less) on any of 3 rolls.
    let hit = 0.88f64.powi(3);
    assert!(close(d["hit_chance"].as_f64().unwrap(), hit));
    let (loss, chance, internal) = given_hit(&sums(5, 6), 9, &sums(3, 6));
    assert!(close(
        d["expected_shield_loss"].as_f64().unwrap(),
        hit * loss
    ));
    assert!(close(d["internal_chance"].as_f64().unwrap(), hit * chance));
    assert!(close(
        d["expected_internal"].as_f64().unwrap(),
        hit * internal
    ));
}

#[test]
fn plasma_torpedo_loses_two_per_hex() {
    let d = json(&[
        "combat",
        "volley",
        "Ave de presa romulana",
        "Fragata de la UFP",
        "--range",
        "2",
        "--torpedo",
    ]);
    assert_eq!(d["shot"], "plasma torpedo");
    let hit = 0.88f64.powi(2);
    let damage: Vec<(i64, f64)> = sums(6, 6).into_iter().map(|(x, p)| (x - 4, p)).collect();
    let (loss, chance, internal) = given_hit(&damage, 6, &sums(2, 6));
    assert!(close(d["hit_chance"].as_f64().unwrap(), hit));
    assert!(close(
        d["expected_shield_loss"].as_f64().unwrap(),
        hit * loss
    ));
    assert!(close(d["internal_chance"].as_f64().unwrap(), hit * chance));
    assert!(close(
        d["expected_internal"].as_f64().unwrap(),
        hit * internal
    ));
}

#[test]
fn volley_refuses_what_the_rules_do_not_allow() {
    assert!(fails(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Transport",
        "--range",
        "11"
    ])
    .contains("range"));
    assert!(fails(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Transport",
        "--range",
        "0"
    ])
    .contains("range"));
    assert!(fails(&[
        "combat",
        "volley",
        "UFP frigate",
        "Transport",
        "--range",
        "2",
        "--dice",
        "3"
    ])
    .contains("phaser dice"));
    assert!(fails(&[
        "combat",
        "volley",
        "Transport",
        "UFP frigate",
        "--range",
        "2",
        "--torpedo"
    ])
    .contains("no torpedoes"));
    let e = fails(&[
        "combat",
        "volley",
        "UFP heavy cruser",
        "Transport",
        "--range",
        "2",
    ]);
    assert!(
        e.contains("UFP heavy cruiser"),
        "suggests the near name: {e}"
    );
    assert!(
        fails(&["combat", "volley", "a", "b", "--range", "2", "--rules", "cep"]).contains("combat")
    );
}

#[test]
fn volley_table_for_people() {
    let out = ok(&[
        "combat",
        "volley",
        "crucero pesado de la ufp",
        "crucero de batalla klingon",
        "--range",
        "5",
    ]);
    assert!(out.contains("4D6 phasers at range 5"), "{out}");
    // Percentages have one decimal; a chance that rounds to nothing is not shown as none.
    let row = |label: &str| {
        out.lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {out}"))
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(row("hit chance"), "35.0%", "{out}");
    assert_eq!(row("special (choose location)"), "7.0%", "{out}");
    assert_eq!(row("past the hull roll"), "<0.1%", "{out}");
}
