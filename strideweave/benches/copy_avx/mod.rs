//! The yardsticks of `benches/copy.rs`: the best hand kernels of issue 27, written with AVX
//! intrinsics and streaming (non-temporal) stores, on 64-byte aligned buffers.
//!
//! Each kernel needs AVX2 (checked once by [`avx2`]; the benches that use them skip
//! themselves on a machine without it). Every `unsafe` block here calls `#[target_feature]`
//! functions after that check, and reads and writes only inside the slices it was given
//! (the index arithmetic is spelled out next to each loop).

#![allow(unsafe_op_in_unsafe_fn)]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Whether the hand kernels can run here (AVX2 detected).
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A buffer of `f32` whose first element is 64-byte aligned (a `Vec` with a little slack,
/// viewed from the first aligned element).
pub struct Aligned {
    buf: Vec<f32>,
    at: usize,
    len: usize,
}

impl Aligned {
    /// `len` elements, the `k`-th being `f(k)`.
    pub fn from_fn(len: usize, f: impl Fn(usize) -> f32) -> Self {
        let mut buf = vec![0f32; len + 16];
        let at = buf.as_ptr().align_offset(64);
        for (k, x) in buf[at..at + len].iter_mut().enumerate() {
            *x = f(k);
        }
        Aligned { buf, at, len }
    }

    pub fn zeros(len: usize) -> Self {
        Self::from_fn(len, |_| 0.0)
    }

    /// `len` zeros from a zeroed allocation, not written: its pages are first touched by
    /// whoever writes them (as a fresh `Vec`'s).
    pub fn fresh(len: usize) -> Self {
        let buf = vec![0f32; len + 16];
        let at = buf.as_ptr().align_offset(64);
        Aligned { buf, at, len }
    }

    pub fn as_slice(&self) -> &[f32] {
        &self.buf[self.at..self.at + self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.buf[self.at..self.at + self.len]
    }
}

/// Transposes the 8×8 block of `f32` held as eight rows in registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn transpose8(r: [__m256; 8]) -> [__m256; 8] {
    let t0 = _mm256_unpacklo_ps(r[0], r[1]);
    let t1 = _mm256_unpackhi_ps(r[0], r[1]);
    let t2 = _mm256_unpacklo_ps(r[2], r[3]);
    let t3 = _mm256_unpackhi_ps(r[2], r[3]);
    let t4 = _mm256_unpacklo_ps(r[4], r[5]);
    let t5 = _mm256_unpackhi_ps(r[4], r[5]);
    let t6 = _mm256_unpacklo_ps(r[6], r[7]);
    let t7 = _mm256_unpackhi_ps(r[6], r[7]);
    let u0 = _mm256_shuffle_ps(t0, t2, 0x44);
    let u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    let u2 = _mm256_shuffle_ps(t1, t3, 0x44);
    let u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    let u4 = _mm256_shuffle_ps(t4, t6, 0x44);
    let u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    let u6 = _mm256_shuffle_ps(t5, t7, 0x44);
    let u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    [
        _mm256_permute2f128_ps(u0, u4, 0x20),
        _mm256_permute2f128_ps(u1, u5, 0x20),
        _mm256_permute2f128_ps(u2, u6, 0x20),
        _mm256_permute2f128_ps(u3, u7, 0x20),
        _mm256_permute2f128_ps(u0, u4, 0x31),
        _mm256_permute2f128_ps(u1, u5, 0x31),
        _mm256_permute2f128_ps(u2, u6, 0x31),
        _mm256_permute2f128_ps(u3, u7, 0x31),
    ]
}

/// `dst[c·ds + r] = src[r·rs + c]` for `r < R`, `c < C` (multiples of 8): the tile is
/// transposed in 8×8 register blocks into `buf` (`C` rows of `R`, L1-resident: "staged in
/// cache"), then each of its rows is written to the destination with streaming stores.
/// `dst` and every destination row (`ds`, and `R` a multiple of 8) must be 32-byte aligned.
///
/// # Safety
/// AVX2 present; `src[(R-1)·rs + C-1]` and `dst[(C-1)·ds + R-1]` in bounds, destination
/// rows 32-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn tile_stream<const R: usize, const C: usize>(
    src: *const f32,
    rs: usize,
    dst: *mut f32,
    ds: usize,
    buf: &mut [f32],
) {
    let buf = &mut buf[..R * C];
    let b = buf.as_mut_ptr();
    // Row blocks outer: each group of eight source rows is read whole (all its columns)
    // while it is in L1, the order the engine's line path reads in.
    for r in (0..R).step_by(8) {
        for c in (0..C).step_by(8) {
            let rows: [__m256; 8] =
                std::array::from_fn(|k| _mm256_loadu_ps(src.add((r + k) * rs + c)));
            let cols = transpose8(rows);
            for (k, v) in cols.into_iter().enumerate() {
                _mm256_storeu_ps(b.add((c + k) * R + r), v);
            }
        }
    }
    for c in 0..C {
        for r in (0..R).step_by(8) {
            _mm256_stream_ps(dst.add(c * ds + r), _mm256_loadu_ps(b.add(c * R + r)));
        }
    }
}

/// The square `n × n` transpose `dst[i + j·n] = src[j + i·n]` in `R × C` tiles of
/// [`tile_stream`], then a store fence.
pub fn transpose<const R: usize, const C: usize>(src: &[f32], dst: &mut [f32], n: usize) {
    transpose_rows::<R, C>(src, dst, n, 0);
}

/// The destination rows `j0 .. j0 + dst.len() / n` of [`transpose`] (`dst` holds just
/// those rows): the share of one thread when the destination is cut by rows.
pub fn transpose_rows<const R: usize, const C: usize>(
    src: &[f32],
    dst: &mut [f32],
    n: usize,
    j0: usize,
) {
    let rows = dst.len() / n;
    assert!(
        avx2()
            && src.len() >= n * n
            && j0 + rows <= n
            && n.is_multiple_of(R)
            && rows.is_multiple_of(C)
    );
    assert_eq!(dst.as_ptr().align_offset(32), 0);
    let mut buf = Aligned::zeros(R * C);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: AVX2 was detected; tile (i, j) reads src[(i + r)·n + j0 + j + c] and writes
    // dst[(j + c)·n + i + r] for r < R, c < C, i < n, j < rows, all below n² resp.
    // rows·n (asserted); destination rows start at multiples of 8 elements from an aligned
    // base.
    unsafe {
        for i in (0..n).step_by(R) {
            for j in (0..rows).step_by(C) {
                tile_stream::<R, C>(
                    src.as_ptr().add(i * n + j0 + j),
                    n,
                    dst.as_mut_ptr().add(j * n + i),
                    n,
                    buf.as_mut_slice(),
                );
            }
        }
        _mm_sfence();
    }
}

/// [`transpose`] (32×128 tiles) on `threads` threads (1 or 2), the destination cut by
/// rows: the two-core limit of a streamed transpose. The second thread is spawned per call
/// (tens of µs, small next to the ms of a 2048² or 4096² transpose).
pub fn transpose_on(src: &[f32], dst: &mut [f32], n: usize, threads: usize) {
    if threads < 2 {
        return transpose::<32, 128>(src, dst, n);
    }
    let h = n / 2;
    let (lo, hi) = dst.split_at_mut(h * n);
    std::thread::scope(|t| {
        t.spawn(|| transpose_rows::<32, 128>(src, hi, n, h));
        transpose_rows::<32, 128>(src, lo, n, 0);
    });
}

/// [`stream_copy`] on `threads` threads (1 or 2), each a half, each fencing its stores:
/// the two-core limit of a streamed copy.
pub fn stream_copy_on(dst: &mut [f32], src: &[f32], threads: usize) {
    if threads < 2 {
        return stream_copy(dst, src, true);
    }
    let h = dst.len() / 2 / 32 * 32;
    let (lo, hi) = dst.split_at_mut(h);
    let (a, b) = src.split_at(h);
    std::thread::scope(|t| {
        t.spawn(|| stream_copy(hi, b, true));
        stream_copy(lo, a, true);
    });
}

/// The reversed permutation of [32,64,64,32]: each (i1, i2) plane is one 32 × 32 tile of
/// [`tile_stream`] whose rows lie 32·64·64 elements apart on both sides, i1 innermost: each
/// source page is read in sequence, 128 bytes per tile (i2 innermost stepped the source by
/// 8 KiB per tile: 1.50 against 1.26–1.30 ms for i1 innermost or 2 × 2 blocks of planes).
pub fn permute4(src: &[f32], dst: &mut [f32]) {
    permute4_on(src, dst, 1);
}

/// [`permute4`] on `threads` threads (1 or 2): each thread the planes of half the values
/// of i1, i.e. half of the positions of every destination row (interleaved in memory, so
/// the halves share the destination through a pointer): the two-core limit.
pub fn permute4_on(src: &[f32], dst: &mut [f32], threads: usize) {
    const F: usize = 32 * 64 * 64;
    assert!(avx2() && src.len() >= 32 * F && dst.len() >= 32 * F);
    assert_eq!(dst.as_ptr().align_offset(32), 0);
    let to = Shared(dst.as_mut_ptr());
    let planes = move |i1s: std::ops::Range<usize>| {
        let mut buf = Aligned::zeros(32 * 32);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 detected; plane (i1, i2) reads src[s0 + a·F + c] and writes
        // dst[d0 + c·F + a] for a, c < 32, s0 = 32(i1 + 64 i2), d0 = 32(i2 + 64 i1) < F, so
        // every index is below 32·F; destination rows start at multiples of 32 elements;
        // threads get disjoint ranges of i1, so disjoint destination elements, and `dst`
        // stays borrowed until both have returned (the scope).
        unsafe {
            for i2 in 0..64 {
                for i1 in i1s.clone() {
                    let (s0, d0) = (32 * (i1 + 64 * i2), 32 * (i2 + 64 * i1));
                    tile_stream::<32, 32>(
                        src.as_ptr().add(s0),
                        F,
                        to.at(d0),
                        F,
                        buf.as_mut_slice(),
                    );
                }
            }
            _mm_sfence();
        }
    };
    if threads < 2 {
        return planes(0..64);
    }
    std::thread::scope(|t| {
        t.spawn(move || planes(32..64));
        planes(0..32);
    });
}

/// The destination of [`permute4_on`], shared by its threads (disjoint elements).
#[derive(Clone, Copy)]
struct Shared(*mut f32);

// SAFETY: the threads of `permute4_on` write disjoint elements through it.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    /// The pointer `k` elements in (a method, so that closures capture the `Send` wrapper,
    /// not its raw field).
    fn at(self, k: usize) -> *mut f32 {
        self.0.wrapping_add(k)
    }
}

/// `dst.copy_from_slice(src)` with 32-byte loads and streaming stores (`dst` 32-byte
/// aligned, the length a multiple of 32 elements), then a store fence when `fence`.
pub fn stream_copy(dst: &mut [f32], src: &[f32], fence: bool) {
    assert!(avx2() && dst.len() == src.len() && dst.len().is_multiple_of(32));
    assert_eq!(dst.as_ptr().align_offset(32), 0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: AVX2 detected; k + 32 ≤ len on both slices; dst + k is 32-byte aligned.
    unsafe {
        stream_copy_avx(dst.as_mut_ptr(), src.as_ptr(), dst.len());
        if fence {
            _mm_sfence();
        }
    }
}

/// Orders the streaming stores before what follows.
pub fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` is part of SSE, in the x86-64 baseline.
    unsafe {
        _mm_sfence();
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn stream_copy_avx(d: *mut f32, s: *const f32, n: usize) {
    for k in (0..n).step_by(32) {
        let v: [__m256; 4] = std::array::from_fn(|j| _mm256_loadu_ps(s.add(k + 8 * j)));
        for (j, v) in v.into_iter().enumerate() {
            _mm256_stream_ps(d.add(k + 8 * j), v);
        }
    }
}

/// `dst[r·m + k] = src[2r·row + 2k]` for the `[::2, ::2]` slice of a source with rows of
/// `row` elements into `m = row / 2` wide rows: two 8-lane loads, the even lanes picked by a
/// shuffle and a lane permute, one streaming store.
pub fn slice_step2(src: &[f32], row: usize, dst: &mut [f32]) {
    let m = row / 2;
    assert!(
        avx2()
            && row.is_multiple_of(32)
            && dst.len().is_multiple_of(m)
            && src.len() >= 2 * dst.len()
    );
    assert_eq!(dst.as_ptr().align_offset(32), 0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: AVX2 detected; row r reads src[2r·row .. 2r·row + row] (r < dst.len()/m, so
    // below src.len()) and writes dst[r·m .. r·m + m], 32-byte aligned (m multiple of 8).
    unsafe {
        for r in 0..dst.len() / m {
            step2_row(
                src.as_ptr().add(2 * r * row),
                dst.as_mut_ptr().add(r * m),
                m,
            );
        }
        _mm_sfence();
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn step2_row(s: *const f32, d: *mut f32, m: usize) {
    for k in (0..m).step_by(8) {
        let (a, b) = (
            _mm256_loadu_ps(s.add(2 * k)),
            _mm256_loadu_ps(s.add(2 * k + 8)),
        );
        // [a0 a2 b0 b2 | a4 a6 b4 b6] → [a0 a2 a4 a6 b0 b2 b4 b6]
        let even = _mm256_shuffle_ps(a, b, 0x88);
        let even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(even), 0xD8));
        _mm256_stream_ps(d.add(k), even);
    }
}
