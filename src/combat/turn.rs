//! A battle and its turn: each side plays all phases before the other — activation,
//! sensors, move/fire/transport, shields, damage control, deactivation.
use super::context::{Context, Loc};
use super::events::{Event, Log};
use super::hex::Hex;
use super::roller::Roller;
use super::ship::{Condition, ShipClass, ShipState};
use super::side::Side;
use super::skill::{Level, Skill};
use super::tactics::{Action, Tactic};
use super::view::View;
use serde::Serialize;

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OutcomeKind {
    Destroyed,
    Captured,
    Escaped,
    /// Contact lost: the ships out of each other's sensor range, neither closing, for the
    /// ruleset's `disengage_turns` turns (a ruling: the source is silent on lost contact).
    Disengaged,
    /// Still running at the turn limit, a safety cap (the source sets none).
    Unfinished,
}

impl OutcomeKind {
    /// Every kind, in the order reports list them.
    pub(crate) const ALL: [OutcomeKind; 5] = [
        OutcomeKind::Destroyed,
        OutcomeKind::Captured,
        OutcomeKind::Escaped,
        OutcomeKind::Disengaged,
        OutcomeKind::Unfinished,
    ];

    /// The kind's name in reports (as in JSON).
    pub(crate) fn name(self) -> &'static str {
        match self {
            OutcomeKind::Destroyed => "destroyed",
            OutcomeKind::Captured => "captured",
            OutcomeKind::Escaped => "escaped",
            OutcomeKind::Disengaged => "disengaged",
            OutcomeKind::Unfinished => "unfinished",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub(crate) kind: OutcomeKind,
    /// The side destroyed, captured or escaped (none when disengaged or unfinished).
    pub side: Option<u8>,
    /// Turns played (the last one possibly unfinished).
    pub turns: u32,
}

impl Outcome {
    /// The side that won: the other one of a ship destroyed or captured.
    pub(crate) fn winner(&self) -> Option<u8> {
        match (self.kind, self.side) {
            (OutcomeKind::Destroyed | OutcomeKind::Captured, Some(s)) => Some(1 - s),
            _ => None,
        }
    }
}

/// Where the two ships start, who moves first, and whose shields are up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub positions: [Hex; 2],
    pub facings: [u8; 2],
    pub(crate) first: Side,
    pub turn_limit: u32,
    /// Shields raised (and paid for, from the battery) before turn 1 (ruling R9: a standard
    /// battle is a meeting engagement; a scenario may set one false for an ambush).
    pub shields_up: [bool; 2],
}

impl Setup {
    /// The source's start: `start_distance` hexes apart, facing each other, side a first,
    /// both with shields up.
    pub fn standard(ctx: &Context) -> Setup {
        Setup {
            positions: [Hex::new(0, 0), Hex::new(ctx.start_distance as i32, 0)],
            facings: [0, 3],
            first: Side::A,
            turn_limit: ctx.turn_limit,
            shields_up: [true, true],
        }
    }

    /// The same start with `first` moving first.
    pub(crate) fn with_first(self, first: Side) -> Setup {
        Setup { first, ..self }
    }
}

/// What a battle's statistics need besides its outcome (counted as it is played).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Tallies {
    /// Side-turns each side spent cloaked (cloaked at the end of its activation).
    pub cloaked_turns: [u32; 2],
    /// Side-turns each side played.
    pub side_turns: [u32; 2],
    /// Phaser shots and torpedo launches by each side.
    pub shots: [u32; 2],
    /// Distance between the ships summed over every side-turn's end.
    pub distance_sum: u64,
    pub distance_samples: u32,
}

/// One battle between two ships.
pub struct Battle<'a, R: Roller, L: Log> {
    pub ctx: &'a Context,
    pub classes: [&'a ShipClass; 2],
    pub(crate) ships: [ShipState; 2],
    pub tactics: [&'a dyn Tactic; 2],
    pub rng: R,
    pub log: L,
    pub turn: u32,
    pub setup: Setup,
    /// Each side's tactic memory for this battle.
    pub memory: [super::tactics::Memory; 2],
    /// What each side knows of the other (ruling R5): `known[s]` is side s's picture of the
    /// enemy, refreshed by its Sensors rolls; position and facing whenever it can see it.
    pub(crate) known: [ShipState; 2],
    pub(crate) tallies: Tallies,
}

/// Most answers a tactic may give in one phase (a guard against tactics that never end).
const MAX_STEPS: usize = 64;

impl<'a, R: Roller, L: Log> Battle<'a, R, L> {
    pub fn new(
        ctx: &'a Context,
        classes: [&'a ShipClass; 2],
        tactics: [&'a dyn Tactic; 2],
        setup: Setup,
        rng: R,
        log: L,
    ) -> Self {
        let mut ships = [
            ShipState::new(classes[0], ctx, setup.positions[0], setup.facings[0]),
            ShipState::new(classes[1], ctx, setup.positions[1], setup.facings[1]),
        ];
        for (ship, up) in ships.iter_mut().zip(setup.shields_up) {
            if up {
                // Raised before the battle: the cost comes out of the battery where it can.
                ship.shields_raised = true;
                ship.battery = ship.battery.saturating_sub(ctx.energy.raise_shields);
            }
        }
        // Each ship has the other on its sensors as the battle begins.
        let known = [ships[1], ships[0]];
        Battle {
            ctx,
            classes,
            ships,
            tactics,
            rng,
            log,
            turn: 0,
            setup,
            memory: Default::default(),
            known,
            tallies: Tallies::default(),
        }
    }

    pub(crate) fn view(&self, side: usize) -> View<'_> {
        View::new(
            self.ctx,
            self.turn,
            (&self.ships[side], self.classes[side]),
            (
                &self.known[side],
                &self.ships[1 - side],
                self.classes[1 - side],
            ),
        )
    }

    /// What side `s` sees of the enemy without a roll: whether it is cloaked (it vanished), and
    /// where it is and which way it faces unless the cloak hides it.
    pub(crate) fn look(&mut self, s: usize) {
        let enemy = &self.ships[1 - s];
        let known = &mut self.known[s];
        known.cloaked = enemy.cloaked;
        known.detected = enemy.detected;
        if !enemy.cloaked || enemy.detected {
            known.pos = enemy.pos;
            known.facing = enemy.facing;
        }
    }

    /// The battle's end, if it has come.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        for s in 0..2 {
            let ship = &self.ships[s];
            let kind = if ship.destroyed {
                OutcomeKind::Destroyed
            } else if ship.captured {
                OutcomeKind::Captured
            } else if ship.escaped {
                OutcomeKind::Escaped
            } else {
                continue;
            };
            return Some(Outcome {
                kind,
                side: Some(s as u8),
                turns: self.turn,
            });
        }
        None
    }

    pub(crate) fn over(&self) -> bool {
        self.ships[0].out_of_battle() || self.ships[1].out_of_battle()
    }

    /// Play to the end.
    pub fn play(&mut self) -> Outcome {
        // Consecutive turns ended out of sensor range with the distance not shrinking.
        let mut apart = 0;
        for turn in 1..=self.setup.turn_limit {
            self.turn = turn;
            let start = self.distance();
            if L::ON {
                let ships = &self.ships;
                self.log.push(Event::Turn {
                    turn,
                    distance: start,
                    positions: [ships[0].pos, ships[1].pos].map(|p| [p.q, p.r]),
                    facings: [ships[0].facing, ships[1].facing],
                });
            }
            for side in [self.setup.first, self.setup.first.other()] {
                self.side_turn(side.index());
                let d = self.ships[0].pos.distance(self.ships[1].pos);
                self.tallies.distance_sum += d as u64;
                self.tallies.distance_samples += 1;
                if let Some(o) = self.outcome() {
                    return o;
                }
            }
            let end = self.distance();
            apart = if end > self.ctx.sensor_range && end >= start {
                apart + 1
            } else {
                0
            };
            if self.ctx.disengage_turns > 0 && apart >= self.ctx.disengage_turns {
                if L::ON {
                    self.log.push(Event::Disengaged {
                        turns: apart,
                        distance: end,
                    });
                }
                return Outcome {
                    kind: OutcomeKind::Disengaged,
                    side: None,
                    turns: turn,
                };
            }
        }
        Outcome {
            kind: OutcomeKind::Unfinished,
            side: None,
            turns: self.setup.turn_limit,
        }
    }

    /// Hexes between the two ships (their real positions).
    pub(crate) fn distance(&self) -> u32 {
        self.ships[0].pos.distance(self.ships[1].pos)
    }

    /// One side plays every phase.
    pub(crate) fn side_turn(&mut self, s: usize) {
        self.ships[s].reset_turn_tallies();
        self.look(s);
        self.tallies.side_turns[s] += 1;
        if self.ships[s].bridge_out(self.classes[s]) {
            // A whole turn doing nothing while the auxiliary bridge takes over; inertia still
            // moves.
            if L::ON {
                self.log.push(Event::BridgeSwitching { side: s as u8 });
            }
            self.inertia(s);
            self.ships[s].bridge_switch_left -= 1;
            self.end_of_turn(s);
            return;
        }
        self.activation(s);
        if self.over() {
            return;
        }
        self.sensors(s);
        self.look(s);
        self.move_fire_transport(s);
        if self.over() {
            return;
        }
        self.shields_phase(s);
        self.damage_control(s);
        self.deactivation(s);
    }

    /// Phase 0: search for hidden boarders, energy, cloak upkeep, shields and cloak on.
    pub(crate) fn activation(&mut self, s: usize) {
        self.search(s);
        if self.over() {
            return;
        }
        let class = self.classes[s];
        let ctx = self.ctx;
        let ship = &mut self.ships[s];
        ship.energy = ship.generator_output(class, ctx);
        if ship.level(class, Loc::Generator) >= Condition::BadlyDamaged {
            if !ship.emergency_burnt {
                ship.emergency_turns += 1;
                let penalty = (ship.emergency_turns * ctx.emergency.penalty_per_turn) as i32;
                let target = ship.skill(class, ctx, Skill::Mechanics, penalty);
                let roll = ctx.thresholds.roll(&mut self.rng, Skill::Mechanics, target);
                let burnt = !roll.level.succeeded();
                ship.emergency_burnt = burnt;
                if !burnt {
                    ship.energy += ctx.emergency.energy;
                }
                if L::ON {
                    self.log.push(Event::EmergencyPower {
                        side: s as u8,
                        roll,
                        burnt,
                        energy: ship.energy,
                    });
                }
            }
        } else {
            ship.emergency_turns = 0;
            ship.emergency_burnt = false;
        }
        if L::ON {
            self.log.push(Event::Activation {
                side: s as u8,
                energy: ship.energy,
                battery: ship.battery,
            });
        }
        // The cloak costs its energy every turn it stays on.
        if ship.cloaked && !ship.spend(ctx.energy.cloak) {
            ship.cloaked = false;
            ship.cloak_switched = self.turn;
            if L::ON {
                self.log.push(Event::Cloak {
                    side: s as u8,
                    on: false,
                });
            }
        }
        let orders = self.tactics[s].activation(&self.view(s));
        let ship = &mut self.ships[s];
        // R7: energy goes from the generator into the battery now; what is left of this turn's
        // energy at deactivation is lost. (The battery itself is spent in any phase.)
        let per = ctx.energy.battery_point.max(1);
        let charged = orders
            .charge_battery
            .min(class.battery.saturating_sub(ship.battery))
            .min(ship.energy / per);
        if charged > 0 {
            ship.energy -= charged * per;
            ship.battery += charged;
            if L::ON {
                self.log.push(Event::BatteryCharged {
                    side: s as u8,
                    points: charged,
                    battery: ship.battery,
                });
            }
        }
        if orders.raise_shields && !ship.shields_raised && ship.spend(ctx.energy.raise_shields) {
            ship.shields_raised = true;
            if L::ON {
                self.log.push(Event::ShieldsRaised {
                    side: s as u8,
                    energy: ctx.energy.raise_shields,
                });
            }
        }
        let cloak_works = class.cloak && ship.level(class, Loc::Hull) == Condition::Light;
        if orders.cloak && !ship.cloaked && cloak_works && ship.spend(ctx.energy.cloak) {
            ship.cloaked = true;
            ship.cloak_switched = self.turn;
            if L::ON {
                self.log.push(Event::Cloak {
                    side: s as u8,
                    on: true,
                });
            }
        }
        if self.ships[s].cloaked {
            self.tallies.cloaked_turns[s] += 1;
        }
    }

    /// Phase 1: a Sensors roll learns the enemy's state; a special finds a cloaked enemy.
    pub(crate) fn sensors(&mut self, s: usize) {
        let class = self.classes[s];
        if self.ships[s].level(class, Loc::Sensors) >= Condition::BadlyDamaged {
            return;
        }
        // The short-range sensors reach `sensor_range` hexes: "El sensor utilizado en el
        // combate es el de corto alcance que tiene un rango de 10 hexágonos (1000 Km)."
        // Beyond it there is nothing to learn and no cloak to find.
        let distance = self.distance();
        if distance > self.ctx.sensor_range {
            self.ships[1 - s].detected = false;
            self.ships[s].status_known = false;
            if L::ON {
                self.log.push(Event::SensorsOutOfRange {
                    side: s as u8,
                    distance,
                });
            }
            return;
        }
        let target = self.ships[s].skill(class, self.ctx, Skill::Sensors, 0);
        let roll = self
            .ctx
            .thresholds
            .roll(&mut self.rng, Skill::Sensors, target);
        let cloaked = self.ships[1 - s].cloaked;
        let detected = cloaked && roll.level >= Level::Special;
        self.ships[1 - s].detected = detected;
        let learned = roll.level.succeeded() && (!cloaked || detected);
        self.ships[s].status_known = learned;
        if learned {
            self.known[s] = self.ships[1 - s];
        }
        if L::ON {
            self.log.push(Event::Sensors {
                side: s as u8,
                roll,
                enemy_cloaked: cloaked,
                detected,
                special_needs: cloaked.then(|| self.ctx.thresholds.highest(Level::Special, target)),
            });
        }
    }

    /// Phase 2: inertia, then the tactic's maneuvers, shots, launch, transport or jump.
    pub(crate) fn move_fire_transport(&mut self, s: usize) {
        self.inertia(s);
        for _ in 0..MAX_STEPS {
            let view = View::new(
                self.ctx,
                self.turn,
                (&self.ships[s], self.classes[s]),
                (&self.known[s], &self.ships[1 - s], self.classes[1 - s]),
            );
            let action = self.tactics[s].next_action(&view, &mut self.memory[s]);
            let refused = {
                let v = self.view(s);
                match action {
                    Action::End => break,
                    Action::Move(m) => v.can_maneuver(m).err(),
                    Action::Fire { dice } => v.can_fire(dice).err(),
                    Action::Torpedo => v.can_launch().err(),
                    Action::Transport => v.check_transport().err(),
                    Action::Warp => v.check_warp().err(),
                }
            };
            if let Some(reason) = refused {
                if L::ON {
                    self.log.push(Event::Refused {
                        side: s as u8,
                        action: format!("{action:?}"),
                        reason,
                    });
                }
                break;
            }
            match action {
                Action::Move(m) => self.maneuver(s, m),
                Action::Fire { dice } => {
                    self.tallies.shots[s] += 1;
                    self.fire_phasers(s, dice)
                }
                Action::Torpedo => {
                    self.tallies.shots[s] += 1;
                    self.launch_torpedo(s)
                }
                Action::Transport => self.transport(s),
                Action::Warp => self.warp(s),
                Action::End => {}
            }
            if self.over() {
                return;
            }
        }
        // R3: one Engines roll for the turn's maneuvers beyond maximum speed.
        self.overspeed(s);
        if self.over() {
            return;
        }
        self.boarders_act(s);
    }

    /// Phase 5: lower what the tactic lowers; the rest of the turn's energy is lost (R7).
    pub(crate) fn deactivation(&mut self, s: usize) {
        let orders = self.tactics[s].deactivation(&self.view(s));
        let ship = &mut self.ships[s];
        let lost = ship.energy;
        let decloaked = orders.decloak && ship.cloaked;
        if decloaked {
            ship.cloaked = false;
            ship.cloak_switched = self.turn;
        }
        let lowered = orders.lower_shields && ship.shields_raised;
        if lowered {
            ship.shields_raised = false;
        }
        if L::ON {
            self.log.push(Event::Deactivation {
                side: s as u8,
                lost,
                decloaked,
                lowered_shields: lowered,
            });
        }
        self.end_of_turn(s);
    }

    fn end_of_turn(&mut self, s: usize) {
        self.ships[s].energy = 0;
        // A cloaked enemy found this turn can be fired at only this turn.
        self.ships[1 - s].detected = false;
    }
}
