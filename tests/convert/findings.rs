//! One test per finding of issue 11, item 6.

use std::time::{Duration, Instant};
use strideweave::{DType, Error, Scalar, Tensor, shape};

#[test]
fn set_1e300_on_f32_is_an_error_not_inf() {
    let t = Tensor::zeros::<f32>(&shape!(2));
    let err = t.set_ordinal(0, 1e300).unwrap_err();
    assert!(matches!(err, Error::NotCastable { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.starts_with("set_ordinal: "), "{msg}");
    assert!(msg.contains("1e300") && msg.contains("f32"), "{msg}");
    let err = t.set(&"1".parse().unwrap(), 1e300).unwrap_err();
    assert!(err.to_string().starts_with("set: "), "{err}");
    assert!(
        t.fill(-1e300)
            .unwrap_err()
            .to_string()
            .starts_with("fill: ")
    );
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.0, 0.0]);
    assert_eq!(t.carrier().version(), 0);
    // Rounding to nearest is fine; infinity and nan stay themselves.
    t.set_ordinal(0, 0.1f64).unwrap();
    t.set_ordinal(1, f64::INFINITY).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.1f32, f32::INFINITY]);
    t.fill(f64::NAN).unwrap();
    assert!(t.to_vec::<f32>().unwrap().iter().all(|v| v.is_nan()));
}

#[test]
fn f64_2_pow_63_cast_to_i64_is_refused_not_saturated() {
    assert_eq!(
        Scalar::F64(9_223_372_036_854_775_808.0).cast(DType::I64),
        None
    );
    assert_eq!(
        Scalar::F64(-9_223_372_036_854_775_808.0).cast(DType::I64),
        Some(Scalar::I64(i64::MIN))
    );
    let t = Tensor::zeros::<i64>(&shape!(1));
    let err = t.fill(9_223_372_036_854_775_808.0f64).unwrap_err();
    assert!(err.to_string().starts_with("fill: "), "{err}");
    assert_eq!(t.to_vec::<i64>().unwrap(), [0]);
}

#[test]
fn i64_16777217_to_f32_is_refused_not_rounded() {
    assert_eq!(Scalar::I64(16_777_217).cast(DType::F32), None);
    assert_eq!(
        Scalar::I64(16_777_216).cast(DType::F32),
        Some(Scalar::F32(16_777_216.0))
    );
    assert_eq!(Scalar::I64((1 << 53) + 1).cast(DType::F64), None);
    let t = Tensor::zeros::<f32>(&shape!(1));
    let err = t.set_ordinal(0, 16_777_217i64).unwrap_err();
    assert_eq!(
        err.to_string(),
        "set_ordinal: the value 16777217 (i64) is not representable as f32"
    );
    assert!(
        t.add_scalar(16_777_217i64)
            .unwrap_err()
            .to_string()
            .starts_with("add_scalar: ")
    );
}

#[test]
fn i64_to_i64_is_exact_above_2_pow_53() {
    let big = (1i64 << 62) + 1;
    assert_eq!(Scalar::I64(big).cast(DType::I64), Some(Scalar::I64(big)));
    assert_eq!(Scalar::I32(-7).cast(DType::I64), Some(Scalar::I64(-7)));
    let t = Tensor::zeros::<i64>(&shape!(1));
    t.set_ordinal(0, big).unwrap();
    assert_eq!(t.to_vec::<i64>().unwrap(), [big]);
}

#[test]
fn fill_through_a_broadcast_view_is_refused_at_once() {
    let t = Tensor::zeros::<f32>(&shape!(1));
    let huge = t
        .broadcast_in_dim(&"(134217728,134217728)".parse().unwrap(), &[0])
        .unwrap(); // 2^54 elements
    let start = Instant::now();
    let err = huge.fill(1.0f32).unwrap_err();
    assert!(
        // "at once" against walking 2^54 elements (years), with room for a loaded machine.
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(matches!(err, Error::NotInjective { .. }), "{err}");
    assert!(err.to_string().starts_with("fill: "), "{err}");
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.0]);
    assert_eq!(t.carrier().version(), 0);
}

#[test]
fn set_through_a_broadcast_view_is_refused() {
    let t = Tensor::zeros::<i32>(&shape!(3));
    let b = t.broadcast_in_dim(&shape!(2, 3), &[1]).unwrap();
    let err = b.set(&"(1,2)".parse().unwrap(), 5i32).unwrap_err();
    assert!(matches!(err, Error::NotInjective { .. }), "{err}");
    assert!(err.to_string().starts_with("set: "), "{err}");
    let err = b.set_ordinal(0, 5i32).unwrap_err();
    assert!(err.to_string().starts_with("set_ordinal: "), "{err}");
    assert_eq!(t.to_vec::<i32>().unwrap(), [0, 0, 0]);
    assert_eq!(t.carrier().version(), 0);
}
