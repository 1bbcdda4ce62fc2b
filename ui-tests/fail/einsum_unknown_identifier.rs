// An output symbol that no input names: a pattern mistake, at the pattern, for any tensors.
use strideweave::{Tensor, einsum, shape};

fn main() {
    let a = Tensor::arange::<f32>(&shape!(2, 3));
    let b = Tensor::arange::<f32>(&shape!(3, 4));
    let _ = einsum!(&a, &b, "i k, k j -> i x");
}
