//! The language server's work after a keystroke, through the library functions it calls (no
//! process): the diagnostics of a 2,000-line ruleset after a change (the whole text is checked
//! again, as full sync sends it), and a completion request in the middle of it. The issue's
//! goals: diagnostics under 50 ms, completion under 20 ms. And the live balance's first answer
//! for startrek.rules itself (every ship against its default rival, the first pass's battles
//! on a pool of 2 threads, as the server runs it on 2 cores): the goal is under 2 s.
use arbiter::lsp::analysis::Document;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;

/// A house rule extending startrek with `ships` new ships (13 lines each).
fn ruleset(ships: usize, shields: u32) -> String {
    let mut text = String::from("extends startrek\nname = big-club\nships {\n");
    for i in 0..ships {
        text.push_str(&format!(
            "  new \"Scout {i}\" {{\n    shields = {s}\n    hull = 1D6/1D3\n    max_speed = 4\n    \
             maneuverability = 2\n    phasers = 1D6\n    torpedoes = 0\n    cloak = false\n    \
             repair_teams = 1\n    security_teams = 1\n    size = small\n    crew {{ gunnery = 60 }}\n  }}\n",
            s = shields + (i % 7) as u32
        ));
    }
    text.push_str("}\n");
    text
}

fn bench(c: &mut Criterion) {
    let ships = 153;
    let texts = [ruleset(ships, 4), ruleset(ships, 5)];
    let lines = texts[0].lines().count();
    assert!((1990..2010).contains(&lines), "{lines} lines");
    for text in &texts {
        let doc = Document {
            name: "big-club.rules",
            text,
        };
        assert!(doc.problems().is_empty(), "{:?}", doc.problems());
    }
    let mut g = c.benchmark_group("lsp");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    let mut version = 0usize;
    g.bench_function(BenchmarkId::new("diagnostics after a change", lines), |b| {
        b.iter(|| {
            // Each run checks the other version: a change, not a repeat.
            version += 1;
            let doc = Document {
                name: "big-club.rules",
                text: &texts[version % 2],
            };
            doc.problems().len()
        })
    });
    // The cursor after `size = ` in the middle ship: the sizes of the base complete.
    let text = &texts[0];
    let middle = text.lines().position(|l| l.contains("Scout 76\"")).unwrap();
    let doc = Document {
        name: "big-club.rules",
        text,
    };
    let (line, column) = ((middle + 10) as u32, "    size = ".len() as u32);
    let items: Vec<String> = doc
        .completions(line, column)
        .into_iter()
        .map(|i| i.label)
        .collect();
    assert_eq!(items, ["large", "medium", "small"]);
    g.bench_function(BenchmarkId::new("completion of a value", lines), |b| {
        b.iter(|| doc.completions(line, column).len())
    });
    let key_line = (middle + 1) as u32;
    g.bench_function(BenchmarkId::new("completion of a key", lines), |b| {
        b.iter(|| doc.completions(key_line, 4).len())
    });
    first_balance(&mut g);
    g.finish();
}

fn first_balance(g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>) {
    use arbiter::combat::lab::rivals::{records, rivals};
    use arbiter::lsp::live_balance::{PASSES, SEED};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rulesets/startrek.rules"
    ))
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let first = || {
        let doc = Document {
            name: "startrek.rules",
            text: &text,
        };
        let rules = doc.ruleset().unwrap();
        let pairs: Vec<(String, String)> = rules
            .ships
            .keys()
            .flat_map(|s| rivals(&rules, s).into_iter().map(move |r| (s.clone(), r)))
            .collect();
        let n = pairs.len();
        let done = pool.install(|| records(&rules, &pairs, PASSES[0], SEED));
        assert!(done.iter().all(|r| r.is_ok()));
        n
    };
    let pairs = first();
    g.bench_function(
        BenchmarkId::new("live balance: first answer (matchups)", pairs),
        |b| b.iter(first),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
