//! The scatter-add kernel: adds the elements of one strided placement into another of the
//! same shape (`dst[do + D(i)] += src[so + S(i)]`), straight into the destination — the
//! adjoint of a strided read, which the gradient of a view writes.
//!
//! Several coordinates may reach one destination index (a stride-0 leaf of `D`: the
//! gradient of a broadcast sums over its aliases). Their contributions are added in the
//! order of their ordinals, first leaf fastest, so that the sums are those of a plain
//! loop over `i`: the plan ([`super::plan`] in [`Order::Aliases`]) keeps the leaves with
//! destination stride 0 in their relative order outside the others, which are ordered by
//! destination stride (turned to step forward) with the smallest innermost, where the loop
//! is a unit-stride run the compiler vectorises.

use std::ops::AddAssign;

use smallvec::SmallVec;

use crate::kernels::copy::copy;
use crate::kernels::num::Num;
use crate::kernels::plan::{Mode, Order, outer, plan};
use crate::kernels::strided::walk;
use crate::layout::Layout;

/// Writes `src` (read at `so` through the strides `ss`, one per leaf of `dst`'s layout)
/// through the placement `dst` (a slice, an offset and a layout). With `fresh` (the
/// destination holds zeros wherever the placement reaches) an injective placement is a
/// copy (the copy engine); otherwise the values are added, each destination index summing
/// its contributions in ordinal order after what it held.
pub(crate) fn place<T: Copy + Send + Sync + AddAssign + 'static>(
    (src, so, ss): (&[T], i64, &[i64]),
    (dst, d_o, l): (&mut [T], i64, &Layout),
    fresh: bool,
) {
    let (extents, ds) = (l.shape().leaves(), l.stride().leaves());
    if fresh && l.is_injective() {
        copy(extents, (src, so, ss), (dst, d_o, ds));
    } else {
        let free = l.filter().is_injective();
        scatter_add(extents, (src, so, ss), (dst, d_o, ds), free);
    }
}

/// Writes (`fresh`, as [`place`]) or adds the one value `c` at every coordinate of the
/// placement `l` (a splat cotangent through a view). The stride-0 leaves of `l` send `c` to
/// one index as often as their extents multiply, `n`: that index receives `c · n` once
/// ([`Num::times`], one rounding, not `n` additions), so the time is that of `l` without
/// its broadcast leaves.
pub(crate) fn place_splat<T: Num + Send + Sync>(
    c: T,
    (dst, d_o, l): (&mut [T], i64, &Layout),
    fresh: bool,
) {
    let f = l.filter();
    let n = l.size() / f.size();
    let v = if n > 1 { c.times(n as f64) } else { c };
    let zeros: SmallVec<[i64; 8]> = smallvec::smallvec![0; f.shape().leaves().len()];
    place((&[v], 0, &zeros), (dst, d_o, &f), fresh);
}

/// Adds `src[so + S(i)]` into `dst[do + D(i)]` for every `i` of the leaves `extents`,
/// where `S` and `D` have the strides `ss` and `ds` (depth-first leaves of one shape).
/// Callers guarantee that every index is inside its slice (validated placements).
///
/// `free`: the destination's leaves of non-zero stride reach distinct indices (only
/// stride-0 leaves alias). Then contributions to one index are added in ordinal order
/// whatever the loop order; otherwise the kernel walks `i` in ordinal order.
pub(crate) fn scatter_add<T: Copy + AddAssign>(
    extents: &[i64],
    (src, so, ss): (&[T], i64, &[i64]),
    (dst, d_o, ds): (&mut [T], i64, &[i64]),
    free: bool,
) {
    if !free {
        walk(extents, (d_o, ds), [(so, ss)], |d, [s]| dst[d] += src[s]);
        return;
    }
    let Some((modes, d_o, [so])) = plan(extents, (d_o, ds), [(so, ss)], Order::Aliases) else {
        return;
    };
    let Some((&inner, rest)) = modes.split_first() else {
        dst[d_o as usize] += src[so as usize];
        return;
    };
    outer(rest, d_o, [so], |d, [s]| {
        run(src, s as usize, dst, d as usize, inner);
    });
}

/// One run of the innermost leaf `m` from source offset `s` into destination offset `d`.
#[inline]
fn run<T: Copy + AddAssign>(src: &[T], s: usize, dst: &mut [T], d: usize, m: Mode<1>) {
    let (e, st) = (m.e as usize, m.s[0]);
    if m.d == 0 {
        // Only stride-0 leaves are left: one index takes every contribution, in order.
        let mut acc = dst[d];
        for k in 0..m.e {
            acc += src[(s as i64 + k * st) as usize];
        }
        dst[d] = acc;
        return;
    }
    if m.d == 1 && st == 1 {
        for (x, &y) in dst[d..d + e].iter_mut().zip(&src[s..s + e]) {
            *x += y;
        }
        return;
    }
    let out = dst[d..].iter_mut().step_by(m.d as usize).take(e);
    match st {
        1 => {
            for (x, &y) in out.zip(&src[s..s + e]) {
                *x += y;
            }
        }
        0 => {
            let y = src[s];
            out.for_each(|x| *x += y);
        }
        st if st > 0 => {
            for (x, &y) in out.zip(src[s..].iter().step_by(st as usize)) {
                *x += y;
            }
        }
        st => {
            let first = s - (e - 1) * st.unsigned_abs() as usize;
            let from = src[first..=s]
                .iter()
                .rev()
                .step_by(st.unsigned_abs() as usize);
            for (x, &y) in out.zip(from) {
                *x += y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dst[d + D(i)] += src[s + S(i)]` in ordinal order, first leaf fastest.
    fn naive(extents: &[i64], ss: &[i64], ds: &[i64], so: i64, d_o: i64, dst: &mut [f32]) {
        let src: Vec<f32> = (0..64).map(|v| 1.0 + v as f32 * 0.37).collect();
        naive_from(&src, extents, (ss, so), (ds, d_o), dst);
    }

    pub(super) fn naive_from<T: Copy + AddAssign>(
        src: &[T],
        extents: &[i64],
        (ss, so): (&[i64], i64),
        (ds, d_o): (&[i64], i64),
        dst: &mut [T],
    ) {
        let n: i64 = extents.iter().product();
        for i in 0..n {
            let (mut r, mut s, mut d) = (i, so, d_o);
            for k in 0..extents.len() {
                let c = r % extents[k];
                r /= extents[k];
                s += c * ss[k];
                d += c * ds[k];
            }
            dst[d as usize] += src[s as usize];
        }
    }

    #[test]
    fn scatter_add_sums_broadcast_aliases_in_ordinal_order_through_turned_leaves() {
        let src: Vec<f32> = (0..64).map(|v| 1.0 + v as f32 * 0.37).collect();
        // (3,2,4):(src 8,1,-2 / dst 0,-5,1) — a broadcast leaf, a backward one, a transposed
        // source.
        let (e, ss, ds) = ([3, 2, 4], [8, 1, -2], [0, -5, 1]);
        let (so, d_o) = (6, 5);
        let mut want = vec![0.5f32; 10];
        naive(&e, &ss, &ds, so, d_o, &mut want);
        let mut got = vec![0.5f32; 10];
        scatter_add(&e, (&src, so, &ss), (&mut got, d_o, &ds), true);
        assert_eq!(got, want);
        let mut ordered = vec![0.5f32; 10];
        scatter_add(&e, (&src, so, &ss), (&mut ordered, d_o, &ds), false);
        assert_eq!(ordered, want);
    }

    #[test]
    fn scatter_add_of_only_stride_zero_leaves_accumulates_into_one_index() {
        let src: Vec<f32> = (0..64).map(|v| 1.0 + v as f32 * 0.37).collect();
        let (e, ss, ds) = ([4, 3], [1, 4], [0, 0]);
        let mut want = vec![0.0f32; 2];
        naive(&e, &ss, &ds, 0, 1, &mut want);
        let mut got = vec![0.0f32; 2];
        scatter_add(&e, (&src, 0, &ss), (&mut got, 1, &ds), true);
        assert_eq!(got, want);
    }
}

/// Random placements: 1–4 leaves of extent 1–4; destination strides from a shuffled compact
/// order with signs and some stride-0 leaves (so only stride 0 aliases), source strides
/// anything signed or zero; both offsets placing the reach at 0.
#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn placement() -> impl Strategy<Value = (Vec<i64>, Vec<i64>, Vec<i64>)> {
        prop::collection::vec((1i64..=4, -6i64..=6, any::<bool>(), any::<bool>()), 1..=4)
            .prop_flat_map(|leaves| {
                let n = leaves.len();
                (
                    Just(leaves),
                    Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
                )
            })
            .prop_map(|(leaves, order)| {
                let extents: Vec<i64> = leaves.iter().map(|l| l.0).collect();
                let mut ds = vec![0i64; extents.len()];
                let mut acc = 1;
                for &k in &order {
                    let (_, _, zero, negative) = leaves[k];
                    ds[k] = match (zero, negative) {
                        (true, _) => 0,
                        (false, true) => -acc,
                        (false, false) => acc,
                    };
                    acc *= extents[k];
                }
                let ss = leaves.iter().map(|l| l.1).collect();
                (extents, ss, ds)
            })
    }

    /// The offset that puts the lowest index reached at 0, and the length reached.
    fn span(extents: &[i64], strides: &[i64]) -> (i64, usize) {
        let lo: i64 = extents
            .iter()
            .zip(strides)
            .map(|(e, s)| (e - 1) * s.min(&0))
            .sum();
        let hi: i64 = extents
            .iter()
            .zip(strides)
            .map(|(e, s)| (e - 1) * s.max(&0))
            .sum();
        (-lo, (hi - lo + 1) as usize)
    }

    proptest! {
        #[test]
        fn scatter_add_equals_the_ordinal_order_loop_bit_for_bit(
            (extents, ss, ds) in placement(),
            free in any::<bool>(),
        ) {
            let (so, n_src) = span(&extents, &ss);
            let (d_o, n_dst) = span(&extents, &ds);
            let src: Vec<f64> = (0..n_src).map(|v| 0.1 * v as f64 - 1.7).collect();
            let start: Vec<f64> = (0..n_dst).map(|v| 0.3 * v as f64).collect();
            let mut want = start.clone();
            tests::naive_from(&src, &extents, (&ss, so), (&ds, d_o), &mut want);
            let mut got = start;
            scatter_add(&extents, (&src, so, &ss), (&mut got, d_o, &ds), free);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&got), bits(&want));
        }
    }
}
