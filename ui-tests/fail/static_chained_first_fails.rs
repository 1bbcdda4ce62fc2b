// One mistake, one error: the calls after a failed check accept its result silently.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    let v = rearrange!(&t, "(h w) c -> c h w", h = 5);
    let w = rearrange!(v, "c h w -> h w c");
    let _ = rearrange!(w, "h w c -> (h w c)");
}
