//! The two sides of a battle and the six directions of a hex, as types, so that "the other
//! side" and "the face to the left" are named operations instead of `1 - s` and `(f + 1) % 6`.
use serde::{Deserialize, Serialize};

/// How a report names the two sides: by their ships, with " (a)" and " (b)" added when both
/// fly the same class (a mirror match), so that every line says which side it means.
pub(crate) fn labels(a: &str, b: &str) -> [String; 2] {
    if a == b {
        [format!("{a} (a)"), format!("{b} (b)")]
    } else {
        [a.to_string(), b.to_string()]
    }
}

/// Side a (index 0) or side b (index 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Side {
    A,
    B,
}

impl Side {
    /// The side at index 0 or 1 (any other index is side b).
    pub(crate) fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::A
        } else {
            Side::B
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    pub(crate) fn from_letter(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "a" => Some(Side::A),
            "b" => Some(Side::B),
            _ => None,
        }
    }
}

/// Who moves first in the battles of a simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum First {
    A,
    B,
    /// Side a in even-numbered battles, side b in odd ones (ruling R9).
    #[default]
    Alternate,
}

impl First {
    /// The side that moves first in battle `index`.
    pub(crate) fn in_battle(self, index: u64) -> Side {
        match self {
            First::A => Side::A,
            First::B => Side::B,
            First::Alternate => Side::from_index((index % 2) as usize),
        }
    }

    pub(crate) fn parse(s: &str) -> Option<First> {
        match s.to_ascii_lowercase().as_str() {
            "a" => Some(First::A),
            "b" => Some(First::B),
            "alternate" => Some(First::Alternate),
            _ => None,
        }
    }
}

/// One of the six directions (faces) of a hex, 0..6 counter-clockwise from +q.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Facing(u8);

impl Facing {
    pub(crate) const COUNT: u8 = 6;

    /// The direction `d` (taken round the hex: 6 is 0 again).
    pub(crate) fn new(d: u8) -> Facing {
        Facing(d % Self::COUNT)
    }

    pub(crate) fn index(self) -> u8 {
        self.0
    }

    /// `steps` faces counter-clockwise (to the left); negative steps go right.
    pub(crate) fn turned(self, steps: i32) -> Facing {
        Facing((self.0 as i32 + steps).rem_euclid(Self::COUNT as i32) as u8)
    }

    pub(crate) fn left(self) -> Facing {
        self.turned(1)
    }

    pub(crate) fn right(self) -> Facing {
        self.turned(-1)
    }

    pub(crate) fn opposite(self) -> Facing {
        self.turned(3)
    }

    /// This absolute direction as seen from a ship facing `facing` (its bow is 0).
    pub(crate) fn relative_to(self, facing: Facing) -> Facing {
        self.turned(-(facing.0 as i32))
    }

    /// This direction, taken in the frame of a ship facing `facing`, as an absolute one.
    pub(crate) fn absolute_from(self, facing: Facing) -> Facing {
        self.turned(facing.0 as i32)
    }

    /// Whether two faces share an edge of the hex.
    pub(crate) fn adjacent(self, other: Facing) -> bool {
        self.left() == other || self.right() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_mark_the_sides_only_when_both_fly_one_class() {
        assert_eq!(labels("Gorn", "Gorn"), ["Gorn (a)", "Gorn (b)"]);
        assert_eq!(labels("Gorn", "Transport"), ["Gorn", "Transport"]);
    }

    #[test]
    fn sides_and_facings_name_their_arithmetic() {
        assert_eq!(Side::A.other(), Side::B);
        assert_eq!(Side::from_index(1).index(), 1);
        assert_eq!(First::Alternate.in_battle(0), Side::A);
        assert_eq!(First::Alternate.in_battle(7), Side::B);
        assert_eq!(First::B.in_battle(0), Side::B);
        assert_eq!(Facing::new(5).left().index(), 0);
        assert_eq!(Facing::new(0).right().index(), 5);
        assert_eq!(Facing::new(4).opposite().index(), 1);
        assert!(Facing::new(0).adjacent(Facing::new(5)));
        assert!(!Facing::new(0).adjacent(Facing::new(3)));
        // A ship facing 4 has its front-left face (1) along direction 5, and direction 2 is
        // its back-left face (4).
        assert_eq!(Facing::new(1).absolute_from(Facing::new(4)).index(), 5);
        assert_eq!(Facing::new(2).relative_to(Facing::new(4)).index(), 4);
    }
}
