//! The transposing kernel: two leaves `a` (unit stride in the destination) and `b` (the
//! source's fastest) copied in square blocks through a small buffer.
//!
//! Each block is read from the source row by row along `b` and written to the destination
//! row by row along `a`, so every cache line is used whole on both sides while it is loaded,
//! and the transposition happens in the buffer (L1-resident). Reading and writing the block
//! directly instead touches a block side of lines at the same power-of-two distance on one
//! side, which fall in one cache set and evict each other. Rows of a block are 256 bytes
//! (64 `f32`s): wider rows use each page (TLB entry) of a transposed side for more elements
//! per visit, which measured faster than 32 on 4096² `f32`.

use super::path::Path;
use super::run::{forward, run};
use super::x86;
use crate::kernels::plan::Mode;

/// A multiple of every block side, for callers that split a tiled leaf.
pub(super) const ALIGN: i64 = 64;

/// The side of a block of `T`s: 256-byte rows, between 8 and 64 elements.
fn side<T>() -> i64 {
    (256 / size_of::<T>().max(1)).clamp(8, ALIGN as usize) as i64
}

/// The block buffer of one copy, reused for every block.
pub(super) struct Buffer<T> {
    buf: Vec<T>,
    t: i64,
    path: Path<T>,
}

impl<T: Copy> Buffer<T> {
    /// A buffer for blocks of the leaves `a` and `b`, filled with `x` (any element), for a
    /// copy on `path`.
    pub(super) fn new(x: T, a: Mode<1>, b: Mode<1>, path: Path<T>) -> Self {
        let t = side::<T>();
        let n = (t.min(a.e) * t.min(b.e)) as usize;
        Self {
            buf: vec![x; n],
            t,
            path,
        }
    }

    /// Copies the leaves `a` × `b` from source offset `s` to destination offset `d`.
    ///
    /// Full square blocks with contiguous source rows go to [`square`], a small function of
    /// its own with every size known; everything else to [`Buffer::blocks`]. Kept apart so
    /// that the caller's per-block closure stays small: inlined together, the general path's
    /// set-up (≈ 300 instructions per call) ran for every block and the square loops lost
    /// their registers to spills (callgrind, [32,64,64,32] reversed: 1.19× the instructions
    /// of the same loops written by hand).
    #[inline]
    pub(super) fn copy(
        &mut self,
        src: &[T],
        s: i64,
        dst: &mut [T],
        d: i64,
        a: Mode<1>,
        b: Mode<1>,
    ) {
        let t = self.t;
        if b.s[0] == 1 && a.s[0] > 0 && b.d > 0 && a.e == b.e && a.e % t.min(a.e) == 0 {
            let w = t.min(a.e);
            let (rs, ds) = (a.s[0] as usize, b.d as usize);
            let square = match w {
                64 => square::<T, 64>,
                32 => square::<T, 32>,
                16 => square::<T, 16>,
                8 => square::<T, 8>,
                _ => return self.blocks(src, s, dst, d, a, b),
            };
            for ib in (0..a.e).step_by(w as usize) {
                for jb in (0..b.e).step_by(w as usize) {
                    let (s0, d0) = (s + ib * a.s[0] + jb, d + jb * b.d + ib);
                    square(
                        (src, s0 as usize, rs, &mut *dst, d0 as usize, ds),
                        &mut self.buf,
                        self.path,
                    );
                }
            }
            return;
        }
        self.blocks(src, s, dst, d, a, b);
    }

    /// [`copy`](Self::copy) for any leaves: blocks of side `t` (partial at the edges),
    /// each full square one through [`square`].
    #[inline(never)]
    fn blocks(&mut self, src: &[T], s: i64, dst: &mut [T], d: i64, a: Mode<1>, b: Mode<1>) {
        let t = self.t;
        let w = t.min(b.e) as usize;
        for ib in (0..a.e).step_by(t as usize) {
            let na = t.min(a.e - ib) as usize;
            for jb in (0..b.e).step_by(t as usize) {
                let nb = t.min(b.e - jb) as usize;
                let (s0, d0) = (s + ib * a.s[0] + jb * b.s[0], d + jb * b.d + ib);
                if b.s[0] == 1 && a.s[0] > 0 && b.d > 0 && na == nb {
                    let (rs, ds) = (a.s[0] as usize, b.d as usize);
                    let full = (src, s0 as usize, rs, &mut *dst, d0 as usize, ds);
                    match na {
                        64 => square::<T, 64>(full, &mut self.buf, self.path),
                        32 => square::<T, 32>(full, &mut self.buf, self.path),
                        16 => square::<T, 16>(full, &mut self.buf, self.path),
                        8 => square::<T, 8>(full, &mut self.buf, self.path),
                        _ => {}
                    }
                    if matches!(na, 8 | 16 | 32 | 64) {
                        continue;
                    }
                }
                // Row i of the block along b (source-fast) into buf[i·w ..].
                let row = Mode {
                    e: nb as i64,
                    d: 1,
                    s: b.s,
                };
                for i in 0..na {
                    let at = s + (ib + i as i64) * a.s[0] + jb * b.s[0];
                    run(src, at, &mut self.buf[i * w..], 0, row, self.path.cached());
                }
                // Column j of the buffer into the destination row along a.
                for j in 0..nb {
                    let at = (d + (jb + j as i64) * b.d + ib) as usize;
                    let out = &mut dst[at..at + na];
                    for (x, y) in out.iter_mut().zip(self.buf[j..].iter().step_by(w)) {
                        *x = *y;
                    }
                }
            }
        }
    }
}

/// A source and a destination block: slice, offset of the first row, distance of rows.
pub(super) type Square<'a, T> = (&'a [T], usize, usize, &'a mut [T], usize, usize);

/// One full `W × W` block whose source rows are contiguous, with the sizes known to the
/// compiler. Elements of 4 bytes or more are transposed on the way into the buffer: each
/// source row is read whole and written into a buffer column (the scalar stores stay in L1),
/// then each buffer row is written whole to the destination with wide moves. Writing the
/// destination from buffer columns instead (one element at a time, 32–64 scalar stores per
/// row into lines that miss) measured 1.2–1.5× slower on 4096² `f32`, 1.1–1.4× on the
/// reversed [32,64,64,32] and 1.1× for `f64` and 16-byte elements. Smaller elements keep
/// that second order (source rows copied in whole, destination rows gathered from buffer
/// columns): a row of 64 bytes is one line either way, and the transposing fill's 64
/// byte-stores per row measured 1.5× slower for `u8` (1.0–1.2× for `u16`).
/// Not inlined: a call per block costs a few instructions, and alone the loops keep their
/// pointers in registers. Each row is sliced as `[at..at + W]` (one bounds check;
/// `[at..][..W]` makes two).
/// On an AVX2 path, 4-byte elements go through [`x86::try_square`] (8×8 register
/// transposes, rows written out whole or streamed).
#[inline(never)]
fn square<T: Copy, const W: usize>(
    (src, s, rs, dst, d, ds): Square<'_, T>,
    buf: &mut [T],
    path: Path<T>,
) {
    if x86::try_square::<T, W>((src, s, rs, &mut *dst, d, ds), buf, path) {
        return;
    }
    let buf = &mut buf[..W * W];
    if size_of::<T>() < 4 {
        for (r, row) in buf.chunks_exact_mut(W).enumerate() {
            let at = s + r * rs;
            row.copy_from_slice(&src[at..at + W]);
        }
        for c in 0..W {
            let at = d + c * ds;
            for (r, x) in dst[at..at + W].iter_mut().enumerate() {
                *x = buf[r * W + c];
            }
        }
        return;
    }
    for r in 0..W {
        let at = s + r * rs;
        for (c, x) in src[at..at + W].iter().enumerate() {
            buf[c * W + r] = *x;
        }
    }
    for (c, row) in buf.chunks_exact(W).enumerate() {
        let at = d + c * ds;
        forward(&mut dst[at..at + W], row);
    }
}
