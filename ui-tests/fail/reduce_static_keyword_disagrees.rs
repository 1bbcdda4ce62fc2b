use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    let _ = reduce!(&t, "a b -> b", sum, a = 11);
}
