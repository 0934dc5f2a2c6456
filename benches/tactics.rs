//! The default tactic's cost against the classic one's, in one run: one battle at a time
//! (heavy cruiser vs Klingon battle cruiser, the standard start, the same seeds), and a
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
    let mut g = c.benchmark_group("tactic battle");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(1));
    let sides: [(&str, &dyn Tactic); 2] = [("classic", &classic), ("default", &default)];
    for (name, t) in sides {
        let mut i = 0u64;
        g.bench_function(name, |bench| {
            bench.iter(|| {
                // The same 1024 seeds round and round for both tactics.
                i = (i + 1) % 1024;
                let mut battle = combat::turn::Battle::new(
                    &ctx,
                    [&a, &b],
                    [t, t],
                    setup,
                    Pcg::new(battle_seed(7, i)),
                    Silent,
                );
                black_box(battle.play())
            })
        });
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
