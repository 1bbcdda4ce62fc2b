//! One `unsafe` block (docs/unsafe.md): the `gemm` crate's packed kernels (the ones faer
//! and candle use; AVX-512, AVX2+FMA, NEON or scalar, chosen at run time) for f32, f64,
//! c32 and c64, called with signed (and zero) row and column strides straight from the
//! operands' slices, writing straight into the output slice at its own offset and strides
//! (the crate packs what it needs itself, so nothing is copied before or after the call).
//!
//! Threads: with the `parallel` feature, a product of at least [`MIN_PARALLEL_WORK`]
//! multiply-adds runs on rayon's pool (`gemm::Parallelism::Rayon`). The crate cuts the
//! depth `k` into the same blocks whatever the thread count and splits only the output's
//! blocks between threads, so every output element sums the same products in the same
//! order: the result is bit-identical to one thread (tested below).

#[cfg(feature = "gemm")]
use crate::kernels::num::Num;

/// The smallest product (`m·k·n` multiply-adds) run on more than one thread: about 128³.
/// Below it a fork/join and the second packing buffer cost more than the second core saves
/// (2-core figures in docs/performance.md).
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
pub(crate) const MIN_PARALLEL_WORK: usize = 1 << 21;

/// One operand or the output: its slice, the offset of element (0, 0), row and column
/// strides.
#[cfg(feature = "gemm")]
pub(crate) type Mat<S> = (S, i64, i64, i64);

/// `C ← A·B` for f32, f64, c32 and c64 through the `gemm` crate (see [`Num::gemm`]), on
/// rayon's pool when the product is large enough.
#[cfg(feature = "gemm")]
pub(crate) fn gemm<T: Num>(
    dims: (usize, usize, usize),
    a: Mat<&[T]>,
    b: Mat<&[T]>,
    c: Mat<&mut [T]>,
) {
    let (m, k, n) = dims;
    let work = m.saturating_mul(k).saturating_mul(n);
    gemm_on(parallel() && work >= MIN_PARALLEL_WORK, dims, a, b, c);
}

/// Whether rayon's pool has more than one thread (always `false` without `parallel`).
#[cfg(feature = "gemm")]
fn parallel() -> bool {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads() > 1;
    #[cfg(not(feature = "parallel"))]
    false
}

/// [`gemm`] on one thread (`threads == false`) or on rayon's pool.
#[allow(unsafe_code)]
#[cfg(feature = "gemm")]
pub(crate) fn gemm_on<T: Num>(
    threads: bool,
    (m, k, n): (usize, usize, usize),
    (a, oa, rsa, csa): Mat<&[T]>,
    (b, ob, rsb, csb): Mat<&[T]>,
    (c, oc, rsc, csc): Mat<&mut [T]>,
) {
    // unreachable from user input: `Num::gemm` calls this only for the types of `T::GEMM`.
    assert!(T::GEMM, "gemm runs on f32, f64, c32 and c64 only");
    if m == 0 || n == 0 {
        return;
    }
    // Every index the kernel touches, `o + i·rs + j·cs` for i < rows, j < cols, lies inside
    // the slice: check the extreme corners (the index is affine in i and j). An operand
    // with no element (k = 0) is never read.
    let inside = |len: usize, o: i64, rows: usize, cols: usize, rs: i64, cs: i64| {
        if rows == 0 || cols == 0 {
            return true;
        }
        let (r, q) = ((rows as i64 - 1) * rs, (cols as i64 - 1) * cs);
        let lo = o + r.min(0) + q.min(0);
        let hi = o + r.max(0) + q.max(0);
        lo >= 0 && hi < len as i64
    };
    // unreachable from user input: callers pass placements their tensors validated.
    assert!(inside(a.len(), oa, m, k, rsa, csa), "A inside its carrier");
    assert!(inside(b.len(), ob, k, n, rsb, csb), "B inside its carrier");
    assert!(inside(c.len(), oc, m, n, rsc, csc), "C inside its carrier");
    let s = |x: i64| x as isize;
    #[cfg(feature = "parallel")]
    let parallelism = if threads {
        gemm::Parallelism::Rayon(0)
    } else {
        gemm::Parallelism::None
    };
    #[cfg(not(feature = "parallel"))]
    let parallelism = {
        let _ = threads;
        gemm::Parallelism::None
    };
    // SAFETY: the asserts above prove that every element the kernel reads from `a` and `b`
    // and writes in `c` lies inside those slices (for k = 0 nothing of `a`, `b` is read).
    // `c` is exclusively borrowed for the call; callers pass injective strides for `c`, so
    // each element is written by one task (rayon's threads write disjoint output blocks and
    // are joined before `gemm` returns); `a` and `b` are only read (`T: Sync`). The
    // pointers keep the provenance of the whole slices (`wrapping_offset` from `as_ptr`),
    // so negative strides stay in bounds. `read_dst = false`: `c` is not read, only
    // written (`dst = 0·dst + 1·A·B`). `T` is one of the crate's types (`T::GEMM`, asserted
    // above), so its dispatch by `TypeId` does not panic.
    unsafe {
        gemm::gemm::<T>(
            m,
            n,
            k,
            c.as_mut_ptr().wrapping_offset(s(oc)),
            s(csc),
            s(rsc),
            false,
            a.as_ptr().wrapping_offset(s(oa)),
            s(csa),
            s(rsa),
            b.as_ptr().wrapping_offset(s(ob)),
            s(csb),
            s(rsb),
            T::zero(),
            T::one(),
            false,
            false,
            false,
            parallelism,
        );
    }
}

#[cfg(all(test, feature = "gemm"))]
mod tests {
    use super::*;
    use crate::dtype::{Complex32, Complex64};

    /// The definition, in f64 (exact for the small integers the tests multiply).
    #[allow(clippy::type_complexity)]
    fn naive(
        (m, k, n): (usize, usize, usize),
        (a, oa, rsa, csa): Mat<&[f64]>,
        (b, ob, rsb, csb): Mat<&[f64]>,
    ) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m as i64 {
            for j in 0..n as i64 {
                let mut s = 0.0;
                for p in 0..k as i64 {
                    s +=
                        a[(oa + i * rsa + p * csa) as usize] * b[(ob + p * rsb + j * csb) as usize];
                }
                c[(i + j * m as i64) as usize] = s;
            }
        }
        c
    }

    /// A `rows × cols` operand over `len` values placed by `how`: 0 column-major, 1
    /// row-major, 2 every other row and column of a twice larger row-major matrix, 3 both
    /// strides negated (reversed rows and columns), 4 a broadcast row (row stride 0).
    fn placement(rows: usize, cols: usize, how: u8) -> (usize, i64, i64, i64) {
        let (r, c) = (rows as i64, cols as i64);
        match how {
            0 => (rows * cols, 0, 1, r),
            1 => (rows * cols, 0, c, 1),
            2 => (4 * rows * cols, 0, 4 * c, 2),
            3 => (rows * cols, r * c - 1, -c, -1),
            _ => (cols, 0, 0, 1),
        }
    }

    #[test]
    fn gemm_equals_the_definition_for_any_operand_layout_and_odd_sizes() {
        for &(m, k, n) in &[(1, 1, 1), (3, 5, 7), (17, 1, 9), (33, 65, 31), (70, 3, 1)] {
            for (ha, hb, hc) in (0..5u8).flat_map(|x| (0..5u8).map(move |y| (x, y, y % 4))) {
                let (la, oa, rsa, csa) = placement(m, k, ha);
                let (lb, ob, rsb, csb) = placement(k, n, hb);
                let (lc, oc, rsc, csc) = placement(m, n, hc);
                let a: Vec<f64> = (0..la).map(|x| (x % 7) as f64 - 3.0).collect();
                let b: Vec<f64> = (0..lb).map(|x| (x % 5) as f64 * 2.0 - 4.0).collect();
                let want = naive((m, k, n), (&a, oa, rsa, csa), (&b, ob, rsb, csb));
                let mut c = vec![f64::NAN; lc];
                gemm(
                    (m, k, n),
                    (&a, oa, rsa, csa),
                    (&b, ob, rsb, csb),
                    (&mut c, oc, rsc, csc),
                );
                for i in 0..m as i64 {
                    for j in 0..n as i64 {
                        let got = c[(oc + i * rsc + j * csc) as usize];
                        let at = (i + j * m as i64) as usize;
                        assert_eq!(got, want[at], "{m}×{k}×{n} {ha}{hb}{hc} ({i},{j})");
                    }
                }
                // The same product in f32 (still exact), and as complex numbers whose
                // imaginary parts are zero (`(x+0i)(y+0i) = xy`).
                let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
                let mut c32 = vec![f32::NAN; lc];
                gemm(
                    (m, k, n),
                    (&f(&a), oa, rsa, csa),
                    (&f(&b), ob, rsb, csb),
                    (&mut c32, oc, rsc, csc),
                );
                let z = |v: &[f64]| {
                    v.iter()
                        .map(|&x| Complex64::new(0.0, x))
                        .collect::<Vec<_>>()
                };
                let mut cz = vec![Complex64::new(f64::NAN, 0.0); lc];
                // (0 + xi)(0 + yi) = −xy: the imaginary parts meet.
                gemm(
                    (m, k, n),
                    (&z(&a), oa, rsa, csa),
                    (&z(&b), ob, rsb, csb),
                    (&mut cz, oc, rsc, csc),
                );
                for i in 0..m as i64 {
                    for j in 0..n as i64 {
                        let (at, w) = (
                            (oc + i * rsc + j * csc) as usize,
                            want[(i + j * m as i64) as usize],
                        );
                        assert_eq!(c32[at], w as f32);
                        assert_eq!(cz[at], Complex64::new(-w, 0.0));
                    }
                }
            }
        }
    }

    #[test]
    fn gemm_of_complex_values_multiplies_real_and_imaginary_parts() {
        // (1+2i)·(3−i) + (−2+i)·(i) = (5+5i) + (−1−2i) = 4+3i
        let a = [Complex32::new(1.0, 2.0), Complex32::new(-2.0, 1.0)];
        let b = [Complex32::new(3.0, -1.0), Complex32::new(0.0, 1.0)];
        let mut c = [Complex32::new(9.0, 9.0)];
        gemm((1, 2, 1), (&a, 0, 2, 1), (&b, 0, 1, 1), (&mut c, 0, 1, 1));
        assert_eq!(c, [Complex32::new(4.0, 3.0)]);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn gemm_on_two_threads_is_bit_identical_to_one_thread() {
        // Values that round: only the same sums in the same order agree in every bit.
        let val = |i: usize| ((i as f64 * 0.618_034).fract() - 0.5) * 3.1;
        // Above the crate's own threshold (m·n·k-block ≥ 48·48·256): one row-major with
        // several k blocks, one strided and reversed.
        for &(m, k, n, ha, hb) in &[(97, 1030, 65, 1, 0), (130, 257, 150, 2, 3)] {
            let (la, oa, rsa, csa) = placement(m, k, ha);
            let (lb, ob, rsb, csb) = placement(k, n, hb);
            let a: Vec<f64> = (0..la).map(val).collect();
            let b: Vec<f64> = (0..lb).map(|i| val(i + 7)).collect();
            let run = |threads: bool| {
                let mut c = vec![0.0; m * n];
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap();
                pool.install(|| {
                    gemm_on(
                        threads,
                        (m, k, n),
                        (&a, oa, rsa, csa),
                        (&b, ob, rsb, csb),
                        (&mut c, 0, 1, m as i64),
                    )
                });
                c
            };
            let (one, two) = (run(false), run(true));
            assert!(
                one.iter()
                    .zip(&two)
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "{m}×{k}×{n}"
            );
            let af: Vec<f32> = a.iter().map(|&x| x as f32).collect();
            let bf: Vec<f32> = b.iter().map(|&x| x as f32).collect();
            let run32 = |threads: bool| {
                let mut c = vec![0f32; m * n];
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap();
                pool.install(|| {
                    gemm_on(
                        threads,
                        (m, k, n),
                        (&af, oa, rsa, csa),
                        (&bf, ob, rsb, csb),
                        (&mut c, 0, 1, m as i64),
                    )
                });
                c
            };
            let (one, two) = (run32(false), run32(true));
            assert!(
                one.iter()
                    .zip(&two)
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "f32 {m}×{k}×{n}"
            );
            // And the sums are right (not merely equal): within rounding of the definition.
            let want = naive((m, k, n), (&a, oa, rsa, csa), (&b, ob, rsb, csb));
            let worst = run(true)
                .iter()
                .zip(&want)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max);
            assert!(worst < 1e-9, "{worst}");
        }
    }
}
