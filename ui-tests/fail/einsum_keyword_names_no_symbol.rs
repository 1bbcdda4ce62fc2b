// A keyword that names no symbol of the inputs.
use strideweave::{Tensor, einsum, shape};

fn main() {
    let a = Tensor::arange::<f32>(&shape!(6, 3));
    let _ = einsum!(&a, "(h w) k -> h", z = 2);
}
