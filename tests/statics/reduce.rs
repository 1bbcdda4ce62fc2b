//! `reduce!` on static and dynamic tensors against `Tensor::reduce`: the same values (bit
//! for bit), shapes and dtype, the static result's type shape equal to the runtime shape;
//! the dynamic path's messages are the compile-time messages recorded in `ui-tests/`;
//! gradients flow through a static result as through `Tensor::reduce`.

use strideweave::{
    DType, ErrorKind, Reduction, StaticShape, StaticTensor, Tensor, rearrange, reduce, shape,
    shape_t,
};

use crate::statics::messages::recorded;
use crate::statics::support::tensor;

fn static_shape<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

/// `reduce!` on a static tensor of shape `$s` over `$t`, on `$t` itself, and
/// `Tensor::reduce` with the same pattern, reduction and keywords: all agree.
macro_rules! agree {
    ($s:ty, $t:expr, $pattern:tt, $name:ident $variant:ident $(, $k:ident = $v:expr)*) => {{
        let t: Tensor = $t;
        let what = format!("reduce {:?} {} on {}", $pattern, stringify!($name), t.layout());
        let st = StaticTensor::<f64, $s>::try_from_dynamic(t.clone()).unwrap();
        let by_static = reduce!(&st, $pattern, $name $(, $k = $v)*).unwrap();
        let by_dynamic = reduce!(&t, $pattern, Reduction::$variant $(, $k = $v)*).unwrap();
        let by_runtime = t
            .reduce($pattern, Reduction::$variant, &[$((stringify!($k), $v as usize)),*])
            .unwrap();
        assert_eq!(static_shape(&by_static), by_runtime.shape().to_string(), "{what}: static shape");
        for (path, r) in [("static", by_static.as_dynamic()), ("dynamic", &by_dynamic)] {
            assert_eq!(r.shape(), by_runtime.shape(), "{what}: {path} shape");
            assert_eq!(r.dtype(), by_runtime.dtype(), "{what}: {path} dtype");
            let (a, b) = (r.to_vec::<f64>().unwrap(), by_runtime.to_vec::<f64>().unwrap());
            assert_eq!(
                a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "{what}: {path} values {a:?} against {b:?}"
            );
        }
    }};
}

const H2: i64 = 2;

#[test]
fn reduce_agrees_with_tensor_reduce_on_compact_and_permuted_tensors() {
    for (layout, offset) in [
        ("(2,3,2,2):(1,2,6,12)", 0),
        ("(2,3,2,2):(12,4,2,1)", 3),
        ("(2,3,2,2):(-1,2,6,12)", 1),
    ] {
        let t = || tensor(layout, offset).mul_scalar(0.37).unwrap();
        type S = shape_t!(2, 3, 2, 2);
        agree!(S, t(), "b c h w -> b c", mean Mean);
        agree!(S, t(), "b c h w -> c b", sum Sum);
        agree!(S, t(), "b c h w -> (w b)", max Max);
        agree!(S, t(), "b c h w -> 1 c 1", min Min);
        agree!(S, t(), "b c h w -> w (b 1)", prod Prod);
        agree!(S, t(), "b c h w ->", sum Sum);
        agree!(S, t(), "b c h w ->", mean Mean);
        agree!(S, t(), "b c h w -> b c h w", max Max);
        agree!(S, t(), "b c h w -> h", sum Sum, b = 2, c = 3);
        agree!(S, t(), "b ... -> ...", mean Mean);
        agree!(S, t(), "b ... w -> w ...", prod Prod);
    }
}

#[test]
fn reduce_agrees_with_groups_and_keywords() {
    type S = shape_t!(4, 6);
    let t = || tensor("(4,6):(6,1)", 2);
    agree!(S, t(), "(h h2) w -> h w", max Max, h2 = 2);
    agree!(S, t(), "(h h2) w -> h w", mean Mean, h2 = H2);
    agree!(S, t(), "(h2 h) (w w2) -> w h", sum Sum, h2 = 2, w2 = 3);
    agree!(S, t(), "(h2 h) (w w2) -> (h w2)", min Min, h2 = 4, w2 = 3);
    agree!(S, t(), "(h 1) w -> w", prod Prod);
    agree!(S, t(), "a b ->", max Max);
    // A nested source: a symbol names a whole nested mode, a group matches it child by child.
    type N = shape_t!(2, (3, 4));
    let n = || tensor("(2,(3,4)):(12,(1,3))", 0);
    agree!(N, n(), "a b -> b", sum Sum);
    agree!(N, n(), "a (b c) -> (c a)", mean Mean);
    agree!(N, n(), "a (b (c c2)) -> a c b", max Max, c2 = 2);
    agree!(N, n(), "a (b c) -> c", min Min, b = 3);
}

#[test]
fn reduce_of_integers_and_bools_agrees_and_keeps_the_dtype() {
    let i = StaticTensor::<i32, shape_t!(3, 4)>::from_vec(
        (0..12).map(|x: i32| x.wrapping_mul(700_000_007)).collect(),
    )
    .unwrap();
    // Each call's result has its own type (its pattern is part of it): compare as tensors.
    for (by_macro, r) in [
        (
            reduce!(&i, "a b -> b", sum).unwrap().into_dynamic(),
            Reduction::Sum,
        ),
        (
            reduce!(&i, "a b -> b", prod).unwrap().into_dynamic(),
            Reduction::Prod,
        ),
        (
            reduce!(&i, "a b -> b", max).unwrap().into_dynamic(),
            Reduction::Max,
        ),
        (
            reduce!(&i, "a b -> b", min).unwrap().into_dynamic(),
            Reduction::Min,
        ),
    ] {
        let by_runtime = i.as_dynamic().reduce("a b -> b", r, &[]).unwrap();
        assert_eq!(by_macro.dtype(), DType::I32);
        assert_eq!(
            by_macro.to_vec::<i32>().unwrap(),
            by_runtime.to_vec::<i32>().unwrap(),
            "{r}"
        );
    }
    let b = StaticTensor::<bool, shape_t!(2, 2)>::from_vec(vec![true, false, true, true]).unwrap();
    assert_eq!(
        reduce!(&b, "a b -> b", max).unwrap().to_vec().unwrap(),
        [true, true]
    );
    assert_eq!(
        reduce!(&b, "a b -> b", min).unwrap().to_vec().unwrap(),
        [false, true]
    );
    assert!(!reduce!(&b, "a b ->", prod).unwrap().item().unwrap());
}

#[test]
fn reduce_results_are_static_and_chain() {
    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
    let m = reduce!(t.clone(), "a b c -> c (b 1)", sum).unwrap();
    assert_eq!(static_shape(&m), "(4,(3,1))");
    let r = rearrange!(&m, "c (b 1) -> b c");
    assert_eq!(static_shape(&r), "(3,4)");
    let s = reduce!(&r, b c -> c, max).unwrap();
    assert_eq!(static_shape(&s), "(4)");
    assert_eq!(s.to_vec().unwrap(), [9.0, 21.0, 33.0, 45.0]);
    let all = reduce!(&t: shape_t!(2, 3, 4), "a b c ->", mean).unwrap();
    assert_eq!(static_shape(&all), "()");
    assert_eq!(all.item().unwrap(), 11.5);
}

#[test]
fn reduce_on_a_dynamic_tensor_refuses_what_the_dtype_has_not() {
    let i = Tensor::arange::<i32>(&shape!(2, 3));
    let err = reduce!(&i, "a b -> a", mean).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(err.to_string().starts_with("reduce!: "), "{err}");
    assert!(
        err.to_string().contains("take the sum, then divide"),
        "{err}"
    );
    let b = Tensor::from_vec(vec![true, false], &shape!(2)).unwrap();
    assert!(
        reduce!(&b, "a ->", sum)
            .unwrap_err()
            .to_string()
            .starts_with("reduce!: ")
    );
    // The operand is untouched.
    assert_eq!(i.to_vec::<i32>().unwrap(), [0, 1, 2, 3, 4, 5]);
}

/// Each static-shape ui case of `reduce!`, run on a dynamic tensor of the same shape: the
/// error is the message recorded in the case's `.stderr`.
#[test]
fn reduce_on_a_dynamic_tensor_says_what_the_compiler_says() {
    let t = |s: &strideweave::Shape| Tensor::arange::<f32>(s);
    let cases = [
        (
            "reduce_static_rank",
            reduce!(&t(&shape!(2, 3, 4)), "b c -> b", mean),
        ),
        (
            "reduce_static_split_not_dividing",
            reduce!(&t(&shape!(10, 4)), "(h h2) w -> h w", max, h2 = 3),
        ),
        (
            "reduce_static_keyword_disagrees",
            reduce!(&t(&shape!(10, 4)), "a b -> b", sum, a = 11),
        ),
        (
            "reduce_static_annotated",
            reduce!(&t(&shape!(10, 4)), "(h h2) w -> h w", max, h2 = 3),
        ),
    ];
    for (case, result) in cases {
        let err = result.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{case}");
        assert_eq!(err.to_string(), recorded(case), "{case}");
    }
}

#[test]
fn gradients_flow_through_a_static_reduce_as_through_tensor_reduce() {
    let data: Vec<f64> = (0..24).map(|i| ((i * 7) % 11) as f64 * 0.5 - 2.0).collect();
    for r in crate::REDUCTIONS {
        let s = StaticTensor::<f64, shape_t!(4, 6)>::from_vec(data.clone()).unwrap();
        s.as_dynamic().set_requires_grad(true).unwrap();
        let d = Tensor::from_vec(data.clone(), &shape!(4, 6)).unwrap();
        d.set_requires_grad(true).unwrap();
        let by_macro = match r {
            Reduction::Sum => {
                reduce!(&s, "(h h2) w -> w h", sum, h2 = 2).map(StaticTensor::into_dynamic)
            }
            Reduction::Mean => {
                reduce!(&s, "(h h2) w -> w h", mean, h2 = 2).map(StaticTensor::into_dynamic)
            }
            Reduction::Max => {
                reduce!(&s, "(h h2) w -> w h", max, h2 = 2).map(StaticTensor::into_dynamic)
            }
            Reduction::Min => {
                reduce!(&s, "(h h2) w -> w h", min, h2 = 2).map(StaticTensor::into_dynamic)
            }
            Reduction::Prod => {
                reduce!(&s, "(h h2) w -> w h", prod, h2 = 2).map(StaticTensor::into_dynamic)
            }
            Reduction::LogSumExp => {
                reduce!(&s, "(h h2) w -> w h", logsumexp, h2 = 2).map(StaticTensor::into_dynamic)
            }
        }
        .unwrap();
        let by_runtime = d.reduce("(h h2) w -> w h", r, &[("h2", 2)]).unwrap();
        // A weighted sum, so that each output's cotangent differs.
        let w = Tensor::arange::<f64>(by_runtime.shape());
        by_macro.mul(&w).unwrap().sum().unwrap().backward().unwrap();
        by_runtime
            .mul(&w)
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        assert_eq!(
            s.grad().unwrap().to_vec().unwrap(),
            d.grad().unwrap().to_vec::<f64>().unwrap(),
            "{r}"
        );
    }
}

/// Random shapes and values through fixed `reduce!` patterns on a dynamic tensor: never a
/// panic; a result equal to `Tensor::reduce`'s (values and shape), or an error that starts
/// `reduce!: ` and says what `Tensor::reduce` says; the operand untouched either way.
mod random {
    use proptest::prelude::*;
    use strideweave::{Reduction, Result, Shape, Tensor, reduce};

    fn shapes() -> impl Strategy<Value = (Vec<i64>, Vec<f64>)> {
        (1usize..=4)
            .prop_flat_map(|rank| proptest::collection::vec(1i64..=4, rank))
            .prop_flat_map(|extents| {
                let n = extents.iter().product::<i64>() as usize;
                (Just(extents), proptest::collection::vec(-8i32..8, n))
            })
            .prop_map(|(e, v)| (e, v.into_iter().map(|x| f64::from(x) * 0.5).collect()))
    }

    type Case = (&'static str, Reduction, Vec<(&'static str, usize)>);

    fn calls(t: &Tensor) -> Vec<(Case, Result<Tensor>)> {
        vec![
            (
                ("a b -> a", Reduction::Sum, vec![]),
                reduce!(t, "a b -> a", sum),
            ),
            (
                ("a b c -> c a", Reduction::Mean, vec![]),
                reduce!(t, "a b c -> c a", mean),
            ),
            (
                ("(h h2) w -> h w", Reduction::Max, vec![("h2", 2)]),
                reduce!(t, "(h h2) w -> h w", max, h2 = 2),
            ),
            (
                ("a ... -> ...", Reduction::Min, vec![]),
                reduce!(t, "a ... -> ...", min),
            ),
            (
                ("a b c d ->", Reduction::Prod, vec![]),
                reduce!(t, "a b c d ->", prod),
            ),
            (
                ("a b -> b", Reduction::Sum, vec![("a", 3)]),
                reduce!(t, "a b -> b", sum, a = 3),
            ),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn reduce_on_random_shapes_equals_tensor_reduce_or_says_why((extents, values) in shapes()) {
            let shape: Shape = format!("({})", extents.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
                .parse()
                .unwrap();
            let t = Tensor::from_vec(values.clone(), &shape).unwrap();
            for ((pattern, r, sizes), got) in calls(&t) {
                let want = t.reduce(pattern, r, &sizes);
                match (got, want) {
                    (Ok(g), Ok(w)) => {
                        prop_assert_eq!(g.shape(), w.shape());
                        prop_assert_eq!(g.to_vec::<f64>().unwrap(), w.to_vec::<f64>().unwrap());
                    }
                    (Err(g), Err(w)) => {
                        let (g, w) = (g.to_string(), w.to_string());
                        prop_assert!(g.starts_with("reduce!: "), "{}", g);
                        let detail = w.strip_prefix("reduce: ").unwrap();
                        prop_assert!(g["reduce!: ".len()..].starts_with(detail), "{} against {}", g, w);
                    }
                    (g, w) => prop_assert!(false, "{pattern} on {shape}: {g:?} against {w:?}"),
                }
                prop_assert_eq!(&t.to_vec::<f64>().unwrap(), &values);
            }
        }
    }
}

/// A split whose factors are all reduced lists more leaves than the source and the right
/// side hold: the run-time front end sizes its room for them (it once refused
/// `"(a b c) -> 1"` on one leaf as "more than the macros handle").
#[test]
fn reduce_of_a_split_leaf_into_many_reduced_factors() {
    type S = shape_t!(12);
    let t = || tensor("(12):(1)", 0);
    agree!(S, t(), "(a b c) -> 1", sum Sum, a = 2, b = 3);
    agree!(S, t(), "(a b c) ->", max Max, a = 2, c = 1);
    let d = Tensor::arange::<f64>(&shape!(12));
    let r = d
        .reduce(
            "(a b c d) -> 1",
            Reduction::Prod,
            &[("a", 1), ("b", 2), ("c", 3)],
        )
        .unwrap();
    assert_eq!(r.shape(), &shape!(1));
}
