//! The gemm path of the contraction kernel: each class (left-free `m`, right-free `n`,
//! contracted `k`) becomes one gemm dimension on every side that reads it, and a side
//! whose lines do not step regularly in any order is staged — copied per batch index
//! through the copy engine into a compact buffer (`a` as `m k`, `b` as `k n`; the output
//! computed as `m n` and copied out) — so the gemm kernel runs once per batch index either
//! way. The line order of each class is chosen among the orders of its sides' strides to
//! stage the fewest elements; a class that folds everywhere stages nothing.

use super::{Line, Ring, Src, odometer};
use crate::error::Result;
use crate::kernels::copy::copy;

/// One side of a line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    A,
    B,
    Out,
}

fn stride(l: &Line, side: Side) -> i64 {
    match side {
        Side::A => l.sa,
        Side::B => l.sb,
        Side::Out => l.so,
    }
}

/// The stride of `lines` read as one dimension on `side` (the first line's; 0 for no
/// line), or `None` when some line does not step on from the previous one (`s' = s·e`).
fn merged(lines: &[Line], side: Side) -> Option<i64> {
    let regular = lines
        .windows(2)
        .all(|w| stride(&w[0], side).checked_mul(w[0].extent) == Some(stride(&w[1], side)));
    regular.then(|| lines.first().map_or(0, |l| stride(l, side)))
}

/// The product of the lines' extents (saturating: a staging size is then refused by the
/// fallible allocation).
fn size(lines: &[Line]) -> usize {
    (lines.iter()).fold(1usize, |n, l| n.saturating_mul(l.extent as usize))
}

/// `lines` ordered by the magnitude of their strides on `side` (ties keep their order).
fn ordered(lines: &[Line], side: Side) -> Vec<Line> {
    let mut v = lines.to_vec();
    v.sort_by_key(|l| stride(l, side).unsigned_abs());
    v
}

/// One gemm operand: read in place (`stage: None`) at its own strides, or staged into a
/// compact buffer whose lines (the first class fastest) and source strides are kept.
struct Operand<T> {
    /// Row and column strides of the operand read in place.
    rs: i64,
    cs: i64,
    /// The staged lines: extents, strides in the original, compact strides in `buf`.
    stage: Option<(Vec<i64>, Vec<i64>, Vec<i64>)>,
    buf: Vec<T>,
}

impl<T: Ring> Operand<T> {
    /// The operand whose rows run along `rows` and columns along `cols`, read on `side`:
    /// in place when both fold there, else staged (a buffer of `rows·cols` elements).
    fn new(op: &'static str, rows: &[Line], cols: &[Line], side: Side) -> Result<Self> {
        if let (Some(rs), Some(cs)) = (merged(rows, side), merged(cols, side)) {
            return Ok(Operand {
                rs,
                cs,
                stage: None,
                buf: Vec::new(),
            });
        }
        let lines = rows.iter().chain(cols);
        let extents: Vec<i64> = lines.clone().map(|l| l.extent).collect();
        let strides: Vec<i64> = lines.map(|l| stride(l, side)).collect();
        let mut compact = Vec::with_capacity(extents.len());
        let mut at = 1i64;
        for e in &extents {
            compact.push(at);
            at = at.saturating_mul(*e);
        }
        let buf = crate::budget::filled_vec(op, T::zero(), size(rows).saturating_mul(size(cols)))?;
        Ok(Operand {
            rs: 1,
            cs: size(rows) as i64,
            stage: Some((extents, strides, compact)),
            buf,
        })
    }
}

impl<T: Ring> Operand<T> {
    /// The offset the gemm reads this operand at, `src` copied into the buffer first when
    /// it is staged.
    fn lend(&mut self, src: Src<'_, T>) -> i64 {
        match &self.stage {
            Some((e, s, d)) => {
                copy(e, (src.0, src.1, s), (&mut self.buf, 0, d));
                0
            }
            None => src.1,
        }
    }
}

/// The class orders tried: each class by the strides of either side that reads it.
const ORDERS: [(Side, Side, Side); 8] = {
    use Side::{A, B, Out};
    [
        (Out, Out, A),
        (Out, Out, B),
        (Out, B, A),
        (Out, B, B),
        (A, Out, A),
        (A, Out, B),
        (A, B, A),
        (A, B, B),
    ]
};

/// `c[dc + …] = Σ a·b` by the gemm kernel once per batch index, staging the sides whose
/// classes do not fold; `Ok(false)` (nothing written) when `T` has no gemm kernel.
#[allow(clippy::too_many_arguments)]
pub(super) fn gemm<T: Ring>(
    op: &'static str,
    (m, n, k): (&[Line], &[Line], &[Line]),
    batch: &[Line],
    a: Src<'_, T>,
    b: Src<'_, T>,
    c: &mut [T],
) -> Result<bool> {
    if !T::GEMM {
        return Ok(false);
    }
    let (sm, sn, sk) = (size(m), size(n), size(k));
    // The cheapest order: the fewest elements staged per batch index.
    let cost = |&(om, on, ok): &(Side, Side, Side)| {
        let (m, n, k) = (ordered(m, om), ordered(n, on), ordered(k, ok));
        let folds = |x: &[Line], y: &[Line], s| merged(x, s).is_some() && merged(y, s).is_some();
        [
            (folds(&m, &k, Side::A), sm.saturating_mul(sk)),
            (folds(&k, &n, Side::B), sk.saturating_mul(sn)),
            (folds(&m, &n, Side::Out), sm.saturating_mul(sn)),
        ]
        .iter()
        .filter(|(fold, _)| !fold)
        .fold(0usize, |t, (_, s)| t.saturating_add(*s))
    };
    // unreachable from user input: ORDERS is a non-empty constant.
    let (om, on, ok) = *ORDERS.iter().min_by_key(|o| cost(o)).expect("eight orders");
    let (m, n, k) = (ordered(m, om), ordered(n, on), ordered(k, ok));
    let mut sa = Operand::<T>::new(op, &m, &k, Side::A)?;
    let mut sb = Operand::<T>::new(op, &k, &n, Side::B)?;
    let mut so = Operand::<T>::new(op, &m, &n, Side::Out)?;
    #[cfg(feature = "parallel")]
    if batches(op, (&m, &n, &k), batch, (a, b), c, &so)? {
        return Ok(true);
    }
    let dims = (sm, sk, sn);
    let mut ran = true;
    odometer(batch, |da, db, dc| {
        let (oa, ob) = (sa.lend((a.0, a.1 + da)), sb.lend((b.0, b.1 + db)));
        let pa = if sa.stage.is_some() { &sa.buf } else { a.0 };
        let pb = if sb.stage.is_some() { &sb.buf } else { b.0 };
        let (pc, oc) = match so.stage {
            Some(_) => (&mut so.buf[..], 0),
            None => (&mut c[..], dc),
        };
        ran &= T::gemm(
            dims,
            (pa, oa, sa.rs, sa.cs),
            (pb, ob, sb.rs, sb.cs),
            (pc, oc, so.rs, so.cs),
        );
        if let Some((e, s, d)) = &so.stage {
            copy(e, (&so.buf, 0, d), (c, dc, s));
        }
    });
    Ok(ran)
}

/// Many small products split by batch index across rayon's pool: when the batch holds at
/// least [`MIN_PARALLEL_WORK`] multiply-adds but one product fewer (so each product runs on
/// one thread either way), each task computes its batch indices' products (staging its own
/// operands) into a buffer of its own, then the buffers are copied into `c` in turn. Each
/// product is the same kernel call as on one thread, with the output at strides of the same
/// orientation, so the sums are the same bits. `Ok(false)`: not taken (the serial loop runs).
/// Only products the kernel runs by its general packed path are split (`m, n ≥ 2`, `k ≥ 3`,
/// `m·n > 256`): its small-size paths choose by the output's strides.
#[cfg(feature = "parallel")]
fn batches<T: Ring>(
    op: &'static str,
    (m, n, k): (&[Line], &[Line], &[Line]),
    batch: &[Line],
    (a, b): (Src<'_, T>, Src<'_, T>),
    c: &mut [T],
    so: &Operand<T>,
) -> Result<bool> {
    use crate::kernels::gemm::MIN_PARALLEL_WORK;
    use rayon::prelude::*;
    let (sm, sn, sk, count) = (size(m), size(n), size(k), size(batch));
    let one = sm.saturating_mul(sn).saturating_mul(sk);
    let threads = rayon::current_num_threads();
    if threads < 2
        || count < 2
        || one >= MIN_PARALLEL_WORK
        || one.saturating_mul(count) < MIN_PARALLEL_WORK
        || sm < 2
        || sn < 2
        || sk < 3
        || sm * sn <= 256
    {
        return Ok(false);
    }
    let mut offsets = crate::budget::reserved_vec(op, count)?;
    odometer(batch, |da, db, dc| offsets.push((da, db, dc)));
    // The buffer's strides: as the serial call's output (staged: compact; in place: the
    // same orientation, which decides how the kernel lays the product out).
    let (rs, cs) = match so.stage {
        None if so.cs.unsigned_abs() < so.rs.unsigned_abs() => (sn as i64, 1),
        _ => (1, sm as i64),
    };
    let mn = sm * sn;
    let chunk = count.div_ceil(threads * 4);
    let parts: Vec<Vec<T>> = (offsets.par_chunks(chunk))
        .map(|part| -> Result<Vec<T>> {
            let mut sa = Operand::<T>::new(op, m, k, Side::A)?;
            let mut sb = Operand::<T>::new(op, k, n, Side::B)?;
            let mut out = crate::budget::filled_vec(op, T::zero(), part.len() * mn)?;
            for (q, &(da, db, _)) in part.iter().enumerate() {
                let (oa, ob) = (sa.lend((a.0, a.1 + da)), sb.lend((b.0, b.1 + db)));
                let pa = if sa.stage.is_some() { &sa.buf } else { a.0 };
                let pb = if sb.stage.is_some() { &sb.buf } else { b.0 };
                let at = (q * mn) as i64;
                T::gemm(
                    (sm, sk, sn),
                    (pa, oa, sa.rs, sa.cs),
                    (pb, ob, sb.rs, sb.cs),
                    (&mut out, at, rs, cs),
                );
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;
    // Each product's lines: extents, strides in the buffer and in `c`.
    let (mut e, mut d, mut s) = (Vec::new(), Vec::new(), Vec::new());
    for (class, unit) in [(m, rs), (n, cs)] {
        let mut at = unit;
        for l in class {
            e.push(l.extent);
            d.push(at);
            s.push(l.so);
            at *= l.extent;
        }
    }
    for (part, buf) in offsets.chunks(chunk).zip(&parts) {
        for (q, &(_, _, dc)) in part.iter().enumerate() {
            copy(&e, (buf, (q * mn) as i64, &d), (c, dc, &s));
        }
    }
    Ok(true)
}

#[cfg(all(test, feature = "gemm"))]
mod tests {
    use super::*;

    #[test]
    fn a_class_that_does_not_fold_is_staged_and_gives_the_same_sums() {
        // c[i1 + 2j + 4·i2] = Σ_k a[i1 + 2·i2 + 4k] · b[j + 2k]: the left-free lines i1, i2
        // are not neighbours in the output (j lies between), so the output is staged; a and
        // b fold and are read in place.
        let l = |extent, sa, sb, so| Line { extent, sa, sb, so };
        let (m, n, k) = (
            [l(2, 1, 0, 1), l(2, 2, 0, 4)],
            [l(2, 0, 1, 2)],
            [l(3, 4, 2, 0)],
        );
        assert!(
            Operand::<f64>::new("t", &m, &n, Side::Out)
                .unwrap()
                .stage
                .is_some()
        );
        assert!(
            Operand::<f64>::new("t", &m, &k, Side::A)
                .unwrap()
                .stage
                .is_none()
        );
        assert!(
            Operand::<f64>::new("t", &k, &n, Side::B)
                .unwrap()
                .stage
                .is_none()
        );
        let a: Vec<f64> = (0..12).map(f64::from).collect();
        let b: Vec<f64> = (0..6).map(|x| f64::from(x) - 2.0).collect();
        let mut c = vec![0.0; 8];
        assert!(gemm("t", (&m, &n, &k), &[], (&a, 0), (&b, 0), &mut c).unwrap());
        let mut want = vec![0.0; 8];
        for (i1, i2, j, k) in (0..8 * 3).map(|x| (x % 2, x / 2 % 2, x / 4 % 2, x / 8)) {
            want[i1 + 2 * j + 4 * i2] += a[i1 + 2 * i2 + 4 * k] * b[j + 2 * k];
        }
        assert_eq!(c, want);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn many_small_products_split_by_batch_give_the_bits_of_one_thread() {
        // 180 products of 17×40×18 (12,240 multiply-adds each, 2.2M in all): batch first
        // in the output, then between its rows and columns (both written in place).
        let l = |extent, sa, sb, so| Line { extent, sa, sb, so };
        let (bs, mm, kk, nn) = (180i64, 17i64, 40i64, 18i64);
        let val = |i: i64, s: f64| ((i as f64 * s).fract() - 0.5) * 3.0;
        let a: Vec<f64> = (0..bs * mm * kk).map(|i| val(i, 0.618)).collect();
        let b: Vec<f64> = (0..bs * kk * nn).map(|i| val(i, 0.414)).collect();
        let cases = [
            (
                [l(mm, bs, 0, bs)],
                [l(nn, 0, bs * kk, bs * mm)],
                [l(bs, 1, 1, 1)],
                (bs * mm * nn) as usize,
            ),
            (
                [l(mm, 1, 0, 1)],
                [l(nn, 0, kk, mm * bs)],
                [l(bs, mm * kk, kk * nn, mm)],
                (bs * mm * nn) as usize,
            ),
        ];
        for (m, n, batch, len) in cases {
            let k = [l(
                kk,
                mm * if batch[0].sa == 1 { bs } else { 1 },
                if batch[0].sa == 1 { bs } else { 1 },
                0,
            )];
            let on = |threads: usize| {
                let mut c = vec![0.0; len];
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let ran =
                    pool.install(|| gemm("t", (&m, &n, &k), &batch, (&a, 0), (&b, 0), &mut c));
                assert!(ran.unwrap());
                c
            };
            let (one, two) = (on(1), on(2));
            assert!(
                one.iter()
                    .zip(&two)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
            );
            // And right: one element against its sum.
            let (q, i, j) = (7i64, 3i64, 5i64);
            let mut want = 0.0;
            for p in 0..kk {
                want += a[(q * batch[0].sa + i * m[0].sa + p * k[0].sa) as usize]
                    * b[(q * batch[0].sb + p * k[0].sb + j * n[0].sb) as usize];
            }
            let got = two[(q * batch[0].so + i * m[0].so + j * n[0].so) as usize];
            assert!((got - want).abs() < 1e-9, "{got} {want}");
        }
    }
}
