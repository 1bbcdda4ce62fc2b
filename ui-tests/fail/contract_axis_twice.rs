// An axis listed twice.
use strideweave::{Axes, StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(3, 3)>::zeros();
    let _ = a.contract::<Axes<1, 1>, Axes<0, 1>, _>(&a);
}
