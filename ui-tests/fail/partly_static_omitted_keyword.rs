// An omitted symbol must be extent 1, so a keyword above 1 on it is refused even when its
// extent is known only at run time.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(_, 4)>::zeros_with(&[1]).unwrap();
    let _ = rearrange!(&t, "b c -> c", b = 2);
}
