//! Fixed-width integers wide enough for edge weights that encode a whole list of pairing
//! criteria, one bit field after another (the Dutch system needs hundreds of bits in big
//! brackets). Two's complement in `N` little-endian 64-bit limbs: additions wrap, comparisons
//! are signed, so a criterion may subtract from the field above it as long as the total stays
//! positive.
use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    pub(crate) const ZERO: Wide<N> = Wide([0; N]);

    pub(crate) fn from_u64(v: u64) -> Self {
        let mut w = Self::ZERO;
        w.0[0] = v;
        w
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Above zero: not negative and some limb set.
    #[inline(always)]
    pub(crate) fn is_positive(&self) -> bool {
        !self.is_negative() && !self.is_zero()
    }

    pub(crate) fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    /// `1 << bit`.
    pub(crate) fn bit(bit: u32) -> Self {
        let mut w = Self::ZERO;
        let limb = (bit / 64) as usize;
        if limb < N {
            w.0[limb] = 1u64 << (bit % 64);
        }
        w
    }

    /// Shift left by `by` bits (bits past the top are lost, as in any fixed width).
    pub(crate) fn shl(&mut self, by: u32) {
        if by == 0 {
            return;
        }
        let limbs = (by / 64) as usize;
        let bits = by % 64;
        let mut out = [0u64; N];
        for i in (0..N).rev() {
            if i < limbs {
                break;
            }
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        self.0 = out;
    }

    /// Arithmetic shift right by one bit (halving, rounding down).
    pub(crate) fn half(self) -> Self {
        let mut out = [0u64; N];
        for i in 0..N {
            let high = if i + 1 < N {
                self.0[i + 1] << 63
            } else {
                self.0[i] & (1u64 << 63)
            };
            out[i] = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    pub(crate) fn or_u64(&mut self, v: u64) {
        self.0[0] |= v;
    }

    #[cfg(test)]
    /// The number of bits up to the highest one set (of a non-negative value).
    pub(crate) fn bit_length(&self) -> u32 {
        for i in (0..N).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + (64 - self.0[i].leading_zeros());
            }
        }
        0
    }
}

/// One limb of a sum and its carry out. `|`, not `||`: without a branch the limbs of a sum
/// compile to one add-with-carry chain.
#[inline(always)]
fn add_limb(a: u64, b: u64, carry: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry as u64);
    (s, c1 | c2)
}

/// One limb of a difference and its borrow out (as `add_limb`).
#[inline(always)]
fn sub_limb(a: u64, b: u64, borrow: bool) -> (u64, bool) {
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow as u64);
    (d, b1 | b2)
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            (*slot, carry) = add_limb(self.0[i], rhs.0[i], carry);
        }
        Wide(out)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            (*slot, borrow) = sub_limb(self.0[i], rhs.0[i], borrow);
        }
        Wide(out)
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for l in self.0.iter().rev() {
            write!(f, "{l:016x}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carries_and_borrows_cross_limbs() {
        let a = Wide::<2>([u64::MAX, 0]);
        let b = a + Wide::from_u64(1);
        assert_eq!(b.0, [0, 1]);
        assert_eq!((b - Wide::from_u64(1)).0, [u64::MAX, 0]);
    }

    #[test]
    fn shifts_move_bits_between_limbs() {
        let mut a = Wide::<3>::from_u64(0b101);
        a.shl(126);
        assert_eq!(a, Wide::bit(126) + Wide::bit(128));
        assert_eq!(a.bit_length(), 129);
        assert_eq!(Wide::<2>::bit(65).half(), Wide::bit(64));
    }

    #[test]
    fn order_is_signed() {
        let minus_one = Wide::<2>::ZERO - Wide::from_u64(1);
        assert!(minus_one < Wide::ZERO);
        assert!(Wide::<2>::bit(100) > Wide::from_u64(u64::MAX));
        assert_eq!(minus_one.half(), minus_one);
    }
}
