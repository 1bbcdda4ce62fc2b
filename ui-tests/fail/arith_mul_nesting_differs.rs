// `*` of static tensors of equal sizes whose second modes nest differently.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, (3, 4))>::zeros();
    let b = StaticTensor::<f32, shape_t!(2, 12)>::zeros();
    let _ = &a * &b;
}
