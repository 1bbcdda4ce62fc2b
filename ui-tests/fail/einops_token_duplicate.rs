// The token form of einops' reading: the error points at the duplicate symbol itself.
use strideweave::{Tensor, einops, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 12));
    let _ = einops::repeat!(&t, b (h w) -> b (h w h) r, h = 3, r = 2);
}
