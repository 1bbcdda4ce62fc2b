//! `Indexer`: a layout's ordinal → index map with its division precomputed, to hoist out of
//! loops (CuTe's `FastDivmod`, on 64-bit ordinals).
//!
//! `L(n) = Σ_k (q_k mod e_k)·d_k` with `q_k = ⌊n / P_k⌋` and `P_k = e_0·…·e_{k−1}`. Since
//! `(q mod e)·d = q·d − ⌊q/e⌋·e·d` and `⌊q_k / e_k⌋ = q_{k+1}`, the sum telescopes into
//! `L(n) = Σ_k q_k·c_k` with `c_k = d_k − e_{k−1}·d_{k−1}` (`c_0 = d_0`), less
//! `q_r·e_{r−1}·d_{r−1}` for the rank `r`, which is 0 in the domain (`q_r = ⌊n / size⌋`).
//! Every `q_k` is one division of `n` itself (no chain from leaf to leaf), terms of equal
//! `P_k` (an extent-1 leaf) add up, and terms with `c_k = 0` (a leaf contiguous with the one
//! before, which coalescing would merge) vanish. A `P_k` that is a power of two divides by a
//! shift; any other by a multiplication (`FastDiv`). The identities hold in the integers
//! modulo 2^64, so wrapping arithmetic gives the exact index, which fits in `i64`.

use crate::layout::core::Layout;
use crate::layout::inline_vec::InlineVec;

/// Division of a 63-bit dividend by a fixed divisor `p ≥ 2` that is not a power of two,
/// as a multiplication: `⌊n / p⌋ = ⌊n·m / 2^(63+l)⌋` for `0 ≤ n < 2^63`, with
/// `l = ⌈log2 p⌉` and `m = ⌊2^(63+l) / p⌋ + 1` (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", 1994, theorem 4.2; libdivide's and CuTe's
/// `FastDivmod` round-up method, here with 64-bit dividends).
///
/// Proof. Write `m·p = 2^(63+l) + ε`: by the choice of `m`, `0 < ε ≤ p ≤ 2^l`. For
/// `n = q·p + r` with `0 ≤ r < p`, `n·m / 2^(63+l) = n/p + n·ε / (p·2^(63+l))
/// = q + r/p + δ` where `0 ≤ δ < 2^63·2^l / (p·2^(63+l)) = 1/p`. So
/// `q ≤ n·m / 2^(63+l) < q + (p−1)/p + 1/p = q + 1`, and the floor is `q`.
/// `m` fits in 64 bits: `p > 2^(l−1)` (not a power of two) gives `2^(63+l)/p < 2^64`, and
/// `p ≥ 2^(l−1) + 1` gives `2^(63+l)/p ≤ 2^64 − 2^(64−l)`, at most `2^64 − 2` for `l ≤ 63`,
/// so `m ≤ 2^64 − 1`. `p < 2^63` (a product of extents of a valid layout fits in `i64`), so
/// `l ≤ 63` and `63 + l ≤ 126`. The range `n < 2^63` holds every ordinal of a valid layout
/// (its size fits in `i64`). Tests: `fast_division_agrees_with_div_and_rem`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FastDiv {
    /// `m`.
    magic: u64,
    /// `l − 1`: the shift after taking the high 64 bits of the 128-bit product.
    shift: u32,
}

impl FastDiv {
    /// The divisor `p`, which must be ≥ 3, below 2^63 and not a power of two.
    pub(crate) fn new(p: u64) -> FastDiv {
        debug_assert!((3..1 << 63).contains(&p) && !p.is_power_of_two());
        let l = 64 - (p - 1).leading_zeros();
        let magic = ((1u128 << (63 + l)) / u128::from(p) + 1) as u64;
        FastDiv {
            magic,
            shift: l - 1,
        }
    }

    /// `⌊n / p⌋`, exact for `n < 2^63`.
    #[inline(always)]
    pub(crate) fn div(self, n: u64) -> u64 {
        (((u128::from(n) * u128::from(self.magic)) >> 64) as u64) >> self.shift
    }
}

/// One term `q·coef` of the sum, `q = ⌊n / P⌋`: for a power-of-two `P`, `q = n >> shift`
/// (`magic` unused), else `FastDiv { magic, shift }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Term {
    div: FastDiv,
    coef: i64,
}

/// `Σ (n >> shift_k)·coef_k` over the first `N` slots (`N ≤ C`): unrolled, no branch.
#[inline(always)]
fn shift_sum<const N: usize, const C: usize>(shift: &[u8; C], coef: &[i64; C], n: u64) -> i64 {
    let mut acc = 0i64;
    for k in 0..N {
        let q = n.wrapping_shr(u32::from(shift[k]));
        acc = acc.wrapping_add((q as i64).wrapping_mul(coef[k]));
    }
    acc
}

/// `Σ FastDiv { magic_k, shift_k }.div(n)·coef_k` over the first `N` slots (`N ≤ C`):
/// unrolled, no branch.
#[inline(always)]
fn magic_sum<const N: usize, const C: usize>(
    magic: &[u64; C],
    shift: &[u8; C],
    coef: &[i64; C],
    n: u64,
) -> i64 {
    let mut acc = 0i64;
    for k in 0..N {
        let q = FastDiv {
            magic: magic[k],
            shift: u32::from(shift[k]),
        }
        .div(n);
        acc = acc.wrapping_add((q as i64).wrapping_mul(coef[k]));
    }
    acc
}

/// A layout's map from ordinals to indices with its division precomputed, made by
/// [`Layout::indexer`]: build it once, outside a loop, and map every ordinal with
/// [`index_of`](Self::index_of) (no check) or [`get`](Self::get) (checked).
///
/// Each ordinal costs, per leaf, one shift when every extent is a power of two, else one
/// 64-bit multiply-high and shift (as CuTe's `FastDivmod`), then one multiplication and
/// one addition: no division instruction and no dependency from leaf to leaf. Extent-1
/// leaves and leaves contiguous with the one before cost nothing.
///
/// ```
/// use strideweave::Layout;
/// let l: Layout = "((3,5),(6,7)):((1,18),(3,90))".parse().unwrap();
/// let ix = l.indexer();
/// assert_eq!(ix.size(), 630);
/// for i in 0..ix.size() {
///     assert_eq!(ix.index_of(i), l.index_of(i).unwrap());
/// }
/// assert_eq!(ix.get(17), Some(l.index_of(17).unwrap()));
/// assert_eq!(ix.get(630), None);
/// ```
#[derive(Clone, Debug)]
pub struct Indexer {
    /// The plan, for a layout of up to `PLAN_TERMS` terms besides `P_0 = 1` (else its size
    /// is 0 and `wide` holds the terms).
    plan: Plan,
    size: u64,
    /// The coefficient of `P_0 = 1` and every other term, for a layout without a plan.
    wide: (i64, InlineVec<Term, 8>),
}

impl Layout {
    /// The terms `(P_k, c_k)` of the telescoped sum in leaf order, merged by `P_k` and
    /// without zero coefficients, and the size.
    pub(crate) fn terms(&self) -> (InlineVec<(u64, i64), 8>, u64) {
        // P_k ≤ size fits in i64, so no product overflows.
        let mut raw: InlineVec<(u64, i64), 8> = InlineVec::new();
        let (mut p, mut prev) = (1u64, 0i64);
        for (&e, &d) in self.leaves() {
            let c = d.wrapping_sub(prev);
            match raw.last_mut() {
                // The leaf before had extent 1: the same quotient, coefficients add.
                Some((q, coef)) if *q == p => *coef = coef.wrapping_add(c),
                _ => raw.push((p, c)),
            }
            prev = e.wrapping_mul(d);
            p *= e as u64;
        }
        (raw.iter().copied().filter(|t| t.1 != 0).collect(), p)
    }
}

/// The coefficient of the term `P_0 = 1` (`n` itself; 0 when there is none) and the other
/// terms.
pub(crate) fn split_unit(terms: &[(u64, i64)]) -> (i64, &[(u64, i64)]) {
    match terms.first() {
        Some(&(1, c)) => (c, &terms[1..]),
        _ => (0, terms),
    }
}

impl Layout {
    /// The layout's ordinal → index map with its division precomputed: an [`Indexer`] to
    /// build once and use for many ordinals. `ix.index_of(i) == l.index_of(i)?` for every `i`
    /// in `[0, size)`. Building it is O(leaves) with one 128-bit division per leaf whose
    /// extent product so far is not a power of two; it allocates only for a layout of more
    /// than 8 leaves.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "((4,8),(2,16)):((1,64),(4,512))".parse().unwrap();
    /// let data: Vec<f32> = (0..l.cosize()).map(|k| k as f32).collect();
    /// // The layout's elements in ordinal order: made once, used for every ordinal.
    /// let ix = l.indexer();
    /// let picked: Vec<f32> = (0..ix.size()).map(|i| data[ix.index_of(i) as usize]).collect();
    /// assert_eq!(picked[5], data[l.index_of(5).unwrap() as usize]);
    /// assert_eq!(picked[5], 65.0); // 5 = ((1,1),(0,0)): 1·1 + 1·64
    /// ```
    pub fn indexer(&self) -> Indexer {
        let (terms, size) = self.terms();
        let plan = Plan::of(&terms, size);
        if plan.size != 0 {
            return Indexer {
                plan,
                size,
                wide: (0, InlineVec::new()),
            };
        }
        let (coef0, rest) = split_unit(&terms);
        let wide = rest.iter().map(|&(p, coef)| Term {
            div: if p.is_power_of_two() {
                FastDiv {
                    magic: 0,
                    shift: p.trailing_zeros(),
                }
            } else {
                FastDiv::new(p)
            },
            coef,
        });
        Indexer {
            plan,
            size,
            wide: (coef0, wide.collect()),
        }
    }
}

impl Indexer {
    /// The number of ordinals: the layout's size.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(3,1)".parse().unwrap();
    /// assert_eq!(l.indexer().size(), 6);
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The index of ordinal `i`, for `i` in `[0, size)`, unchecked: the fast path for a loop
    /// that knows its range. An ordinal outside it gives an unspecified index (never a panic
    /// or undefined behaviour); [`get`](Self::get) checks.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(3,1)".parse().unwrap();
    /// let ix = l.indexer();
    /// let seq: Vec<i64> = (0..6).map(|i| ix.index_of(i)).collect();
    /// assert_eq!(seq, [0, 3, 1, 4, 2, 5]);
    /// ```
    #[inline(always)]
    pub fn index_of(&self, i: usize) -> i64 {
        let n = i as u64;
        if self.plan.size != 0 {
            return self.plan.sum(n);
        }
        wide(self.wide.0, &self.wide.1, n)
    }

    /// The index of ordinal `i`, or `None` when `i` is not in `[0, size)`.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(3,1)".parse().unwrap();
    /// let ix = l.indexer();
    /// assert_eq!((ix.get(5), ix.get(6)), (Some(5), None));
    /// ```
    #[inline]
    pub fn get(&self, i: usize) -> Option<i64> {
        ((i as u64) < self.size).then(|| self.index_of(i))
    }
}

/// `L(n)` of a layout with more than `PLAN_TERMS` terms besides `P_0 = 1`: `n·coef0` plus
/// each term, a shift or a `FastDiv` (magic 0 marks a shift).
#[inline(never)]
fn wide(coef0: i64, terms: &[Term], n: u64) -> i64 {
    terms.iter().fold((n as i64).wrapping_mul(coef0), |acc, t| {
        let q = if t.div.magic == 0 {
            n.wrapping_shr(t.div.shift)
        } else {
            t.div.div(n)
        };
        acc.wrapping_add((q as i64).wrapping_mul(t.coef))
    })
}

/// The number of terms with `P_k ≥ 2` a [`Plan`] holds.
const PLAN_TERMS: usize = 4;

/// The telescoped sum of a layout of up to `PLAN_TERMS` terms besides `P_0 = 1`: the fast
/// path of an [`Indexer`]. `L(n) = n·coef0 + Σ q_k·coef_k` for
/// `n < size`, with `q_k = n >> shift_k` when every `P_k` is a power of two, else
/// `q_k = FastDiv { magic_k, shift_k }.div(n)` (a power of two `2^K` as `magic = 2^(64−K)`,
/// `shift = 0`). The unused slots have coefficient 0 and magic 0, so a sum runs over 3 or 4
/// shift slots, or 2 or 4 divided ones, without a branch per term. `size == 0` marks a layout
/// without a plan (more terms).
#[derive(Clone, Copy, Debug)]
struct Plan {
    size: u64,
    coef0: i64,
    coef: [i64; PLAN_TERMS],
    magic: [u64; PLAN_TERMS],
    shift: [u8; PLAN_TERMS],
    len: u8,
    divided: bool,
}

impl Plan {
    /// The plan of a layout's [`terms`](Layout::terms) and size.
    fn of(terms: &[(u64, i64)], size: u64) -> Plan {
        let mut plan = Plan {
            size: 0,
            coef0: 0,
            coef: [0; PLAN_TERMS],
            magic: [0; PLAN_TERMS],
            shift: [0; PLAN_TERMS],
            len: 0,
            divided: false,
        };
        let (coef0, rest) = split_unit(terms);
        plan.coef0 = coef0;
        if rest.len() > PLAN_TERMS {
            return plan;
        }
        // With a power-of-two size every P_k (a divisor) is a power of two.
        plan.divided = !size.is_power_of_two();
        for (k, &(p, c)) in rest.iter().enumerate() {
            let (magic, shift) = match (plan.divided, p.is_power_of_two()) {
                (false, _) => (0, p.trailing_zeros()),
                // n >> K as the high half of n·2^(64−K), exact for every n (K ≥ 1).
                (true, true) => (1 << (64 - p.trailing_zeros()), 0),
                (true, false) => {
                    let f = FastDiv::new(p);
                    (f.magic, f.shift)
                }
            };
            (plan.magic[k], plan.shift[k], plan.coef[k]) = (magic, shift as u8, c);
        }
        (plan.size, plan.len) = (size, rest.len() as u8);
        plan
    }

    /// `L(n)` for `n < size`, unchecked.
    #[inline(always)]
    fn sum(&self, n: u64) -> i64 {
        let acc = (n as i64).wrapping_mul(self.coef0);
        let (m, s, c) = (&self.magic, &self.shift, &self.coef);
        acc.wrapping_add(if !self.divided {
            if self.len <= 3 {
                shift_sum::<3, PLAN_TERMS>(s, c, n)
            } else {
                shift_sum::<PLAN_TERMS, PLAN_TERMS>(s, c, n)
            }
        } else if self.len <= 2 {
            magic_sum::<2, PLAN_TERMS>(m, s, c, n)
        } else {
            magic_sum::<PLAN_TERMS, PLAN_TERMS>(m, s, c, n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{FastDiv, Plan};
    use crate::layout::Layout;

    /// Dividends around `0`, around every multiple of `p` up to `reach`, and at the top of
    /// the 63-bit range (the multiples of `p` nearest `2^63`, ± 1).
    fn check(p: u64, reach: u64) {
        let f = FastDiv::new(p);
        let top = (1u64 << 63) - 1;
        let top_multiple = top / p * p;
        let near = [
            0,
            1,
            p - 1,
            p,
            p + 1,
            top,
            top - 1,
            top_multiple,
            top_multiple - 1,
            top_multiple - p,
            top_multiple - p + 1,
            top_multiple.saturating_sub(p.saturating_mul(p)),
            top / 2,
            top / 3,
        ];
        for n in (0..reach).chain(near) {
            assert_eq!(f.div(n), n / p, "{n} / {p}");
        }
    }

    #[test]
    fn fast_division_agrees_with_div_and_rem() {
        let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
        // Every divisor below 2^11, each against every dividend below 2^14 plus the
        // boundaries (STRIDEWEAVE_LONG: below 2^14, against 2^16).
        let (divisors, reach) = if long {
            (1 << 14, 1 << 16)
        } else {
            (1 << 11, 1 << 14)
        };
        for p in (3..divisors).filter(|p: &u64| !p.is_power_of_two()) {
            check(p, reach);
            // The remainder, as the indexer takes it (q·p subtracted from n).
            let f = FastDiv::new(p);
            for n in [reach, reach + 1, (1 << 63) - 1] {
                assert_eq!(n - f.div(n) * p, n % p);
            }
        }
        // Divisors at the boundaries of each power of two, up to the largest below 2^63.
        for k in 2..63u32 {
            for p in [
                (1u64 << k) - 1,
                (1u64 << k) + 1,
                (1u64 << k) + (1u64 << (k - 1)),
            ] {
                if (3..1 << 63).contains(&p) && !p.is_power_of_two() {
                    check(p, 256);
                }
            }
        }
        check((1 << 63) - 1, 256);
        check(i64::MAX as u64 / 3, 256);
        check(3_037_000_499, 256); // ⌊√2^63⌋
    }

    /// Layouts of every shape of plan: none (`wide`, inline or on the heap), shifts, divisions,
    /// 2 or 4 slots, extent-1 and contiguous leaves, stride 0, negative strides.
    const CASES: [(&str, Kind); 12] = [
        ("((3,5),(6,7)):((1,18),(3,90))", Kind::Divided),
        ("((4,8),(2,16)):((1,64),(4,512))", Kind::Shifted),
        ("(2,1,3,1):(5,7,-2,9)", Kind::Divided),
        ("(1,1):(3,4)", Kind::Shifted),
        ("(3,4,5):(1,3,12)", Kind::Divided),
        ("(8,4):(4,1)", Kind::Shifted),
        ("(6,(1,10)):(-10,(0,1))", Kind::Divided),
        ("(4,8,2,(4,2)):(0,1,-32,(64,8))", Kind::Shifted),
        ("(2,3,2,3,2,3):(1,100,-7,3,50,11)", Kind::Wide),
        // More than 8 terms: the wide terms on the heap.
        (
            "(2,2,2,2,2,2,2,2,2,2):(1,3,7,15,31,63,127,255,511,1023)",
            Kind::Wide,
        ),
        (
            "(3,3,3,3,3,3,3,3,3,3):(1,4,13,40,121,364,1093,3280,9841,29524)",
            Kind::Wide,
        ),
        (
            "(2,2,2,2,2,2,2,2,3,5,3,3,3,3,3,3,3):(1,3,7,15,31,63,127,255,511,-1,2,-3,4,-5,6,-7,8)",
            Kind::Wide,
        ),
    ];

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Kind {
        Shifted,
        Divided,
        Wide,
    }

    fn kind(plan: &Plan) -> Kind {
        match (plan.size, plan.divided) {
            (0, _) => Kind::Wide,
            (_, false) => Kind::Shifted,
            (_, true) => Kind::Divided,
        }
    }

    #[test]
    fn indexer_plan_kind_follows_the_terms() {
        for (text, want) in CASES {
            let l: Layout = text.parse().unwrap();
            assert_eq!(kind(&l.indexer().plan), want, "{text}");
        }
    }

    #[test]
    fn indexer_agrees_with_eval_extended_beyond_the_domain() {
        // The telescoped sum without its last term is CuTe's extension of the last leaf, on
        // every path (the plan's and the wide one).
        for (text, _) in CASES {
            let l: Layout = text.parse().unwrap();
            let (terms, size) = l.terms();
            let (ix, plan) = (l.indexer(), Plan::of(&terms, size));
            let end = 4 * l.size() + 10;
            // Every ordinal of the small layouts; a spread of 4096 on the large ones.
            let step = (end / 4096).max(1);
            for i in (0..end).step_by(step).chain(end - 10..end) {
                let want = l.eval_extended(i as i64);
                assert_eq!(ix.index_of(i), want, "{text} at {i}");
                if plan.size != 0 {
                    assert_eq!(plan.sum(i as u64), want, "{text} at {i}");
                }
                assert_eq!(l.eval_in_domain(i as u64), (i < l.size()).then_some(want));
            }
        }
    }
}
