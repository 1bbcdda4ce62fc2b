use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    let _ = reduce!(&t, "(h h2) w -> h w", max, h2 = 3);
}
