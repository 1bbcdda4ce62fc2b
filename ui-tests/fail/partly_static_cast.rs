// A cast may not fix an extent the tensor's type leaves to run time: `try_cast` checks it.
use strideweave::{StaticTensor, shape_t};

fn main() {
    let x = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[8]).unwrap();
    let _: StaticTensor<f32, shape_t!(8, 3)> = x.cast();
}
