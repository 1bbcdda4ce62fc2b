// A contracted axis beyond the operand's rank.
use strideweave::{Axes, StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::zeros();
    let _ = a.contract::<Axes<2>, Axes<0>, _>(&b); // a has axes 0 and 1
}
