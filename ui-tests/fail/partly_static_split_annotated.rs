// With the shape written after the tensor, `cargo check` sees the mistake too.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(_, 512)>::zeros_with(&[3]).unwrap();
    let _ = rearrange!(&t: shape_t!(_, 512), "b (h d) -> b h d", h = 5);
}
