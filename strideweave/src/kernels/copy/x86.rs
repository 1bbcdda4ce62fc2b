//! The AVX2 kernels of the copy engine (x86-64): contiguous runs with 32-byte moves or
//! streaming stores, 4-byte elements at step 2 by an even-lane shuffle, and square blocks
//! of 4-byte elements transposed 8×8 in registers.
//!
//! Each `try_*` function does its work and returns `true` only on a [`Path`] on
//! [`Isa::Avx2`] — which [`Path::new`] makes only after AVX2 was detected and for
//! [`plain`](super::path::plain) element types — and after checking that every index it
//! touches is inside its slices; otherwise it returns `false` and the caller runs the
//! portable loop. Vector loads, shuffles and stores move bits unchanged (no arithmetic, no
//! NaN canonicalised), so every path writes the same bits.

use std::arch::x86_64::*;
use std::ops::Range;
use std::ptr;

use super::lines::{Group, Rows};
use super::path::{Isa, Path};
use super::run::forward;
use crate::kernels::lanes::transpose8;

/// `out.copy_from_slice(from)` (equal lengths) with AVX2 moves, streaming when the path
/// streams.
#[inline]
pub(super) fn try_contiguous<T: Copy>(out: &mut [T], from: &[T], path: Path<T>) -> bool {
    if path.isa() != Isa::Avx2 || out.len() != from.len() {
        return false;
    }
    if path.stream() {
        // SAFETY: an AVX2 path proves AVX2 present and `T` plain (all bytes initialised);
        // both ranges are the whole of their slices (`size_of_val` bytes each, equal), and
        // a shared and an exclusive borrow never overlap.
        #[allow(unsafe_code)]
        unsafe {
            stream_bytes(
                out.as_mut_ptr().cast(),
                from.as_ptr().cast(),
                size_of_val(out),
            );
        }
    } else {
        // SAFETY: an AVX2 path proves AVX2 present (the only requirement of a safe
        // `#[target_feature]` function).
        #[allow(unsafe_code)]
        unsafe {
            forward_avx2(out, from);
        }
    }
    true
}

/// [`forward`] compiled for AVX2: the compiler's vector moves become 32 bytes wide.
#[target_feature(enable = "avx2")]
fn forward_avx2<T: Copy>(out: &mut [T], from: &[T]) {
    forward(out, from);
}

/// `out[k] = from[2k]` for 4-byte `T`, where `from` ends at the last element read
/// (`from.len() == 2·out.len() − 1`).
#[inline]
pub(super) fn try_step2<T: Copy>(out: &mut [T], from: &[T], path: Path<T>) -> bool {
    let e = out.len();
    if path.isa() != Isa::Avx2 || size_of::<T>() != 4 || e == 0 || from.len() < 2 * e - 1 {
        return false;
    }
    // Streaming needs the destination at a multiple of 4 bytes to reach 32-byte alignment.
    let stream = path.stream() && out.as_ptr().addr().is_multiple_of(4);
    // SAFETY: an AVX2 path proves AVX2 present and `T` plain; `T` is 4 bytes wide, so the
    // lanes of `f32` carry its bits; `gather2` writes `out[..e]` and reads `from[2k]` for
    // k < e (inside `from`, checked above) and pairs `from[2k..2k + 16]` only while they
    // lie inside `from.len()`; the slices do not overlap (shared and exclusive borrows).
    #[allow(unsafe_code)]
    unsafe {
        gather2(
            out.as_mut_ptr().cast(),
            from.as_ptr().cast(),
            e,
            from.len(),
            stream,
        );
    }
    true
}

/// One full `W × W` block of 4-byte `T`s: `dst[d + c·ds + r] = src[s + r·rs + c]`, through
/// `buf` (8×8 register transposes into it, its rows then written out whole).
#[inline]
pub(super) fn try_square<T: Copy, const W: usize>(
    (src, s, rs, dst, d, ds): super::tile::Square<'_, T>,
    buf: &mut [T],
    path: Path<T>,
) -> bool {
    let fits = |at: usize, step: usize, len: usize| {
        (W - 1)
            .checked_mul(step)
            .and_then(|x| x.checked_add(at))
            .and_then(|x| x.checked_add(W))
            .is_some_and(|end| end <= len)
    };
    if path.isa() != Isa::Avx2
        || size_of::<T>() != 4
        || !W.is_multiple_of(8)
        || buf.len() < W * W
        || !fits(s, rs, src.len())
        || !fits(d, ds, dst.len())
    {
        return false;
    }
    // SAFETY: an AVX2 path proves AVX2 present and `T` plain; `T` is 4 bytes wide, so the
    // lanes of `f32` carry its bits; `square4` reads `src[s + r·rs + c]` and writes
    // `dst[d + c·ds + r]` for r, c < W, the last of each inside its slice (`fits`), and
    // uses `buf[..W·W]` (checked); `buf` is a third, separate slice.
    #[allow(unsafe_code)]
    unsafe {
        square4::<W>(
            src.as_ptr().add(s).cast(),
            rs,
            dst.as_mut_ptr().add(d).cast(),
            ds,
            buf.as_mut_ptr().cast(),
            path.stream(),
        );
    }
    true
}

/// The most columns (destination rows) of one block of [`try_rows`].
pub(super) const COLS: usize = 128;

/// One group of a streamed transpose of 4-byte `T`s: `rows[c][p + r] = src[offs[r] + c]`
/// for r < `R` (a multiple of 8; the line path chooses it) and c in `cols` (a multiple of 8
/// long, at most [`COLS`]), through `buf` (8×8 register transposes into it), each of its
/// rows streamed out as whole lines. Every destination row must reach `p + R` and be
/// 64-byte aligned at `p`; the group's greatest offset and the rows' shared line, checked
/// once, stand for every position and row.
#[inline]
pub(super) fn try_rows<T: Copy, const R: usize>(
    (src, group): (&[T], &Group<R>),
    (rows, cols, p): (&mut Rows<'_, '_, T>, Range<usize>, usize),
    buf: &mut [T],
    path: Path<T>,
) -> bool {
    let w = cols.len();
    if path.isa() != Isa::Avx2
        || !path.stream()
        || size_of::<T>() != 4
        || w == 0
        || !w.is_multiple_of(8)
        || w > COLS
        || !R.is_multiple_of(8)
        || buf.len() < R * w
        || cols.end > rows.count()
        || !rows.lines_at(p, R)
        || group
            .hi()
            .checked_add(cols.end)
            .is_none_or(|end| end > src.len())
    {
        return false;
    }
    // SAFETY: an AVX2 path proves AVX2 present and `T` plain; `T` is 4 bytes wide, so the
    // lanes of `f32` carry its bits. `rows4` reads `src[offs[r] + c]` for c in `cols`: every
    // offset is at most the group's greatest, `hi`, and `hi + cols.end ≤ src.len()`
    // (checked), so `s = src + cols.start` and each read are in bounds. It writes
    // `rows[c][p + r]` for r < R and c in `cols` (`cols.end` ≤ `rows.count()`, checked):
    // every row reaches `p + R` and starts a line at `p` (`lines_at`: all rows share the
    // first row's place in a line; `Rows` lends its rows only as elements, so none has been
    // replaced since). `buf[..R·w]` (checked) lies between. The destination rows are
    // exclusive borrows of separate slices, so they are disjoint from each other, from
    // `buf` and from the shared `src`.
    #[allow(unsafe_code)]
    unsafe {
        rows4(
            group.offsets(),
            src.as_ptr().add(cols.start).cast(),
            (rows.cols(cols), p),
            buf.as_mut_ptr().cast(),
        );
    }
    true
}

/// `d[c][p + r] = s[offs[r] + c]` for r < `R`, c < `d.len()` (both multiples of 8; `d[c]`
/// the c-th row `d` yields): 8×8 blocks transposed in registers into `b` (`d.len()` rows of
/// `R`), then each row of `b` streamed to its destination row.
///
/// The source is read row by row (eight source rows at a time, all their columns): each
/// source line is used whole while it is in L1. Column by column instead (eight columns of
/// all 64 rows at a time) read every line twice — a block's source rows often lie a power
/// of two apart, in one cache set, and evict each other — which measured 1.3–3× slower on
/// the reversed [32,64,64,32] permutation.
///
/// Safety: AVX2 present; `T` 4 bytes wide and plain; `s[offs[r] .. offs[r] + d.len()]`
/// readable and initialised, `d[c][p .. p + R]` in bounds and 32-byte aligned for every c,
/// `b[..R·d.len()]` writable; all disjoint.
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn rows4<'d, T: 'd, const R: usize>(
    offs: &[usize; R],
    s: *const f32,
    (d, p): (impl ExactSizeIterator<Item = &'d mut [T]>, usize),
    b: *mut f32,
) {
    let cols = d.len();
    // SAFETY (every block below): reads s[offs[r8 + k] + c8 + 0..8] with c8 + 8 ≤ cols;
    // writes b[(c8 + k)·R + r8 + 0..8] < R·cols; then reads b[c·R + 0..R] and streams to
    // d[c][p + 8j .. p + 8j + 8], 32-byte aligned: all inside the contract's ranges.
    unsafe {
        for r8 in (0..R).step_by(8) {
            let from: [*const f32; 8] = std::array::from_fn(|k| s.add(offs[r8 + k]));
            for c8 in (0..cols).step_by(8) {
                let rows: [__m256; 8] = std::array::from_fn(|k| _mm256_loadu_ps(from[k].add(c8)));
                for (k, v) in transpose8(rows).into_iter().enumerate() {
                    _mm256_storeu_ps(b.add((c8 + k) * R + r8), v);
                }
            }
        }
        for (c, row) in d.enumerate() {
            let (from, to) = (b.add(c * R), row.as_mut_ptr().cast::<f32>().add(p));
            for j in (0..R).step_by(8) {
                _mm256_stream_ps(to.add(j), _mm256_loadu_ps(from.add(j)));
            }
        }
    }
}

/// Orders this thread's streaming stores before whatever it does next (they are weakly
/// ordered): called once at the end of every copy that streamed.
pub(super) fn fence() {
    // SAFETY: SSE is part of the x86-64 baseline; `sfence` has no operands.
    #[allow(unsafe_code)]
    unsafe {
        _mm_sfence();
    }
}

/// Copies `n` bytes from `s` to `d` with streaming stores: 4-byte `movnti` up to a 32-byte
/// boundary of `d`, 32-byte stores, then 4-byte ones; bytes before the first 4-byte
/// boundary and after the last are ordinary copies.
///
/// Safety: AVX2 present; `s[..n]` readable and initialised, `d[..n]` writable, disjoint.
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn stream_bytes(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY (every block below): each access is at offset k..k + width ≤ n of `s` and `d`,
    // inside the ranges of the contract; `movnti` and the 32-byte stream store get the
    // alignment the loops establish (k + d at a multiple of 4, resp. 32).
    unsafe {
        let to32 = (32 - (d.addr() & 31)) & 31;
        let to4 = ((4 - (d.addr() & 3)) & 3).min(n);
        ptr::copy_nonoverlapping(s, d, to4);
        let mut k = to4;
        let head = to32.min(n);
        while k + 4 <= head {
            _mm_stream_si32(d.add(k).cast(), s.add(k).cast::<i32>().read_unaligned());
            k += 4;
        }
        if k < head {
            // Fewer than 4 bytes up to the end of a short run.
            ptr::copy_nonoverlapping(s.add(k), d.add(k), head - k);
            return;
        }
        while k + 128 <= n {
            let v: [__m256i; 4] =
                std::array::from_fn(|j| _mm256_loadu_si256(s.add(k + 32 * j).cast()));
            for (j, v) in v.into_iter().enumerate() {
                _mm256_stream_si256(d.add(k + 32 * j).cast(), v);
            }
            k += 128;
        }
        while k + 32 <= n {
            _mm256_stream_si256(d.add(k).cast(), _mm256_loadu_si256(s.add(k).cast()));
            k += 32;
        }
        while k + 4 <= n {
            _mm_stream_si32(d.add(k).cast(), s.add(k).cast::<i32>().read_unaligned());
            k += 4;
        }
        ptr::copy_nonoverlapping(s.add(k), d.add(k), n - k);
    }
}

/// `d[k] = s[2k]` for k < e, where `s` has `len` readable elements: two 8-lane loads, the
/// even lanes picked by a shuffle and a lane permute, one 8-lane store.
///
/// Safety: AVX2 present; `s[..len]` readable, initialised, `len ≥ 2e − 1`; `d[..e]`
/// writable, disjoint from `s`; with `stream`, `d` at a multiple of 4 bytes.
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn gather2(d: *mut f32, s: *const f32, e: usize, len: usize, stream: bool) {
    // SAFETY (every block below): writes at d[k], k < e; reads at s[2k] (< 2e − 1 ≤ len)
    // and s[2k..2k + 16] only while 2k + 16 ≤ len; the 32-byte stream stores start at the
    // 32-byte boundary the head loop reaches (d at a multiple of 4 bytes).
    unsafe {
        let mut k = 0;
        if stream {
            let head = (((32 - (d.addr() & 31)) & 31) / 4).min(e);
            while k < head {
                _mm_stream_si32(d.add(k).cast(), s.add(2 * k).cast::<i32>().read());
                k += 1;
            }
        }
        while k + 8 <= e && 2 * k + 16 <= len {
            let (a, b) = (
                _mm256_loadu_ps(s.add(2 * k)),
                _mm256_loadu_ps(s.add(2 * k + 8)),
            );
            // [a0 a2 b0 b2 | a4 a6 b4 b6] → [a0 a2 a4 a6 b0 b2 b4 b6]
            let even = _mm256_shuffle_ps::<0x88>(a, b);
            let even = _mm256_castpd_ps(_mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(even)));
            if stream {
                _mm256_stream_ps(d.add(k), even);
            } else {
                _mm256_storeu_ps(d.add(k), even);
            }
            k += 8;
        }
        // The tail: streaming too, so that no line is written both ways (a line the
        // next row's head completes would otherwise be read into the cache first).
        while k < e {
            if stream {
                _mm_stream_si32(d.add(k).cast(), s.add(2 * k).cast::<i32>().read());
            } else {
                ptr::copy_nonoverlapping(s.add(2 * k), d.add(k), 1);
            }
            k += 1;
        }
    }
}

/// `d[c·ds + r] = s[r·rs + c]` for r, c < W (a multiple of 8): 8×8 blocks transposed in
/// registers into `b` (W rows of W, L1-resident), then each row of `b` written to the
/// destination whole (streaming when `stream`).
///
/// Safety: AVX2 present; `s[(W−1)·rs + W − 1]` and `d[(W−1)·ds + W − 1]` the last
/// elements of readable resp. writable ranges, `b[..W·W]` writable, all three disjoint,
/// `s` initialised.
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn square4<const W: usize>(
    s: *const f32,
    rs: usize,
    d: *mut f32,
    ds: usize,
    b: *mut f32,
    stream: bool,
) {
    // SAFETY (every block below): reads s[(r + k)·rs + c + 0..8] and writes
    // b[(c + k)·W + r + 0..8] with r, c ≤ W − 8, k < 8; then reads b[c·W + 0..W] and writes
    // d[c·ds + 0..W] for c < W: all inside the ranges of the contract.
    unsafe {
        for c in (0..W).step_by(8) {
            for r in (0..W).step_by(8) {
                let rows: [__m256; 8] =
                    std::array::from_fn(|k| _mm256_loadu_ps(s.add((r + k) * rs + c)));
                for (k, v) in transpose8(rows).into_iter().enumerate() {
                    _mm256_storeu_ps(b.add((c + k) * W + r), v);
                }
            }
        }
        for c in 0..W {
            let (to, from) = (d.add(c * ds), b.add(c * W));
            if stream {
                stream_bytes(to.cast(), from.cast(), 4 * W);
            } else {
                for r in (0..W).step_by(8) {
                    _mm256_storeu_ps(to.add(r), _mm256_loadu_ps(from.add(r)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::path::{Isa, Path, STREAM_MIN_BYTES};
    use super::*;
    use num_complex::Complex;

    /// The AVX2 path with regular stores and with streaming ones, where the machine has
    /// AVX2 (elsewhere each `try_*` must decline).
    fn paths<T: 'static>() -> [Path<T>; 2] {
        [
            Path::new(Isa::Avx2, 0),
            Path::new(Isa::Avx2, STREAM_MIN_BYTES),
        ]
    }

    fn avx2() -> bool {
        Isa::detected() == Isa::Avx2
    }

    /// f32 bit patterns that a float move could alter if it were not a plain move: NaN
    /// payloads, signalling NaNs, negative zero, subnormals.
    fn bits(k: usize) -> f32 {
        let special = [
            0x7fc0_1234u32,
            0x7f80_0001,
            0x8000_0000,
            0x0000_0001,
            0xffff_ffff,
        ];
        f32::from_bits(special[k % 5] ^ ((k as u32) << 9))
    }

    fn contiguous_on<T: Copy + PartialEq + std::fmt::Debug + 'static>(of: fn(usize) -> T) {
        let src: Vec<T> = (0..300).map(of).collect();
        for path in paths::<T>() {
            // Unaligned starts on both sides, lengths around the 4-, 32- and 128-byte steps.
            for (so, d_o) in [(0, 0), (1, 0), (0, 3), (5, 7), (13, 2)] {
                for n in [0, 1, 3, 4, 7, 8, 9, 31, 33, 64, 127, 129, 250] {
                    let mut dst = vec![of(999); 300];
                    let done = try_contiguous(&mut dst[d_o..d_o + n], &src[so..so + n], path);
                    assert_eq!(done, avx2(), "{path:?}");
                    if !done {
                        continue;
                    }
                    fence();
                    let mut want = vec![of(999); 300];
                    want[d_o..d_o + n].copy_from_slice(&src[so..so + n]);
                    assert_eq!(dst, want, "{path:?}, offsets ({so}, {d_o}), {n} elements");
                }
            }
        }
    }

    #[test]
    fn avx2_contiguous_runs_equal_copy_from_slice_for_every_width_offset_and_tail() {
        contiguous_on(|k| k as u8);
        contiguous_on(|k| k as u16);
        contiguous_on(|k| bits(k).to_bits());
        contiguous_on(|k| bits(k).to_bits() as u64 * 3);
        contiguous_on(|k| Complex::new(k as f64, -(k as f64)));
    }

    #[test]
    fn avx2_step_two_runs_equal_the_portable_gather_bit_for_bit() {
        let src: Vec<f32> = (0..400).map(bits).collect();
        for path in paths::<f32>() {
            for so in [0, 1, 3] {
                for d_o in [0, 1, 2, 5] {
                    for e in [1, 2, 7, 8, 9, 15, 16, 17, 40, 63, 100] {
                        let mut dst = vec![1.5f32; 200];
                        let from = &src[so..so + 2 * e - 1];
                        let done = try_step2(&mut dst[d_o..d_o + e], from, path);
                        assert_eq!(done, avx2());
                        if !done {
                            continue;
                        }
                        fence();
                        let mut want = vec![1.5f32; 200];
                        for k in 0..e {
                            want[d_o + k] = src[so + 2 * k];
                        }
                        let (got, want): (Vec<u32>, Vec<u32>) = (
                            dst.iter().map(|x| x.to_bits()).collect(),
                            want.iter().map(|x| x.to_bits()).collect(),
                        );
                        assert_eq!(got, want, "{path:?}, ({so}, {d_o}), {e}");
                    }
                }
            }
        }
    }

    fn squares_of<const W: usize>() {
        let (rs, ds) = (W + 3, W + 5);
        let src: Vec<f32> = (0..W * rs + 8).map(bits).collect();
        for path in paths::<f32>() {
            for (s, d) in [(0, 0), (1, 3), (5, 1)] {
                let mut dst = vec![2.5f32; W * ds + 8];
                let mut buf = vec![0f32; W * W];
                let done = try_square::<f32, W>((&src, s, rs, &mut dst, d, ds), &mut buf, path);
                assert_eq!(done, avx2());
                if !done {
                    continue;
                }
                fence();
                let mut want = vec![2.5f32; W * ds + 8];
                for r in 0..W {
                    for c in 0..W {
                        want[d + c * ds + r] = src[s + r * rs + c];
                    }
                }
                let (got, want): (Vec<u32>, Vec<u32>) = (
                    dst.iter().map(|x| x.to_bits()).collect(),
                    want.iter().map(|x| x.to_bits()).collect(),
                );
                assert!(got == want, "W {W}, {path:?}, offsets ({s}, {d})");
            }
            // A block that would reach past either slice is declined, not copied.
            let mut short = vec![0f32; (W - 1) * ds + W - 1];
            let mut buf = vec![0f32; W * W];
            assert!(!try_square::<f32, W>(
                (&src, 0, rs, &mut short, 0, ds),
                &mut buf,
                path
            ));
        }
    }

    #[test]
    fn avx2_square_blocks_transpose_bit_for_bit_at_unaligned_offsets() {
        squares_of::<8>();
        squares_of::<16>();
        squares_of::<32>();
        squares_of::<64>();
    }

    #[test]
    fn the_vector_kernels_decline_other_widths_and_the_portable_path() {
        let src = vec![1u64; 64 * 64];
        let mut dst = vec![0u64; 64 * 64];
        let mut buf = vec![0u64; 64 * 64];
        let path = Path::<u64>::new(Isa::Avx2, 0);
        assert!(!try_square::<u64, 8>(
            (&src, 0, 64, &mut dst, 0, 64),
            &mut buf,
            path
        ));
        assert!(!try_step2(&mut dst[..8], &src[..15], path));
        let portable = Path::<u64>::portable();
        assert!(!try_contiguous(&mut dst[..8], &src[..8], portable));
        assert_eq!(dst, vec![0u64; 64 * 64]);
    }
}
