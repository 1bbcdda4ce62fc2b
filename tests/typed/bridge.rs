//! Bridges between `Tensor` and typed views: `Tensor::typed_view` and
//! `Tensor::with_typed_view` (borrowed, no copy),
//! `TypedTensorView::to_tensor` (copied), `TypedTensor::into_tensor_without_copy` (moved).

use proptest::prelude::*;
use strideweave::typed::TypedTensor;
use strideweave::{Carrier, ErrorKind, Layout, Tensor, TypedTensorView};

#[test]
fn typed_view_borrows_the_carrier_with_the_tensors_offset_and_strides() {
    let t = Tensor::arange::<i64>(&"(3,4)".parse().unwrap())
        .permute(&[1, 0])
        .unwrap();
    let ptr = t.carrier().read(|x: &[i64]| x.as_ptr() as usize).unwrap();
    let (shape, strides, same) = t
        .with_typed_view(|v: TypedTensorView<'_, i64>| {
            (
                v.shape().to_vec(),
                v.strides().to_vec(),
                v.host_storage().unwrap().as_ptr() as usize == ptr,
            )
        })
        .unwrap();
    assert_eq!((shape, strides, same), (vec![4, 3], vec![3, 1], true));
}

#[test]
fn typed_view_reads_what_the_tensor_reads() {
    let s = "((2,3),2)".parse().unwrap();
    let t = Tensor::arange::<f64>(&s)
        .slice(&[strideweave::Key::all(), (1..2).into()])
        .unwrap()
        .reverse(0)
        .unwrap();
    let want = t.to_vec::<f64>().unwrap();
    let got = t
        .with_typed_view(|v: TypedTensorView<'_, f64>| v.to_col_major().unwrap().into_vec())
        .unwrap();
    assert_eq!(got, want);
}

#[test]
fn typed_view_rejects_irregular_modes_other_dtypes_and_block_scaled_tensors() {
    let c = Carrier::from_vec(vec![0_i32; 32]);
    let irregular = Tensor::new(c, 0, "((2,2),3):((1,8),2)".parse::<Layout>().unwrap()).unwrap();
    let err = irregular.typed_view::<i32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string()
            .starts_with("Tensor::typed_view: mode 0 ((2,2):(1,8))"),
        "{err}"
    );
    let err = irregular.typed_view::<f32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(
        err.to_string()
            .starts_with("Tensor::typed_view: expected the tensor's dtype i32, found f32"),
        "{err}"
    );
    let codes: Vec<i8> = (0..8).collect();
    let q = Tensor::block_scaled(
        codes,
        vec![1.0, 0.5, 2.0, 0.25],
        &"(4,2)".parse().unwrap(),
        0,
        2,
    )
    .unwrap();
    let err = q.typed_view::<i8>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
}

#[test]
fn typed_view_of_released_storage_is_a_runtime_error() {
    let t = Tensor::arange::<i32>(&"(2)".parse().unwrap());
    t.carrier().release().unwrap();
    let err = t.typed_view::<i32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(err.to_string().starts_with("Tensor::typed_view: "), "{err}");
}

#[test]
fn to_tensor_copies_and_into_tensor_without_copy_moves() {
    let data = [1_u8, 2, 3, 4, 5, 6];
    let view = TypedTensorView::from_slice([3], [-2], 5, &data).unwrap();
    let t = view.to_tensor().unwrap();
    assert_eq!(t.to_vec::<u8>().unwrap(), [6, 4, 2]);
    let scalar = TypedTensorView::from_slice([0usize; 0], [0isize; 0], 2, &data)
        .unwrap()
        .to_tensor()
        .unwrap();
    assert_eq!(
        (scalar.rank(), scalar.to_vec::<u8>().unwrap()),
        (0, vec![3])
    );
    let empty = TypedTensorView::from_slice([2, 0], [1, 1], 0, &data).unwrap();
    let err = empty.to_tensor().unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypedTensorView::to_tensor: axis 1 has extent 0, and a Tensor's extents are at least 1"
    );
    let owned = TypedTensor::from_vec([3], vec![7_i32, 8, 9]).unwrap();
    let ptr = owned.as_slice().unwrap().as_ptr() as usize;
    let moved = owned.into_tensor_without_copy().unwrap();
    assert_eq!(
        moved
            .carrier()
            .read(|x: &[i32]| x.as_ptr() as usize)
            .unwrap(),
        ptr
    );
    let err = TypedTensor::from_vec([0], Vec::<i32>::new())
        .unwrap()
        .into_tensor_without_copy()
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("TypedTensor::into_tensor_without_copy: axis 0 has extent 0")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// For random signed flat layouts, the borrowed view reads what the tensor reads, and
    /// to_tensor round-trips the values.
    #[test]
    fn typed_view_and_to_tensor_agree_with_the_tensor(
        (shape, strides) in (1usize..=3).prop_flat_map(|r| (
            prop::collection::vec(1i64..=3, r),
            prop::collection::vec(-4i64..=4, r),
        ))
    ) {
        let lo: i64 = shape.iter().zip(&strides).map(|(&e, &s)| ((e - 1) * s).min(0)).sum();
        let hi: i64 = shape.iter().zip(&strides).map(|(&e, &s)| ((e - 1) * s).max(0)).sum();
        let data: Vec<i32> = (0..(hi - lo + 1) as i32).collect();
        let text = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        let layout: Layout = format!("({}):({})", text(&shape), text(&strides)).parse().unwrap();
        let t = Tensor::new(Carrier::from_vec(data), (-lo) as usize, layout).unwrap();
        let want = t.to_vec::<i32>().unwrap();
        let got = t.with_typed_view(|v: TypedTensorView<'_, i32>| (v.to_col_major().unwrap().into_vec(), v.to_tensor().unwrap())).unwrap();
        prop_assert_eq!(&got.0, &want);
        prop_assert_eq!(got.1.to_vec::<i32>().unwrap(), want);
    }
}

#[test]
fn typed_view_returns_a_guard_that_reads_without_a_closure() {
    let t = Tensor::arange::<f32>(&"(3,2)".parse().unwrap())
        .reverse(0)
        .unwrap();
    let values = t.to_vec::<f32>().unwrap();
    let v = t.typed_view::<f32>().unwrap();
    // While the guard holds the read lock, the tensor's own readers on this thread are
    // re-entrant access (an error, not a deadlock).
    assert!(t.to_vec::<f32>().is_err());
    assert_eq!(v.get(&[1, 0]), Some(&1.0));
    assert_eq!(v.get(&[0, 1]), Some(&5.0));
    assert_eq!(v.get(&[3, 0]), None);
    assert_eq!(v.get(&[0]), None);
    assert_eq!(
        (v.shape(), v.strides(), v.offset(), v.rank(), v.n_elements()),
        (&[3, 2][..], &[-1, 3][..], 2, 2, 6)
    );
    assert_eq!(v.to_col_major().unwrap().into_vec(), values);
    let mut seen = vec![];
    v.for_each(|&x| seen.push(x));
    assert_eq!(seen, values);
    let err = v.as_slice().unwrap_err();
    assert!(
        err.to_string().starts_with("TypedTensorView::as_slice: "),
        "{err}"
    );
    let ptr = v.view().host_storage().unwrap().as_ptr() as usize;
    drop(v);
    assert_eq!(
        t.carrier().read(|x: &[f32]| x.as_ptr() as usize).unwrap(),
        ptr
    );
    let compact = Tensor::arange::<i32>(&"(2,2)".parse().unwrap());
    assert_eq!(
        compact.typed_view::<i32>().unwrap().as_slice().unwrap(),
        &[0, 1, 2, 3]
    );
}

#[test]
fn typed_view_guard_blocks_writers_on_other_threads_until_it_drops() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let t = Tensor::arange::<i32>(&"(4)".parse().unwrap());
    let wrote = AtomicBool::new(false);
    std::thread::scope(|s| {
        let v = t.typed_view::<i32>().unwrap();
        let writer = s.spawn(|| {
            t.carrier().write(|x: &mut [i32]| x[0] = 7).unwrap();
            wrote.store(true, Ordering::SeqCst);
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!wrote.load(Ordering::SeqCst));
        assert_eq!(v.get(&[0]), Some(&0));
        drop(v);
        writer.join().unwrap();
    });
    assert!(wrote.load(Ordering::SeqCst));
    assert_eq!(t.to_vec::<i32>().unwrap()[0], 7);
}
