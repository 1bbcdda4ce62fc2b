// einsum! on static, dynamic and mixed operands, one and two inputs, keywords.
use strideweave::{StaticShape, StaticTensor, Tensor, einsum, shape, shape_t};

fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
    S::SHAPE.to_string()
}

const H: i64 = 2;

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    let c = einsum!(&a, &b, "i k, k j -> i j").unwrap();
    assert_eq!(shape_of(&c), "(2,4)");
    let t = einsum!(c, "i j -> j 1 i").unwrap();
    assert_eq!(shape_of(&t), "(4,1,2)");
    let x = StaticTensor::<f32, shape_t!(6, 3)>::arange();
    assert_eq!(shape_of(&einsum!(&x, "(h w) k -> w h", h = H).unwrap()), "(3,2)");
    let d = Tensor::arange::<f32>(&shape!(3, 4));
    let m: Tensor = einsum!(&a, &d, "i k, k j -> i j").unwrap();
    assert_eq!(m.shape(), &shape!(2, 4));
    let e: Tensor = einsum!(d, "... j -> ... j").unwrap();
    assert_eq!(e.shape(), &shape!(3, 4));
}
