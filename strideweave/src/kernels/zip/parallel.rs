//! Elementwise calls above [`MIN_BYTES`] split across rayon's thread pool (feature
//! `parallel`), as the copy engine's copies are (`kernels/copy/parallel.rs`).
//!
//! The outermost planned leaf (largest destination stride) is halved recursively with
//! `rayon::join` while a half still holds [`MIN_BYTES`] / 2 and [`MIN_EXTENT`] positions of
//! the leaf (halves aligned to whole tiles of the blocked kernel); the destination slice is
//! cut with `split_at_mut` at the first index of the upper half, which is sound only when
//! every index the inner leaves reach from one outer position stays below the next one
//! (`inner span < outer stride`): other plans stay serial. Each element is computed once,
//! from the same operand elements as on the serial path, and the path chosen by the caller
//! (unit, streaming) is passed to every half, so the result is bit-identical to one thread;
//! each half of a streaming call fences its own stores.

// Without `parallel` every call stays on one thread: the split rules still compile (and
// their tests run), but nothing calls them.
#![cfg_attr(not(feature = "parallel"), allow(dead_code))]

use super::super::plan::Mode;
use super::{Path, TILE};

/// The smallest destination (bytes written) split across threads: 1 MiB, as for copies.
pub(super) const MIN_BYTES: usize = 1 << 20;

/// The smallest extent a split leaves to each half of the split leaf: a whole tile of the
/// blocked kernel, which may tile this leaf.
const MIN_EXTENT: i64 = TILE;

/// Whether the planned `modes` (non-empty) split across threads.
pub(super) fn splits<T>(modes: &[Mode<2>]) -> bool {
    if !cfg!(feature = "parallel") || threads() < 2 {
        return false;
    }
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>();
    let Some((last, inner)) = modes.split_last() else {
        return false;
    };
    let span: i64 = inner.iter().map(|m| (m.e - 1) * m.d).sum();
    bytes >= MIN_BYTES && last.e >= 2 * MIN_EXTENT && last.d > 0 && span < last.d
}

#[cfg(feature = "parallel")]
fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(feature = "parallel"))]
fn threads() -> usize {
    1
}

/// The planned elementwise call of `modes` (see [`super::planned`]), its outermost leaf
/// split across threads while [`splits`] holds.
#[cfg(feature = "parallel")]
pub(super) fn zip<A, B, T, F>(
    modes: &[Mode<2>],
    path: Path<T>,
    (a, ao): (&[A], i64),
    (b, bo): (&[B], i64),
    (dst, d_o): (&mut [T], i64),
    f: &F,
) where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    T: Copy + Send,
    F: Fn(A, B) -> T + Sync,
{
    if !splits::<T>(modes) {
        super::planned(modes, path, (a, ao), (b, bo), (dst, d_o), f);
        return;
    }
    let k = modes.len() - 1;
    let m = modes[k];
    let mut h = m.e / 2;
    if h >= TILE {
        h -= h % TILE;
    }
    let (lo, hi) = dst.split_at_mut((d_o + h * m.d) as usize);
    let mut low: super::super::plan::Modes<2> = modes.into();
    let mut high = low.clone();
    (low[k].e, high[k].e) = (h, m.e - h);
    let (a_hi, b_hi) = (ao + h * m.s[0], bo + h * m.s[1]);
    rayon::join(
        || zip(&low, path, (a, ao), (b, bo), (lo, d_o), f),
        || zip(&high, path, (a, a_hi), (b, b_hi), (hi, 0), f),
    );
}

#[cfg(not(feature = "parallel"))]
pub(super) fn zip<A, B, T, F>(
    modes: &[Mode<2>],
    path: Path<T>,
    a: (&[A], i64),
    b: (&[B], i64),
    dst: (&mut [T], i64),
    f: &F,
) where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    T: Copy + Send,
    F: Fn(A, B) -> T + Sync,
{
    super::planned(modes, path, a, b, dst, f);
}

#[cfg(test)]
mod tests {
    use super::super::super::plan::{Order, plan};
    use super::super::{Isa, planned, simd, zip as engine};
    use super::*;

    /// The engine (split above 1 MiB with the feature and several threads) writes the bits
    /// the serial path writes: a compact sum, a transposed operand (halves aligned to
    /// tiles), a broadcast row, an odd outer extent; on every unit.
    #[test]
    fn a_split_elementwise_call_equals_the_serial_one_bit_for_bit() {
        let (r, c) = (613i64, 517i64); // 1.27 MB of f32
        let n = (r * c) as usize;
        let a: Vec<f32> = (0..n).map(|k| (k as f32).sqrt() * 1.37 - 3.0).collect();
        let b: Vec<f32> = (0..n).map(|k| (k % 97) as f32 * 0.3 + 1e-7).collect();
        let cases: [(&[i64], &[i64]); 3] =
            [(&[1, r], &[1, r]), (&[1, r], &[c, 1]), (&[1, r], &[1, 0])];
        let ds = [1, r];
        for (a_s, b_s) in cases {
            let sides = [(0, a_s), (0, b_s)];
            let (modes, ..) = plan(&[r, c], (0, &ds), sides, Order::Strides).unwrap();
            let want = cfg!(feature = "parallel") && threads() > 1;
            assert_eq!(splits::<f32>(&modes), want, "{a_s:?} {b_s:?}");
            for isa in [Isa::Portable, simd::detected()] {
                let (mut par, mut ser) = (vec![0f32; n], vec![0f32; n]);
                let path = simd::with_isa(isa, || Path::new(n * 4));
                simd::with_isa(isa, || {
                    engine(
                        &[r, c],
                        (&a, 0, a_s),
                        (&b, 0, b_s),
                        (&mut par, 0, &ds),
                        |p, q| p * q + p,
                    );
                });
                planned(
                    &modes,
                    path,
                    (&a, 0),
                    (&b, 0),
                    (&mut ser, 0),
                    &|p: f32, q: f32| p * q + p,
                );
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert!(bits(&par) == bits(&ser), "{isa:?} {a_s:?} {b_s:?}");
            }
        }
    }

    #[test]
    fn a_small_or_interleaved_call_stays_on_one_thread() {
        let m = |e, d| Mode { e, d, s: [1, 1] };
        assert!(!splits::<f32>(&[m(1000, 1)]), "small");
        assert!(!splits::<f64>(&[m(1024, 2), m(1024, 3)]), "interleaved");
        assert!(!splits::<f64>(&[m(1 << 20, 0)]), "aliasing");
    }
}
