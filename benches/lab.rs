//! The balance lab's speed targets (issue 14), on the machine's cores:
//! * `balance` UFP heavy cruiser vs Klingon battle cruiser, varying the Klingon's shields, at
//!   precision 0.03: under 10 s on 2 cores;
//! * `matrix` over the 12 built-in ships at 400 battles a cell (52,800 battles): under 60 s.
use arbiter::combat::default_tactic::DefaultTactic;
use arbiter::combat::lab::{self, balance::BalanceOptions, matrix::MatrixOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

fn lab_targets(c: &mut Criterion) {
    let rules = arbiter::rules::load::load("startrek").unwrap();
    let t = DefaultTactic::of(&rules).unwrap();
    let mut g = c.benchmark_group("lab");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    let options = BalanceOptions {
        precision: 0.03,
        ..BalanceOptions::default()
    };
    let report = lab::balance::balance(
        &rules,
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "/ships/Klingon battle cruiser/shields",
        &options,
        [&t, &t],
        &|_| {},
    )
    .unwrap();
    eprintln!(
        "balance: shields {} after {} battles over {} values; a fixed-size search of the same \
         precision: {} battles",
        report.value,
        report.battles,
        report.tried.len(),
        report.fixed_size_battles
    );
    g.bench_function(
        "balance heavy cruiser vs Klingon shields, precision 0.03",
        |b| {
            b.iter(|| {
                black_box(
                    lab::balance::balance(
                        &rules,
                        "UFP heavy cruiser",
                        "Klingon battle cruiser",
                        "/ships/Klingon battle cruiser/shields",
                        &options,
                        [&t, &t],
                        &|_| {},
                    )
                    .unwrap(),
                )
            })
        },
    );
    let matrix = MatrixOptions {
        ships: Vec::new(),
        battles: 400,
        seed: 1,
        points_scale: 100.0,
    };
    g.bench_function("matrix of the 12 built-in ships, 400 battles a cell", |b| {
        b.iter(|| black_box(lab::matrix::matrix(&rules, &matrix, [&t, &t], &|_| {}).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, lab_targets);
criterion_main!(benches);
