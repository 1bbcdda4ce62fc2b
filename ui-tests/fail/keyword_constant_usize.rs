// Extents are `i64` everywhere (as in `Layout::rearrange`'s sizes): a `usize` constant is a
// type error at the constant.
use strideweave::{Tensor, rearrange, shape};

const H: usize = 2;

fn main() {
    let t = Tensor::arange::<f32>(&shape!(4, 3));
    let _ = rearrange!(&t, "(h w) c -> h w c", h = H);
}
