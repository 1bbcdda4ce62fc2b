// Static operand: h = 4 does not divide the extent 6 that the group `(h w)` splits.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(6, 3)>::zeros();
    let _ = einsum!(&a, "(h w) k -> h", h = 4);
}
