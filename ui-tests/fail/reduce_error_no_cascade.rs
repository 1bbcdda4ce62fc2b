use strideweave::{StaticTensor, StaticShape, Tensor, reduce, shape, shape_t};

fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
    S::SHAPE.to_string()
}

// After a mistake the macro reports itself, the result still has the right type, so the
// code around it type-checks and the only message is the macro's own.
fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    let u = reduce!(&t, "a b -> a", avg).unwrap();
    println!("{}", shape_of(&u));
    let d = Tensor::arange::<f32>(&shape!(2, 3));
    let e: Tensor = reduce!(&d, "a b -> a x", sum).unwrap();
    println!("{}", e.shape());
}
