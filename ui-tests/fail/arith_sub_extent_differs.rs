// `-` of static tensors whose second modes differ in extent.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(2, 4)>::zeros();
    let _ = &a - &b;
}
