//! Reductions above [`MIN_BYTES`] read split across rayon's thread pool (feature
//! `parallel`), over outputs only.
//!
//! A float sum split into blocks whose partial sums are added afterwards would not keep the
//! serial order of its terms, so nothing splits the reduced leaves: the kept leaf with the
//! largest output stride is halved recursively with `rayon::join` (each half then holds its
//! own outputs, each output all of its terms, added in the serial order), and the output
//! slice is cut with `split_at_mut` at the first output of the upper half. That cut is
//! sound only when every output the other kept leaves reach from one position stays below
//! the next position (`span < stride`); other plans, and full reductions (one output), stay
//! on one thread. The result is bit-identical to one thread.

// Without `parallel` every call stays on one thread: the split rules still compile (and
// their tests run), but nothing calls them.
#![cfg_attr(not(feature = "parallel"), allow(dead_code))]

use super::super::plan::Mode;

/// The smallest reduction (bytes read) split across threads: 1 MiB, as for copies.
const MIN_BYTES: usize = 1 << 20;

/// The fewest positions a split leaves to each half of a unit-stride innermost leaf: one
/// 64-byte line of `f32`, so the vectorised run over consecutive outputs keeps its width.
const MIN_UNIT_RUN: i64 = 16;

/// The kept leaf to split for the planned `modes`, or `None` for one thread.
pub(super) fn split_mode<A>(modes: &[Mode<1>]) -> Option<usize> {
    if !cfg!(feature = "parallel") || threads() < 2 {
        return None;
    }
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<A>();
    let (k, m) = modes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.d > 0)
        .max_by_key(|(_, m)| m.d)?;
    let span: i64 = (modes.iter().enumerate())
        .filter(|&(j, m)| j != k && m.d > 0)
        .map(|(_, m)| (m.e - 1) * m.d)
        .sum();
    let least = if k == 0 && m.d == 1 { MIN_UNIT_RUN } else { 1 };
    (bytes >= MIN_BYTES && m.e >= 2 * least && span < m.d).then_some(k)
}

#[cfg(feature = "parallel")]
fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(feature = "parallel"))]
fn threads() -> usize {
    1
}

/// The fold of the planned `modes` (see [`super::folded`]), over outputs split across
/// threads while [`split_mode`] finds a leaf.
#[cfg(feature = "parallel")]
pub(super) fn fold<T, A, F>(
    modes: &[Mode<1>],
    (x, xo): (&[A], i64),
    (acc, ao): (&mut [T], i64),
    f: &F,
) where
    T: Copy + Send,
    A: Copy + Sync,
    F: Fn(T, A) -> T + Sync,
{
    let Some(k) = split_mode::<A>(modes) else {
        super::folded(modes, (x, xo), (acc, ao), f);
        return;
    };
    let m = modes[k];
    let h = m.e / 2;
    let (lo, hi) = acc.split_at_mut((ao + h * m.d) as usize);
    let mut low: super::super::plan::Modes<1> = modes.into();
    let mut high = low.clone();
    (low[k].e, high[k].e) = (h, m.e - h);
    rayon::join(
        || fold(&low, (x, xo), (lo, ao), f),
        || fold(&high, (x, xo + h * m.s[0]), (hi, 0), f),
    );
}

#[cfg(not(feature = "parallel"))]
pub(super) fn fold<T, A, F>(modes: &[Mode<1>], x: (&[A], i64), acc: (&mut [T], i64), f: &F)
where
    T: Copy + Send,
    A: Copy + Sync,
    F: Fn(T, A) -> T + Sync,
{
    super::folded(modes, x, acc, f);
}

#[cfg(test)]
mod tests {
    use super::super::super::plan::{Order, plan};
    use super::super::fold as engine;
    use super::*;

    /// A sum split over outputs equals the serial sum bit for bit: over the slow mode (a
    /// unit-stride kept leaf split in halves of whole lines), over the fast mode (a kept
    /// outer leaf), and over the middle of three; a full sum is never split.
    #[test]
    fn a_split_reduction_equals_the_serial_one_bit_for_bit() {
        let (p, q, r) = (48i64, 37i64, 211i64); // 1.5 MB of f32
        let n = (p * q * r) as usize;
        let x: Vec<f32> = (0..n)
            .map(|k| ((k * 7919) % 1000) as f32 * 0.001 - 0.3)
            .collect();
        let xs = [1, p, p * q];
        let cases: [&[i64]; 3] = [&[1, 0, 0], &[0, 0, 1], &[1, 0, p]];
        for gs in cases {
            let outs = (gs.iter().zip([p, q, r]).filter(|(g, _)| **g != 0))
                .map(|(_, e)| e)
                .product::<i64>();
            let (modes, ..) = plan(&[p, q, r], (0, gs), [(0, &xs[..])], Order::Turned).unwrap();
            let want = cfg!(feature = "parallel") && threads() > 1;
            assert_eq!(split_mode::<f32>(&modes).is_some(), want, "{gs:?}");
            let mut par = vec![0f32; outs as usize];
            engine(&[p, q, r], (&x, 0, &xs), (&mut par, 0, gs), |a, v| a + v);
            let mut naive = vec![0f32; outs as usize];
            for (i, &v) in x.iter().enumerate() {
                let (i0, i1, i2) = (i as i64 % p, i as i64 / p % q, i as i64 / (p * q));
                let o = (i0 * gs[0] + i1 * gs[1] + i2 * gs[2]) as usize;
                naive[o] += v;
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(bits(&par) == bits(&naive), "{gs:?}");
        }
        let full = [Mode {
            e: 1 << 20,
            d: 0,
            s: [1],
        }];
        assert_eq!(split_mode::<f32>(&full), None, "one output");
    }
}
