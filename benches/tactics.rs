//! The default tactic's cost against the classic one's, in one run, per side-turn: the same
//! 64 seeded battles (heavy cruiser vs Klingon battle cruiser, the standard start) for each,
//! with the side-turns they take as criterion's throughput; and a
//! simulation of the default tactic on one and on two threads (the scaling target: 2
//! threads at least 1.8 times as fast as 1).
use arbiter::combat::events::Silent;
use arbiter::combat::roller::battle_seed;
use arbiter::combat::{
    self,
    context::Context,
    default_tactic::DefaultTactic,
    roller::Pcg,
    sim::SimOptions,
    tactics::{ClassicTactic, Tactic},
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn battles(c: &mut Criterion) {
    let rules = arbiter::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let a = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let b = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let setup = combat::turn::Setup::standard(&ctx);
    let classic = ClassicTactic::default();
    let default = DefaultTactic::of(&rules).unwrap();
    // Per side-turn: both tactics play the same fixed set of seeded battles each iteration,
    // and the throughput is the side-turns those battles take (two a turn played, the last
    // possibly cut short), so criterion's elements/s compare the tactics per side-turn even
    // though their battles last different numbers of turns.
    let seeds: Vec<u64> = (0..64).map(|i| battle_seed(7, i)).collect();
    let sides: [(&str, &dyn Tactic); 2] = [("classic", &classic), ("default", &default)];
    let play_all = |t: &dyn Tactic| -> u64 {
        seeds
            .iter()
            .map(|&seed| {
                let mut battle = combat::turn::Battle::new(
                    &ctx,
                    [&a, &b],
                    [t, t],
                    setup,
                    Pcg::new(seed),
                    Silent,
                );
                2 * battle.play().turns as u64
            })
            .sum()
    };
    let mut g = c.benchmark_group("tactic side-turn");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for (name, t) in sides {
        let side_turns = play_all(t);
        eprintln!("{name}: {side_turns} side-turns in {} battles", seeds.len());
        g.throughput(Throughput::Elements(side_turns));
        g.bench_function(name, |bench| bench.iter(|| black_box(play_all(t))));
    }
    g.finish();

    let mut g = c.benchmark_group("tactic sim");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let battles = 2048;
    g.throughput(Throughput::Elements(battles));
    for threads in [1, 2] {
        let opts = SimOptions {
            threads: Some(threads),
            ..SimOptions::new("UFP heavy cruiser", "Klingon battle cruiser", battles, 7)
        };
        g.bench_function(format!("default, {threads} thread(s)"), |bench| {
            bench.iter(|| {
                black_box(combat::sim::simulate_with(
                    &rules,
                    &opts,
                    [&default, &default],
                    &|_| {},
                ))
                .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
