use strideweave::{StaticTensor, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(_, 512)>::zeros_with(&[3]).unwrap();
    let b = StaticTensor::<f32, shape_t!(_, 256)>::zeros_with(&[3]).unwrap();
    let _ = &a + &b;
}
