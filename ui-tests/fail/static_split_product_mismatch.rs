use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    let _ = rearrange!(&t, "(h w) c -> h w c", h = 2, w = 3);
}
