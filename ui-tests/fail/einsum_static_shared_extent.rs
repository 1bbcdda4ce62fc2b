// Static operands: the shared symbol `k` is 3 in input 0 and 4 in input 1.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 5)>::zeros();
    let _ = einsum!(&a, &b, "i k, k j -> i j");
}
