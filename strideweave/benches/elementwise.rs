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
}
