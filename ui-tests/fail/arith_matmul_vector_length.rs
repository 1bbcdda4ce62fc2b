// Matrix × vector: the vector's length must equal the matrix's column mode.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let v = StaticTensor::<f32, shape_t!(4)>::zeros();
    let _ = a.matmul(&v);
}
