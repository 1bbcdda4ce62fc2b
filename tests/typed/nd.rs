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

/// Gaps are refused because they may be lent mutably at the same time: here the odd
/// columns are written through `odd` while `even` is alive, so a slice spanning `even`'s
/// gaps would alias them. The message says why and what to do.
#[test]
fn ndarray_views_with_gaps_are_refused_with_the_reason_and_the_remedy() {
    let mut a = ndarray::Array::from_shape_vec((2, 4), (0..8).collect::<Vec<i32>>()).unwrap();
    {
        let (even, mut odd) = a.multi_slice_mut((s![.., ..;2], s![.., 1..;2]));
        let err = TypedTensorView::try_from(even.view()).unwrap_err();
        odd.fill(-1);
        let msg = err.to_string();
        assert_eq!(err.kind(), ErrorKind::Value);
        for part in [
            "shape [2, 2], strides [4, 2]",
            "gaps between them may be borrowed mutably elsewhere",
            "slice_view",
            ".as_standard_layout()",
            ".to_owned()",
        ] {
            assert!(msg.contains(part), "{part:?} missing from {msg}");
        }
        assert_eq!(even[[1, 1]], 6);
    }
    assert_eq!(a.row(0).to_vec(), [0, -1, 2, -1]);
    // The remedies: the contiguous parent sliced on the typed side (no copy), or a copy.
    let parent = TypedTensorView::try_from(a.view()).unwrap();
    let even = parent
        .slice_axis_view(1, strideweave::StridedSliceSpec::all().with_step(2))
        .unwrap();
    assert_eq!(even.to_col_major().unwrap().into_vec(), [0, 4, 2, 6]);
    let copied = a.slice(s![.., ..;2]).to_owned();
    let view = TypedTensorView::try_from(copied.view()).unwrap();
    assert_eq!(view.get(&[1, 1]), Some(&6));
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

#[test]
fn sole_compact_host_tensors_move_into_arrays_without_a_copy() {
    use strideweave::Tensor;
    let t = Tensor::from_vec(
        vec![1.0_f64, 2.0, 3.0, 4.0, 5.0, 6.0],
        &"(3,2)".parse().unwrap(),
    )
    .unwrap();
    let ptr = t.carrier().read(|x: &[f64]| x.as_ptr() as usize).unwrap();
    let a = ArrayD::<f64>::try_from(t).unwrap();
    assert_eq!(a.as_ptr() as usize, ptr);
    assert_eq!(a.shape(), &[3, 2]);
    assert_eq!(a[[2, 1]], 6.0);
    assert_eq!(a.strides(), &[1, 3]);
}

#[test]
fn tensors_that_cannot_move_are_refused_with_the_reason() {
    use strideweave::{Carrier, Tensor};
    let message = |t: Tensor| ArrayD::<i32>::try_from(t).unwrap_err().to_string();
    let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    let keep = t.clone();
    let err = message(t);
    assert!(
        err.starts_with("ArrayD::try_from(Tensor): the tensor's carrier is shared"),
        "{err}"
    );
    assert_eq!(keep.to_vec::<i32>().unwrap(), (0..6).collect::<Vec<_>>());
    let view = keep.reverse(0).unwrap();
    drop(keep);
    let err = message(view);
    assert!(
        err.contains(
            "does not view its carrier of 6 elements compactly in column-major order from offset 0"
        ),
        "{err}"
    );
    let part = Tensor::new(
        Carrier::from_vec(vec![0_i32; 8]),
        0,
        "(4):(1)".parse().unwrap(),
    )
    .unwrap();
    assert!(message(part).contains("compactly"));
    let err = ArrayD::<f32>::try_from(Tensor::arange::<i32>(&"(2)".parse().unwrap())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
}

#[test]
fn foreign_storage_tensors_are_refused_and_copied_on_request() {
    use strideweave::{Carrier, CarrierStorage, DType, HostSlice, HostSliceMut, Tensor};
    struct Frozen(Box<[i32]>);
    impl CarrierStorage for Frozen {
        fn dtype(&self) -> DType {
            DType::I32
        }
        fn len(&self) -> usize {
            self.0.len()
        }
        fn host(&self) -> Option<HostSlice<'_>> {
            Some(HostSlice::from(&self.0[..]))
        }
        fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
            None
        }
        fn class_name(&self) -> &'static str {
            "frozen"
        }
    }
    let make = || {
        let c = Carrier::from_storage(Frozen(vec![1, 2, 3, 4].into()));
        Tensor::new(c, 0, "(2,2):(1,2)".parse().unwrap()).unwrap()
    };
    let err = ArrayD::<i32>::try_from(make()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ArrayD::try_from(Tensor): the frozen carrier does not keep its elements in a host Vec, so they cannot move without a copy (use to_array_copied)"
    );
    let a = make()
        .permute(&[1, 0])
        .unwrap()
        .to_array_copied::<i32>()
        .unwrap();
    assert_eq!(a, ndarray::arr2(&[[1, 2], [3, 4]]).into_dyn());
}

#[test]
fn tensors_on_a_cache_line_move_into_ndarray_and_back_without_copying() {
    // 4096 f32: a fresh buffer this large starts on a cache line, past its vector's front.
    let t = strideweave::Tensor::arange::<f32>(&"(64,64)".parse().unwrap());
    let ptr = t.carrier().read(|x: &[f32]| x.as_ptr()).unwrap();
    let a = ArrayD::<f32>::try_from(t).unwrap();
    assert_eq!(
        (a.as_ptr(), a.shape(), a[[3, 2]]),
        (ptr, &[64, 64][..], 131.0)
    );
    let back = strideweave::Tensor::try_from(a).unwrap();
    assert_eq!(back.carrier().read(|x: &[f32]| x.as_ptr()).unwrap(), ptr);
    assert_eq!(
        back.to_vec::<f32>().unwrap(),
        (0..4096).map(|i| i as f32).collect::<Vec<_>>()
    );
    let a = ArrayD::<f32>::try_from(back).unwrap();
    assert_eq!(a.as_ptr(), ptr);
    // A typed tensor owns a plain vector: the elements shift to its front, in place.
    let typed = TypedTensor::try_from(a).unwrap();
    assert_eq!(typed.view().get(&[3, 2]), Some(&131.0));
    assert_eq!(typed.into_vec().len(), 4096);
}

#[test]
fn arrays_that_begin_past_their_buffers_front_move_into_tensors() {
    // Column-major (2, 4); dropping the first column keeps it compact, 2 elements in.
    let full = ArrayD::from_shape_vec(IxDyn(&[2, 4]).f(), (0..8).collect::<Vec<i32>>()).unwrap();
    let tail = full.slice_move(s![.., 1..]).into_dyn();
    let ptr = tail.as_ptr();
    let t = strideweave::Tensor::try_from(tail).unwrap();
    assert_eq!(t.carrier().read(|x: &[i32]| x.as_ptr()).unwrap(), ptr);
    assert_eq!(t.to_vec::<i32>().unwrap(), [2, 3, 4, 5, 6, 7]);
    // Dropping the last column leaves elements after the array's end: refused, not copied.
    let full = ArrayD::from_shape_vec(IxDyn(&[2, 4]).f(), (0..8).collect::<Vec<i32>>()).unwrap();
    let head = full.slice_move(s![.., ..3]).into_dyn();
    let err = strideweave::Tensor::try_from(head).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "Tensor::try_from(ArrayD): the array of shape [2, 3] is not compact column-major"
        ),
        "{err}"
    );
    // A typed tensor takes the elements too, shifted to its vector's front.
    let full = ArrayD::from_shape_vec(IxDyn(&[2, 4]).f(), (0..8).collect::<Vec<i32>>()).unwrap();
    let typed = TypedTensor::try_from(full.slice_move(s![.., 2..]).into_dyn()).unwrap();
    assert_eq!(typed.into_vec(), [4, 5, 6, 7]);
}
