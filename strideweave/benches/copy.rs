//! Storage-producing copies (divan), side by side in one run: StrideWeave, ndarray and
//! hand-written baselines (memcpy, or safe loops / blocked transposes) per workload.
//!
//! Run with `cargo bench -p strideweave --bench copy`; not part of the test command. The
//! copy engine splits copies of 1 MiB or more across rayon's pool (feature `parallel`, on by
//! default): run with `RAYON_NUM_THREADS=1` (or `--no-default-features`) for the single-thread
//! ratios, without it for the parallel ones. ndarray and the hand kernels are single-thread.
//!
//! StrideWeave tensors are compact first-mode-fastest, ndarray arrays standard row-major:
//! each library's native compact order, so each workload does the same memory traffic in
//! both (a "row" is the contiguous mode). Sources and destinations are built outside the
//! timed loop; the timed op writes every destination element once (`to_vec` allocates).

use divan::{Bencher, black_box};
use ndarray::{Array2, Array4, s};
use strideweave::{Key, Tensor};

mod common;
mod copy_avx;

use common::{B, N, shape, sq};
use copy_avx::{Aligned, avx2};

fn main() {
    common::run();
}

/// `dst[i + j·n] = src[j + i·m]` for an `m × n` (row length m) source, in 32×32 tiles read
/// and written directly.
fn hand_transpose(src: &[f32], dst: &mut [f32], m: usize, n: usize) {
    for ib in (0..n).step_by(B) {
        for jb in (0..m).step_by(B) {
            for j in jb..(jb + B).min(m) {
                let row = &mut dst[j * n + ib..j * n + (ib + B).min(n)];
                for (k, x) in row.iter_mut().enumerate() {
                    *x = src[(ib + k) * m + j];
                }
            }
        }
    }
}

/// One `W × W` tile through an L1 buffer: `W` source rows (`src[r·rs ..][..W]`) in, `W`
/// destination rows (`dst[c·ds ..][..W]`) out. `TRANSPOSING_IN = false`: source rows copied
/// in whole, destination rows gathered from buffer columns; `true`: each source row written
/// into a buffer column, then whole buffer rows copied out (wide stores into the lines that
/// miss; the scalar stores stay in L1).
#[inline]
fn tile_buffered<const W: usize, const TRANSPOSING_IN: bool>(
    src: &[f32],
    rs: usize,
    dst: &mut [f32],
    ds: usize,
    buf: &mut [f32],
) {
    let buf = &mut buf[..W * W];
    if TRANSPOSING_IN {
        for r in 0..W {
            for (c, x) in src[r * rs..r * rs + W].iter().enumerate() {
                buf[c * W + r] = *x;
            }
        }
        for (c, row) in buf.chunks_exact(W).enumerate() {
            dst[c * ds..c * ds + W].copy_from_slice(row);
        }
        return;
    }
    for (r, row) in buf.chunks_exact_mut(W).enumerate() {
        row.copy_from_slice(&src[r * rs..r * rs + W]);
    }
    for c in 0..W {
        let out = &mut dst[c * ds..c * ds + W];
        for (r, x) in out.iter_mut().enumerate() {
            *x = buf[r * W + c];
        }
    }
}

/// An 8×8 block in registers: eight source rows loaded, written out as eight columns.
#[inline]
fn block8(src: &[f32], rs: usize, dst: &mut [f32], ds: usize) {
    let mut r = [[0f32; 8]; 8];
    for (i, row) in r.iter_mut().enumerate() {
        row.copy_from_slice(&src[i * rs..i * rs + 8]);
    }
    for c in 0..8 {
        let out: &mut [f32; 8] = (&mut dst[c * ds..c * ds + 8]).try_into().unwrap();
        for (i, x) in out.iter_mut().enumerate() {
            *x = r[i][c];
        }
    }
}

/// The square transpose of [`hand_transpose`] in 32×32 tiles of 8×8 register blocks.
fn hand_transpose_8x8(src: &[f32], dst: &mut [f32], n: usize) {
    for ib in (0..n).step_by(B) {
        for jb in (0..n).step_by(B) {
            for i in (ib..ib + B).step_by(8) {
                for j in (jb..jb + B).step_by(8) {
                    block8(&src[i * n + j..], n, &mut dst[j * n + i..], n);
                }
            }
        }
    }
}

/// The square transpose of [`hand_transpose`] through [`tile_buffered`] `W × W` tiles.
fn hand_transpose_buffered<const W: usize>(src: &[f32], dst: &mut [f32], n: usize) {
    hand_transpose_tiles::<W>(src, dst, n, tile_buffered::<W, false>);
}

/// The square transpose of [`hand_transpose`] in `W × W` tiles of `tile`.
#[inline(always)]
fn hand_transpose_tiles<const W: usize>(
    src: &[f32],
    dst: &mut [f32],
    n: usize,
    tile: impl Fn(&[f32], usize, &mut [f32], usize, &mut [f32]),
) {
    let mut buf = vec![0f32; W * W];
    for ib in (0..n).step_by(W) {
        for jb in (0..n).step_by(W) {
            tile(&src[ib * n + jb..], n, &mut dst[jb * n + ib..], n, &mut buf);
        }
    }
}

mod compact_copy {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let (src, dst) = (Tensor::arange::<f32>(&sq()), Tensor::zeros::<f32>(&sq()));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let src = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (i + j) as f32);
        let mut dst = Array2::<f32>::zeros((N, N));
        b.bench_local(|| dst.assign(black_box(&src)));
    }

    #[divan::bench]
    fn memcpy(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| dst.copy_from_slice(black_box(&src)));
    }

    /// A forward loop of 16-element chunks (inline vector moves, as ndarray's `assign`
    /// compiles to): on this machine's glibc it beats one 64 MiB `memcpy` call.
    #[divan::bench]
    fn hand_loop(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| copy_loop(&mut dst, black_box(&src)));
    }

    /// AVX loads and streaming stores into an aligned destination (the yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(N * N, |i| i as f32);
        let mut dst = Aligned::zeros(N * N);
        copy_avx::stream_copy(dst.as_mut_slice(), src.as_slice(), true);
        assert_eq!(dst.as_slice()[N * N - 1], (N * N - 1) as f32);
        b.bench_local(|| {
            copy_avx::stream_copy(dst.as_mut_slice(), black_box(src.as_slice()), true)
        });
    }
}

/// `dst.copy_from_slice(src)` as a forward loop of 16-element chunks.
fn copy_loop(dst: &mut [f32], src: &[f32]) {
    for (x, y) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let y: &[f32; 16] = y.try_into().unwrap();
        x.copy_from_slice(y);
    }
}

mod transpose {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let src = Tensor::arange::<f32>(&sq()).permute(&[1, 0]).unwrap();
        let dst = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let src = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (i + j) as f32);
        let mut dst = Array2::<f32>::zeros((N, N));
        b.bench_local(|| dst.assign(&black_box(&src).t()));
    }

    #[divan::bench]
    fn hand_blocked(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| hand_transpose(black_box(&src), &mut dst, N, N));
    }

    #[divan::bench]
    fn hand_buffered(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| hand_transpose_buffered::<32>(black_box(&src), &mut dst, N));
    }

    #[divan::bench]
    fn hand_buffered64(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| hand_transpose_buffered::<64>(black_box(&src), &mut dst, N));
    }

    #[divan::bench]
    fn hand_transposing_in64(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        let tile = tile_buffered::<64, true>;
        b.bench_local(|| hand_transpose_tiles::<64>(black_box(&src), &mut dst, N, tile));
    }

    #[divan::bench]
    fn hand_8x8(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| hand_transpose_8x8(black_box(&src), &mut dst, N));
    }

    /// 8×8 AVX register transposes inside 32×128 tiles (32 source rows, 128 columns) staged
    /// in an L1 buffer, written out with streaming stores (the yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        hand_avx::<32, 128>(b);
    }

    /// The same with 128×32 tiles: 512-byte destination rows per tile.
    #[divan::bench]
    fn hand_avx_stream_128x32(b: Bencher) {
        hand_avx::<128, 32>(b);
    }

    /// The same with 64×64 tiles: 64 source rows read at once, 256 bytes of each.
    #[divan::bench]
    fn hand_avx_stream_64x64(b: Bencher) {
        hand_avx::<64, 64>(b);
    }

    fn hand_avx<const R: usize, const C: usize>(b: Bencher) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(N * N, |i| i as f32);
        let mut dst = Aligned::zeros(N * N);
        copy_avx::transpose::<R, C>(src.as_slice(), dst.as_mut_slice(), N);
        assert_eq!(dst.as_slice()[3 + 5 * N], (5 + 3 * N) as f32);
        b.bench_local(|| {
            copy_avx::transpose::<R, C>(black_box(src.as_slice()), dst.as_mut_slice(), N)
        });
    }
}

/// Full reversal of the modes of a [32,64,64,32] tensor: the fastest mode changes.
mod permute4 {
    use super::*;
    const D: [usize; 4] = [32, 64, 64, 32];

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let src = Tensor::arange::<f32>(&shape("(32,64,64,32)"))
            .permute(&[3, 2, 1, 0])
            .unwrap();
        let dst = Tensor::zeros::<f32>(&shape("(32,64,64,32)"));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let src = Array4::<f32>::from_shape_fn(D, |(i, ..)| i as f32);
        let mut dst = Array4::<f32>::zeros(D);
        b.bench_local(|| dst.assign(&black_box(&src).view().permuted_axes([3, 2, 1, 0])));
    }

    /// Each (i1, i2) plane is one 32×32 tile transpose.
    #[divan::bench]
    fn hand_blocked(b: Bencher) {
        let src: Vec<f32> = (0..32 * 64 * 64 * 32).map(|i| i as f32).collect();
        let mut dst = vec![0f32; src.len()];
        b.bench_local(|| {
            let src = black_box(&src);
            for i1 in 0..64 {
                for i2 in 0..64 {
                    // dst[a + 32(i2 + 64(i1 + 64 c))] = src[c + 32(i1 + 64(i2 + 64 a))]
                    for c in 0..32 {
                        let d0 = 32 * (i2 + 64 * (i1 + 64 * c));
                        let row = &mut dst[d0..d0 + 32];
                        for (a, x) in row.iter_mut().enumerate() {
                            *x = src[c + 32 * (i1 + 64 * (i2 + 64 * a))];
                        }
                    }
                }
            }
        });
    }

    /// The same tiles through an L1 buffer: source rows (along c) in, destination rows
    /// (along a) out, each at a distance of 32·64·64 elements.
    #[divan::bench]
    fn hand_buffered(b: Bencher) {
        hand_tiles(b, tile_buffered::<B, false>);
    }

    /// The same tiles transposed on the way into the buffer.
    #[divan::bench]
    fn hand_transposing_in(b: Bencher) {
        hand_tiles(b, tile_buffered::<B, true>);
    }

    /// Each plane one 32×32 tile of 8×8 AVX register transposes staged in an L1 buffer,
    /// written out with streaming stores (the yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(32 * 64 * 64 * 32, |i| i as f32);
        let mut dst = Aligned::zeros(32 * 64 * 64 * 32);
        copy_avx::permute4(src.as_slice(), dst.as_mut_slice());
        // dst[a + 32(i2 + 64(i1 + 64 c))] = src[c + 32(i1 + 64(i2 + 64 a))]
        let (a, i2, i1, c) = (3, 5, 7, 11);
        let want = (c + 32 * (i1 + 64 * (i2 + 64 * a))) as f32;
        assert_eq!(dst.as_slice()[a + 32 * (i2 + 64 * (i1 + 64 * c))], want);
        b.bench_local(|| copy_avx::permute4(black_box(src.as_slice()), dst.as_mut_slice()));
    }

    fn hand_tiles(b: Bencher, tile: impl Fn(&[f32], usize, &mut [f32], usize, &mut [f32])) {
        let src: Vec<f32> = (0..32 * 64 * 64 * 32).map(|i| i as f32).collect();
        let mut dst = vec![0f32; src.len()];
        let mut buf = [0f32; B * B];
        const F: usize = 32 * 64 * 64;
        b.bench_local(|| {
            let src = black_box(&src);
            for i1 in 0..64 {
                for i2 in 0..64 {
                    let (s0, d0) = (32 * (i1 + 64 * i2), 32 * (i2 + 64 * i1));
                    tile(&src[s0..], F, &mut dst[d0..], F, &mut buf);
                }
            }
        });
    }
}

/// A contiguous row of 4096 repeated 4096 times (stride 0 across rows).
mod broadcast_row {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let row = Tensor::arange::<f32>(&shape(&format!("{N}")));
        let src = row.broadcast_in_dim(&sq(), &[0]).unwrap();
        let dst = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let row = ndarray::Array1::<f32>::from_shape_fn(N, |i| i as f32);
        let mut dst = Array2::<f32>::zeros((N, N));
        b.bench_local(|| dst.assign(&black_box(&row).broadcast((N, N)).unwrap()));
    }

    #[divan::bench]
    fn hand_loop_rows(b: Bencher) {
        let row: Vec<f32> = (0..N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| {
            for r in dst.chunks_exact_mut(N) {
                copy_loop(r, black_box(&row));
            }
        });
    }

    #[divan::bench]
    fn hand_memcpy_rows(b: Bencher) {
        let row: Vec<f32> = (0..N).map(|i| i as f32).collect();
        let mut dst = vec![0f32; N * N];
        b.bench_local(|| {
            for r in dst.chunks_exact_mut(N) {
                r.copy_from_slice(black_box(&row));
            }
        });
    }

    /// Each row an AVX streaming copy of the source row, one fence at the end (the
    /// yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        if !avx2() {
            return;
        }
        let row = Aligned::from_fn(N, |i| i as f32);
        let mut dst = Aligned::zeros(N * N);
        let go = |dst: &mut Aligned| {
            for r in dst.as_mut_slice().chunks_exact_mut(N) {
                copy_avx::stream_copy(r, black_box(row.as_slice()), false);
            }
            copy_avx::fence();
        };
        go(&mut dst);
        assert_eq!(dst.as_slice()[7 * N + 5], 5.0);
        b.bench_local(|| go(&mut dst));
    }
}

/// `t[::2, ::2]` of an 8192 × 4096 tensor (4096 × 2048 elements copied).
mod slice_step2 {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = Tensor::arange::<f32>(&shape("(4096,8192)"));
        let two = Key::slice(None, None, Some(2));
        let src = t.slice(&[two, two]).unwrap();
        let dst = Tensor::zeros::<f32>(&shape("(2048,4096)"));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let t = Array2::<f32>::from_shape_fn((8192, 4096), |(i, j)| (i + j) as f32);
        let mut dst = Array2::<f32>::zeros((4096, 2048));
        b.bench_local(|| dst.assign(&black_box(&t).slice(s![..;2, ..;2])));
    }

    #[divan::bench]
    fn hand_loop(b: Bencher) {
        let t: Vec<f32> = (0..8192 * 4096).map(|i| i as f32).collect();
        let mut dst = vec![0f32; 4096 * 2048];
        b.bench_local(|| {
            let t = black_box(&t);
            for (r, row) in dst.chunks_exact_mut(2048).enumerate() {
                let from = &t[2 * r * 4096..];
                for (x, y) in row.iter_mut().zip(from.iter().step_by(2)) {
                    *x = *y;
                }
            }
        });
    }

    /// Every other row: the even lanes of two 8-lane loads by an AVX2 shuffle, written with
    /// streaming stores (the yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        if !avx2() {
            return;
        }
        let t = Aligned::from_fn(8192 * 4096, |i| i as f32);
        let mut dst = Aligned::zeros(4096 * 2048);
        copy_avx::slice_step2(t.as_slice(), 4096, dst.as_mut_slice());
        assert_eq!(dst.as_slice()[3 * 2048 + 5], (6 * 4096 + 10) as f32);
        b.bench_local(|| copy_avx::slice_step2(black_box(t.as_slice()), 4096, dst.as_mut_slice()));
    }
}

/// The elements of a transposed 4096² view, in the library's canonical order, in a new Vec.
mod to_vec_transposed {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let src = Tensor::arange::<f32>(&sq()).permute(&[1, 0]).unwrap();
        b.bench_local(|| black_box(&src).to_vec::<f32>().unwrap());
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        let src = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (i + j) as f32);
        b.bench_local(|| black_box(&src).t().as_standard_layout().into_owned());
    }

    #[divan::bench]
    fn hand_blocked(b: Bencher) {
        let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
        b.bench_local(|| {
            let mut dst = vec![0f32; N * N];
            hand_transpose(black_box(&src), &mut dst, N, N);
            dst
        });
    }

    /// A new aligned buffer (a zeroed allocation: the kernel's stores first-touch its pages)
    /// written by the AVX streaming transpose of `transpose::hand_avx_stream` (the
    /// yardstick).
    #[divan::bench]
    fn hand_avx_stream(b: Bencher) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(N * N, |i| i as f32);
        b.bench_local(|| {
            let mut dst = Aligned::fresh(N * N);
            copy_avx::transpose::<32, 128>(black_box(src.as_slice()), dst.as_mut_slice(), N);
            dst
        });
    }
}

/// A new 4096² buffer of zeros, dropped outside the timed call: a zeroed allocation (fresh
/// pages the system zeroes when they are first touched) against a `memset` of the 64 MiB.
mod zeros {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        b.bench_local(|| Tensor::zeros::<f32>(&sq()));
    }

    #[divan::bench]
    fn ndarray(b: Bencher) {
        b.bench_local(|| Array2::<f32>::zeros((N, N)));
    }

    #[divan::bench]
    fn memset(b: Bencher) {
        b.bench_local(|| {
            let mut v = Vec::<f32>::with_capacity(N * N);
            v.resize(N * N, black_box(0.0));
            v
        });
    }
}

/// Copies around the parallel split threshold (`kernels/copy/parallel.rs`, 1 MiB): an
/// `n × n` f32 compact copy and transpose for n = 256 … 2048 (256 KiB … 16 MiB). Run once
/// with `RAYON_NUM_THREADS=1` and once with 2: the ratio is the speed-up of the split.
mod threshold {
    use super::*;

    const SIDES: [usize; 5] = [256, 362, 512, 1024, 2048];

    fn sq_of(n: usize) -> strideweave::Shape {
        shape(&format!("({n},{n})"))
    }

    #[divan::bench(args = SIDES)]
    fn compact(b: Bencher, n: usize) {
        let (src, dst) = (
            Tensor::arange::<f32>(&sq_of(n)),
            Tensor::zeros::<f32>(&sq_of(n)),
        );
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    #[divan::bench(args = SIDES)]
    fn transpose(b: Bencher, n: usize) {
        let src = Tensor::arange::<f32>(&sq_of(n)).permute(&[1, 0]).unwrap();
        let dst = Tensor::zeros::<f32>(&sq_of(n));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }
}

/// Two cores (item 5): StrideWeave's copies above the parallel threshold (its threads
/// follow `RAYON_NUM_THREADS`: run once with 1 and once with 2) next to the hand AVX
/// streaming kernels on one and on two threads in the same run (`hand_*_2t` / `hand_*_1t`
/// is the machine's two-core limit): compact copies and transposes of n × n f32 and the
/// reversed [32,64,64,32] permutation. The hand kernels cut the destination as the engine
/// does: copies in halves, transposes by destination rows, the permutation by positions.
mod two_cores {
    use super::*;

    const SIDES: [usize; 3] = [1024, 2048, 4096];

    fn sq_of(n: usize) -> strideweave::Shape {
        shape(&format!("({n},{n})"))
    }

    #[divan::bench(args = SIDES)]
    fn strideweave_copy(b: Bencher, n: usize) {
        let (src, dst) = (
            Tensor::arange::<f32>(&sq_of(n)),
            Tensor::zeros::<f32>(&sq_of(n)),
        );
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    fn hand_copy(b: Bencher, n: usize, threads: usize) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(n * n, |i| i as f32);
        let mut dst = Aligned::zeros(n * n);
        copy_avx::stream_copy_on(dst.as_mut_slice(), src.as_slice(), threads);
        assert_eq!(dst.as_slice()[n * n - 1], (n * n - 1) as f32);
        b.bench_local(|| {
            copy_avx::stream_copy_on(dst.as_mut_slice(), black_box(src.as_slice()), threads)
        });
    }

    #[divan::bench(args = SIDES)]
    fn hand_copy_1t(b: Bencher, n: usize) {
        hand_copy(b, n, 1);
    }

    #[divan::bench(args = SIDES)]
    fn hand_copy_2t(b: Bencher, n: usize) {
        hand_copy(b, n, 2);
    }

    #[divan::bench(args = SIDES)]
    fn strideweave_transpose(b: Bencher, n: usize) {
        let src = Tensor::arange::<f32>(&sq_of(n)).permute(&[1, 0]).unwrap();
        let dst = Tensor::zeros::<f32>(&sq_of(n));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    fn hand_transpose(b: Bencher, n: usize, threads: usize) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(n * n, |i| i as f32);
        let mut dst = Aligned::zeros(n * n);
        copy_avx::transpose_on(src.as_slice(), dst.as_mut_slice(), n, threads);
        assert_eq!(dst.as_slice()[3 + (n - 5) * n], ((n - 5) + 3 * n) as f32);
        b.bench_local(|| {
            copy_avx::transpose_on(black_box(src.as_slice()), dst.as_mut_slice(), n, threads)
        });
    }

    #[divan::bench(args = SIDES)]
    fn hand_transpose_1t(b: Bencher, n: usize) {
        hand_transpose(b, n, 1);
    }

    #[divan::bench(args = SIDES)]
    fn hand_transpose_2t(b: Bencher, n: usize) {
        hand_transpose(b, n, 2);
    }

    #[divan::bench]
    fn strideweave_permute4(b: Bencher) {
        let src = Tensor::arange::<f32>(&shape("(32,64,64,32)"))
            .permute(&[3, 2, 1, 0])
            .unwrap();
        let dst = Tensor::zeros::<f32>(&shape("(32,64,64,32)"));
        b.bench_local(|| dst.copy_from(black_box(&src)).unwrap());
    }

    fn hand_permute4(b: Bencher, threads: usize) {
        if !avx2() {
            return;
        }
        let src = Aligned::from_fn(32 * 64 * 64 * 32, |i| i as f32);
        let mut dst = Aligned::zeros(32 * 64 * 64 * 32);
        copy_avx::permute4_on(src.as_slice(), dst.as_mut_slice(), threads);
        let (a, i2, i1, c) = (3, 5, 40, 11);
        let want = (c + 32 * (i1 + 64 * (i2 + 64 * a))) as f32;
        assert_eq!(dst.as_slice()[a + 32 * (i2 + 64 * (i1 + 64 * c))], want);
        b.bench_local(|| {
            copy_avx::permute4_on(black_box(src.as_slice()), dst.as_mut_slice(), threads)
        });
    }

    #[divan::bench]
    fn hand_permute4_1t(b: Bencher) {
        hand_permute4(b, 1);
    }

    #[divan::bench]
    fn hand_permute4_2t(b: Bencher) {
        hand_permute4(b, 2);
    }
}
