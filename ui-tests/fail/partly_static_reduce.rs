use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let x = StaticTensor::<f32, shape_t!(_, 6)>::zeros_with(&[8]).unwrap();
    let _ = reduce!(&x: shape_t!(_, 6), "b (h c) -> b c", mean, h = 4);
}
