use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    // With the shape written after the tensor, `cargo check` reports this too.
    let _ = reduce!(&t: shape_t!(10, 4), "(h h2) w -> h w", max, h2 = 3);
}
