use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::zeros();
    // With the shape written after the tensor, `cargo check` reports this too.
    let _ = rearrange!(&t: shape_t!(10, 4), "(h w) c -> h w c", h = 3);
}
