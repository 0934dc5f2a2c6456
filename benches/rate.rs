//! `rate` over 100k four-player games, file parsing included (CSV and YAML histories), and
//! the backtest of each rating system over them; and over 300k players who play once each.
//! The history is generated here from a seeded PCG generator, so every run rates the same games.
use arbiter::rules::load::load;
use arbiter::scoring::backtest::BacktestOptions;
use arbiter::scoring::ratings::RateOptions;
use criterion::{criterion_group, criterion_main, Criterion};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;
use std::time::Duration;

const GAMES: usize = 100_000;
const PLAYERS: usize = 200;
const SEED: u64 = 2024;

/// (CSV, YAML) texts of the same history: one period per 1000 games.
fn histories() -> (String, String) {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("P{i:03}")).collect();
    let mut csv = String::from("period,game,player,place\n");
    let mut yaml = String::from("rules: elo\ngames:\n");
    for g in 0..GAMES {
        let table: Vec<&String> = names.choose_multiple(&mut rng, 4).collect();
        let period = g / 1000 + 1;
        for (place, p) in table.iter().enumerate() {
            csv.push_str(&format!("{period},{g},{p},{}\n", place + 1));
        }
        yaml.push_str(&format!(
            "  - {{ period: {period}, order: [{}, {}, {}, {}] }}\n",
            table[0], table[1], table[2], table[3]
        ));
    }
    (csv, yaml)
}

fn temp(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

fn rate_file(path: &str) -> f64 {
    let rules = load("elo").expect("elo");
    let file = arbiter::engine_files::history(path).expect("history");
    let report = file.rate(&rules, RateOptions::default()).expect("rated");
    report.players[0].rating
}

fn bench(c: &mut Criterion) {
    let (csv, yaml) = histories();
    let csv_file = temp(&csv, ".csv");
    let yaml_file = temp(&yaml, ".yaml");
    // Let the Python comparison (see the report) read the very same file.
    if let Ok(dir) = std::env::var("RATE_BENCH_KEEP") {
        std::fs::write(format!("{dir}/rate_100k.csv"), &csv).expect("keep csv");
        std::fs::write(format!("{dir}/rate_100k.yaml"), &yaml).expect("keep yaml");
    }
    let mut g = c.benchmark_group("rate_100k_four_player_games");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("csv", |b| {
        b.iter(|| rate_file(csv_file.path().to_str().unwrap()))
    });
    g.bench_function("yaml", |b| {
        b.iter(|| rate_file(yaml_file.path().to_str().unwrap()))
    });
    g.finish();

    // The backtest: every game forecast before it is rated, 1000 bootstrap resamples.
    let file = arbiter::engine_files::history(csv_file.path().to_str().unwrap()).expect("history");
    let rules = load("elo").expect("elo");
    let mut g = c.benchmark_group("backtest_100k_four_player_games");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for system in arbiter::rules::scoring::System::RATINGS {
        g.bench_function(system.name(), |b| {
            b.iter(|| {
                let options = BacktestOptions {
                    resamples: 1000,
                    seed: 1,
                    level: 0.95,
                };
                file.backtest(&rules, &[system], options)
                    .expect("backtest")
                    .systems[0]
                    .log_loss
            })
        });
    }
    g.finish();
}

/// A club where almost everyone plays once: 300,000 players in 150,000 two-player games, names
/// alike but for their last digits (interning every name is most of the work; names that
/// differ late once all landed in a few hash slots, and 900,000 of them took a minute).
fn many_players(c: &mut Criterion) {
    let mut csv = String::from("game,player,place\n");
    for g in 0..150_000 {
        csv.push_str(&format!(
            "{g},player{:07},1\n{g},player{:07},2\n",
            2 * g,
            2 * g + 1
        ));
    }
    let file = temp(&csv, ".csv");
    let mut g = c.benchmark_group("rate_300k_players");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("csv", |b| {
        b.iter(|| rate_file(file.path().to_str().unwrap()))
    });
    g.finish();
}

/// A million four-player games among 2000 players, one period per 1000 games, read from a
/// CSV file as a stream (83 MB; the target: rated in under 3 s and 300 MB on two
/// cores). The file is written to a temporary folder by the seeded generator below, the same
/// shape as `benches/make_history.py` makes for measuring the binary's peak memory.
fn million_games(c: &mut Criterion) {
    const MILLION: usize = 1_000_000;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
    let names: Vec<String> = (0..2000).map(|i| format!("P{i:05}")).collect();
    let mut file = tempfile::Builder::new()
        .suffix(".csv")
        .tempfile()
        .expect("temp file");
    {
        let mut out = std::io::BufWriter::new(file.as_file_mut());
        writeln!(out, "period,game,player,place").expect("write");
        for g in 0..MILLION {
            let period = g / 1000 + 1;
            for (place, p) in names.choose_multiple(&mut rng, 4).enumerate() {
                writeln!(out, "{period},g{g},{p},{}", place + 1).expect("write");
            }
        }
    }
    let path = file.path().to_str().unwrap().to_string();
    let mut g = c.benchmark_group("rate_1m_four_player_games");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("csv_stream", |b| b.iter(|| rate_file(&path)));
    g.finish();
}

criterion_group!(benches, bench, many_players, million_games);
criterion_main!(benches);
