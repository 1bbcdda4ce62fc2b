use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    const H: i64 = 0;
    let _ = rearrange!(&t, "(h w) c -> h w c", h = H);
}
