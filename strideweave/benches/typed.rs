//! `TypedTensorView::to_col_major` of a transposed 2048² `f32` view (divan): the copy-engine
//! path the view takes for the dtype set's element types, the generic clone path any other
//! `T` takes (a newtype around `f32`), `Tensor::materialize` of the same transposed view, and
//! a hand loop writing the destination in order.
//!
//! Run with `cargo bench -p strideweave --bench typed`; not part of the test command. Like
//! `benches/copy.rs`, `RAYON_NUM_THREADS=1` gives the single-thread numbers.

use divan::{Bencher, black_box};
use strideweave::{Shape, Tensor, TypedTensorView};

fn main() {
    divan::main();
}

const N: usize = 2048;

fn source() -> Vec<f32> {
    (0..N * N).map(|i| i as f32).collect()
}

/// A `Clone` element type outside the dtype set: it takes the generic path.
#[derive(Clone, Copy)]
struct Other(#[allow(dead_code)] f32);

mod to_col_major_2048 {
    use super::*;

    /// The transposed view: logical `(i, j)` is element `j + i·N`.
    fn transposed<T>(data: &[T]) -> TypedTensorView<'_, T> {
        TypedTensorView::from_slice([N, N], [N as isize, 1], 0, data).unwrap()
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn typed_view_engine(b: Bencher) {
        let data = source();
        let view = transposed(&data);
        b.bench_local(|| black_box(&view).to_col_major().unwrap());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn typed_view_generic(b: Bencher) {
        let data: Vec<Other> = source().into_iter().map(Other).collect();
        let view = transposed(&data);
        b.bench_local(|| black_box(&view).to_col_major().unwrap());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn tensor_materialize(b: Bencher) {
        let shape: Shape = format!("({N},{N})").parse().unwrap();
        let t = Tensor::arange::<f32>(&shape).permute(&[1, 0]).unwrap();
        b.bench_local(|| black_box(&t).materialize().unwrap());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn hand_loop(b: Bencher) {
        let data = source();
        b.bench_local(|| {
            let src = black_box(&data);
            let mut out = Vec::with_capacity(N * N);
            for j in 0..N {
                for i in 0..N {
                    out.push(src[j + i * N]);
                }
            }
            out
        });
    }
}
