use strideweave::{Tensor, repeat, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3));
    let _ = repeat!(&t, "h w -> h w c");
}
