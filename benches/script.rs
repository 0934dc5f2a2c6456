//! The costs an engine pays for scripting: building a sandboxed engine, calling a compiled
//! rhai function (a rule hook) with serde data, editing a ruleset, and a simulation with a
//! rhai tactic against the same simulation with the built-in tactic (target: at most 5×).
use arbiter::combat::{
    self,
    sim::SimOptions,
    tactics::{ClassicTactic, Tactic},
};
use arbiter::script::hook::CompiledHook;
use arbiter::script::run::Runner;
use arbiter::script::tactic::ScriptTactic;
use arbiter::{rules::limits::Limits, script::engine::Session};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::json;
use std::hint::black_box;
use std::time::Duration;

fn scripting(c: &mut Criterion) {
    let limits = Limits::default();
    c.bench_function("session engine: build", |b| {
        b.iter(|| arbiter::script::engine::session_engine(&Session::new(false, limits)))
    });

    let hook = CompiledHook::compile(
        "tactic",
        "tactic.rhai",
        "fn tactic(me, enemy, ctx) {\n  let power = me.generator - 2;\n  if enemy.shields > 8 && \
         ctx.range < 4 { #{ phasers: power, move: 0 } } else { #{ phasers: power / 2, move: 2 } \
         }\n}\n",
        &limits,
    )
    .expect("compiles");
    let args = [
        json!({"generator": 11, "shields": 10}),
        json!({"generator": 9, "shields": 9}),
        json!({"range": 3, "turn": 4}),
    ];
    c.bench_function("hook: call with 3 maps, map result", |b| {
        b.iter(|| hook.call::<serde_json::Value>(&args).expect("runs"))
    });

    let dynamic_args: Vec<rhai::Dynamic> = args
        .iter()
        .map(arbiter::script::api::convert::json_to_dynamic)
        .collect();
    c.bench_function("hook: call with 3 prebuilt script maps", |b| {
        b.iter(|| hook.call_dynamic(dynamic_args.clone()).expect("runs"))
    });

    let mut runner = Runner::new(Session::new(false, limits));
    runner
        .eval("<setup>", "let r = rules(\"startrek\");")
        .map(|_| ())
        .expect("loads");
    c.bench_function("ruleset: edit a ship field (validated)", |b| {
        b.iter(|| {
            runner
                .eval("<edit>", "r.ship(\"UFP heavy cruiser\").shields = 9;")
                .expect("edits")
        })
    });
}

/// A tactic that reads the situation every turn and, as it happens, orders what the built-in
/// tactic does anyway: the two simulations fight the same battles, so the difference in time
/// is the cost of calling rhai (once per side per turn).
const TACTIC: &str = "fn tactic(me, enemy, ctx) {
  let orders = #{ range: 3, fire_at: 0.15, torpedo_at: 0.35, warp_margin: 3 };
  if me.hull == \"badly_damaged\" && ctx.distance > ctx.sensor_range { orders.range = \
                      ctx.distance; }
  if enemy.shield_toward > me.shield_rating * 2 { orders.fire_at = 0.5; }
  orders
}
";

fn tactics(c: &mut Criterion) {
    let rules = arbiter::rules::load::load("startrek").unwrap();
    const N: u64 = 500;
    let opts = SimOptions {
        threads: Some(1),
        ..SimOptions::new("UFP heavy cruiser", "Klingon battle cruiser", N, 7)
    };
    let built_in = ClassicTactic::default();
    let script =
        ScriptTactic::compile("bench_tactic.rhai", TACTIC, &Limits::default()).expect("compiles");
    let run = |sides: [&dyn Tactic; 2]| {
        combat::sim::simulate_with(&rules, &opts, sides, &|_| {}).unwrap()
    };
    // Same battles, same result: the comparison is fair.
    assert_eq!(
        run([&built_in, &built_in]),
        run([&script, &script]),
        "the mirroring tactic must fight the built-in's battles"
    );
    assert!(script.take_failure().is_none());

    let mut g = c.benchmark_group("sim 500 battles, 1 thread");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(N));
    g.bench_function("built-in tactic both sides", |b| {
        b.iter(|| black_box(run([&built_in, &built_in])))
    });
    g.bench_function("rhai tactic both sides", |b| {
        b.iter(|| black_box(run([&script, &script])))
    });
    g.bench_function("rhai tactic one side", |b| {
        b.iter(|| black_box(run([&script, &built_in])))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    targets = scripting, tactics
}
criterion_main!(benches);
