// Batched matmul: the leading (batch) modes must be equal; nothing broadcasts.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();
    let b = StaticTensor::<f32, shape_t!(3, 4, 5)>::zeros();
    let _ = a.matmul(&b);
}
