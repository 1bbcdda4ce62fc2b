// einsum takes one or two inputs.
use strideweave::{Tensor, einsum, shape};

fn main() {
    let a = Tensor::arange::<f32>(&shape!(2, 3));
    let _ = einsum!(&a, &a, "i k, k j, j l -> i l");
}
