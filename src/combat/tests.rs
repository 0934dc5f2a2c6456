//! Each rule with rigged dice, on the built-in startrek ruleset.
use super::context::{Context, Loc};
use super::damage::{shield_absorb, Target};
use super::events::{Event, Maneuver, Recorder};
use super::hex::Hex;
use super::roller::Rigged;
use super::ship::{Condition, ShipClass, ShipState, Teams};
use super::skill::Skill;
use super::tactics::{
    Action, Activation, BoardingOrder, Deactivation, RepairJob, ShieldOp, Tactic,
};
use super::turn::{Battle, Setup};
use super::view::View;
use super::warp::failure_band;
use crate::rules::model::Ruleset;
use std::sync::Mutex;

mod rulings;

fn rules() -> Ruleset {
    crate::rules::load::load("startrek").expect("startrek loads")
}

/// A tactic that does exactly what the test says.
#[derive(Default)]
struct Script {
    actions: Mutex<Vec<Action>>,
    shield_ops: Mutex<Vec<ShieldOp>>,
    repairs: Mutex<Vec<RepairJob>>,
    location: Option<Loc>,
    board: Option<BoardingOrder>,
    activation: Activation,
}

fn pop<T: Copy>(m: &Mutex<Vec<T>>) -> Option<T> {
    let mut v = m.lock().unwrap();
    if v.is_empty() {
        None
    } else {
        Some(v.remove(0))
    }
}

impl Tactic for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn activation(&self, _v: &View) -> Activation {
        self.activation
    }
    fn next_action(&self, _v: &View, _m: &mut super::tactics::Memory) -> Action {
        pop(&self.actions).unwrap_or(Action::End)
    }
    fn choose_location(&self, _v: &View) -> Loc {
        self.location.unwrap_or(Loc::Hull)
    }
    fn next_shield_op(&self, _v: &View) -> Option<ShieldOp> {
        pop(&self.shield_ops)
    }
    fn repair(&self, _v: &View, _team: u32) -> Option<RepairJob> {
        pop(&self.repairs)
    }
    fn boarding(&self, _v: &View) -> BoardingOrder {
        self.board.unwrap_or(BoardingOrder::Hide)
    }
    fn absorb(&self, _v: &View, _d: u32) -> bool {
        true
    }
    fn deactivation(&self, _v: &View) -> Deactivation {
        Deactivation::default()
    }
}

struct Fixture {
    ctx: Context,
    a: ShipClass,
    b: ShipClass,
}

impl Fixture {
    fn new(a: &str, b: &str) -> Fixture {
        let r = rules();
        let ctx = Context::new(&r).unwrap();
        let a = ctx.class(&r, a).unwrap();
        let b = ctx.class(&r, b).unwrap();
        Fixture { ctx, a, b }
    }

    /// A battle with side a at (0,0) facing 0 and side b at (distance,0) facing 3, shields up.
    fn battle<'a>(
        &'a self,
        distance: i32,
        rolls: &[u32],
        tactics: [&'a dyn Tactic; 2],
    ) -> Battle<'a, Rigged, Recorder> {
        let setup = Setup {
            positions: [Hex::new(0, 0), Hex::new(distance, 0)],
            facings: [0, 3],
            first: super::side::Side::A,
            turn_limit: 10,
            shields_up: [true, true],
        };
        let mut b = Battle::new(
            &self.ctx,
            [&self.a, &self.b],
            tactics,
            setup,
            Rigged::new(rolls),
            Recorder::default(),
        );
        b.turn = 1;
        for s in &mut b.ships {
            s.shields_raised = true;
        }
        b
    }

    /// Ship a, in `state`, takes `points` at `loc` with no dice to roll.
    fn damage_a(&self, state: &mut ShipState, loc: Loc, points: u32) {
        Target {
            ctx: &self.ctx,
            class: &self.a,
            state,
            side: 0,
        }
        .damage_location(
            &mut Rigged::new(&[]),
            &mut Recorder::default(),
            loc,
            points,
            None,
        );
    }
}

fn target<'a>(ctx: &'a Context, class: &'a ShipClass, state: &'a mut ShipState) -> Target<'a> {
    Target {
        ctx,
        class,
        state,
        side: 1,
    }
}

#[test]
fn shield_absorbs_its_value_then_drops_point_for_point() {
    assert_eq!(shield_absorb(10, 5), (10, 0));
    assert_eq!(shield_absorb(10, 14), (6, 0));
    assert_eq!(shield_absorb(10, 20), (0, 0));
    assert_eq!(shield_absorb(10, 25), (0, 5));
    assert_eq!(shield_absorb(6, 14), (0, 2));
    assert_eq!(shield_absorb(0, 7), (0, 7));
}

#[test]
fn hit_goes_shield_then_hull_roll_then_location() {
    let f = Fixture::new("UFP heavy cruiser", "UFP heavy cruiser");
    let mut s = ShipState::new(&f.b, &f.ctx, Hex::new(0, 0), 0);
    s.shields_raised = true;
    // 25 on a face of 10: face to 0, 5 on; hull 3D6 rolls 1+1+1 = 3; 2 inside; D100 85 is the hull.
    let mut rng = Rigged::new(&[1, 1, 1, 85]);
    let mut log = Recorder::default();
    let r = target(&f.ctx, &f.b, &mut s).hit(&mut rng, &mut log, 2, 25, None);
    assert_eq!((r.to_hull, r.internal, r.location), (5, 2, Some(Loc::Hull)));
    assert_eq!(s.shields[2], 0);
    assert_eq!(s.shields[0], 10);
    assert_eq!(s.damage[Loc::Hull as usize], 2);
    assert!(rng.exhausted());
    // Location table edges: 5 bridge, 6 transporter, 60 engines, 61 shield control, 100 hull.
    let by = |r: usize| f.ctx.location_by_roll[r];
    assert_eq!(
        [
            by(1),
            by(5),
            by(6),
            by(10),
            by(11),
            by(20),
            by(21),
            by(31),
            by(41),
            by(50)
        ],
        [
            Loc::Bridge,
            Loc::Bridge,
            Loc::Transporter,
            Loc::Transporter,
            Loc::Sensors,
            Loc::Sensors,
            Loc::Phasers,
            Loc::Torpedoes,
            Loc::Generator,
            Loc::Generator
        ]
    );
    assert_eq!(
        [by(51), by(60), by(61), by(71), by(80), by(81), by(100)],
        [
            Loc::Engines,
            Loc::Engines,
            Loc::ShieldControl,
            Loc::Hangars,
            Loc::Hangars,
            Loc::Hull,
            Loc::Hull
        ]
    );
}

#[test]
fn shields_down_stop_nothing_and_keep_their_value() {
    let f = Fixture::new("UFP heavy cruiser", "Transport");
    let mut s = ShipState::new(&f.b, &f.ctx, Hex::new(0, 0), 0);
    // Transport hull 1D6 rolls 2: 3 inside; location 45: generator (small: damaged beyond 3 → not
    // yet).
    let mut rng = Rigged::new(&[2, 45]);
    let r = target(&f.ctx, &f.b, &mut s).hit(&mut rng, &mut Recorder::default(), 0, 5, None);
    assert_eq!((r.to_hull, r.internal), (5, 3));
    assert_eq!(s.shields[0], 4);
    assert_eq!(s.level(&f.b, Loc::Generator), Condition::Light);
}

#[test]
fn damaged_hull_rolls_the_second_dice_and_badly_damaged_stops_nothing() {
    let f = Fixture::new("UFP heavy cruiser", "UFP heavy cruiser");
    let mut s = ShipState::new(&f.b, &f.ctx, Hex::new(0, 0), 0);
    s.damage[Loc::Hull as usize] = 6;
    // 3D3 rolls 3+3+3 = 9 against 12 through: 3 inside at location 30 (phasers).
    let mut rng = Rigged::new(&[3, 3, 3, 30]);
    let r = target(&f.ctx, &f.b, &mut s).hit(&mut rng, &mut Recorder::default(), 0, 12, None);
    assert_eq!(r.internal, 3);
    assert_eq!(s.damage[Loc::Phasers as usize], 3);
    s.damage[Loc::Hull as usize] = 11;
    // No hull roll at all: only the location roll.
    let mut rng = Rigged::new(&[35]);
    let r = target(&f.ctx, &f.b, &mut s).hit(&mut rng, &mut Recorder::default(), 0, 4, None);
    assert_eq!(r.internal, 4);
    assert_eq!(s.damage[Loc::Torpedoes as usize], 4);
    assert!(rng.exhausted());
}

#[test]
fn size_thresholds_and_casualties_counted_once() {
    let f = Fixture::new("UFP heavy cruiser", "UFP destroyer");
    let mut log = Recorder::default();
    // Large: damaged beyond 5, badly beyond 10, excess beyond 15.
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let mut rng = Rigged::new(&[]);
    let mut t = Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut s,
        side: 0,
    };
    t.damage_location(&mut rng, &mut log, Loc::Generator, 5, None);
    assert_eq!(
        (t.state.level(&f.a, Loc::Generator), t.state.casualties),
        (Condition::Light, 0)
    );
    t.damage_location(&mut rng, &mut log, Loc::Generator, 1, None);
    assert_eq!(
        (t.state.level(&f.a, Loc::Generator), t.state.casualties),
        (Condition::Damaged, 1)
    );
    assert_eq!(
        t.state.generator_output(&f.a, &f.ctx),
        5,
        "half of 11, rounded down"
    );
    // Repaired below the threshold and damaged again: no new casualty.
    t.state.damage[Loc::Generator as usize] = 4;
    t.damage_location(&mut rng, &mut log, Loc::Generator, 3, None);
    assert_eq!(t.state.casualties, 1);
    t.damage_location(&mut rng, &mut log, Loc::Generator, 4, None);
    assert_eq!(
        (t.state.level(&f.a, Loc::Generator), t.state.casualties),
        (Condition::BadlyDamaged, 3)
    );
    assert_eq!(t.state.generator_output(&f.a, &f.ctx), 0);
    // Medium: 4 / 8 / 12.
    let mut d = ShipState::new(&f.b, &f.ctx, Hex::new(0, 0), 0);
    let mut t = Target {
        ctx: &f.ctx,
        class: &f.b,
        state: &mut d,
        side: 1,
    };
    t.damage_location(&mut rng, &mut log, Loc::Hangars, 5, None);
    assert_eq!(
        (t.state.level(&f.b, Loc::Hangars), t.state.casualties),
        (Condition::Damaged, 1)
    );
    t.damage_location(&mut rng, &mut log, Loc::Hangars, 4, None);
    assert_eq!(
        (t.state.level(&f.b, Loc::Hangars), t.state.casualties),
        (Condition::BadlyDamaged, 3)
    );
    // Locations without casualties in the source: none.
    t.damage_location(&mut rng, &mut log, Loc::Sensors, 9, None);
    assert_eq!(t.state.casualties, 3);
}

#[test]
fn hull_decompression_rolls_life_support() {
    let f = Fixture::new("UFP heavy cruiser", "UFP heavy cruiser");
    for (roll, expected) in [(90, 4), (40, 3)] {
        let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
        let mut rng = Rigged::new(&[roll]);
        // 11 at once: damaged (1) and badly damaged (2), then Life support or 1 more.
        Target {
            ctx: &f.ctx,
            class: &f.a,
            state: &mut s,
            side: 0,
        }
        .damage_location(&mut rng, &mut Recorder::default(), Loc::Hull, 11, None);
        assert_eq!(s.casualties, expected, "life support roll {roll}");
        assert!(!s.destroyed);
    }
}

#[test]
fn excess_goes_to_the_hull_and_hull_or_engines_beyond_explode() {
    let f = Fixture::new("UFP heavy cruiser", "UFP heavy cruiser");
    let mut log = Recorder::default();
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let mut rng = Rigged::new(&[]);
    let mut t = Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut s,
        side: 0,
    };
    t.damage_location(&mut rng, &mut log, Loc::Phasers, 20, None);
    assert_eq!(t.state.damage[Loc::Phasers as usize], 15);
    assert_eq!(t.state.damage[Loc::Hull as usize], 5);
    assert!(!t.state.destroyed);
    let mut e = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut e,
        side: 0,
    }
    .damage_location(&mut rng, &mut log, Loc::Engines, 15, None);
    assert!(!e.destroyed);
    Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut e,
        side: 0,
    }
    .damage_location(&mut rng, &mut log, Loc::Engines, 1, None);
    assert!(e.destroyed, "engines beyond badly damaged explode");
    let mut h = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    h.damage[Loc::Hull as usize] = 15;
    h.crossed[Loc::Hull as usize] = 3;
    Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut h,
        side: 0,
    }
    .damage_location(&mut rng, &mut log, Loc::Hull, 1, None);
    assert!(h.destroyed, "the hull breaks");
    assert!(log.0.iter().any(|e| matches!(
        e,
        Event::Destroyed {
            location: Loc::Engines,
            ..
        }
    )));
}

#[test]
fn location_effects_halve_skills_and_stack() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let sk = |s: &ShipState, k: Skill| s.skill(&f.a, &f.ctx, k, 0);
    assert_eq!(sk(&s, Skill::Gunnery), 60);
    s.damage[Loc::Bridge as usize] = 6;
    for k in [
        Skill::Gunnery,
        Skill::Shields,
        Skill::Sensors,
        Skill::Piloting,
        Skill::Navigation,
        Skill::LifeSupport,
    ] {
        assert_eq!(sk(&s, k), 30, "{k:?} at half with the bridge damaged");
    }
    assert_eq!(sk(&s, Skill::Mechanics), 60);
    s.damage[Loc::Sensors as usize] = 6;
    assert_eq!(sk(&s, Skill::Gunnery), 15);
    assert_eq!(sk(&s, Skill::Transport), 30);
    s.damage[Loc::Phasers as usize] = 6;
    assert_eq!(sk(&s, Skill::Gunnery), 7);
    let mut t = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    t.damage[Loc::Transporter as usize] = 6;
    assert_eq!(sk(&t, Skill::Transport), 30);
    // R2: the penalty comes off first, then the halving: (60 - 5) / 2 = 27 (was 60 / 2 - 5).
    assert_eq!(t.skill(&f.a, &f.ctx, Skill::Transport, 5), 27);
}

fn view<'a>(f: &'a Fixture, me: &'a ShipState, enemy: &'a ShipState) -> View<'a> {
    View::knowing(&f.ctx, 1, (me, &f.a), (enemy, &f.b))
}

#[test]
fn disabled_systems_refuse_their_actions() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let enemy = ShipState::new(&f.b, &f.ctx, Hex::new(3, 0), 3);
    me.energy = 11;
    assert!(view(&f, &me, &enemy).can_fire(4).is_ok());
    assert!(
        view(&f, &me, &enemy).can_fire(5).is_err(),
        "only F dice a turn"
    );
    assert!(view(&f, &me, &enemy).can_launch().is_ok());
    me.damage[Loc::Phasers as usize] = 11;
    assert_eq!(
        view(&f, &me, &enemy).can_fire(4),
        Err("phasers are badly damaged")
    );
    me.damage[Loc::Phasers as usize] = 0;
    me.damage[Loc::Sensors as usize] = 11;
    assert_eq!(
        view(&f, &me, &enemy).can_fire(4),
        Err("sensors are badly damaged")
    );
    assert_eq!(
        view(&f, &me, &enemy).can_launch(),
        Err("sensors are badly damaged")
    );
    me.damage[Loc::Sensors as usize] = 0;
    me.damage[Loc::Torpedoes as usize] = 11;
    assert_eq!(
        view(&f, &me, &enemy).can_launch(),
        Err("torpedo launchers are badly damaged")
    );
    me.damage[Loc::Engines as usize] = 6;
    assert_eq!(view(&f, &me, &enemy).maneuver_cost(Maneuver::Forward), 2);
    assert_eq!(view(&f, &me, &enemy).maneuver_cost(Maneuver::Back), 4);
    assert_eq!(view(&f, &me, &enemy).warp_cost(), 6);
    me.damage[Loc::Engines as usize] = 11;
    assert!(view(&f, &me, &enemy)
        .can_maneuver(Maneuver::Forward)
        .is_err());
    assert!(view(&f, &me, &enemy).can_warp().is_err());
    me.damage[Loc::ShieldControl as usize] = 6;
    me.shields_raised = true;
    me.shields[0] = 5;
    assert_eq!(view(&f, &me, &enemy).shield_point_cost(), 2);
    me.damage[Loc::ShieldControl as usize] = 11;
    assert!(view(&f, &me, &enemy).can_reinforce(0).is_err());
    assert!(view(&f, &me, &enemy).can_transfer(1, 0).is_err());
    // Out of arc and out of range.
    let behind = ShipState::new(&f.b, &f.ctx, Hex::new(-3, 0), 0);
    let mut broke = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    broke.battery = 0;
    assert_eq!(
        view(&f, &broke, &enemy).can_fire(1),
        Err("not enough energy")
    );
    let mut fresh = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    fresh.energy = 11;
    assert_eq!(
        view(&f, &fresh, &behind).can_fire(1),
        Err("the enemy is outside the phaser arc")
    );
    let far = ShipState::new(&f.b, &f.ctx, Hex::new(11, 0), 3);
    assert_eq!(
        view(&f, &fresh, &far).can_fire(1),
        Err("the enemy is beyond sensor range")
    );
    let side = ShipState::new(&f.b, &f.ctx, Hex::new(2, 1), 3);
    assert!(view(&f, &fresh, &side).can_fire(1).is_ok());
    assert_eq!(
        view(&f, &fresh, &side).can_launch(),
        Err("the enemy is not on the torpedo line")
    );
}

#[test]
fn phasers_need_gunnery_at_five_per_hex_and_special_chooses_the_location() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let chooser = Script {
        location: Some(Loc::Engines),
        ..Script::default()
    };
    // Range 5: Gunnery 60 − 25 = 35. A 35 hits for 3+3+3+3 = 12 on face 3 (9 → 6).
    let mut b = f.battle(5, &[35, 3, 3, 3, 3], [&idle, &idle]);
    b.ships[0].energy = 11;
    b.fire_phasers(0, 4);
    assert_eq!(b.ships[1].shields[3], 6);
    assert_eq!((b.ships[0].energy, b.ships[0].phaser_dice_used), (7, 4));
    // A 36 misses, energy spent all the same.
    let mut b = f.battle(5, &[36], [&idle, &idle]);
    b.ships[0].energy = 11;
    b.fire_phasers(0, 2);
    assert_eq!(b.ships[1].shields[3], 9);
    assert_eq!(b.ships[0].energy, 9);
    // A 7 is special (35/5): 24 on 9 → 6 on, hull 3, 3 inside, to the chosen engines (no location
    // roll).
    let mut b = f.battle(5, &[7, 6, 6, 6, 6, 1, 1, 1], [&chooser, &idle]);
    b.ships[0].energy = 11;
    b.fire_phasers(0, 4);
    assert_eq!(b.ships[1].damage[Loc::Engines as usize], 3);
    assert!(b.rng.exhausted());
}

#[test]
fn photon_torpedo_dodged_on_a_special_piloting_roll_per_hex() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    // Range 3: three Piloting rolls; the second, 12, is special (60/5) and dodges.
    let mut b = f.battle(3, &[50, 12], [&idle, &idle]);
    b.launch_torpedo(0);
    assert_eq!(b.ships[0].torpedoes, 9);
    assert_eq!(b.ships[1].shields[3], 9);
    // Not dodged (13, 50, 61), 5D6 = 30 on face 9: face 0, 12 on; hull 3; 9 inside at 45
    // (generator).
    let mut b = f.battle(3, &[13, 50, 61, 6, 6, 6, 6, 6, 1, 1, 1, 45], [&idle, &idle]);
    b.launch_torpedo(0);
    assert_eq!(b.ships[1].shields[3], 0);
    assert_eq!(b.ships[1].damage[Loc::Generator as usize], 9);
    assert_eq!(b.ships[1].casualties, 1);
    assert!(b.rng.exhausted());
}

#[test]
fn damaged_launcher_fails_half_the_time_and_keeps_the_torpedo() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let mut b = f.battle(1, &[50], [&idle, &idle]);
    b.ships[0].damage[Loc::Torpedoes as usize] = 6;
    b.launch_torpedo(0);
    assert_eq!(b.ships[0].torpedoes, 10);
    assert_eq!(b.ships[0].torpedoes_launched, 1);
    let mut b = f.battle(1, &[51, 40, 1, 1, 1, 1, 1], [&idle, &idle]);
    b.ships[0].damage[Loc::Torpedoes as usize] = 6;
    b.launch_torpedo(0);
    assert_eq!(b.ships[0].torpedoes, 9);
    assert_eq!(
        b.ships[1].shields[3], 9,
        "5 on a face of 9 only meets the shield"
    );
}

#[test]
fn plasma_costs_three_and_loses_two_per_hex() {
    let f = Fixture::new("Romulan bird of prey", "UFP heavy cruiser");
    let idle = Script::default();
    // Range 4: four dodge rolls fail; 6D6 = 36 − 8 = 28 on face 10: 0, 8 on; hull 3D6 = 18: nothing
    // inside.
    let mut b = f.battle(
        4,
        &[50, 50, 50, 50, 6, 6, 6, 6, 6, 6, 6, 6, 6],
        [&idle, &idle],
    );
    b.ships[0].energy = 7;
    b.launch_torpedo(0);
    assert_eq!(b.ships[0].energy, 4);
    assert_eq!(b.ships[1].shields[3], 0);
    assert!(b.log.0.iter().any(|e| matches!(
        e,
        Event::Torpedo {
            damage: Some(28),
            ..
        }
    )));
}

#[test]
fn generator_and_emergency_power() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let mut b = f.battle(5, &[55, 51], [&idle, &idle]);
    b.ships[0].damage[Loc::Generator as usize] = 11;
    // First turn: Mechanics at −5 (55): a 55 holds, 2 energy.
    b.activation(0);
    assert_eq!((b.ships[0].energy, b.ships[0].emergency_burnt), (2, false));
    // Second: at −10 (50): a 51 burns it out, no energy.
    b.activation(0);
    assert_eq!((b.ships[0].energy, b.ships[0].emergency_burnt), (0, true));
    // Repaired with no energy, needing a special (12): 13 is not enough, 12 is.
    let repairs = Script {
        repairs: Mutex::new(vec![RepairJob::EmergencyPower, RepairJob::EmergencyPower]),
        ..Script::default()
    };
    let mut b = f.battle(5, &[13, 12], [&repairs, &idle]);
    b.ships[0].damage[Loc::Generator as usize] = 11;
    b.ships[0].emergency_burnt = true;
    let battery = b.ships[0].battery;
    b.damage_control(0);
    assert!(!b.ships[0].emergency_burnt);
    assert_eq!(b.ships[0].battery, battery);
    // Damaged generator: half output.
    let mut b = f.battle(5, &[], [&idle, &idle]);
    b.ships[0].damage[Loc::Generator as usize] = 6;
    b.activation(0);
    assert_eq!(b.ships[0].energy, 5);
}

#[test]
fn warp_failure_table_by_margin() {
    let w = &Fixture::new("UFP heavy cruiser", "Transport").ctx.warp;
    assert_eq!(failure_band(w, 1), Some((0, 0)));
    assert_eq!(failure_band(w, 30), Some((0, 0)));
    assert_eq!(failure_band(w, 31), Some((1, 1)));
    assert_eq!(failure_band(w, 50), Some((1, 1)));
    assert_eq!(failure_band(w, 51), Some((2, 1)));
    assert_eq!(failure_band(w, 55), Some((2, 1)));
    assert_eq!(failure_band(w, 56), Some((2, 2)));
    assert_eq!(failure_band(w, 85), Some((2, 7)));
}

#[test]
fn warp_penalty_falls_with_distance_and_the_ship_escapes() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    me.energy = 11;
    let at = |d: i32| ShipState::new(&f.b, &f.ctx, Hex::new(d, 0), 3);
    assert_eq!(view(&f, &me, &at(7)).warp_penalty(), 65);
    assert!(
        view(&f, &me, &at(7)).can_warp().is_err(),
        "65 exceeds Navigation 60"
    );
    assert_eq!(view(&f, &me, &at(8)).warp_penalty(), 60);
    assert!(view(&f, &me, &at(8)).can_warp().is_ok());
    assert_eq!(view(&f, &me, &at(20)).warp_penalty(), 0);
    assert_eq!(view(&f, &me, &at(25)).warp_penalty(), 0);
    // Distance 10: Navigation 60 − 50 = 10. A 95 fails by 85: severe, 7 × 1D6 to hull and engines.
    let mut b = f.battle(
        10,
        &[95, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [&idle, &idle],
    );
    b.ships[0].energy = 11;
    b.warp(0);
    assert_eq!(b.ships[0].damage[Loc::Hull as usize], 7);
    assert_eq!(b.ships[0].damage[Loc::Engines as usize], 7);
    assert!(b.ships[0].escaped);
    assert_eq!(b.ships[0].energy, 8);
    // Margin 40: distortion, 1D6 each.
    let mut b = f.battle(10, &[50, 4, 2], [&idle, &idle]);
    b.ships[0].energy = 11;
    b.warp(0);
    assert_eq!(
        (
            b.ships[0].damage[Loc::Hull as usize],
            b.ships[0].damage[Loc::Engines as usize]
        ),
        (4, 2)
    );
    // A clean jump.
    let mut b = f.battle(10, &[10], [&idle, &idle]);
    b.ships[0].energy = 11;
    b.warp(0);
    assert!(b.ships[0].escaped && b.ships[0].damage == [0; 10]);
}

#[test]
fn maneuvers_inertia_free_turns_and_overspeed() {
    let f = Fixture::new("UFP destroyer", "Klingon battle cruiser");
    let idle = Script::default();
    let mut b = f.battle(8, &[20, 61, 10, 51, 4], [&idle, &idle]);
    b.ships[0].energy = 9;
    b.inertia(0);
    assert_eq!(b.ships[0].pos, Hex::new(1, 0));
    // Destroyer M = 2: two free turns, no roll.
    b.maneuver(0, Maneuver::TurnLeft);
    b.maneuver(0, Maneuver::TurnRight);
    assert_eq!(
        (
            b.ships[0].facing,
            b.ships[0].energy,
            b.ships[0].free_turns_used
        ),
        (0, 9, 2)
    );
    // Then turns cost 1 and roll Piloting (20: done).
    b.maneuver(0, Maneuver::TurnLeft);
    assert_eq!((b.ships[0].facing, b.ships[0].energy), (1, 8));
    // Forward, Piloting 61: fails, energy spent.
    b.maneuver(0, Maneuver::Forward);
    assert_eq!((b.ships[0].pos, b.ships[0].energy), (Hex::new(1, 0), 7));
    // Back costs 2: maneuver energy 4 > Vm 3: Piloting 10 ok; at the end of the maneuvers (R3)
    // one Engines roll at −10 (50): 51 fails, 1D6 = 4.
    b.maneuver(0, Maneuver::Back);
    assert_eq!(b.ships[0].pos, Hex::new(0, 1));
    assert_eq!(b.ships[0].damage[Loc::Engines as usize], 0);
    b.overspeed(0);
    assert_eq!(b.ships[0].damage[Loc::Engines as usize], 4);
    assert!(b.rng.exhausted());
}

#[test]
fn shields_turn_with_the_ship() {
    let f = Fixture::new("UFP destroyer", "Klingon battle cruiser");
    let idle = Script::default();
    // Piloting rolls: 20 succeeds, 99 fails (the destroyer's first two turns are free).
    let mut b = f.battle(8, &[20, 99], [&idle, &idle]);
    b.ships[0].energy = 9;
    // Front (absolute face 0 while facing 0) at 1, front-left (face 1) at 2.
    b.ships[0].shields = [1, 2, 3, 4, 5, 6];
    b.maneuver(0, Maneuver::TurnLeft);
    assert_eq!(b.ships[0].facing, 1);
    // The bow now points along direction 1 and its shield went with it.
    assert_eq!(b.ships[0].shields, [6, 1, 2, 3, 4, 5]);
    assert_eq!(b.ships[0].shields[b.ships[0].facing as usize], 1);
    b.maneuver(0, Maneuver::TurnRight);
    b.maneuver(0, Maneuver::TurnRight);
    assert_eq!(
        (b.ships[0].facing, b.ships[0].shields),
        (5, [2, 3, 4, 5, 6, 1])
    );
    // A failed turn leaves ship and shields as they were; moving does not turn them.
    b.maneuver(0, Maneuver::TurnRight);
    assert_eq!(
        (b.ships[0].facing, b.ships[0].shields),
        (5, [2, 3, 4, 5, 6, 1])
    );
    b.ships[0].energy = 9;
    b.inertia(0);
    assert_eq!(b.ships[0].shields, [2, 3, 4, 5, 6, 1]);
    assert!(b.rng.exhausted());
}

#[test]
fn no_maneuvering_while_the_enemy_is_cloaked_and_no_firing_while_cloaked() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    me.energy = 11;
    let mut enemy = ShipState::new(&f.b, &f.ctx, Hex::new(4, 0), 3);
    enemy.cloaked = true;
    assert!(view(&f, &me, &enemy)
        .can_maneuver(Maneuver::Forward)
        .is_err());
    assert_eq!(
        view(&f, &me, &enemy).can_fire(4),
        Err("the enemy is cloaked and undetected")
    );
    enemy.detected = true;
    assert!(view(&f, &me, &enemy).can_fire(4).is_ok());
    me.cloaked = true;
    assert_eq!(
        view(&f, &me, &enemy).can_fire(4),
        Err("a cloaked ship cannot fire")
    );
    assert!(view(&f, &me, &enemy).can_launch().is_err());
}

#[test]
fn sensors_find_a_cloaked_ship_only_on_a_special_and_only_for_that_turn() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let mut b = f.battle(4, &[13, 12], [&idle, &idle]);
    b.ships[1].cloaked = true;
    b.sensors(0);
    assert!(!b.ships[1].detected, "13 is a plain success");
    b.sensors(0);
    assert!(b.ships[1].detected);
    b.deactivation(0);
    assert!(!b.ships[1].detected);
}

#[test]
fn damaged_hull_switches_the_cloak_off() {
    let f = Fixture::new("Klingon battle cruiser", "UFP heavy cruiser");
    let mut s = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    s.cloaked = true;
    Target {
        ctx: &f.ctx,
        class: &f.a,
        state: &mut s,
        side: 0,
    }
    .damage_location(
        &mut Rigged::new(&[]),
        &mut Recorder::default(),
        Loc::Hull,
        6,
        None,
    );
    assert!(!s.cloaked);
}

#[test]
fn shields_phase_moves_and_adds_points_at_most_three_a_face() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let ops = Script {
        shield_ops: Mutex::new(vec![
            ShieldOp::Reinforce { face: 0 },
            ShieldOp::Transfer { from: 1, to: 0 },
            ShieldOp::Transfer { from: 5, to: 0 },
            ShieldOp::Reinforce { face: 0 },
        ]),
        ..Script::default()
    };
    let idle = Script::default();
    let mut b = f.battle(4, &[10, 10, 70], [&ops, &idle]);
    b.ships[0].energy = 5;
    b.ships[0].shields = [4, 10, 10, 10, 10, 10];
    b.shields_phase(0);
    // Two successes and a failure (70): face 0 gets 2; the second generator point is refused.
    assert_eq!(b.ships[0].shields, [6, 9, 10, 10, 10, 10]);
    assert_eq!(b.ships[0].energy, 4);
    assert!(b.log.0.iter().any(|e| matches!(e, Event::Refused { .. })));
    // A face at its rating takes nothing more; a transfer must be between neighbours.
    let me = &b.ships[0];
    let enemy = &b.ships[1];
    let v = View::knowing(&f.ctx, 1, (me, &f.a), (enemy, &f.b));
    assert!(v.can_transfer(0, 2).is_err());
    assert!(
        v.can_transfer(0, 1).is_ok(),
        "face 1 is below its rating and has received nothing from face 0"
    );
    assert!(v.can_reinforce(2).is_err(), "at its rating");
    // Damaged shield control: a transfer takes two points from the giver, a point costs 2 energy.
    let ops = Script {
        shield_ops: Mutex::new(vec![
            ShieldOp::Transfer { from: 1, to: 0 },
            ShieldOp::Reinforce { face: 0 },
        ]),
        ..Script::default()
    };
    let mut b = f.battle(4, &[10, 10], [&ops, &idle]);
    b.ships[0].energy = 5;
    b.ships[0].shields = [4, 10, 10, 10, 10, 10];
    b.ships[0].damage[Loc::ShieldControl as usize] = 6;
    b.shields_phase(0);
    assert_eq!(b.ships[0].shields, [6, 8, 10, 10, 10, 10]);
    assert_eq!(b.ships[0].energy, 3);
}

#[test]
fn repairs_by_condition_and_success_level() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let jobs = |n| Script {
        repairs: Mutex::new(vec![RepairJob::Location(Loc::Phasers); n]),
        ..Script::default()
    };
    // Light (3 points): 1 energy each; success 1, special 2.
    let t = jobs(2);
    let mut b = f.battle(4, &[13, 12], [&t, &idle]);
    b.ships[0].energy = 10;
    b.ships[0].damage[Loc::Phasers as usize] = 5;
    b.damage_control(0);
    assert_eq!(b.ships[0].damage[Loc::Phasers as usize], 2);
    assert_eq!(b.ships[0].energy, 8);
    // Critical (3): 4 points. Damaged (7): 2 energy.
    let t = jobs(1);
    let mut b = f.battle(4, &[3], [&t, &idle]);
    b.ships[0].energy = 10;
    b.ships[0].damage[Loc::Phasers as usize] = 7;
    b.damage_control(0);
    assert_eq!(
        (b.ships[0].damage[Loc::Phasers as usize], b.ships[0].energy),
        (3, 8)
    );
    // Badly damaged (12): 2 energy and at least a special: a 30 does nothing, a 10 repairs 2.
    let t = jobs(2);
    let mut b = f.battle(4, &[30, 10], [&t, &idle]);
    b.ships[0].energy = 10;
    b.ships[0].damage[Loc::Phasers as usize] = 12;
    b.damage_control(0);
    assert_eq!(
        (b.ships[0].damage[Loc::Phasers as usize], b.ships[0].energy),
        (10, 6)
    );
    // Engines are repaired with the Engines skill, the bridge with Electricity.
    assert_eq!(f.ctx.info(Loc::Engines).repair, Skill::Engines);
    assert_eq!(f.ctx.info(Loc::Bridge).repair, Skill::Electricity);
    assert_eq!(f.ctx.info(Loc::Hull).repair, Skill::Mechanics);
}

#[test]
fn first_aid_treats_one_two_or_four() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    for (roll, left) in [(70, 5), (40, 4), (12, 3), (3, 1)] {
        let mut b = f.battle(4, &[roll], [&idle, &idle]);
        b.ships[0].casualties = 5;
        b.damage_control(0);
        assert_eq!(b.ships[0].casualties, left, "first aid roll {roll}");
    }
}

#[test]
fn bridge_out_costs_a_whole_turn_then_skills_at_half() {
    let f = Fixture::new("UFP heavy cruiser", "Klingon battle cruiser");
    let idle = Script::default();
    let mut b = f.battle(6, &[], [&idle, &idle]);
    f.damage_a(&mut b.ships[0], Loc::Bridge, 11);
    assert_eq!(b.ships[0].casualties, 3);
    // The switching turn: only inertia, no rolls at all.
    b.side_turn(0);
    assert_eq!(b.ships[0].pos, Hex::new(1, 0));
    assert!(b
        .log
        .0
        .iter()
        .any(|e| matches!(e, Event::BridgeSwitching { .. })));
    assert!(!b.ships[0].bridge_out(&f.a));
    assert_eq!(b.ships[0].skill(&f.a, &f.ctx, Skill::Gunnery, 0), 30);
}

#[test]
fn transport_needs_a_downed_face_and_can_kill_the_team() {
    let f = Fixture::new("UFP heavy cruiser", "Transport");
    let idle = Script::default();
    let mut me = ShipState::new(&f.a, &f.ctx, Hex::new(0, 0), 0);
    let mut enemy = ShipState::new(&f.b, &f.ctx, Hex::new(2, 0), 3);
    enemy.shields_raised = true;
    assert_eq!(
        view(&f, &me, &enemy).can_transport(),
        Err("the enemy's shield toward us is up")
    );
    enemy.shields[3] = 0;
    assert!(view(&f, &me, &enemy).can_transport().is_ok());
    me.damage[Loc::Transporter as usize] = 11;
    assert!(view(&f, &me, &enemy).can_transport().is_err());
    // Failing by 25 kills the team; failing by 15 leaves it aboard; 50 arrives.
    for (roll, home, aboard, lost) in [(85, 5, 0, 1), (75, 6, 0, 0), (50, 5, 1, 0)] {
        let mut b = f.battle(2, &[roll], [&idle, &idle]);
        b.transport(0);
        let s = &b.ships[0];
        assert_eq!(
            (s.home_teams.alive(), s.boarders.alive(), s.teams_lost),
            (home, aboard, lost),
            "roll {roll}"
        );
    }
}

#[test]
fn boarders_fight_defenders_and_capture() {
    let f = Fixture::new("UFP heavy cruiser", "Transport");
    let attack = Script {
        actions: Mutex::new(vec![Action::Transport]),
        board: Some(BoardingOrder::AttackDefenders),
        ..Script::default()
    };
    let idle = Script::default();
    // Inertia to (1,0); transport roll 50 arrives; boarders D6 = 6, defender's D6 = 2: defenders
    // spent.
    let mut b = f.battle(2, &[50, 6, 2], [&attack, &idle]);
    b.ships[1].shields[3] = 0;
    b.move_fire_transport(0);
    assert!(b.ships[1].captured);
    assert_eq!(b.ships[0].boarders.endurance[0], 4);
    let o = b.outcome().unwrap();
    assert_eq!(o.winner(), Some(0));
}

#[test]
fn hidden_boarders_are_searched_for_and_attack_dice_step_down() {
    let f = Fixture::new("Transport", "UFP heavy cruiser");
    let idle = Script::default();
    let mut b = f.battle(2, &[30, 6, 3, 2], [&idle, &idle]);
    // Two cruiser teams hide aboard the transport, one already worn to endurance 4 (a D4).
    b.ships[1].boarders = Teams::default();
    b.ships[1].boarders.push(6);
    b.ships[1].boarders.push(4);
    b.ships[1].boarders_hidden = true;
    // The transport searches (Security 30: found) and fights: its D6 rolls 6; the boarders roll D6
    // 3 and D4 2.
    b.search(0);
    assert_eq!(b.ships[1].boarders.total_endurance(), 4);
    assert_eq!(b.ships[0].home_teams.total_endurance(), 1);
    assert!(!b.ships[0].captured, "one defender is still standing");
    let t = Teams {
        endurance: {
            let mut e = [0; 32];
            e[0] = 6;
            e[1] = 4;
            e[2] = 1;
            e
        },
        count: 3,
    };
    assert_eq!(t.dice(6, 6, 1).collect::<Vec<_>>(), vec![6, 4, 1]);
}

#[test]
fn default_tactic_battle_replays_from_its_seed() {
    let r = rules();
    let a = super::duel::duel(&r, "UFP heavy cruiser", "Klingon battle cruiser", 42, true).unwrap();
    let b = super::duel::duel(
        &r,
        "Crucero pesado de la UFP",
        "Crucero de batalla Klingon",
        42,
        true,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    let silent =
        super::duel::duel(&r, "UFP heavy cruiser", "Klingon battle cruiser", 42, false).unwrap();
    assert_eq!((silent.outcome, silent.turns), (a.outcome, a.turns));
    assert!(silent.events.is_empty() && !a.events.is_empty());
}

/// A tactic that raises shields and otherwise sits still (the trait's defaults): the plug-in
/// point in use.
struct Passive;

impl Tactic for Passive {
    fn name(&self) -> &str {
        "passive"
    }
    fn next_action(&self, _v: &View, memory: &mut super::tactics::Memory) -> Action {
        memory.words[0] += 1;
        Action::End
    }
}

#[test]
fn a_custom_tactic_plugs_into_simulations() {
    let r = rules();
    let opts = super::sim::SimOptions {
        threads: Some(2),
        ..super::sim::SimOptions::new("UFP light cruiser", "UFP light cruiser", 200, 3)
    };
    let default = super::tactics::ClassicTactic::default();
    let report = super::sim::simulate_with(&r, &opts, [&default, &Passive], &|_| {}).unwrap();
    assert_eq!(report.b.wins, 0, "a ship that never fires never wins");
    assert!(report.a.wins > 100, "{report:?}");
    // Same seeds, same tactics: the same report on one thread.
    let one = super::sim::simulate_with(
        &r,
        &super::sim::SimOptions {
            threads: Some(1),
            ..opts.clone()
        },
        [&default, &Passive],
        &|_| {},
    )
    .unwrap();
    assert_eq!(one, report);
}

/// What seeded results stand for, rather than their numbers (which change with every
/// change of play): the outcome kinds add up to the battles, the same seed gives the same
/// result on one thread and on two, and `simulate` plays the default tactic.
#[test]
fn simulation_results_hold_their_properties_for_their_seeds() {
    let r = rules();
    let classic = super::tactics::ClassicTactic::default();
    let default = super::default_tactic::DefaultTactic::of(&r).unwrap();
    let run = |t: &dyn super::tactics::Tactic, a: &str, b: &str, threads: usize| {
        let opts = super::sim::SimOptions {
            threads: Some(threads),
            ..super::sim::SimOptions::new(a, b, 300, 11)
        };
        super::sim::simulate_with(&r, &opts, [t, t], &|_| {}).unwrap()
    };
    for t in [&classic as &dyn super::tactics::Tactic, &default] {
        for (a, b) in [
            ("UFP heavy cruiser", "Klingon battle cruiser"),
            ("Romulan bird of prey", "UFP destroyer"),
        ] {
            let one = run(t, a, b, 1);
            assert_eq!(one, run(t, a, b, 2), "{a} vs {b}, {}", t.name());
            let o = one.outcomes;
            assert_eq!(o.total(), 300);
            assert_eq!(o.decided(), one.a.wins + one.b.wins);
            assert_eq!(one.draws, o.disengaged + o.unfinished);
            assert_eq!(one.escapes, o.escaped);
            assert!(one.mean_turns >= 1.0 && one.mean_turns <= 500.0);
        }
    }
    let plain = super::sim::simulate(
        &r,
        &super::sim::SimOptions::new("UFP heavy cruiser", "Klingon battle cruiser", 300, 11),
    )
    .unwrap();
    assert_eq!(
        plain,
        run(&default, "UFP heavy cruiser", "Klingon battle cruiser", 1)
    );
}
