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
//! `parallel`, on by default); every element is still written once from the same source
//! element, so the result is bit-identical to the serial path.

mod parallel;
mod run;
mod tile;

use super::plan::{Mode, Modes, Order, outer, plan, transposed_partner, without};

/// Copies `src[so + S(i)]` to `dst[do + D(i)]` for every `i` of the leaves `extents`, where
/// `S` and `D` have the strides `ss` and `ds` (depth-first leaves of one shape). Callers
/// guarantee that every index is inside its slice (validated placements); the source may
/// alias itself through stride 0. A non-injective `D` (which only `fill` passes) gets some
/// element of the source at each index it reaches.
pub(crate) fn copy<T: Copy + Send + Sync>(
    extents: &[i64],
    (src, so, ss): (&[T], i64, &[i64]),
    (dst, d_o, ds): (&mut [T], i64, &[i64]),
) {
    let Some((modes, d_o, [so])) = plan(extents, (d_o, ds), [(so, ss)], Order::Strides) else {
        return;
    };
    if let Some(k) = parallel::split_mode::<T>(&modes) {
        parallel::copy(&modes, k, (src, so), (dst, d_o));
        return;
    }
    planned(&modes, (src, so), (dst, d_o));
}

/// A copy of one shape between fixed strides, planned once and run at many pairs of
/// offsets: the slices a gather picks, each at its own place in both slices. Turning a leaf
/// moves both offsets by a constant, so the plan made at offsets `(0, 0)` holds for every
/// pair once those constants are added. Serial (no split across threads).
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
        );
    }
}

/// The serial engine on planned leaves (innermost first).
fn planned<T: Copy>(modes: &[Mode<1>], (src, so): (&[T], i64), (dst, d_o): (&mut [T], i64)) {
    let Some(&inner) = modes.first() else {
        dst[d_o as usize] = src[so as usize];
        return;
    };
    if let Some(k) = transposed_partner::<T, 1>(modes) {
        let pair = modes[k];
        let mut buf = tile::Buffer::new(src[so as usize], inner, pair);
        outer(&without(modes, k), d_o, [so], |d, [s]| {
            buf.copy(src, s, dst, d, inner, pair);
        });
        return;
    }
    outer(&modes[1..], d_o, [so], |d, [s]| {
        run::run(src, s, dst, d, inner)
    });
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
    fn transposes<T: Copy + Send + Sync + PartialEq + std::fmt::Debug>(n: i64, of: fn(i64) -> T) {
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
}
