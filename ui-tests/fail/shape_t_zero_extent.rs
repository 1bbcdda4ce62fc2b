use strideweave::{StaticTensor, shape_t};

fn main() {
    let _ = StaticTensor::<f32, shape_t!(2, (3, 0))>::zeros();
}
