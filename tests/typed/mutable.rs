//! `TypedTensorViewMut`: the non-overlap proof, element writes, `fill`, `copy_from` and
//! disjoint halves written from two threads.

use proptest::prelude::*;
use strideweave::typed::{ShapeMismatch, TypedTensorViewMut};
use strideweave::{Error, ErrorKind, Rank, TypedTensorView, ValidationError};

fn validation(err: Error, op: &str) -> ValidationError {
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().starts_with(&format!("{op}: ")), "{err}");
    match err {
        Error::Validation { source, .. } => source,
        other => panic!("expected Error::Validation, found {other:?}"),
    }
}

#[test]
fn constructors_refuse_layouts_not_provably_disjoint() {
    let mut data = [0_i32; 8];
    let op = "TypedTensorViewMut::from_slice_mut";
    for (shape, strides) in [
        (vec![2, 2], vec![1, 1]), // true overlap
        (vec![3], vec![0]),       // broadcast
        (vec![3, 2], vec![2, 3]), // disjoint ({0,2,4} and {3,5,7}) but interleaved: not provable
    ] {
        let err = TypedTensorViewMut::from_slice_mut(&shape, &strides, 0, &mut data).unwrap_err();
        let msg = err.to_string();
        match validation(err, op) {
            ValidationError::OverlappingMutableLayout { reason } => {
                assert!(reason.contains("does not clear the span"), "{msg}")
            }
            other => panic!("{other:?}"),
        }
    }
    // Bounds are checked first.
    assert!(matches!(
        validation(
            TypedTensorViewMut::from_slice_mut([9], [1], 0, &mut data).unwrap_err(),
            op
        ),
        ValidationError::ViewOutOfBounds { .. }
    ));
}

#[test]
fn permuted_reversed_and_gapped_layouts_are_accepted() {
    let mut data = [0_i32; 12];
    for (shape, strides, offset) in [
        (vec![3, 2], vec![2, 1], 0),
        (vec![2, 3], vec![-1, -4], 9),
        (vec![2, 1, 2], vec![5, 0, 1], 0),
        (vec![0, 4], vec![0, 0], 0),
    ] {
        assert!(TypedTensorViewMut::from_slice_mut(&shape, &strides, offset, &mut data).is_ok());
    }
}

#[test]
fn writes_reach_exactly_the_view_elements() {
    let mut data = [0_i32; 7];
    let mut m =
        TypedTensorViewMut::<_, Rank<2>>::from_slice_ranked_mut([2, 2], [-1, 3], 1, &mut data)
            .unwrap();
    m.fill(5);
    m.set(&[1, 1], 8).unwrap();
    assert_eq!(m.as_view().get(&[1, 1]), Some(&8));
    let err = m.set(&[2, 0], 1).unwrap_err();
    assert!(matches!(
        validation(err, "TypedTensorViewMut::set"),
        ValidationError::InvalidArgument { .. }
    ));
    assert!(m.get_mut(&[0]).is_none());
    assert_eq!(data, [5, 5, 0, 8, 5, 0, 0]);
}

#[test]
fn copy_from_copies_any_layout_and_checks_the_shape() {
    let src: Vec<i32> = (1..=6).collect();
    let rows = TypedTensorView::from_slice([2, 3], [3, 1], 0, &src).unwrap();
    let mut data = [0_i32; 6];
    let mut m = TypedTensorViewMut::from_slice_mut([2, 3], [-1, 2], 1, &mut data).unwrap();
    m.copy_from(&rows).unwrap();
    let wrong = TypedTensorView::from_col_major(&[3, 2], &src).unwrap();
    let err = m.copy_from(&wrong).unwrap_err();
    assert_eq!(
        validation(err, "TypedTensorViewMut::copy_from"),
        ValidationError::ShapeMismatch(ShapeMismatch::ExpectedActual {
            expected: vec![2, 3],
            actual: vec![3, 2]
        })
    );
    // Element (i, j) = 3i + j + 1 at index 1 - i + 2j.
    assert_eq!(data, [4, 1, 5, 2, 6, 3]);
}

#[test]
fn split_at_mut_gives_disjoint_halves_for_two_threads() {
    let mut data = vec![0_i32; 24];
    let m = TypedTensorViewMut::from_slice_mut([4, 3, 2], [1, 4, -12], 12, &mut data).unwrap();
    // Axis 2 has the largest stride (reversed): its halves are separate ranges.
    let (mut a, mut b) = m.split_at_mut(2, 1).unwrap();
    assert_eq!((a.shape(), b.shape()), (&[4, 3, 1][..], &[4, 3, 1][..]));
    std::thread::scope(|s| {
        s.spawn(move || a.fill(1));
        s.spawn(move || b.fill(2));
    });
    assert_eq!(&data[12..], &[1; 12]);
    assert_eq!(&data[..12], &[2; 12]);
}

#[test]
fn split_at_mut_refuses_interleaved_halves_and_bad_arguments() {
    let mut data = [0_i32; 6];
    let op = "TypedTensorViewMut::split_at_mut";
    let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data).unwrap();
    let err = m.split_at_mut(0, 1).unwrap_err();
    assert!(err.to_string().contains("interleave in memory"), "{err}");
    assert!(matches!(
        validation(err, op),
        ValidationError::InvalidArgument {
            argument: "axis",
            ..
        }
    ));
    let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data).unwrap();
    assert!(matches!(
        validation(m.split_at_mut(2, 0).unwrap_err(), op),
        ValidationError::AxisOutOfBounds { axis: 2, rank: 2 }
    ));
    let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data).unwrap();
    assert!(matches!(
        validation(m.split_at_mut(1, 4).unwrap_err(), op),
        ValidationError::InvalidArgument {
            argument: "mid",
            ..
        }
    ));
}

#[test]
fn split_at_mut_at_the_ends_gives_an_empty_half() {
    let mut data = [0_i32; 6];
    let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data).unwrap();
    let (mut empty, mut all) = m.split_at_mut(1, 0).unwrap();
    empty.fill(9);
    all.fill(3);
    let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data).unwrap();
    let (mut all, empty) = m.split_at_mut(1, 3).unwrap();
    assert_eq!((all.shape(), empty.shape()), (&[2, 3][..], &[2, 0][..]));
    all.set(&[1, 2], 4).unwrap();
    assert_eq!(data, [3, 3, 3, 3, 3, 4]);
}

/// A random non-overlapping layout: compact strides of a random axis order, each sign
/// random, with a gap multiplier; and the matching offset and data length.
fn disjoint() -> impl Strategy<Value = (Vec<usize>, Vec<isize>, isize, usize)> {
    (1usize..=4)
        .prop_flat_map(|rank| {
            let order: Vec<usize> = (0..rank).collect();
            (
                prop::collection::vec(1usize..=3, rank),
                Just(order).prop_shuffle(),
                prop::collection::vec(any::<bool>(), rank),
                1isize..=2,
            )
        })
        .prop_map(|(shape, order, neg, gap)| {
            let mut strides = vec![0isize; shape.len()];
            let mut run = 1isize;
            for &k in &order {
                strides[k] = if neg[k] { -run } else { run };
                run *= shape[k] as isize * gap;
            }
            let lo: isize = shape
                .iter()
                .zip(&strides)
                .map(|(&e, &s)| ((e as isize - 1) * s).min(0))
                .sum();
            let hi: isize = shape
                .iter()
                .zip(&strides)
                .map(|(&e, &s)| ((e as isize - 1) * s).max(0))
                .sum();
            (shape, strides, -lo, (hi - lo + 1) as usize)
        })
}

/// A source layout of `shape` with strides in -3..=3 (zero and negative included): strides,
/// offset and the length of the slice it needs.
fn any_source(shape: Vec<usize>) -> impl Strategy<Value = (Vec<isize>, isize, usize)> {
    proptest::collection::vec(-3isize..=3, shape.len()).prop_map(move |strides| {
        let reach = |f: fn(isize) -> isize| -> isize {
            shape
                .iter()
                .zip(&strides)
                .map(|(&e, &s)| f((e as isize - 1).max(0) * s))
                .sum()
        };
        let (lo, hi) = (reach(|x| x.min(0)), reach(|x| x.max(0)));
        (strides, -lo, (hi - lo + 1) as usize)
    })
}

#[test]
fn copy_from_clones_elements_that_are_not_copy() {
    let words: Vec<String> = ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec();
    let reversed = TypedTensorView::from_slice([3, 2], [-2, 1], 4, &words).unwrap();
    let mut out = vec![String::new(); 6];
    TypedTensorViewMut::from_col_major_mut(&[3, 2], &mut out)
        .unwrap()
        .copy_from(&reversed)
        .unwrap();
    assert_eq!(out, ["e", "c", "a", "f", "d", "b"]);
    let mut strided = vec![String::from("-"); 7];
    let mut m = TypedTensorViewMut::from_slice_mut([3], [3], 0, &mut strided).unwrap();
    m.fill(String::from("x"));
    assert_eq!(strided, ["x", "-", "-", "x", "-", "-", "x"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `copy_from` from any source layout (zero and negative strides) into any disjoint
    /// destination writes each destination element from the source element at the same
    /// logical index, and nothing else.
    #[test]
    fn copy_from_matches_the_element_by_element_reference(
        ((shape, strides, offset, len), (ss, so, slen)) in disjoint()
            .prop_flat_map(|d| { let shape = d.0.clone(); (Just(d), any_source(shape)) })
    ) {
        let src: Vec<i32> = (1..=slen as i32).collect();
        let from = TypedTensorView::from_slice(&shape, &ss, so, &src).unwrap();
        let mut data = vec![0_i32; len];
        TypedTensorViewMut::from_slice_mut(&shape, &strides, offset, &mut data)
            .unwrap()
            .copy_from(&from)
            .unwrap();
        let probe: Vec<i32> = (0..len as i32).collect();
        let dst_at = TypedTensorView::from_slice(&shape, &strides, offset, &probe).unwrap();
        let dst_at = dst_at.to_col_major().unwrap().into_vec();
        let want = from.to_col_major().unwrap().into_vec();
        let mut expected = vec![0_i32; len];
        for (&i, &x) in dst_at.iter().zip(&want) {
            expected[i as usize] = x;
        }
        prop_assert_eq!(data, expected);
    }

    /// Permuted, reversed, gapped compact layouts are accepted; fill writes exactly the
    /// elements the read-only view reaches; splitting along the largest stride gives
    /// halves that together write every element once.
    #[test]
    fn fill_and_split_write_exactly_the_view((shape, strides, offset, len) in disjoint()) {
        let mut data = vec![0_i32; len];
        let reached: Vec<usize> = {
            let probe: Vec<i32> = (0..len as i32).collect();
            let v = TypedTensorView::from_slice(&shape, &strides, offset, &probe).unwrap();
            v.to_col_major().unwrap().into_vec().into_iter().map(|x| x as usize).collect()
        };
        TypedTensorViewMut::from_slice_mut(&shape, &strides, offset, &mut data).unwrap().fill(1);
        for (i, &x) in data.iter().enumerate() {
            prop_assert_eq!(x, i32::from(reached.contains(&i)));
        }
        let axis = (0..shape.len()).max_by_key(|&k| strides[k].unsigned_abs()).unwrap();
        let m = TypedTensorViewMut::from_slice_mut(&shape, &strides, offset, &mut data).unwrap();
        let (mut a, mut b) = m.split_at_mut(axis, shape[axis] / 2).unwrap();
        a.fill(10);
        b.fill(20);
        let total: i32 = data.iter().sum();
        let n = reached.len() as i32;
        let first = (shape[axis] / 2) as i32 * n / shape[axis] as i32;
        prop_assert_eq!(total, 10 * first + 20 * (n - first));
    }
}
