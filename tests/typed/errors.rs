//! Every error path the document names, with its variant, its kind and a message that
//! starts with the operation.

use strideweave::typed::{ShapeMismatch, TypedTensor};
use strideweave::{
    Complex32, Complex64, Error, ErrorKind, Rank, StridedSliceSpec, TypedTensorView,
    ValidationError, ValidationKind,
};

/// The validation error inside `err`, after checking the operation, the kind and the
/// message prefix.
fn validation(err: Error, op: &str) -> ValidationError {
    assert_eq!(err.kind(), ErrorKind::Value, "{err}");
    assert!(err.to_string().starts_with(&format!("{op}: ")), "{err}");
    assert_eq!(err.to_string().matches(op).count(), 1, "{err}");
    match err {
        Error::Validation { op: o, source } => {
            assert_eq!(o, op);
            source
        }
        other => panic!("expected Error::Validation, found {other:?}"),
    }
}

const DATA: [i32; 6] = [1, 2, 3, 4, 5, 6];

#[test]
fn from_slice_rejects_strides_of_another_rank() {
    let err = TypedTensorView::from_slice([2, 3], [1], 0, &DATA).unwrap_err();
    let v = validation(err, "TypedTensorView::from_slice");
    assert_eq!(
        v,
        ValidationError::RankMismatch {
            what: "strides",
            expected: 2,
            actual: 1
        }
    );
    assert_eq!(v.kind(), ValidationKind::RankMismatch);
}

#[test]
fn from_slice_ranked_dyn_rejects_strides_of_another_rank() {
    let err = TypedTensorView::<i32>::from_slice_ranked(vec![2], vec![1, 2], 0, &DATA).unwrap_err();
    let v = validation(err, "TypedTensorView::from_slice_ranked");
    assert!(matches!(
        v,
        ValidationError::RankMismatch {
            expected: 1,
            actual: 2,
            ..
        }
    ));
}

#[test]
fn from_host_slice_rejects_strides_of_another_rank() {
    let err =
        TypedTensorView::<i32, strideweave::DynRank, strideweave::typed::Host>::from_host_slice(
            vec![6],
            vec![1, 1],
            0,
            &DATA,
        )
        .unwrap_err();
    let v = validation(err, "TypedTensorView::from_host_slice");
    assert!(matches!(v, ValidationError::RankMismatch { .. }));
}

#[test]
fn constructors_reject_views_reaching_past_the_end() {
    let err = TypedTensorView::from_slice([4], [2], 0, &DATA).unwrap_err();
    let v = validation(err, "TypedTensorView::from_slice");
    assert_eq!(
        v,
        ValidationError::ViewOutOfBounds {
            min: 0,
            max: 6,
            len: 6
        }
    );
    assert_eq!(v.kind(), ValidationKind::OutOfBounds);
    let err = TypedTensorView::from_col_major(&[7], &DATA).unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_col_major"),
        ValidationError::ViewOutOfBounds { max: 6, len: 6, .. }
    ));
    let err = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 5, &DATA).unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_slice_ranked"),
        ValidationError::ViewOutOfBounds { .. }
    ));
    let err = TypedTensorView::<_, Rank<1>, strideweave::typed::Host>::from_host_slice(
        [2],
        [1],
        5,
        &DATA,
    )
    .unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_host_slice"),
        ValidationError::ViewOutOfBounds { .. }
    ));
}

#[test]
fn constructors_reject_views_reaching_before_the_start() {
    // Reversed axis whose offset is too small: reaches index -1.
    let err = TypedTensorView::from_slice([3], [-1], 1, &DATA).unwrap_err();
    let v = validation(err, "TypedTensorView::from_slice");
    assert_eq!(
        v,
        ValidationError::ViewOutOfBounds {
            min: -1,
            max: 1,
            len: 6
        }
    );
    // Negative offset with positive strides.
    let err = TypedTensorView::from_slice([2], [1], -1, &DATA).unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_slice"),
        ValidationError::ViewOutOfBounds { min: -1, .. }
    ));
}

#[test]
fn constructors_report_integer_overflow() {
    let empty: [i32; 0] = [];
    // Compact strides 1, 2^40, 2^80: the third does not fit (the view is empty).
    let big = 1usize << 40;
    let err = TypedTensorView::from_col_major(&[big, big, 0], &empty).unwrap_err();
    let v = validation(err, "TypedTensorView::from_col_major");
    assert!(matches!(v, ValidationError::IntegerOverflow { .. }));
    assert_eq!(v.kind(), ValidationKind::IntegerOverflow);
    // The element count overflows usize.
    let err = TypedTensorView::from_slice([usize::MAX, 2], [0, 0], 0, &DATA).unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_slice"),
        ValidationError::IntegerOverflow { .. }
    ));
    // The reach overflows i128.
    let err =
        TypedTensorView::<i32>::from_slice_ranked(vec![1 << 62; 4], vec![isize::MAX; 4], 0, &DATA)
            .unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_slice_ranked"),
        ValidationError::IntegerOverflow { .. }
    ));
    // The reach overflows (the element count fits): 2 · isize::MAX twice.
    let err = TypedTensorView::<_, Rank<2>>::from_slice_ranked(
        [3, 3],
        [isize::MAX, isize::MAX],
        0,
        &DATA,
    )
    .unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_slice_ranked"),
        ValidationError::ViewOutOfBounds { .. }
    ));
    let err = TypedTensorView::<_, Rank<2>, strideweave::typed::Host>::from_host_slice(
        [usize::MAX, 2],
        [0, 0],
        0,
        &DATA,
    )
    .unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::from_host_slice"),
        ValidationError::IntegerOverflow { .. }
    ));
}

#[test]
fn layout_linear_offset_reports_rank_index_and_overflow_errors() {
    let view = TypedTensorView::from_col_major(&[2, 3], &DATA).unwrap();
    let op = "TypedTensorView::layout_linear_offset";
    let v = validation(view.layout_linear_offset(&[1]).unwrap_err(), op);
    assert_eq!(
        v,
        ValidationError::RankMismatch {
            what: "indices",
            expected: 2,
            actual: 1
        }
    );
    let err = view.layout_linear_offset(&[0, 3]).unwrap_err();
    assert!(
        err.to_string()
            .contains("index 3 on axis 1 is outside its extent 3"),
        "{err}"
    );
    assert!(matches!(
        validation(err, op),
        ValidationError::InvalidArgument {
            argument: "indices",
            ..
        }
    ));
    // The Option form answers None for the same inputs.
    assert_eq!(
        (view.linear_offset(&[1]), view.linear_offset(&[0, 3])),
        (None, None)
    );
    assert_eq!((view.get(&[2, 0]), view.get(&[0, 0, 0])), (None, None));
}

#[test]
fn assert_col_major_contiguous_rejects_strided_views() {
    let view = TypedTensorView::from_slice([3, 2], [2, 1], 0, &DATA).unwrap();
    assert!(!view.is_col_major_contiguous().unwrap());
    let err = view.assert_col_major_contiguous().unwrap_err();
    assert!(
        err.to_string().contains("shape=[3, 2] strides=[2, 1]"),
        "{err}"
    );
    assert!(matches!(
        validation(err, "TypedTensorView::assert_col_major_contiguous"),
        ValidationError::InvalidArgument {
            argument: "view",
            ..
        }
    ));
}

#[test]
fn as_slice_rejects_non_contiguous_views() {
    let view = TypedTensorView::from_slice([3], [2], 0, &DATA).unwrap();
    let v = validation(view.as_slice().unwrap_err(), "TypedTensorView::as_slice");
    assert_eq!(
        v,
        ValidationError::NonContiguousViewAsSlice {
            shape: vec![3],
            strides: vec![2]
        }
    );
    assert_eq!(v.kind(), ValidationKind::InvalidArgument);
    let reversed = TypedTensorView::from_slice([3], [-1], 2, &DATA).unwrap();
    assert!(reversed.as_slice().is_err());
}

#[test]
fn as_slice_of_an_empty_view_checks_its_offset() {
    let view = TypedTensorView::from_slice([0], [1], -3, &DATA).unwrap();
    let err = view.as_slice().unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::as_slice"),
        ValidationError::InvalidArgument {
            argument: "offset",
            ..
        }
    ));
    let view = TypedTensorView::from_slice([0], [1], 9, &DATA).unwrap();
    assert!(matches!(
        validation(view.as_slice().unwrap_err(), "TypedTensorView::as_slice"),
        ValidationError::ViewOutOfBounds { len: 6, .. }
    ));
    let view = TypedTensorView::from_slice([0], [1], 6, &DATA).unwrap();
    assert_eq!(view.as_slice().unwrap(), &[] as &[i32]);
}

#[test]
fn duplicate_rejects_non_contiguous_views() {
    let view = TypedTensorView::from_slice([3], [2], 0, &DATA).unwrap();
    assert!(matches!(
        validation(view.duplicate().unwrap_err(), "TypedTensorView::duplicate"),
        ValidationError::NonContiguousViewAsSlice { .. }
    ));
}

#[test]
fn host_col_major_view_rejects_non_contiguous_views() {
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([3, 2], [2, 1], 0, &DATA).unwrap();
    assert!(matches!(
        validation(
            view.host_col_major_view().unwrap_err(),
            "TypedTensorView::host_col_major_view"
        ),
        ValidationError::NonContiguousViewAsSlice { .. }
    ));
}

#[test]
fn transpose_view_rejects_invalid_permutations() {
    let view = TypedTensorView::from_col_major(&[2, 3], &DATA).unwrap();
    let op = "TypedTensorView::transpose_view";
    let v = validation(view.transpose_view([0]).unwrap_err(), op);
    assert_eq!(
        v,
        ValidationError::InvalidPermutationLength {
            expected: 2,
            actual: 1
        }
    );
    assert_eq!(v.kind(), ValidationKind::RankMismatch);
    let v = validation(view.transpose_view([0, 2]).unwrap_err(), op);
    assert_eq!(v, ValidationError::AxisOutOfBounds { axis: 2, rank: 2 });
    assert_eq!(v.kind(), ValidationKind::AxisOutOfBounds);
    let err = view.transpose_view([1, 1]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypedTensorView::transpose_view: duplicate permutation axis 1"
    );
    assert_eq!(
        validation(err, op),
        ValidationError::DuplicateAxis {
            axis: 1,
            role: "permutation"
        }
    );
}

#[test]
fn slice_view_rejects_wrong_counts_steps_and_bounds() {
    let view = TypedTensorView::from_col_major(&[2, 3], &DATA).unwrap();
    let op = "TypedTensorView::slice_view";
    let v = validation(view.slice_view(&[StridedSliceSpec::all()]).unwrap_err(), op);
    assert_eq!(
        v,
        ValidationError::RankMismatch {
            what: "slices",
            expected: 2,
            actual: 1
        }
    );
    let zero = StridedSliceSpec::new(None, None, 0);
    let v = validation(
        view.slice_view(&[StridedSliceSpec::all(), zero])
            .unwrap_err(),
        op,
    );
    assert_eq!(v, ValidationError::InvalidSliceStep { axis: 1, step: 0 });
    let against = StridedSliceSpec::range(2, 1);
    let err = view
        .slice_view(&[StridedSliceSpec::all(), against])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypedTensorView::slice_view: invalid slice bounds on axis 1: start 2 and stop 1 (normalised for extent 3) run against the step 1"
    );
    assert!(matches!(
        validation(err, op),
        ValidationError::InvalidSliceBounds {
            axis: 1,
            start: 2,
            stop: 1,
            step: 1,
            axis_len: 3
        }
    ));
    let backwards_against = StridedSliceSpec::new(Some(0), Some(2), -1);
    assert!(matches!(
        validation(
            view.slice_view(&[backwards_against, StridedSliceSpec::all()])
                .unwrap_err(),
            op
        ),
        ValidationError::InvalidSliceBounds { axis: 0, .. }
    ));
}

#[test]
fn slice_axis_view_rejects_bad_axes_steps_and_bounds() {
    let view = TypedTensorView::from_col_major(&[2, 3], &DATA).unwrap();
    let op = "TypedTensorView::slice_axis_view";
    let v = validation(
        view.slice_axis_view(2, StridedSliceSpec::all())
            .unwrap_err(),
        op,
    );
    assert_eq!(v, ValidationError::AxisOutOfBounds { axis: 2, rank: 2 });
    let v = validation(
        view.slice_axis_view(0, StridedSliceSpec::all().with_step(0))
            .unwrap_err(),
        op,
    );
    assert!(matches!(
        v,
        ValidationError::InvalidSliceStep { axis: 0, step: 0 }
    ));
    let v = validation(
        view.slice_axis_view(0, StridedSliceSpec::range(-1, 0))
            .unwrap_err(),
        op,
    );
    assert!(matches!(
        v,
        ValidationError::InvalidSliceBounds {
            start: 1,
            stop: 0,
            ..
        }
    ));
}

#[test]
fn slice_view_reports_overflow_of_the_sliced_stride() {
    let data = [0u8; 2];
    let op = "TypedTensorView::slice_view";
    let view = TypedTensorView::from_slice([1, 2], [isize::MIN, 1], 0, &data).unwrap();
    let err = view
        .slice_view(&[
            StridedSliceSpec::all().with_step(-1),
            StridedSliceSpec::all(),
        ])
        .unwrap_err();
    assert!(matches!(
        validation(err, op),
        ValidationError::IntegerOverflow {
            what: "the sliced stride"
        }
    ));
}

#[test]
fn slice_views_report_stride_overflow() {
    let data = [0u8; 2];
    // Extent 1 lets the stride be anything; stepping it by 2 overflows.
    let view = TypedTensorView::from_slice([1], [isize::MAX], 0, &data).unwrap();
    let err = view
        .slice_axis_view(0, StridedSliceSpec::all().with_step(2))
        .unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorView::slice_axis_view"),
        ValidationError::IntegerOverflow { .. }
    ));
}

#[test]
fn reshape_view_rejects_strided_sources_and_other_counts() {
    let op = "TypedTensorView::reshape_view";
    let strided = TypedTensorView::from_slice([3, 2], [2, 1], 0, &DATA).unwrap();
    assert!(matches!(
        validation(strided.reshape_view(&[6]).unwrap_err(), op),
        ValidationError::NonContiguousViewAsSlice { .. }
    ));
    let compact = TypedTensorView::from_col_major(&[2, 3], &DATA).unwrap();
    let err = compact.reshape_view(&[4]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypedTensorView::reshape_view: reshape element-count mismatch: from 6 elements to 4"
    );
    let v = validation(err, op);
    assert_eq!(
        v,
        ValidationError::ShapeMismatch(ShapeMismatch::ReshapeElementCount { from: 6, to: 4 })
    );
    assert_eq!(v.kind(), ValidationKind::ShapeMismatch);
    assert!(matches!(
        validation(compact.reshape_view(&[usize::MAX, 3]).unwrap_err(), op),
        ValidationError::IntegerOverflow { .. }
    ));
}

#[test]
fn as_complex_view_rejects_layouts_that_are_not_interleaved_pairs() {
    let data = [1.0_f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let op = "TypedTensorView::as_complex_view";
    let cases: [(&[usize], &[isize], isize, &str); 5] = [
        (&[3, 2], &[1, 3], 0, "leading axis of extent 2 and stride 1"),
        (&[2, 3], &[3, 1], 0, "leading axis of extent 2 and stride 1"),
        (&[], &[], 0, "leading axis"),
        (&[2, 2], &[1, 3], 0, "stride 3 of axis 1 is odd"),
        (&[2, 2], &[1, 2], 1, "offset 1 is odd"),
    ];
    for (shape, strides, offset, why) in cases {
        let view = TypedTensorView::from_slice(shape, strides, offset, &data).unwrap();
        let err = view.as_complex_view().unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
        assert!(matches!(
            validation(err, op),
            ValidationError::InvalidArgument {
                argument: "layout",
                ..
            }
        ));
    }
    let wide = [1.0_f64, 2.0, 3.0];
    let view = TypedTensorView::from_slice([2], [1], 1, &wide).unwrap();
    assert!(matches!(
        validation(view.as_complex_view().unwrap_err(), op),
        ValidationError::InvalidArgument { .. }
    ));
}

#[test]
fn as_real_view_reports_overflow_of_doubled_strides() {
    let data = [Complex32::new(1.0, 2.0)];
    let view = TypedTensorView::from_slice([1], [isize::MAX], 0, &data).unwrap();
    assert!(matches!(
        validation(
            view.as_real_view().unwrap_err(),
            "TypedTensorView::as_real_view"
        ),
        ValidationError::IntegerOverflow { .. }
    ));
    let data = [Complex64::new(1.0, 2.0)];
    let view = TypedTensorView::from_slice([1], [isize::MIN], 0, &data).unwrap();
    assert!(matches!(
        validation(
            view.as_real_view().unwrap_err(),
            "TypedTensorView::as_real_view"
        ),
        ValidationError::IntegerOverflow { .. }
    ));
}

#[test]
fn tensor_read_rejects_other_dtypes_and_strided_layouts() {
    let read = TypedTensorView::from_slice([3], [2], 0, &DATA)
        .unwrap()
        .into_tensor_read()
        .unwrap();
    let err = read.as_slice::<f32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(
        err.to_string()
            .starts_with("TensorRead::as_slice: expected elements of dtype i32"),
        "{err}"
    );
    assert!(matches!(
        validation(read.as_slice::<i32>().unwrap_err(), "TensorRead::as_slice"),
        ValidationError::NonContiguousViewAsSlice { .. }
    ));
    assert_eq!(read.view::<u8>().unwrap_err().kind(), ErrorKind::Type);
}

#[test]
fn typed_tensor_rejects_data_of_another_length() {
    let err = TypedTensor::from_vec([2, 2], vec![1, 2, 3]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypedTensor::from_vec: shape has 4 elements but the data has 3"
    );
    assert_eq!(
        validation(err, "TypedTensor::from_vec"),
        ValidationError::ShapeMismatch(ShapeMismatch::DataLength {
            expected: 4,
            actual: 3
        })
    );
}

/// The runtime-state and host-access errors of non-host storage: no view built by this
/// crate reaches them (every view borrows a host slice), so their variants are checked
/// directly for their kind and message form.
#[test]
fn runtime_state_and_host_access_errors_are_runtime_kind() {
    let host = Error::HostAccess {
        op: "TypedTensorView::duplicate",
        detail: "device memory".into(),
    };
    assert_eq!(host.kind(), ErrorKind::Runtime);
    assert_eq!(
        host.to_string(),
        "TypedTensorView::duplicate: device memory"
    );
    let state = Error::Runtime {
        op: "TypedTensorView::host_storage",
        detail: "backend".into(),
    };
    assert_eq!(state.kind(), ErrorKind::Runtime);
    // Every host view passes the runtime-state check.
    let view = TypedTensorView::from_col_major(&[6], &DATA).unwrap();
    assert_eq!(view.host_storage().unwrap(), &DATA);
    assert!(view.placement().memory_kind.is_host());
}

#[test]
fn normalise_reports_its_own_operation() {
    let err = StridedSliceSpec::new(None, None, 0)
        .normalise(3, 4)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "StridedSliceSpec::normalise: invalid slice step 0 on axis 3: the step must not be zero"
    );
}
