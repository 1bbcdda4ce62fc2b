use strideweave::{StaticTensor, repeat, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(_, (4, _))>::zeros_with(&[2, 3]).unwrap();
    let _ = repeat!(&t, "b c d -> b c d r", r = 2);
}
