//! `Tensor::index_select` (divan): 4096 rows of a row-major `[50000, 512]` f32 table (an
//! embedding lookup), against a hand loop of `copy_from_slice` into a fresh buffer (the
//! target: within 1.25× of it) and ndarray's `select`, in one run.
//!
//! StrideWeave is first-mode-fastest, so the row-major table is the compact tensor of
//! shape `(512, 50000)` and a row is mode 1's slice (`strideweave_rows`): each picked row is
//! one contiguous copy and so is its place in the compact `(512, 4096)` result. The same
//! storage viewed as `(50000, 512):(512, 1)` and selected along mode 0
//! (`strideweave_row_major_view`) gives a compact `(4096, 512)` result, whose rows are
//! strided: that is a transposing gather, measured for comparison.
//!
//! Run with `RAYON_NUM_THREADS=1 cargo bench -p strideweave --bench gather`; not part of
//! the test command. Take the fastest sample of each (the gather is single-threaded).

use divan::{Bencher, black_box};
use ndarray::{Array2, Axis};
use strideweave::{Carrier, Shape, Tensor};

fn main() {
    divan::Divan::default()
        .sample_count(100)
        .sample_size(1)
        .config_with_args()
        .main();
}

const ROWS: usize = 50_000;
const WIDTH: usize = 512;
const PICKED: usize = 4096;

fn table() -> Vec<f32> {
    (0..ROWS * WIDTH).map(|i| (i % 1013) as f32).collect()
}

/// 4096 row numbers spread over the table (a fixed pseudo-random sequence).
fn ids() -> Vec<i64> {
    let mut z = 0x2545_f491_4f6c_dd1d_u64;
    (0..PICKED)
        .map(|_| {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z % ROWS as u64) as i64
        })
        .collect()
}

fn ids_tensor() -> Tensor {
    Tensor::from_vec(ids(), &PICKED.to_string().parse::<Shape>().unwrap()).unwrap()
}

#[divan::bench]
fn strideweave_rows(b: Bencher) {
    let shape: Shape = format!("({WIDTH},{ROWS})").parse().unwrap();
    let t = Tensor::from_vec(table(), &shape).unwrap();
    let ids = ids_tensor();
    b.bench_local(|| black_box(&t).index_select(1, black_box(&ids)).unwrap());
}

#[divan::bench]
fn strideweave_row_major_view(b: Bencher) {
    let layout = format!("({ROWS},{WIDTH}):({WIDTH},1)").parse().unwrap();
    let t = Tensor::new(Carrier::from_vec(table()), 0, layout).unwrap();
    let ids = ids_tensor();
    b.bench_local(|| black_box(&t).index_select(0, black_box(&ids)).unwrap());
}

/// The baseline: a fresh buffer, each picked row copied into place with `copy_from_slice`.
#[divan::bench]
fn hand_copy_from_slice(b: Bencher) {
    let t = table();
    let ids = ids();
    b.bench_local(|| {
        let (t, ids) = (black_box(&t), black_box(&ids));
        let mut out = vec![0f32; PICKED * WIDTH];
        for (row, &i) in out.chunks_exact_mut(WIDTH).zip(ids) {
            let i = i as usize;
            row.copy_from_slice(&t[i * WIDTH..(i + 1) * WIDTH]);
        }
        out
    });
}

/// The same without the zeroed allocation: each row appended to a reserved buffer.
#[divan::bench]
fn hand_extend_from_slice(b: Bencher) {
    let t = table();
    let ids = ids();
    b.bench_local(|| {
        let (t, ids) = (black_box(&t), black_box(&ids));
        let mut out = Vec::with_capacity(PICKED * WIDTH);
        for &i in ids {
            let i = i as usize;
            out.extend_from_slice(&t[i * WIDTH..(i + 1) * WIDTH]);
        }
        out
    });
}

#[divan::bench]
fn ndarray_select(b: Bencher) {
    let t = Array2::from_shape_vec((ROWS, WIDTH), table()).unwrap();
    let ids: Vec<usize> = ids().into_iter().map(|i| i as usize).collect();
    b.bench_local(|| black_box(&t).select(Axis(0), black_box(&ids)));
}
