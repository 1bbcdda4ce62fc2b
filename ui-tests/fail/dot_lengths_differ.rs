// dot takes two vectors of one length.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f64, shape_t!(3)>::zeros();
    let b = StaticTensor::<f64, shape_t!(4)>::zeros();
    let _ = a.dot(&b);
}
