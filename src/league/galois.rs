//! Arithmetic in GF(2^k) for Russell's construction: elements are k-bit numbers, addition
//! is XOR, and multiplication by x is a shift reduced by a primitive polynomial.

/// A primitive polynomial of degree k (bit k set), found by checking that x has order
/// 2^k − 1, so that its powers run through every non-zero element. None for k = 0.
pub(crate) fn primitive_polynomial(k: u32) -> Option<u64> {
    if k == 0 || k > 30 {
        return None;
    }
    let order = (1u64 << k) - 1;
    ((1u64 << k) + 1..(1u64 << (k + 1)))
        .step_by(2)
        .find(|&poly| {
            let mut v = 1u64;
            for step in 1..=order {
                v = times_x(v, poly, k);
                if v == 1 {
                    return step == order;
                }
            }
            false
        })
}

/// v · x in GF(2)[x] / poly.
pub(crate) fn times_x(v: u64, poly: u64, k: u32) -> u64 {
    let shifted = v << 1;
    if shifted & (1 << k) != 0 {
        shifted ^ poly
    } else {
        shifted
    }
}

/// x^0, x^1, …, x^(2^k − 2): every non-zero element once, in the order of the powers.
pub(crate) fn powers(k: u32) -> Option<Vec<u64>> {
    let poly = primitive_polynomial(k)?;
    let count = (1usize << k) - 1;
    let mut out = Vec::with_capacity(count);
    let mut v = 1u64;
    for _ in 0..count {
        out.push(v);
        v = times_x(v, poly, k);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_cover_every_nonzero_element_once() {
        for k in 1..=10 {
            let mut p = powers(k).unwrap();
            p.sort();
            assert_eq!(p, (1..(1u64 << k)).collect::<Vec<_>>(), "k = {k}");
        }
    }

    #[test]
    fn known_primitive_polynomials() {
        // x^2 + x + 1, x^3 + x + 1, x^4 + x + 1: the smallest primitive ones.
        assert_eq!(primitive_polynomial(2), Some(0b111));
        assert_eq!(primitive_polynomial(3), Some(0b1011));
        assert_eq!(primitive_polynomial(4), Some(0b10011));
    }
}
