// A tensor passed by value is checked the same way.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let _ = rearrange!(t, "a -> a");
}
