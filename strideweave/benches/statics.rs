//! The per-call cost of static `einsum!` and `reduce!` (divan) on small shapes, where the
//! run-time work around the kernels shows: a static call applies the plans the compiler
//! computed, a dynamic one compiles the macro's encoded patterns on the run-time shapes.
//!
//! Run with `cargo bench -p strideweave --bench statics`; not part of the test command.

use divan::{Bencher, black_box};
use strideweave::{StaticTensor, einsum, reduce, shape_t};

fn main() {
    divan::main();
}

#[divan::bench]
fn einsum_static_matmul_2x3_3x4(bencher: Bencher) {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    bencher.bench_local(|| black_box(einsum!(black_box(&a), black_box(&b), "i k, k j -> i j")));
}

#[divan::bench]
fn einsum_dynamic_matmul_2x3_3x4(bencher: Bencher) {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::arange().into_dynamic();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::arange().into_dynamic();
    bencher.bench_local(|| black_box(einsum!(black_box(&a), black_box(&b), "i k, k j -> i j")));
}

#[divan::bench]
fn reduce_static_sum_2x3x4(bencher: Bencher) {
    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
    bencher.bench_local(|| black_box(reduce!(black_box(&t), "a b c -> a", sum)));
}

#[divan::bench]
fn reduce_dynamic_sum_2x3x4(bencher: Bencher) {
    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange().into_dynamic();
    bencher.bench_local(|| black_box(reduce!(black_box(&t), "a b c -> a", sum)));
}
