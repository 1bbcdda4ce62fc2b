use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let x = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[8]).unwrap();
    let w = StaticTensor::<f32, shape_t!(4, 5)>::zeros();
    let _ = einsum!(&x: shape_t!(_, 3), &w: shape_t!(4, 5), "b k, k j -> b j");
}
