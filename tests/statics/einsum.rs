//! `einsum!` (issue 13, items 4, 7, 9): on static operands its typed result and on dynamic
//! ones its `Result<Tensor>` equal `Tensor::einsum_with` (values, shapes, layouts); the static
//! result's type shape is the run-time shape; run-time errors start `einsum!: ` and leave the
//! operands untouched; gradients flow through a static result. The compile-time rejections
//! are the `ui-tests/fail/einsum_*` cases.

use proptest::prelude::*;
use strideweave::{Einsummed, StaticShape, StaticTensor, Tensor, einsum, shape, shape_t};

use crate::statics::support::tensor;

fn shape_of<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

/// A static tensor of shape `S` holding 0.5, 1.5, … scaled by `k` (distinct per operand).
fn filled<S: StaticShape>(k: f64) -> StaticTensor<f64, S> {
    let n = S::SHAPE.size();
    StaticTensor::from_vec((0..n).map(|i| (i as f64 + 0.5) * k).collect()).unwrap()
}

/// Each result has `want`'s layout and values.
#[track_caller]
fn agree(pattern: &str, want: &Tensor, got: &[(&str, &Tensor)]) {
    for (what, got) in got {
        assert_eq!(got.layout(), want.layout(), "{pattern}: {what} layout");
        assert_eq!(
            got.to_vec::<f64>().unwrap(),
            want.to_vec::<f64>().unwrap(),
            "{pattern}: {what} values"
        );
    }
}

/// `einsum!` on two static operands, on the same tensors as dynamic operands (by value and
/// by reference) and with one of each, against `Tensor::einsum_with`: same shape, layout
/// and values; the static result's type shape is its run-time shape.
macro_rules! case2 {
    ($a:ty, $b:ty, $pattern:literal $(, $k:ident = $v:literal)*) => {{
        let a = filled::<$a>(1.0);
        let b = filled::<$b>(0.25);
        let want = Tensor::einsum_with(
            $pattern,
            &[a.as_dynamic(), b.as_dynamic()],
            &[$((stringify!($k), $v)),*],
        )
        .unwrap();
        let s = einsum!(&a, &b, $pattern $(, $k = $v)*).unwrap();
        assert_eq!(shape_of(&s), want.shape().to_string(), "{}: type shape", $pattern);
        let d = einsum!(a.as_dynamic(), b.as_dynamic().clone(), $pattern $(, $k = $v)*).unwrap();
        let m = einsum!(&a, b.as_dynamic(), $pattern $(, $k = $v)*).unwrap();
        agree($pattern, &want, &[("static", s.as_dynamic()), ("dynamic", &d), ("mixed", &m)]);
    }};
}

/// As `case2!`, one operand.
macro_rules! case1 {
    ($a:ty, $pattern:literal $(, $k:ident = $v:literal)*) => {{
        let a = filled::<$a>(1.0);
        let want = Tensor::einsum_with($pattern, &[a.as_dynamic()], &[$((stringify!($k), $v)),*]).unwrap();
        let s = einsum!(a.clone(), $pattern $(, $k = $v)*).unwrap();
        assert_eq!(shape_of(&s), want.shape().to_string(), "{}: type shape", $pattern);
        let d = einsum!(a.as_dynamic(), $pattern $(, $k = $v)*).unwrap();
        agree($pattern, &want, &[("static", s.as_dynamic()), ("dynamic", &d)]);
    }};
}

#[test]
fn einsum_macro_static_and_dynamic_results_equal_tensor_einsum_with() {
    case2!(shape_t!(2, 3), shape_t!(3, 4), "i k, k j -> i j");
    case2!(
        shape_t!(2, 3, 4),
        shape_t!(2, 4, 5),
        "b i k, b k j -> b i j"
    );
    case2!(
        shape_t!(2, 2, 3, 4),
        shape_t!(2, 2, 5, 4),
        "b h q d, b h k d -> b h q k"
    );
    case2!(shape_t!(3), shape_t!(4), "i, j -> i j");
    case2!(shape_t!(3), shape_t!(3), "i, i -> i");
    case2!(shape_t!(2, 3), shape_t!(3, 4), "i k, k j -> j i");
    case2!(shape_t!(2, 3), shape_t!(3, 4), "i k, k j -> i 1 j");
    case2!(shape_t!(2, 3), shape_t!(3, 4), "i k, k j -> (i j)");
    case2!(shape_t!(2, 3), shape_t!(4), "i k, j -> k");
    case2!(shape_t!(6, 2), shape_t!(3, 2), "(h w) k, w k -> h", h = 2);
    case2!(shape_t!(6, 2), shape_t!(3, 2), "(h w) k, w k -> w h", w = 3);
    // Nested static modes: a symbol stands for a whole nested mode.
    case2!(shape_t!((2, 3), 4), shape_t!(4, 5), "a k, k j -> a j");
    case2!(shape_t!((2, 3), 4), shape_t!(4, (2, 3)), "a k, k b -> b a");
    case1!(shape_t!(2, 3), "i j -> j i");
    case1!(shape_t!(2, 3), "i j -> i");
    case1!(shape_t!(2, 3, 4), "a b c -> c (a b)");
    case1!(shape_t!(6, 4), "(h w) c -> c h", h = 3);
    case1!(shape_t!(3), "i -> i 1");
}

#[test]
fn einsum_macro_static_result_types_name_its_shape() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    type M23 = shape_t!(2, 3);
    type M34 = shape_t!(3, 4);
    let c: StaticTensor<f32, Einsummed<M23, M34, _>> = einsum!(&a, &b, "i k, k j -> i j").unwrap();
    // A typed result feeds the next checked call.
    let d = einsum!(&c, &b, "i j, k j -> i k").unwrap();
    assert_eq!(shape_of(&d), "(2,3)");
    let e = (&d + &a).unwrap();
    assert_eq!(shape_of(&e), "(2,3)");
    let c: StaticTensor<f32, shape_t!(2, 4)> = c.cast();
    assert_eq!(c.to_vec().unwrap(), a.matmul(&b).unwrap().to_vec().unwrap());
    // Integers, as Tensor::einsum: wrapping.
    let i = StaticTensor::<i32, shape_t!(2, 2)>::arange();
    let p = einsum!(&i, &i, "i k, k j -> i j").unwrap();
    assert_eq!(p.to_vec().unwrap(), [2, 3, 6, 11]);
    // Constant keywords.
    const H: i64 = 2;
    let x = StaticTensor::<f32, shape_t!(6, 3)>::arange();
    let s = einsum!(&x, "(h w) k -> h", h = H).unwrap();
    assert_eq!(s.to_vec().unwrap(), [72.0, 81.0]);
}

#[test]
fn einsum_macro_on_any_layout_reads_the_elements() {
    // Row-major and reversed layouts of the static shape (2,3).
    for layout in ["(2,3):(3,1)", "(2,3):(-1,-2)"] {
        let t = tensor(layout, 5);
        let a = StaticTensor::<f64, shape_t!(2, 3)>::try_from_dynamic(t.clone()).unwrap();
        let b = filled::<shape_t!(3, 2)>(1.0);
        let s = einsum!(&a, &b, "i k, k j -> i j").unwrap();
        let want = Tensor::einsum("i k, k j -> i j", &[&t, b.as_dynamic()]).unwrap();
        assert_eq!(
            s.as_dynamic().to_vec::<f64>().unwrap(),
            want.to_vec::<f64>().unwrap()
        );
        let (tv, bv) = (t.to_vec::<f64>().unwrap(), b.to_vec().unwrap());
        let naive: Vec<f64> = (0..2)
            .flat_map(|j| (0..2).map(move |i| (i, j)))
            .map(|(i, j)| (0..3).map(|k| tv[i + 2 * k] * bv[k + 3 * j]).sum())
            .collect();
        assert_eq!(s.to_vec().unwrap(), naive, "{layout}");
    }
}

#[test]
fn einsum_macro_dynamic_errors_start_with_the_macro_and_leave_operands_untouched() {
    let a = Tensor::arange::<f32>(&shape!(2, 3));
    let b = Tensor::arange::<f32>(&shape!(4, 5));
    let before = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    let err = einsum!(&a, &b, "i k, k j -> i j").unwrap_err();
    assert_eq!(
        err.to_string(),
        "einsum!: symbol `k` has extent 3 in input 0 and 4 in input 1"
    );
    let err = einsum!(&a, &b, "i k l, k j -> i j").unwrap_err();
    assert!(err.to_string().starts_with("einsum! (input 0): "), "{err}");
    let err = einsum!(&a, "(h w) k -> h", h = 4).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einsum!: h = 4 does not divide"),
        "{err}"
    );
    // A static operand with a dynamic one: checked at run time.
    let s = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    let err = einsum!(&b, &s, "i k, k j -> i j").unwrap_err();
    assert!(err.to_string().starts_with("einsum!: "), "{err}");
    assert_eq!(
        (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap()),
        before
    );
    // Mixed dtypes follow Tensor::einsum's rule.
    let i = Tensor::arange::<i32>(&shape!(3, 4));
    let want = Tensor::einsum("i k, k j -> i j", &[&a, &i]).map(|t| t.dtype());
    let got = einsum!(&a, &i, "i k, k j -> i j").map(|t| t.dtype());
    assert_eq!(got.is_ok(), want.is_ok());
}

#[test]
fn einsum_macro_gradients_flow_through_a_static_result() {
    let a = filled::<shape_t!(2, 3)>(1.0);
    let b = filled::<shape_t!(3, 4)>(0.5);
    let da = filled::<shape_t!(2, 3)>(1.0).into_dynamic();
    let db = filled::<shape_t!(3, 4)>(0.5).into_dynamic();
    a.as_dynamic().set_requires_grad(true).unwrap();
    b.as_dynamic().set_requires_grad(true).unwrap();
    da.set_requires_grad(true).unwrap();
    db.set_requires_grad(true).unwrap();
    let s = einsum!(&a, &b, "i k, k j -> j i").unwrap();
    let w = filled::<shape_t!(4, 2)>(1.0);
    (&s * &w)
        .unwrap()
        .as_dynamic()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    let d = Tensor::einsum("i k, k j -> j i", &[&da, &db]).unwrap();
    d.mul(w.as_dynamic())
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(
        a.grad().unwrap().to_vec().unwrap(),
        da.grad().unwrap().to_vec::<f64>().unwrap()
    );
    assert_eq!(
        b.grad().unwrap().to_vec().unwrap(),
        db.grad().unwrap().to_vec::<f64>().unwrap()
    );
    // d/da_ik Σ_ij w_ji a_ik b_kj = Σ_j w_ji b_kj.
    let g = a.grad().unwrap().to_vec().unwrap();
    let (wv, bv) = (w.to_vec().unwrap(), b.to_vec().unwrap());
    for i in 0..2 {
        for k in 0..3 {
            let want: f64 = (0..4).map(|j| wv[j + 4 * i] * bv[k + 3 * j]).sum();
            assert!((g[i + 2 * k] - want).abs() < 1e-12, "({i},{k})");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random extents (matching or not) through the dynamic path: no panic, an error has a
    /// message starting `einsum!: ` and leaves the operands untouched, a result equals
    /// `Tensor::einsum` and a naive triple loop.
    #[test]
    fn einsum_macro_dynamic_random_extents(m in 1i64..4, k in 1i64..4, k2 in 1i64..4, n in 1i64..4) {
        let a = Tensor::arange::<f64>(&format!("({m},{k})").parse().unwrap());
        let b = Tensor::arange::<f64>(&format!("({k2},{n})").parse().unwrap());
        let before = (a.to_vec::<f64>().unwrap(), b.to_vec::<f64>().unwrap());
        match einsum!(&a, &b, "i k, k j -> i j") {
            Ok(c) => {
                prop_assert_eq!(k, k2);
                let want = Tensor::einsum("i k, k j -> i j", &[&a, &b]).unwrap();
                prop_assert_eq!(c.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
                let (av, bv) = &before;
                let (m, k, n) = (m as usize, k as usize, n as usize);
                let naive: Vec<f64> = (0..n)
                    .flat_map(|j| (0..m).map(move |i| (i, j)))
                    .map(|(i, j)| (0..k).map(|p| av[i + m * p] * bv[p + k * j]).sum())
                    .collect();
                prop_assert_eq!(c.to_vec::<f64>().unwrap(), naive);
            }
            Err(e) => {
                prop_assert!(k != k2);
                prop_assert!(e.to_string().starts_with("einsum!: "), "{}", e);
            }
        }
        prop_assert_eq!((a.to_vec::<f64>().unwrap(), b.to_vec::<f64>().unwrap()), before);
    }
}
