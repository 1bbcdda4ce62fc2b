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

/// The block of `src` at `s0` with strides `si` (fast leaf) and `sj` (partner).
///
/// # Safety
/// AVX is present.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn block<S: Copy + 'static>(src: &[S], s0: i64, si: i64, sj: i64) -> Block<S> {
    if transposes::<S>(si, sj) {
        // SAFETY: AVX is present (the contract); `transposes` proved `S` a plain 4-byte
        // type by `TypeId` (`plain32`), what `transposed` requires.
        return unsafe { transposed(src, s0, si) };
    }
    if si == 1 {
        return std::array::from_fn(|j| {
            let at = (s0 + j as i64 * sj) as usize;
            // unreachable from user input: the range has 8 elements.
            src[at..at + 8].try_into().expect("8 elements")
        });
    }
    std::array::from_fn(|j| {
        std::array::from_fn(|k| src[(s0 + k as i64 * si + j as i64 * sj) as usize])
    })
}

/// The block `v[j][k] = src[s0 + k·si + j]`: eight 8-element rows of `src` loaded into
/// `__m256` lanes and transposed in registers.
///
/// # Safety
/// AVX is present; `S` is `f32`, `i32` or `u32` (4 bytes, no padding, every bit pattern
/// valid).
#[target_feature(enable = "avx")]
#[inline]
#[allow(unsafe_code)]
unsafe fn transposed<S: Copy>(src: &[S], s0: i64, si: i64) -> Block<S> {
    let rows = std::array::from_fn(|k| {
        let at = (s0 + k as i64 * si) as usize;
        let row = &src[at..at + 8];
        // SAFETY: `row` holds 8 elements of 4 bytes (the contract on `S`): 32 readable
        // bytes, read unaligned; AVX is present (the contract).
        unsafe { _mm256_loadu_ps(row.as_ptr().cast()) }
    });
    let cols = transpose8(rows);
    // SAFETY: `[__m256; 8]` and `[[S; 8]; 8]` have the same size (8 × 32 bytes, `S` is 4
    // bytes) and every bit pattern is a valid `S` (the contract); the lanes are bit
    // patterns read from `S` values above, moved unchanged by the transpose.
    unsafe { std::mem::transmute_copy(&cols) }
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
/// 8×8 blocks through [`block`], the edges element by element.
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
    let (ni8, nj8) = (ni - ni % 8, nj - nj % 8);
    for j0 in (0..nj8).step_by(8) {
        for i0 in (0..ni8).step_by(8) {
            // SAFETY: AVX is present (the contract).
            let (va, vb) = unsafe {
                (
                    block(a, x + i0 * ai + j0 * aj, ai, aj),
                    block(b, y + i0 * bi + j0 * bj, bi, bj),
                )
            };
            for j in 0..8 {
                let at = (o + (j0 + j as i64) * row + i0) as usize;
                // unreachable from user input: the range has 8 elements.
                let to: &mut [T; 8] = (&mut out[at..at + 8]).try_into().expect("8 elements");
                *to = std::array::from_fn(|k| f(va[j][k], vb[j][k]));
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
