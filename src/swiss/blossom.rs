//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with dual variables,
//! in the O(n³) form of Galil (1986) as Joris van Rantwijk laid it out. Exact for integer
//! weights of any width (the weight type only needs +, −, halving and an order), so pairing
//! criteria can be packed into one number without rounding.
use super::weight_table::WeightTable;
use super::wide::Wide;
use std::hash::Hash;

/// What the matching needs of a weight: an exact ring-like integer with an order.
pub(crate) trait Weight:
    Copy + Ord + Hash + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
{
    fn zero() -> Self;
    fn half(self) -> Self;
    /// `self > zero()`, which the scans ask of every edge's slack.
    fn is_positive(&self) -> bool {
        *self > Self::zero()
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Wide::ZERO
    }
    fn half(self) -> Self {
        Wide::half(self)
    }
    fn is_positive(&self) -> bool {
        Wide::is_positive(self)
    }
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn half(self) -> Self {
        self >> 1
    }
}

const NONE: usize = usize::MAX;

#[cfg(test)]
/// A matching of maximum total weight over `n` vertices; `edges` are `(i, j, weight)` with
/// positive weights (an absent pair is simply not listed). Returns each vertex's mate.
pub(crate) fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut weights = WeightTable::new(n, W::zero());
    for &(i, j, w) in edges {
        weights.set(i, j, w);
    }
    let mut s = State::new(n, edges.iter().map(|&(i, j, _)| (i, j)).collect(), &weights);
    s.solve(&weights);
    (0..n)
        .map(|v| (s.mate[v] != NONE).then(|| s.endpoint[s.mate[v]]))
        .collect()
}

/// A matching kept between calls while edge weights change (the Dutch system steers one
/// matching with many small changes): the next call starts from the last matching and its
/// dual values, repairs only what the changes broke, and so costs a few augmentations rather
/// than a whole solve. Vertices are fixed; an edge absent at the start (weight zero) that
/// later gets a weight makes the next call start afresh.
pub(crate) struct Incremental<W: Weight> {
    n: usize,
    /// Every pair's weight (the scans read a vertex's row in order).
    weights: WeightTable<W>,
    state: Option<State<W>>,
    /// Edge number of each pair (`NONE` when absent from the graph built).
    index: Vec<usize>,
    dirty: Vec<usize>,
    rebuild: bool,
    deferred_from: usize,
}

impl<W: Weight> Incremental<W> {
    pub(crate) fn new(n: usize) -> Self {
        Incremental {
            n,
            weights: WeightTable::new(n, W::zero()),
            state: None,
            index: Vec::new(),
            dirty: Vec::new(),
            rebuild: true,
            deferred_from: n,
        }
    }

    /// Scan vertices from `v` on only when no other waits (see `Queue`): the same optimum
    /// weight, found sooner when augmenting paths seldom run through them.
    pub(crate) fn defer_scans_from(&mut self, v: usize) {
        self.deferred_from = v;
    }

    /// Note a new weight for the pair a-b (zero: no edge).
    pub(crate) fn set(&mut self, a: usize, b: usize, w: W) {
        let changed = self.weights.set(a, b, w);
        let Some(state) = self.state.as_mut() else {
            return;
        };
        let k = self.index[a * self.n + b];
        if k == NONE {
            if w > W::zero() {
                self.rebuild = true;
            }
        } else if changed {
            if w > W::zero() && !state.listed[k] {
                // Back from zero: into its vertices' lists again.
                let (i, j) = state.edges[k];
                state.neighbend[i].push(end(2 * k + 1, j));
                state.neighbend[j].push(end(2 * k, i));
                state.listed[k] = true;
            }
            state.present[k] = w > W::zero();
            if !state.present[k] {
                let (i, j) = state.edges[k];
                (state.unpruned[i], state.unpruned[j]) = (true, true);
            }
            self.dirty.push(k);
        }
    }

    /// Each vertex's mate under the current weights.
    pub(crate) fn solve(&mut self) -> Vec<Option<usize>> {
        let n = self.n;
        if self.rebuild || self.state.is_none() {
            let mut edges = Vec::new();
            self.index = vec![NONE; n * n];
            for a in 0..n {
                for b in a + 1..n {
                    if self.weights.get(a, b) > W::zero() {
                        self.index[a * n + b] = edges.len();
                        self.index[b * n + a] = edges.len();
                        edges.push((a, b));
                    }
                }
            }
            self.state = Some(State::new(n, edges, &self.weights));
            self.rebuild = false;
        } else if let Some(state) = self.state.as_mut() {
            state.warm_start(&self.dirty, &self.weights);
        }
        self.dirty.clear();
        let s = self.state.as_mut().expect("built above");
        s.queue.deferred_from = self.deferred_from;
        s.match_tight_singles(&self.weights);
        s.solve(&self.weights);
        (0..n)
            .map(|v| (s.mate[v] != NONE).then(|| s.endpoint[s.mate[v]]))
            .collect()
    }
}

struct State<W: Weight> {
    n: usize,
    /// Each edge's vertices (its weight is in the caller's `WeightTable`).
    edges: Vec<(usize, usize)>,
    /// Whether an edge is in its vertices' `neighbend` lists (edges at zero leave them).
    listed: Vec<bool>,
    /// Whether an edge's weight is positive, apart from the edges so the scans that skip the
    /// absent ones read a compact table instead of every edge.
    present: Vec<bool>,
    endpoint: Vec<usize>,
    /// By vertex: its edges' far endpoints and the vertices there (kept side by side, as
    /// the scan needs both and looking the vertex up would miss the cache on every edge).
    /// As `u32`s: the scans stream these lists, and half the bytes is half the wait.
    neighbend: Vec<Vec<(u32, u32)>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// `slack(bestedge[b])` under the current duals, wherever `bestedge[b]` is set: the scans
    /// compare against it for every edge, and work it out afresh only after a dual step.
    bestslack: Vec<W>,
    /// Vertices with an edge gone to zero still in their `neighbend` list.
    unpruned: Vec<bool>,
    /// `add_blossom`'s working space: by neighbouring blossom, the least-slack edge to it and
    /// that slack, and which blossoms it set.
    bestedgeto: Vec<usize>,
    bestslackto: Vec<W>,
    touched: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Queue,
}

/// The S-vertices waiting to be scanned, last in first out, except that vertices numbered from
/// `deferred_from` on wait until no other does: the caller can name vertices through which an
/// augmenting path seldom runs (in the Dutch system, the players below the bracket: all
/// pairable among themselves, so a tree that enters them labels them all and finds nothing).
#[derive(Default)]
struct Queue {
    now: Vec<usize>,
    later: Vec<usize>,
    deferred_from: usize,
}

impl Queue {
    fn push(&mut self, v: usize) {
        if v >= self.deferred_from {
            self.later.push(v);
        } else {
            self.now.push(v);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        self.now.pop().or_else(|| self.later.pop())
    }

    fn clear(&mut self) {
        self.now.clear();
        self.later.clear();
    }
}

/// An entry of a `neighbend` list: an edge endpoint and the vertex there.
fn end(p: usize, v: usize) -> (u32, u32) {
    let narrow = |x: usize| u32::try_from(x).expect("fewer than 2^31 edges and vertices");
    (narrow(p), narrow(v))
}

#[inline(always)]
fn wide_end((p, v): (u32, u32)) -> (usize, usize) {
    (p as usize, v as usize)
}

fn wrap(j: isize, len: usize) -> usize {
    j.rem_euclid(len as isize) as usize
}

impl<W: Weight> State<W> {
    fn new(n: usize, edges: Vec<(usize, usize)>, weights: &WeightTable<W>) -> Self {
        let maxweight = edges
            .iter()
            .map(|&(i, j)| weights.get(i, j))
            .fold(W::zero(), |a, b| a.max(b));
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(end(2 * k + 1, j));
            neighbend[j].push(end(2 * k, i));
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::zero(), n));
        State {
            n,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestslack: vec![W::zero(); 2 * n],
            unpruned: vec![false; n],
            bestedgeto: vec![NONE; 2 * n],
            bestslackto: vec![W::zero(); 2 * n],
            touched: Vec::new(),
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            listed: vec![true; edges.len()],
            present: edges
                .iter()
                .map(|&(i, j)| weights.get(i, j) > W::zero())
                .collect(),
            edges,
            queue: Queue::default(),
        }
    }

    /// Make the last solution a valid start for the changed weights: blossoms dissolved
    /// (their duals folded into their vertices, which keeps every edge feasible), then duals
    /// raised where a changed edge became infeasible, and every matched edge that is not
    /// tight any more undone. What is left is an optimal start for the vertices made single.
    fn warm_start(&mut self, dirty: &[usize], weights: &WeightTable<W>) {
        let n = self.n;
        for v in 0..n {
            let mut t = self.blossomparent[v];
            while t != NONE {
                self.dualvar[v] = self.dualvar[v] + self.dualvar[t];
                t = self.blossomparent[t];
            }
        }
        for v in 0..n {
            self.inblossom[v] = v;
            self.blossombase[v] = v;
        }
        for b in 0..2 * n {
            self.blossomparent[b] = NONE;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            if b >= n {
                self.blossomchilds[b].clear();
                self.blossomendps[b].clear();
                self.blossombase[b] = NONE;
                self.blossombestedges[b] = None;
                self.dualvar[b] = W::zero();
            }
        }
        self.unusedblossoms = (n..2 * n).collect();
        let mut violated = Vec::new();
        let mut count = vec![0u32; n];
        for &k in dirty {
            let (i, j) = self.edges[k];
            if self.mate[i] == 2 * k + 1 {
                if self.absent(k) {
                    self.unmatch(i);
                } else if self.slack(weights, k) < W::zero() {
                    self.dualvar[i] = self.dualvar[i] + (W::zero() - self.slack(weights, k));
                }
            } else if !self.absent(k) && self.slack(weights, k) < W::zero() {
                violated.push(k);
                count[i] += 1;
                count[j] += 1;
            }
        }
        for k in violated {
            let (i, j) = self.edges[k];
            let short = self.slack(weights, k);
            if short < W::zero() {
                let e = if count[i] >= count[j] { i } else { j };
                self.unmatch(e);
                self.dualvar[e] = self.dualvar[e] + (W::zero() - short);
            }
        }
        for v in 0..n {
            let p = self.mate[v];
            if p != NONE && (self.absent(p / 2) || self.slack(weights, p / 2) != W::zero()) {
                self.unmatch(v);
            }
        }
    }

    /// After a dual step: each best edge's slack as it now is.
    fn refresh_bestslack(&mut self, weights: &WeightTable<W>) {
        for b in 0..2 * self.n {
            let k = self.bestedge[b];
            if k != NONE {
                self.bestslack[b] = self.slack(weights, k);
            }
        }
    }

    /// Match single vertices joined by a tight edge straight away: an augmenting path of one
    /// edge keeps every optimality condition, and finding each by a stage would scan trees
    /// from every single vertex (a warm start after a big change leaves hundreds).
    fn match_tight_singles(&mut self, weights: &WeightTable<W>) {
        for u in 0..self.n {
            if self.mate[u] != NONE || self.dualvar[u] == W::zero() {
                continue;
            }
            for idx in 0..self.neighbend[u].len() {
                let (p, w) = wide_end(self.neighbend[u][idx]);
                let k = p / 2;
                if self.mate[w] == NONE && !self.absent(k) && self.slack(weights, k) == W::zero() {
                    self.mate[u] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
    }

    fn unmatch(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let u = self.endpoint[p];
            self.mate[u] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// An edge whose weight went to zero after the graph was built: no longer there.
    fn absent(&self, k: usize) -> bool {
        !self.present[k]
    }

    #[inline(always)]
    fn slack(&self, weights: &WeightTable<W>, k: usize) -> W {
        let (i, j) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - weights.doubled(i, j)
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                for &c in self.blossomchilds[t].iter().rev() {
                    stack.push(c);
                }
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                if b < self.n {
                    self.queue.push(b);
                } else {
                    for v in self.leaves(b) {
                        self.queue.push(v);
                    }
                }
                return;
            }
            let base = self.blossombase[b];
            let m = self.mate[base];
            w = self.endpoint[m];
            t = 1;
            p = m ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize, weights: &WeightTable<W>) {
        let (mut v, mut w) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for v in self.leaves(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // By neighbouring top-level S-blossom: the least-slack edge to it, and that slack
        // (the duals hold still while a blossom is made, so each slack is worked out once).
        // Kept between calls (all NONE outside this function): a blossom has few neighbours,
        // and clearing and reading two arrays over every blossom slot each time cost more than
        // the edges.
        let mut bestedgeto = std::mem::take(&mut self.bestedgeto);
        let mut bestslack = std::mem::take(&mut self.bestslackto);
        let mut touched = std::mem::take(&mut self.touched);
        let mut offer = |bj: usize, k: usize, slack: W| {
            if bestedgeto[bj] == NONE {
                touched.push(bj);
                (bestedgeto[bj], bestslack[bj]) = (k, slack);
            } else if slack < bestslack[bj] {
                (bestedgeto[bj], bestslack[bj]) = (k, slack);
            }
        };
        for &bv in &path {
            match self.blossombestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        if self.absent(k) {
                            continue;
                        }
                        let (i, j) = self.edges[k];
                        let j = if self.inblossom[j] == b { i } else { j };
                        let bj = self.inblossom[j];
                        if bj != b && self.label[bj] == 1 {
                            offer(bj, k, self.slack(weights, k));
                        }
                    }
                }
                None => {
                    // A vertex's own edges, with the far vertex and the weight at hand.
                    for v in self.leaves(bv) {
                        for &e in &self.neighbend[v] {
                            let (p, w) = wide_end(e);
                            let k = p / 2;
                            let bj = self.inblossom[w];
                            if bj != b && self.label[bj] == 1 && !self.absent(k) {
                                let x2 = weights.doubled(v, w);
                                offer(bj, k, self.dualvar[v] + self.dualvar[w] - x2);
                            }
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let mut best = Vec::with_capacity(touched.len());
        self.bestedge[b] = NONE;
        // In blossom order, as a scan over every slot would meet them (ties go to the first).
        touched.sort_unstable();
        for &bj in &touched {
            let (k, slack) = (bestedgeto[bj], bestslack[bj]);
            bestedgeto[bj] = NONE;
            if self.bestedge[b] == NONE || slack < self.bestslack[b] {
                (self.bestedge[b], self.bestslack[b]) = (k, slack);
            }
            best.push(k);
        }
        touched.clear();
        (self.bestedgeto, self.bestslackto, self.touched) = (bestedgeto, bestslack, touched);
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len();
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap() as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = 0;
                let e = endps[wrap(j - endptrick as isize, len)];
                let r = self.endpoint[e ^ endptrick ^ 1];
                self.label[r] = 0;
                self.assign_label(q, 2, p);
                self.allowedge[e / 2] = true;
                j += jstep;
                p = endps[wrap(j - endptrick as isize, len)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[wrap(j, len)];
            let q = self.endpoint[p ^ 1];
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[wrap(j, len)] != entrychild {
                let bv = childs[wrap(j, len)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    let o = self.endpoint[m];
                    self.label[o] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = u8::MAX;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len();
        let i = self.blossomchilds[b].iter().position(|&c| c == t).unwrap();
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][wrap(j, len)];
            let p = self.blossomendps[b][wrap(j - endptrick as isize, len)] ^ endptrick;
            if t >= self.n {
                let e = self.endpoint[p];
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = self.blossomchilds[b][wrap(j, len)];
            if t >= self.n {
                let e = self.endpoint[p ^ 1];
                self.augment_blossom(t, e);
            }
            let (a, c) = (self.endpoint[p], self.endpoint[p ^ 1]);
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edges[k];
        for (s0, p0) in [(v, 2 * k + 1), (w, 2 * k)] {
            self.alternate_to_root(s0, p0);
        }
    }

    /// Match S-vertex `s0` through endpoint `p0` (or leave it single, `NONE`) and alternate
    /// the path from it to its tree's root, which ends up matched.
    fn alternate_to_root(&mut self, s0: usize, p0: usize) {
        {
            let (mut s, mut p) = (s0, p0);
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// Scan the edges of S-vertex `v`: label across tight edges, make a blossom or augment
    /// where two S-vertices meet, and note the least-slack edges for the next dual step.
    /// True when it augmented (the stage is over).
    fn scan(&mut self, v: usize, weights: &WeightTable<W>) -> bool {
        // Edges gone to zero stay gone (see `Incremental::set`): drop them from the list once,
        // keeping its order.
        if self.unpruned[v] {
            self.unpruned[v] = false;
            let (present, listed) = (&self.present, &mut self.listed);
            self.neighbend[v].retain(|&(p, _)| {
                let k = p as usize / 2;
                let keep = present[k];
                if !keep {
                    listed[k] = false;
                }
                keep
            });
        }
        // v's dual holds still while the queue is scanned; its blossom changes only when a
        // blossom is made here.
        let dv = self.dualvar[v];
        let row = weights.row(v);
        let mut bv = self.inblossom[v];
        for idx in 0..self.neighbend[v].len() {
            let (p, w) = wide_end(self.neighbend[v][idx]);
            let k = p / 2;
            let bw = self.inblossom[w];
            // Inside v's blossom, or at a T-vertex already reached: whatever the slack,
            // nothing follows from this edge.
            if bv == bw || (self.label[bw] == 2 && self.label[w] == 2) {
                continue;
            }
            let mut kslack = W::zero();
            if !self.allowedge[k] {
                kslack = dv + self.dualvar[w] - weights.doubled_of(row[w]);
                if !kslack.is_positive() {
                    self.allowedge[k] = true;
                }
            }
            if self.allowedge[k] {
                if self.label[bw] == 0 && self.mate[self.blossombase[bw]] == NONE {
                    // A single vertex at zero (no root): the path ends there.
                    self.labelend[bw] = NONE;
                    self.augment_matching(k);
                    return true;
                } else if self.label[bw] == 0 {
                    self.assign_label(w, 2, p ^ 1);
                } else if self.label[bw] == 1 {
                    let base = self.scan_blossom(v, w);
                    if base == NONE {
                        self.augment_matching(k);
                        return true;
                    }
                    self.add_blossom(base, k, weights);
                    bv = self.inblossom[v];
                } else if self.label[w] == 0 {
                    self.label[w] = 2;
                    self.labelend[w] = p ^ 1;
                }
            } else if self.label[bw] == 1 {
                if self.bestedge[bv] == NONE || kslack < self.bestslack[bv] {
                    (self.bestedge[bv], self.bestslack[bv]) = (k, kslack);
                }
            } else if self.label[w] == 0 && (self.bestedge[w] == NONE || kslack < self.bestslack[w])
            {
                (self.bestedge[w], self.bestslack[w]) = (k, kslack);
            }
        }
        false
    }

    /// `weights`: every pair's weight, the same as the edges'.
    fn solve(&mut self, weights: &WeightTable<W>) {
        let n = self.n;
        // Each stage augments (two fewer single vertices) or settles a root (one fewer single
        // vertex with a positive dual), so this bound is never reached.
        for _ in 0..2 * n + 2 {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            // Roots: the single vertices whose dual is still positive (a single vertex at zero
            // already meets the optimality conditions; after a cold start all roots are equal).
            let mut roots = 0;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.label[self.inblossom[v]] == 0
                    && self.dualvar[v] > W::zero()
                {
                    self.assign_label(v, 1, NONE);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            let mut augmented = false;
            let mut settled = false;
            loop {
                while let Some(v) = (!augmented).then(|| self.queue.pop()).flatten() {
                    augmented = self.scan(v, weights);
                }
                if augmented {
                    break;
                }
                // Dual adjustment: the smallest of the four kinds of step.
                // Type 1: an S-vertex's dual reaches zero; a single one first on a tie.
                let mut deltatype = 1;
                let mut deltavertex = NONE;
                let mut delta = W::zero();
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 1 {
                        let d = self.dualvar[v];
                        let better = deltavertex == NONE
                            || d < delta
                            || (d == delta
                                && self.mate[v] == NONE
                                && self.mate[deltavertex] != NONE);
                        if better {
                            delta = d;
                            deltavertex = v;
                        }
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.bestslack[v];
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.bestslack[b].half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                if deltatype != 1 {
                    self.refresh_bestslack(weights);
                }
                match deltatype {
                    1 => {
                        // A matched vertex at zero gives its place to the root: alternating
                        // the path between them gains half the root's dual.
                        if self.mate[deltavertex] != NONE {
                            self.alternate_to_root(deltavertex, NONE);
                        }
                        settled = true;
                        break;
                    }
                    2 | 3 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented && !settled {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>> {
        max_weight_matching(n, edges)
    }

    fn weight(m: &[Option<usize>], edges: &[(usize, usize, i64)]) -> i64 {
        edges
            .iter()
            .filter(|&&(i, j, _)| m[i] == Some(j))
            .map(|e| e.2)
            .sum()
    }

    #[test]
    fn van_rantwijks_small_cases() {
        assert_eq!(run(2, &[(0, 1, 1)]), vec![Some(1), Some(0)]);
        // A path where the heavy middle edge loses to the two outer ones.
        let m = run(4, &[(0, 1, 5), (1, 2, 11), (2, 3, 5)]);
        assert_eq!(m, vec![None, Some(2), Some(1), None]);
        let m = run(4, &[(0, 1, 5), (1, 2, 9), (2, 3, 5)]);
        assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    }

    #[test]
    fn blossoms_form_and_expand() {
        // Triangle with a tail (S-blossom then augment through it).
        let e = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
        assert_eq!(run(4, &e), vec![Some(1), Some(0), Some(3), Some(2)]);
        // van Rantwijk's test 'nested S-blossom, relabel as T, expand'.
        let e = [
            (1, 2, 19),
            (1, 3, 20),
            (1, 8, 8),
            (2, 3, 25),
            (2, 4, 18),
            (3, 5, 18),
            (4, 5, 13),
            (4, 7, 7),
            (5, 6, 7),
        ];
        let m = run(9, &e);
        let want = [
            None,
            Some(8),
            Some(3),
            Some(2),
            Some(7),
            Some(6),
            Some(5),
            Some(4),
            Some(1),
        ];
        assert_eq!(m, want);
        // 'create nested S-blossom, augment, expand recursively'.
        let e = [
            (1, 2, 40),
            (1, 3, 40),
            (2, 3, 60),
            (2, 4, 55),
            (3, 5, 55),
            (4, 5, 50),
            (1, 8, 15),
            (5, 7, 30),
            (7, 6, 10),
            (8, 10, 10),
            (4, 9, 30),
        ];
        let m = run(11, &e);
        let want = [
            None,
            Some(2),
            Some(1),
            Some(5),
            Some(9),
            Some(3),
            Some(7),
            Some(6),
            Some(10),
            Some(4),
            Some(8),
        ];
        assert_eq!(m, want);
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.gen_range(1..9);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.gen_bool(0.6) {
                        edges.push((i, j, rng.gen_range(1..20)));
                    }
                }
            }
            let m = run(n, &edges);
            for v in 0..n {
                if let Some(u) = m[v] {
                    assert_eq!(m[u], Some(v));
                }
            }
            assert_eq!(weight(&m, &edges), brute(n, &edges, 0, &mut vec![false; n]));
        }
    }

    #[test]
    fn a_kept_matching_stays_optimal_as_weights_change() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for _ in 0..200 {
            let n = rng.gen_range(2..24);
            // Even weights, as the Dutch weights are compared (halving stays exact); half the
            // graphs with few distinct weights, so ties and tight edges abound (as among the
            // players below a bracket).
            let distinct = if rng.gen_bool(0.5) { 3 } else { 40 };
            let mut w = vec![vec![0i64; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    if rng.gen_bool(0.7) {
                        w[i][j] = 2 * rng.gen_range(1..distinct);
                    }
                }
            }
            let mut kept = Incremental::<i64>::new(n);
            // Deferred scans change the search, never the optimum.
            kept.defer_scans_from(rng.gen_range(0..=n));
            for a in 0..n {
                for b in a + 1..n {
                    kept.set(a, b, w[a][b]);
                }
            }
            for _ in 0..12 {
                let m = kept.solve();
                let edges: Vec<(usize, usize, i64)> = (0..n)
                    .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                    .filter(|&(i, j)| w[i][j] > 0)
                    .map(|(i, j)| (i, j, w[i][j]))
                    .collect();
                for v in 0..n {
                    if let Some(u) = m[v] {
                        assert_eq!(m[u], Some(v));
                        assert!(w[v.min(u)][v.max(u)] > 0);
                    }
                }
                let cold = run(n, &edges);
                assert_eq!(weight(&m, &edges), weight(&cold, &edges));
                // Change the edges of one vertex (as the pairing steers one player), and a
                // few elsewhere: raised, lowered, removed.
                let v = rng.gen_range(0..n);
                for o in 0..n {
                    let (a, b) = (v.min(o), v.max(o));
                    if a != b && w[a][b] > 0 && rng.gen_bool(0.5) {
                        w[a][b] = match rng.gen_range(0..4) {
                            0 => 0,
                            1 => (w[a][b] - 2).max(2),
                            _ => w[a][b] + 2 * rng.gen_range(1..30),
                        };
                        kept.set(a, b, w[a][b]);
                    }
                }
                if rng.gen_bool(0.2) {
                    kept.defer_scans_from(rng.gen_range(0..=n));
                }
                for _ in 0..rng.gen_range(0..3) {
                    let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
                    let (a, b) = (a.min(b), a.max(b));
                    if a != b && w[a][b] > 0 {
                        w[a][b] = 2 * rng.gen_range(1..60);
                        kept.set(a, b, w[a][b]);
                    }
                }
            }
        }
    }

    fn brute(n: usize, edges: &[(usize, usize, i64)], from: usize, used: &mut Vec<bool>) -> i64 {
        let Some(v) = (from..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut best = brute(n, edges, v + 1, used);
        for &(i, j, w) in edges {
            let u = if i == v {
                j
            } else if j == v {
                i
            } else {
                continue;
            };
            if !used[u] {
                used[u] = true;
                best = best.max(w + brute(n, edges, v + 1, used));
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }

    #[test]
    fn wide_weights_beyond_128_bits() {
        let big = Wide::<4>::bit(200);
        let e = [(0, 1, big), (1, 2, big + Wide::from_u64(1)), (2, 3, big)];
        let m = max_weight_matching(4, &e);
        assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    }
}
