use strideweave::{StaticTensor, repeat, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let _ = repeat!(&t, "h -> h r", r = 2);
}
