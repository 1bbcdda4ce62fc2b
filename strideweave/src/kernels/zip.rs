//! The elementwise engine: `dst[D(i)] = f(a[A(i)], b[B(i)])` (and `f(a[A(i)])`) for every
//! index `i` of one shape, written straight into the destination slice — no intermediate
//! buffer, no division, no bounds check per element on the fast paths.
//!
//! The destination and the sources are planned jointly ([`super::plan`] in destination-stride
//! order, as the copy engine's): extent-1 leaves dropped, leaves turned so the destination
//! steps forward, ordered by destination stride, merged where all three step regularly. The
//! innermost leaf then picks the kernel:
//!
//! * unit stride on every side: zipped slices, a loop the compiler vectorises;
//! * a stride-0 source: its one value read once per run (the broadcast path);
//! * a source whose fastest leaf is another one (a transposed operand): tiles over the two
//!   leaves. On a vector unit with a plain 4-byte transposed operand, the fused kernel
//!   ([`fused`]): 8×8 blocks transposed in registers, `f` applied lane by lane, the rows
//!   written out; otherwise 32×32 blocks, the transposed source copied into an L1 buffer
//!   along its fast leaf (each cache line used whole), then each destination row of the
//!   block computed from unit-stride slices;
//! * anything else: a strided loop over iterators.
//!
//! A call writing at least the copy engine's streaming threshold (`STREAM_MIN_BYTES`) of a
//! plain type on a vector unit writes its contiguous runs with streaming stores
//! ([`stream`]) and ends with a store fence ([`simd::Path`]); tiles are not streamed
//! (measured slower, see [`fused`]).
//!
//! Each destination index is written once, from the same source elements as a naive walk,
//! so results are bit-identical to it whatever the order of the visit.

use std::iter::{RepeatN, Rev, StepBy};
use std::slice::Iter;

use super::plan::{Mode, Modes, Order, outer, plan, transposed_partner, without};

#[cfg(target_arch = "x86_64")]
mod fused;
mod parallel;
mod simd;
#[cfg(target_arch = "x86_64")]
mod stream;

pub(crate) use simd::Isa;
use simd::Path;

/// The side of a tile in the blocked kernel.
const TILE: i64 = 32;

/// A source: the slice, the offset of element 0, the depth-first leaf strides.
pub(crate) type Src<'a, T> = (&'a [T], i64, &'a [i64]);

/// The destination: the slice, the offset of element 0, the depth-first leaf strides
/// (injective over the shape).
pub(crate) type Dst<'a, 'b, T> = (&'a mut [T], i64, &'b [i64]);

/// `dst[D(i)] = f(a[A(i)], b[B(i)])` for every index `i` of the leaves `extents`. Callers
/// guarantee that every index lies inside its slice (validated placements) and that `D` is
/// injective; the sources may alias themselves (stride 0) and each other. Above 1 MiB
/// written, the call splits across threads (feature `parallel`; bit-identical); from the
/// streaming threshold on, the destination is written with streaming stores.
pub(crate) fn zip<A, B, T>(
    extents: &[i64],
    a: Src<'_, A>,
    b: Src<'_, B>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A, B) -> T + Sync,
) where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    T: Copy + Send + 'static,
{
    if let Some((modes, path, a, b, dst)) = prepare(extents, a, b, dst, &f, false) {
        parallel::zip(&modes, path, a, b, dst, &f);
    }
}

/// [`zip`] into a fresh allocation (its pages first touched by this call): never streamed.
/// The system zeroes each new page into the cache on its first write, so ordinary stores
/// then hit the cache, while streaming stores would write every line twice (measured:
/// 1.2× slower on a fresh 64 MiB result).
pub(crate) fn zip_fresh<A, B, T>(
    extents: &[i64],
    a: Src<'_, A>,
    b: Src<'_, B>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A, B) -> T + Sync,
) where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    T: Copy + Send + 'static,
{
    if let Some((modes, path, a, b, dst)) = prepare(extents, a, b, dst, &f, true) {
        parallel::zip(&modes, path, a, b, dst, &f);
    }
}

/// [`zip`] on the calling thread only, for a function that cannot be shared with other
/// threads (`fresh`: as [`zip_fresh`]).
fn zip_serial<A: Copy + 'static, B: Copy + 'static, T: Copy + 'static>(
    extents: &[i64],
    a: Src<'_, A>,
    b: Src<'_, B>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A, B) -> T,
    fresh: bool,
) {
    if let Some((modes, path, a, b, dst)) = prepare(extents, a, b, dst, &f, fresh) {
        planned(&modes, path, a, b, dst, &f);
    }
}

/// A planned call: the leaves, the path to run on (unit, streaming) and the sides at their
/// planned offsets; `None` when nothing is left to do (an empty shape, or the one element
/// written here).
#[allow(clippy::type_complexity)]
fn prepare<'a, 's, A: Copy, B: Copy, T: Copy + 'static>(
    extents: &[i64],
    (a, ao, a_s): Src<'s, A>,
    (b, bo, b_s): Src<'s, B>,
    (dst, d_o, ds): Dst<'a, '_, T>,
    f: &impl Fn(A, B) -> T,
    fresh: bool,
) -> Option<(
    Modes<2>,
    Path<T>,
    (&'s [A], i64),
    (&'s [B], i64),
    (&'a mut [T], i64),
)> {
    let sides = [(ao, a_s), (bo, b_s)];
    let (modes, d_o, [ao, bo]) = plan(extents, (d_o, ds), sides, Order::Strides)?;
    if modes.is_empty() {
        dst[d_o as usize] = f(a[ao as usize], b[bo as usize]);
        return None;
    }
    let bytes = match fresh {
        true => 0,
        false => modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>(),
    };
    Some((modes, Path::new(bytes), (a, ao), (b, bo), (dst, d_o)))
}

/// The kernels on the planned leaves `modes` (non-empty), on `path` (ending with a store
/// fence when it streams).
fn planned<A: Copy + 'static, B: Copy + 'static, T: Copy>(
    modes: &[Mode<2>],
    path: Path<T>,
    (a, ao): (&[A], i64),
    (b, bo): (&[B], i64),
    (dst, d_o): (&mut [T], i64),
    f: &impl Fn(A, B) -> T,
) {
    let inner = modes[0];
    if let Some(k) = transposed_partner::<T, 2>(modes) {
        let pair = modes[k];
        let mut tiles = Tiles::new(a[ao as usize], b[bo as usize]);
        outer(&without(modes, k), d_o, [ao, bo], |d, [x, y]| {
            simd::blocked(path, &mut tiles, (a, x), (b, y), (dst, d), inner, pair, f);
        });
    } else {
        outer(&modes[1..], d_o, [ao, bo], |d, [x, y]| {
            simd::run(path, (a, x), (b, y), (dst, d), inner, f);
        });
    }
    simd::fence(path);
}

/// `dst[D(i)] = f(a[A(i)])` for every index `i` (see [`zip`]).
pub(crate) fn map<A: Copy + Sync + 'static, T: Copy + Send + 'static>(
    extents: &[i64],
    a: Src<'_, A>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A) -> T + Sync,
) {
    // The second operand is the first one's element 0 through stride 0: it never stops a
    // merge, never asks for a tile or a buffer, and the kernels' reads of it are dropped
    // by the compiler as unused.
    let zeros: smallvec::SmallVec<[i64; 8]> = smallvec::smallvec![0; extents.len()];
    let (x, xo, _) = a;
    zip(extents, a, (x, xo, &zeros), dst, |x, _| f(x));
}

/// [`map`] into a fresh allocation (see [`zip_fresh`]).
pub(crate) fn map_fresh<A: Copy + Sync + 'static, T: Copy + Send + 'static>(
    extents: &[i64],
    a: Src<'_, A>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A) -> T + Sync,
) {
    let zeros: smallvec::SmallVec<[i64; 8]> = smallvec::smallvec![0; extents.len()];
    let (x, xo, _) = a;
    zip_fresh(extents, a, (x, xo, &zeros), dst, |x, _| f(x));
}

/// [`map_fresh`] on the calling thread only (see [`zip_serial`]).
pub(crate) fn map_fresh_serial<A: Copy + 'static, T: Copy + 'static>(
    extents: &[i64],
    a: Src<'_, A>,
    dst: Dst<'_, '_, T>,
    f: impl Fn(A) -> T,
) {
    let zeros: smallvec::SmallVec<[i64; 8]> = smallvec::smallvec![0; extents.len()];
    let (x, xo, _) = a;
    zip_serial(extents, a, (x, xo, &zeros), dst, |x, _| f(x), true);
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

/// The `TILE × TILE` buffers of the blocked kernel, one per source, reused for every block.
struct Tiles<A, B> {
    a: Vec<A>,
    b: Vec<B>,
}

/// Whether a source with strides `si` along the destination's fast leaf and `sj` along the
/// tile partner is read through a buffer: it is fast along the partner, not along `si`.
fn buffered(si: i64, sj: i64) -> bool {
    si != 0 && si != 1 && sj != 0 && sj.abs() < si.abs()
}

/// Copies the block `src[s0 + i·si + j·sj]` (`i < ni`, `j < nj`) into `buf[j·TILE + i]`,
/// reading along `j` (the source's fast leaf): each buffer row is then one unit-stride run
/// along the destination's fast leaf.
#[inline(always)]
fn gather_block<S: Copy + 'static>(
    isa: Isa,
    src: &[S],
    s0: i64,
    (si, sj): (i64, i64),
    (ni, nj): (usize, usize),
    buf: &mut [S],
) {
    const T: usize = TILE as usize;
    if sj == 1 && (ni, nj) == (T, T) && simd::transpose_block(isa, src, s0, si, buf) {
        return;
    }
    if sj == 1 && (ni, nj) == (T, T) {
        // A full block read along contiguous rows, with every size known to the compiler
        // (unrolled, no bounds check per element).
        // unreachable from user input: `Tiles::new` makes each buffer TILE² long.
        let buf: &mut [S; T * T] = (&mut buf[..T * T]).try_into().expect("a TILE² buffer");
        for i in 0..T {
            let at = (s0 + i as i64 * si) as usize;
            // unreachable from user input: the range has T elements.
            let row: &[S; T] = src[at..at + T].try_into().expect("T elements");
            for (j, &v) in row.iter().enumerate() {
                buf[j * T + i] = v;
            }
        }
        return;
    }
    let t = T;
    for i in 0..ni {
        let base = s0 + i as i64 * si;
        if sj == 1 {
            let row = &src[base as usize..base as usize + nj];
            for (x, &v) in buf[i..].iter_mut().step_by(t).zip(row) {
                *x = v;
            }
        } else {
            for (j, x) in buf[i..].iter_mut().step_by(t).take(nj).enumerate() {
                *x = src[(base + j as i64 * sj) as usize];
            }
        }
    }
}

impl<A: Copy + 'static, B: Copy + 'static> Tiles<A, B> {
    /// Buffers filled with `x` and `y` (any elements of the sources).
    fn new(x: A, y: B) -> Self {
        let n = (TILE * TILE) as usize;
        Self {
            a: vec![x; n],
            b: vec![y; n],
        }
    }

    /// The leaves `inner` (unit destination stride) and `pair` in `TILE × TILE` blocks. A
    /// source that is fast along `pair` (a transposed operand) is first copied into its
    /// buffer, read along `pair` so each of its cache lines is used whole; then each
    /// destination row of the block is one run over unit-stride slices (vectorised).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn blocked<T: Copy>(
        &mut self,
        isa: Isa,
        (a, x): (&[A], i64),
        (b, y): (&[B], i64),
        (dst, d): (&mut [T], i64),
        inner: Mode<2>,
        pair: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        let (ba, bb) = (
            buffered(inner.s[0], pair.s[0]),
            buffered(inner.s[1], pair.s[1]),
        );
        let t = TILE as usize;
        for jb in (0..pair.e).step_by(t) {
            let nj = TILE.min(pair.e - jb);
            for ib in (0..inner.e).step_by(t) {
                let ni = TILE.min(inner.e - ib);
                let xs = x + jb * pair.s[0] + ib * inner.s[0];
                let ys = y + jb * pair.s[1] + ib * inner.s[1];
                let size = (ni as usize, nj as usize);
                if ba {
                    gather_block(isa, a, xs, (inner.s[0], pair.s[0]), size, &mut self.a);
                }
                if bb {
                    gather_block(isa, b, ys, (inner.s[1], pair.s[1]), size, &mut self.b);
                }
                for j in 0..nj {
                    let (sa, pa) = match ba {
                        true => ((&self.a[..], j * TILE), 1),
                        false => ((a, xs + j * pair.s[0]), inner.s[0]),
                    };
                    let (sb, pb) = match bb {
                        true => ((&self.b[..], j * TILE), 1),
                        false => ((b, ys + j * pair.s[1]), inner.s[1]),
                    };
                    let row = Mode {
                        e: ni,
                        d: 1,
                        s: [pa, pb],
                    };
                    run(sa, sb, (dst, d + (jb + j) * pair.d + ib), row, f);
                }
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
    use crate::kernels::copy::path::STREAM_MIN_BYTES;

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
        check(&e, &[40, 1], &[40, 1], &[1, 40], [0, 0, 0]); // both buffered
        check(&e, &[80, 2], &[1, 40], &[1, 40], [0, 0, 0]); // buffered, partner stride 2
        check(&e, &[-40, -1], &[40, 1], &[1, 40], [1599, 0, 0]); // buffered backwards
        check(&[70, 33], &[33, 1], &[1, 70], &[1, 70], [0, 0, 0]); // partial blocks
        check(&e, &[2, 80], &[-1, 40], &[1, 40], [0, 1599, 0]); // strided loops
        check(&e, &[1, 40], &[1, 40], &[-1, -40], [0, 0, 1599]); // turned destination
        check(&e, &[1, 40], &[3, 0], &[41, 1], [0, 0, 0]); // strided destination
        check(&[3, 1, 4], &[4, 9, 1], &[1, 0, 3], &[1, 0, 3], [0, 0, 0]);
        check(&[], &[], &[], &[], [3, 4, 5]); // one element
    }

    /// Every unit this machine has, the portable one first.
    fn units() -> Vec<Isa> {
        [Isa::Portable, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|&u| u <= simd::detected())
            .collect()
    }

    #[test]
    fn the_portable_path_runs_when_forced_and_the_engine_never_runs_a_missing_unit() {
        assert_eq!(simd::with_isa(Isa::Portable, simd::isa), Isa::Portable);
        // Forcing a wider unit than the processor has answers the detected one.
        assert_eq!(simd::with_isa(Isa::Avx512, simd::isa), simd::detected());
        assert_eq!(simd::isa(), simd::detected());
    }

    /// `f32` (the in-register transposes' type) through every path, on every unit, with
    /// regular and with streaming stores (the threshold lowered to 0 bytes): odd sizes,
    /// partial blocks and tiles and tails, unaligned starts, reversed and strided operands,
    /// one or both operands transposed (the fused tiles), all bit-identical to the naive
    /// walk (values with every bit pattern class: NaN payloads, negative zero, subnormals).
    #[test]
    fn every_unit_writes_what_the_naive_walk_writes_bit_for_bit() {
        let weird = |k: usize| match k % 7 {
            0 => f32::from_bits(0x7fc0_0000 | k as u32), // NaN payloads
            1 => -0.0,
            2 => f32::from_bits(k as u32 & 0x7f_ffff), // subnormals
            _ => k as f32 * 0.37 - 500.0,
        };
        let a: Vec<f32> = (0..40_000).map(weird).collect();
        let b: Vec<f32> = (0..40_000).map(|k| weird(k * 3 + 1)).collect();
        type Case<'a> = (&'a [i64], &'a [i64], &'a [i64], &'a [i64], [i64; 3]);
        let cases: &[Case] = &[
            (&[100, 97], &[97, 1], &[1, 100], &[1, 100], [0, 0, 0]),
            (&[64, 64], &[1, 64], &[64, 1], &[1, 64], [3, 5, 1]),
            (
                &[67, 65],
                &[-65, -1],
                &[1, 67],
                &[1, 67],
                [67 * 65 - 1, 0, 7],
            ),
            (&[33, 129], &[129, 1], &[129, 1], &[1, 33], [1, 2, 3]),
            (&[1001, 13], &[1, 1001], &[1, 1001], &[1, 1001], [1, 0, 3]),
            (&[1001, 13], &[1, 1001], &[0, 1], &[1, 1001], [1, 5, 0]),
            (&[37, 41], &[2, 80], &[-1, 40], &[1, 37], [0, 1599, 0]),
            // Fused tiles: two whole tiles and a partial one along the fast leaf, a partial
            // 8-row group along the partner; the other operand broadcast, reversed or
            // strided; a transposed operand with reversed rows.
            (&[300, 43], &[43, 1], &[1, 300], &[1, 301], [0, 0, 5]),
            (&[300, 43], &[0, 1], &[43, 1], &[1, 300], [7, 9, 0]),
            (
                &[260, 40],
                &[-1, 260],
                &[-40, 1],
                &[1, 260],
                [259, 259 * 40, 2],
            ),
            (&[136, 24], &[24, 1], &[2, 300], &[1, 136], [1, 0, 0]),
        ];
        for &(e, a_s, b_s, ds, [ao, bo, d_o]) in cases {
            let n: i64 = e.iter().product();
            let reach: i64 = e.iter().zip(ds).map(|(e, s)| (e - 1) * s).sum();
            let mut want = vec![0u32; (reach + d_o) as usize + 5];
            let mut i = 0i64;
            while i < n {
                let (mut r, mut x, mut y, mut d) = (i, ao, bo, d_o);
                for (j, &ej) in e.iter().enumerate() {
                    let c = r % ej;
                    r /= ej;
                    (x, y, d) = (x + c * a_s[j], y + c * b_s[j], d + c * ds[j]);
                }
                want[d as usize] = (a[x as usize] - b[y as usize]).to_bits();
                i += 1;
            }
            for (u, least) in units().into_iter().flat_map(|u| [(u, None), (u, Some(0))]) {
                let mut got = vec![0f32; want.len()];
                simd::with_isa(u, || {
                    simd::with_stream_min(least.unwrap_or(usize::MAX), || {
                        let to = (&mut got[..], d_o, ds);
                        zip(e, (&a, ao, a_s), (&b, bo, b_s), to, |p, q| p - q);
                    })
                });
                let got: Vec<u32> = got.iter().map(|v| v.to_bits()).collect();
                assert!(got == want, "{u:?} {least:?} {e:?} {a_s:?} {b_s:?} {ds:?}");
            }
        }
    }

    /// The fused tiles for other element types: an `i32` operand transposed into a `u8`
    /// destination, a `u32` one into `f64`, on every unit, with the streaming threshold at
    /// 0 and not (tiles never stream); and the streaming threshold of `Path::new`.
    #[test]
    fn fused_tiles_write_any_destination_type() {
        let (r, c) = (203i64, 77i64);
        let n = (r * c) as usize;
        let a: Vec<i32> = (0..n as i32)
            .map(|k| k.wrapping_mul(2_654_435_761u32 as i32))
            .collect();
        let b: Vec<u32> = (0..n as u32).map(|k| k.wrapping_mul(40_503)).collect();
        let (e, t, ds) = ([r, c], [c, 1], [1, r]);
        for (u, least) in units().into_iter().flat_map(|u| [(u, None), (u, Some(0))]) {
            let (mut small, mut wide) = (vec![0u8; n + 3], vec![0f64; n]);
            simd::with_isa(u, || {
                simd::with_stream_min(least.unwrap_or(usize::MAX), || {
                    let to = (&mut small[..], 3, &ds[..]);
                    zip(&e, (&a, 0, &t), (&b, 0, &[1, r]), to, |p, q| {
                        (p as u32 ^ q) as u8
                    });
                    map(&e, (&b, 0, &t), (&mut wide, 0, &ds), |q| q as f64 * 0.5);
                });
            });
            for i in 0..r {
                for j in 0..c {
                    let (o, tr) = ((i + j * r) as usize, (j + i * c) as usize);
                    assert_eq!(small[3 + o], (a[tr] as u32 ^ b[o]) as u8, "{u:?} {least:?}");
                    assert_eq!(wide[o], b[tr] as f64 * 0.5, "{u:?} {least:?}");
                }
            }
        }
        assert_eq!(
            Path::<f32>::new(STREAM_MIN_BYTES).stream(),
            simd::detected() >= Isa::Avx2
        );
        assert!(!Path::<f32>::new(STREAM_MIN_BYTES - 1).stream());
    }

    #[test]
    fn map_reads_one_source() {
        let a = [1.0f32, 2.0, 3.0, 4.0];
        let mut out = [0.0f32; 4];
        map(&[2, 2], (&a, 0, &[2, 1]), (&mut out, 0, &[1, 2]), |x| -x);
        assert_eq!(out, [-1.0, -3.0, -2.0, -4.0]);
        // A transposed source goes through the blocked kernel, buffered once.
        let a: Vec<i64> = (0..40 * 40).collect();
        let mut out = vec![0i64; 40 * 40];
        map(&[40, 40], (&a, 0, &[40, 1]), (&mut out, 0, &[1, 40]), |x| {
            x + 1
        });
        for i in 0..40 {
            for j in 0..40 {
                assert_eq!(out[i + 40 * j], a[40 * i + j] + 1);
            }
        }
    }
}
