// `...` on an input but not on the output.
use strideweave::{Tensor, einsum, shape};

fn main() {
    let a = Tensor::arange::<f32>(&shape!(2, 3));
    let _ = einsum!(&a, "... i -> i");
}
