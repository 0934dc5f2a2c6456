//! League schedules: a 2000-team rotation written as JSON (target: about a second), and the
//! balanced method for 64 teams (target: under 10 s), plus the search for sizes that are not
//! powers of two, up to 500 teams (target: under 5 s).
use arbiter::league::{
    schedule::{schedule, Method, ScheduleOptions},
    teams::Teams,
};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn rotation_2000_as_json(c: &mut Criterion) {
    let options = ScheduleOptions::default();
    c.bench_function("rotation 2000 teams, schedule + JSON", |b| {
        b.iter(|| {
            let s = schedule(&options, &Teams::Count(2000)).unwrap();
            s.to_json(None).len()
        })
    });
}

fn balanced(c: &mut Criterion) {
    let mut group = c.benchmark_group("balanced");
    for n in [64usize, 20, 60, 500] {
        let options = ScheduleOptions {
            method: Method::Balanced,
            seed: Some(1),
            ..ScheduleOptions::default()
        };
        group.bench_function(format!("{n} teams"), |b| {
            b.iter(|| {
                schedule(&options, &Teams::Count(n))
                    .unwrap()
                    .carryover
                    .value
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    targets = rotation_2000_as_json, balanced
}
criterion_main!(benches);
