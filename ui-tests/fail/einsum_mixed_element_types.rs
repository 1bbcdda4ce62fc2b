// Static operands of different element types.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f64, shape_t!(3, 4)>::zeros();
    let _ = einsum!(&a, &b, "i k, k j -> i j");
}
