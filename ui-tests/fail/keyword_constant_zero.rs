// A constant's value is checked in const context, with the same message as a literal's.
use strideweave::{Tensor, rearrange, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3));
    const H: i64 = 0;
    let _ = rearrange!(&t, "(h w) c -> h w c", h = H);
}
