//! Formula evaluation: a compiled formula evaluated a million times, as the engines do (CEP
//! points for every player, a K-factor for every rated game, a ship's stats at setup).
use arbiter::rules::formula::Formula;
use arbiter::rules::scoring::CepVariables;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

const EVALUATIONS: usize = 1_000_000;

/// The CEP points formula's variables, in the order the engine passes them.
const CEP: &[&str] = &[
    "result",
    "violence",
    "grade",
    "game_value",
    "index",
    "own_value",
    "side_value",
    "residue",
    "grade_index",
    "turns",
];
const SHIP: &[&str] = &[
    "shields",
    "max_speed",
    "maneuverability",
    "phaser_dice",
    "torpedoes",
    "repair_teams",
    "security_teams",
];

/// Evaluate `text` compiled against `names` a million times, varying the first value.
fn million(text: &str, names: &[&str]) -> impl FnMut() -> f64 {
    let formula = Formula::parse(text).expect("formula");
    formula.check(names).expect("variables");
    let compiled = formula.compile(names);
    let mut values: Vec<f64> = (0..names.len()).map(|i| 1.0 + i as f64 * 0.25).collect();
    move || {
        let mut total = 0.0;
        for i in 0..EVALUATIONS {
            values[0] = (i % 97) as f64;
            total += compiled.eval(black_box(&values));
        }
        total
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("formula_1M_evaluations");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let mut cep = million("result * violence * grade * game_value", CEP);
    g.bench_function("cep points", |b| b.iter(&mut cep));
    // The same, as the CEP engine passes its variables: a struct whose fields name them.
    let points = Formula::parse("result * violence * grade * game_value").expect("formula");
    let typed = points.compile_for::<CepVariables>();
    g.bench_function("cep points (CepVariables struct)", |b| {
        b.iter(|| {
            let mut v = CepVariables {
                violence: 1.25,
                grade: 1.5,
                game_value: 1.75,
                ..Default::default()
            };
            let mut total = 0.0;
            for i in 0..EVALUATIONS {
                v.result = (i % 97) as f64;
                total += typed.eval(black_box(&v));
            }
            total
        })
    });
    let mut generator = million("2 * phaser_dice + max_speed", SHIP);
    g.bench_function("ship generator", |b| b.iter(&mut generator));
    let mut k = million(
        "if games < 30 then 40 else clamp(round(2400 / max(rating, 1) * 10), 10, 20)",
        &["games", "rating"],
    );
    g.bench_function("k-factor with calls", |b| b.iter(&mut k));
    // A ship's stats at setup: a lookup by name (`Formula::eval_with`).
    let formula = Formula::parse("2 * phaser_dice + max_speed").expect("formula");
    g.bench_function("ship generator by name lookup", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for i in 0..EVALUATIONS {
                let speed = (i % 97) as f64;
                total += formula.eval_with(&|name| match name {
                    "phaser_dice" => Some(black_box(8.0)),
                    "max_speed" => Some(speed),
                    _ => None,
                });
            }
            total
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
