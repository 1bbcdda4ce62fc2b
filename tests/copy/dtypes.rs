//! Every storage-producing read and copy — materialize, materialize_into, relayout (column-
//! major, row-major, another compact injective order), relayout_into, copy_from, to_vec,
//! to_vec_row_major, iter, to_shape, transfer_to — for every dtype family (issue 10, item 1): integers, bool,
//! floats, complex (f16/bf16 are checked by the library's own tests under feature `half`),
//! and block-scaled, which reads as its dequantized values.

use strideweave::{Carrier, Complex32, Complex64, DType, Element, Key, Layout, Shape, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

/// A non-compact view of `arange` over a (4,(2,3)) carrier: modes swapped, then every
/// second element of the mode of extent 4; its shape is ((2,3),2).
fn view<T: Element>() -> Tensor {
    Tensor::arange::<T>(&sh("(4,(2,3))"))
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::all(), Key::slice(None, None, Some(2))])
        .unwrap()
}

/// The view's values in first-mode-fastest order, read by ordinal from its placement.
fn expected<T: Element>(v: &Tensor) -> Vec<T> {
    (0..v.size())
        .map(|i| T::from_ordinal((v.offset() as i64 + v.layout().index_of(i).unwrap()) as usize))
        .collect()
}

/// `values` (first-mode-fastest) rearranged into the positions `order` gives them.
fn placed_by<T: Element>(values: &[T], order: &Layout) -> Vec<T> {
    let mut out = values.to_vec();
    let lo = order.reach().0;
    for (i, v) in values.iter().enumerate() {
        out[(order.index_of(i).unwrap() - lo) as usize] = *v;
    }
    out
}

fn check_every_copy<T: Element>() {
    let v = view::<T>();
    let want = expected::<T>(&v);
    let name = T::DTYPE;
    assert_eq!(v.to_vec::<T>().unwrap(), want, "to_vec {name}");
    assert_eq!(
        v.iter::<T>().unwrap().collect::<Vec<T>>(),
        want,
        "iter {name}"
    );
    let row = Layout::row_major(v.shape());
    assert_eq!(
        v.to_vec_row_major::<T>().unwrap(),
        placed_by(&want, &row),
        "to_vec_row_major {name}"
    );
    let m = v.materialize().unwrap();
    assert_eq!(
        (m.dtype(), m.layout(), m.carrier().to_vec::<T>().unwrap()),
        (name, &Layout::compact(v.shape()), want.clone()),
        "materialize {name}"
    );
    // Column-major, row-major, and a compact injective order with a negative stride.
    let other: Layout = "((2,3),2):((-1,-2),6)".parse().unwrap();
    assert_eq!(other.shape(), v.shape());
    for order in [Layout::compact(v.shape()), row.clone(), other] {
        let r = v.relayout(&order).unwrap();
        assert_eq!(r.layout(), &order, "relayout {name} {order}");
        assert_eq!(
            r.carrier().to_vec::<T>().unwrap(),
            placed_by(&want, &order),
            "relayout {name} {order}"
        );
        assert_eq!(r.to_vec::<T>().unwrap(), want, "relayout {name} {order}");
        let carrier = Carrier::zeros(name, order.size()).unwrap();
        let dst = Tensor::new(carrier, (-order.reach().0) as usize, order.clone()).unwrap();
        v.relayout_into(&dst).unwrap();
        assert_eq!(
            dst.carrier().to_vec::<T>().unwrap(),
            placed_by(&want, &order),
            "relayout_into {name} {order}"
        );
    }
    let dst = Tensor::from_vec_row_major(vec![T::zero(); v.size()], v.shape()).unwrap();
    v.materialize_into(&dst).unwrap();
    assert_eq!(dst.to_vec::<T>().unwrap(), want, "materialize_into {name}");
    let dst = Tensor::zeros::<T>(v.shape()).reverse(0).unwrap();
    dst.copy_from(&v).unwrap();
    assert_eq!(dst.to_vec::<T>().unwrap(), want, "copy_from {name}");
    // to_shape keeps the storage of the compact copy: same address, same version.
    let addr = super::owners::storage_address::<T>(&m);
    let flat = m.to_shape(&sh("(3,4)")).unwrap();
    assert_eq!(
        super::owners::storage_address::<T>(&flat),
        addr,
        "to_shape {name}"
    );
    assert_eq!(
        (flat.carrier().version(), flat.to_vec::<T>().unwrap()),
        (1, want.clone())
    );
    let moved = v.transfer_to(&strideweave::StorageRequest::host()).unwrap();
    assert_eq!(moved.to_vec::<T>().unwrap(), want, "transfer_to {name}");
}

#[test]
fn every_copy_and_read_works_for_the_integer_dtypes() {
    check_every_copy::<i8>();
    check_every_copy::<i32>();
    check_every_copy::<i64>();
    check_every_copy::<u8>();
}

#[test]
fn every_copy_and_read_works_for_bool() {
    check_every_copy::<bool>();
}

#[test]
fn every_copy_and_read_works_for_the_float_dtypes() {
    check_every_copy::<f32>();
    check_every_copy::<f64>();
}

#[test]
fn every_copy_and_read_works_for_the_complex_dtypes() {
    check_every_copy::<Complex32>();
    check_every_copy::<Complex64>();
}

#[test]
fn a_block_scaled_tensor_reads_and_copies_as_its_dequantized_values() {
    // 4×2, blocks of 2 along mode 0; viewed with its modes swapped.
    let codes: Vec<i8> = vec![1, -2, 3, 4, -5, 6, 7, -8];
    let t = Tensor::block_scaled(codes, vec![1.0, 0.5, 2.0, 0.25], &sh("(4,2)"), 0, 2)
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let deq = t.dequantize().unwrap();
    let want = deq.to_vec::<f32>().unwrap();
    assert_eq!(
        want,
        [
            1.0,
            -5.0 * 2.0,
            -2.0,
            6.0 * 2.0,
            1.5,
            7.0 * 0.25,
            2.0,
            -8.0 * 0.25
        ]
    );
    assert_eq!(t.to_vec::<f32>().unwrap(), want);
    assert_eq!(t.iter::<f32>().unwrap().collect::<Vec<_>>(), want);
    assert_eq!(
        t.to_vec_row_major::<f32>().unwrap(),
        deq.to_vec_row_major::<f32>().unwrap()
    );
    let err = t.to_vec::<i8>().unwrap_err();
    assert_eq!(err.kind(), strideweave::ErrorKind::NotImplemented);
    assert!(
        err.to_string()
            .ends_with("a block-scaled tensor reads only as its dequantized f32 values"),
        "{err}"
    );
    let m = t.materialize().unwrap();
    assert_eq!(
        (m.dtype(), m.to_vec::<f32>().unwrap()),
        (DType::F32, want.clone())
    );
    let row = Layout::row_major(t.shape());
    let r = t.relayout(&row).unwrap();
    assert_eq!(
        r.carrier().to_vec::<f32>().unwrap(),
        deq.to_vec_row_major::<f32>().unwrap()
    );
    let dst = Tensor::from_vec_row_major(vec![0.0f32; 8], t.shape()).unwrap();
    t.relayout_into(&dst).unwrap();
    assert_eq!(dst.to_vec::<f32>().unwrap(), want);
    let dst = Tensor::zeros::<f32>(t.shape());
    dst.copy_from(&t).unwrap();
    assert_eq!(dst.to_vec::<f32>().unwrap(), want);
    let dst = Tensor::zeros::<f32>(t.shape()).reverse(1).unwrap();
    t.materialize_into(&dst).unwrap();
    assert_eq!(dst.to_vec::<f32>().unwrap(), want);
}
