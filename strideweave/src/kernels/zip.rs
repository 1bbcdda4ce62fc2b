//! The elementwise engine: `dst[D(i)] = f(a[A(i)], b[B(i)])` (and `f(a[A(i)])`) for every
//! index `i` of one shape, written straight into the destination slice — no intermediate
//! buffer, no division, no bounds check per element on the fast paths.
//!
//! The destination and the sources are planned jointly ([`super::plan`], as the copy
//! engine's): extent-1 leaves dropped, leaves turned so the destination steps forward,
//! ordered by destination stride, merged where all three step regularly. The innermost leaf
//! then picks the kernel:
//!
//! * unit stride on every side: zipped slices, a loop the compiler vectorises;
//! * a stride-0 source: its one value read once per run (the broadcast path);
//! * a source whose fastest leaf is another one (a transposed operand): 32×32 cache blocks
//!   over the two leaves, so each cache line is used whole on every side;
//! * anything else: a strided loop over iterators.
//!
//! Each destination index is written once, from the same source elements as a naive walk,
//! so results are bit-identical to it whatever the order of the visit.

use std::iter::{RepeatN, Rev, StepBy};
use std::slice::Iter;

use super::plan::{Mode, outer, plan, transposed_partner, without};

/// The side of a tile in the blocked kernel.
const TILE: i64 = 32;

/// A source: the slice, the offset of element 0, the depth-first leaf strides.
pub(crate) type Src<'a, T> = (&'a [T], i64, &'a [i64]);

/// The destination: the slice, the offset of element 0, the depth-first leaf strides
/// (injective over the shape).
pub(crate) type Dst<'a, 'b, T> = (&'a mut [T], i64, &'b [i64]);

/// `dst[D(i)] = f(a[A(i)], b[B(i)])` for every index `i` of the leaves `extents`. Callers
/// guarantee that every index lies inside its slice (validated placements) and that `D` is
/// injective; the sources may alias themselves (stride 0) and each other.
pub(crate) fn zip<A: Copy, B: Copy, T: Copy>(
    extents: &[i64],
    (a, ao, a_s): Src<'_, A>,
    (b, bo, b_s): Src<'_, B>,
    (dst, d_o, ds): Dst<'_, '_, T>,
    f: impl Fn(A, B) -> T,
) {
    let Some((modes, d_o, [ao, bo])) = plan(extents, (d_o, ds), [(ao, a_s), (bo, b_s)]) else {
        return;
    };
    let Some(&inner) = modes.first() else {
        dst[d_o as usize] = f(a[ao as usize], b[bo as usize]);
        return;
    };
    if let Some(k) = transposed_partner::<T, 2>(&modes) {
        let pair = modes[k];
        outer(&without(&modes, k), d_o, [ao, bo], |d, [x, y]| {
            blocked((a, x), (b, y), (dst, d), inner, pair, &f);
        });
        return;
    }
    outer(&modes[1..], d_o, [ao, bo], |d, [x, y]| {
        run((a, x), (b, y), (dst, d), inner, &f);
    });
}

/// `dst[D(i)] = f(a[A(i)])` for every index `i` (see [`zip`]).
pub(crate) fn map<A: Copy, T: Copy>(
    extents: &[i64],
    a: Src<'_, A>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A) -> T,
) {
    // The second operand is the first again: the planner merges and tiles alike, and the
    // kernels never read it (the compiler drops the unused loads).
    zip(extents, a, a, dst, |x, _| f(x));
}

/// One run of the innermost leaf `m` from the source offsets to destination offset `d`.
#[inline(always)]
fn run<A: Copy, B: Copy, T: Copy>(
    (a, x): (&[A], i64),
    (b, y): (&[B], i64),
    (dst, d): (&mut [T], i64),
    m: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    let (e, x0, y0, d0) = (m.e as usize, x as usize, y as usize, d as usize);
    if m.d != 1 {
        let out = dst[d0..].iter_mut().step_by(m.d as usize).take(e);
        for ((z, p), q) in out.zip(lane(a, x, m.s[0], e)).zip(lane(b, y, m.s[1], e)) {
            *z = f(p, q);
        }
        return;
    }
    let out = &mut dst[d0..d0 + e];
    match (m.s[0], m.s[1]) {
        (1, 1) => {
            for ((z, &p), &q) in out.iter_mut().zip(&a[x0..x0 + e]).zip(&b[y0..y0 + e]) {
                *z = f(p, q);
            }
        }
        (1, 0) => {
            let q = b[y0];
            for (z, &p) in out.iter_mut().zip(&a[x0..x0 + e]) {
                *z = f(p, q);
            }
        }
        (0, 1) => {
            let p = a[x0];
            for (z, &q) in out.iter_mut().zip(&b[y0..y0 + e]) {
                *z = f(p, q);
            }
        }
        (0, 0) => out.fill(f(a[x0], b[y0])),
        (1, st) if st > 0 => {
            let from = b[y0..].iter().step_by(st as usize);
            for ((z, &p), &q) in out.iter_mut().zip(&a[x0..x0 + e]).zip(from) {
                *z = f(p, q);
            }
        }
        (st, 1) if st > 0 => {
            let from = a[x0..].iter().step_by(st as usize);
            for ((z, &p), &q) in out.iter_mut().zip(from).zip(&b[y0..y0 + e]) {
                *z = f(p, q);
            }
        }
        (sa, sb) => {
            for ((z, p), q) in out.iter_mut().zip(lane(a, x, sa, e)).zip(lane(b, y, sb, e)) {
                *z = f(p, q);
            }
        }
    }
}

/// The leaves `inner` (unit destination stride) and `pair` in `TILE × TILE` blocks: along
/// `pair` the transposed source is fast, along `inner` the destination, so each block's
/// cache lines are used whole on every side.
#[inline(always)]
fn blocked<A: Copy, B: Copy, T: Copy>(
    (a, x): (&[A], i64),
    (b, y): (&[B], i64),
    (dst, d): (&mut [T], i64),
    inner: Mode<2>,
    pair: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    for jb in (0..pair.e).step_by(TILE as usize) {
        for ib in (0..inner.e).step_by(TILE as usize) {
            let row = Mode {
                e: TILE.min(inner.e - ib),
                ..inner
            };
            for j in jb..(jb + TILE).min(pair.e) {
                let xs = x + j * pair.s[0] + ib * inner.s[0];
                let ys = y + j * pair.s[1] + ib * inner.s[1];
                run((a, xs), (b, ys), (dst, d + j * pair.d + ib), row, f);
            }
        }
    }
}

/// The `e` elements `x[s], x[s + st], …` of one run of a source, any stride.
pub(crate) enum Lane<'a, T> {
    Forward(StepBy<Iter<'a, T>>),
    Backward(StepBy<Rev<Iter<'a, T>>>),
    Same(RepeatN<T>),
}

/// The [`Lane`] of `e` elements of `x` from index `s` with stride `st` (all inside `x`).
pub(crate) fn lane<T: Copy>(x: &[T], s: i64, st: i64, e: usize) -> Lane<'_, T> {
    let (s0, k) = (s as usize, st.unsigned_abs() as usize);
    match st {
        0 => Lane::Same(std::iter::repeat_n(x[s0], e)),
        st if st > 0 => Lane::Forward(x[s0..=s0 + (e - 1) * k].iter().step_by(k)),
        _ => Lane::Backward(x[s0 - (e - 1) * k..=s0].iter().rev().step_by(k)),
    }
}

impl<T: Copy> Iterator for Lane<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            Lane::Forward(it) => it.next().copied(),
            Lane::Backward(it) => it.next().copied(),
            Lane::Same(it) => it.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive walk: ordinal by ordinal, each index computed from the coordinates.
    fn naive(
        extents: &[i64],
        (a, ao, a_s): (&[i64], i64, &[i64]),
        (b, bo, b_s): (&[i64], i64, &[i64]),
        (dst, d_o, ds): (&mut [i64], i64, &[i64]),
    ) {
        let n: i64 = extents.iter().product();
        for mut i in 0..n {
            let (mut x, mut y, mut d) = (ao, bo, d_o);
            for (j, &e) in extents.iter().enumerate() {
                let c = i % e;
                i /= e;
                (x, y, d) = (x + c * a_s[j], y + c * b_s[j], d + c * ds[j]);
            }
            dst[d as usize] = a[x as usize] * 1000 + b[y as usize];
        }
    }

    fn check(extents: &[i64], a_s: &[i64], b_s: &[i64], ds: &[i64], offsets: [i64; 3]) {
        let a: Vec<i64> = (0..4096).collect();
        let b: Vec<i64> = (0..4096).map(|k| 7 * k).collect();
        let (mut got, mut want) = (vec![-1; 4096], vec![-1; 4096]);
        let [ao, bo, d_o] = offsets;
        zip(
            extents,
            (&a, ao, a_s),
            (&b, bo, b_s),
            (&mut got, d_o, ds),
            |x, y| x * 1000 + y,
        );
        naive(extents, (&a, ao, a_s), (&b, bo, b_s), (&mut want, d_o, ds));
        assert_eq!(got, want, "{extents:?} {a_s:?} {b_s:?} {ds:?}");
    }

    #[test]
    fn every_kernel_path_writes_what_the_naive_walk_writes() {
        let e = [40, 40];
        check(&e, &[1, 40], &[1, 40], &[1, 40], [0, 0, 0]); // zipped slices
        check(&e, &[1, 40], &[0, 1], &[1, 40], [0, 0, 0]); // broadcast right
        check(&e, &[0, 0], &[1, 40], &[1, 40], [5, 0, 0]); // broadcast left
        check(&e, &[40, 1], &[1, 40], &[1, 40], [0, 0, 0]); // transposed left: blocked
        check(&e, &[1, 40], &[40, 1], &[1, 40], [0, 0, 0]); // transposed right: blocked
        check(&e, &[-40, 1], &[1, -40], &[1, 40], [1599, 1560, 0]); // reversed, blocked
        check(&e, &[2, 80], &[-1, 40], &[1, 40], [0, 1599, 0]); // strided loops
        check(&e, &[1, 40], &[1, 40], &[-1, -40], [0, 0, 1599]); // turned destination
        check(&e, &[1, 40], &[3, 0], &[41, 1], [0, 0, 0]); // strided destination
        check(&[3, 1, 4], &[4, 9, 1], &[1, 0, 3], &[1, 0, 3], [0, 0, 0]);
        check(&[], &[], &[], &[], [3, 4, 5]); // one element
    }

    #[test]
    fn map_reads_one_source() {
        let a = [1.0f32, 2.0, 3.0, 4.0];
        let mut out = [0.0f32; 4];
        map(&[2, 2], (&a, 0, &[2, 1]), (&mut out, 0, &[1, 2]), |x| -x);
        assert_eq!(out, [-1.0, -3.0, -2.0, -4.0]);
    }
}
