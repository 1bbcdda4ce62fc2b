// A static keyword that does not divide a static extent is a compile error even when the
// batch is known only at run time.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(_, 512)>::zeros_with(&[3]).unwrap();
    let _ = rearrange!(&t, "b (h d) -> b h d", h = 5);
}
