// `...` with static operands is refused, pointing to the dynamic form.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();
    let b = StaticTensor::<f32, shape_t!(2, 4, 5)>::zeros();
    let _ = einsum!(&a, &b, "... i k, ... k j -> ... i j");
}
