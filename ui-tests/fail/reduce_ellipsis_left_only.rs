use strideweave::{Tensor, reduce, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3, 4));
    let _ = reduce!(&t, "a ... -> a", sum);
}
