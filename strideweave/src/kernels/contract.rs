//! The batched-contraction kernel: `c[Σ i·so] = Σ a[oa + Σ i·sa] · b[ob + Σ i·sb]` over an
//! index space of [`Line`]s, each line an extent with one stride per operand and one in the
//! output (0 where that side does not vary along it; 0 in the output for a summed line).
//!
//! The lines fall into four classes by their strides: batch (output and both operands),
//! left-free (output and `a`), right-free (output and `b`) and contracted (not in the
//! output). Each class is folded into as few lines as the strides allow (extent-1 lines
//! dropped, lines that step regularly on every side merged); when left-free, right-free and
//! contracted each fold to one line and the type has a gemm kernel, `matrixmultiply` runs
//! once per batch index with the operands' own strides (nothing is copied). Otherwise, and
//! for integer, complex and half types, a plain loop over offset tables does the same sum
//! (integers wrap).

use crate::error::Result;
use crate::kernels::int::Int;
use crate::kernels::num::Num;

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
pub(crate) trait Ring: Copy {
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
    if T::GEMM && m.len() <= 1 && n.len() <= 1 && k.len() <= 1 {
        let one = |v: &[Line]| v.first().copied().unwrap_or(UNIT);
        let (lm, ln, lk) = (one(&m), one(&n), one(&k));
        let dims = (lm.extent as usize, lk.extent as usize, ln.extent as usize);
        let mut ran = true;
        odometer(&batch, |da, db, dc| {
            ran &= T::gemm(
                dims,
                (a.0, a.1 + da, lm.sa, lk.sa),
                (b.0, b.1 + db, lk.sb, ln.sb),
                (&mut c, dc, lm.so, ln.so),
            );
        });
        if ran {
            return Ok(c);
        }
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

/// A line of extent 1 with zero strides: the fold of an empty class.
const UNIT: Line = Line {
    extent: 1,
    sa: 0,
    sb: 0,
    so: 0,
};

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

/// Calls `f(da, db, dc)` for every index of the batch lines (offsets of `a`, `b`, output).
fn odometer(lines: &[Line], mut f: impl FnMut(i64, i64, i64)) {
    let mut idx = vec![0i64; lines.len()];
    let (mut da, mut db, mut dc) = (0i64, 0i64, 0i64);
    loop {
        f(da, db, dc);
        let mut d = 0;
        loop {
            let Some(l) = lines.get(d) else {
                return;
            };
            idx[d] += 1;
            da += l.sa;
            db += l.sb;
            dc += l.so;
            if idx[d] < l.extent {
                break;
            }
            da -= l.sa * l.extent;
            db -= l.sb * l.extent;
            dc -= l.so * l.extent;
            idx[d] = 0;
            d += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(lines: &[Line], a: &[i64], b: &[i64], len: usize) -> Vec<i64> {
        let mut c = vec![0i64; len];
        let total: i64 = lines.iter().map(|l| l.extent).product();
        for mut i in 0..total {
            let (mut x, mut y, mut z) = (0, 0, 0);
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
}
