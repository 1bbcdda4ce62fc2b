//! Static shapes through the algebra (issue 13, item 7): `StaticTensor::matmul` in every
//! form of `Tensor::matmul`, `StaticTensor::contract` along `Axes` lists, `dot`, `outer`,
//! and scalar operands. The compile-time rejections are the `ui-tests/fail/arith_matmul_*`,
//! `contract_*`, `dot_*` and `outer_*` cases (their messages are checked against the const
//! rules in `strideweave/src/statics/`); here: typed result shapes, values equal to the
//! `Tensor` operation and to a naive reference, run-time errors that stay `Error`s, and
//! gradients that flow as through the `Tensor` operations.

use proptest::prelude::*;
use strideweave::{
    Axes, Carrier, Contracted, MatMul, StaticShape, StaticTensor, Tensor, rearrange, shape_t,
};

fn shape_of<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

/// `a · b` statically and dynamically: same shape (the type's and the tensor's), same
/// values.
fn same_product<A: StaticShape, B: StaticShape>(
    a: &StaticTensor<f64, A>,
    b: &StaticTensor<f64, B>,
    want: &str,
) {
    let s = a.matmul(b).unwrap();
    let d = a.as_dynamic().matmul(b.as_dynamic()).unwrap();
    assert_eq!(shape_of(&s), want);
    assert_eq!(s.shape(), d.shape());
    assert_eq!(s.to_vec().unwrap(), d.to_vec::<f64>().unwrap());
}

#[test]
fn static_matmul_agrees_with_tensor_matmul_in_every_form() {
    let m = StaticTensor::<f64, shape_t!(2, 3)>::arange();
    let v = StaticTensor::<f64, shape_t!(3)>::from_vec(vec![1.0, -1.0, 2.0]).unwrap();
    let w = StaticTensor::<f64, shape_t!(2)>::from_vec(vec![0.5, 3.0]).unwrap();
    // Matrix × vector: A = [[0,2,4],[1,3,5]] (first mode fastest), A·v = [6, 8].
    let av = m.matmul(&v).unwrap();
    assert_eq!(av.to_vec().unwrap(), [6.0, 8.0]);
    same_product(&m, &v, "(2)");
    // Vector × matrix: w·A = [0.5·0 + 3·1, 0.5·2 + 3·3, 0.5·4 + 3·5].
    assert_eq!(w.matmul(&m).unwrap().to_vec().unwrap(), [3.0, 10.0, 17.0]);
    same_product(&w, &m, "(3)");
    // Batched, on a transposed view: (2,2,3) · (2,3,4).
    let x = StaticTensor::<f64, shape_t!(2, 2, 3)>::arange();
    let y = rearrange!(
        StaticTensor::<f64, shape_t!(2, 4, 3)>::arange(),
        "b n k -> b k n"
    );
    same_product(&x, &y, "(2,2,4)");
    let c: StaticTensor<f64, MatMul<shape_t!(2, 2, 3), _>> = x.matmul(&y).unwrap();
    // Batch 1, row 0, column 0: Σₖ x[1,0,k]·y[1,k,0].
    let want: f64 = (0..3)
        .map(|k| (1 + 4 * k) as f64 * (1 + 2 * 4 * k) as f64)
        .sum();
    assert_eq!(c.get(&"(1,0,0)".parse().unwrap()).unwrap(), want);
    // Nested batch and outer modes keep their nesting.
    let p = StaticTensor::<f64, shape_t!((2, 1), (2, 2), 3)>::arange();
    let q = StaticTensor::<f64, shape_t!((2, 1), 3, (1, 2))>::arange();
    same_product(&p, &q, "((2,1),(2,2),(1,2))");
    // Integers take the same forms.
    let i = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    let j = StaticTensor::<i32, shape_t!(3)>::from_vec(vec![1, 1, 1]).unwrap();
    assert_eq!(i.matmul(&j).unwrap().to_vec().unwrap(), [6, 9]);
}

#[test]
fn static_contract_types_its_result_and_equals_tensor_contract() {
    type A = shape_t!(2, 3, 4);
    type B = shape_t!(4, 5, 3);
    let a = StaticTensor::<f64, A>::arange();
    let b = StaticTensor::<f64, B>::arange();
    let c: StaticTensor<f64, Contracted<A, B, Axes<1, 2>, Axes<2, 0>>> =
        a.contract::<Axes<1, 2>, Axes<2, 0>, _>(&b).unwrap();
    assert_eq!(shape_of(&c), "(2,5)");
    let d = a
        .as_dynamic()
        .contract(b.as_dynamic(), &[1, 2], &[2, 0])
        .unwrap();
    assert_eq!(c.shape(), d.shape());
    assert_eq!(c.to_vec().unwrap(), d.to_vec::<f64>().unwrap());
    // One pair: (2,3,4) along 2 with (4,5,3) along 0 → (2,3,5,3).
    let e = a.contract::<Axes<2>, Axes<0>, _>(&b).unwrap();
    assert_eq!(shape_of(&e), "(2,3,5,3)");
    assert_eq!(e.shape().to_string(), "(2,3,5,3)");
    // Every axis: rank 0.
    let f = a.contract::<Axes<0, 1, 2>, Axes<0, 1, 2>, _>(&a).unwrap();
    assert_eq!(shape_of(&f), "()");
    assert_eq!(
        f.item().unwrap(),
        (0..24).map(|k| (k * k) as f64).sum::<f64>()
    );
    // No axis: the outer product of the whole tensors.
    let v = StaticTensor::<f64, shape_t!(2)>::arange();
    assert_eq!(
        shape_of(&v.contract::<Axes, Axes, _>(&a).unwrap()),
        "(2,2,3,4)"
    );
}

#[test]
fn static_dot_and_outer_equal_the_tensor_ops() {
    let a = StaticTensor::<f64, shape_t!(3)>::from_vec(vec![1.0, 2.0, 3.0]).unwrap();
    let b = StaticTensor::<f64, shape_t!(3,)>::from_vec(vec![4.0, 5.0, 6.0]).unwrap();
    let d: StaticTensor<f64, ()> = a.dot(&b).unwrap(); // `3` and `(3)` are one shape
    assert_eq!(d.item().unwrap(), 32.0);
    assert_eq!(d.shape().to_string(), "()");
    let o = a.outer(&b).unwrap();
    assert_eq!(shape_of(&o), "(3,3)");
    assert_eq!(
        o.to_vec().unwrap(),
        a.as_dynamic()
            .outer(b.as_dynamic())
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
    );
    assert_eq!(o.get(&"(2,0)".parse().unwrap()).unwrap(), 12.0);
}

#[test]
fn static_scalar_operands_keep_the_shape_and_the_dtype_rules() {
    let a = StaticTensor::<f32, shape_t!(2, 2)>::arange();
    let b: StaticTensor<f32, shape_t!(2, 2)> =
        (&(&(&a * 2.0).unwrap() + 1).unwrap() - 0.5).unwrap();
    assert_eq!(b.to_vec().unwrap(), [0.5, 2.5, 4.5, 6.5]);
    assert_eq!((&b / 0.5).unwrap().to_vec().unwrap(), [1.0, 5.0, 9.0, 13.0]);
    assert_eq!((1.0 + &a).unwrap().to_vec().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        (-1 * &a).unwrap().to_vec().unwrap(),
        [-0.0, -1.0, -2.0, -3.0]
    );
    let i = StaticTensor::<i8, shape_t!(2)>::from_vec(vec![100, -7]).unwrap();
    assert_eq!((&i + 100).unwrap().to_vec().unwrap(), [-56, 93]); // wraps
    let before = i.snapshot();
    let err = (&i + 1000).unwrap_err(); // does not fit i8
    assert!(err.to_string().starts_with("add_scalar: "), "{err}");
    let err = (&i / 0).unwrap_err();
    assert!(err.to_string().starts_with("div_scalar: "), "{err}");
    assert!(before.changed().is_none());
    assert_eq!(i.to_vec().unwrap(), [100, -7]);
}

#[test]
fn static_algebra_runtime_errors_are_errors_and_leave_carriers_untouched() {
    // bool has no products: a run-time `Type` error of the named operation.
    let m = StaticTensor::<bool, shape_t!(2, 2)>::zeros();
    let v = StaticTensor::<bool, shape_t!(2)>::zeros();
    assert!(
        m.matmul(&v)
            .unwrap_err()
            .to_string()
            .starts_with("matmul: ")
    );
    let err = m.contract::<Axes<1>, Axes<0>, _>(&m).unwrap_err();
    assert!(err.to_string().starts_with("contract: "), "{err}");
    assert!(v.dot(&v).unwrap_err().to_string().starts_with("dot: "));
    assert!(v.outer(&v).unwrap_err().to_string().starts_with("outer: "));
    // Released storage.
    let c = Carrier::from_vec(vec![1.0f64, 2.0]);
    let t = StaticTensor::<f64, shape_t!(2)>::try_from_dynamic(
        Tensor::new(c.clone(), 0, "2:1".parse().unwrap()).unwrap(),
    )
    .unwrap();
    let u = StaticTensor::<f64, shape_t!(2)>::arange();
    let before = u.snapshot();
    c.release().unwrap();
    assert!(t.dot(&u).unwrap_err().to_string().starts_with("dot: "));
    assert!(u.contract::<Axes<0>, Axes<0>, _>(&t).is_err());
    assert!(before.changed().is_none());
}

#[test]
fn gradients_flow_through_a_static_contract() {
    // L = Σ contract(a, b; a.1 ~ b.0) ⊙ w, statically and dynamically: equal gradients,
    // and equal to central finite differences.
    let leaf = |shape: &str, k: f64| {
        let t = Tensor::arange::<f64>(&shape.parse().unwrap())
            .mul_scalar(0.3)
            .unwrap()
            .add_scalar(k)
            .unwrap();
        t.set_requires_grad(true).unwrap();
        t
    };
    let (da, db) = (leaf("(2,3)", 0.1), leaf("(3,4)", -0.7));
    let w = Tensor::arange::<f64>(&"(2,4)".parse().unwrap());
    let a = StaticTensor::<f64, shape_t!(2, 3)>::try_from_dynamic(leaf("(2,3)", 0.1)).unwrap();
    let b = StaticTensor::<f64, shape_t!(3, 4)>::try_from_dynamic(leaf("(3,4)", -0.7)).unwrap();
    let ls = a
        .contract::<Axes<1>, Axes<0>, _>(&b)
        .unwrap()
        .as_dynamic()
        .mul(&w)
        .unwrap()
        .sum()
        .unwrap();
    let ld = da
        .contract(&db, &[1], &[0])
        .unwrap()
        .mul(&w)
        .unwrap()
        .sum()
        .unwrap();
    assert_eq!(ls.item::<f64>().unwrap(), ld.item::<f64>().unwrap());
    ls.backward().unwrap();
    ld.backward().unwrap();
    let (ga, gb) = (
        a.grad().unwrap().to_vec().unwrap(),
        b.grad().unwrap().to_vec().unwrap(),
    );
    assert_eq!(ga, da.grad().unwrap().to_vec::<f64>().unwrap());
    assert_eq!(gb, db.grad().unwrap().to_vec::<f64>().unwrap());
    // d/da[i,k] Σⱼ (Σₖ a[i,k]·b[k,j])·w[i,j] = Σⱼ b[k,j]·w[i,j].
    let (bv, wv) = (b.to_vec().unwrap(), w.to_vec::<f64>().unwrap());
    for i in 0..2 {
        for k in 0..3 {
            let want: f64 = (0..4).map(|j| bv[k + 3 * j] * wv[i + 2 * j]).sum();
            assert!((ga[i + 2 * k] - want).abs() < 1e-12, "a[{i},{k}]");
        }
    }
}

#[test]
fn a_mode_written_3_pairs_with_a_mode_written_as_the_tuple_3_for_every_dtype() {
    // The float matrix path compared `Shape`s and the contraction kernel compared nesting:
    // integer products of `(2,(3))` refused what float products accepted. Both agree now,
    // as the static rule does.
    let a = StaticTensor::<i32, shape_t!(2, (3,))>::arange();
    let b = StaticTensor::<i32, shape_t!(3, 2)>::arange();
    let v = StaticTensor::<i32, shape_t!(3)>::arange();
    assert_eq!(a.matmul(&b).unwrap().to_vec().unwrap(), [10, 13, 28, 40]);
    assert_eq!(a.matmul(&v).unwrap().to_vec().unwrap(), [10, 13]);
    let c = a.contract::<Axes<1>, Axes<0>, _>(&b).unwrap();
    assert_eq!(c.to_vec().unwrap(), [10, 13, 28, 40]);
    let f = StaticTensor::<f64, shape_t!(2, (3,))>::arange();
    let g = StaticTensor::<f64, shape_t!(3, 2)>::arange();
    assert_eq!(
        f.matmul(&g).unwrap().to_vec().unwrap(),
        [10.0, 13.0, 28.0, 40.0]
    );
}

/// A scalar operator's name, its result on a static `i8` vector, and the naive element rule.
type ScalarCase = (
    &'static str,
    strideweave::Result<StaticTensor<i8, shape_t!(3)>>,
    fn(i8, i8) -> i8,
);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any values and scalars: `dot`, `outer` and the scalar operators equal naive loops; a
    /// scalar that does not fit `i8`, or a zero divisor, is an `Error` naming the operation
    /// that leaves the operand untouched.
    #[test]
    fn static_dot_outer_and_scalars_equal_naive_loops(
        x in prop::collection::vec(-9i8..9, 3),
        y in prop::collection::vec(-9i8..9, 3),
        s in -300i64..300,
    ) {
        let a = StaticTensor::<i8, shape_t!(3)>::from_vec(x.clone()).unwrap();
        let b = StaticTensor::<i8, shape_t!(3)>::from_vec(y.clone()).unwrap();
        let dot = x.iter().zip(&y).fold(0i8, |acc, (&p, &q)| acc.wrapping_add(p.wrapping_mul(q)));
        prop_assert_eq!(a.dot(&b).unwrap().item().unwrap(), dot);
        let outer: Vec<i8> = y.iter().flat_map(|&q| x.iter().map(move |&p| p.wrapping_mul(q))).collect();
        prop_assert_eq!(a.outer(&b).unwrap().to_vec().unwrap(), outer);
        let before = a.snapshot();
        let ops: [ScalarCase; 4] = [
            ("add_scalar", &a + s, i8::wrapping_add),
            ("sub_scalar", &a - s, i8::wrapping_sub),
            ("mul_scalar", &a * s, i8::wrapping_mul),
            ("div_scalar", &a / s, i8::wrapping_div),
        ];
        for (name, got, f) in ops {
            match (i8::try_from(s), got) {
                (Ok(v), Ok(t)) if name != "div_scalar" || v != 0 => {
                    prop_assert_eq!(t.to_vec().unwrap(), x.iter().map(|&p| f(p, v)).collect::<Vec<_>>());
                }
                (_, Err(e)) => {
                    prop_assert!(i8::try_from(s).is_err() || (name == "div_scalar" && s == 0));
                    prop_assert!(e.to_string().starts_with(name), "{}", e);
                }
                (_, Ok(_)) => prop_assert!(false, "{} {} accepted", name, s),
            }
        }
        prop_assert!(before.changed().is_none());
        prop_assert_eq!(a.to_vec().unwrap(), x);
    }

    /// Any values, on a transposed or reversed view: the static contraction (2,3,4) ×
    /// (4,3) along (1,2) ~ (1,0) equals a naive loop, and the batched matmul equals one
    /// naive product per batch.
    #[test]
    fn static_contract_and_batched_matmul_equal_naive_loops(
        x in prop::collection::vec(-4i64..4, 24),
        y in prop::collection::vec(-4i64..4, 12),
        reverse in any::<bool>(),
    ) {
        let a = StaticTensor::<i64, shape_t!(2, 3, 4)>::from_vec(x.clone()).unwrap();
        let b0 = StaticTensor::<i64, shape_t!(3, 4)>::from_vec(y.clone()).unwrap();
        let b = rearrange!(&b0, "k l -> l k"); // (4,3), a view
        let b = if reverse {
            StaticTensor::<i64, shape_t!(4, 3)>::try_from_dynamic(b.as_dynamic().reverse(0).unwrap()).unwrap()
        } else {
            b.cast()
        };
        let q = b.to_vec().unwrap(); // B[l][k] = q[l + 4k]
        let c = a.contract::<Axes<1, 2>, Axes<1, 0>, _>(&b).unwrap();
        prop_assert_eq!(shape_of(&c), "(2)");
        // A[i][k][l] = x[i + 2k + 6l].
        let naive: Vec<i64> = (0..2)
            .map(|i| (0..3).flat_map(|k| (0..4).map(move |l| (k, l)))
                .map(|(k, l)| x[i + 2 * k + 6 * l] * q[l + 4 * k]).sum())
            .collect();
        prop_assert_eq!(c.to_vec().unwrap(), naive);
        // Batched: (2,3,4) · (2,4,3) → (2,3,3).
        let y2 = StaticTensor::<i64, shape_t!(2, 4, 3)>::from_vec(x.clone()).unwrap();
        let p = a.matmul(&y2).unwrap();
        let got = p.to_vec().unwrap();
        for bt in 0..2 {
            for i in 0..3 {
                for j in 0..3 {
                    // a[bt][i][k] = x[bt + 2i + 6k], y2[bt][k][j] = x[bt + 2k + 8j].
                    let want: i64 = (0..4).map(|k| x[bt + 2 * i + 6 * k] * x[bt + 2 * k + 8 * j]).sum();
                    prop_assert_eq!(got[bt + 2 * i + 6 * j], want);
                }
            }
        }
    }
}
