// The first call's result has the static shape (5,4,3); the second is checked against it.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    let v = rearrange!(&t, "(h w) c -> c h w", h = 4);
    let _ = rearrange!(v, "c h w -> h (w c)", w = 2);
}
