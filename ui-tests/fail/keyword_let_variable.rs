// Keyword extents are literals or constants: a `let` variable is rejected by the compiler.
use strideweave::{Tensor, rearrange, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3));
    let h = 2;
    let _ = rearrange!(&t, "(h w) c -> h w c", h = h);
}
