// Two vectors have no matrix product: the message points at dot and outer.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(3)>::zeros();
    let _ = a.matmul(&b);
}
