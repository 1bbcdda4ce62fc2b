//! The batched-contraction kernel: `c[Σ i·so] = Σ a[oa + Σ i·sa] · b[ob + Σ i·sb]` over an
//! index space of [`Line`]s, each line an extent with one stride per operand and one in the
//! output (0 where that side does not vary along it; 0 in the output for a summed line).
//!
//! The lines fall into four classes by their strides: batch (output and both operands),
//! left-free (output and `a`), right-free (output and `b`) and contracted (not in the
//! output). Each class is folded into as few lines as the strides allow (extent-1 lines
//! dropped, lines that step regularly on every side merged). For f32, f64, c32 and c64 the
//! gemm kernel (`kernels/gemm.rs`) runs once per batch index ([`stage`]): with the operands' own strides where each class
//! folds into one line on every side (nothing is copied), else with the sides that do not
//! fold staged in compact buffers through the copy engine. For integer and half types a
//! plain loop over offset tables does the same sum (integers wrap).

use crate::error::Result;
use crate::kernels::int::Int;
use crate::kernels::num::Num;
use crate::kernels::plan::{Mode, Modes, outer};

mod stage;

/// One index of the iteration space: its extent and the stride of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) extent: i64,
    pub(crate) sa: i64,
    pub(crate) sb: i64,
    pub(crate) so: i64,
}

/// The element arithmetic a contraction needs: zero, one, `acc + x·y`, and a gemm kernel
/// where the type has one.
pub(crate) trait Ring: Copy + Send + Sync + 'static {
    fn zero() -> Self;
    fn one() -> Self;
    /// `acc + x·y` (wrapping for integers).
    fn mac(acc: Self, x: Self, y: Self) -> Self;
    /// `C ← A·B` through [`Num::gemm`]; `false` (nothing written) without a kernel.
    #[allow(clippy::type_complexity)]
    fn gemm(
        _dims: (usize, usize, usize),
        _a: (&[Self], i64, i64, i64),
        _b: (&[Self], i64, i64, i64),
        _c: (&mut [Self], i64, i64, i64),
    ) -> bool {
        false
    }
    /// Whether [`gemm`](Ring::gemm) has a kernel.
    const GEMM: bool = false;
}

impl<T: Num> Ring for T {
    fn zero() -> Self {
        <T as crate::dtype::Element>::zero()
    }
    fn one() -> Self {
        <T as Num>::one()
    }
    fn mac(acc: Self, x: Self, y: Self) -> Self {
        acc + x * y
    }
    const GEMM: bool = <T as Num>::GEMM;
    fn gemm(
        dims: (usize, usize, usize),
        a: (&[Self], i64, i64, i64),
        b: (&[Self], i64, i64, i64),
        c: (&mut [Self], i64, i64, i64),
    ) -> bool {
        <T as Num>::gemm(dims, a, b, c)
    }
}

/// The integer types through a newtype-free impl per type (they are not [`Num`]).
macro_rules! ring_int {
    ($($t:ty),*) => {$(
        impl Ring for $t {
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            fn mac(acc: Self, x: Self, y: Self) -> Self {
                Int::wadd(acc, Int::wmul(x, y))
            }
        }
    )*};
}
ring_int!(i8, i32, i64, u8);

/// One operand as the kernel reads it: its elements and the offset of its first element.
pub(crate) type Src<'a, T> = (&'a [T], i64);

/// The contraction of `a` and `b` over `lines` into a new vector of `len` elements (the
/// output's size; every output line's stride `so` addresses it), zeros where no line reaches.
pub(crate) fn contract<T: Ring>(
    op: &'static str,
    lines: &[Line],
    a: Src<'_, T>,
    b: Src<'_, T>,
    len: usize,
) -> Result<Vec<T>> {
    let mut c = crate::budget::filled_vec(op, T::zero(), len)?;
    // An empty line: no output element, or an empty sum (zeros).
    if lines.iter().any(|l| l.extent <= 0) {
        return Ok(c);
    }
    let mut batch = Vec::new();
    let (mut m, mut n, mut k) = (Vec::new(), Vec::new(), Vec::new());
    for &l in lines.iter().filter(|l| l.extent > 1) {
        match (l.so != 0, l.sa != 0, l.sb != 0) {
            (false, _, _) => k.push(l),
            (true, true, false) => m.push(l),
            (true, false, true) => n.push(l),
            (true, _, _) => batch.push(l),
        }
    }
    let (m, n, k) = (fold(m), fold(n), fold(k));
    if stage::gemm(op, (&m, &n, &k), &batch, a, b, &mut c)? {
        return Ok(c);
    }
    // The plain loop: offset tables of each class, the contracted index innermost-but-one so that the
    // inner loop runs along the left-free offsets.
    let table = |v: &[Line]| -> Result<Vec<(i64, i64, i64)>> {
        // A broadcast (stride-0) operand may name more offsets than memory holds: reserved
        // fallibly (TooLarge), never an abort.
        let len = (v.iter()).try_fold(1usize, |n, l| n.checked_mul(l.extent as usize));
        let mut t = crate::budget::reserved_vec(op, len.unwrap_or(usize::MAX))?;
        t.push((0, 0, 0));
        for l in v {
            let n = t.len();
            for i in 1..l.extent {
                for j in 0..n {
                    let (x, y, z) = t[j];
                    t.push((x + i * l.sa, y + i * l.sb, z + i * l.so));
                }
            }
        }
        Ok(t)
    };
    let (tm, tn, tk) = (table(&m)?, table(&n)?, table(&k)?);
    odometer(&batch, |da, db, dc| {
        for &(_, nb, no) in &tn {
            for &(ka, kb, _) in &tk {
                let y = b.0[(b.1 + db + nb + kb) as usize];
                for &(ma, _, mo) in &tm {
                    let at = (dc + mo + no) as usize;
                    c[at] = T::mac(c[at], a.0[(a.1 + da + ma + ka) as usize], y);
                }
            }
        }
    });
    Ok(c)
}

/// Folds a class: lines ordered by their smallest non-zero stride, then merged where the
/// next line steps regularly after the previous one on every side (`s' = s·e`).
fn fold(mut v: Vec<Line>) -> Vec<Line> {
    let key = |l: &Line| {
        [l.sa, l.sb, l.so]
            .into_iter()
            .filter(|&s| s != 0)
            .map(i64::unsigned_abs)
            .min()
            .unwrap_or(0)
    };
    v.sort_by_key(key);
    let mut out: Vec<Line> = Vec::with_capacity(v.len());
    for l in v {
        if let Some(p) = out.last_mut()
            && [(p.sa, l.sa), (p.sb, l.sb), (p.so, l.so)]
                .iter()
                .all(|&(s, t)| s.checked_mul(p.extent) == Some(t))
        {
            p.extent *= l.extent;
            continue;
        }
        out.push(l);
    }
    out
}

/// Calls `f(da, db, dc)` for every index of the batch lines (offsets of `a`, `b`, output),
/// first line fastest: the kernels' walk over outer leaves ([`outer`]), the output as its
/// destination.
fn odometer(lines: &[Line], mut f: impl FnMut(i64, i64, i64)) {
    let leaf = |l: &Line| Mode {
        e: l.extent,
        d: l.so,
        s: [l.sa, l.sb],
    };
    let modes: Modes<2> = lines.iter().map(leaf).collect();
    outer(&modes, 0, [0, 0], |dc, [da, db]| f(da, db, dc));
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    fn naive(lines: &[Line], a: &[i64], b: &[i64], len: usize) -> Vec<i64> {
        naive_at(lines, (a, 0), (b, 0), (len, 0))
    }

    /// The definition: every index of the lines adds `a·b` at its output position.
    fn naive_at(lines: &[Line], a: Src<i64>, b: Src<i64>, (len, oc): (usize, i64)) -> Vec<i64> {
        let (a, oa, b, ob) = (a.0, a.1, b.0, b.1);
        let mut c = vec![0i64; len];
        let total: i64 = lines.iter().map(|l| l.extent).product();
        for mut i in 0..total {
            let (mut x, mut y, mut z) = (oa, ob, oc);
            for l in lines {
                let q = i % l.extent;
                i /= l.extent;
                x += q * l.sa;
                y += q * l.sb;
                z += q * l.so;
            }
            c[z as usize] += a[x as usize] * b[y as usize];
        }
        c
    }

    #[test]
    fn the_kernel_sums_over_contracted_lines_and_keeps_the_rest() {
        // (b=2, i=3, k=4) · (b, k, j=2) → (b, i, j), a column-major, b with odd strides.
        let l = |extent, sa, sb, so| Line { extent, sa, sb, so };
        let lines = [l(2, 12, 1, 6), l(3, 1, 0, 2), l(4, 3, 2, 0), l(2, 0, 8, 1)];
        let a: Vec<i64> = (0..24).collect();
        let b: Vec<i64> = (0..16).map(|x| x * 3 - 7).collect();
        let want = naive(&lines, &a, &b, 12);
        let got = contract::<i64>("t", &lines, (&a, 0), (&b, 0), 12).unwrap();
        assert_eq!(got, want);
        let af: Vec<f64> = a.iter().map(|&x| x as f64).collect();
        let bf: Vec<f64> = b.iter().map(|&x| x as f64).collect();
        let got = contract::<f64>("t", &lines, (&af, 0), (&bf, 0), 12).unwrap();
        assert_eq!(got, want.iter().map(|&x| x as f64).collect::<Vec<_>>());
    }

    #[test]
    fn fold_merges_lines_that_step_regularly_on_every_side() {
        let l = |extent, sa, sb, so| Line { extent, sa, sb, so };
        assert_eq!(fold(vec![l(3, 4, 0, 12), l(4, 1, 0, 3)]), [l(12, 1, 0, 3)]);
        assert_eq!(fold(vec![l(3, 4, 0, 1), l(4, 1, 0, 3)]).len(), 2);
    }

    /// The strides of the lines that vary on one side: compact in the order of `keys`
    /// (ties by position), negated where `flips` says; and the offset of the first element.
    fn placed(extents: &[i64], on: &[bool], keys: &[u8], flips: &[bool]) -> (Vec<i64>, i64) {
        let mut order: Vec<usize> = (0..extents.len()).filter(|&i| on[i]).collect();
        order.sort_by_key(|&i| keys[i]);
        let (mut strides, mut offset, mut at) = (vec![0; extents.len()], 0, 1);
        for i in order {
            strides[i] = if flips[i] { -at } else { at };
            if flips[i] {
                offset += (extents[i] - 1).max(0) * at;
            }
            at *= extents[i];
        }
        (strides, offset)
    }

    /// One generated line: extent, role, a sort key per side, a reversal flag for `a`, `b`.
    type Gen = (i64, u8, (u8, u8, u8), (bool, bool));

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any classes of lines (batch, left-free, right-free, contracted, one operand's
        /// summed lines, broadcast result lines), each side laid out compactly in any order
        /// with reversed lines: the gemm path (f64, staged where a class does not fold) and
        /// the loop (i64) both give the definition's sums, and empty lines give zeros.
        #[test]
        fn the_gemm_path_and_the_loop_equal_the_definition_for_any_strides(
            spec in prop::collection::vec((0i64..=4, 0u8..7, (0u8..8, 0u8..8, 0u8..8), (any::<bool>(), any::<bool>())), 0..=6)
        ) {
            let extents: Vec<i64> = spec.iter().map(|s| s.0).collect();
            // Which sides each role varies on: (a, b, output).
            let sides: Vec<(bool, bool, bool)> = spec.iter().map(|s| match s.1 {
                0 => (true, true, true),
                1 => (true, false, true),
                2 => (false, true, true),
                3 => (true, true, false),
                4 => (true, false, false),
                5 => (false, true, false),
                _ => (false, false, true),
            }).collect();
            let col = |f: fn(&Gen) -> u8| spec.iter().map(f).collect::<Vec<u8>>();
            let flag = |f: fn(&Gen) -> bool| spec.iter().map(f).collect::<Vec<bool>>();
            let on = |f: fn(&(bool, bool, bool)) -> bool| sides.iter().map(f).collect::<Vec<bool>>();
            let (sa, oa) = placed(&extents, &on(|s| s.0), &col(|s| s.2.0), &flag(|s| s.3.0));
            let (sb, ob) = placed(&extents, &on(|s| s.1), &col(|s| s.2.1), &flag(|s| s.3.1));
            // The output starts at 0 (the kernel's contract): no reversed output line.
            let (so, oc) = placed(&extents, &on(|s| s.2), &col(|s| s.2.2), &vec![false; extents.len()]);
            let size = |on: Vec<bool>| -> usize {
                extents.iter().zip(on).filter(|(_, o)| *o).map(|(&e, _)| e as usize).product()
            };
            let (na, nb, len) = (size(on(|s| s.0)), size(on(|s| s.1)), size(on(|s| s.2)));
            let lines: Vec<Line> = (0..extents.len())
                .map(|i| Line { extent: extents[i], sa: sa[i], sb: sb[i], so: so[i] })
                .collect();
            let a: Vec<i64> = (0..na as i64).map(|x| x % 7 - 3).collect();
            let b: Vec<i64> = (0..nb as i64).map(|x| x % 5 * 2 - 4).collect();
            let want = naive_at(&lines, (&a, oa), (&b, ob), (len, oc));
            let looped = contract::<i64>("t", &lines, (&a, oa), (&b, ob), len).unwrap();
            prop_assert_eq!(&looped, &want);
            let af: Vec<f64> = a.iter().map(|&x| x as f64).collect();
            let bf: Vec<f64> = b.iter().map(|&x| x as f64).collect();
            let gemm = contract::<f64>("t", &lines, (&af, oa), (&bf, ob), len).unwrap();
            prop_assert_eq!(gemm, want.iter().map(|&x| x as f64).collect::<Vec<_>>());
        }
    }
}
