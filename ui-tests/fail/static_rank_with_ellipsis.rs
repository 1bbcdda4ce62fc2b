use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2)>::arange();
    let _ = rearrange!(&t, "a b ... -> ... b a");
}
