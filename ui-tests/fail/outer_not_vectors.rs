// outer takes two vectors; a matrix is refused.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f64, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f64, shape_t!(3)>::zeros();
    let _ = a.outer(&b);
}
