//! The rules of integer and bool arithmetic, one test each.

use strideweave::{DType, Element, ErrorKind, Key, Scalar, Shape, Tensor, no_grad};

fn sh(text: &str) -> Shape {
    text.parse().unwrap()
}

fn vec_of<T: Element>(v: Vec<T>) -> Tensor {
    let n = v.len();
    Tensor::from_vec(v, &sh(&n.to_string())).unwrap()
}

#[test]
fn integer_add_sub_mul_neg_wrap_as_twos_complement() {
    let i8s = vec_of(vec![127i8, -128, 16]);
    let ones = vec_of(vec![1i8, 1, 16]);
    assert_eq!(
        i8s.add(&ones).unwrap().to_vec::<i8>().unwrap(),
        [-128, -127, 32]
    );
    assert_eq!(
        i8s.sub(&ones).unwrap().to_vec::<i8>().unwrap(),
        [126, 127, 0]
    );
    assert_eq!(
        i8s.mul(&ones).unwrap().to_vec::<i8>().unwrap(),
        [127, -128, 0]
    );
    assert_eq!(
        i8s.neg().unwrap().to_vec::<i8>().unwrap(),
        [-127, -128, -16]
    );
    let u = vec_of(vec![255u8, 0]);
    assert_eq!(u.add_scalar(1i64).unwrap().to_vec::<u8>().unwrap(), [0, 1]);
    assert_eq!(
        u.sub_scalar(1i64).unwrap().to_vec::<u8>().unwrap(),
        [254, 255]
    );
    assert_eq!(u.neg().unwrap().to_vec::<u8>().unwrap(), [1, 0]);
    let i = vec_of(vec![i32::MAX, i32::MIN]);
    assert_eq!(i.add(&i).unwrap().to_vec::<i32>().unwrap(), [-2, 0]);
    let l = vec_of(vec![i64::MIN]);
    assert_eq!(
        l.sub_scalar(1i64).unwrap().to_vec::<i64>().unwrap(),
        [i64::MAX]
    );
    assert_eq!(
        l.mul_scalar(-1i64).unwrap().to_vec::<i64>().unwrap(),
        [i64::MIN]
    );
}

#[test]
fn integer_sums_wrap_in_their_dtype() {
    let t = Tensor::from_vec(vec![100i8, 27, 1, 0, -1, 1], &sh("(2,3)")).unwrap();
    let s = t.sum().unwrap();
    assert_eq!((s.dtype(), s.item::<i8>().unwrap()), (DType::I8, -128));
    let m = t.sum_modes(&[1]).unwrap();
    assert_eq!(m.dtype(), DType::I8);
    assert_eq!(m.to_vec::<i8>().unwrap(), [100, 28]);
    let u = Tensor::from_vec(vec![200u8, 100], &sh("2")).unwrap();
    assert_eq!(u.sum().unwrap().item::<u8>().unwrap(), 44);
}

#[test]
fn integer_division_truncates_toward_zero_and_min_over_minus_one_wraps() {
    let a = vec_of(vec![-7i32, 7, i32::MIN]);
    let b = vec_of(vec![2i32, -2, -1]);
    assert_eq!(
        a.div(&b).unwrap().to_vec::<i32>().unwrap(),
        [-3, -3, i32::MIN]
    );
    assert_eq!(
        a.div_scalar(3i64).unwrap().to_vec::<i32>().unwrap(),
        [-2, 2, -715827882]
    );
}

#[test]
fn integer_division_by_zero_names_the_coordinate_of_the_first_zero_divisor() {
    let s = sh("(2,(2,2))");
    let a = Tensor::arange::<i64>(&s);
    // first-mode-fastest ordinals 5 and 6 are zero: ordinal 5 is coordinate (1,(0,1))
    let b = Tensor::from_vec(vec![1i64, 1, 1, 1, 1, 0, 0, 1], &s).unwrap();
    let err = a.div(&b).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "div: integer division by zero: the divisor is 0 at coordinate (1,(0,1)) (ordinal 5)"
    );
    // through a permuted view the coordinate is the view's own
    let bt = b.permute(&[1, 0]).unwrap();
    let at = a.permute(&[1, 0]).unwrap();
    let err = at.div(&bt).unwrap_err().to_string();
    // view ((i,j),k) reads b at (k,(i,j)): b's ordinal 6 = (0,(1,1)) is the view's ordinal 3
    assert!(
        err.ends_with("at coordinate ((1,1),0) (ordinal 3)"),
        "{err}"
    );
    // the scalar form names its scalar operand
    assert_eq!(
        a.div_scalar(0i64).unwrap_err().to_string(),
        "div_scalar: integer division by zero: the divisor is 0 at the scalar operand"
    );
}

#[test]
fn a_failed_integer_division_into_leaves_the_destination_untouched() {
    let s = sh("3");
    let a = Tensor::from_vec(vec![6u8, 4, 2], &s).unwrap();
    let b = Tensor::from_vec(vec![3u8, 0, 1], &s).unwrap();
    let out = Tensor::from_vec(vec![9u8, 9, 9], &s).unwrap();
    let err = a.div_into(&b, &out).unwrap_err().to_string();
    assert!(
        err.starts_with("div_into: integer division by zero"),
        "{err}"
    );
    assert!(err.contains("coordinate 1 (ordinal 1)"), "{err}");
    assert_eq!(out.to_vec::<u8>().unwrap(), [9, 9, 9]);
    assert_eq!(out.carrier().version(), 0);
    assert!(a.div_scalar_into(0i64, &out).is_err());
    assert_eq!(out.carrier().version(), 0);
}

#[test]
fn integer_results_keep_the_operand_dtype() {
    fn check<T: Element>() {
        let s = sh("(2,3)");
        let a = Tensor::arange::<T>(&s).add_scalar(1i64).unwrap();
        let results = [
            a.add(&a).unwrap(),
            a.sub(&a).unwrap(),
            a.mul(&a).unwrap(),
            a.div(&a).unwrap(),
            a.neg().unwrap(),
            a.add_scalar(2i64).unwrap(),
            a.sub_scalar(2i64).unwrap(),
            a.mul_scalar(2i64).unwrap(),
            a.div_scalar(2i64).unwrap(),
            a.sum().unwrap(),
            a.sum_modes(&[0]).unwrap(),
        ];
        for r in results {
            assert_eq!(r.dtype(), T::DTYPE);
        }
    }
    check::<i8>();
    check::<i32>();
    check::<i64>();
    check::<u8>();
}

#[test]
fn the_mean_of_integers_is_refused_rather_than_truncated_or_converted() {
    for t in [
        Tensor::arange::<i32>(&sh("4")),
        Tensor::arange::<u8>(&sh("4")),
        Tensor::arange::<bool>(&sh("4")),
    ] {
        let err = t.mean().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Type);
        let msg = err.to_string();
        assert!(
            msg.starts_with("mean: expected a floating or complex tensor"),
            "{msg}"
        );
        assert!(msg.contains("take the sum, then divide"), "{msg}");
        assert!(t.mean_into(&Tensor::scalar(0.0f64)).is_err());
    }
}

#[test]
fn operands_of_two_integer_dtypes_follow_the_promotion_table() {
    // Issue 13: mixed dtypes follow DType::promote (i32 with i64 is i64), or fail naming both.
    let a = Tensor::arange::<i32>(&sh("2"));
    let b = Tensor::arange::<i64>(&sh("2"));
    let sum = a.add(&b).unwrap();
    assert_eq!(sum.dtype(), strideweave::DType::I64);
    assert_eq!(sum.to_vec::<i64>().unwrap(), [0, 2]);
    let f = Tensor::arange::<f64>(&sh("2"));
    let err = b.add(&f).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(err.to_string().contains("i64 and f64"), "{err}");
    // The destination has the promoted dtype, or it is refused.
    let out = Tensor::zeros::<i32>(&sh("2"));
    assert_eq!(a.add_into(&b, &out).unwrap_err().kind(), ErrorKind::Type);
}

#[test]
fn a_scalar_keeps_the_tensor_dtype_and_must_fit_it() {
    let u = Tensor::from_vec(vec![1u8, 2], &sh("2")).unwrap();
    for err in [
        u.add_scalar(256i64).unwrap_err(),
        u.mul_scalar(-1i64).unwrap_err(),
        u.sub_scalar(0.5).unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::Value);
        assert!(err.to_string().contains("u8"), "{err}");
    }
    // 2^63 as a float is one past i64::MAX: refused, not saturated
    let l = Tensor::from_vec(vec![0i64], &sh("1")).unwrap();
    assert!(l.add_scalar(2f64.powi(63)).is_err());
    assert!(l.add_scalar(-(2f64.powi(63))).is_ok());
    let i = Tensor::from_vec(vec![1i8], &sh("1")).unwrap();
    assert!(i.add_scalar(128i64).is_err());
    assert_eq!(i.add_scalar(-2.0).unwrap().to_vec::<i8>().unwrap(), [-1]);
    let b = Tensor::from_vec(vec![true, false], &sh("2")).unwrap();
    assert!(b.add_scalar(1i64).is_err());
    assert_eq!(
        b.mul_scalar(Scalar::Bool(true))
            .unwrap()
            .to_vec::<bool>()
            .unwrap(),
        [true, false]
    );
    assert_eq!(
        b.add_scalar(Scalar::Bool(true))
            .unwrap()
            .to_vec::<bool>()
            .unwrap(),
        [true, true]
    );
}

#[test]
fn bool_add_is_logical_or_and_mul_is_logical_and() {
    let s = sh("(2,2)");
    let a = Tensor::from_vec(vec![false, true, false, true], &s).unwrap();
    let b = Tensor::from_vec(vec![false, false, true, true], &s).unwrap();
    assert_eq!(
        a.add(&b).unwrap().to_vec::<bool>().unwrap(),
        [false, true, true, true]
    );
    assert_eq!(
        a.mul(&b).unwrap().to_vec::<bool>().unwrap(),
        [false, false, false, true]
    );
    let out = Tensor::zeros::<bool>(&s);
    let bt = b.permute(&[1, 0]).unwrap(); // [false, true, false, true]
    a.add_into(&bt, &out).unwrap();
    assert_eq!(out.to_vec::<bool>().unwrap(), [false, true, false, true]);
    a.mul_into(&bt.reverse(0).unwrap(), &out).unwrap(); // and with [true, false, true, false]
    assert_eq!(out.to_vec::<bool>().unwrap(), [false, false, false, false]);
}

#[test]
fn bool_has_no_subtraction_division_negation_or_sum() {
    let a = Tensor::from_vec(vec![true, false], &sh("2")).unwrap();
    for (op, err) in [
        ("sub", a.sub(&a).unwrap_err()),
        ("div", a.div(&a).unwrap_err()),
        ("neg", a.neg().unwrap_err()),
        ("sub_scalar", a.sub_scalar(Scalar::Bool(true)).unwrap_err()),
        ("sum", a.sum().unwrap_err()),
        ("sum_modes", a.sum_modes(&[0]).unwrap_err()),
    ] {
        assert_eq!(err.kind(), ErrorKind::Type);
        let msg = err.to_string();
        assert!(msg.starts_with(&format!("{op}: ")), "{msg}");
        assert!(msg.contains("found a bool tensor"), "{msg}");
    }
    assert!(
        a.sum()
            .unwrap_err()
            .to_string()
            .contains("a count, not a bool")
    );
}

#[test]
fn integer_operations_never_record_and_their_into_forms_run_with_recording_on() {
    let a = Tensor::arange::<i32>(&sh("3"));
    assert!(a.set_requires_grad(true).is_err());
    assert!(strideweave::autograd::is_grad_enabled());
    for r in [a.add(&a).unwrap(), a.neg().unwrap(), a.sum().unwrap()] {
        assert!(!r.requires_grad() && r.grad_op().is_none());
    }
    let out = Tensor::zeros::<i32>(&sh("3"));
    a.mul_into(&a, &out).unwrap();
    assert_eq!(out.to_vec::<i32>().unwrap(), [0, 1, 4]);
    let _g = no_grad();
    a.sub_into(&a, &out).unwrap();
    assert_eq!(out.to_vec::<i32>().unwrap(), [0, 0, 0]);
}

#[test]
fn integer_into_forms_write_strided_destinations_once() {
    let a = Tensor::arange::<i64>(&sh("(2,3)"));
    let big = Tensor::zeros::<i64>(&sh("(3,2)"));
    let out = big.permute(&[1, 0]).unwrap(); // (2,3) with strides (3,1)
    a.add_scalar_into(10i64, &out).unwrap();
    assert_eq!(out.to_vec::<i64>().unwrap(), [10, 11, 12, 13, 14, 15]);
    assert_eq!(big.carrier().version(), 1);
    let col = big.slice(&[Key::all(), 0.into()]).unwrap(); // (3):(1)
    let rows = Tensor::arange::<i64>(&sh("(3,2)"));
    rows.sum_modes_into(&[1], &col).unwrap();
    assert_eq!(col.to_vec::<i64>().unwrap(), [3, 5, 7]);
    let total = Tensor::scalar(0i64);
    rows.sum_into(&total).unwrap();
    assert_eq!(total.item::<i64>().unwrap(), 15);
    a.neg_into(&out).unwrap();
    assert_eq!(out.to_vec::<i64>().unwrap(), [0, -1, -2, -3, -4, -5]);
}
