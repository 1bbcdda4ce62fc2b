use strideweave::{StaticTensor, repeat, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    // The token form with the shape written after the tensor: the error points at the term.
    let _ = repeat!(&t: shape_t!(2, 3), a b 1 -> a b r, r = 2);
}
