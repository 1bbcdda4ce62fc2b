use strideweave::{StaticTensor, shape_t};

const N: i64 = 3;

fn main() {
    let _ = StaticTensor::<f32, shape_t!(2, N)>::zeros();
}
