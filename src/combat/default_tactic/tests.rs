use super::chances::Chances;
use super::odds::{at_least, OddsByRolls};
use super::scene::Scene;
use super::*;
use crate::combat::hex::Hex;

#[test]
fn at_least_counts_successes_of_independent_rolls() {
    // Three rolls at 60%: at least 0, 1, 2, 3 successes.
    let odds: [f64; 4] = at_least(0.6)[3];
    let want = [1.0, 1.0 - 0.4f64.powi(3), 0.648, 0.216];
    for (got, want) in odds.iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{odds:?}");
    }
    // More rolls than the table counts: the last entry holds "that many or more".
    let capped: [f64; 2] = at_least(0.6)[3];
    assert!((capped[1] - (1.0 - 0.4f64.powi(3))).abs() < 1e-12);
}

/// Two heavy cruisers three hexes apart facing each other, shields up, mine as given.
fn facing_off(shields: [u32; 6], generator_point_given: bool, check: impl FnOnce(&View)) {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let mut enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
    (me.shields_raised, enemy.shields_raised) = (true, true);
    me.shields = shields;
    me.generator_points_given = generator_point_given as u32;
    check(&View::knowing(&ctx, 1, (&me, &class), (&enemy, &class)));
}

#[test]
fn the_shields_phase_feeds_the_face_in_the_line_of_fire_from_the_whole_ring() {
    // The generator point goes to the front (face 0, toward the enemy) first.
    facing_off([2, 4, 9, 10, 9, 4], false, |v| {
        assert_eq!(pump_shields(v), Some(ShieldOp::Reinforce { face: 0 }));
    });
    // Then the rear (face 3) feeds a face behind the front pair before the flanks feed
    // the front (the classic tactic never draws on the rear).
    facing_off([2, 4, 9, 10, 9, 4], true, |v| {
        assert_eq!(pump_shields(v), Some(ShieldOp::Transfer { from: 3, to: 2 }));
    });
    // Faces level behind the front pair: a flank gives the front a point...
    facing_off([5, 6, 6, 6, 6, 6], true, |v| {
        assert_eq!(pump_shields(v), Some(ShieldOp::Transfer { from: 1, to: 0 }));
    });
    // ...but not when that leaves it two below the front.
    facing_off([6, 4, 4, 4, 4, 4], true, |v| {
        assert_eq!(pump_shields(v), None);
    });
}

#[test]
fn the_shields_phase_feeds_the_face_toward_where_the_enemy_drifts_to() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    // The enemy a hex ahead, moving across my bow: its inertia carries it off my front
    // face, to my front-left one, before it fires.
    let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let enemy = ShipState::new(&class, &ctx, Hex::new(1, 0), 2);
    me.shields_raised = true;
    me.shields = [5; 6];
    let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
    let next = hex::face_hit(me.pos, Hex::new(1, -1), &me.shields);
    assert_eq!(v.my_face_toward_enemy(), 0);
    assert_eq!(next, 1);
    assert_eq!(pump_shields(&v), Some(ShieldOp::Reinforce { face: next }));
    // Heading into my hex, it is met with the face toward where it is.
    let enemy = ShipState::new(&class, &ctx, Hex::new(1, 0), 3);
    let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
    assert_eq!(pump_shields(&v), Some(ShieldOp::Reinforce { face: 0 }));
}

#[test]
fn repair_teams_mend_the_hull_first_even_when_it_is_only_lightly_damaged() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
    me.energy = class.generator;
    // Phasers damaged (7 of a large track's 5), the hull lightly (2).
    me.damage[Loc::Phasers as usize] = 7;
    me.damage[Loc::Hull as usize] = 2;
    let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
    let tactic = DefaultTactic::of(&rules).unwrap();
    assert_eq!(tactic.repair(&v, 0), Some(RepairJob::Location(Loc::Hull)));
    // The classic order puts a damaged fighting system before a lightly damaged hull.
    let classic = ClassicTactic::default();
    assert_eq!(
        classic.repair(&v, 0),
        Some(RepairJob::Location(Loc::Phasers))
    );
    // With the hull whole, the classic order decides.
    me.damage[Loc::Hull as usize] = 0;
    let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
    assert_eq!(
        tactic.repair(&v, 0),
        Some(RepairJob::Location(Loc::Phasers))
    );
}

#[test]
fn a_ship_with_free_turns_weighs_the_next_turn_with_its_own_share() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let knobs = TacticRules::of(&rules).unwrap();
    let w = &knobs.weights;
    assert!(w.next_turn_nimble < w.next_turn);
    let share = |name: &str| {
        let class = ctx.class(&rules, name).unwrap();
        let me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let enemy = ShipState::new(&class, &ctx, Hex::new(4, 0), 3);
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        let chances = Chances::default();
        let (mut mine, mut theirs) = (OddsByRolls::default(), OddsByRolls::default());
        let odds = (&chances, &mut mine, &mut theirs);
        (
            class.maneuverability,
            Scene::new(&v, &knobs, odds, (3, true)).next_turn,
        )
    };
    // The heavy cruiser pays for every turn; the frigate has two free ones a move.
    assert_eq!(share("UFP heavy cruiser"), (0, w.next_turn));
    assert_eq!(share("UFP frigate"), (2, w.next_turn_nimble));
}

/// What `look` reads off the scene of two heavy cruisers on turn 2, the enemy three hexes
/// ahead heading at me (its inertia takes it to (2, 0), where mine takes me from (1, 0)),
/// with the built-in style changed by `edit`.
fn head_on<T>(edit: impl FnOnce(&mut TacticRules), look: impl FnOnce(&Scene) -> T) -> T {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
    let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
    let mut knobs = TacticRules::of(&rules).unwrap();
    edit(&mut knobs);
    let chances = Chances::default();
    let (mut mine, mut theirs) = (OddsByRolls::default(), OddsByRolls::default());
    let scene = Scene::new(&v, &knobs, (&chances, &mut mine, &mut theirs), (3, true));
    assert_eq!(scene.enemy_next, Hex::new(2, 0));
    look(&scene)
}

#[test]
fn next_turns_drift_into_the_enemy_and_distance_cost_only_their_own_weights() {
    let value = |drift: f64, enemy_hex: f64, off_range_next: f64| {
        let edit = |k: &mut TacticRules| {
            k.preferred_range = 2;
            let w = &mut k.weights;
            (w.drift_into_enemy, w.enemy_hex, w.off_range_next) =
                (drift, enemy_hex, off_range_next);
        };
        head_on(edit, |scene| {
            let at = Hex::new(1, 0);
            let h = scene.hex(at, false);
            (scene.next_turn, scene.facing(at, &h, 0, false).with_shot)
        })
    };
    let (share, base) = value(0.0, 20.0, 0.0);
    // The drift costs its weight times the next turn's share, and the weight for ending
    // in the enemy's hex (it does not end there) costs nothing.
    let (_, drifting) = value(20.0, 20.0, 0.0);
    assert!(
        (base - drifting - share * 20.0).abs() < 1e-9,
        "{base} {drifting}"
    );
    assert_eq!(value(0.0, 0.0, 0.0).1, base);
    // Next turn it would be 0 hexes off, 2 short of a preferred range of 2: off_range_next
    // costs 2 hexes' worth, times the share.
    let (_, short) = value(0.0, 20.0, 3.0);
    assert!(
        (base - short - share * 3.0 * 2.0).abs() < 1e-9,
        "{base} {short}"
    );
    // The built-in style holds neither the drift nor next turn's distance against it.
    let knobs = head_on(|_| {}, |scene| scene.k.clone());
    assert_eq!(knobs.weights.drift_into_enemy, 0.0);
    assert_eq!(knobs.weights.off_range_next, 0.0);
    assert!(knobs.weights.enemy_hex > 0.0);
}

#[test]
fn ending_where_the_enemy_s_inertia_takes_it_costs_in_enemy_path() {
    let value = |in_enemy_path: f64, at: Hex| {
        let edit = |k: &mut TacticRules| k.weights.in_enemy_path = in_enemy_path;
        head_on(edit, |scene| scene.hex(at, false).value)
    };
    // On the enemy's path it costs the weight; a hex short of it, nothing.
    let path = Hex::new(2, 0);
    assert!((value(0.0, path) - value(20.0, path) - 20.0).abs() < 1e-9);
    assert_eq!(value(0.0, Hex::new(1, 0)), value(20.0, Hex::new(1, 0)));
    // The built-in style counts it as much as ending in the enemy's hex.
    let w = head_on(|_| {}, |scene| scene.k.weights.clone());
    assert_eq!(w.in_enemy_path, w.enemy_hex);
}

/// How far from the enemy the plan made on turn 3 ends: two battle cruisers, the enemy five
/// hexes dead ahead heading across toward me (facing 4), shields up, seen and not cloaked.
fn planned_end(knobs: impl FnOnce(&mut TacticRules), me_cloaked: bool) -> u32 {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let mut enemy = ShipState::new(&class, &ctx, Hex::new(5, 0), 4);
    (me.shields_raised, enemy.shields_raised) = (true, true);
    me.energy = class.generator;
    // Cloaked on turn 2: two turns hidden by turn 3, far from the bound.
    (me.cloaked, me.cloak_switched) = (me_cloaked, if me_cloaked { 2 } else { 0 });
    if me_cloaked {
        // Hiding to mend its shields (whole again, it closes to strike).
        me.shields = [2; 6];
    }
    let mut tactic = DefaultTactic::of(&rules).unwrap();
    knobs(&mut tactic.knobs);
    let v = View::knowing(&ctx, 3, (&me, &class), (&enemy, &class));
    let mut memory = super::super::tactics::Memory::default();
    let action = tactic.next_action(&v, &mut memory);
    assert!(matches!(action, Action::Move(_)), "{action:?}");
    let plan = &memory.default_mind.plan;
    plan.route.end().pos.distance(enemy.pos)
}

#[test]
fn hidden_it_stands_off_so_the_enemy_moving_first_after_it_decloaks_is_not_close_in() {
    let (pref, off) = {
        let t = TacticRules::of(&crate::rules::load::load("startrek").unwrap()).unwrap();
        (t.preferred_range, t.cloak.stand_off)
    };
    assert!(off > 0);
    // Seen, it closes on the enemy.
    let seen = planned_end(|_| {}, false);
    assert!((pref..5).contains(&seen), "{seen}");
    // Cloaked, it keeps its distance instead: the enemy cannot answer a maneuver while it is
    // hidden, but moves first once it decloaks. (Head-on with the enemy on its torpedo line
    // it may keep the line instead: that is worth more than a hex of stand-off.)
    let hidden = planned_end(|_| {}, true);
    assert!((5..=pref + off).contains(&hidden), "{hidden}");
    // Without the stand-off it closes while cloaked as well.
    let near = planned_end(|k| k.cloak.stand_off = 0, true);
    assert!(near < 5, "{near}");
}

#[test]
fn a_long_torpedo_at_a_strong_face_waits_unless_the_enemy_can_cloak() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let tactic = DefaultTactic::of(&rules).unwrap();
    let gorn = ctx.class(&rules, "Gorn attack cruiser").unwrap();
    // No energy nor battery (no phasers, no maneuvers; a photon costs none), the enemy `d`
    // hexes straight ahead facing me with its shields up, the face toward me at `face`.
    let launches = |enemy_name: &str, d: i32, face: Option<u32>| {
        let class = ctx.class(&rules, enemy_name).unwrap();
        let mut me = ShipState::new(&gorn, &ctx, Hex::new(0, 0), 0);
        let mut enemy = ShipState::new(&class, &ctx, Hex::new(d, 0), 3);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        (me.energy, me.battery) = (0, 0);
        let toward = hex::face_hit(enemy.pos, me.pos, &enemy.shields) as usize;
        if let Some(f) = face {
            enemy.shields[toward] = f;
        }
        let v = View::knowing(&ctx, 3, (&me, &gorn), (&enemy, &class));
        assert!(v.can_launch().is_ok());
        let through = v.torpedo_chance_from(me.pos);
        let harm = torpedo_harm(&v, through);
        let action = tactic.next_action(&v, &mut Memory::default());
        (matches!(action, Action::Torpedo), through, harm)
    };
    // 5D6 beyond a full face of 8: 9.5 + (3·1 + 2·5 + 1·15) / 7776 (rolls of 5 to 7).
    let beyond = 9.5 + 28.0 / 7776.0;
    let (close, through, harm) = launches("Gorn attack cruiser", 2, None);
    assert!((harm - through * beyond).abs() < 1e-9, "{harm}");
    assert!(
        close && harm >= tactic.knobs.min_torpedo_damage,
        "{close} {harm}"
    );
    // Eight hexes off it is dodged often enough to fall below the least harm...
    let (far, through, harm) = launches("Gorn attack cruiser", 8, None);
    assert!(through >= tactic.knobs.min_torpedo_chance, "{through}");
    assert!(harm < tactic.knobs.min_torpedo_damage, "{harm}");
    assert!(!far);
    // ...but not at a face already down,
    let (at_a_hole, _, harm) = launches("Gorn attack cruiser", 8, Some(0));
    assert!((harm - through * 17.5).abs() < 1e-9, "{harm}");
    assert!(at_a_hole);
    // nor at an enemy that could cloak before a closer shot comes.
    assert!(launches("Klingon battle cruiser", 8, None).0);
}

#[test]
fn one_hit_from_breaking_it_fights_on_only_against_an_enemy_with_free_turns() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let tactic = DefaultTactic::of(&rules).unwrap();
    // Hull badly damaged, `left` points from breaking, every shield at `shield`; the enemy
    // three hexes ahead, `enemy_left` points from breaking (None: undamaged).
    let flees_from = |name: &str, enemy_name: &str, left: u32, shield: u32, enemy_left| {
        let class = ctx.class(&rules, name).unwrap();
        let enemy_class = ctx.class(&rules, enemy_name).unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let mut enemy = ShipState::new(&enemy_class, &ctx, Hex::new(3, 0), 3);
        if let Some(l) = enemy_left {
            enemy.damage[Loc::Hull as usize] = enemy_class.track.excess - l;
        }
        me.shields_raised = true;
        me.shields = [shield; 6];
        me.damage[Loc::Hull as usize] = class.track.excess - left;
        let v = View::knowing(&ctx, 5, (&me, &class), (&enemy, &enemy_class));
        assert_eq!(v.my_condition(Loc::Hull), Condition::BadlyDamaged);
        tactic.fleeing(&v)
    };
    let flees = |name, enemy_name, left, shield| flees_from(name, enemy_name, left, shield, None);
    // The frigate (two free turns) carries photon torpedoes (5D6, 17.5, counted as 18): a
    // heavy cruiser's full face (10) stops 20 of one, so with 3 points left it breaks off; a
    // face of 8 lets 2 through, which 2 points left still take (a track breaks only beyond
    // its last point)...
    assert!(flees("UFP heavy cruiser", "UFP frigate", 3, 10));
    assert!(flees("UFP heavy cruiser", "UFP frigate", 2, 8));
    // ...but not 1: the frigate would turn after it and fire anyway.
    assert!(!flees("UFP heavy cruiser", "UFP frigate", 1, 8));
    // Another heavy cruiser pays for every turn: one hit from breaking, it still runs off.
    assert!(flees("UFP heavy cruiser", "UFP heavy cruiser", 1, 8));
    // A pirate frigate's full face (5) lets 8 of a pirate frigate's torpedo through: with 2
    // points left, turning away would not save it, so it fights on.
    assert!(!flees("Pirate frigate", "Pirate frigate", 2, 5));
    // Nor does it break off from an enemy nearer its end than itself.
    let cruiser = "UFP heavy cruiser";
    assert!(flees_from(cruiser, cruiser, 3, 10, Some(3)));
    assert!(!flees_from(cruiser, cruiser, 3, 10, Some(2)));
}

#[test]
fn the_same_seed_gives_the_same_battles_on_any_thread_count() {
    let rules = crate::rules::load::load("startrek").unwrap();
    let t = DefaultTactic::of(&rules).unwrap();
    let run = |threads| {
        let opts = crate::combat::sim::SimOptions {
            threads: Some(threads),
            ..crate::combat::sim::SimOptions::new("Klingon battle cruiser", "UFP frigate", 600, 5)
        };
        crate::combat::sim::simulate_with(&rules, &opts, [&t, &t], &|_| {}).unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    assert!(one.a.wins + one.b.wins > 0);
}

#[test]
fn it_cloaks_to_mend_a_downed_face_only_while_it_has_a_torpedo_for_the_strike() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let enemy_class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let tactic = DefaultTactic::of(&rules).unwrap();
    // Turn 5, eight hexes apart facing away from each other (out of each other's arcs),
    // its face toward the enemy down to 0.
    let cloaks = |torpedoes: u32, shields: [u32; 6]| {
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 3);
        let mut enemy = ShipState::new(&enemy_class, &ctx, Hex::new(8, 0), 0);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        me.energy = class.generator;
        me.torpedoes = torpedoes;
        me.shields = shields;
        let v = View::knowing(&ctx, 5, (&me, &class), (&enemy, &enemy_class));
        tactic.activation(&v).cloak
    };
    assert!(cloaks(3, [0; 6]));
    // No torpedo left: hiding gives both ships the same respite, so it fights on.
    assert!(!cloaks(0, [0; 6]));
    // Shields whole: nothing to mend.
    assert!(!cloaks(3, [9; 6]));
}

#[test]
fn against_an_enemy_that_can_cloak_it_hides_with_no_torpedo_left_and_again_at_once() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let tactic = DefaultTactic::of(&rules).unwrap();
    // Turn 5, eight hexes apart facing away from each other, every face down to 0, no
    // torpedo left; `decloaked`: the turn it last dropped its cloak.
    let cloaks = |enemy_name: &str, decloaked: u32| {
        let enemy_class = ctx.class(&rules, enemy_name).unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 3);
        let mut enemy = ShipState::new(&enemy_class, &ctx, Hex::new(8, 0), 0);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        me.energy = class.generator;
        me.torpedoes = 0;
        me.shields = [0; 6];
        me.cloak_switched = decloaked;
        let v = View::knowing(&ctx, 5, (&me, &class), (&enemy, &enemy_class));
        tactic.activation(&v).cloak
    };
    // Against a heavy cruiser it fights on (both would only mend), and rests after an
    // episode; against a cloaker it hides, also the turn after it decloaked.
    assert!(!cloaks("UFP heavy cruiser", 0));
    assert!(cloaks("Klingon battle cruiser", 0));
    assert!(cloaks("Klingon battle cruiser", 4));
    // The longer episode: 20 turns against a cloaker, 10 otherwise (startrek.rules).
    assert_eq!(tactic.knobs.cloak.max_turns_against_cloak, 20);
    assert_eq!(tactic.knobs.cloak.max_turns, 10);
}

/// Energy a ship spends on maneuvers in one turn when every one of them fails (the enemy
/// five hexes ahead facing away, the plan a few moves long), with `engines` points of damage.
fn spent_when_every_maneuver_fails(name: &str, engines: u32) -> (u32, u32) {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let class = ctx.class(&rules, name).unwrap();
    let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
    let mut enemy = ShipState::new(&class, &ctx, Hex::new(5, 0), 4);
    (me.shields_raised, enemy.shields_raised) = (true, true);
    me.energy = class.generator;
    me.damage[Loc::Engines as usize] = engines;
    let tactic = DefaultTactic::of(&rules).unwrap();
    let mut memory = super::super::tactics::Memory::default();
    for _ in 0..20 {
        let v = View::knowing(&ctx, 3, (&me, &class), (&enemy, &class));
        let Action::Move(m) = tactic.next_action(&v, &mut memory) else {
            break;
        };
        // The maneuver fails: its energy is spent, the ship stays where it was.
        let cost = v.maneuver_cost(m);
        assert!(me.spend(cost));
        me.maneuver_energy += cost;
    }
    (me.maneuver_energy, class.max_speed)
}

#[test]
fn it_finishes_a_plan_its_failed_maneuvers_left_undone_beyond_maximum_speed() {
    // "Velocidad máxima ... Si se supera, se debe hacer una tirada de Motores con una
    // penalización del 10% por punto que se sobrepase" (R3): the heavy cruiser (maximum
    // speed 3) goes on past it, at most `overspeed.most_points` (6) over.
    let (spent, max_speed) = spent_when_every_maneuver_fails("UFP heavy cruiser", 0);
    assert!(spent > max_speed && spent <= max_speed + 6, "{spent}");
    // With 1 point on its engines a failed roll's mean 1D6 (3.5) still leaves them short of
    // damaged (beyond 5); with 2 it would not, and it stops at maximum speed.
    assert!(spent_when_every_maneuver_fails("UFP heavy cruiser", 1).0 > max_speed);
    assert_eq!(
        spent_when_every_maneuver_fails("UFP heavy cruiser", 2).0,
        max_speed
    );
    // A small ship's engines are damaged beyond 3: it never goes over.
    let (spent, max_speed) = spent_when_every_maneuver_fails("UFP frigate", 0);
    assert!(spent <= max_speed, "{spent}");
}

#[test]
fn it_breaks_off_within_a_share_of_its_damage_track() {
    use crate::combat::context::Context;
    use crate::combat::ship::ShipState;
    let rules = crate::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let tactic = DefaultTactic::of(&rules).unwrap();
    assert_eq!(tactic.knobs.flee.margin_share, 0.5);
    // Engines `left` points from breaking, against an undamaged heavy cruiser.
    let flees = |name: &str, left: u32| {
        let class = ctx.class(&rules, name).unwrap();
        let enemy_class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let enemy = ShipState::new(&enemy_class, &ctx, Hex::new(3, 0), 3);
        me.damage[Loc::Engines as usize] = class.track.excess - left;
        let v = View::knowing(&ctx, 5, (&me, &class), (&enemy, &enemy_class));
        tactic.fleeing(&v)
    };
    // A large ship's track breaks beyond 15: half of it is 7.5 points.
    assert!(flees("UFP heavy cruiser", 7));
    assert!(!flees("UFP heavy cruiser", 8));
    // A medium one's beyond 12: 6 points, not the 8 a count of points would give.
    assert!(flees("UFP light cruiser", 6));
    assert!(!flees("UFP light cruiser", 7));
}
