//! The functions of a model against hand loops in the same run (divan): `exp` over 16M f32
//! against a loop calling `f32::exp` into a fresh vector, and `softmax` over the last mode of
//! a row-major [4096, 1024] f32 tensor against a hand-written two-pass loop per row (max,
//! then exp and sum into the output, then one scale).
//!
//! Run with `RAYON_NUM_THREADS=1 cargo bench -p strideweave --bench functions`; not part of
//! the test command.

use divan::{Bencher, black_box};
use strideweave::{Layout, Shape, Tensor};

fn main() {
    divan::main();
}

const N: usize = 1 << 24;
const ROWS: usize = 4096;
const COLS: usize = 1024;

fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 250.0 - 2.0)
        .collect()
}

#[divan::bench(sample_count = 10)]
fn exp_16m_strideweave(bencher: Bencher) {
    let shape: Shape = N.to_string().parse().unwrap();
    let t = Tensor::from_vec(values(N), &shape).unwrap();
    bencher.bench_local(|| black_box(black_box(&t).exp().unwrap()));
}

#[divan::bench(sample_count = 10)]
fn exp_16m_hand(bencher: Bencher) {
    let x = values(N);
    bencher.bench_local(|| {
        let x = black_box(&x);
        black_box(x.iter().map(|v| v.exp()).collect::<Vec<f32>>())
    });
}

/// A row-major [4096, 1024] tensor: (4096,1024):(1024,1), rows contiguous.
fn row_major() -> Tensor {
    let layout: Layout = format!("({ROWS},{COLS}):({COLS},1)").parse().unwrap();
    let data = strideweave::Carrier::from_vec(values(ROWS * COLS));
    Tensor::new(data, 0, layout).unwrap()
}

#[divan::bench(sample_count = 10)]
fn softmax_4096x1024_strideweave(bencher: Bencher) {
    let t = row_major();
    bencher.bench_local(|| black_box(black_box(&t).softmax(-1).unwrap()));
}

#[divan::bench(sample_count = 10)]
fn softmax_4096x1024_hand(bencher: Bencher) {
    let x = values(ROWS * COLS);
    bencher.bench_local(|| {
        let x = black_box(&x);
        let mut out = vec![0.0f32; x.len()];
        for (row, o) in x.chunks_exact(COLS).zip(out.chunks_exact_mut(COLS)) {
            let m = row.iter().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
            let mut sum = 0.0;
            for (o, &v) in o.iter_mut().zip(row) {
                *o = (v - m).exp();
                sum += *o;
            }
            let r = 1.0 / sum;
            o.iter_mut().for_each(|o| *o *= r);
        }
        black_box(out)
    });
}
