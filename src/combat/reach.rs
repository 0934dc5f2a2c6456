//! Where a ship can get with a few maneuvers, and the cheapest way to each place. Worked out
//! once per ship class from the ruleset's maneuver costs, so a tactic planning its movement
//! scans a short list instead of searching every sequence of maneuvers at every decision.
use super::events::Maneuver;
use super::hex::Hex;
use super::movement::apply_maneuver;
use crate::rules::combat::EnergyCosts;
use std::collections::HashMap;

/// Longest maneuver sequence considered.
pub(crate) const MAX_MOVES: usize = 7;

/// One place a ship can reach, and the cheapest sequence that gets it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The end hex in the ship's frame at the start (bow along direction 0).
    pub offset: Hex,
    /// The end facing minus the start facing (0..6).
    pub turn: u8,
    /// Energy at base prices: an engines multiplier scales it; free turns cost nothing.
    pub cost: u32,
    pub len: u8,
    pub moves: [Maneuver; MAX_MOVES],
}

impl Reach {
    pub(crate) fn moves(&self) -> &[Maneuver] {
        &self.moves[..self.len as usize]
    }
}

/// For each number of free turns left, the places reachable for at most a ship's maximum
/// speed in energy.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReachTable {
    by_free_turns: Vec<Reachable>,
}

/// The places reachable from one start, grouped by hex (a planner looks at each hex once and
/// then at the facings it can have there). Hexes come cheapest first, and so do the places
/// of a hex (equal costs in search order: ahead, left, right, back).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Reachable {
    hexes: Vec<HexPlaces>,
    places: Vec<Reach>,
}

/// One hex and where its places lie in `Reachable::places`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HexPlaces {
    /// The hex in the ship's frame at the start.
    pub offset: Hex,
    /// The cheapest of its places.
    pub cheapest: u32,
    start: u32,
    end: u32,
}

/// The energy of maneuver `m` at base prices with `free` free turns left, and the free turns
/// left after it: a turn costs nothing while free turns last.
pub(crate) fn price(energy: &EnergyCosts, m: Maneuver, free: u32) -> (u32, u32) {
    match m {
        Maneuver::TurnLeft | Maneuver::TurnRight if free > 0 => (0, free - 1),
        Maneuver::TurnLeft | Maneuver::TurnRight => (energy.turn, free),
        Maneuver::Forward => (energy.forward, free),
        Maneuver::Back => (energy.back, free),
    }
}

impl Reachable {
    fn new(mut found: Vec<Reach>) -> Reachable {
        found.sort_by_key(|r| r.cost);
        let mut hexes: Vec<HexPlaces> = Vec::new();
        for r in &found {
            if !hexes.iter().any(|h| h.offset == r.offset) {
                hexes.push(HexPlaces {
                    offset: r.offset,
                    cheapest: r.cost,
                    start: 0,
                    end: 0,
                });
            }
        }
        let mut places = Vec::with_capacity(found.len());
        for h in &mut hexes {
            h.start = places.len() as u32;
            places.extend(found.iter().filter(|r| r.offset == h.offset));
            h.end = places.len() as u32;
        }
        Reachable { hexes, places }
    }

    /// The hexes, cheapest first, each with its places, cheapest first.
    pub(crate) fn by_hex(&self) -> impl Iterator<Item = (&HexPlaces, &[Reach])> {
        self.hexes
            .iter()
            .map(|h| (h, &self.places[h.start as usize..h.end as usize]))
    }

    /// Every place.
    #[cfg(test)]
    fn all(&self) -> &[Reach] {
        &self.places
    }
}

const ORDER: [Maneuver; 4] = [
    Maneuver::Forward,
    Maneuver::TurnLeft,
    Maneuver::TurnRight,
    Maneuver::Back,
];

fn undoes(a: Maneuver, b: Maneuver) -> bool {
    matches!(
        (a, b),
        (Maneuver::Forward, Maneuver::Back)
            | (Maneuver::Back, Maneuver::Forward)
            | (Maneuver::TurnLeft, Maneuver::TurnRight)
            | (Maneuver::TurnRight, Maneuver::TurnLeft)
    )
}

impl ReachTable {
    pub(crate) fn new(energy: &EnergyCosts, maneuverability: u32, max_speed: u32) -> ReachTable {
        // More free turns than moves in a sequence change nothing.
        let most_free = maneuverability.min(MAX_MOVES as u32);
        ReachTable {
            by_free_turns: (0..=most_free)
                .map(|free| Reachable::new(places(energy, free, max_speed)))
                .collect(),
        }
    }

    /// The places reachable with `free_turns` free turns left.
    pub(crate) fn places(&self, free_turns: u32) -> &Reachable {
        static NONE: Reachable = Reachable {
            hexes: Vec::new(),
            places: Vec::new(),
        };
        let i = (free_turns as usize).min(self.by_free_turns.len().saturating_sub(1));
        self.by_free_turns.get(i).unwrap_or(&NONE)
    }
}

/// Every sequence of up to `MAX_MOVES` maneuvers costing at most `max_cost` (never a move
/// right after the one it undoes; a move that is not a turn must cost something), keeping
/// the cheapest way to each place.
fn places(energy: &EnergyCosts, free: u32, max_cost: u32) -> Vec<Reach> {
    struct Walk<'a> {
        energy: &'a EnergyCosts,
        max_cost: u32,
        found: Vec<Reach>,
        index: HashMap<(Hex, u8), usize>,
        moves: [Maneuver; MAX_MOVES],
    }
    impl Walk<'_> {
        fn walk(&mut self, pos: Hex, facing: u8, cost: u32, free: u32, depth: usize) {
            for m in ORDER {
                if depth > 0 && undoes(self.moves[depth - 1], m) {
                    continue;
                }
                let is_turn = matches!(m, Maneuver::TurnLeft | Maneuver::TurnRight);
                let (paid, free_after) = price(self.energy, m, free);
                if paid == 0 && !is_turn {
                    continue;
                }
                let total = cost.saturating_add(paid);
                if total > self.max_cost {
                    continue;
                }
                let (p, f) = apply_maneuver(pos, facing, m);
                self.moves[depth] = m;
                let reach = Reach {
                    offset: p,
                    turn: f,
                    cost: total,
                    len: depth as u8 + 1,
                    moves: self.moves,
                };
                match self.index.get(&(p, f)) {
                    Some(&i) if self.found[i].cost <= total => {}
                    Some(&i) => self.found[i] = reach,
                    None => {
                        self.index.insert((p, f), self.found.len());
                        self.found.push(reach);
                    }
                }
                if depth + 1 < MAX_MOVES {
                    self.walk(p, f, total, free_after, depth + 1);
                }
            }
        }
    }
    let mut w = Walk {
        energy,
        max_cost,
        found: Vec::new(),
        index: HashMap::new(),
        moves: [Maneuver::Forward; MAX_MOVES],
    };
    w.walk(Hex::new(0, 0), 0, 0, free, 0);
    // Staying put is not a move: a sequence that ends where it started, facing the same way, is
    // dropped.
    w.found
        .into_iter()
        .filter(|r| !(r.offset == Hex::new(0, 0) && r.turn == 0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn energy(forward: u32, back: u32, turn: u32) -> EnergyCosts {
        EnergyCosts {
            forward,
            back,
            turn,
            phaser_die: 1,
            raise_shields: 1,
            shield_point: 1,
            repair_light: 1,
            repair_damaged: 1,
            repair_badly_damaged: 1,
            warp: 1,
            battery_point: 1,
            cloak: 1,
            damaged_multiplier: 2,
            damaged_generator_divisor: 2,
        }
    }

    /// The cheapest cost to every place by brute force over all sequences.
    fn brute(e: &EnergyCosts, free: u32, max_cost: u32) -> HashMap<(Hex, u8), u32> {
        let mut best = HashMap::new();
        let mut frontier = vec![(Hex::new(0, 0), 0u8, 0u32, free, None::<Maneuver>)];
        for _ in 0..MAX_MOVES {
            let mut next = Vec::new();
            for (pos, facing, cost, free, last) in frontier {
                for m in ORDER {
                    if last.is_some_and(|l| undoes(l, m)) {
                        continue;
                    }
                    let turn = matches!(m, Maneuver::TurnLeft | Maneuver::TurnRight);
                    let (paid, free) = price(e, m, free);
                    if (paid == 0 && !turn) || cost + paid > max_cost {
                        continue;
                    }
                    let (p, f) = apply_maneuver(pos, facing, m);
                    let slot = best.entry((p, f)).or_insert(u32::MAX);
                    *slot = (*slot).min(cost + paid);
                    next.push((p, f, cost + paid, free, Some(m)));
                }
            }
            frontier = next;
        }
        best.remove(&(Hex::new(0, 0), 0));
        best
    }

    #[test]
    fn every_place_comes_with_its_cheapest_sequence() {
        for (e, free, max) in [
            (energy(1, 2, 1), 0, 6),
            (energy(1, 2, 1), 2, 6),
            (energy(2, 3, 1), 1, 9),
            (energy(1, 1, 0), 0, 3),
        ] {
            let table = ReachTable::new(&e, free, max);
            let places = table.places(free).all();
            let expected = brute(&e, free, max);
            assert_eq!(places.len(), expected.len());
            for r in places {
                assert_eq!(Some(&r.cost), expected.get(&(r.offset, r.turn)));
                // Replaying the moves lands on the place, for the recorded cost.
                let (mut pos, mut facing, mut cost, mut left) = (Hex::new(0, 0), 0, 0, free);
                for m in r.moves() {
                    let (paid, still) = price(&e, *m, left);
                    (cost, left) = (cost + paid, still);
                    (pos, facing) = apply_maneuver(pos, facing, *m);
                }
                assert_eq!((pos, facing, cost), (r.offset, r.turn, r.cost));
            }
            // Grouped by hex, hexes cheapest first, each hex's places cheapest first.
            let mut seen = Vec::new();
            let mut last_cheapest = 0;
            for (hex, at) in table.places(free).by_hex() {
                assert!(!seen.contains(&hex.offset) && hex.cheapest >= last_cheapest);
                assert!(at.iter().all(|r| r.offset == hex.offset) && at[0].cost == hex.cheapest);
                assert!(at.windows(2).all(|w| w[0].cost <= w[1].cost));
                seen.push(hex.offset);
                last_cheapest = hex.cheapest;
            }
            assert_eq!(
                table
                    .places(free)
                    .by_hex()
                    .map(|(_, at)| at.len())
                    .sum::<usize>(),
                places.len()
            );
        }
    }

    /// Where `r` takes a ship at `pos` facing `facing`: its offset and turn are in the ship's
    /// frame, as the planner reads them.
    fn from(r: &Reach, pos: Hex, facing: u8) -> (Hex, u8) {
        (
            pos.plus(r.offset.in_frame((6 - facing) % 6)),
            (facing + r.turn) % 6,
        )
    }

    #[test]
    fn a_place_turns_with_the_ship() {
        let e = energy(1, 2, 1);
        let table = ReachTable::new(&e, 0, 6);
        let ahead = table
            .places(0)
            .all()
            .iter()
            .find(|r| r.moves() == [Maneuver::Forward])
            .unwrap();
        for facing in 0..6 {
            let start = Hex::new(3, -1);
            assert_eq!(
                from(ahead, start, facing),
                apply_maneuver(start, facing, Maneuver::Forward)
            );
        }
        let left_ahead = table
            .places(0)
            .all()
            .iter()
            .find(|r| r.moves() == [Maneuver::TurnLeft, Maneuver::Forward])
            .unwrap();
        for facing in 0..6 {
            let start = Hex::new(-2, 5);
            let (p, f) = apply_maneuver(start, facing, Maneuver::TurnLeft);
            assert_eq!(
                from(left_ahead, start, facing),
                apply_maneuver(p, f, Maneuver::Forward)
            );
        }
    }

    #[test]
    fn free_turns_beyond_the_longest_sequence_change_nothing() {
        let e = energy(1, 2, 1);
        let table = ReachTable::new(&e, 20, 6);
        assert_eq!(table.places(20), table.places(MAX_MOVES as u32));
        assert!(table
            .places(3)
            .all()
            .iter()
            .any(|r| r.cost == 0 && r.turn == 3));
    }
}
