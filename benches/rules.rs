//! Loading rulesets: the built-in ones (rules language and YAML), and a house rule read from a
//! file that extends one, so the cost of reading, parsing, `extends` and validation is measured.
use arbiter::rules::load;
use criterion::{criterion_group, criterion_main, Criterion};
use std::io::Write;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut house = tempfile::Builder::new()
        .suffix(".rules")
        .tempfile()
        .expect("temp file");
    house
        .write_all(include_bytes!("../examples/house-startrek.rules"))
        .expect("write");
    let house_path = house.path().to_str().expect("utf-8 path").to_string();
    let mut g = c.benchmark_group("load_ruleset");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("startrek (rules language)", |b| {
        b.iter(|| load::load("startrek").expect("startrek").ships.len())
    });
    g.bench_function("cep (YAML)", |b| {
        b.iter(|| load::load("cep").expect("cep").name.len())
    });
    g.bench_function("house rule file extending startrek", |b| {
        b.iter(|| load::load(&house_path).expect("house").ships.len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
