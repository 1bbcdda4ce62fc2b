// matmul takes matrices: a rank-3 left operand is refused.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 5)>::zeros();
    let _ = a.matmul(&b);
}
