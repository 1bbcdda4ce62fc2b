use strideweave::{Tensor, rearrange, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(2, 3));
    let _ = rearrange!(&t, "(h w) c -> h w c", h = 2i32);
}
