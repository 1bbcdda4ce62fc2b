// Static operands: input 1's side has two terms but its shape three top-level modes.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(3, 4, 5)>::zeros();
    let _ = einsum!(&a, &b, "i k, k j -> i j");
}
