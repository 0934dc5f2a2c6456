//! Swiss pairing (FIDE Dutch): a round of 500 players (target: under 1 s), in round 1 (one
//! big score group), round 3 (the slowest of the first six: few, large score groups) and
//! round 5 (after seeded random results); and round 9 of 1000 players (target: under 5 s).
use arbiter::swiss::dutch::pair;
use arbiter::swiss::model::{Colour, Entrant, Field, Outcome, Points, Round};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};

fn field(n: usize) -> Field {
    Field {
        entrants: (0..n)
            .map(|i| Entrant {
                number: i + 1,
                name: format!("P{}", i + 1),
                rating: 2800 - i as u32,
                rounds: Vec::new(),
            })
            .collect(),
        played_rounds: 0,
        total_rounds: 9,
        points: Points::default(),
        initial_colour: Some(Colour::White),
        forbidden: Vec::new(),
        acceleration: Vec::new(),
    }
}

/// Pair and play `rounds` rounds with seeded random results.
fn after(n: usize, rounds: usize) -> Field {
    let mut f = field(n);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
    for _ in 0..rounds {
        let p = pair(&f).unwrap();
        for &(w, b) in &p.pairs {
            let (ow, ob) = match rng.gen_range(0..3) {
                0 => (Outcome::Win, Outcome::Loss),
                1 => (Outcome::Draw, Outcome::Draw),
                _ => (Outcome::Loss, Outcome::Win),
            };
            let game = |o: usize, c: Colour, r: Outcome| Round {
                opponent: Some(o),
                colour: Some(c),
                outcome: r,
                played: true,
                paired: true,
            };
            f.entrants[w].rounds.push(game(b, Colour::White, ow));
            f.entrants[b].rounds.push(game(w, Colour::Black, ob));
        }
        if let Some(b) = p.bye {
            f.entrants[b].rounds.push(Round {
                outcome: Outcome::Win,
                paired: true,
                ..Round::absent()
            });
        }
        f.played_rounds += 1;
    }
    f
}

fn pair_500(c: &mut Criterion) {
    let mut group = c.benchmark_group("dutch 500 players");
    group.sample_size(10);
    for rounds in [0usize, 2, 4] {
        // The field is built inside, so a filtered-out round costs nothing.
        group.bench_function(format!("round {}", rounds + 1), |b| {
            let f = after(500, rounds);
            b.iter(|| pair(&f).unwrap())
        });
    }
}

/// The largest field one round pairs (`MAX_PAIRED`), late in a nine-round event, when its many
/// score groups need the widest weights (about 800 bits).
fn pair_1000(c: &mut Criterion) {
    let mut group = c.benchmark_group("dutch 1000 players");
    group.sample_size(10);
    group.bench_function("round 9", |b| {
        let f = after(1000, 8);
        b.iter(|| pair(&f).unwrap())
    });
}

criterion_group!(benches, pair_500, pair_1000);
criterion_main!(benches);
