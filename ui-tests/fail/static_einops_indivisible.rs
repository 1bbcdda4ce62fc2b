// einops' reading on a static shape: the split is checked at compile time like `rearrange!`'s,
// the message naming `einops::rearrange!` and the group as written.
use strideweave::{StaticTensor, einops, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 10)>::zeros();
    let _ = einops::rearrange!(&t, "b (h w) -> b w h", h = 3);
}
