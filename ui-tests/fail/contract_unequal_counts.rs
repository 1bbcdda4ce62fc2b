// The axis lists pair by position, so they must have one length.
use strideweave::{Axes, StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(3, 2)>::zeros();
    let _ = a.contract::<Axes<1>, Axes<0, 1>, _>(&b);
}
