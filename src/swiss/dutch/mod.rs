//! The FIDE (Dutch) System, C.04.3 as applied from 2025: score brackets from the top, each
//! paired by a maximum-weight matching whose weights encode the absolute and quality criteria
//! in order (see `weights`), then the bracket's own order of preference among equally good
//! pairings (which moved-down players are paired, the exchanges between S1 and S2 with the
//! smallest differences of pairing numbers, S1 players taking the highest S2 opponents), fixed
//! one choice at a time. One matching over the whole field is steered bracket by bracket, so
//! every choice made above keeps the rest of the round pairable (the completion criterion)
//! without a separate collapsed bracket.
mod colour;
mod seat;
mod weights;

use crate::swiss::blossom::Incremental;
use crate::swiss::model::{Colour, Field};
use crate::swiss::wide::Wide;
pub(crate) use colour::colour_for;
pub(crate) use seat::Seat;
use weights::{ByeTarget, Place, Shape};

/// One round's pairing, players by entrant index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// (white, black)
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Most players one round pairs: the weight table is dense (the square of the field in 4-byte
/// numbers) and the matching grows faster still; beyond it a file is refused rather than
/// left running.
pub(crate) const MAX_PAIRED: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// More players than `MAX_PAIRED`.
    TooMany(usize),
    /// No pairing satisfies the absolute criteria (no rematch, colours, one bye).
    Impossible,
    /// Every round has been paired already.
    Finished,
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::TooMany(n) => {
                write!(f, "{n} players to pair; a round pairs at most {MAX_PAIRED}")
            }
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
    Dutch::new(field)?.run()
}

/// Mark every two players of a forbidden group (`XXP`) as unable to meet; `pos` places
/// entrants in `met` (`usize::MAX`: not paired this round). Each member's row takes the whole
/// group as a bit set a word at a time, so the work is the groups' length times the field
/// over 64, not each group's square: a file of many long groups stays cheap.
fn forbid_groups(groups: &[Vec<usize>], pos: &[usize], met: &mut [Vec<bool>]) {
    let n = met.len();
    let words = n.div_ceil(64);
    let mut rows = vec![0u64; n * words];
    let mut members = vec![0u64; words];
    let mut at = Vec::new();
    for group in groups {
        at.clear();
        at.extend(group.iter().map(|&p| pos[p]).filter(|&k| k != usize::MAX));
        if at.len() < 2 {
            continue;
        }
        members.fill(0);
        for &k in &at {
            members[k / 64] |= 1 << (k % 64);
        }
        for &k in &at {
            for (row, m) in rows[k * words..(k + 1) * words].iter_mut().zip(&members) {
                *row |= m;
            }
        }
    }
    for (k, row) in met.iter_mut().enumerate() {
        let bits = &rows[k * words..(k + 1) * words];
        for (j, cell) in row.iter_mut().enumerate() {
            if j != k && bits[j / 64] >> (j % 64) & 1 == 1 {
                *cell = true;
            }
        }
    }
}

struct Dutch<'a> {
    field: &'a Field,
    /// Players to pair, best first.
    sorted: Vec<Seat>,
    /// met[i][j]: sorted players i and j may not meet (played, or forbidden).
    met: Vec<Vec<bool>>,
}

impl<'a> Dutch<'a> {
    /// The players to pair, sorted, and who may not meet; refused before any table the
    /// size of the field squared is made when the field is over `MAX_PAIRED`.
    fn new(field: &'a Field) -> Result<Dutch<'a>, PairingError> {
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
        if n > MAX_PAIRED {
            return Err(PairingError::TooMany(n));
        }
        let mut met = vec![vec![false; n]; n];
        for (k, s) in sorted.iter().enumerate() {
            for r in field.entrants[s.id].rounds.iter().filter(|r| r.played) {
                if let Some(o) = r.opponent {
                    if pos[o] != usize::MAX {
                        met[k][pos[o]] = true;
                        met[pos[o]][k] = true;
                    }
                }
            }
        }
        forbid_groups(&field.forbidden, &pos, &mut met);
        Ok(Dutch { field, sorted, met })
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

    fn run(self) -> Result<Pairing, PairingError> {
        if self.sorted.is_empty() {
            return Ok(Pairing {
                pairs: Vec::new(),
                bye: None,
            });
        }
        let shape = Shape::new(&self.sorted, self.field.played_rounds);
        // Every limb is work on every edge the matching scans (a round of 1000 players after
        // eight rounds needs about 800 bits): the narrowest width that holds the weights.
        let mate = match shape.bits_needed() {
            0..=128 => self.pair_all::<2>(&shape),
            129..=256 => self.pair_all::<4>(&shape),
            257..=384 => self.pair_all::<6>(&shape),
            385..=512 => self.pair_all::<8>(&shape),
            513..=640 => self.pair_all::<10>(&shape),
            641..=768 => self.pair_all::<12>(&shape),
            769..=896 => self.pair_all::<14>(&shape),
            897..=1024 => self.pair_all::<16>(&shape),
            1025..=2048 => self.pair_all::<32>(&shape),
            _ => self.pair_all::<128>(&shape),
        }?;
        let initial = self.field.initial_colour.unwrap_or(Colour::White);
        let mut pairs = Vec::new();
        let mut bye = None;
        for (k, s) in self.sorted.iter().enumerate() {
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

    fn score(&self, v: usize) -> u32 {
        self.sorted[v].score
    }

    /// Pair everyone: each player's mate by position in `sorted`.
    fn pair_all<const N: usize>(&self, shape: &Shape) -> Result<Vec<Option<usize>>, PairingError> {
        let n = self.sorted.len();
        let top = shape.max_weight::<N>();
        let top_score = self.score(0);
        let mut g = Steered::<N>::new(n);
        let set_all = |g: &mut Steered<N>, bye: &ByeTarget, completion: bool| {
            for p in 0..n {
                for o in 0..p {
                    let (hi, lo) = (&self.sorted[o], &self.sorted[p]);
                    let ok = self.compatible(o, p);
                    let w = if !ok {
                        Wide::ZERO
                    } else if completion {
                        shape.completion_weight(hi, lo, top_score)
                    } else {
                        shape.weight(hi, lo, Place::Below, bye, ok)
                    };
                    g.set(p, o, w);
                }
            }
        };
        let mut bye = ByeTarget::none();
        set_all(&mut g, &bye, n % 2 == 1);
        let m = g.solve();
        let unpaired: Vec<usize> = (0..n).filter(|&v| m[v] == v).collect();
        if unpaired.len() > 1 || unpaired.iter().any(|&v| !self.sorted[v].bye_eligible) {
            return Err(PairingError::Impossible);
        }
        if let Some(&v) = unpaired.first() {
            bye.score = self.score(v);
            bye.by_games = bye.score >= top_score
                && (0..n)
                    .take_while(|&p| self.score(p) >= top_score)
                    .all(|p| self.score(m[p]) >= top_score);
            let mut games: Vec<usize> = (0..n)
                .filter(|&p| self.score(p) == bye.score)
                .map(|p| self.sorted[p].games)
                .collect();
            games.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, played) in games.into_iter().enumerate() {
                bye.games_rank.insert(played, rank as u64);
            }
            set_all(&mut g, &bye, false);
        }

        let mut matched = vec![false; n];
        let mut mate = vec![None; n];
        let mut players: Vec<usize> = Vec::new();
        let mut next = 0;
        while next < n && self.score(next) >= top_score {
            players.push(next);
            next += 1;
        }
        let mut movers = 0;
        let mut movers_vertex = 0;
        while players.len() > 1 || next != n {
            let end = players.len();
            let end_vertex = movers_vertex + (end - movers);
            let group_start = next;
            while next < n && self.score(next) >= self.score(group_start) {
                players.push(next);
                next += 1;
            }
            let b = Bracket {
                players: &players,
                movers,
                resident_end: end,
                residents: movers_vertex..end_vertex,
                below: next,
            };
            let m = self.pair_bracket(&b, shape, &bye, &mut g, &mut matched, top);
            // C.9 only decides the bye while it could still be this bracket's single downfloater.
            let next_score = (group_start < n).then(|| self.score(group_start));
            let mut by_games = n % 2 == 1 && next_score.is_some_and(|s| bye.score >= s);
            let mut rest = Vec::new();
            movers = 0;
            for (i, &v) in players.iter().enumerate() {
                if i < end && matched[v] {
                    mate[v] = Some(m[v]);
                    mate[m[v]] = Some(v);
                } else {
                    rest.push(v);
                    if i < end {
                        movers += 1;
                    }
                    if by_games && next_score.is_some_and(|s| self.score(m[v]) < s) {
                        by_games = false;
                    }
                }
            }
            bye.by_games = by_games;
            players = rest;
            movers_vertex = end_vertex;
        }
        Ok(mate)
    }
}

/// One bracket and the group after it: `players` are positions in the sorted list; the first
/// `movers` moved down from above, residents run to `resident_end` (positions `residents`),
/// the next score group follows, and `below` is the first position after it.
struct Bracket<'b> {
    players: &'b [usize],
    movers: usize,
    resident_end: usize,
    residents: std::ops::Range<usize>,
    below: usize,
}

/// The matching being steered over every player (the kept matching holds the dense weight
/// table), and the pairs already settled (a settled pair is an isolated edge).
struct Steered<const N: usize> {
    n: usize,
    settled: Vec<Option<usize>>,
    kept: Incremental<Wide<N>>,
}

impl<const N: usize> Steered<N> {
    fn new(n: usize) -> Self {
        Steered {
            n,
            settled: vec![None; n],
            kept: Incremental::new(n),
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        self.kept.set(a.min(b), a.max(b), w);
    }

    /// Each vertex's mate, or itself when unmatched. The matching is kept between calls
    /// and only repaired where the weights changed (settled pairs stay as isolated edges).
    fn solve(&mut self) -> Vec<usize> {
        self.kept
            .solve()
            .into_iter()
            .enumerate()
            .map(|(v, o)| o.unwrap_or(v))
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
        self.settled[a] = Some(b);
        self.settled[b] = Some(a);
    }
}

impl Dutch<'_> {
    /// Pair one bracket, settling its pairs in `g` and marking them in `matched` (both by
    /// position in the sorted list). Returns the last matching found.
    fn pair_bracket<const N: usize>(
        &self,
        b: &Bracket,
        shape: &Shape,
        bye: &ByeTarget,
        g: &mut Steered<N>,
        matched: &mut [bool],
        top: Wide<N>,
    ) -> Vec<usize> {
        g.kept.defer_scans_from(b.below);
        let size = b.players.len();
        let (movers, end) = (b.movers, b.resident_end);
        let vx = |i: usize| b.players[i];
        // base[l][h] for h < l, l from the first resident on.
        let mut base = vec![vec![Wide::<N>::ZERO; size]; size];
        for l in movers..size {
            let place = if l < end {
                Place::Bracket
            } else {
                Place::NextGroup
            };
            for h in 0..l {
                let (ph, pl) = (vx(h), vx(l));
                base[l][h] = shape.weight(
                    &self.sorted[ph],
                    &self.sorted[pl],
                    place,
                    bye,
                    self.compatible(ph, pl),
                );
                g.set(pl, ph, base[l][h]);
            }
        }
        let gbits = shape.group_bits;
        let score = |i: usize| self.sorted[vx(i)].score;
        let resident = |v: usize| b.residents.contains(&v);
        let mut m = g.solve();

        // Which moved-down players are paired here: the highest ones that can be.
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
                    if resident(m[vx(q)]) {
                        pairable_at_level += 1;
                    }
                    q += 1;
                }
            }
            if pairable_at_level == 0 {
                continue;
            }
            if left_at_level <= pairable_at_level {
                matched[vx(p)] = true;
                continue;
            }
            left_at_level -= 1;
            if !resident(m[vx(p)]) {
                for o in movers..end {
                    let mut w = base[o][p];
                    if !w.is_zero() {
                        w.or_u64(1);
                        g.set(vx(p), vx(o), w);
                    }
                }
                m = g.solve();
            }
            if resident(m[vx(p)]) {
                matched[vx(p)] = true;
                pairable_at_level -= 1;
                for o in movers..end {
                    let mut w = base[o][p];
                    if !w.is_zero() {
                        w.or_u64((end - movers) as u64);
                        g.set(vx(p), vx(o), w + Wide::from_u64(1));
                    }
                }
            }
        }
        // Their opponents: the highest residents that still allow the best pairing.
        for p in 0..movers {
            if !matched[vx(p)] {
                continue;
            }
            let mut addend = size as u64;
            for o in (movers..end).rev() {
                if matched[vx(o)] {
                    continue;
                }
                let w = base[o][p];
                if !w.is_zero() {
                    g.set(vx(p), vx(o), w + Wide::from_u64(addend));
                    addend += 1;
                }
            }
            m = g.solve();
            let q = m[vx(p)];
            matched[q] = true;
            g.settle(vx(p), q, top);
        }

        // The remainder (or a homogeneous bracket): S1 is its top half, as many as pairs.
        let remainder: Vec<usize> = (movers..end)
            .filter(|&p| m[vx(p)] >= b.residents.start)
            .collect();
        let pairs_here = remainder.iter().filter(|&&p| m[vx(p)] < vx(p)).count();
        // An edge in the remainder, with the exchange order below the criteria: fewest
        // exchanges, then the smallest difference of the exchanged pairing numbers.
        let exchange_weight = |base: &Vec<Vec<Wide<N>>>, s: usize, l: usize, s_index: usize| {
            let w = base[l][s];
            if w.is_zero() {
                return w;
            }
            let mut add = Wide::<N>::from_u64((s_index < pairs_here) as u64);
            add.shl(2 * gbits);
            add -= Wide::from_u64(s_index as u64);
            add.shl(1);
            w + add
        };
        for (oi, &o) in remainder.iter().enumerate() {
            for (pi, &p) in remainder[..oi].iter().enumerate() {
                g.set(vx(p), vx(o), exchange_weight(&base, p, o, pi));
            }
        }
        m = g.solve();
        let stays_s1 = |m: &Vec<usize>, p: usize| m[vx(p)] > vx(p) && m[vx(p)] < b.residents.end;
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
                        g.set(vx(p), vx(o), w - Wide::from_u64(1));
                    }
                }
                m = g.solve();
            }
            let exchange = !stays_s1(&m, p);
            if exchange {
                left -= 1;
            }
            for &o in &remainder[idx + 1..] {
                if exchange {
                    base[o][p] = Wide::ZERO;
                }
                g.set(vx(p), vx(o), exchange_weight(&base, p, o, idx));
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
                        g.set(vx(p), vx(o), w + Wide::from_u64(1));
                    }
                }
                m = g.solve();
            }
            if stays_s1(&m, p) {
                left -= 1;
                for &o in &remainder[..idx] {
                    base[p][o] = Wide::ZERO;
                    g.set(vx(p), vx(o), Wide::ZERO);
                }
                for o in end..size {
                    base[o][p] = Wide::ZERO;
                    g.set(vx(p), vx(o), Wide::ZERO);
                }
                // Nor may the player float below the next score group.
                for v in b.below..g.n {
                    g.set(vx(p), v, Wide::ZERO);
                }
            }
            if !already {
                for &o in &remainder[idx + 1..] {
                    g.set(vx(p), vx(o), exchange_weight(&base, p, o, idx));
                }
            }
        }
        // With S1 and S2 settled, only S1-S2 edges remain.
        for (ai, &a) in remainder.iter().enumerate() {
            for &c in &remainder[ai + 1..] {
                if !stays_s1(&m, a) || stays_s1(&m, c) {
                    base[c][a] = Wide::ZERO;
                }
                g.set(vx(a), vx(c), base[c][a]);
            }
        }
        // Each S1 player, from the top, takes the first S2 player that keeps the best pairing.
        for &p in &remainder {
            if !stays_s1(&m, p) {
                continue;
            }
            let mut addend = 0u64;
            for &o in remainder.iter().rev() {
                if o <= p || matched[vx(o)] {
                    continue;
                }
                let w = base[o][p];
                if !w.is_zero() {
                    g.set(vx(p), vx(o), w + Wide::from_u64(addend));
                }
                addend += 1;
            }
            m = g.solve();
            let q = m[vx(p)];
            matched[vx(p)] = true;
            matched[q] = true;
            g.settle(vx(p), q, top);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_groups_mark_each_two_members_and_no_one_else() {
        // Entrant 4 is not paired this round (no place); 70 players cross a word of bits.
        let n = 70;
        let mut pos: Vec<usize> = (0..n).collect();
        pos.push(usize::MAX);
        let groups = vec![vec![0, 1, 2], vec![2, 3, n], vec![65, 69, 65], vec![5]];
        let mut met = vec![vec![false; n]; n];
        forbid_groups(&groups, &pos, &mut met);
        let mut marked = Vec::new();
        for (i, row) in met.iter().enumerate() {
            for (j, &m) in row.iter().enumerate() {
                if m {
                    marked.push((i, j));
                }
            }
        }
        let want = [
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 3),
            (3, 2),
            (65, 69),
            (69, 65),
        ];
        assert_eq!(marked, want);
    }
}
