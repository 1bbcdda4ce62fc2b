use strideweave::{Tensor, s, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(10, 10));
    let keys = s![1, , 2];
    let _ = t.index(&keys);
}
