//! The standard normal distribution to full double precision, and TrueSkill's truncated
//! Gaussian corrections (v, w) computed without underflow far in the tails, where the plain
//! ratio φ(t)/Φ(t) is 0/0.
use std::f64::consts::{FRAC_2_SQRT_PI, PI, SQRT_2};

/// 1/√π.
const FRAC_1_SQRT_PI: f64 = FRAC_2_SQRT_PI / 2.0;

/// The scaled complementary error function e^{x²}·erfc(x), for x ≥ 0.
fn erfcx_nonnegative(x: f64) -> f64 {
    debug_assert!(x >= 0.0);
    if x < 2.0 {
        // erf(x) = 2/√π · e^{−x²} · Σ 2ⁿ x^{2n+1} / (1·3·…·(2n+1)): positive terms only.
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term > sum * 1e-17 {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
        }
        let erf = FRAC_2_SQRT_PI * (-x2).exp() * sum;
        (1.0 - erf) * x2.exp()
    } else {
        // Laplace's continued fraction 1/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …)))),
        // evaluated by the modified Lentz method.
        let tiny = 1e-300;
        let mut f = x;
        let mut c = x;
        let mut d = 0.0;
        for n in 1..10_000 {
            let a = n as f64 / 2.0;
            d = x + a * d;
            d = if d == 0.0 { tiny } else { 1.0 / d };
            c = x + a / c;
            if c == 0.0 {
                c = tiny;
            }
            let step = c * d;
            f *= step;
            if (step - 1.0).abs() < 1e-16 {
                break;
            }
        }
        FRAC_1_SQRT_PI / f
    }
}

/// erfc(x) for any x.
pub(crate) fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= 0.0 {
        if x > 27.3 {
            return 0.0;
        }
        erfcx_nonnegative(x) * (-x * x).exp()
    } else {
        2.0 - erfc(-x)
    }
}

/// The standard normal density φ(x).
pub(crate) fn pdf(x: f64) -> f64 {
    (-x * x / 2.0).exp() / (2.0 * PI).sqrt()
}

/// The standard normal distribution function Φ(x).
pub(crate) fn cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// φ(x)/Φ(x) for x ≤ 0, without forming either (both underflow below x ≈ −38).
fn mills_inverse_below(x: f64) -> f64 {
    debug_assert!(x <= 0.0);
    // Φ(x) = ½ e^{−x²/2} erfcx(−x/√2) and φ(x) = e^{−x²/2}/√(2π).
    (2.0 / PI).sqrt() / erfcx_nonnegative(-x / SQRT_2)
}

/// The quantile Φ⁻¹(p), for 0 < p < 1: Newton's method on Φ, kept inside a bracket.
pub(crate) fn ppf(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return if p == 0.0 {
            f64::NEG_INFINITY
        } else if p == 1.0 {
            f64::INFINITY
        } else {
            f64::NAN
        };
    }
    let (mut low, mut high) = (-40.0f64, 40.0f64);
    let mut x = 0.0;
    for _ in 0..200 {
        let f = cdf(x) - p;
        if f == 0.0 {
            return x;
        }
        if f < 0.0 {
            low = x;
        } else {
            high = x;
        }
        let step = f / pdf(x);
        let mut next = x - step;
        if !(next > low && next < high) {
            next = (low + high) / 2.0;
        }
        if (next - x).abs() <= 1e-15 * x.abs().max(1.0) {
            return next;
        }
        x = next;
    }
    x
}

/// TrueSkill's mean correction for a win by more than `margin`, at a difference `diff`
/// (both in units of the difference's standard deviation): φ(t)/Φ(t), t = diff − margin.
pub(crate) fn v_win(diff: f64, margin: f64) -> f64 {
    let t = diff - margin;
    if t <= 0.0 {
        mills_inverse_below(t)
    } else {
        pdf(t) / cdf(t)
    }
}

/// TrueSkill's variance correction for a win: v·(v + t), in (0, 1).
pub(crate) fn w_win(diff: f64, margin: f64) -> f64 {
    let t = diff - margin;
    let v = v_win(diff, margin);
    v * (v + t)
}

/// φ(b)/φ(a) and (Φ(a) − Φ(b))/φ(a) for b < a ≤ 0 scaled by φ(a), so nothing underflows.
fn draw_terms(a: f64, b: f64) -> (f64, f64, f64) {
    // Returns (φ(a), φ(b), Φ(a) − Φ(b)) all divided by φ(a) when a is far in the tail.
    if a > -30.0 {
        (pdf(a), pdf(b), cdf(a) - cdf(b))
    } else {
        let ratio = (-(b * b - a * a) / 2.0).exp(); // φ(b)/φ(a)
                                                    // Φ(x)/φ(x) = √(π/2)·erfcx(−x/√2) for x ≤ 0.
        let mills = |x: f64| (PI / 2.0).sqrt() * erfcx_nonnegative(-x / SQRT_2);
        (1.0, ratio, mills(a) - ratio * mills(b))
    }
}

/// TrueSkill's mean correction for a draw (|difference| ≤ margin).
pub(crate) fn v_draw(diff: f64, margin: f64) -> f64 {
    let abs = diff.abs();
    let (a, b) = (margin - abs, -margin - abs);
    let (pa, pb, denom) = draw_terms(a, b);
    let v = if denom > 0.0 { (pb - pa) / denom } else { a };
    if diff < 0.0 {
        -v
    } else {
        v
    }
}

/// TrueSkill's variance correction for a draw.
pub(crate) fn w_draw(diff: f64, margin: f64) -> f64 {
    let abs = diff.abs();
    let (a, b) = (margin - abs, -margin - abs);
    let (pa, pb, denom) = draw_terms(a, b);
    if denom <= 0.0 {
        return f64::NAN;
    }
    let v = (pb - pa) / denom;
    v * v + (a * pa - b * pb) / denom
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, rel: f64) {
        assert!(
            (got - want).abs() <= rel * want.abs(),
            "{got} vs {want} (relative {})",
            ((got - want) / want).abs()
        );
    }

    #[test]
    fn erfc_agrees_with_mpmath() {
        // mpmath.erfc at 30 digits.
        let table = [
            (0.0, 1.0),
            (0.3, 0.671_373_240_540_872_6),
            (1.0, 0.157_299_207_050_285_13),
            (1.9, 0.007_209_570_764_742_532_8),
            (2.0, 0.004_677_734_981_047_266),
            (2.5, 0.000_406_952_017_444_958_9),
            (5.0, 1.537_459_794_428_035e-12),
            (10.0, 2.088_487_583_762_545e-45),
        ];
        for (x, want) in table {
            close(erfc(x), want, 1e-13);
            close(erfc(-x), 2.0 - want, 1e-15);
        }
        // The scaled form where erfc itself is subnormal: e^{27²}·erfc(27).
        close(erfcx_nonnegative(27.0), 0.020_881_607_990_420_94, 1e-14);
    }

    #[test]
    fn quantiles_invert_the_distribution() {
        close(ppf(0.55), 0.125_661_346_855_074_15, 1e-13);
        close(ppf(0.975), 1.959_963_984_540_054, 1e-14);
        close(ppf(0.001), -3.090_232_306_167_813, 1e-14);
        assert_eq!(ppf(0.5), 0.0);
    }

    #[test]
    fn the_corrections_stay_finite_far_in_the_tails() {
        // v → −t and w → 1 as the upset grows; Φ itself is 0 there.
        for t in [-40.0, -200.0, -1e4] {
            let v = v_win(t, 0.0);
            assert!((v + t).abs() < 1.0 / t.abs() * 1.01, "{t}: {v}");
            let w = w_win(t, 0.0);
            assert!(w > 0.0 && w < 1.0, "{t}: {w}");
        }
        assert!((v_win(0.0, 0.0) - (2.0 / PI).sqrt()).abs() < 1e-15);
        // python's sign: a draw after a difference far below 0 pulls it back up.
        let (v, w) = (v_draw(-45.0, 0.5), w_draw(-45.0, 0.5));
        assert!(v > 44.0 && v < 45.0 && w > 0.0 && w < 1.0, "{v} {w}");
        assert_eq!(v_draw(45.0, 0.5), -v);
        // A draw of equal players: no shift, variance shrinks.
        assert_eq!(v_draw(0.0, 0.5), 0.0);
        assert!(w_draw(0.0, 0.5) > 0.0);
    }
}
