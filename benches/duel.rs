//! Duel throughput: one battle at a time (heavy cruiser vs Klingon battle cruiser, default
//! tactics, standard start), and a whole simulation on one and on two threads.
//!
//! Two more runs split a default battle's cost between the engine and the tactic:
//! * replayed: the same battles with the default tactic's answers recorded beforehand and
//!   played back, so the engine does all the same work (every maneuver, shot, shield point,
//!   repair and roll) and the decisions cost nothing;
//! * only shoot: both sides only raise shields and shoot (no maneuvers, shield work, repairs
//!   or boarding), the engine's floor for a battle of about the same length.
use arbiter::combat::events::Silent;
use arbiter::combat::roller::battle_seed;
use arbiter::combat::tactics::{
    Activation, BoardingOrder, Deactivation, Memory, RepairJob, ShieldOp,
};
use arbiter::combat::view::View;
use arbiter::combat::{
    self,
    context::{Context, Loc},
    roller::Pcg,
    sim::SimOptions,
    tactics::{Action, ClassicTactic, Tactic},
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

fn duels(c: &mut Criterion) {
    let rules = arbiter::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let a = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let b = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let t = ClassicTactic::default();
    let setup = combat::turn::Setup::standard(&ctx);
    let mut g = c.benchmark_group("duel");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function(
        "heavy cruiser vs Klingon battle cruiser, 1 thread",
        |bench| {
            bench.iter(|| {
                i += 1;
                let mut battle = combat::turn::Battle::new(
                    &ctx,
                    [&a, &b],
                    [&t, &t],
                    setup,
                    Pcg::new(battle_seed(7, i)),
                    Silent,
                );
                black_box(battle.play())
            })
        },
    );
    // Record 256 default battles' answers, then replay them round and round.
    let recorded: Vec<[Vec<Answer>; 2]> = (0..256)
        .map(|i| {
            let rec = [Recorder::new(&t), Recorder::new(&t)];
            let mut battle = combat::turn::Battle::new(
                &ctx,
                [&a, &b],
                [&rec[0], &rec[1]],
                setup,
                Pcg::new(battle_seed(7, i)),
                Silent,
            );
            let outcome = battle.play();
            let answers = rec.map(|r| r.answers.into_inner().unwrap());
            let replay = [Replay::new(&answers[0]), Replay::new(&answers[1])];
            let mut again = combat::turn::Battle::new(
                &ctx,
                [&a, &b],
                [&replay[0], &replay[1]],
                setup,
                Pcg::new(battle_seed(7, i)),
                Silent,
            );
            assert_eq!(
                again.play(),
                outcome,
                "a replayed battle ends as the recorded one did"
            );
            answers
        })
        .collect();
    let mut i = 0usize;
    g.bench_function(
        "the same, default answers replayed (engine only), 1 thread",
        |bench| {
            bench.iter(|| {
                i += 1;
                let answers = &recorded[i % recorded.len()];
                let replay = [Replay::new(&answers[0]), Replay::new(&answers[1])];
                let mut battle = combat::turn::Battle::new(
                    &ctx,
                    [&a, &b],
                    [&replay[0], &replay[1]],
                    setup,
                    Pcg::new(battle_seed(7, (i % recorded.len()) as u64)),
                    Silent,
                );
                black_box(battle.play())
            })
        },
    );
    let shooter = OnlyShoots;
    let mut i = 0u64;
    g.bench_function(
        "the same, both sides only shoot (engine floor), 1 thread",
        |bench| {
            bench.iter(|| {
                i += 1;
                let mut battle = combat::turn::Battle::new(
                    &ctx,
                    [&a, &b],
                    [&shooter, &shooter],
                    setup,
                    Pcg::new(battle_seed(7, i)),
                    Silent,
                );
                black_box(battle.play())
            })
        },
    );
    // The same simulation on one and on two threads: the ratio is the thread scaling.
    const N: u64 = 4_000;
    g.throughput(Throughput::Elements(N));
    for threads in [1, 2] {
        let opts = SimOptions {
            threads: Some(threads),
            ..SimOptions::new("UFP heavy cruiser", "Klingon battle cruiser", N, 7)
        };
        g.bench_function(
            format!(
                "sim of 4000 battles, {threads} thread{}",
                if threads == 1 { "" } else { "s" }
            ),
            |bench| bench.iter(|| black_box(combat::sim::simulate(&rules, &opts).unwrap())),
        );
    }
    g.finish();
}

/// One answer a tactic gave.
#[derive(Debug, Clone, Copy)]
enum Answer {
    Activation(Activation),
    Action(Action),
    Location(Loc),
    Shield(Option<ShieldOp>),
    Repair(Option<RepairJob>),
    Boarding(BoardingOrder),
    Absorb(bool),
    Deactivation(Deactivation),
}

/// Asks the default tactic and writes down every answer in order.
struct Recorder<'a> {
    inner: &'a dyn Tactic,
    answers: Mutex<Vec<Answer>>,
}

impl<'a> Recorder<'a> {
    fn new(inner: &'a dyn Tactic) -> Self {
        Recorder {
            inner,
            answers: Mutex::new(Vec::new()),
        }
    }
    fn note<T: Copy>(&self, value: T, answer: fn(T) -> Answer) -> T {
        self.answers.lock().unwrap().push(answer(value));
        value
    }
}

impl Tactic for Recorder<'_> {
    fn name(&self) -> &str {
        "recorder"
    }
    fn activation(&self, v: &View) -> Activation {
        self.note(self.inner.activation(v), Answer::Activation)
    }
    fn next_action(&self, v: &View, memory: &mut Memory) -> Action {
        self.note(self.inner.next_action(v, memory), Answer::Action)
    }
    fn choose_location(&self, v: &View) -> Loc {
        self.note(self.inner.choose_location(v), Answer::Location)
    }
    fn next_shield_op(&self, v: &View) -> Option<ShieldOp> {
        self.note(self.inner.next_shield_op(v), Answer::Shield)
    }
    fn repair(&self, v: &View, team: u32) -> Option<RepairJob> {
        self.note(self.inner.repair(v, team), Answer::Repair)
    }
    fn boarding(&self, v: &View) -> BoardingOrder {
        self.note(self.inner.boarding(v), Answer::Boarding)
    }
    fn absorb(&self, v: &View, damage: u32) -> bool {
        self.note(self.inner.absorb(v, damage), Answer::Absorb)
    }
    fn deactivation(&self, v: &View) -> Deactivation {
        self.note(self.inner.deactivation(v), Answer::Deactivation)
    }
}

/// Gives recorded answers back in order (one battle, one thread: plain loads and stores).
struct Replay<'a> {
    answers: &'a [Answer],
    next: AtomicUsize,
}

impl<'a> Replay<'a> {
    fn new(answers: &'a [Answer]) -> Self {
        Replay {
            answers,
            next: AtomicUsize::new(0),
        }
    }
    /// The next answer, which must be of the kind `pick` takes.
    fn take<T>(&self, pick: fn(Answer) -> Option<T>) -> T {
        let i = self.next.load(Ordering::Relaxed);
        self.next.store(i + 1, Ordering::Relaxed);
        pick(self.answers[i])
            .unwrap_or_else(|| panic!("replay out of step at answer {i}: {:?}", self.answers[i]))
    }
}

impl Tactic for Replay<'_> {
    fn name(&self) -> &str {
        "replay"
    }
    fn activation(&self, _v: &View) -> Activation {
        self.take(|a| {
            if let Answer::Activation(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn next_action(&self, _v: &View, _memory: &mut Memory) -> Action {
        self.take(|a| {
            if let Answer::Action(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn choose_location(&self, _v: &View) -> Loc {
        self.take(|a| {
            if let Answer::Location(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn next_shield_op(&self, _v: &View) -> Option<ShieldOp> {
        self.take(|a| {
            if let Answer::Shield(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn repair(&self, _v: &View, _team: u32) -> Option<RepairJob> {
        self.take(|a| {
            if let Answer::Repair(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn boarding(&self, _v: &View) -> BoardingOrder {
        self.take(|a| {
            if let Answer::Boarding(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn absorb(&self, _v: &View, _damage: u32) -> bool {
        self.take(|a| {
            if let Answer::Absorb(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
    fn deactivation(&self, _v: &View) -> Deactivation {
        self.take(|a| {
            if let Answer::Deactivation(x) = a {
                Some(x)
            } else {
                None
            }
        })
    }
}

/// Raises shields, fires every phaser die and launches a torpedo whenever the rules allow;
/// nothing else (the trait's defaults).
struct OnlyShoots;

impl Tactic for OnlyShoots {
    fn name(&self) -> &str {
        "only shoots"
    }
    fn next_action(&self, v: &View, _memory: &mut Memory) -> Action {
        if v.can_fire(v.phaser_dice_left()).is_ok() {
            Action::Fire {
                dice: v.phaser_dice_left(),
            }
        } else if v.can_launch().is_ok() {
            Action::Torpedo
        } else {
            Action::End
        }
    }
}

criterion_group!(benches, duels);
criterion_main!(benches);
