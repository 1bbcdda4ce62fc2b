// The pattern names two inputs but one tensor is given.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let _ = einsum!(&a, "i k, k j -> i j");
}
