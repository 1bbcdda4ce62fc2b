// A negative constant is reported at the constant, with the words of a negative literal.
use strideweave::{StaticTensor, repeat, shape_t};

const R: i64 = -3;

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let _ = repeat!(&t, "h w -> h w r", r = R);
}
