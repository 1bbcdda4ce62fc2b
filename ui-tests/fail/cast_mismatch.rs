use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(12, 5)>::zeros();
    // (h w) with h = 3 gives (3,4,5), not (4,3,5).
    let _: StaticTensor<f32, shape_t!(4, 3, 5)> =
        rearrange!(t, "(h w) c -> h w c", h = 3).cast();
}
