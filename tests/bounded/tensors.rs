//! Tensor constructors and views on huge extents: cheap checks first, allocations checked.

use strideweave::{DType, Tensor};

use crate::bounded::HUGE;

#[test]
fn as_strided_outside_the_source_is_refused_before_the_injectivity_walk() {
    let t = Tensor::arange::<f32>(&"4".parse().unwrap());
    let err = t
        .as_strided(
            &format!("({HUGE},15)").parse().unwrap(),
            &"(16,7)".parse().unwrap(),
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("as_strided: ") && err.contains("outside the source"),
        "{err}"
    );
}

#[test]
fn as_strided_over_a_huge_broadcast_source_is_decided_without_walking() {
    // 2^55 elements: (2^54,2):(0,1).
    let t = Tensor::arange::<f32>(&"2".parse().unwrap())
        .broadcast_in_dim(&"(18014398509481984,2)".parse().unwrap(), &[1])
        .unwrap();
    let err = t
        .as_strided(&"18014398509481984".parse().unwrap(), &"2".parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("as_strided: "), "{err}");
}

#[test]
fn zeros_of_an_unallocatable_size_is_an_error() {
    let err = Tensor::zeros_of(DType::F64, &format!("{}", i64::MAX).parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("Tensor::zeros_of: "), "{err}");
    let err = Tensor::zeros_of(DType::F64, &format!("({HUGE},1024)").parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("Tensor::zeros_of: "), "{err}");
}

#[test]
fn to_vec_of_a_huge_broadcast_view_is_an_error() {
    let t = Tensor::arange::<f32>(&"1".parse().unwrap())
        .broadcast_to(&"4611686018427387904".parse().unwrap())
        .unwrap();
    let err = t.to_vec::<f32>().unwrap_err().to_string();
    assert!(err.starts_with("to_vec: "), "{err}");
}

#[test]
fn modes_with_a_range_ending_at_usize_max_is_an_error() {
    let l: strideweave::Layout = "(2,3):(1,2)".parse().unwrap();
    assert!(l.modes(0..=usize::MAX).is_err());
    assert!(
        l.modes((
            std::ops::Bound::Excluded(usize::MAX),
            std::ops::Bound::Unbounded
        ))
        .is_err()
    );
}

/// A 2^62-element broadcast of one element.
fn huge_broadcast() -> Tensor {
    Tensor::arange::<f32>(&"1".parse().unwrap())
        .broadcast_to(&"4611686018427387904".parse().unwrap())
        .unwrap()
}

#[test]
fn to_scalars_iter_and_to_vec_row_major_of_a_huge_broadcast_view_are_errors() {
    let t = huge_broadcast();
    let err = t.to_scalars().unwrap_err().to_string();
    assert!(err.starts_with("to_scalars: "), "{err}");
    let err = t.iter::<f32>().unwrap_err().to_string();
    assert!(err.starts_with("iter: "), "{err}");
    let err = t.to_vec_row_major::<f32>().unwrap_err().to_string();
    assert!(err.starts_with("to_vec_row_major: "), "{err}");
}

#[test]
fn materialize_of_a_huge_broadcast_view_is_an_error() {
    let err = huge_broadcast().materialize().unwrap_err().to_string();
    assert!(err.starts_with("materialize: "), "{err}");
}
