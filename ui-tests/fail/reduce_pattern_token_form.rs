use strideweave::{Tensor, reduce, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3));
    // The token form points at the offending token.
    let _ = reduce!(&t, a b -> a a, sum);
}
