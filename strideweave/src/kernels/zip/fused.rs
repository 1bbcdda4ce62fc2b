//! The fused tile kernel of the elementwise engine (x86-64, AVX2 and AVX-512 units): a
//! transposed operand of a plain 4-byte type (`f32`, `i32`, `u32`) read as 8×8 blocks
//! transposed in registers, `f` applied lane by lane to the transposed values and the other
//! operand's, each block's eight destination rows written at once — no pass through a
//! block buffer, no per-row call of the run loop.
//!
//! The destination is walked in tiles of [`TI`] elements along its fast leaf by [`TJ`]
//! along the partner, tiles along the partner innermost, their columns starting on the
//! destination's 64-byte lines: each destination row gets `TI` contiguous elements (whole
//! lines) per tile, and the transposed operand's `TI` rows stay in L1
//! between the tile's 8-row groups. `f` is any closure: the blocks are `[[S; 8]; 8]`
//! arrays and the compiler vectorises `f` across a row of 8 lanes when it can (an add, a
//! multiply), and runs it lane by lane otherwise; the closure's generality costs nothing
//! for the simple ones (see `docs/performance.md`). Partial blocks at the tile edges are
//! computed element by element. The tiles are never streamed, whatever the size: streaming
//! their rows (through a tile buffer) measured 1.38× the plain stores' 1.30× of the hand
//! kernel on `benches/elementwise.rs`, as the hand kernel's own streaming variant loses to
//! its plain one.
//!
//! Each destination element is computed once by `f` from the same two operand elements as
//! in a naive walk: the result is bit-identical to every other path.

use std::arch::x86_64::*;

use super::super::plan::Mode;
use super::buffered;
use super::simd::plain32;
use crate::kernels::lanes::transpose8;

/// The tile's extent along the destination's fast leaf.
const TI: i64 = 128;

/// The tile's extent along the partner leaf (a multiple of the engine's split alignment).
const TJ: i64 = 32;

/// An 8×8 block of a source as the kernel uses it: `v[j][k]` is the element at position
/// `k` along the destination's fast leaf and `j` along the partner.
type Block<S> = [[S; 8]; 8];

/// Whether a source with strides `si` (fast leaf) and `sj` (partner) of type `S` is read
/// by in-register transposes: it is transposed (see [`buffered`]), contiguous along the
/// partner and a plain 4-byte type.
fn transposes<S: 'static>(si: i64, sj: i64) -> bool {
    buffered(si, sj) && sj == 1 && plain32::<S>()
}

/// Whether the fused kernel runs the tiles of the leaves `inner` and `pair`: some source
/// is read by in-register transposes.
pub(super) fn applies<A: 'static, B: 'static>(inner: Mode<2>, pair: Mode<2>) -> bool {
    transposes::<A>(inner.s[0], pair.s[0]) || transposes::<B>(inner.s[1], pair.s[1])
}

/// The block of a source at `p` with strides `si` (fast leaf) and `sj` (partner).
///
/// # Safety
/// AVX is present; `p + k·si + j·sj` for `k, j < 8` are elements of one source.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn block<S: Copy + 'static>(p: *const S, si: i64, sj: i64) -> Block<S> {
    // SAFETY (all three reads): the offsets are the contract's `k·si + j·sj`, `k, j < 8`;
    // a row `j` read whole when `si` is 1 covers `k < 8`.
    unsafe {
        if transposes::<S>(si, sj) {
            // AVX is present (the contract); `transposes` proved `S` a plain 4-byte type by
            // `TypeId` (`plain32`), what `transposed` requires; `sj` is 1.
            return transposed(p, si);
        }
        if si == 1 {
            return std::array::from_fn(|j| {
                p.offset(j as isize * sj as isize)
                    .cast::<[S; 8]>()
                    .read_unaligned()
            });
        }
        std::array::from_fn(|j| {
            std::array::from_fn(|k| *p.offset(k as isize * si as isize + j as isize * sj as isize))
        })
    }
}

/// The block `v[j][k] = p[k·si + j]`: eight 8-element rows loaded into `__m256` lanes and
/// transposed in registers.
///
/// # Safety
/// AVX is present; `S` is `f32`, `i32` or `u32` (4 bytes, no padding, every bit pattern
/// valid); `p + k·si + j` for `k, j < 8` are elements of one source.
#[target_feature(enable = "avx")]
#[inline]
#[allow(unsafe_code)]
unsafe fn transposed<S: Copy>(p: *const S, si: i64) -> Block<S> {
    let rows = std::array::from_fn(|k| {
        // SAFETY: row `k` is the 8 elements `p + k·si + j`, `j < 8` (the contract), 32
        // readable bytes of 4-byte `S`, read unaligned; AVX is present (the contract).
        unsafe { _mm256_loadu_ps(p.offset(k as isize * si as isize).cast()) }
    });
    let cols = transpose8(rows);
    // SAFETY: `[__m256; 8]` and `[[S; 8]; 8]` have the same size (8 × 32 bytes, `S` is 4
    // bytes) and every bit pattern is a valid `S` (the contract); the lanes are bit
    // patterns read from `S` values above, moved unchanged by the transpose.
    unsafe { std::mem::transmute_copy(&cols) }
}

/// Whether the positions `o + i·si + j·sj` (`i < ni`, `j < nj`, both extents ≥ 1) all lie
/// inside a slice of `len` elements.
fn covers(len: usize, o: i64, (ni, si): (i64, i64), (nj, sj): (i64, i64)) -> bool {
    let reach = |n: i64, s: i64| (n - 1).checked_mul(s);
    let (Some(ri), Some(rj)) = (reach(ni, si), reach(nj, sj)) else {
        return false;
    };
    let lo = o
        .checked_add(ri.min(0))
        .and_then(|v| v.checked_add(rj.min(0)));
    let hi = o
        .checked_add(ri.max(0))
        .and_then(|v| v.checked_add(rj.max(0)));
    matches!((lo, hi), (Some(lo), Some(hi)) if lo >= 0 && (hi as u64) < len as u64)
}

/// The tiles of the leaves `inner` (unit destination stride) and `pair` from the source
/// offsets `x`, `y` into the destination at `d`.
///
/// # Safety
/// AVX is present.
#[inline(always)]
#[allow(unsafe_code)]
pub(super) unsafe fn blocked<A: Copy + 'static, B: Copy + 'static, T: Copy>(
    (a, x): (&[A], i64),
    (b, y): (&[B], i64),
    (dst, d): (&mut [T], i64),
    inner: Mode<2>,
    pair: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    // The tiles' columns start on the first row's 64-byte lines: a narrow first tile up to
    // the first line boundary, then whole tiles (every row's when the row distance is a
    // multiple of 64 bytes), so no 8-lane store splits a line.
    let size = size_of::<T>();
    let skip = dst[d as usize..].as_ptr().addr().wrapping_neg() & 63;
    let lead = match size > 0 && skip.is_multiple_of(size) {
        true => (skip / size) as i64,
        false => 0,
    };
    let mut ib = 0;
    while ib < inner.e {
        let ni = match ib == 0 && lead > 0 {
            true => lead,
            false => TI,
        }
        .min(inner.e - ib);
        for jb in (0..pair.e).step_by(TJ as usize) {
            let nj = TJ.min(pair.e - jb);
            let xs = x + ib * inner.s[0] + jb * pair.s[0];
            let ys = y + ib * inner.s[1] + jb * pair.s[1];
            let sides = (
                (a, xs, inner.s[0], pair.s[0]),
                (b, ys, inner.s[1], pair.s[1]),
            );
            let to = (&mut *dst, d + ib + jb * pair.d, pair.d);
            // SAFETY: AVX is present (the contract).
            unsafe { tile(sides, to, (ni, nj), f) };
        }
        ib += ni;
    }
}

/// A source of one tile: the slice, the offset of the tile's corner, the strides along the
/// destination's fast leaf and along the partner.
type Side<'a, S> = (&'a [S], i64, i64, i64);

/// One `ni × nj` tile: `out[o + j·row + i] = f(a[…], b[…])` for `i < ni`, `j < nj`, whole
/// 8×8 blocks through [`block`] once every position of the tile is proved inside its slice,
/// the edges (and a tile that fails the proof) element by element.
///
/// # Safety
/// AVX is present.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn tile<A: Copy + 'static, B: Copy + 'static, T: Copy>(
    ((a, x, ai, aj), (b, y, bi, bj)): (Side<'_, A>, Side<'_, B>),
    (out, o, row): (&mut [T], i64, i64),
    (ni, nj): (i64, i64),
    f: &impl Fn(A, B) -> T,
) {
    let proved = ni > 0
        && nj > 0
        && covers(a.len(), x, (ni, ai), (nj, aj))
        && covers(b.len(), y, (ni, bi), (nj, bj))
        && covers(out.len(), o, (ni, 1), (nj, row));
    let (ni8, nj8) = match proved {
        true => (ni - ni % 8, nj - nj % 8),
        false => (0, 0),
    };
    let (pa, pb, po) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
    for j0 in (0..nj8).step_by(8) {
        for i0 in (0..ni8).step_by(8) {
            let at = |o: i64, si: i64, sj: i64| (o + i0 * si + j0 * sj) as isize;
            // SAFETY: AVX is present (the contract); the blocks' positions `i0 + k`,
            // `j0 + j` (`k, j < 8`) lie inside the tile (`i0 + 8 ≤ ni8 ≤ ni`, likewise `j`),
            // whose every position `covers` proved inside `a`, `b` and `out`; the offsets
            // are the positions' own, so `pa.offset(..)` stays inside `a` (likewise `b`,
            // `out`); `out` is borrowed exclusively, so its writes alias nothing read.
            unsafe {
                let va = block(pa.offset(at(x, ai, aj)), ai, aj);
                let vb = block(pb.offset(at(y, bi, bj)), bi, bj);
                let to = po.offset(at(o, 1, row));
                for j in 0..8 {
                    let lanes: [T; 8] = std::array::from_fn(|k| f(va[j][k], vb[j][k]));
                    to.offset(j as isize * row as isize)
                        .cast::<[T; 8]>()
                        .write_unaligned(lanes);
                }
            }
        }
    }
    for j in 0..nj {
        for i in if j < nj8 { ni8 } else { 0 }..ni {
            let (p, q) = (
                a[(x + i * ai + j * aj) as usize],
                b[(y + i * bi + j * bj) as usize],
            );
            out[(o + j * row + i) as usize] = f(p, q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::covers;

    /// The proof that lets a tile read through pointers: every position of the tile, with
    /// either stride negative or zero, inside the slice, and nothing that overflows.
    #[test]
    fn a_tile_reads_through_pointers_only_when_every_position_is_inside() {
        assert!(covers(64, 0, (8, 1), (8, 8)));
        assert!(!covers(63, 0, (8, 1), (8, 8)));
        assert!(covers(64, 63, (8, -1), (8, -8)));
        assert!(!covers(64, 62, (8, -1), (8, -8)));
        assert!(covers(64, 7, (8, -1), (8, 8)));
        assert!(!covers(64, 6, (8, -1), (8, 8)));
        assert!(covers(1, 0, (8, 0), (8, 0)));
        assert!(!covers(0, 0, (1, 0), (1, 0)));
        assert!(!covers(64, -1, (1, 1), (1, 1)));
        assert!(!covers(usize::MAX, 0, (i64::MAX, 2), (1, 1)));
        assert!(!covers(usize::MAX, i64::MAX, (2, 1), (1, 1)));
    }
}
