use strideweave::{Tensor, s, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(10, 10));
    let x = 1.5f32;
    let keys: [strideweave::Key; 2] = s![x, ..];
    let _ = t.index(&keys);
}
