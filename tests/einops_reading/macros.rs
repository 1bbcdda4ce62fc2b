//! The einops macros against the functions, on `Tensor` and `StaticTensor`.

use strideweave::{
    Reduction, StaticShape, StaticTensor, Tensor, einops, rearrange, reduce, repeat, shape, shape_t,
};

use super::numpy_values;

fn x() -> Tensor {
    Tensor::from_vec_row_major((0..24).map(|v| v as f32).collect(), &shape!(2, 3, 4)).unwrap()
}

#[test]
fn on_a_tensor_the_macros_are_the_functions() {
    let t = x();
    for (mac, fun) in [
        (
            einops::rearrange!(&t, "b (h w) c -> c b h w", h = 1).unwrap(),
            einops::rearrange(&t, "b (h w) c -> c b h w", &[("h", 1)]).unwrap(),
        ),
        (
            einops::rearrange!(&t, b n c -> (b n) c).unwrap(),
            einops::rearrange(&t, "b n c -> (b n) c", &[]).unwrap(),
        ),
        (
            einops::repeat!(&t, "b n c -> b n c r", r = 2).unwrap(),
            einops::repeat(&t, "b n c -> b n c r", &[("r", 2)]).unwrap(),
        ),
        (
            einops::reduce!(&t, "b n (c c2) -> (b n) c", max, c2 = 2).unwrap(),
            einops::reduce(&t, "b n (c c2) -> (b n) c", Reduction::Max, &[("c2", 2)]).unwrap(),
        ),
        (
            einops::einsum!(&t, "b n c -> (c b)").unwrap(),
            einops::einsum("b n c -> (c b)", &[&t]).unwrap(),
        ),
    ] {
        assert_eq!(mac.shape(), fun.shape());
        assert_eq!(numpy_values::<f32>(&mac), numpy_values::<f32>(&fun));
    }
}

#[test]
fn on_a_static_tensor_without_a_right_group_it_is_the_default_macro_mirrored() {
    let s = StaticTensor::<f32, shape_t!(2, 12)>::arange();
    let e = einops::rearrange!(&s, "b (h w) -> w b h", h = 3);
    let d = rearrange!(&s, "b (w h) -> w b h", h = 3);
    assert_eq!(e.layout(), d.layout());
    let e = einops::repeat!(&s, "b (h w) -> b h w r", h = 3, r = 2);
    let d = repeat!(&s, "b (w h) -> b h w r", h = 3, r = 2);
    assert_eq!(e.layout(), d.layout());
    let e = einops::reduce!(&s, "b (h w) -> h", sum, h = 3).unwrap();
    let d = reduce!(&s, "b (w h) -> h", sum, h = 3).unwrap();
    assert_eq!(e.to_vec().unwrap(), d.to_vec().unwrap());
    // Checked at compile time on the shape written after the tensor.
    let a = einops::rearrange!(&s: shape_t!(2, 12), "b (h w) -> b h w", h = 4);
    assert_eq!(a.shape(), &shape!(2, 4, 3));
}

#[test]
fn on_a_static_tensor_with_a_right_group_it_is_a_result_of_the_flattened_shape() {
    let d = x();
    let s: StaticTensor<f32, shape_t!(2, 3, 4)> =
        StaticTensor::try_from_dynamic(d.clone()).unwrap();
    let g = einops::rearrange!(&s, "b n c -> (b n) c").unwrap();
    let f = einops::rearrange(&d, "b n c -> (b n) c", &[]).unwrap();
    assert_eq!(g.shape(), f.shape());
    assert_eq!(numpy_values::<f32>(g.as_dynamic()), numpy_values::<f32>(&f));
    fn static_shape<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
        S::SHAPE.to_string()
    }
    assert_eq!(static_shape(&g), "(6,4)");
    let c: StaticTensor<f32, shape_t!(6, 4)> = g.cast();
    assert_eq!(c.shape(), &shape!(6, 4));
    // Nested and split groups.
    let g = einops::rearrange!(&s, "b n (c c2) -> (n (b c2)) c", c2 = 2);
    assert!(g.is_err(), "transposed: materialize first");
    let g = einops::rearrange!(&s, "b n (c c2) -> b (n c c2)", c2 = 2).unwrap();
    assert_eq!(static_shape(&g), "(2,12)");
    // A refused group is an Err, never a panic.
    let err = einops::rearrange!(&s, "b n c -> (c b) n").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::rearrange!: the group `(c b)`"),
        "{err}"
    );
    // reduce! with a group on the right: the fresh result's group.
    let r = einops::reduce!(&s, "b n c -> (c b)", sum).unwrap();
    assert_eq!(static_shape(&r), "(8)");
    let f = einops::reduce(&d, "b n c -> (c b)", Reduction::Sum, &[]).unwrap();
    assert_eq!(numpy_values::<f32>(r.as_dynamic()), numpy_values::<f32>(&f));
    // repeat! with a broadcast group that merges (both new: stride 0).
    let r = einops::repeat!(&s, "b n c -> b n c (r q)", r = 2, q = 3).unwrap();
    assert_eq!(static_shape(&r), "(2,3,4,6)");
}
