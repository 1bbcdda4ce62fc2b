// `zeros()` needs every extent; a shape with `_` takes its run-time extents.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let _ = StaticTensor::<f32, shape_t!(_, 3)>::zeros();
}
