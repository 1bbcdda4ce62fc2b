// `+` of static tensors: the right operand has one more top-level mode.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();
    let _ = &a + &b;
}
