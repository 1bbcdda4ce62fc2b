// The annotated form: `cargo check` (and rust-analyzer) see einsum!'s shape mistakes.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 4)>::zeros();
    let _ = einsum!(&a: shape_t!(2, 3), &b: shape_t!(4, 4), "i k, k j -> i j");
}
