//! The documented meaning of each method of `TypedTensorView` and its companions.

use strideweave::typed::{
    ColMajorView, DynRank, Dynamic, Host, MemoryKind, Placement, TensorRank, TypedTensor,
};
use strideweave::{Complex32, Complex64, DType, Rank, StridedSliceSpec, TypedTensorView};

#[test]
fn signed_strides_and_offsets_address_the_slice() {
    let data: Vec<i32> = (0..12).collect();
    // A 3×2 view walking backwards along axis 0 and forwards by 4 along axis 1.
    let view = TypedTensorView::from_slice([3, 2], [-2, 4], 5, &data).unwrap();
    for i in 0..3 {
        for j in 0..2 {
            let at = 5 - 2 * i as isize + 4 * j as isize;
            assert_eq!(view.linear_offset(&[i, j]), Some(at as usize));
            assert_eq!(view.get(&[i, j]), Some(&(at as i32)));
        }
    }
    assert_eq!(view.n_elements(), 6);
    assert_eq!((view.offset(), view.rank()), (5, 2));
}

#[test]
fn rank_zero_views_have_one_element() {
    let data = [7_i32, 8];
    let view = TypedTensorView::from_slice([0usize; 0], [0isize; 0], 1, &data).unwrap();
    assert_eq!(
        (view.rank(), view.n_elements(), view.get(&[])),
        (0, 1, Some(&8))
    );
    assert_eq!(view.as_slice().unwrap(), &[8]);
    assert_eq!(view.to_col_major().unwrap().as_slice().unwrap(), &[8]);
}

#[test]
fn empty_views_accept_any_strides_and_copy_nothing() {
    let data = [1_i32];
    let view = TypedTensorView::from_slice([3, 0], [100, -100], -50, &data).unwrap();
    assert_eq!(view.n_elements(), 0);
    assert_eq!(view.get(&[0, 0]), None);
    assert!(view.is_col_major_contiguous().unwrap());
    assert!(view.to_col_major().unwrap().as_slice().unwrap().is_empty());
}

#[test]
fn compactness_ignores_extent_one_axes_and_the_offset() {
    let data = [0_i32; 8];
    assert!(
        TypedTensorView::from_slice([2, 1, 3], [1, -7, 2], 2, &data)
            .unwrap()
            .is_col_major_contiguous()
            .unwrap()
    );
    assert!(
        !TypedTensorView::from_slice([2, 3], [1, 3], 0, &data)
            .unwrap()
            .is_col_major_contiguous()
            .unwrap()
    );
    assert!(
        !TypedTensorView::from_slice([2], [-1], 1, &data)
            .unwrap()
            .is_col_major_contiguous()
            .unwrap()
    );
}

#[test]
fn host_storage_is_the_whole_slice_and_as_slice_the_logical_region() {
    let data = [1_i32, 2, 3, 4, 5];
    let view = TypedTensorView::from_slice([2, 2], [1, 2], 1, &data).unwrap();
    assert_eq!(view.host_storage().unwrap(), &data);
    assert_eq!(view.as_slice().unwrap(), &[2, 3, 4, 5]);
    let host: TypedTensorView<'_, i32, DynRank, Host> =
        TypedTensorView::from_host_slice(vec![2], vec![2], 1, &data).unwrap();
    assert_eq!(host.as_host_slice(), &data);
}

#[test]
fn layout_and_placement_describe_the_view() {
    let data = [0_u8; 6];
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([3, 2], [2, -1], 1, &data).unwrap();
    let layout = view.layout();
    assert_eq!(
        (layout.shape(), layout.strides(), layout.offset()),
        (&[3, 2][..], &[2, -1][..], 1)
    );
    assert_eq!((layout.rank(), layout.n_elements()), (2, 6));
    assert_eq!(*view.placement(), Placement::host());
    assert_eq!(view.placement().memory_kind, MemoryKind::UnpinnedHost);
    assert_eq!(
        view.layout_summary(),
        "shape=[3, 2] strides=[2, -1] offset=1 storage_len=6"
    );
    let debug = format!("{view:?}");
    assert!(
        debug.contains("shape: [3, 2]") && debug.contains("u8"),
        "{debug}"
    );
}

#[test]
fn clone_shares_the_borrow() {
    let data = [1_i32, 2, 3];
    let view = TypedTensorView::from_col_major(&[3], &data).unwrap();
    let copy = view.clone();
    assert!(std::ptr::eq(
        copy.host_storage().unwrap(),
        view.host_storage().unwrap()
    ));
    assert_eq!(copy.layout(), view.layout());
}

#[test]
fn to_col_major_copies_any_layout_in_column_major_order() {
    let data: Vec<i32> = (0..18).collect();
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 3], [-1, 4], 9, &data).unwrap();
    let owned: TypedTensor<i32, Rank<2>> = view.to_col_major().unwrap();
    assert_eq!(owned.shape(), &[2, 3]);
    assert_eq!(owned.as_slice().unwrap(), &[9, 8, 13, 12, 17, 16]);
    assert_eq!(owned.view().get(&[1, 2]), view.get(&[1, 2]));
    // duplicate copies compact views only, keeping the rank type.
    let compact = TypedTensorView::<_, Rank<1>>::from_slice_ranked([3], [1], 2, &data).unwrap();
    assert_eq!(compact.duplicate().unwrap().into_vec(), vec![2, 3, 4]);
}

#[test]
fn transpose_view_swaps_metadata_only() {
    let data = [1_i32, 2, 3, 4, 5, 6];
    let view =
        TypedTensorView::<_, Rank<3>>::from_slice_ranked([1, 2, 3], [6, 1, 2], 0, &data).unwrap();
    let t = view.transpose_view([2, 0, 1]).unwrap();
    assert_eq!(
        (t.shape(), t.strides(), t.offset()),
        (&[3, 1, 2][..], &[2, 6, 1][..], 0)
    );
    assert_eq!(t.get(&[2, 0, 1]), view.get(&[0, 1, 2]));
    assert!(std::ptr::eq(t.host_storage().unwrap(), &data[..]));
}

#[test]
fn slice_view_follows_python_normalisation() {
    let data: Vec<i32> = (0..10).collect();
    let view = TypedTensorView::from_col_major(&[10], &data).unwrap();
    let pick = |s: StridedSliceSpec| {
        view.slice_view(&[s])
            .unwrap()
            .to_col_major()
            .unwrap()
            .into_vec()
    };
    assert_eq!(pick(StridedSliceSpec::range(2, 5)), vec![2, 3, 4]);
    assert_eq!(pick(StridedSliceSpec::range(-3, 100)), vec![7, 8, 9]);
    assert_eq!(pick(StridedSliceSpec::new(Some(1), None, 4)), vec![1, 5, 9]);
    assert_eq!(
        pick(StridedSliceSpec::new(Some(8), Some(1), -3)),
        vec![8, 5, 2]
    );
    assert_eq!(
        pick(StridedSliceSpec::new(None, Some(-11), -1)),
        (0..10).rev().collect::<Vec<_>>()
    );
    assert_eq!(
        pick(StridedSliceSpec::new(Some(100), Some(-100), -4)),
        vec![9, 5, 1]
    );
    assert_eq!(pick(StridedSliceSpec::range(4, 4)), Vec::<i32>::new());
    assert_eq!(pick(StridedSliceSpec::range(-100, -50)), Vec::<i32>::new());
    // An empty selection keeps the offset inside the axis.
    let empty = view.slice_view(&[StridedSliceSpec::range(10, 10)]).unwrap();
    assert_eq!((empty.shape(), empty.offset()), (&[0][..], 0));
    // Slicing the reversed view: offsets and strides compose.
    let rev = view.slice_view(&[StridedSliceSpec::reverse()]).unwrap();
    assert_eq!((rev.offset(), rev.strides()), (9, &[-1][..]));
    let again = rev
        .slice_axis_view(0, StridedSliceSpec::new(Some(1), None, 2))
        .unwrap();
    assert_eq!(
        again.to_col_major().unwrap().into_vec(),
        vec![8, 6, 4, 2, 0]
    );
}

#[test]
fn slicing_an_empty_axis_fully_or_backwards_is_empty() {
    let data = [0_i32; 1];
    let view = TypedTensorView::from_col_major(&[0], &data).unwrap();
    assert_eq!(
        view.slice_view(&[StridedSliceSpec::all()]).unwrap().shape(),
        &[0]
    );
    assert_eq!(
        view.slice_view(&[StridedSliceSpec::reverse()])
            .unwrap()
            .shape(),
        &[0]
    );
}

#[test]
fn reshape_view_regroups_compact_views_keeping_the_offset() {
    let data: Vec<i32> = (0..7).collect();
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 3], [1, 2], 1, &data).unwrap();
    let r = view.reshape_view(&[3, 1, 2]).unwrap();
    assert_eq!(
        (r.shape(), r.strides(), r.offset()),
        (&[3, 1, 2][..], &[1, 3, 3][..], 1)
    );
    assert_eq!(r.as_slice().unwrap(), view.as_slice().unwrap());
    // Extent-1 axes with odd strides still reshape.
    let odd = TypedTensorView::from_slice([1, 3], [42, 1], 0, &data).unwrap();
    assert_eq!(
        odd.reshape_view(&[3]).unwrap().as_slice().unwrap(),
        &[0, 1, 2]
    );
}

#[test]
fn host_col_major_view_borrows_the_logical_region() {
    let data = [9_i32, 1, 2, 3, 4, 5, 6];
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 3], [1, 2], 1, &data).unwrap();
    let compact: ColMajorView<'_, i32, 2> = view.host_col_major_view().unwrap();
    assert_eq!(compact.as_slice(), &[1, 2, 3, 4, 5, 6]);
    assert_eq!(compact.get([1, 2]), Some(&6));
    assert_eq!(compact.get([2, 0]), None);
}

#[test]
fn complex_views_reinterpret_without_copying() {
    let data = [
        Complex64::new(1.0, 2.0),
        Complex64::new(3.0, 4.0),
        Complex64::new(5.0, 6.0),
    ];
    let view = TypedTensorView::from_slice([2], [-2], 2, &data).unwrap();
    let real = view.as_real_view().unwrap();
    assert_eq!(
        (real.shape(), real.strides(), real.offset()),
        (&[2, 2][..], &[1, -4][..], 4)
    );
    assert_eq!(
        real.to_col_major().unwrap().into_vec(),
        vec![5.0, 6.0, 1.0, 2.0]
    );
    assert_eq!(
        real.host_storage().unwrap().as_ptr() as usize,
        data.as_ptr() as usize
    );
    let back = real.as_complex_view().unwrap();
    assert_eq!(
        (back.shape(), back.strides(), back.offset()),
        (view.shape(), view.strides(), view.offset())
    );
    assert_eq!(back.get(&[1]), Some(&data[0]));
    // f32: an odd trailing component is left out of the complex slice.
    let floats = [1.0_f32, 2.0, 3.0, 4.0, 5.0];
    let c = TypedTensorView::from_slice([2, 2], [1, 2], 0, &floats)
        .unwrap()
        .as_complex_view()
        .unwrap();
    assert_eq!(
        c.as_slice().unwrap(),
        &[Complex32::new(1.0, 2.0), Complex32::new(3.0, 4.0)]
    );
    assert_eq!(c.host_storage().unwrap().len(), 2);
    // The Host marker survives the reinterpretation.
    let host: TypedTensorView<'_, f32, Rank<2>, Host> =
        TypedTensorView::from_host_slice([2, 1], [1, 2], 2, &floats).unwrap();
    let hc: TypedTensorView<'_, Complex32, DynRank, Host> = host.as_complex_view().unwrap();
    assert_eq!(hc.get(&[0]), Some(&Complex32::new(3.0, 4.0)));
}

#[test]
fn tensor_read_erases_rank_and_dtype() {
    let data = [1_i64, 2, 3, 4];
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [2, 1], 0, &data).unwrap();
    let read = view.clone().into_tensor_read().unwrap();
    assert_eq!(
        (read.dtype(), read.rank(), read.shape(), read.strides()),
        (DType::I64, 2, &[2, 2][..], &[2, 1][..])
    );
    let back = read.view::<i64>().unwrap();
    assert_eq!(back.get(&[1, 0]), view.get(&[1, 0]));
    let compact = TypedTensorView::from_col_major(&[4], &data)
        .unwrap()
        .into_tensor_read()
        .unwrap();
    assert_eq!(compact.as_slice::<i64>().unwrap(), &data);
}

#[test]
fn rank_types_carry_their_storage() {
    assert_eq!(<Rank<2> as TensorRank>::shape_from(&[1, 2]), Some([1, 2]));
    assert_eq!(<Rank<2> as TensorRank>::shape_from(&[1]), None);
    assert_eq!(<DynRank as TensorRank>::strides_from(&[-1]), Some(vec![-1]));
    let view: TypedTensorView<'_, u8, DynRank, Dynamic> =
        TypedTensorView::from_col_major(&[1], &[3]).unwrap();
    assert_eq!(view.get(&[0]), Some(&3));
}

#[test]
fn views_are_send_and_sync_for_sync_elements() {
    fn both<T: Send + Sync>() {}
    both::<TypedTensorView<'static, f32, Rank<2>, Host>>();
    both::<TypedTensor<f64>>();
}
