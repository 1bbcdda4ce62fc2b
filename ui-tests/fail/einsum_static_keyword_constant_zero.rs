// A keyword constant below 1 (only the compiler knows its value).
use strideweave::{StaticTensor, einsum, shape_t};

const H: i64 = 0;

fn main() {
    let a = StaticTensor::<f32, shape_t!(6, 3)>::zeros();
    let _ = einsum!(&a, "(h w) k -> h", h = H);
}
