//! Duel throughput: one battle at a time (heavy cruiser vs Klingon battle cruiser, default
//! tactics, standard start), and a whole simulation on one and on two threads.
use arbiter::combat::{self, Context, DefaultTactic, Pcg, SimOptions};
use arbiter::combat::events::Silent;
use arbiter::combat::roller::battle_seed;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn duels(c: &mut Criterion) {
    let rules = arbiter::rules::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let a = ctx.class(&rules, "UFP heavy cruiser").unwrap();
    let b = ctx.class(&rules, "Klingon battle cruiser").unwrap();
    let t = DefaultTactic::default();
    let setup = combat::Setup::standard(&ctx);
    let mut g = c.benchmark_group("duel");
    g.sample_size(10).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function("heavy cruiser vs Klingon battle cruiser, 1 thread", |bench| {
        bench.iter(|| {
            i += 1;
            let mut battle = combat::Battle::new(&ctx, [&a, &b], [&t, &t], setup, Pcg::new(battle_seed(7, i)), Silent);
            black_box(battle.play())
        })
    });
    // The same simulation on one and on two threads: the ratio is the thread scaling.
    const N: u64 = 4_000;
    g.throughput(Throughput::Elements(N));
    for threads in [1, 2] {
        let opts = SimOptions {
            a: "UFP heavy cruiser".into(),
            b: "Klingon battle cruiser".into(),
            battles: N,
            seed: 7,
            threads: Some(threads),
            scenario: None,
        };
        g.bench_function(format!("sim of 4000 battles, {threads} thread{}", if threads == 1 { "" } else { "s" }), |bench| {
            bench.iter(|| black_box(combat::simulate(&rules, &opts).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, duels);
criterion_main!(benches);
