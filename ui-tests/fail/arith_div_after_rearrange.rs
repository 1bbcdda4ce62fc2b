// `/` of a rearrangement's result: its static shape (computed by the compiler) is (3,2).
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let a = StaticTensor::<f64, shape_t!(2, 3)>::arange();
    let t = rearrange!(&a, "r c -> c r");
    let _ = &t / &a;
}
