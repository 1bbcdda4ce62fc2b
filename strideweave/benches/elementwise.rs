//! Elementwise arithmetic (divan), side by side in one run: StrideWeave, ndarray and a
//! hand-written loop. Matrix products are in `benches/matmul.rs`.
//!
//! Run with `cargo bench -p strideweave --bench elementwise`; not part of the test command.
//!
//! StrideWeave tensors are compact first-mode-fastest, ndarray arrays standard row-major:
//! each library's native compact order, so each workload does the same memory traffic in
//! both. `fresh` forms allocate their result inside the timed loop (`a.add(&b)`,
//! `&a + &b`, a collected `Vec`); `into` forms write into a destination built outside it
//! (`add_into`, `Zip`, a loop over a `Vec`).

use divan::{Bencher, black_box};
use ndarray::{Array2, Zip};
use strideweave::Tensor;

mod common;

use common::{B, N, sq};

fn main() {
    common::run();
}

fn arrays() -> (Array2<f32>, Array2<f32>) {
    let a = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (i * N + j) as f32);
    let b = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (j * N + i) as f32 * 0.5);
    (a, b)
}

fn vecs() -> (Vec<f32>, Vec<f32>) {
    let a: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N * N).map(|i| i as f32 * 0.5).collect();
    (a, b)
}

/// `out[i + j·n] = a[i + j·n] + b[j + i·n]`, in 32×32 tiles (b read transposed).
fn hand_add_transposed(a: &[f32], b: &[f32], out: &mut [f32], n: usize) {
    for jb in (0..n).step_by(B) {
        for ib in (0..n).step_by(B) {
            for j in jb..(jb + B).min(n) {
                let (lo, hi) = (j * n + ib, j * n + (ib + B).min(n));
                for (k, (z, x)) in out[lo..hi].iter_mut().zip(&a[lo..hi]).enumerate() {
                    *z = x + b[j + (ib + k) * n];
                }
            }
        }
    }
}

/// The yardsticks at the memory limit (issue 27): AVX adds written out with streaming
/// (non-temporal) stores, and for the transposed operand 8×8 in-register transposes.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx {
    use std::arch::x86_64::*;

    /// `out[i] = a[i] + b[i]` for `i < n`: AVX adds, streaming stores from the first
    /// 32-byte aligned element of `out` (plain stores before it and for the tail).
    ///
    /// # Safety
    /// AVX is available; `a`, `b` hold `n` elements; `out` is valid for `n` writes.
    #[target_feature(enable = "avx")]
    pub unsafe fn add(a: &[f32], b: &[f32], out: *mut f32, n: usize) {
        assert!(a.len() >= n && b.len() >= n);
        let (a, b) = (a.as_ptr(), b.as_ptr());
        // SAFETY: every index below is < n, inside `a`, `b` and `out` (the contract).
        unsafe {
            let mut i = 0;
            while i < n && !(out.add(i) as usize).is_multiple_of(32) {
                *out.add(i) = *a.add(i) + *b.add(i);
                i += 1;
            }
            while i + 32 <= n {
                for k in (0..32).step_by(8) {
                    let v =
                        _mm256_add_ps(_mm256_loadu_ps(a.add(i + k)), _mm256_loadu_ps(b.add(i + k)));
                    _mm256_stream_ps(out.add(i + k), v);
                }
                i += 32;
            }
            while i < n {
                *out.add(i) = *a.add(i) + *b.add(i);
                i += 1;
            }
            _mm_sfence();
        }
    }

    /// Transposes the 8×8 block of `r` (rows) in registers.
    #[inline(always)]
    fn transpose8(r: [__m256; 8]) -> [__m256; 8] {
        // SAFETY: register shuffles only (AVX enabled by the caller's target features).
        unsafe {
            let t0 = _mm256_unpacklo_ps(r[0], r[1]);
            let t1 = _mm256_unpackhi_ps(r[0], r[1]);
            let t2 = _mm256_unpacklo_ps(r[2], r[3]);
            let t3 = _mm256_unpackhi_ps(r[2], r[3]);
            let t4 = _mm256_unpacklo_ps(r[4], r[5]);
            let t5 = _mm256_unpackhi_ps(r[4], r[5]);
            let t6 = _mm256_unpacklo_ps(r[6], r[7]);
            let t7 = _mm256_unpackhi_ps(r[6], r[7]);
            let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
            let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
            let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
            let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
            [
                _mm256_permute2f128_ps::<0x20>(s0, s4),
                _mm256_permute2f128_ps::<0x20>(s1, s5),
                _mm256_permute2f128_ps::<0x20>(s2, s6),
                _mm256_permute2f128_ps::<0x20>(s3, s7),
                _mm256_permute2f128_ps::<0x31>(s0, s4),
                _mm256_permute2f128_ps::<0x31>(s1, s5),
                _mm256_permute2f128_ps::<0x31>(s2, s6),
                _mm256_permute2f128_ps::<0x31>(s3, s7),
            ]
        }
    }

    /// `out[i + j·n] = a[i + j·n] + b[j + i·n]` (`n` a multiple of 128, `out` 32-byte
    /// aligned) in 32×128 tiles (32 output rows `j`, 128 elements `i` along each): the
    /// tile's 128 rows of 32 elements of `b` (16 KiB) stay in L1 while it is read as 8×8
    /// blocks transposed in registers; each output row gets 512 contiguous bytes of
    /// streaming stores per tile, eight rows at a time.
    ///
    /// # Safety
    /// AVX is available; `a`, `b` hold `n²` elements; `out` is valid for `n²` writes and
    /// 32-byte aligned.
    #[target_feature(enable = "avx")]
    pub unsafe fn add_transposed<const STREAM: bool>(
        a: &[f32],
        b: &[f32],
        out: *mut f32,
        n: usize,
    ) {
        assert!(n.is_multiple_of(128) && a.len() >= n * n && b.len() >= n * n);
        assert!((out as usize).is_multiple_of(32));
        let (a, b) = (a.as_ptr(), b.as_ptr());
        // SAFETY: every index is `i + j·n` with `i, j < n`: inside `a`, `b`, `out`; the
        // streamed addresses are 32-byte aligned (`out` aligned, `i` and `n` multiples of 8).
        unsafe {
            for ib in (0..n).step_by(128) {
                for jb in (0..n).step_by(32) {
                    for j0 in (jb..jb + 32).step_by(8) {
                        for i0 in (ib..ib + 128).step_by(8) {
                            let rows =
                                std::array::from_fn(|k| _mm256_loadu_ps(b.add(j0 + (i0 + k) * n)));
                            let cols = transpose8(rows);
                            for (j, c) in cols.into_iter().enumerate() {
                                let at = i0 + (j0 + j) * n;
                                let v = _mm256_add_ps(_mm256_loadu_ps(a.add(at)), c);
                                if STREAM {
                                    _mm256_stream_ps(out.add(at), v);
                                } else {
                                    _mm256_store_ps(out.add(at), v);
                                }
                            }
                        }
                    }
                }
            }
            _mm_sfence();
        }
    }

    /// A fresh 64-byte aligned buffer of `n` elements written entirely by `write` (a
    /// `Vec` of this size is 16 bytes past a page, which the transposing kernel refuses).
    pub struct Fresh(*mut f32, usize);

    impl Fresh {
        pub fn new(n: usize, write: impl FnOnce(*mut f32)) -> Self {
            let layout = std::alloc::Layout::from_size_align(n * 4, 64).unwrap();
            // SAFETY: the layout has a non-zero size (n > 0 in every bench).
            let p = unsafe { std::alloc::alloc(layout) } as *mut f32;
            assert!(!p.is_null());
            write(p);
            Fresh(p, n)
        }

        pub fn ptr(&self) -> *mut f32 {
            self.0
        }

        pub fn as_slice(&self) -> &[f32] {
            // SAFETY: `new`'s `write` initialised all `n` elements.
            unsafe { std::slice::from_raw_parts(self.0, self.1) }
        }
    }

    impl Drop for Fresh {
        fn drop(&mut self) {
            let layout = std::alloc::Layout::from_size_align(self.1 * 4, 64).unwrap();
            // SAFETY: allocated in `new` with this layout, freed once.
            unsafe { std::alloc::dealloc(self.0 as *mut u8, layout) }
        }
    }

    pub fn has_avx() -> bool {
        is_x86_feature_detected!("avx")
    }
}

/// `a + b`, both compact 4096² f32.
mod add_compact {
    use super::*;

    #[divan::bench]
    fn strideweave_fresh(b: Bencher) {
        let (x, y) = (
            Tensor::arange::<f32>(&sq()),
            Tensor::arange::<f32>(&sq()).mul_scalar(0.5f32).unwrap(),
        );
        b.bench_local(|| black_box(&x).add(black_box(&y)).unwrap());
    }

    #[divan::bench]
    fn strideweave_into(b: Bencher) {
        let (x, y) = (
            Tensor::arange::<f32>(&sq()),
            Tensor::arange::<f32>(&sq()).mul_scalar(0.5f32).unwrap(),
        );
        let out = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| black_box(&x).add_into(black_box(&y), &out).unwrap());
    }

    #[divan::bench]
    fn ndarray_fresh(b: Bencher) {
        let (x, y) = arrays();
        b.bench_local(|| black_box(&x) + black_box(&y));
    }

    #[divan::bench]
    fn ndarray_zip_into(b: Bencher) {
        let (x, y) = arrays();
        let mut out = Array2::<f32>::zeros((N, N));
        b.bench_local(|| {
            Zip::from(&mut out)
                .and(black_box(&x))
                .and(black_box(&y))
                .for_each(|z, &p, &q| *z = p + q)
        });
    }

    #[divan::bench]
    fn hand_fresh(b: Bencher) {
        let (x, y) = vecs();
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            x.iter().zip(y).map(|(p, q)| p + q).collect::<Vec<f32>>()
        });
    }

    #[divan::bench]
    fn hand_into(b: Bencher) {
        let (x, y) = vecs();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| {
            for ((z, p), q) in out.iter_mut().zip(black_box(&x)).zip(black_box(&y)) {
                *z = p + q;
            }
        });
    }

    /// AVX adds with streaming stores into a fresh vector.
    #[cfg(target_arch = "x86_64")]
    #[divan::bench]
    #[allow(unsafe_code)]
    fn hand_avx_stream_fresh(b: Bencher) {
        assert!(avx::has_avx());
        let (x, y) = vecs();
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked above; both sources and the fresh vector hold N² elements.
            avx::Fresh::new(N * N, |out| unsafe { avx::add(x, y, out, N * N) })
        });
    }

    /// AVX adds with streaming stores into an existing vector.
    #[cfg(target_arch = "x86_64")]
    #[divan::bench]
    #[allow(unsafe_code)]
    fn hand_avx_stream_into(b: Bencher) {
        assert!(avx::has_avx());
        let (x, y) = vecs();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked above; all three hold N² elements.
            unsafe { avx::add(x, y, out.as_mut_ptr(), N * N) }
        });
    }
}

/// `add_into` of compact n × n f32 at the streaming threshold (n = 1024: 4 MiB written,
/// streamed) and above it, next to a plain loop (ordinary stores) and the AVX streaming
/// kernel: whether streaming pays at that size.
mod add_compact_sizes {
    use super::*;

    const SIDES: [usize; 2] = [1024, 2048];

    fn operands(n: usize) -> (Vec<f32>, Vec<f32>) {
        (
            (0..n * n).map(|i| i as f32).collect(),
            (0..n * n).map(|i| i as f32 * 0.5).collect(),
        )
    }

    #[divan::bench(args = SIDES)]
    fn strideweave_into(b: Bencher, n: usize) {
        let sh: strideweave::Shape = format!("({n},{n})").parse().unwrap();
        let (x, y) = (
            Tensor::arange::<f32>(&sh),
            Tensor::arange::<f32>(&sh).mul_scalar(0.5f32).unwrap(),
        );
        let out = Tensor::zeros::<f32>(&sh);
        b.bench_local(|| black_box(&x).add_into(black_box(&y), &out).unwrap());
    }

    #[divan::bench(args = SIDES)]
    fn hand_into(b: Bencher, n: usize) {
        let (x, y) = operands(n);
        let mut out = vec![0f32; n * n];
        b.bench_local(|| {
            for ((z, p), q) in out.iter_mut().zip(black_box(&x)).zip(black_box(&y)) {
                *z = p + q;
            }
        });
    }

    #[cfg(target_arch = "x86_64")]
    #[divan::bench(args = SIDES)]
    #[allow(unsafe_code)]
    fn hand_avx_stream_into(b: Bencher, n: usize) {
        assert!(avx::has_avx());
        let (x, y) = operands(n);
        let mut out = vec![0f32; n * n];
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked above; all three hold n² elements.
            unsafe { avx::add(x, y, out.as_mut_ptr(), n * n) }
        });
    }
}

/// `a + bᵀ`, both stored compact 4096² f32, the second read through a transposed view.
mod add_transposed {
    use super::*;

    #[divan::bench]
    fn strideweave_fresh(b: Bencher) {
        let x = Tensor::arange::<f32>(&sq());
        let y = Tensor::arange::<f32>(&sq())
            .mul_scalar(0.5f32)
            .unwrap()
            .permute(&[1, 0])
            .unwrap();
        b.bench_local(|| black_box(&x).add(black_box(&y)).unwrap());
    }

    #[divan::bench]
    fn strideweave_into(b: Bencher) {
        let x = Tensor::arange::<f32>(&sq());
        let y = Tensor::arange::<f32>(&sq())
            .mul_scalar(0.5f32)
            .unwrap()
            .permute(&[1, 0])
            .unwrap();
        let out = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| black_box(&x).add_into(black_box(&y), &out).unwrap());
    }

    #[divan::bench]
    fn ndarray_fresh(b: Bencher) {
        let (x, y) = arrays();
        b.bench_local(|| black_box(&x) + &black_box(&y).t());
    }

    #[divan::bench]
    fn ndarray_zip_into(b: Bencher) {
        let (x, y) = arrays();
        let mut out = Array2::<f32>::zeros((N, N));
        b.bench_local(|| {
            Zip::from(&mut out)
                .and(black_box(&x))
                .and(black_box(&y).t())
                .for_each(|z, &p, &q| *z = p + q)
        });
    }

    #[divan::bench]
    fn hand_blocked_fresh(b: Bencher) {
        let (x, y) = vecs();
        b.bench_local(|| {
            let mut out = vec![0f32; N * N];
            hand_add_transposed(black_box(&x), black_box(&y), &mut out, N);
            out
        });
    }

    #[divan::bench]
    fn hand_blocked_into(b: Bencher) {
        let (x, y) = vecs();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| hand_add_transposed(black_box(&x), black_box(&y), &mut out, N));
    }

    /// 8×8 in-register transposes of the transposed operand, AVX adds, streaming stores,
    /// into a fresh vector (64 MiB: the allocator maps it page-aligned).
    #[cfg(target_arch = "x86_64")]
    #[divan::bench]
    #[allow(unsafe_code)]
    fn hand_avx_stream_fresh(b: Bencher) {
        assert!(avx::has_avx());
        let (x, y) = vecs();
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked; N² elements everywhere; the kernel asserts alignment.
            avx::Fresh::new(N * N, |out| unsafe {
                avx::add_transposed::<true>(x, y, out, N)
            })
        });
    }

    /// The same into an existing vector.
    #[cfg(target_arch = "x86_64")]
    #[divan::bench]
    #[allow(unsafe_code)]
    fn hand_avx_stream_into(b: Bencher) {
        assert!(avx::has_avx());
        let (x, y) = vecs();
        // SAFETY: writes all N² elements.
        let out = avx::Fresh::new(N * N, |p| unsafe { p.write_bytes(0, N * N) });
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked; N² elements everywhere; the kernel asserts alignment.
            unsafe { avx::add_transposed::<true>(x, y, out.ptr(), N) }
        });
        let mut want = vec![0f32; N * N];
        hand_add_transposed(&x, &y, &mut want, N);
        assert!(
            out.as_slice() == want,
            "the AVX kernel adds what the blocked loop adds"
        );
    }

    /// The same with plain (cached) stores: the streaming stores' share of the figure.
    #[cfg(target_arch = "x86_64")]
    #[divan::bench]
    #[allow(unsafe_code)]
    fn hand_avx_into(b: Bencher) {
        assert!(avx::has_avx());
        let (x, y) = vecs();
        // SAFETY: writes all N² elements.
        let out = avx::Fresh::new(N * N, |p| unsafe { p.write_bytes(0, N * N) });
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            // SAFETY: AVX checked; N² elements everywhere; the kernel asserts alignment.
            unsafe { avx::add_transposed::<false>(x, y, out.ptr(), N) }
        });
    }
}
