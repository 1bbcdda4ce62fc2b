//! The zero-copy `ndarray` bridges (feature `ndarray`): views both ways with negative
//! strides, owned tensors moved both ways.

use ndarray::{ArrayD, ArrayViewD, Dimension, IxDyn, ShapeBuilder, s};
use proptest::prelude::*;
use strideweave::typed::TypedTensor;
use strideweave::{ErrorKind, TypedTensorView};

#[test]
fn views_convert_both_ways_without_copying() {
    let data: Vec<i32> = (0..12).collect();
    let view = TypedTensorView::from_slice([3, 2, 2], [-4, 1, 2], 8, &data).unwrap();
    let nd: ArrayViewD<'_, i32> = view.clone().into();
    assert_eq!(nd.strides(), &[-4, 1, 2]);
    assert_eq!(nd[[2, 1, 1]], *view.get(&[2, 1, 1]).unwrap());
    assert_eq!(nd.as_ptr(), view.get(&[0, 0, 0]).unwrap() as *const i32);
    let back = TypedTensorView::try_from(nd).unwrap();
    assert_eq!(
        (back.shape(), back.strides(), back.offset()),
        (view.shape(), view.strides(), 8)
    );
    assert_eq!(back.host_storage().unwrap().as_ptr(), data.as_ptr());
}

#[test]
fn empty_views_convert() {
    let data = [1_i32];
    let view = TypedTensorView::from_slice([2, 0], [5, -7], 0, &data).unwrap();
    let nd: ArrayViewD<'_, i32> = view.into();
    assert_eq!(nd.shape(), &[2, 0]);
}

#[test]
fn non_contiguous_ndarray_views_are_refused() {
    let a = ndarray::Array::from_shape_vec((4, 3), (0..12).collect::<Vec<i32>>()).unwrap();
    let err = TypedTensorView::try_from(a.slice(s![..;2, ..])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().starts_with("TypedTensorView::try_from(ArrayView): the ndarray view (shape [2, 3], strides [6, 1]) is not contiguous"), "{err}");
}

#[test]
fn owned_tensors_move_both_ways() {
    let t = TypedTensor::from_vec([2, 3], (0..6).collect::<Vec<i64>>()).unwrap();
    let ptr = t.as_slice().unwrap().as_ptr();
    let a: ArrayD<i64> = t.into();
    assert_eq!((a.as_ptr(), a[[1, 2]]), (ptr, 5));
    let back = TypedTensor::try_from(a).unwrap();
    assert_eq!(back.as_slice().unwrap().as_ptr(), ptr);
    let c_order = ArrayD::from_shape_vec(IxDyn(&[2, 3]), (0..6).collect::<Vec<i64>>()).unwrap();
    let err = TypedTensor::try_from(c_order).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("TypedTensor::try_from(ArrayD): "),
        "{err}"
    );
    let f_order = ArrayD::from_shape_vec(IxDyn(&[2, 3]).f(), (0..6).collect::<Vec<i64>>()).unwrap();
    assert!(TypedTensor::try_from(f_order).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any valid signed view reads the same through ndarray.
    #[test]
    fn ndarray_views_read_the_same_elements(
        (shape, strides, extra) in (1usize..=3).prop_flat_map(|r| (
            prop::collection::vec(0usize..=3, r),
            prop::collection::vec(-4isize..=4, r),
            0usize..3,
        ))
    ) {
        let lo: isize = shape.iter().zip(&strides).map(|(&e, &s)| ((e as isize - 1).max(0) * s).min(0)).sum();
        let hi: isize = shape.iter().zip(&strides).map(|(&e, &s)| ((e as isize - 1).max(0) * s).max(0)).sum();
        let data: Vec<i32> = (0..(hi - lo + 1) as i32 + extra as i32).collect();
        let view = TypedTensorView::from_slice(&shape, &strides, -lo, &data).unwrap();
        let nd: ArrayViewD<'_, i32> = view.clone().into();
        prop_assert_eq!(nd.shape(), view.shape());
        for (idx, x) in nd.indexed_iter() {
            prop_assert_eq!(Some(x), view.get(idx.slice()));
        }
    }
}

#[test]
fn column_major_arrays_move_into_tensors() {
    let a =
        ArrayD::from_shape_vec(IxDyn(&[2, 3]).f(), vec![0.0_f32, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let ptr = a.as_ptr();
    let t = strideweave::Tensor::try_from(a).unwrap();
    assert_eq!(t.carrier().read(|x: &[f32]| x.as_ptr()).unwrap(), ptr);
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let c_order = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0_i32; 6]).unwrap();
    let err = strideweave::Tensor::try_from(c_order).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "Tensor::try_from(ArrayD): the array of shape [2, 3] is not compact column-major"
        ),
        "{err}"
    );
    let empty = ArrayD::from_shape_vec(IxDyn(&[0]).f(), Vec::<i32>::new()).unwrap();
    let err = strideweave::Tensor::try_from(empty).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Tensor::try_from(ArrayD): axis 0 has extent 0"),
        "{err}"
    );
}
