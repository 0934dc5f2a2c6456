//! The FIDE (Dutch) System, C.04.3 as applied from 2025: score brackets from the top, each
//! paired by a maximum-weight matching whose weights encode the absolute and quality criteria
//! in order (see `weights`), then the bracket's own order of preference among equally good
//! pairings (which moved-down players are paired, the exchanges between S1 and S2 with the
//! smallest differences of pairing numbers, S1 players taking the highest S2 opponents), fixed
//! one choice at a time. A bracket whose choice of downfloaters would leave the rest unpairable
//! is paired again as the collapsed penultimate bracket, together with everyone below.
mod colour;
mod seat;
mod weights;

use crate::swiss::blossom::max_weight_matching;
use crate::swiss::model::{Colour, Field};
use crate::swiss::wide::Wide;
pub use colour::colour_for;
pub use seat::{Float, Seat};
use weights::{bits, Shape};

/// One round's pairing, players by entrant index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// (white, black)
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (no rematch, colours, one bye).
    Impossible,
    /// Every round has been paired already.
    Finished,
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::Impossible => write!(
                f,
                "no pairing meets the absolute criteria (no rematches, colour limits, one bye)"
            ),
            PairingError::Finished => write!(f, "every round of the tournament is paired already"),
        }
    }
}

/// Pair the next round of `field`.
pub fn pair(field: &Field) -> Result<Pairing, PairingError> {
    if field.played_rounds >= field.total_rounds {
        return Err(PairingError::Finished);
    }
    Dutch::new(field).run()
}

struct Dutch<'a> {
    field: &'a Field,
    /// Players to pair, best first.
    sorted: Vec<Seat>,
    /// met[i][j]: sorted players i and j may not meet (played, or forbidden).
    met: Vec<Vec<bool>>,
    /// Whether the round can still be completed: allowed edges between sorted players, the
    /// last vertex standing for the bye when the number is odd.
    feasible: Vec<Vec<bool>>,
}

impl<'a> Dutch<'a> {
    fn new(field: &'a Field) -> Dutch<'a> {
        let n_all = field.entrants.len();
        let pr = field.played_rounds;
        // Pairing numbers run over the players still in the tournament.
        let mut rank = vec![usize::MAX; n_all];
        let mut next = 0;
        for (i, e) in field.entrants.iter().enumerate() {
            if e.rounds.len() <= pr || e.rounds.iter().any(|r| r.paired) {
                rank[i] = next;
                next += 1;
            }
        }
        let mut sorted: Vec<Seat> = (0..n_all)
            .filter(|&i| rank[i] != usize::MAX && field.entrants[i].rounds.len() <= pr)
            .map(|i| Seat::new(field, i, rank[i]))
            .collect();
        sorted.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
        let mut pos = vec![usize::MAX; n_all];
        for (k, s) in sorted.iter().enumerate() {
            pos[s.id] = k;
        }
        let n = sorted.len();
        let mut met = vec![vec![false; n]; n];
        for (k, s) in sorted.iter().enumerate() {
            for r in field.entrants[s.id].rounds.iter().filter(|r| r.played) {
                if let Some(o) = r.opponent {
                    if pos[o] != usize::MAX {
                        met[k][pos[o]] = true;
                    }
                }
            }
        }
        for group in &field.forbidden {
            for &a in group {
                for &b in group {
                    if a != b && pos[a] != usize::MAX && pos[b] != usize::MAX {
                        met[pos[a]][pos[b]] = true;
                    }
                }
            }
        }
        let mut d = Dutch {
            field,
            sorted,
            met,
            feasible: Vec::new(),
        };
        let v = n + n % 2;
        let mut feasible = vec![vec![false; v]; v];
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    feasible[i][j] = d.compatible(i, j);
                }
            }
            if n % 2 == 1 {
                feasible[i][n] = d.sorted[i].bye_eligible;
                feasible[n][i] = d.sorted[i].bye_eligible;
            }
        }
        d.feasible = feasible;
        d
    }

    /// The absolute criteria C.1 and C.3: no rematch, and no two players with the same absolute
    /// colour preference, except in the last round for a player above half the maximum score.
    fn compatible(&self, i: usize, j: usize) -> bool {
        if self.met[i][j] {
            return false;
        }
        let (a, b) = (&self.sorted[i], &self.sorted[j]);
        if !(a.absolute() && b.absolute() && a.preference == b.preference) {
            return true;
        }
        let f = self.field;
        let top = (f.played_rounds as u32 * f.points.win.max(f.points.draw)) / 2;
        f.played_rounds + 1 >= f.total_rounds && (a.score > top || b.score > top)
    }

    fn completable(&self) -> bool {
        let v = self.feasible.len();
        let mut edges = Vec::new();
        for i in 0..v {
            for j in i + 1..v {
                if self.feasible[i][j] {
                    edges.push((i, j, 1i64));
                }
            }
        }
        max_weight_matching(v, &edges).iter().all(|m| m.is_some())
    }

    fn settle(&mut self, a: usize, b: usize) {
        for row in [a, b] {
            for k in 0..self.feasible.len() {
                self.feasible[row][k] = false;
                self.feasible[k][row] = false;
            }
        }
        self.feasible[a][b] = true;
        self.feasible[b][a] = true;
    }

    fn run(mut self) -> Result<Pairing, PairingError> {
        let n = self.sorted.len();
        if n == 0 {
            return Ok(Pairing {
                pairs: Vec::new(),
                bye: None,
            });
        }
        if !self.completable() {
            return Err(PairingError::Impossible);
        }
        let mut mate: Vec<Option<usize>> = vec![None; n];
        let score = |d: &Dutch, k: usize| d.sorted[k].score;
        // The bracket being paired and the group after it, as positions in `sorted`.
        let mut players: Vec<usize> = Vec::new();
        let mut next = 0;
        while next < n && score(&self, next) >= score(&self, 0) {
            players.push(next);
            next += 1;
        }
        let mut special = next == n;
        let mut movers = 0;
        while players.len() > 1 || next != n {
            let resident_end = players.len();
            let group_start = next;
            while next < n && (special || score(&self, next) >= score(&self, group_start)) {
                players.push(next);
                next += 1;
            }
            let seats: Vec<&Seat> = players.iter().map(|&k| &self.sorted[k]).collect();
            let shape = Shape::new(
                &seats,
                movers,
                resident_end,
                special,
                next == n,
                self.field.played_rounds,
            );
            let bracket = Bracket {
                players: &players,
                movers,
                resident_end,
            };
            let (matched, m) = match shape.bits_needed() {
                0..=128 => self.pair_bracket::<2>(&bracket, &shape),
                129..=256 => self.pair_bracket::<4>(&bracket, &shape),
                257..=512 => self.pair_bracket::<8>(&bracket, &shape),
                513..=1024 => self.pair_bracket::<16>(&bracket, &shape),
                1025..=2048 => self.pair_bracket::<32>(&bracket, &shape),
                _ => self.pair_bracket::<128>(&bracket, &shape),
            };
            if !special && !self.completable() {
                // This is the penultimate bracket: pair it again with everyone below.
                players.truncate(resident_end);
                next = group_start;
                special = true;
                continue;
            }
            special = next == n;
            let mut rest = Vec::new();
            movers = 0;
            for (i, &k) in players.iter().enumerate() {
                if i < resident_end && matched[i] {
                    mate[k] = Some(players[m[i]]);
                } else {
                    rest.push(k);
                    if i < resident_end {
                        movers += 1;
                    }
                }
            }
            players = rest;
        }
        let initial = self.field.initial_colour.unwrap_or(Colour::White);
        let mut pairs = Vec::new();
        let mut bye = None;
        for k in 0..n {
            let s = &self.sorted[k];
            match mate[k] {
                Some(o) => {
                    let t = &self.sorted[o];
                    if s.id < t.id {
                        match colour_for(s, t, initial) {
                            Colour::White => pairs.push((s.id, t.id)),
                            Colour::Black => pairs.push((t.id, s.id)),
                        }
                    }
                }
                None => bye = Some(s.id),
            }
        }
        Ok(Pairing { pairs, bye })
    }
}

/// One bracket and the group after it: `players` are positions in the sorted list; the first
/// `movers` moved down from above, residents run to `resident_end`, the next group follows.
struct Bracket<'b> {
    players: &'b [usize],
    movers: usize,
    resident_end: usize,
}

/// The matching being steered: a dense symmetric weight table.
struct Steered<const N: usize> {
    n: usize,
    w: Vec<Wide<N>>,
}

impl<const N: usize> Steered<N> {
    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        self.w[a * self.n + b] = w;
        self.w[b * self.n + a] = w;
    }

    /// Each vertex's mate, or itself when unmatched.
    fn solve(&self) -> Vec<usize> {
        let mut edges = Vec::new();
        for i in 0..self.n {
            for j in i + 1..self.n {
                let w = self.w[i * self.n + j];
                if w > Wide::ZERO {
                    edges.push((i, j, w));
                }
            }
        }
        max_weight_matching(self.n, &edges)
            .into_iter()
            .enumerate()
            .map(|(i, m)| m.unwrap_or(i))
            .collect()
    }

    /// Fix the pair a-b: it keeps a weight above all others, every other edge at a or b goes.
    fn settle(&mut self, a: usize, b: usize, top: Wide<N>) {
        for k in 0..self.n {
            if k != a {
                self.set(a, k, Wide::ZERO);
            }
            if k != b {
                self.set(b, k, Wide::ZERO);
            }
        }
        self.set(a, b, top);
    }
}

impl Dutch<'_> {
    /// Pair one bracket. Returns which bracket players are paired and everyone's mate (by
    /// index in `b.players`).
    fn pair_bracket<const N: usize>(
        &mut self,
        b: &Bracket,
        shape: &Shape,
    ) -> (Vec<bool>, Vec<usize>) {
        let size = b.players.len();
        let (movers, end) = (b.movers, b.resident_end);
        let in_bracket = |i: usize| i < end;
        // base[l][h] for h < l, l from the first resident on.
        let mut base = vec![vec![Wide::<N>::ZERO; size]; size];
        for l in movers..size {
            for h in 0..l {
                let (ph, pl) = (b.players[h], b.players[l]);
                base[l][h] = shape.weight(
                    &self.sorted[ph],
                    &self.sorted[pl],
                    in_bracket(h),
                    in_bracket(l),
                    self.compatible(ph, pl),
                );
            }
        }
        let top = shape.max_weight::<N>();
        let mut m_opt = Steered {
            n: size,
            w: vec![Wide::ZERO; size * size],
        };
        for l in movers..size {
            for h in 0..l {
                m_opt.set(h, l, base[l][h]);
            }
        }
        let pbits = bits(end - movers);
        let score = |i: usize| self.sorted[b.players[i]].score;
        let in_residents = |x: usize| x >= movers && x < end;
        let mut m = m_opt.solve();
        let mut matched = vec![false; end];

        // Which moved-down players are paired here: the highest ones that can be (B.2 / C.7).
        let mut level = 0;
        let mut left_at_level = 0;
        let mut pairable_at_level = 0;
        for p in 0..movers {
            if p == 0 || score(p) < level {
                level = score(p);
                left_at_level = 0;
                pairable_at_level = 0;
                let mut q = p;
                while q < size && score(q) >= level {
                    left_at_level += 1;
                    if in_residents(m[q]) {
                        pairable_at_level += 1;
                    }
                    q += 1;
                }
            }
            if pairable_at_level == 0 {
                continue;
            }
            if left_at_level <= pairable_at_level {
                matched[p] = true;
                continue;
            }
            left_at_level -= 1;
            if !in_residents(m[p]) {
                for o in movers..end {
                    let w = base[o][p];
                    if !w.is_zero() {
                        let mut w = w;
                        w.or_u64(1);
                        m_opt.set(p, o, w);
                    }
                }
                m = m_opt.solve();
            }
            if in_residents(m[p]) {
                matched[p] = true;
                pairable_at_level -= 1;
                for o in movers..end {
                    let w = base[o][p];
                    if !w.is_zero() {
                        let mut w = w;
                        w.or_u64((end - movers) as u64);
                        m_opt.set(p, o, w + Wide::from_u64(1));
                    }
                }
            }
        }
        // Their opponents: the highest residents that still allow the best pairing.
        for p in 0..movers {
            if !matched[p] {
                continue;
            }
            let mut addend = size as u64;
            for o in (movers..end).rev() {
                if matched[o] {
                    continue;
                }
                let w = base[o][p];
                if !w.is_zero() {
                    m_opt.set(p, o, w + Wide::from_u64(addend));
                    addend += 1;
                }
            }
            m = m_opt.solve();
            let q = m[p];
            matched[q] = true;
            m_opt.settle(p, q, top);
            self.settle(b.players[p], b.players[q]);
        }

        // The remainder (or a homogeneous bracket): S1 is its top half, as many as pairs.
        let remainder: Vec<usize> = (movers..end).filter(|&p| m[p] >= movers).collect();
        let pairs_here = remainder.iter().filter(|&&p| m[p] < p).count();
        // The weight of an edge in the remainder, with the exchange order below the criteria:
        // fewest exchanges, then the smallest difference of the exchanged pairing numbers.
        let exchange_weight = |base: &Vec<Vec<Wide<N>>>, s: usize, l: usize, s_index: usize| {
            let w = base[l][s];
            if w.is_zero() {
                return w;
            }
            let mut add = Wide::<N>::from_u64((s_index < pairs_here) as u64);
            add.shl(2 * pbits);
            add -= Wide::from_u64(s_index as u64);
            add.shl(1);
            w + add
        };
        for (oi, &o) in remainder.iter().enumerate() {
            for (pi, &p) in remainder[..oi].iter().enumerate() {
                m_opt.set(p, o, exchange_weight(&base, p, o, pi));
            }
        }
        m = m_opt.solve();
        let stays_s1 = |m: &Vec<usize>, x: usize| m[x] > x && m[x] < end;
        let exchanges = remainder[..pairs_here]
            .iter()
            .filter(|&&p| !stays_s1(&m, p))
            .count();

        // S1 players to move to S2: the lowest possible.
        let mut left = exchanges;
        let mut idx = pairs_here;
        while idx > 0 && left > 0 {
            idx -= 1;
            let p = remainder[idx];
            if stays_s1(&m, p) {
                for &o in &remainder[idx + 1..] {
                    let w = exchange_weight(&base, p, o, idx);
                    if !w.is_zero() {
                        m_opt.set(p, o, w - Wide::from_u64(1));
                    }
                }
                m = m_opt.solve();
            }
            let exchange = !stays_s1(&m, p);
            if exchange {
                left -= 1;
            }
            for &o in &remainder[idx + 1..] {
                if exchange {
                    base[o][p] = Wide::ZERO;
                }
                m_opt.set(p, o, exchange_weight(&base, p, o, idx));
            }
        }
        // S2 players to move to S1: the highest possible.
        let mut left = exchanges;
        for (idx, &p) in remainder.iter().enumerate().skip(pairs_here) {
            if left <= 1 {
                break;
            }
            let already = stays_s1(&m, p);
            if !already {
                for &o in &remainder[idx + 1..] {
                    let w = exchange_weight(&base, p, o, idx);
                    if !w.is_zero() {
                        m_opt.set(p, o, w + Wide::from_u64(1));
                    }
                }
                m = m_opt.solve();
            }
            if stays_s1(&m, p) {
                left -= 1;
                for &o in &remainder[..idx] {
                    base[p][o] = Wide::ZERO;
                    m_opt.set(p, o, Wide::ZERO);
                }
                for o in end..size {
                    base[o][p] = Wide::ZERO;
                    m_opt.set(p, o, Wide::ZERO);
                }
            }
            if !already {
                for &o in &remainder[idx + 1..] {
                    m_opt.set(p, o, exchange_weight(&base, p, o, idx));
                }
            }
        }
        // With S1 and S2 settled, only S1-S2 edges remain.
        for (ai, &a) in remainder.iter().enumerate() {
            for &c in &remainder[ai + 1..] {
                if !stays_s1(&m, a) || stays_s1(&m, c) {
                    base[c][a] = Wide::ZERO;
                }
                m_opt.set(a, c, base[c][a]);
            }
        }
        // Each S1 player, from the top, takes the first S2 player that keeps the best pairing.
        for &p in &remainder {
            if !stays_s1(&m, p) {
                continue;
            }
            let mut addend = 0u64;
            for &o in remainder.iter().rev() {
                if o <= p || matched[o] {
                    continue;
                }
                let w = base[o][p];
                if !w.is_zero() {
                    m_opt.set(p, o, w + Wide::from_u64(addend));
                }
                addend += 1;
            }
            m = m_opt.solve();
            let q = m[p];
            matched[p] = true;
            matched[q] = true;
            m_opt.settle(p, q, top);
            self.settle(b.players[p], b.players[q]);
        }
        (matched, m)
    }
}
