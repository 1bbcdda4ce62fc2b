//! Arithmetic on static shapes (issue 13, item 7): `+ - * /` and unary `-` on
//! `&StaticTensor` of equal static shapes, `StaticTensor::matmul` of static matrices. The
//! compile-time rejections are the `ui-tests/fail/arith_*` cases (their messages are checked
//! against the const rules in `strideweave/src/statics/arith.rs`); here: values against a
//! naive reference, on any layout; the typed result shapes; run-time errors that stay
//! `Error`s and leave every carrier untouched; gradients that flow exactly as through the
//! `Tensor` operations.

use proptest::prelude::*;
use strideweave::{
    Carrier, ErrorKind, MatMul, Result, StaticShape, StaticTensor, Tensor, rearrange, shape,
    shape_t,
};

use crate::statics::support::tensor;

type M23 = shape_t!(2, 3);

fn shape_of<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

/// The elements of a static tensor, first mode fastest.
fn vals(t: &StaticTensor<f64, impl StaticShape>) -> Vec<f64> {
    t.to_vec().unwrap()
}

#[test]
fn static_add_sub_mul_div_of_equal_shapes_give_the_elementwise_values() {
    // Row-major data through a permuted view, and a reversed one: any layout of the shape.
    let a = StaticTensor::<f64, M23>::try_from_dynamic(tensor("(2,3):(3,1)", 0)).unwrap();
    let b = StaticTensor::<f64, M23>::try_from_dynamic(
        tensor("(2,3):(1,2)", 0)
            .reverse(1)
            .unwrap()
            .add_scalar(1.0)
            .unwrap(),
    )
    .unwrap();
    let (x, y) = (vals(&a), vals(&b));
    assert_eq!(x, [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    assert_eq!(y, [5.0, 6.0, 3.0, 4.0, 1.0, 2.0]);
    let zip = |f: fn(f64, f64) -> f64| x.iter().zip(&y).map(|(&p, &q)| f(p, q)).collect::<Vec<_>>();
    assert_eq!(vals(&(&a + &b).unwrap()), zip(|p, q| p + q));
    assert_eq!(vals(&(&a - &b).unwrap()), zip(|p, q| p - q));
    assert_eq!(vals(&(&a * &b).unwrap()), zip(|p, q| p * q));
    assert_eq!(vals(&(&a / &b).unwrap()), zip(|p, q| p / q));
    assert_eq!(
        vals(&(-&a).unwrap()),
        x.iter().map(|p| -p).collect::<Vec<_>>()
    );
    // The result is a fresh compact tensor of the left operand's static shape.
    let c = (&a + &b).unwrap();
    assert_eq!(c.layout().to_string(), "(2,3):(1,2)");
    assert_eq!(shape_of(&c), "(2,3)");
}

#[test]
fn static_elementwise_accepts_equal_shapes_of_different_types() {
    // A rearrangement's result type, a named shape, `3` against `(3)`.
    let a = StaticTensor::<i32, shape_t!(3, 2)>::arange();
    let t = rearrange!(&a, "r c -> c r");
    let b = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    let s = (&t + &b).unwrap();
    assert_eq!(shape_of(&s), "(2,3)");
    assert_eq!(s.to_vec().unwrap(), [0, 4, 3, 7, 6, 10]);
    let n = StaticTensor::<i32, shape_t!(3)>::arange();
    let n1 = StaticTensor::<i32, shape_t!(3,)>::arange();
    assert_eq!((&n * &n1).unwrap().to_vec().unwrap(), [0, 1, 4]);
    assert_eq!(shape_of(&(&n1 * &n).unwrap()), "(3)");
}

#[test]
fn static_elementwise_keeps_the_tensor_ops_integer_rules() {
    let a = StaticTensor::<i8, shape_t!(2)>::from_vec(vec![127, -7]).unwrap();
    let b = StaticTensor::<i8, shape_t!(2)>::from_vec(vec![1, 2]).unwrap();
    assert_eq!((&a + &b).unwrap().to_vec().unwrap(), [-128, -5]); // wraps
    assert_eq!((&a / &b).unwrap().to_vec().unwrap(), [127, -3]); // toward zero
    let m = StaticTensor::<bool, shape_t!(2)>::from_vec(vec![true, false]).unwrap();
    assert_eq!((&m + &m).unwrap().to_vec().unwrap(), [true, false]); // or
}

#[test]
fn static_matmul_types_its_result_and_multiplies() {
    // A = [[1,2,3],[4,5,6]] (row-major), B = [[1,0],[0,1],[1,1]].
    let a = StaticTensor::<f64, M23>::try_from_dynamic(
        Tensor::from_vec_row_major(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &shape!(2, 3)).unwrap(),
    )
    .unwrap();
    let b = StaticTensor::<f64, shape_t!(3, 2)>::try_from_dynamic(
        Tensor::from_vec_row_major(vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0], &shape!(3, 2)).unwrap(),
    )
    .unwrap();
    let c: StaticTensor<f64, MatMul<M23, shape_t!(3, 2)>> = a.matmul(&b).unwrap();
    assert_eq!(shape_of(&c), "(2,2)");
    assert_eq!(c.to_vec_row_major().unwrap(), [4.0, 5.0, 10.0, 11.0]);
    // A transposed view multiplies too: Aᵀ·A, (3,2)·(2,3).
    let at = rearrange!(&a, "m k -> k m");
    let g = at.matmul(&a).unwrap();
    assert_eq!(shape_of(&g), "(3,3)");
    assert_eq!(
        g.to_vec_row_major().unwrap(),
        [17.0, 22.0, 27.0, 22.0, 29.0, 36.0, 27.0, 36.0, 45.0]
    );
    // Nested modes: the outer modes keep their nesting, as `Tensor::matmul` builds them.
    let p = StaticTensor::<f32, shape_t!((2, 2), (3, 1))>::arange();
    let q = StaticTensor::<f32, shape_t!((3, 1), 5)>::arange();
    let r = p.matmul(&q).unwrap();
    assert_eq!(shape_of(&r), "((2,2),5)");
    let dynamic = p.as_dynamic().matmul(q.as_dynamic()).unwrap();
    assert_eq!(r.shape(), dynamic.shape());
    assert_eq!(r.to_vec().unwrap(), dynamic.to_vec::<f32>().unwrap());
}

#[test]
fn static_ops_runtime_errors_are_errors_and_leave_carriers_untouched() {
    let a = StaticTensor::<i32, shape_t!(2)>::from_vec(vec![4, 6]).unwrap();
    let z = StaticTensor::<i32, shape_t!(2)>::from_vec(vec![2, 0]).unwrap();
    let before = (a.snapshot(), z.snapshot());
    let err = (&a / &z).unwrap_err();
    assert!(err.to_string().starts_with("div: "), "{err}");
    assert!(err.to_string().contains("coordinate 1"), "{err}");
    assert!(before.0.changed().is_none() && before.1.changed().is_none());
    assert_eq!(a.to_vec().unwrap(), [4, 6]);

    let m = StaticTensor::<bool, shape_t!(2)>::zeros();
    let err = (&m - &m).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(err.to_string().starts_with("sub: "), "{err}");
    let err = (-&m).unwrap_err();
    assert!(err.to_string().starts_with("neg: "), "{err}");

    // matmul of a dtype without a matrix product on this branch is a run-time error.
    let i = StaticTensor::<bool, shape_t!(2, 2)>::zeros();
    let err = i.matmul(&i).unwrap_err();
    assert!(err.to_string().starts_with("matmul: "), "{err}");
    assert_eq!(i.to_vec().unwrap(), [false; 4]);

    // Released storage: the operation's error, nothing written.
    let c = Carrier::from_vec(vec![1.0f64, 2.0]);
    let t = StaticTensor::<f64, shape_t!(2)>::try_from_dynamic(
        Tensor::new(c.clone(), 0, "2:1".parse().unwrap()).unwrap(),
    )
    .unwrap();
    c.release().unwrap();
    let err = (&t + &t).unwrap_err();
    assert!(err.to_string().starts_with("add: "), "{err}");
}

/// `f` on static operands and on the same data as dynamic tensors: the values and every
/// leaf's gradient agree.
fn same_gradients(
    f_static: impl Fn(&[StaticTensor<f64, M23>]) -> Result<Tensor>,
    f_dynamic: impl Fn(&[Tensor]) -> Result<Tensor>,
) {
    let leaves = |k: usize| -> Vec<Tensor> {
        (0..k)
            .map(|i| {
                let t = tensor("(2,3):(3,1)", i)
                    .mul_scalar(0.25)
                    .unwrap()
                    .add_scalar(0.5 + i as f64)
                    .unwrap();
                t.set_requires_grad(true).unwrap();
                t
            })
            .collect()
    };
    let d = leaves(3);
    let s: Vec<StaticTensor<f64, M23>> = leaves(3)
        .into_iter()
        .map(|t| StaticTensor::try_from_dynamic(t).unwrap())
        .collect();
    let (ls, ld) = (f_static(&s).unwrap(), f_dynamic(&d).unwrap());
    assert_eq!(ls.to_vec::<f64>().unwrap(), ld.to_vec::<f64>().unwrap());
    ls.backward().unwrap();
    ld.backward().unwrap();
    for (k, (s, d)) in s.iter().zip(&d).enumerate() {
        let (gs, gd) = (s.grad(), d.grad());
        assert_eq!(gs.is_some(), gd.is_some(), "leaf {k}");
        if let (Some(gs), Some(gd)) = (gs, gd) {
            assert_eq!(
                gs.to_vec().unwrap(),
                gd.to_vec::<f64>().unwrap(),
                "leaf {k}"
            );
        }
    }
}

#[test]
fn static_ops_gradients_flow_as_through_the_tensor_ops() {
    // L = Σ ((a·b + a − c) / c)·(−1), then a matmul: L = Σ (a ⊙ b) · cᵀ.
    same_gradients(
        |s| {
            let e = (&(&(&(&s[0] * &s[1])? + &s[0])? - &s[2])? / &s[2])?;
            (-&e)?.as_dynamic().sum()
        },
        |d| {
            let e = d[0].mul(&d[1])?.add(&d[0])?.sub(&d[2])?.div(&d[2])?;
            e.neg()?.sum()
        },
    );
    same_gradients(
        |s| {
            let ct = rearrange!(&s[2], "m k -> k m");
            (&s[0] * &s[1])?.matmul(&ct)?.as_dynamic().sum()
        },
        |d| d[0].mul(&d[1])?.matmul(&d[2].permute(&[1, 0])?)?.sum(),
    );
}

#[test]
fn static_ops_record_the_tensor_ops() {
    let a = StaticTensor::<f64, M23>::arange();
    a.as_dynamic().set_requires_grad(true).unwrap();
    assert_eq!((&a + &a).unwrap().grad_op(), Some("add"));
    assert_eq!((&a / &a).unwrap().grad_op(), Some("div"));
    let at = rearrange!(&a, "m k -> k m");
    assert_eq!(a.matmul(&at).unwrap().grad_op(), Some("matmul"));
    // d/da Σ (a·aᵀ) = 2·(row sums broadcast): here by the rule of matmul, checked
    // against central finite differences of the same expression.
    let loss = |a: &StaticTensor<f64, M23>| {
        let at = rearrange!(a, "m k -> k m");
        a.matmul(&at).unwrap().as_dynamic().sum().unwrap()
    };
    loss(&a).backward().unwrap();
    let grad = a.grad().unwrap().to_vec().unwrap();
    let x = a.to_vec().unwrap();
    let h = 1e-6;
    for k in 0..6 {
        let at = |delta: f64| {
            let mut v = x.clone();
            v[k] += delta;
            let t = StaticTensor::<f64, M23>::from_vec(v).unwrap();
            loss(&t).item::<f64>().unwrap()
        };
        let fd = (at(h) - at(-h)) / (2.0 * h);
        assert!(
            (fd - grad[k]).abs() < 1e-5,
            "slot {k}: {fd} against {}",
            grad[k]
        );
    }
}

/// Layouts of the static shape (2,3): compact, row-major, reversed, broadcast.
const LAYOUTS: &[(&str, usize)] = &[
    ("(2,3):(1,2)", 0),
    ("(2,3):(3,1)", 1),
    ("(2,3):(-1,2)", 1),
    ("(2,3):(1,-2)", 4),
    ("(2,3):(0,1)", 2),
];

fn operand(data: &[i32], layout: usize) -> StaticTensor<i32, M23> {
    let (l, offset) = LAYOUTS[layout];
    let layout: strideweave::Layout = l.parse().unwrap();
    let t = Tensor::new(Carrier::from_vec(data.to_vec()), offset, layout).unwrap();
    StaticTensor::try_from_dynamic(t).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any values on any layout: each operator equals a naive loop over the elements; an
    /// integer division by zero is an `Error` naming `div` and writes nothing.
    #[test]
    fn static_ops_equal_a_naive_reference(
        x in prop::collection::vec(-50i32..50, 8),
        y in prop::collection::vec(-3i32..4, 8),
        la in 0..LAYOUTS.len(),
        lb in 0..LAYOUTS.len(),
    ) {
        let (a, b) = (operand(&x, la), operand(&y, lb));
        let (p, q) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        let naive = |f: fn(i32, i32) -> i32| p.iter().zip(&q).map(|(&u, &v)| f(u, v)).collect::<Vec<_>>();
        prop_assert_eq!((&a + &b).unwrap().to_vec().unwrap(), naive(i32::wrapping_add));
        prop_assert_eq!((&a - &b).unwrap().to_vec().unwrap(), naive(i32::wrapping_sub));
        prop_assert_eq!((&a * &b).unwrap().to_vec().unwrap(), naive(i32::wrapping_mul));
        let before = (a.snapshot(), b.snapshot());
        match &a / &b {
            Ok(r) => {
                prop_assert!(q.iter().all(|&v| v != 0));
                prop_assert_eq!(r.to_vec().unwrap(), naive(i32::wrapping_div));
            }
            Err(e) => {
                prop_assert!(q.contains(&0));
                prop_assert!(e.to_string().starts_with("div: "), "{}", e);
                prop_assert!(before.0.changed().is_none() && before.1.changed().is_none());
                prop_assert_eq!(a.to_vec().unwrap(), p.clone());
            }
        }
    }

    /// Any values on any layouts of (2,3) and of (3,2) (its transposes): `matmul` equals a
    /// naive triple loop.
    #[test]
    fn static_matmul_equals_a_naive_product(
        x in prop::collection::vec(-4.0f64..4.0, 8),
        y in prop::collection::vec(-4.0f64..4.0, 8),
        la in 0..LAYOUTS.len(),
        lb in 0..LAYOUTS.len(),
    ) {
        let build = |d: &[f64], i: usize| {
            let (l, offset) = LAYOUTS[i];
            let t = Tensor::new(Carrier::from_vec(d.to_vec()), offset, l.parse().unwrap()).unwrap();
            StaticTensor::<f64, M23>::try_from_dynamic(t).unwrap()
        };
        let a = build(&x, la);
        let b = rearrange!(build(&y, lb), "k n -> n k"); // (3,2)
        let c = a.matmul(&b).unwrap();
        let (p, q) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        // First mode fastest: A[i][k] = p[i + 2k], B[k][j] = q[k + 3j], C[i][j] = c[i + 2j].
        let mut naive = vec![0.0; 4];
        for i in 0..2 {
            for j in 0..2 {
                naive[i + 2 * j] = (0..3).map(|k| p[i + 2 * k] * q[k + 3 * j]).sum();
            }
        }
        for (got, want) in c.to_vec().unwrap().iter().zip(&naive) {
            prop_assert!((got - want).abs() < 1e-9, "{} against {}", got, want);
        }
    }
}
