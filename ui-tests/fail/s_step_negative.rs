use strideweave::{Key, Tensor, s, shape};

fn main() {
    let t = Tensor::arange::<f32>(&shape!(10, 10));
    let keys: [Key; 2] = s![..;-2, ..];
    let _ = t.index(&keys);
}
