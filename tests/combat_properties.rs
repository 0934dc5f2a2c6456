//! Properties of the combat engine that must hold for any input: hex geometry, the shield
//! rule, volley odds, and simulation bookkeeping.
use arbiter::combat::damage::shield_absorb;
use arbiter::combat::hex::{face_hit, faces_toward, in_phaser_arc, in_torpedo_line, Hex};
use arbiter::combat::{
    sim::{simulate, SimOptions},
    volley::{volley, Shot},
};
use proptest::prelude::*;

fn hex() -> impl Strategy<Value = Hex> {
    (-25i32..=25, -25i32..=25).prop_map(|(q, r)| Hex { q, r })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn distance_is_a_metric(a in hex(), b in hex(), c in hex()) {
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert_eq!(a.distance(a), 0);
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
        for d in 0..6u8 {
            prop_assert_eq!(a.neighbour(d).distance(a), 1);
        }
    }

    #[test]
    fn the_phaser_arc_widens_by_two_hexes_a_row(from in hex(), facing in 0u8..6, d in 1u32..8) {
        // Ruling: 1, 3, 5, ... hexes at distance 1, 2, 3, ...
        let mut count = 0;
        for q in -10i32..=10 {
            for r in -10i32..=10 {
                let t = Hex { q: from.q + q, r: from.r + r };
                if t.distance(from) == d && in_phaser_arc(from, facing, t) {
                    count += 1;
                }
            }
        }
        prop_assert_eq!(count, 2 * d - 1);
    }

    #[test]
    fn the_torpedo_line_is_inside_the_phaser_arc(from in hex(), facing in 0u8..6, t in hex()) {
        if t != from && in_torpedo_line(from, facing, t) {
            prop_assert!(in_phaser_arc(from, facing, t));
        }
    }

    #[test]
    fn the_face_hit_is_one_of_six_and_the_stronger_at_a_vertex(target in hex(), attacker in hex(), shields in proptest::array::uniform6(0u32..=10)) {
        prop_assume!(target != attacker);
        let face = face_hit(target, attacker, &shields);
        prop_assert!(face < 6);
        let (a, b) = faces_toward(target, attacker);
        match b {
            None => prop_assert_eq!(face, a),
            Some(b) => {
                prop_assert!(face == a || face == b);
                prop_assert_eq!(shields[face as usize], shields[a as usize].max(shields[b as usize]));
                prop_assert!((a + 1) % 6 == b || (b + 1) % 6 == a, "a vertex joins adjacent faces");
            }
        }
        // The face points at the attacker: one step out of it gets no farther from the attacker.
        let out = target.neighbour(face);
        prop_assert!(out.distance(attacker) < target.distance(attacker));
        // Seen from the attacker's side, the same line crosses the opposite face.
        let (back, _) = faces_toward(attacker, target);
        if b.is_none() {
            prop_assert_eq!(back, (a + 3) % 6);
        }
    }

    #[test]
    fn shields_absorb_then_lower_then_pass(face in 0u32..=10, damage in 0u32..=60) {
        let (left, through) = shield_absorb(face, damage);
        prop_assert!(left <= face);
        prop_assert_eq!(through, damage.saturating_sub(2 * face));
        if damage <= face {
            prop_assert_eq!((left, through), (face, 0));
        }
        // What the face stopped plus what it lost plus what went on is the damage, until it breaks.
        if through > 0 {
            prop_assert_eq!(left, 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn volley_odds_are_probabilities(range in 1u32..=10, dice in 1u32..=4, torpedo in any::<bool>()) {
        let rules = arbiter::rules::load::load("startrek").unwrap();
        let shot = if torpedo { Shot::Torpedo } else { Shot::Phasers { dice } };
        let Ok(v) = volley(&rules, "UFP heavy cruiser", "Klingon battle cruiser", range, shot) else { return Ok(()) };
        for p in [v.hit_chance, v.internal_chance] {
            prop_assert!((0.0..=1.0).contains(&p), "{p}");
        }
        prop_assert!(v.internal_chance <= v.hit_chance + 1e-12);
        prop_assert!(v.expected_shield_loss >= 0.0 && v.expected_shield_loss <= v.shield as f64 + 1e-9);
        prop_assert!(v.expected_internal >= 0.0 && v.expected_internal <= v.expected_damage + 1e-9);
    }

    #[test]
    fn every_battle_ends_exactly_one_way(seed in any::<u64>(), pair in 0usize..4) {
        let rules = arbiter::rules::load::load("startrek").unwrap();
        let ships = [("UFP frigate", "Pirate frigate"), ("Klingon bird of prey", "UFP destroyer"), ("Transport", "Romulan bird of prey"), ("UFP light cruiser", "Gorn attack cruiser")][pair];
        let opts = SimOptions { threads: Some(1), ..SimOptions::new(ships.0, ships.1, 20, seed) };
        let r = simulate(&rules, &opts).unwrap();
        prop_assert_eq!(r.battles, 20);
        // Each battle: one side wins, or it is a draw at the turn limit, or a ship escaped.
        prop_assert_eq!(r.a.wins + r.b.wins + r.draws + r.escapes - (r.a.escaped + r.b.escaped - r.escapes), 20);
        prop_assert_eq!(r.a.wins, r.b.destroyed + r.b.captured);
        prop_assert_eq!(r.b.wins, r.a.destroyed + r.a.captured);
        prop_assert!(r.mean_turns >= 1.0 && r.mean_turns <= r.turn_limit as f64);
        prop_assert!(r.a.ci95[0] <= r.a.win_rate && r.a.win_rate <= r.a.ci95[1]);
    }
}
