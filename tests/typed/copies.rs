//! `to_col_major` through the copy engine for every element type of the dtype set and
//! through the generic clone for any other `T`: both read each element where `get` finds
//! it, and a copy too large to allocate is an error, not an abort.

use strideweave::{Complex32, Complex64, Error, Rank, TypedTensorView};

/// `to_col_major` of a reversed, transposed, offset view of `values` equals the elements
/// `get` reads in column-major order.
fn check<T: Clone + PartialEq + std::fmt::Debug + 'static>(values: Vec<T>) {
    assert_eq!(values.len(), 13);
    // A 3×4 view: axis 0 backwards by 4, axis 1 forwards by 1, starting at 9.
    let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([3, 4], [-4, 1], 9, &values)
        .unwrap()
        .transpose_view([1, 0])
        .unwrap();
    let mut expected = vec![];
    for j in 0..3 {
        for i in 0..4 {
            expected.push(view.get(&[i, j]).unwrap().clone());
        }
    }
    let owned = view.to_col_major().unwrap();
    assert_eq!(owned.shape(), &[4, 3]);
    assert_eq!(owned.into_vec(), expected);
}

#[test]
fn to_col_major_of_every_element_type_reads_what_get_reads() {
    check((0..13).map(|i| i as f32 * 0.5).collect());
    check((0..13).map(|i| i as f64 - 3.0).collect());
    check((0..13).map(|i: i32| i - 6).collect());
    check((0..13).map(|i| i as i64 * 1_000_000_007).collect());
    check((0..13).map(|i| i as u8 * 17).collect());
    check((0..13).map(|i| -(i as i8)).collect());
    check((0..13).map(|i| i % 3 == 0).collect());
    check(
        (0..13)
            .map(|i| Complex32::new(i as f32, -(i as f32)))
            .collect(),
    );
    check(
        (0..13)
            .map(|i| Complex64::new(-(i as f64), i as f64))
            .collect(),
    );
}

#[test]
fn to_col_major_of_other_types_clones_in_column_major_order() {
    check((0..13).map(|i| format!("e{i}")).collect());
    check((0..13).map(|i| vec![i; i % 3]).collect());
    #[derive(Clone, Debug, PartialEq)]
    struct Wrapped(f32);
    check((0..13).map(|i| Wrapped(i as f32)).collect());
}

#[test]
fn to_col_major_of_a_view_too_large_to_allocate_is_an_error() {
    // Stride 0 lets 2^60 logical elements read one stored element.
    let one = [1.0_f32];
    let view = TypedTensorView::from_slice([1usize << 60], [0], 0, &one).unwrap();
    let err = view.to_col_major().unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with(
            "TypedTensorView::to_col_major: cannot allocate 1152921504606846976 elements"
        ),
        "{err}"
    );
    let words = [String::from("w")];
    let view = TypedTensorView::from_slice([1usize << 60], [0], 0, &words).unwrap();
    let err = view.to_col_major().unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("TypedTensorView::to_col_major: "),
        "{err}"
    );
}
