use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, (3, 4))>::arange();
    let _ = rearrange!(&t, "a (b c d) -> a b c d");
}
