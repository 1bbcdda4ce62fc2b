//! The copy engine: writes the elements of one strided placement into another of the same
//! shape, straight into the destination slice (no division per element, no gather of the
//! whole source).
//!
//! The leaves of both placements are planned jointly ([`plan`] in destination-stride order):
//! extent-1 leaves dropped, each leaf turned so that the destination steps forward, ordered
//! by the destination's strides, and neighbours merged where both sides step regularly
//! across them. The innermost leaf then picks the kernel: a contiguous run on both sides is
//! `copy_from_slice` (memcpy); a stride-0 source is `fill`; a source whose fastest leaf is
//! another one is copied through an L1-resident tile ([`tile`], transposing); anything else
//! is a strided loop ([`run`]).
//! Above [`parallel::MIN_BYTES`] the outermost leaf is split across rayon's pool (feature
//! `parallel`, on by default), or, when it is too short to split, the positions of a
//! streamed transpose's destination rows ([`lines`]); every element is still written once
//! from the same source element, so the result is bit-identical to the serial path.

mod lines;
mod parallel;
pub(crate) mod path;
mod run;
mod tile;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(not(target_arch = "x86_64"))]
#[path = "copy/none.rs"]
mod x86;

use super::plan::{Mode, Modes, Order, outer, plan, transposed_partner, without};
use path::{Isa, Path};

/// Copies `src[so + S(i)]` to `dst[do + D(i)]` for every `i` of the leaves `extents`, where
/// `S` and `D` have the strides `ss` and `ds` (depth-first leaves of one shape). Callers
/// guarantee that every index is inside its slice (validated placements); the source may
/// alias itself through stride 0. A non-injective `D` (which only `fill` passes) gets some
/// element of the source at each index it reaches.
pub(crate) fn copy<T: Copy + Send + Sync + 'static>(
    extents: &[i64],
    src: (&[T], i64, &[i64]),
    dst: (&mut [T], i64, &[i64]),
) {
    copy_on(Isa::detected(), extents, src, dst);
}

/// [`copy`] on the instruction set `isa` at most (the tests' way to run the portable path
/// on any machine).
pub(crate) fn copy_on<T: Copy + Send + Sync + 'static>(
    isa: Isa,
    extents: &[i64],
    (src, so, ss): (&[T], i64, &[i64]),
    (dst, d_o, ds): (&mut [T], i64, &[i64]),
) {
    let Some((modes, d_o, [so])) = plan(extents, (d_o, ds), [(so, ss)], Order::Strides) else {
        return;
    };
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>();
    let path = Path::new(isa, bytes);
    if let Some(k) = parallel::split_mode::<T>(&modes) {
        parallel::copy(&modes, k, (src, so), (dst, d_o), path);
        return;
    }
    if parallel::try_lines(&modes, (src, so), (dst, d_o), path) {
        return;
    }
    planned(&modes, (src, so), (dst, d_o), path);
}

/// A copy of one shape between fixed strides, planned once and run at many pairs of
/// offsets: the slices a gather picks, each at its own place in both slices. Turning a leaf
/// moves both offsets by a constant, so the plan made at offsets `(0, 0)` holds for every
/// pair once those constants are added. Serial (no split across threads), portable loops
/// (its runs are the short pieces a gather picks).
pub(crate) struct Planned {
    modes: Modes<1>,
    d_shift: i64,
    s_shift: i64,
}

impl Planned {
    /// The plan of the copies of the leaves `extents` from the source strides `ss` to the
    /// destination strides `ds`; `None` when the shape has no element.
    pub(crate) fn new(extents: &[i64], ss: &[i64], ds: &[i64]) -> Option<Planned> {
        let (modes, d_shift, [s_shift]) = plan(extents, (0, ds), [(0, ss)], Order::Strides)?;
        Some(Planned {
            modes,
            d_shift,
            s_shift,
        })
    }

    /// [`copy`] from `src` at `so` to `dst` at `d_o` along the planned strides. Callers
    /// guarantee that every index is inside its slice.
    #[inline]
    pub(crate) fn run<T: Copy>(&self, (src, so): (&[T], i64), (dst, d_o): (&mut [T], i64)) {
        if let [m] = self.modes[..]
            && m.d == 1
            && m.s[0] == 1
        {
            // One contiguous run (a picked row): `memcpy`, which for runs of a few KiB read
            // from scattered places measured faster than the engine's chunk loop.
            let (s, d, e) = (
                (so + self.s_shift) as usize,
                (d_o + self.d_shift) as usize,
                m.e as usize,
            );
            dst[d..d + e].copy_from_slice(&src[s..s + e]);
            return;
        }
        planned(
            &self.modes,
            (src, so + self.s_shift),
            (dst, d_o + self.d_shift),
            Path::portable(),
        );
    }
}

/// The serial engine on planned leaves (innermost first), on the kernels of `path`; a
/// streaming path ends with a store fence.
fn planned<T: Copy>(
    modes: &[Mode<1>],
    (src, so): (&[T], i64),
    (dst, d_o): (&mut [T], i64),
    path: Path<T>,
) {
    let Some(&inner) = modes.first() else {
        dst[d_o as usize] = src[so as usize];
        return;
    };
    if let Some(k) = transposed_partner::<T, 1>(modes) {
        if let Some(lines) = lines::Lines::new(modes, k, dst, path) {
            lines.copy((src, so), (dst, d_o), path);
            x86::fence();
            return;
        }
        let pair = modes[k];
        let mut buf = tile::Buffer::new(src[so as usize], inner, pair, path);
        outer(&without(modes, k), d_o, [so], |d, [s]| {
            buf.copy(src, s, dst, d, inner, pair);
        });
    } else {
        outer(&modes[1..], d_o, [so], |d, [s]| {
            run::run(src, s, dst, d, inner, path)
        });
    }
    if path.stream() {
        x86::fence();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transposed_square_is_copied_in_blocks() {
        let n = 70;
        let src: Vec<u32> = (0..n * n).collect();
        let mut dst = vec![0u32; (n * n) as usize];
        let e = [n as i64, n as i64];
        copy(&e, (&src, 0, &[n as i64, 1]), (&mut dst, 0, &[1, n as i64]));
        for i in 0..n {
            for j in 0..n {
                assert_eq!(dst[(i + j * n) as usize], j + i * n);
            }
        }
    }

    /// A transpose of `n × n` elements of `T` (made from their index by `of`), checked
    /// element by element.
    fn transposes<T: Copy + Send + Sync + PartialEq + std::fmt::Debug + 'static>(
        n: i64,
        of: fn(i64) -> T,
    ) {
        let src: Vec<T> = (0..n * n).map(of).collect();
        let mut dst = vec![of(-1); (n * n) as usize];
        copy(&[n, n], (&src, 0, &[n, 1]), (&mut dst, 0, &[1, n]));
        for i in 0..n {
            for j in 0..n {
                assert_eq!(
                    dst[(i + j * n) as usize],
                    of(j + i * n),
                    "n {n}, ({i}, {j})"
                );
            }
        }
    }

    #[test]
    fn every_block_width_transposes_exactly() {
        // Blocks of 256-byte rows: 64 u8/u16/u32, 32 u64, 16 u128, 8 of 32 bytes; sides
        // with whole blocks, one partial block and a side shorter than a block.
        for n in [5, 8, 16, 40, 64, 128, 130] {
            transposes(n, |k| k as u8);
            transposes(n, |k| k as u16);
            transposes(n, |k| k as u32);
            transposes(n, |k| k as u64);
            transposes(n, |k| k as u128);
            transposes(n, |k| [k as u64; 4]);
        }
    }

    /// Streamed permutations whose groups the line path visits in the source's order write
    /// what the portable path writes: the reversed [8,16,16,8] permutation into a destination
    /// on a cache line (each group of 32 positions holds 8 of one leaf and 4 of the next),
    /// and others whose groups are regular or not (a leaf the group's part does not divide),
    /// on a line or not (positions before the first line boundary).
    #[test]
    fn a_permutation_in_source_order_writes_what_the_portable_path_writes() {
        // (extents, the destination's leaf order fastest first, the destination's distance
        // from a line in elements); the source is compact, first leaf fastest.
        let cases: [([i64; 4], [usize; 4], usize); 6] = [
            ([8, 16, 16, 8], [3, 2, 1, 0], 0),
            ([8, 16, 16, 8], [3, 2, 1, 0], 3),
            ([16, 8, 12, 8], [3, 2, 1, 0], 0),
            ([8, 6, 16, 8], [3, 2, 1, 0], 0),
            ([16, 8, 8, 16], [3, 1, 2, 0], 0),
            ([8, 4, 32, 16], [2, 3, 1, 0], 0),
        ];
        for (e, order, off) in cases {
            let n: i64 = e.iter().product();
            let src: Vec<u32> = (0..n as u32)
                .map(|k| k.wrapping_mul(2_654_435_761))
                .collect();
            let ss = [1, e[0], e[0] * e[1], e[0] * e[1] * e[2]];
            let mut ds = [0i64; 4];
            let mut stride = 1;
            for &k in &order {
                ds[k] = stride;
                stride *= e[k];
            }
            // The destination's elements, and how many elements around them were written.
            let on = |path: Path<u32>| {
                let mut dst = vec![u32::MAX; n as usize + 32];
                let d_o = dst.as_ptr().align_offset(64) + off;
                let at = (d_o as i64, &ds[..]);
                if let Some((modes, d_o, [so])) = plan(&e, at, [(0, &ss)], Order::Strides) {
                    planned(&modes, (&src, so), (&mut dst, d_o), path);
                }
                let inside = dst[d_o..][..n as usize].to_vec();
                let around = dst[..d_o].iter().chain(&dst[d_o + n as usize..]);
                (inside, around.filter(|&&x| x != u32::MAX).count())
            };
            let want = on(Path::portable());
            assert!(want.0.iter().all(|&x| x != u32::MAX) && want.1 == 0);
            assert!(
                on(Path::new(Isa::Avx2, usize::MAX)) == want,
                "{e:?} {order:?} +{off}"
            );
        }
    }

    /// `planned` on `path` from `src` into a destination of `len` elements filled with
    /// `u32::MAX`.
    fn run_on(case: Case<'_>, src: &[u32], len: usize, path: Path<u32>) -> Vec<u32> {
        let (e, so, ss, d_o, ds) = case;
        let mut dst = vec![u32::MAX; len];
        if let Some((modes, d_o, [so])) = plan(e, (d_o, ds), [(so, ss)], Order::Strides) {
            planned(&modes, (src, so), (&mut dst, d_o), path);
        }
        dst
    }

    /// Extents, source offset and strides, destination offset and strides.
    type Case<'a> = (&'a [i64], i64, &'a [i64], i64, &'a [i64]);

    #[test]
    fn every_path_writes_what_the_portable_path_writes() {
        // (extents, source offset and strides, destination offset and strides): odd
        // transposes at unaligned offsets, step-2 rows with odd tails, broadcast rows, the
        // reversed permutation of a small rank-4 shape, a long contiguous run; transposes
        // into padded rows (16-element multiples: the whole-line path when streaming) with
        // odd column counts, more than 64 columns, more than one block of 128 columns and
        // several groups of positions.
        let cases: [Case<'_>; 12] = [
            (&[150, 21], 0, &[21, 1], 3, &[1, 160]),
            (&[256, 40], 1, &[40, 1], 0, &[1, 272]),
            (&[70, 130], 2, &[130, 1], 5, &[1, 80]),
            (&[67, 45], 3, &[1, 67], 1, &[45, 1]),
            (&[64, 64], 1, &[64, 1], 5, &[1, 64]),
            (&[130, 72], 0, &[72, 1], 2, &[1, 130]),
            (&[37, 9], 1, &[2, 160], 3, &[1, 37]),
            (&[41, 11], 0, &[1, 0], 7, &[1, 41]),
            (
                &[8, 16, 16, 8],
                0,
                &[2048, 128, 8, 1],
                1,
                &[1, 8, 128, 2048],
            ),
            (&[1001], 3, &[1], 1, &[1]),
            (&[96, 80], 0, &[160, 2], 0, &[1, 96]),
            (&[40, 200], 3, &[200, 1], 0, &[1, 48]),
        ];
        let src: Vec<u32> = (0..20_000u32)
            .map(|k| k.wrapping_mul(2_654_435_761))
            .collect();
        for case in cases {
            let want = run_on(case, &src, 17_000, Path::portable());
            for bytes in [0, usize::MAX] {
                let path = Path::new(Isa::Avx2, bytes);
                let got = run_on(case, &src, 17_000, path);
                assert!(got == want, "{case:?} on {path:?}");
            }
        }
    }
}
