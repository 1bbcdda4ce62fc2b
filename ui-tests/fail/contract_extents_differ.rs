// contract pairs axes by position: a's axis 1 (extent 3) with b's axis 0 (extent 4).
use strideweave::{Axes, StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 5, 3)>::zeros();
    let _ = a.contract::<Axes<1, 2>, Axes<0, 2>, _>(&b); // meant Axes<2, 0>
}
