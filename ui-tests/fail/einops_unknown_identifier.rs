// einops' reading through its macro: a pattern mistake names `einops::rearrange!` and quotes
// the pattern as written, the caret under the term, for any tensor.
use strideweave::{Tensor, einops, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 12));
    let _ = einops::rearrange!(&t, "b (h w) -> b h w x", h = 3);
}
