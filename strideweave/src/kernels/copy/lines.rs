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
//! source positions may come from several leaves (their offsets stepped as an odometer),
//! times up to [`COLS`](x86::COLS) columns of `b` ([`x86::try_rows`]). The positions before
//! the first line boundary and after the last whole group, and the columns past a multiple
//! of 8, are copied by plain loops with ordinary stores.
//!
//! The groups follow the destination's order, except where every group is one pattern of
//! source offsets shifted (groups that start on boundaries of the run's leaves): then the
//! leaf with the smallest source step is stepped innermost ([`source_order`]), so that consecutive
//! groups read the next bytes of the same source pages. A group carries its least and
//! greatest offset ([`Group`]) and the destination rows are checked once per span ([`Rows`]),
//! so the vector kernel checks a group in a few comparisons, not one per position and row.
//!
//! The rows are handed to the kernels as separate slices (one per column of `b`), each
//! covering a span of positions: [`Lines::span`] copies any span, so a parallel copy
//! ([`super::parallel`]) can give each thread a line-aligned share of every row — whole
//! lines on every side, each thread streaming its own.

use std::ops::Range;

use smallvec::SmallVec;

use super::path::{Isa, Path};
use super::x86::{self, COLS};
use crate::kernels::plan::{Mode, Modes, outer};

/// The positions of a line-aligned group: 32 4-byte elements, two lines, times up to
/// [`COLS`] columns: blocks of at most 16 KiB (a third of L1).
///
/// A wide transpose takes 32 × 128 blocks, the shape of the hand kernel in
/// `benches/copy_avx`: a 4096² transpose in 64 × 64 blocks (64 source rows read at once, 256
/// bytes of each at a time) measured 1.06–1.27× slower. The reversed [32,64,64,32]
/// permutation (32 columns) takes 32 × 32 blocks, as the hand kernel does: on one thread as
/// fast as 64 × 32 (1.494 ms both, A/B over 6 alternating runs), on two threads 0.76 against
/// 0.94 ms.
pub(super) const ROWS: usize = 32;

/// The plan of a streamed transpose by whole lines: the partner leaf `b` (one destination
/// row per position of it), the run's leaves and positions, and the outer leaves.
pub(super) struct Lines {
    b: Mode<1>,
    run: Modes<1>,
    len: usize,
    rest: Modes<1>,
}

impl Lines {
    /// The line plan of the planned `modes` with partner leaf `k`, when the path streams
    /// 4-byte elements on AVX2, the source is contiguous along `b`, every destination row
    /// starts at the same place in a line (`dst` at a multiple of 4 bytes, rows a multiple
    /// of 64 bytes apart) and the run holds a group; `None` otherwise.
    pub(super) fn new<T>(modes: &[Mode<1>], k: usize, dst: &[T], path: Path<T>) -> Option<Lines> {
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
            return None;
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
            return None;
        }
        Some(Lines {
            b,
            run,
            len: len as usize,
            rest,
        })
    }

    /// Whether the copy is one block of rows (no outer leaves), the shape a parallel copy
    /// cuts by positions.
    #[cfg(feature = "parallel")]
    pub(super) fn single(&self) -> bool {
        self.rest.is_empty()
    }

    /// The whole copy from `src` at `so` to `dst` at `d_o`, on one thread.
    pub(super) fn copy<T: Copy>(
        &self,
        (src, so): (&[T], i64),
        (dst, d_o): (&mut [T], i64),
        path: Path<T>,
    ) {
        let mut buf = self.buffer(src[so as usize]);
        outer(&self.rest, d_o, [so], |d, [s]| {
            let mut rows = self.rows(&mut *dst, d);
            self.span(src, s, &mut rows, 0, &mut buf, path);
        });
    }

    /// The block buffer of one thread, filled with `x` (any element): room for the largest
    /// block, 32 × 128.
    pub(super) fn buffer<T: Copy>(&self, x: T) -> Vec<T> {
        vec![x; ROWS * COLS]
    }

    /// The destination rows of the block at `d`: row `c` is `dst[d + c·b.d ..]`, as many
    /// elements as the run has positions (rows do not overlap: `b.d` is at least that).
    /// Callers guarantee that every row lies inside `dst` (a validated placement).
    pub(super) fn rows<'a, T>(&self, dst: &'a mut [T], d: i64) -> Vec<&'a mut [T]> {
        let (n, ds) = (self.len, self.b.d as usize);
        dst[d as usize..]
            .chunks_mut(ds)
            .take(self.b.e as usize)
            .map(|row| &mut row[..n])
            .collect()
    }

    /// The source offsets `s + S(p)` of the run positions `p = from, from + 1, …`, one per
    /// element of `out`, where `S` is the run's source offset of a position (see
    /// [`Odometer`]).
    fn offsets(&self, s: i64, from: usize, out: &mut [usize]) {
        Odometer::new(&self.run, s, from).fill(out);
    }

    /// The positions `lo .. lo + rows[0].len()` of every destination row of the block whose
    /// source starts at `s`: `rows[c][p] = src[s + S(lo + p) + c]`.
    pub(super) fn span<T: Copy>(
        &self,
        src: &[T],
        s: i64,
        rows: &mut [&mut [T]],
        lo: usize,
        buf: &mut [T],
        path: Path<T>,
    ) {
        let Some(first) = rows.first() else {
            return;
        };
        let (n, cols) = (first.len(), rows.len());
        // Positions before the first line boundary of the rows (all rows alike: they lie a
        // multiple of 16 elements apart), whole groups, then the rest.
        let head = ((64 - first.as_ptr().addr() % 64) % 64 / 4).min(n);
        let wide = cols - cols % 8;
        let (from, to) = ((src, s), (&mut *rows, lo));
        let tail = self.groups::<T, ROWS>(from, to, head, wide, buf, path);
        // Ordinary stores: the columns past a multiple of 8 for the grouped positions, every
        // column for the positions outside groups (fewer than 16 before, fewer than a
        // group after).
        let (mut before, mut after) = ([0; 16], [0; ROWS]);
        let (before, after) = (&mut before[..head], &mut after[..n - tail]);
        self.offsets(s, lo, before);
        self.offsets(s, lo + tail, after);
        for (c, row) in rows.iter_mut().enumerate() {
            if c >= wide {
                let mut all = [0; ROWS];
                for p0 in (head..tail).step_by(ROWS) {
                    let all = &mut all[..(tail - p0).min(ROWS)];
                    self.offsets(s, lo + p0, all);
                    for (x, o) in row[p0..].iter_mut().zip(&*all) {
                        *x = src[o + c];
                    }
                }
            }
            for (x, o) in row[..head].iter_mut().zip(&*before) {
                *x = src[o + c];
            }
            for (x, o) in row[tail..].iter_mut().zip(&*after) {
                *x = src[o + c];
            }
        }
    }

    /// The whole groups of `R` positions from `head` on of the rows of [`span`](Self::span),
    /// their columns below `wide` in blocks of up to [`COLS`] by the vector kernel; the
    /// position after the last group.
    fn groups<T: Copy, const R: usize>(
        &self,
        (src, s): (&[T], i64),
        (rows, lo): (&mut [&mut [T]], usize),
        head: usize,
        wide: usize,
        buf: &mut [T],
        path: Path<T>,
    ) -> usize {
        let n = rows.first().map_or(0, |r| r.len());
        let groups = (n - head) / R;
        let mut rows = Rows::new(rows);
        let mut block = |p0: usize, group: &Group<R>| {
            for c0 in (0..wide).step_by(COLS) {
                let cols = c0..(c0 + COLS).min(wide);
                if !x86::try_rows((src, group), (&mut rows, cols.clone(), p0), buf, path) {
                    plain(src, group.offsets(), (&mut rows.rows[cols], p0));
                }
            }
        };
        let mut base = [0; R];
        match source_order(&self.run, R, lo + head, groups) {
            // Groups in the order that reads the source most nearly in sequence: each the
            // first group's offsets shifted.
            Some(leaves) => {
                self.offsets(s, lo + head, &mut base);
                let first = Group::new(base);
                outer(&leaves, 0, [0], |g, [shift]| {
                    let p0 = head + g as usize * R;
                    match first.shifted(shift) {
                        Some(group) => block(p0, &group),
                        None => {
                            self.offsets(s, lo + p0, &mut base);
                            block(p0, &Group::new(base));
                        }
                    }
                });
            }
            // Groups in the destination's order.
            None => {
                let mut odometer = Odometer::new(&self.run, s, lo + head);
                for g in 0..groups {
                    odometer.fill(&mut base);
                    block(head + g * R, &Group::new(base));
                }
            }
        }
        head + groups * R
    }
}

/// The order of a span's groups when every group holds the same pattern of source offsets
/// shifted by its own start (groups that start on a boundary of the run's leaves): the leaves
/// the groups step along (a leaf partly inside a group steps by the part) as [`outer`] walks
/// them, the smallest source step first, each with its extent in groups, its step in group
/// index (as `d`) and in source offset.
///
/// In the destination's order, the groups of the reversed [32,64,64,32] permutation step the
/// source by 8 KiB, so each group's source rows come from pages the hardware prefetchers have
/// not seen; stepping along the source's leaf of stride 32 instead reads each source page in
/// sequence, 128 bytes per group: 2.06 → 1.68 ms (A/B, 6 alternating runs; the hand kernel
/// in `benches/copy_avx` gains as much from the same order).
///
/// The groups are the `groups` groups of `r` positions from run position `from`; `None`
/// unless they are regular (`from` on a group boundary, each group made of whole leaves and
/// a dividing part of the next), fill whole steps of every leaf but the outermost, and are
/// visited in an order other than the destination's.
fn source_order(run: &[Mode<1>], r: usize, from: usize, groups: usize) -> Option<Modes<1>> {
    if !from.is_multiple_of(r) || groups == 0 {
        return None;
    }
    let (mut inside, mut leaves) = (1usize, Modes::<1>::new());
    let mut g = 1;
    for m in run {
        let e = m.e as usize;
        if leaves.is_empty() && inside * e <= r {
            inside *= e;
            continue;
        }
        // The part of the leaf inside a group: the rest of the first group, then 1.
        let part = if leaves.is_empty() {
            let part = r / inside;
            if !r.is_multiple_of(inside) || !e.is_multiple_of(part) {
                return None;
            }
            part
        } else {
            1
        };
        leaves.push(Mode {
            e: (e / part) as i64,
            d: g as i64,
            s: [m.s[0] * part as i64],
        });
        g *= e / part;
    }
    // The groups must fill whole steps of every leaf but the outermost: a box.
    let (last, inner) = leaves.split_last_mut()?;
    let whole: usize = inner.iter().map(|m| m.e as usize).product();
    if !(from / r).is_multiple_of(whole) || !groups.is_multiple_of(whole) {
        return None;
    }
    last.e = (groups / whole) as i64;
    leaves.sort_by_key(|m| m.s[0].unsigned_abs());
    // Still in the destination's order (group steps increasing): nothing to reorder.
    (!leaves.is_sorted_by_key(|m| m.d)).then_some(leaves)
}

/// [`x86::try_rows`] by plain loops (reached only if a block were out of range, which a
/// validated placement never is).
fn plain<T: Copy>(src: &[T], offs: &[usize], (rows, p): (&mut [&mut [T]], usize)) {
    for (c, row) in rows.iter_mut().enumerate() {
        for (r, &o) in offs.iter().enumerate() {
            row[p + r] = src[o + c];
        }
    }
}

/// The source offsets of one group's `R` positions with the least and greatest of them, so
/// that the vector kernel checks a group's reads once, not once per position.
pub(super) struct Group<const R: usize> {
    offs: [usize; R],
    lo: usize,
    hi: usize,
}

impl<const R: usize> Group<R> {
    fn new(offs: [usize; R]) -> Group<R> {
        let lo = offs.iter().copied().min().unwrap_or(0);
        let hi = offs.iter().copied().max().unwrap_or(0);
        Group { offs, lo, hi }
    }

    /// The same positions `by` further in the source; `None` if an offset would leave
    /// `usize` (never, for the groups of a validated placement).
    fn shifted(&self, by: i64) -> Option<Group<R>> {
        let (lo, hi) = (
            self.lo.checked_add_signed(by as isize)?,
            self.hi.checked_add_signed(by as isize)?,
        );
        let offs = std::array::from_fn(|r| self.offs[r].wrapping_add_signed(by as isize));
        Some(Group { offs, lo, hi })
    }

    /// The offsets, one per position.
    pub(super) fn offsets(&self) -> &[usize; R] {
        &self.offs
    }

    /// The greatest offset.
    pub(super) fn hi(&self) -> usize {
        self.hi
    }
}

/// The destination rows of a span, checked once for all its groups: the length every row
/// has (at least) and whether all rows start at the same place in a cache line (then one
/// row's alignment at a position is every row's). The rows are private and lent out only
/// as their elements ([`cols`](Self::cols)), so no row can be replaced by a shorter or
/// differently aligned one after the checks.
pub(super) struct Rows<'a, 'b, T> {
    rows: &'a mut [&'b mut [T]],
    len: usize,
    same_line: bool,
}

impl<'a, 'b, T> Rows<'a, 'b, T> {
    fn new(rows: &'a mut [&'b mut [T]]) -> Rows<'a, 'b, T> {
        let len = rows.iter().map(|r| r.len()).min().unwrap_or(0);
        let line = |r: &&mut [T]| r.as_ptr().addr() % 64;
        let first = rows.first().map(line);
        let same_line = rows.iter().all(|r| Some(line(r)) == first);
        Rows {
            rows,
            len,
            same_line,
        }
    }

    /// How many rows.
    pub(super) fn count(&self) -> usize {
        self.rows.len()
    }

    /// The elements of rows `cols` (which must lie below [`count`](Self::count)).
    pub(super) fn cols(&mut self, cols: Range<usize>) -> impl ExactSizeIterator<Item = &mut [T]> {
        self.rows[cols].iter_mut().map(|r| &mut **r)
    }

    /// Whether positions `p .. p + r` lie inside every row and start on a cache line in
    /// each.
    pub(super) fn lines_at(&self, p: usize, r: usize) -> bool {
        let Some(first) = self.rows.first() else {
            return false;
        };
        self.same_line
            && p.checked_add(r).is_some_and(|end| end <= self.len)
            && first.as_ptr().wrapping_add(p).addr().is_multiple_of(64)
    }
}

/// The source offsets of consecutive run positions, stepped as an odometer over the run's
/// leaves (innermost first): one division per leaf where it starts, then along the
/// innermost leaf a run of offsets `s0` apart per wrap, the outer leaves carried at each
/// wrap. No table: a table of every position's offset, 1 MiB for the [32,64,64,32]
/// permutation's rows, was written and read back on every copy; dividing afresh for every
/// group of positions was a third of that permutation's instructions (3.35M of 10.6M per
/// copy under callgrind; the odometer's fills are 1.5M).
struct Odometer<'a> {
    run: &'a [Mode<1>],
    /// The coordinate of the next position along each run leaf.
    at: SmallVec<[i64; 8]>,
    /// The next position's source offset.
    off: i64,
}

impl<'a> Odometer<'a> {
    /// At position `from` of the run `run` (non-empty), from the source offset `s`.
    fn new(run: &'a [Mode<1>], s: i64, from: usize) -> Odometer<'a> {
        let (mut q, mut off) = (from as i64, s);
        let mut at = SmallVec::new();
        for m in run {
            at.push(q % m.e);
            off += q % m.e * m.s[0];
            q /= m.e;
        }
        Odometer { run, at, off }
    }

    /// The offsets of the next `out.len()` positions.
    fn fill(&mut self, out: &mut [usize]) {
        let (first, outer) = (self.run[0], &self.run[1..]);
        let mut k = 0;
        while k < out.len() {
            // Along the innermost leaf up to its end (at least one position: at[0] < e).
            let n = ((first.e - self.at[0]) as usize).min(out.len() - k);
            let (off, step) = (self.off, first.s[0]);
            for (j, o) in out[k..k + n].iter_mut().enumerate() {
                *o = (off + j as i64 * step) as usize;
            }
            k += n;
            self.at[0] += n as i64;
            self.off += n as i64 * step;
            if self.at[0] < first.e {
                continue;
            }
            self.at[0] = 0;
            self.off -= first.e * step;
            for (c, m) in self.at[1..].iter_mut().zip(outer) {
                *c += 1;
                self.off += m.s[0];
                if *c < m.e {
                    break;
                }
                *c = 0;
                self.off -= m.e * m.s[0];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source order visits every group of its span once, each with its positions'
    /// offsets (the first group's shifted), and the leaf of the smallest source step
    /// innermost.
    #[test]
    fn the_source_order_visits_every_group_once_with_its_offsets_smallest_source_step_first()
    -> Result<(), &'static str> {
        let leaf = |e, s| Mode { e, d: 0, s: [s] };
        // The reversed [32,64,64,32] permutation's run: d, c, b with source strides
        // 131072, 2048, 32; groups of 64 positions hold all of d and two of c.
        let run = [leaf(32, 131072), leaf(64, 2048), leaf(64, 32)];
        let offsets_from = |from: usize| {
            let mut out = [0usize; 64];
            Odometer::new(&run, 7, from).fill(&mut out);
            out
        };
        for (from, groups) in [(0, 2048), (65536, 1024), (2048 * 4, 64)] {
            let leaves = source_order(&run, 64, from, groups).ok_or("no source order")?;
            let first = offsets_from(from);
            let mut seen = vec![false; groups];
            let mut order = Vec::new();
            outer(&leaves, 0, [0], |g, [shift]| {
                let g = g as usize;
                let want = offsets_from(from + 64 * g);
                let got: Vec<usize> = first.iter().map(|&o| (o as i64 + shift) as usize).collect();
                assert_eq!(got, want, "group {g} of the span from {from}");
                assert!(!std::mem::replace(&mut seen[g], true), "group {g} twice");
                order.push(g);
            });
            assert!(
                seen.iter().all(|&s| s),
                "every group of the span from {from}"
            );
            // Next after the first group: one step along b (32 groups of two c's further).
            assert_eq!(order[1], 32, "b innermost");
        }
        // Not regular: a span starting inside a group, a part of c that does not divide it,
        // a span that is not a box, a run already in source order.
        assert!(source_order(&run, 64, 32, 10).is_none());
        assert!(source_order(&[leaf(32, 131072), leaf(5, 2048), leaf(64, 32)], 64, 0, 2).is_none());
        assert!(source_order(&run, 64, 0, 33).is_none());
        assert!(source_order(&[leaf(32, 1), leaf(64, 32), leaf(64, 2048)], 64, 0, 2048).is_none());
        Ok(())
    }

    /// Consecutive fills of any lengths give every position's offset from its coordinates.
    #[test]
    fn the_odometer_gives_each_positions_offset_across_fills_of_any_length() {
        let leaf = |e, s| Mode { e, d: 0, s: [s] };
        let run = [leaf(3, 7), leaf(1, 1000), leaf(4, -50), leaf(2, 11)];
        let naive = |p: i64| {
            let (mut q, mut off) = (p, 500i64);
            for m in &run {
                off += q % m.e * m.s[0];
                q /= m.e;
            }
            off as usize
        };
        for from in [0usize, 1, 2, 5, 17] {
            let mut odometer = Odometer::new(&run, 500 + 200, from);
            let mut p = from as i64;
            for len in [1usize, 2, 3, 7, 0, 4, 1] {
                let mut out = vec![0; len];
                odometer.fill(&mut out);
                let want: Vec<usize> = (p..p + len as i64).map(|q| naive(q % 24) + 200).collect();
                assert_eq!(out, want, "from {from}, at {p}");
                p += len as i64;
            }
        }
    }
}
