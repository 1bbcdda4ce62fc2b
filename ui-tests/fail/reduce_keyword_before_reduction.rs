use strideweave::{Tensor, reduce, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(4, 3));
    let _ = reduce!(&t, "(h h2) w -> h w", h2 = 2, max);
}
