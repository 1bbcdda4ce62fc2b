// matmul of static matrices whose inner extents differ: (2,3) · (4,5).
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 5)>::zeros();
    let _ = a.matmul(&b);
}
