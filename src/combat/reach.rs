//! Where a ship can get with a few maneuvers, and the cheapest way to each place. Worked out
//! once per ship class from the ruleset's maneuver costs, so a tactic planning its movement
//! scans a short list instead of searching every sequence of maneuvers at every decision.
use super::events::Maneuver;
use super::hex::Hex;
use super::tactics::apply_maneuver;
use crate::rules::combat::EnergyCosts;
use std::collections::HashMap;

/// Longest maneuver sequence considered.
pub const MAX_MOVES: usize = 7;

/// One place a ship can reach, and the cheapest sequence that gets it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
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
    /// Where this sequence takes a ship at `pos` facing `facing`.
    #[inline]
    pub fn from(&self, pos: Hex, facing: u8) -> (Hex, u8) {
        (pos.plus(self.offset.in_frame((6 - facing % 6) % 6)), (facing + self.turn) % 6)
    }

    pub fn moves(&self) -> &[Maneuver] {
        &self.moves[..self.len as usize]
    }
}

/// For each number of free turns left, the places reachable for at most a ship's maximum
/// speed in energy, cheapest first (equal costs in search order: ahead, left, right, back).
#[derive(Debug, Clone, Default)]
pub struct ReachTable {
    by_free_turns: Vec<Vec<Reach>>,
}

const ORDER: [Maneuver; 4] = [Maneuver::Forward, Maneuver::TurnLeft, Maneuver::TurnRight, Maneuver::Back];

fn undoes(a: Maneuver, b: Maneuver) -> bool {
    matches!(
        (a, b),
        (Maneuver::Forward, Maneuver::Back) | (Maneuver::Back, Maneuver::Forward) | (Maneuver::TurnLeft, Maneuver::TurnRight) | (Maneuver::TurnRight, Maneuver::TurnLeft)
    )
}

impl ReachTable {
    pub fn new(energy: &EnergyCosts, maneuverability: u32, max_speed: u32) -> ReachTable {
        // More free turns than moves in a sequence change nothing.
        let most_free = maneuverability.min(MAX_MOVES as u32);
        ReachTable { by_free_turns: (0..=most_free).map(|free| places(energy, free, max_speed)).collect() }
    }

    /// The places reachable with `free_turns` free turns left, cheapest first.
    pub fn places(&self, free_turns: u32) -> &[Reach] {
        let i = (free_turns as usize).min(self.by_free_turns.len().saturating_sub(1));
        self.by_free_turns.get(i).map_or(&[], |v| v.as_slice())
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
                let (price, free_after) = if is_turn && free > 0 {
                    (0, free - 1)
                } else {
                    (
                        match m {
                            Maneuver::Forward => self.energy.forward,
                            Maneuver::Back => self.energy.back,
                            _ => self.energy.turn,
                        },
                        free,
                    )
                };
                if price == 0 && !is_turn {
                    continue;
                }
                let total = cost.saturating_add(price);
                if total > self.max_cost {
                    continue;
                }
                let (p, f) = apply_maneuver(pos, facing, m);
                self.moves[depth] = m;
                let reach = Reach { offset: p, turn: f, cost: total, len: depth as u8 + 1, moves: self.moves };
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
    let mut w = Walk { energy, max_cost, found: Vec::new(), index: HashMap::new(), moves: [Maneuver::Forward; MAX_MOVES] };
    w.walk(Hex::new(0, 0), 0, 0, free, 0);
    // Staying put is not a move: a sequence that ends where it started, facing the same way, is dropped.
    let mut found: Vec<Reach> = w.found.into_iter().filter(|r| !(r.offset == Hex::new(0, 0) && r.turn == 0)).collect();
    found.sort_by_key(|r| r.cost);
    found
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
                    let (price, free) = if turn && free > 0 {
                        (0, free - 1)
                    } else {
                        (
                            match m {
                                Maneuver::Forward => e.forward,
                                Maneuver::Back => e.back,
                                _ => e.turn,
                            },
                            free,
                        )
                    };
                    if (price == 0 && !turn) || cost + price > max_cost {
                        continue;
                    }
                    let (p, f) = apply_maneuver(pos, facing, m);
                    let slot = best.entry((p, f)).or_insert(u32::MAX);
                    *slot = (*slot).min(cost + price);
                    next.push((p, f, cost + price, free, Some(m)));
                }
            }
            frontier = next;
        }
        best.remove(&(Hex::new(0, 0), 0));
        best
    }

    #[test]
    fn every_place_comes_with_its_cheapest_sequence() {
        for (e, free, max) in [(energy(1, 2, 1), 0, 6), (energy(1, 2, 1), 2, 6), (energy(2, 3, 1), 1, 9), (energy(1, 1, 0), 0, 3)] {
            let table = ReachTable::new(&e, free, max);
            let places = table.places(free);
            let expected = brute(&e, free, max);
            assert_eq!(places.len(), expected.len());
            for r in places {
                assert_eq!(Some(&r.cost), expected.get(&(r.offset, r.turn)));
                // Replaying the moves lands on the place, for the recorded cost.
                let (mut pos, mut facing, mut cost, mut left) = (Hex::new(0, 0), 0, 0, free);
                for m in r.moves() {
                    let turn = matches!(m, Maneuver::TurnLeft | Maneuver::TurnRight);
                    if turn && left > 0 {
                        left -= 1;
                    } else {
                        cost += match m {
                            Maneuver::Forward => e.forward,
                            Maneuver::Back => e.back,
                            _ => e.turn,
                        };
                    }
                    (pos, facing) = apply_maneuver(pos, facing, *m);
                }
                assert_eq!((pos, facing, cost), (r.offset, r.turn, r.cost));
            }
            assert!(places.windows(2).all(|w| w[0].cost <= w[1].cost));
        }
    }

    #[test]
    fn a_place_turns_with_the_ship() {
        let e = energy(1, 2, 1);
        let table = ReachTable::new(&e, 0, 6);
        let ahead = table.places(0).iter().find(|r| r.moves() == [Maneuver::Forward]).unwrap();
        for facing in 0..6 {
            let start = Hex::new(3, -1);
            assert_eq!(ahead.from(start, facing), apply_maneuver(start, facing, Maneuver::Forward));
        }
        let left_ahead = table.places(0).iter().find(|r| r.moves() == [Maneuver::TurnLeft, Maneuver::Forward]).unwrap();
        for facing in 0..6 {
            let start = Hex::new(-2, 5);
            let (p, f) = apply_maneuver(start, facing, Maneuver::TurnLeft);
            assert_eq!(left_ahead.from(start, facing), apply_maneuver(p, f, Maneuver::Forward));
        }
    }

    #[test]
    fn free_turns_beyond_the_longest_sequence_change_nothing() {
        let e = energy(1, 2, 1);
        let table = ReachTable::new(&e, 20, 6);
        assert_eq!(table.places(20), table.places(MAX_MOVES as u32));
        assert!(table.places(3).iter().any(|r| r.cost == 0 && r.turn == 3));
    }
}
