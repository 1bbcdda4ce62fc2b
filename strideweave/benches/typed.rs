//! `TypedTensorView::to_col_major` of a transposed 2048² `f32` view (divan): the copy-engine
//! path the view takes for the dtype set's element types, the generic clone path any other
//! `T` takes (a newtype around `f32`), `Tensor::materialize` of the same transposed view, and
//! a hand loop writing the destination in order; and `TypedTensorViewMut::copy_from` of the
//! same transposed view and of a compact one, beside `Tensor::copy_from` and `memcpy`.
//!
//! Run with `cargo bench -p strideweave --bench typed`; not part of the test command. Like
//! `benches/copy.rs`, `RAYON_NUM_THREADS=1` gives the single-thread numbers.

use divan::{Bencher, black_box};
use strideweave::typed::TypedTensorViewMut;
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

mod copy_from_2048 {
    use super::*;

    fn typed(b: Bencher, strides: [isize; 2]) {
        let data = source();
        let from = TypedTensorView::from_slice([N, N], strides, 0, &data).unwrap();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| {
            TypedTensorViewMut::from_col_major_mut(&[N, N], &mut out)
                .unwrap()
                .copy_from(black_box(&from))
                .unwrap()
        });
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn typed_mut_transposed(b: Bencher) {
        typed(b, [N as isize, 1]);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn typed_mut_compact(b: Bencher) {
        typed(b, [1, N as isize]);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn tensor_transposed(b: Bencher) {
        let shape: Shape = format!("({N},{N})").parse().unwrap();
        let t = Tensor::arange::<f32>(&shape).permute(&[1, 0]).unwrap();
        let out = Tensor::zeros::<f32>(&shape);
        b.bench_local(|| out.copy_from(black_box(&t)).unwrap());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn memcpy(b: Bencher) {
        let data = source();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| out.copy_from_slice(black_box(&data)));
    }
}
