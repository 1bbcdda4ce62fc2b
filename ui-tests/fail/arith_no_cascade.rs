// One mistake, one error: the failed product's shape is accepted silently by the later
// operations on it.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() -> strideweave::Result<()> {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let c = a.matmul(&b)?; // (2,3) · (2,3): the inner modes differ
    let d = (&c + &a)?;
    let e = rearrange!(&d, "x y -> y x");
    let _ = e.matmul(&c)?;
    Ok(())
}
