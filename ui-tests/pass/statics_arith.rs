//! `+ - * /` of equal static shapes and `matmul` of static matrices: typed results, chains.

use strideweave::{MatMul, StaticShape, StaticTensor, rearrange, shape_t};

fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
    S::SHAPE.to_string()
}

// A product's type names its shape; `cast` checks a named shape at compile time.
fn project(
    x: &StaticTensor<f32, shape_t!(4, 3)>,
    w: &StaticTensor<f32, shape_t!(3, 2)>,
) -> strideweave::Result<StaticTensor<f32, shape_t!(4, 2)>> {
    Ok(x.matmul(w)?.cast())
}

fn main() -> strideweave::Result<()> {
    let x = StaticTensor::<f32, shape_t!(4, 3)>::arange();
    let w = StaticTensor::<f32, shape_t!(3, 2)>::arange();
    let y: StaticTensor<f32, MatMul<shape_t!(4, 3), shape_t!(3, 2)>> = x.matmul(&w)?;
    assert_eq!(shape_of(&y), "(4,2)");
    assert_eq!(project(&x, &w)?.to_vec()?, y.to_vec()?);

    // Equal static shapes of different types: a rearrangement's result and a named shape.
    let t = rearrange!(&w, "k n -> n k");
    let sum = (&t + &StaticTensor::<f32, shape_t!(2, 3)>::arange())?;
    assert_eq!(shape_of(&sum), "(2,3)");
    let prod = (&(&sum * &sum)? - &sum)?;
    let quot = (&prod / &(&sum + &StaticTensor::<f32, shape_t!(2, 3)>::arange())?)?;
    assert_eq!(shape_of(&(-&quot)?), "(2,3)");

    // `3` and `(3)` denote the same shape at the root.
    let v = StaticTensor::<f32, shape_t!(3)>::arange();
    let v1 = StaticTensor::<f32, shape_t!(3,)>::arange();
    assert_eq!((&v + &v1)?.to_vec()?, [0.0, 2.0, 4.0]);

    // Nested modes multiply as the runtime matmul does, keeping the outer nesting.
    let a = StaticTensor::<f32, shape_t!((2, 2), (3, 1))>::arange();
    let b = StaticTensor::<f32, shape_t!((3, 1), 5)>::arange();
    assert_eq!(shape_of(&a.matmul(&b)?), "((2,2),5)");
    Ok(())
}
