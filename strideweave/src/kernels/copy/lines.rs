//! Streamed transposes by whole lines: a blocked transpose whose destination is written
//! with streaming stores must write each cache line whole, or the processor's write-combining
//! buffers flush partial lines (each a read-modify-write in memory): measured 3–15× slower
//! than whole lines when the destination starts 16 bytes past a line, as large allocations
//! do.
//!
//! So the destination is seen as rows along the partner leaf `b` (the source's fastest),
//! each row the run of the destination-contiguous leaves (the innermost and those that
//! continue it); the blocks are cut at line boundaries of the destination, not at
//! coordinates: a group of [`ROWS`] consecutive run positions starting on a line, whose
//! source positions may come from several leaves (a table of offsets), times up to 64
//! columns of `b` ([`x86::try_rows`]). The positions before the first line boundary and
//! after the last whole group, and the columns past a multiple of 8, are copied by plain
//! loops with ordinary stores.

use smallvec::SmallVec;

use super::path::{Isa, Path};
use super::x86::{self, Offsets, ROWS};
use crate::kernels::plan::{Mode, Modes, outer};

/// The copy of the planned `modes` with partner leaf `k` by whole destination lines, when
/// the path streams 4-byte elements on AVX2, the source is contiguous along `b`, every
/// destination row starts at the same place in a line and the run holds a group; `false`
/// (nothing written) otherwise.
pub(super) fn try_copy<T: Copy>(
    modes: &[Mode<1>],
    k: usize,
    (src, so): (&[T], i64),
    (dst, d_o): (&mut [T], i64),
    path: Path<T>,
) -> bool {
    let b = modes[k];
    if path.isa() != Isa::Avx2
        || !path.stream()
        || size_of::<T>() != 4
        || b.s[0] != 1
        || b.d <= 0
        || (b.d * 4) % 64 != 0
        || b.e < 8
        || !dst.as_ptr().addr().is_multiple_of(4)
    {
        return false;
    }
    // The run: the innermost leaf and the leaves that continue it in the destination.
    let (mut run, mut rest): (Modes<1>, Modes<1>) = (SmallVec::new(), SmallVec::new());
    let mut len = 1;
    for (j, m) in modes.iter().enumerate() {
        if j == k {
            continue;
        }
        if rest.is_empty() && m.d == len {
            run.push(*m);
            len *= m.e;
        } else {
            rest.push(*m);
        }
    }
    if len < ROWS as i64 || b.d < len {
        return false;
    }
    // The source offset of every run position, relative to the run's first (`outer` walks
    // the run's leaves first one fastest, as the destination orders them).
    let mut offs: Vec<i64> = Vec::with_capacity(len as usize);
    outer(&run, 0, [0], |_, [s]| offs.push(s));
    let mut buf = vec![src[so as usize]; ROWS * 64];
    outer(&rest, d_o, [so], |d, [s]| {
        rows(src, s, &offs, (&mut *dst, d), b, &mut buf, path)
    });
    true
}

/// One destination block of rows: `dst[d + c·b.d + p] = src[s + offs[p] + c]` for every
/// run position `p` and column `c < b.e`.
fn rows<T: Copy>(
    src: &[T],
    s: i64,
    offs: &[i64],
    (dst, d): (&mut [T], i64),
    b: Mode<1>,
    buf: &mut [T],
    path: Path<T>,
) {
    let (n, cols, ds) = (offs.len(), b.e as usize, b.d as usize);
    let d = d as usize;
    // Positions before the first line boundary of the rows (all rows alike: `ds` is a
    // multiple of 16 elements), whole groups, then the rest.
    let head = ((64 - dst[d..].as_ptr().addr() % 64) % 64 / 4).min(n);
    let groups = (n - head) / ROWS;
    let tail = head + groups * ROWS;
    let wide = cols - cols % 8;
    let at = |p: usize| (s + offs[p]) as usize;
    for g in 0..groups {
        let p0 = head + g * ROWS;
        let base: Offsets = std::array::from_fn(|r| at(p0 + r));
        for c0 in (0..wide).step_by(64) {
            let w = (wide - c0).min(64);
            let shifted: Offsets = std::array::from_fn(|r| base[r] + c0);
            let out = (&mut *dst, d + c0 * ds + p0, ds);
            if !x86::try_rows((src, &shifted), w, out, buf, path) {
                plain(src, &shifted, (&mut *dst, d + c0 * ds + p0, ds), w);
            }
        }
    }
    // Ordinary stores: the columns past a multiple of 8 for the grouped positions, every
    // column for the positions outside groups.
    for c in 0..cols {
        let row = d + c * ds;
        let from = if c < wide { 0..head } else { 0..n };
        for p in from {
            dst[row + p] = src[at(p) + c];
        }
        if c < wide {
            for p in tail..n {
                dst[row + p] = src[at(p) + c];
            }
        }
    }
}

/// [`x86::try_rows`] by plain loops (reached only if a block were out of range, which a
/// validated placement never is).
fn plain<T: Copy>(src: &[T], offs: &Offsets, (dst, d, ds): (&mut [T], usize, usize), w: usize) {
    for c in 0..w {
        for (r, &o) in offs.iter().enumerate() {
            dst[d + c * ds + r] = src[o + c];
        }
    }
}
