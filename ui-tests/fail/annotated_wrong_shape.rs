use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(12, 4)>::zeros();
    let _ = rearrange!(&t: shape_t!(12, 5), "(h w) c -> h w c", h = 3);
}
