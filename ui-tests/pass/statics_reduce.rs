//! `reduce!` on static and dynamic tensors: typed results, chains, every form.

use strideweave::{
    Reduced, Reduction, StaticShape, StaticTensor, Tensor, rearrange, reduce, shape, shape_t,
};

const H2: i64 = 2;

fn shape_of<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

// A result's shape is a type; a function returns it as `impl StaticShape`.
fn pool(t: &StaticTensor<f32, shape_t!(4, 3)>) -> StaticTensor<f32, impl StaticShape> {
    reduce!(t, "(h h2) w -> h w", max, h2 = H2).unwrap()
}

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3, 2, 2)>::arange();
    let m: StaticTensor<f32, Reduced<_, _>> = reduce!(&t, "b c h w -> b c", mean).unwrap();
    assert_eq!(shape_of(&m), "(2,3)");
    // Chained: the result is static, so the next call is checked too.
    let s = reduce!(&m, "b c -> c", Reduction::Sum).unwrap();
    assert_eq!(s.to_vec().unwrap(), [19.0, 23.0, 27.0]);
    let r = rearrange!(&s, "c -> 1 c");
    assert_eq!(shape_of(&r), "(1,3)");
    assert_eq!(shape_of(&pool(&StaticTensor::arange())), "(2,3)");
    // Seen by `cargo check`, token form, full reduction.
    let a = reduce!(&t: shape_t!(2, 3, 2, 2), b c h w -> (w h) 1, prod).unwrap();
    assert_eq!(shape_of(&a), "((2,2),1)");
    assert_eq!(reduce!(t, "b c h w ->", min).unwrap().item().unwrap(), 0.0);
    // Integers take sum, max, min, prod; bool max (any), min (all), prod (all).
    let i = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    assert_eq!(reduce!(&i, "a b -> b", sum).unwrap().to_vec().unwrap(), [1, 5, 9]);
    let d = Tensor::arange::<f64>(&shape!(4, 3));
    let p = reduce!(&d, "(h h2) w -> h w", mean, h2 = 2).unwrap();
    assert_eq!(p.shape(), &shape!(2, 3));
}
