//! The revised rulings R1–R11 (spec combat.md), each with rigged dice.
use super::*;
use crate::combat::side::{First, Side};
use crate::combat::turn::OutcomeKind;

fn refusals(b: &Battle<'_, Rigged, Recorder>) -> Vec<&'static str> {
    b.log
        .0
        .iter()
        .filter_map(|e| match e {
            Event::Refused { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

#[test]
fn r1_one_generator_point_to_the_shields_a_turn_in_all() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let tactic = Script {
        shield_ops: Mutex::new(vec![
            ShieldOp::Transfer { from: 1, to: 0 },
            ShieldOp::Transfer { from: 5, to: 0 },
            ShieldOp::Reinforce { face: 0 },
            // A second generator point, to another face: refused (it was one per face).
            ShieldOp::Reinforce { face: 2 },
        ]),
        ..Script::default()
    };
    let idle = Script::default();
    // Three Shields rolls of 10: all succeed.
    let mut b = f.battle(4, &[10, 10, 10], [&tactic, &idle]);
    b.ships[0].shields = [5; 6];
    b.ships[0].energy = 5;
    b.shields_phase(0);
    // The face gains 3 (a point from each neighbour and the generator's), no more.
    assert_eq!(b.ships[0].shields, [8, 4, 5, 5, 5, 4]);
    assert_eq!(b.ships[0].energy, 4);
    assert_eq!(
        refusals(&b),
        ["the shields had their generator point this turn"]
    );
    assert!(b.rng.exhausted());
}

#[test]
fn r2_halving_comes_after_the_range_penalty() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // Gunnery 60 at range 6, phasers damaged: (60 - 30) / 2 = 15, not 60 / 2 - 30 = 0.
    // 15 hits (four dice of 1: 4 points, all absorbed by the 9 shield); 16 misses.
    for (roll, hit) in [(15, true), (16, false)] {
        let mut rolls = vec![roll];
        if hit {
            rolls.extend([1, 1, 1, 1]);
        }
        let mut b = f.battle(6, &rolls, [&idle, &idle]);
        b.ships[0].damage[Loc::Phasers as usize] = 6;
        b.ships[0].energy = 10;
        b.fire_phasers(0, 4);
        let shot = b.log.0.iter().find_map(|e| match e {
            Event::Phasers { roll, damage, .. } => Some((roll.target, *damage)),
            _ => None,
        });
        assert_eq!(shot, Some((15, hit.then_some(4))), "roll {roll}");
        assert!(b.rng.exhausted());
    }
}

#[test]
fn r3_one_overspeed_roll_a_turn_after_the_maneuvers() {
    let f = Fixture::new("UFP destroyer", "Klingon battle cruiser");
    let moves = vec![
        Action::Move(Maneuver::Forward),
        Action::Move(Maneuver::Forward),
        Action::Move(Maneuver::Forward),
        Action::Move(Maneuver::Forward),
        Action::Move(Maneuver::Back),
    ];
    let tactic = Script {
        actions: Mutex::new(moves),
        ..Script::default()
    };
    let idle = Script::default();
    // Five Piloting rolls of 10 (1 + 1 + 1 + 1 + 2 = 6 energy, 3 over Vm 3); one Engines roll
    // at -30 (target 30): 31 fails; 1D6 = 2 to the engines.
    let mut b = f.battle(8, &[10, 10, 10, 10, 10, 31, 2], [&tactic, &idle]);
    b.ships[0].energy = 9;
    b.move_fire_transport(0);
    let rolls: Vec<(u32, i32)> = b
        .log
        .0
        .iter()
        .filter_map(|e| match e {
            Event::Overspeed {
                points_over, roll, ..
            } => Some((*points_over, roll.target)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [(3, 30)]);
    assert_eq!(b.ships[0].damage[Loc::Engines as usize], 2);
    assert!(b.rng.exhausted());
}

#[test]
fn r4_badly_damaged_sensors_stop_maneuvers_and_warp() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    me.energy = 11;
    let enemy = ShipState::new(&f.b, &f.ctx, Hex::new(8, 0), 3);
    assert!(view(&f, &me, &enemy)
        .can_maneuver(Maneuver::Forward)
        .is_ok());
    me.damage[Loc::Sensors as usize] = 11;
    let v = view(&f, &me, &enemy);
    assert_eq!(
        v.can_maneuver(Maneuver::TurnLeft),
        Err("sensors are badly damaged: only inertia moves the ship")
    );
    assert_eq!(
        v.can_warp(),
        Err("sensors are badly damaged: no jump can be computed")
    );
    assert_eq!(v.can_fire(1), Err("sensors are badly damaged"));
}

#[test]
fn r5_the_enemy_is_known_only_from_a_sensors_roll() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // Sensors 40: a success (not a special).
    let mut b = f.battle(6, &[40], [&idle, &idle]);
    b.ships[1].damage[Loc::Hull as usize] = 4;
    b.ships[1].shields[3] = 2;
    b.ships[1].pos = Hex::new(5, 0);
    b.look(0);
    {
        let v = b.view(0);
        // Seen without a roll: where it is. Not seen: what the hits did.
        assert_eq!(v.enemy.pos, Hex::new(5, 0));
        assert_eq!(v.enemy.damage[Loc::Hull as usize], 0);
        assert_eq!(v.enemy.shields[3], 9);
        assert!(!v.enemy_status_fresh());
    }
    b.sensors(0);
    {
        let v = b.view(0);
        assert_eq!(v.enemy.damage[Loc::Hull as usize], 4);
        assert_eq!(v.enemy.shields[3], 2);
        assert!(v.enemy_status_fresh());
    }
    // Cloaked and undetected, it is where it was last seen.
    b.ships[1].cloaked = true;
    b.ships[1].pos = Hex::new(3, 2);
    b.look(0);
    assert_eq!(b.view(0).enemy.pos, Hex::new(5, 0));
    assert!(b.view(0).enemy.cloaked);
    assert!(!b.view(0).enemy_visible());
}

#[test]
fn r6_a_detected_cloaked_ship_can_be_answered_by_maneuvering() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    me.energy = 11;
    let mut enemy = ShipState::new(&f.b, &f.ctx, Hex::new(4, 0), 3);
    enemy.cloaked = true;
    assert_eq!(
        view(&f, &me, &enemy).can_maneuver(Maneuver::Forward),
        Err("the enemy is cloaked: only inertia moves the ship")
    );
    enemy.detected = true;
    assert!(view(&f, &me, &enemy)
        .can_maneuver(Maneuver::Forward)
        .is_ok());
    assert!(view(&f, &me, &enemy).can_fire(4).is_ok());
}

#[test]
fn r7_the_battery_is_charged_in_activation_and_leftover_energy_is_lost() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let tactic = Script {
        activation: Activation {
            charge_battery: 3,
            ..Activation::default()
        },
        ..Script::default()
    };
    let idle = Script::default();
    let mut b = f.battle(6, &[], [&tactic, &idle]);
    b.ships[0].battery = 0;
    b.activation(0);
    // Generator 2 x 4 + 3 = 11: 3 into the battery, 8 for the turn.
    assert_eq!((b.ships[0].energy, b.ships[0].battery), (8, 3));
    b.deactivation(0);
    assert_eq!((b.ships[0].energy, b.ships[0].battery), (0, 3));
    assert!(b
        .log
        .0
        .iter()
        .any(|e| matches!(e, Event::Deactivation { lost: 8, .. })));
}

#[test]
fn r8_each_search_group_rolls_and_the_finders_fight() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // Groups of one team: 99 and 99 fail, 10 finds them; the finding team's D6 rolls 6, the
    // boarders' D6 rolls 1.
    let mut b = f.battle(6, &[99, 99, 10, 6, 1], [&idle, &idle]);
    b.ships[1].boarders = Teams::new(1, 6);
    b.ships[1].boarders_hidden = true;
    b.search(0);
    let searches = b
        .log
        .0
        .iter()
        .filter(|e| matches!(e, Event::Search { .. }))
        .count();
    assert_eq!(searches, 3);
    assert_eq!(b.ships[1].boarders.alive(), 0);
    assert_eq!(&b.ships[0].home_teams.endurance[..6], &[6, 6, 5, 6, 6, 6]);
    assert!(b.rng.exhausted());
    // The group size is the ruleset's: one group of all six rolls once.
    let mut r = rules();
    r.combat
        .as_mut()
        .unwrap()
        .security_teams
        .teams_per_search_group = 6;
    let ctx = Context::new(&r).unwrap();
    let classes = [
        ctx.class(&r, "UFP heavy cruiser").unwrap(),
        ctx.class(&r, "Klingon battle cruiser").unwrap(),
    ];
    let mut b = Battle::new(
        &ctx,
        [&classes[0], &classes[1]],
        [&idle, &idle],
        Setup::standard(&ctx),
        Rigged::new(&[99]),
        Recorder::default(),
    );
    b.ships[1].boarders = Teams::new(1, 6);
    b.search(0);
    assert!(b.rng.exhausted(), "one roll for one group");
}

#[test]
fn r9_a_standard_battle_starts_with_shields_up_and_simulations_alternate() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let setup = Setup::standard(&f.ctx);
    assert_eq!((setup.first, setup.shields_up), (Side::A, [true, true]));
    let b = Battle::new(
        &f.ctx,
        [&f.a, &f.b],
        [&idle, &idle],
        setup,
        Rigged::new(&[]),
        Recorder::default(),
    );
    // Raised before turn 1 and paid (2 energy) from the battery.
    assert!(b.ships.iter().all(|s| s.shields_raised));
    assert_eq!(
        [b.ships[0].battery, b.ships[1].battery],
        [f.a.battery - 2, f.b.battery - 2]
    );
    // An ambush: the scenario lowers one side's shields.
    let ambush = Setup {
        shields_up: [true, false],
        ..setup
    };
    let b = Battle::new(
        &f.ctx,
        [&f.a, &f.b],
        [&idle, &idle],
        ambush,
        Rigged::new(&[]),
        Recorder::default(),
    );
    assert!(!b.ships[1].shields_raised);
    assert_eq!(b.ships[1].battery, f.b.battery);
    // Simulations alternate the first move, and say how each half went.
    let r = rules();
    let mut opts = crate::combat::sim::SimOptions {
        threads: Some(1),
        ..crate::combat::sim::SimOptions::new("UFP frigate", "Pirate frigate", 20, 3)
    };
    let s = crate::combat::sim::simulate(&r, &opts).unwrap();
    assert_eq!(s.first, First::Alternate);
    let i = &s.by_initiative;
    assert_eq!((i.a_first.battles, i.b_first.battles), (10, 10));
    assert_eq!(i.a_first.a_wins + i.b_first.a_wins, s.a.wins);
    assert_eq!(i.a_first.draws + i.b_first.draws, s.draws);
    opts.first = Some(First::B);
    let s = crate::combat::sim::simulate(&r, &opts).unwrap();
    assert_eq!(
        (
            s.by_initiative.a_first.battles,
            s.by_initiative.b_first.battles
        ),
        (0, 20)
    );
}

#[test]
fn r11_the_numbers_come_from_the_ruleset() {
    let mut r = rules();
    {
        let c = r.combat.as_mut().unwrap();
        c.skill_rolls.halving_divisor = 3;
        c.energy.damaged_generator_divisor = 3;
        c.maneuvers.inertia = 2;
        c.torpedoes_per_turn = 2;
        c.transport.team_size = 4;
    }
    let ctx = Context::new(&r).unwrap();
    let a = ctx.class(&r, "UFP heavy cruiser").unwrap();
    let b = ctx.class(&r, "Klingon battle cruiser").unwrap();
    let mut me = ShipState::new(&a, &ctx, Hex::new(0, 0), 0);
    // At a third: Gunnery 60 with damaged phasers is 20; (60 - 15) / 3 = 15 at range 3.
    me.damage[Loc::Phasers as usize] = 6;
    assert_eq!(me.skill(&a, &ctx, Skill::Gunnery, 0), 20);
    assert_eq!(me.skill(&a, &ctx, Skill::Gunnery, 15), 15);
    // A damaged generator gives a third: 11 / 3 = 3.
    me.damage[Loc::Generator as usize] = 6;
    assert_eq!(me.generator_output(&a, &ctx), 3);
    let idle = Script::default();
    let launch = Script {
        actions: Mutex::new(vec![Action::Torpedo, Action::Torpedo]),
        ..Script::default()
    };
    let board = Script {
        actions: Mutex::new(vec![Action::Transport]),
        ..Script::default()
    };
    let battle = |tactic: &'static Script, rolls: &[u32]| {
        let mut bt = Battle::new(
            &ctx,
            [&a, &b],
            [tactic as &dyn Tactic, &idle],
            Setup {
                positions: [Hex::new(0, 0), Hex::new(4, 0)],
                ..Setup::standard(&ctx)
            },
            Rigged::new(rolls),
            Recorder::default(),
        );
        bt.turn = 1;
        bt.ships[0].energy = 10;
        bt
    };
    let launch: &'static Script = Box::leak(Box::new(launch));
    let board: &'static Script = Box::leak(Box::new(board));
    // Two launches a turn: Piloting 99 on each of the two hexes (no dodge), 5D6 of 1s (5,
    // absorbed by the 9 shield), twice.
    let mut bt = battle(launch, &[99, 99, 1, 1, 1, 1, 1, 99, 99, 1, 1, 1, 1, 1]);
    bt.move_fire_transport(0);
    // Inertia carried it two hexes: range 2 for both torpedoes.
    assert_eq!(bt.ships[0].pos, Hex::new(2, 0));
    assert_eq!(bt.ships[0].torpedoes_launched, 2);
    assert!(bt.rng.exhausted());
    // A team of four, lost (Transport 99 fails by 39, more than 20).
    let mut bt = battle(board, &[99]);
    bt.ships[1].shields = [0; 6];
    bt.move_fire_transport(0);
    assert!(bt.log.0.iter().any(|e| matches!(
        e,
        Event::Transport {
            result: crate::combat::events::TransportResult::TeamKilled,
            people: 4,
            ..
        }
    )));
    let summary = crate::combat::duel::ShipSummary::new(&ctx, &a, &bt.ships[0]);
    assert_eq!((summary.teams_lost, summary.people_lost), (1, 4));
}

/// "El sensor utilizado en el combate es el de corto alcance que tiene un rango de 10
/// hexágonos (1000 Km)." Beyond it no Sensors roll is made: nothing is learned and a cloaked
/// ship is not found, however good the roll would have been.
#[test]
fn the_sensors_roll_reaches_only_the_short_range_sensors_ten_hexes() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // 10 hexes: a roll of 1 (a critical) finds the cloaked Klingon.
    let mut b = f.battle(10, &[1], [&idle, &idle]);
    b.ships[1].cloaked = true;
    b.sensors(0);
    assert!(b.ships[1].detected && b.ships[0].status_known);
    assert!(b.rng.exhausted());
    // 11 hexes: no roll at all (the rigged dice would panic if one were drawn).
    let mut b = f.battle(11, &[], [&idle, &idle]);
    b.ships[1].cloaked = true;
    b.sensors(0);
    assert!(!b.ships[1].detected && !b.ships[0].status_known);
    assert!(matches!(
        b.log.0.last(),
        Some(Event::SensorsOutOfRange {
            side: 0,
            distance: 11
        })
    ));
}

/// R5 "Permiten conocer el estado del enemigo pasando una tirada de Sensores": the tactic's
/// warp odds and transport check read the enemy as its sensors know it; the engine's checks
/// read the enemy as it is.
#[test]
fn r5_warp_odds_and_transport_see_only_what_the_sensors_found() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    // Last seen 18 hexes off; really (cloaked, unseen) 8 hexes off.
    let mut known = ShipState::new(&f.b, &f.ctx, Hex::new(18, 0), 3);
    known.shields_raised = true;
    let mut actual = known;
    actual.pos = Hex::new(8, 0);
    let v = View::new(&f.ctx, 1, (&me, &f.a), (&known, &actual, &f.b));
    // Navigation 60 at -(100 - 5 x 18) = -10 as reckoned; -60 really.
    assert_eq!(v.warp_penalty_seen(), 10);
    assert_eq!(v.warp_penalty(), 60);
    assert!((v.warp_chance() - 0.5).abs() < 1e-9);
    // Shields: the enemy's face toward me really down, but the sensors last saw it up.
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    me.energy = 10;
    let mut known = ShipState::new(&f.b, &f.ctx, Hex::new(3, 0), 3);
    known.shields_raised = true;
    let mut actual = known;
    actual.shields = [0; 6];
    let v = View::new(&f.ctx, 1, (&me, &f.a), (&known, &actual, &f.b));
    assert_eq!(v.can_transport(), Err("the enemy's shield toward us is up"));
    assert!(v.check_transport().is_ok());
}

/// The source ends battles only by destruction, capture or a warp jump; the ruling for lost
/// contact ends one `disengage_turns` turns after the ships part beyond sensor range with
/// neither closing, and a battle still running at the cap is unfinished, not a draw.
#[test]
fn lost_contact_disengages_and_the_cap_leaves_a_battle_unfinished() {
    let f = Fixture::new("UFP heavy cruiser", "UFP heavy cruiser");
    let idle = Script::default();
    let mut setup = Setup {
        positions: [Hex::new(0, 0), Hex::new(12, 0)],
        // Back to back: inertia opens the distance two hexes a turn.
        facings: [3, 0],
        first: Side::A,
        turn_limit: 50,
        shields_up: [true, true],
    };
    let play = |setup: Setup| {
        let mut b = Battle::new(
            &f.ctx,
            [&f.a, &f.b],
            [&idle, &idle],
            setup,
            crate::combat::roller::Pcg::new(1),
            Recorder::default(),
        );
        b.play()
    };
    let o = play(setup);
    assert_eq!(o.kind, OutcomeKind::Disengaged);
    assert_eq!(o.turns, f.ctx.disengage_turns);
    assert_eq!((o.side, o.winner()), (None, None));
    // Below the ruleset's turns, the cap comes first: unfinished.
    setup.turn_limit = f.ctx.disengage_turns - 1;
    let o = play(setup);
    assert_eq!(o.kind, OutcomeKind::Unfinished);
    assert_eq!(o.turns, f.ctx.disengage_turns - 1);
}

/// R11: "Si esta localización está averiada hay un 50% de que el torpedo no salga": the 50
/// is rolled on the ruleset's skill die, not on a D100 of the engine's.
#[test]
fn r11_a_damaged_launcher_s_chance_rolls_the_ruleset_s_die() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // On the D100: 50 keeps the torpedo aboard, 51 lets it go (a Piloting roll of 40 at
    // range 1 does not dodge, 5D6 of ones meets the shield).
    for (rolls, left) in [(vec![50], 10), (vec![51, 40, 1, 1, 1, 1, 1], 9)] {
        let mut b = f.battle(1, &rolls, [&idle, &idle]);
        b.ships[0].damage[Loc::Torpedoes as usize] = 6;
        b.launch_torpedo(0);
        assert_eq!(b.ships[0].torpedoes, left, "{rolls:?}");
        assert!(b.rng.exhausted());
    }
}

#[test]
#[should_panic(expected = "rigged roll 21 cannot come from a D20")]
fn r11_the_failure_chance_die_is_the_skill_die() {
    let mut f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    f.ctx.thresholds.die = 20;
    let idle = Script::default();
    let mut b = f.battle(1, &[21], [&idle, &idle]);
    b.ships[0].damage[Loc::Torpedoes as usize] = 6;
    // The engine asks the ruleset's D20 (a D100 of its own would take the 21).
    b.launch_torpedo(0);
}

/// R1/R11: the shields phase takes every operation the ruleset's allowances give (a transfer
/// into each face from each neighbour `transfer_per_neighbour` times, and the generator's
/// points), however many: no count of the engine's cuts it short.
#[test]
fn r11_the_shields_phase_takes_what_the_allowances_give() {
    let mut f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    f.ctx.shields.transfer_per_neighbour = 3;
    let mut ops = Vec::new();
    for to in 0..6u8 {
        for from in [(to + 1) % 6, (to + 5) % 6] {
            ops.extend([ShieldOp::Transfer { from, to }; 3]);
        }
    }
    ops.push(ShieldOp::Reinforce { face: 0 });
    // One more than the allowances give: never asked for (the phase has ended).
    ops.push(ShieldOp::Transfer { from: 1, to: 0 });
    assert_eq!(ops.len(), 38);
    let tactic = Script {
        shield_ops: Mutex::new(ops),
        ..Script::default()
    };
    let idle = Script::default();
    // 37 Shields rolls of 100, every one a failure: the faces keep their points, so every
    // transfer stays legal.
    let mut b = f.battle(4, &[100; 37], [&tactic, &idle]);
    b.ships[0].shields = [5; 6];
    b.ships[0].energy = 5;
    b.shields_phase(0);
    assert!(b.rng.exhausted(), "{} rolls of 37", b.rng.used());
    assert_eq!(b.ships[0].transfers, [3; 12]);
    assert_eq!(b.ships[0].generator_points_given, 1);
    assert!(refusals(&b).is_empty());
    assert_eq!(tactic.shield_ops.lock().unwrap().len(), 1);
    assert_eq!(f.ctx.shields.most_ops_per_phase(), 37);
}

/// B1 (doc/combat-rulings.md): "Hacer el cambio dedica un turno entero en el que no se puede
/// hacer nada. Una vez activado el puente auxiliar, se va a mitad de porcentaje en las
/// habilidades mencionadas anteriormente": from then on, repaired or not.
#[test]
fn b1_the_auxiliary_bridge_halves_to_the_end_of_the_battle() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let gunnery = |s: &ShipState| s.skill(&f.a, &f.ctx, Skill::Gunnery, 0);
    assert_eq!(gunnery(&s), 60);
    // 11 points: badly damaged (large: beyond 10); the crew starts moving.
    f.damage_a(&mut s, Loc::Bridge, 11);
    assert!(s.aux_bridge && s.bridge_out(&f.a) && !s.aux_bridge_active());
    // The switching turn done, the bridge repaired to light damage, then to none: Gunnery,
    // Shields, Sensors, Piloting, Navigation and Life support stay at half, once.
    s.bridge_switch_left = 0;
    for damage in [11, 6, 2, 0] {
        s.damage[Loc::Bridge as usize] = damage;
        assert_eq!(gunnery(&s), 30, "bridge damage {damage}");
        for skill in [Skill::Shields, Skill::Sensors, Skill::Piloting] {
            assert_eq!(s.skill(&f.a, &f.ctx, skill, 0), 30, "{skill:?}");
        }
        // What the bridge does not halve stays whole.
        assert_eq!(s.skill(&f.a, &f.ctx, Skill::Mechanics, 0), 60);
    }
    // A second hit on the repaired bridge sets up no second switch.
    s.damage[Loc::Bridge as usize] = 0;
    f.damage_a(&mut s, Loc::Bridge, 11);
    assert_eq!(s.bridge_switch_left, 0);
    assert_eq!(gunnery(&s), 30);
}

/// H1 (doc/combat-rulings.md): "Hangares: Aquí se hallan las pequeñas naves de transporte. Si
/// esta localización se avería hay un 50% de no poder sacar una nave." The source gives
/// shuttles no numbers and no place in the turn: the hangars' damage only passes its excess
/// to the hull, and the built-in tactics never spend a repair team on them.
#[test]
fn h1_repairs_never_pick_the_hangars() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let r = rules();
    let classic = crate::combat::tactics::ClassicTactic::default();
    let default = crate::combat::default_tactic::DefaultTactic::of(&r).unwrap();
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let enemy = ShipState::new(&f.b, &f.ctx, Hex::new(3, 0), 3);
    me.energy = 20;
    me.damage[Loc::Hangars as usize] = 12;
    assert!(view(&f, &me, &enemy).can_repair(Loc::Hangars).is_ok());
    for t in [&classic as &dyn Tactic, &default] {
        assert_eq!(t.repair(&view(&f, &me, &enemy), 0), None, "{}", t.name());
    }
    // With the hull hurt too, the hull.
    me.damage[Loc::Hull as usize] = 2;
    for t in [&classic as &dyn Tactic, &default] {
        assert_eq!(
            t.repair(&view(&f, &me, &enemy), 0),
            Some(RepairJob::Location(Loc::Hull)),
            "{}",
            t.name()
        );
    }
    // The ruleset plays no shuttle: its hangars have no failure chance.
    assert_eq!(f.ctx.info(Loc::Hangars).damaged.failure_chance, 0);
    // Their excess still goes to the hull (the table's "71 - 80 Hangares CASCO").
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    f.damage_a(&mut s, Loc::Hangars, 17);
    assert_eq!(s.damage[Loc::Hangars as usize], 15);
    assert_eq!(s.damage[Loc::Hull as usize], 2);
}
