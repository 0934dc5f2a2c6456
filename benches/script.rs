//! The costs an engine pays for scripting: building a sandboxed engine, calling a compiled
//! rhai function (a rule hook, later a tactic) with serde data, and editing a ruleset.
//! (The rhai-tactic vs built-in-tactic simulation lands with the combat engine.)
use arbiter::script::hook::CompiledHook;
use arbiter::script::run::Runner;
use arbiter::script::{Limits, Session};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::time::Duration;

fn scripting(c: &mut Criterion) {
    let limits = Limits::default();
    c.bench_function("session engine: build", |b| b.iter(|| arbiter::script::engine::session_engine(&Session::new(false, limits))));

    let hook = CompiledHook::compile(
        "tactic",
        "tactic.rhai",
        "fn tactic(me, enemy, ctx) {\n  let power = me.generator - 2;\n  if enemy.shields > 8 && ctx.range < 4 { #{ phasers: power, move: 0 } } else { #{ phasers: power / 2, move: 2 } }\n}\n",
        &limits,
    )
    .expect("compiles");
    let args = [json!({"generator": 11, "shields": 10}), json!({"generator": 9, "shields": 9}), json!({"range": 3, "turn": 4})];
    c.bench_function("hook: call with 3 maps, map result", |b| {
        b.iter(|| hook.call::<serde_json::Value>(&args).expect("runs"))
    });

    let dynamic_args: Vec<rhai::Dynamic> = args.iter().map(arbiter::script::api::convert::json_to_dynamic).collect();
    c.bench_function("hook: call with 3 prebuilt script maps", |b| b.iter(|| hook.call_dynamic(dynamic_args.clone()).expect("runs")));

    let mut runner = Runner::new(Session::new(false, limits));
    runner.eval("<setup>", "let r = rules(\"startrek\");").map(|_| ()).expect("loads");
    c.bench_function("ruleset: edit a ship field (validated)", |b| {
        b.iter(|| runner.eval("<edit>", "r.ship(\"UFP heavy cruiser\").shields = 9;").expect("edits"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = scripting
}
criterion_main!(benches);
