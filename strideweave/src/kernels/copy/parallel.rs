//! Copies above [`MIN_BYTES`] split across rayon's thread pool (feature `parallel`).
//!
//! A streamed transpose by whole lines whose outermost leaf is too short to halve is cut
//! instead along its destination rows ([`try_lines`]): each thread writes a line-aligned
//! span of positions of every row (the rows as separate slices, cut with `split_at_mut`).
//!
//! The outermost planned leaf (largest destination stride) is cut with `rayon::join` into
//! one contiguous share per thread, while a share still holds [`MIN_BYTES`] / 2 and
//! [`MIN_EXTENT`] positions of the leaf (cuts aligned to whole transpose blocks where the
//! leaf is long); the destination slice is cut with `split_at_mut` at the first index of
//! the upper share. That cut is sound only when every index the inner leaves reach from one
//! outer position stays below the next outer position (`inner span < outer stride`); other
//! plans (interleaved or aliasing destinations) stay serial. Each element is copied once, from the same source element as
//! in the serial path, so the result is bit-identical.

#[cfg(feature = "parallel")]
use super::lines::{Lines, ROWS};
use super::path::Path;
use crate::kernels::plan::Mode;
#[cfg(feature = "parallel")]
use crate::kernels::plan::transposed_partner;

/// The smallest copy (bytes written) split across threads: 1 MiB. A fork/join costs some
/// microseconds; 1 MiB takes ~100 µs at memory speed, so the split pays from there on, and
/// a copy that fits in L2 (≤ 1 MiB on this machine) is better left on one core.
pub(super) const MIN_BYTES: usize = 1 << 20;

/// The smallest extent a split leaves to each half of the split leaf: it may be the partner
/// of a blocked transpose, whose blocks need their width (halving the [32,64,64,32]
/// permutation's 32-wide partner into 16s measured slower on two threads than one thread
/// with whole blocks; halving it down to 1 would turn the transpose into a strided loop).
const MIN_EXTENT: i64 = 32;

/// The leaf to split for a parallel copy of the planned `modes`, or `None` for the serial
/// path (small copy, one thread, feature off, or a destination that cannot be cut).
pub(super) fn split_mode<T>(modes: &[Mode<1>]) -> Option<usize> {
    if !cfg!(feature = "parallel") || threads() < 2 {
        return None;
    }
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>();
    let k = modes.len().checked_sub(1)?;
    let last = modes[k];
    let span: i64 = modes[..k].iter().map(|m| (m.e - 1) * m.d).sum();
    let splits = bytes >= MIN_BYTES && last.e >= 2 * MIN_EXTENT;
    (splits && last.d > 0 && span < last.d).then_some(k)
}

#[cfg(feature = "parallel")]
fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(feature = "parallel"))]
fn threads() -> usize {
    1
}

/// The copy of `modes` with leaf `k` (the outermost) split across threads.
#[cfg(feature = "parallel")]
pub(super) fn copy<T: Copy + Send + Sync>(
    modes: &[Mode<1>],
    k: usize,
    src: (&[T], i64),
    dst: (&mut [T], i64),
    path: Path<T>,
) {
    parts(modes, k, src, dst, path, threads());
}

/// [`copy`] in `n` parts (one per thread), each a contiguous share of the leaf `k`. Not
/// finer: cut down to 1 MiB pieces (64 for a 4096² transpose), a streamed transpose read its
/// source in narrow strips across every row instead of each thread sweeping whole half
/// rows, which measured slower on two threads than on one.
#[cfg(feature = "parallel")]
fn parts<T: Copy + Send + Sync>(
    modes: &[Mode<1>],
    k: usize,
    (src, so): (&[T], i64),
    (dst, d_o): (&mut [T], i64),
    path: Path<T>,
    n: usize,
) {
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>();
    let m = modes[k];
    if n < 2 || bytes < MIN_BYTES || m.e < 2 * MIN_EXTENT {
        super::planned(modes, (src, so), (dst, d_o), path);
        return;
    }
    let mut h = m.e * (n / 2) as i64 / n as i64;
    if h >= super::tile::ALIGN {
        h -= h % super::tile::ALIGN;
    }
    let (lo, hi) = dst.split_at_mut((d_o + h * m.d) as usize);
    let mut low: crate::kernels::plan::Modes<1> = modes.into();
    let mut high = low.clone();
    (low[k].e, high[k].e) = (h, m.e - h);
    rayon::join(
        || parts(&low, k, (src, so), (lo, d_o), path, n / 2),
        || parts(&high, k, (src, so + h * m.s[0]), (hi, 0), path, n - n / 2),
    );
}

/// The copy of `modes` as a streamed transpose by whole lines ([`Lines`]) whose rows are
/// cut by positions across threads, when the copy writes [`MIN_BYTES`] or more, the pool
/// has two threads or more and the line path takes the whole copy (one block of rows);
/// `false` (nothing written) otherwise. Used when the outermost leaf is too short to split
/// ([`split_mode`]): the reversed [32,64,64,32] permutation's partner leaf has 32 positions,
/// its rows 131072.
#[cfg(feature = "parallel")]
pub(super) fn try_lines<T: Copy + Send + Sync>(
    modes: &[Mode<1>],
    (src, so): (&[T], i64),
    (dst, d_o): (&mut [T], i64),
    path: Path<T>,
) -> bool {
    let bytes = modes.iter().map(|m| m.e as usize).product::<usize>() * size_of::<T>();
    if threads() < 2 || bytes < MIN_BYTES {
        return false;
    }
    let Some(k) = transposed_partner::<T, 1>(modes) else {
        return false;
    };
    let Some(lines) = Lines::new(modes, k, dst, path) else {
        return false;
    };
    if !lines.single() {
        return false;
    }
    let rows = lines.rows(dst, d_o);
    by_positions(&lines, (src, so), rows, 0, path, threads());
    true
}

#[cfg(not(feature = "parallel"))]
pub(super) fn try_lines<T: Copy>(
    _: &[Mode<1>],
    _: (&[T], i64),
    _: (&mut [T], i64),
    _: Path<T>,
) -> bool {
    false
}

/// The positions `lo ..` of the destination `rows` of `lines` in `parts` shares (one per
/// thread), halved with `rayon::join` while a half still writes [`MIN_BYTES`] / 2; each
/// half starts on a line boundary of the rows (a multiple of [`ROWS`] positions past the
/// first), so every thread streams whole lines and fences its own stores.
#[cfg(feature = "parallel")]
fn by_positions<T: Copy + Send + Sync>(
    lines: &Lines,
    (src, so): (&[T], i64),
    mut rows: Vec<&mut [T]>,
    lo: usize,
    path: Path<T>,
    parts: usize,
) {
    let n = rows.first().map_or(0, |r| r.len());
    let bytes = n * rows.len() * size_of::<T>();
    let head = rows.first().map_or(0, |r| {
        (64 - r.as_ptr().addr() % 64) % 64 / size_of::<T>().max(1)
    });
    let share = n.saturating_sub(head) * (parts / 2) / parts.max(1);
    let mid = head + share / ROWS * ROWS;
    if parts >= 2 && bytes >= MIN_BYTES && mid > 0 && mid < n {
        let (low, high): (Vec<_>, Vec<_>) = rows.into_iter().map(|r| r.split_at_mut(mid)).unzip();
        rayon::join(
            || by_positions(lines, (src, so), low, lo, path, parts / 2),
            || by_positions(lines, (src, so), high, lo + mid, path, parts - parts / 2),
        );
        return;
    }
    let Some(&x) = src.get(so as usize) else {
        return;
    };
    let mut buf = lines.buffer(x);
    lines.span(src, so, &mut rows, lo, &mut buf, path);
    super::x86::fence();
}

#[cfg(not(feature = "parallel"))]
pub(super) fn copy<T: Copy>(
    modes: &[Mode<1>],
    _: usize,
    src: (&[T], i64),
    dst: (&mut [T], i64),
    path: Path<T>,
) {
    super::planned(modes, src, dst, path);
}

#[cfg(test)]
mod tests {
    use super::super::path::Isa;
    use super::super::{copy as engine, planned};
    use super::*;
    use crate::kernels::plan::{Order, plan};
    use proptest::prelude::*;

    /// Compact strides of `extents` in the order `keys`, with signs `flips`.
    fn permuted(extents: &[i64], keys: &[u8], flips: &[bool]) -> (Vec<i64>, i64) {
        let mut order: Vec<usize> = (0..extents.len()).collect();
        order.sort_by_key(|&j| (keys[j], j));
        let (mut out, mut acc, mut offset) = (vec![0; extents.len()], 1, 0);
        for j in order {
            out[j] = if flips[j] { -acc } else { acc };
            if flips[j] {
                offset += acc * (extents[j] - 1);
            }
            acc *= extents[j];
        }
        (out, offset)
    }

    #[test]
    fn a_large_compact_copy_is_split_only_with_the_feature_and_several_threads() {
        let modes = [Mode {
            e: 1 << 20,
            d: 1,
            s: [1],
        }];
        let want = cfg!(feature = "parallel") && threads() > 1;
        assert_eq!(split_mode::<f32>(&modes).is_some(), want);
        assert_eq!(
            split_mode::<f32>(&[Mode {
                e: 1000,
                d: 1,
                s: [1]
            }]),
            None,
            "small"
        );
    }

    #[test]
    fn an_interleaved_or_aliasing_destination_is_never_split() {
        let interleaved = [
            Mode {
                e: 1024,
                d: 2,
                s: [1],
            },
            Mode {
                e: 1024,
                d: 3,
                s: [1024],
            },
        ];
        assert_eq!(split_mode::<f64>(&interleaved), None);
        let aliasing = [Mode {
            e: 1 << 20,
            d: 0,
            s: [1],
        }];
        assert_eq!(split_mode::<f64>(&aliasing), None);
    }

    #[test]
    fn a_split_transpose_equals_the_serial_one() {
        let n = 1024i64;
        let src: Vec<u32> = (0..(n * n) as u32).collect();
        let (mut par, mut ser) = (vec![0u32; src.len()], vec![0u32; src.len()]);
        let (e, ss, ds) = ([n, n], [n, 1], [1, n]);
        let (modes, ..) = plan(&e, (0, &ds), [(0, &ss)], Order::Strides).unwrap();
        let want = cfg!(feature = "parallel") && threads() > 1;
        assert_eq!(split_mode::<u32>(&modes), want.then_some(1));
        engine(&e, (&src, 0, &ss), (&mut par, 0, &ds));
        planned(&modes, (&src, 0), (&mut ser, 0), Path::portable());
        assert!(par == ser);
        assert_eq!(par[(3 + 5 * n) as usize], (5 + 3 * n) as u32);
    }

    #[test]
    fn a_streamed_permutation_split_by_positions_equals_the_serial_one() {
        // The reversed [16,32,32,32] permutation of u32 (2 MiB): its partner leaf (32) is too
        // short to split, so the pool's threads cut its destination rows by positions (one
        // line-aligned share each), into a destination one element past a line (a head of
        // 15 positions before the first line-aligned group).
        let e = [16i64, 32, 32, 32];
        let (ss, ds) = (
            [32 * 32 * 32, 32 * 32, 32, 1],
            [1, 16, 16 * 32, 16 * 32 * 32],
        );
        let n = e.iter().product::<i64>() as usize;
        let src: Vec<u32> = (0..n as u32)
            .map(|k| k.wrapping_mul(2_654_435_761))
            .collect();
        let (modes, d_o, [so]) = plan(&e, (1, &ds), [(0, &ss)], Order::Strides).unwrap();
        assert_eq!(
            split_mode::<u32>(&modes),
            None,
            "the outer leaf has 32 positions"
        );
        let mut ser = vec![u32::MAX; n + 32];
        planned(&modes, (&src, so), (&mut ser, d_o), Path::portable());
        // A destination whose element 1 starts a line: an aligned buffer, one element in.
        let mut par = vec![u32::MAX; n + 64];
        let at = par.as_ptr().align_offset(64) + 15;
        let par = &mut par[at..at + n + 32];
        let path = Path::new(Isa::Avx2, usize::MAX);
        let split = try_lines(&modes, (&src, so), (&mut *par, d_o), path);
        let want = cfg!(feature = "parallel") && threads() > 1 && path.isa() == Isa::Avx2;
        assert_eq!(split, want);
        if split {
            assert!(*par == *ser);
            assert_eq!(
                par[1 + 3 + 16 * (5 + 32 * (7 + 32 * 11))],
                src[11 + 32 * (7 + 32 * (5 + 32 * 3))]
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// The engine (parallel above 1 MiB with the feature) writes exactly what the
        /// serial path writes, for permuted, reversed and padded layouts up to 2²¹ `u32`s.
        #[test]
        fn the_parallel_copy_equals_the_serial_copy(
            extents in prop::collection::vec(prop_oneof![1i64..=9, 30i64..=70, 200i64..=700], 2..=4)
                .prop_filter("64 Ki to 2 Mi elements", |e| {
                    let n: i64 = e.iter().product();
                    (1 << 16..=1 << 21).contains(&n)
                }),
            keys in prop::collection::vec((0u8..4, 0u8..4), 4),
            flips in prop::collection::vec((any::<bool>(), any::<bool>()), 4),
            pad in 0i64..5,
        ) {
            let n: i64 = extents.iter().product();
            let r = extents.len();
            let (ks, kd): (Vec<u8>, Vec<u8>) = keys[..r].iter().copied().unzip();
            let (fs, fd): (Vec<bool>, Vec<bool>) = flips[..r].iter().copied().unzip();
            let (ss, so) = permuted(&extents, &ks, &fs);
            let (ds, d_o) = permuted(&extents, &kd, &fd);
            let src: Vec<u32> = (0..(n + pad) as u32).collect();
            let mut par = vec![u32::MAX; (n + pad) as usize];
            let mut ser = par.clone();
            engine(&extents, (&src, so + pad, &ss), (&mut par, d_o + pad, &ds));
            let (modes, d_o, [so]) = plan(&extents, (d_o + pad, &ds), [(so + pad, &ss)], Order::Strides).unwrap();
            planned(&modes, (&src, so), (&mut ser, d_o), Path::portable());
            prop_assert!(par == ser);
            prop_assert!(par[..pad as usize].iter().all(|&x| x == u32::MAX));
        }
    }
}
