use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
    let _ = reduce!(&t, "b c -> b", mean);
}
