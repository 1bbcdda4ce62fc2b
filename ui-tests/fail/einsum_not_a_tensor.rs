// An operand that is not a tensor.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let _ = einsum!(&a, 3, "i k, k j -> i j");
}
