//! f16 and bf16 (feature `half`) through every storage-producing operation: materialize,
//! materialize_into, relayout (column-major, row-major, a negative-stride compact order),
//! relayout_into, copy_from, to_vec, to_vec_row_major, iter, to_shape and transfer_to.

use crate::{Carrier, Element, Key, Layout, StorageRequest, Tensor};

/// Each operation's output, read back in the placement of `order`, for the view
/// `(4,(2,3))` permuted and sliced to `((2,3),2)`; compared with the per-element reference.
fn check_every_copy<T: Element>() {
    let v = Tensor::arange::<T>(&"(4,(2,3))".parse().unwrap())
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::all(), Key::slice(None, None, Some(2))])
        .unwrap();
    let reference = |order: &Layout| {
        let mut out = vec![T::zero(); v.size()];
        for i in 0..v.size() {
            let src = v.offset() as i64 + v.layout().index_of(i).unwrap();
            out[(order.index_of(i).unwrap() - order.reach().0) as usize] =
                T::from_ordinal(src as usize);
        }
        out
    };
    let compact = Layout::compact(v.shape());
    let row = Layout::row_major(v.shape());
    let into = |order: &Layout, f: &dyn Fn(&Tensor)| {
        let c = Carrier::zeros(T::DTYPE, order.size()).unwrap();
        let dst = Tensor::new(c, (-order.reach().0) as usize, order.clone()).unwrap();
        f(&dst);
        dst.carrier().to_vec::<T>().unwrap()
    };
    let m = v.materialize().unwrap();
    let addr = |t: &Tensor| t.carrier().read(|x: &[T]| x.as_ptr() as usize).unwrap();
    let before = addr(&m);
    let flat = m.to_shape(&"12".parse().unwrap()).unwrap();
    assert_eq!(addr(&flat), before, "to_shape keeps the storage");
    let mut outputs: Vec<(String, Vec<T>, Layout)> = vec![
        ("to_vec".into(), v.to_vec().unwrap(), compact.clone()),
        ("iter".into(), v.iter().unwrap().collect(), compact.clone()),
        (
            "to_vec_row_major".into(),
            v.to_vec_row_major().unwrap(),
            row.clone(),
        ),
        (
            "to_shape".into(),
            flat.carrier().to_vec().unwrap(),
            compact.clone(),
        ),
        (
            "transfer_to".into(),
            v.transfer_to(&StorageRequest::host())
                .unwrap()
                .carrier()
                .to_vec()
                .unwrap(),
            compact.clone(),
        ),
        (
            "materialize_into".into(),
            into(&row, &|d| v.materialize_into(d).unwrap()),
            row.clone(),
        ),
        (
            "copy_from".into(),
            into(&row, &|d| d.copy_from(&v).unwrap()),
            row.clone(),
        ),
    ];
    let reversed: Layout = "((2,3),2):((-1,-2),6)".parse().unwrap();
    for order in [compact, row, reversed] {
        let r = v.relayout(&order).unwrap().carrier().to_vec().unwrap();
        outputs.push((format!("relayout {order}"), r, order.clone()));
        let r = into(&order, &|d| v.relayout_into(d).unwrap());
        outputs.push((format!("relayout_into {order}"), r, order.clone()));
    }
    for (op, got, order) in outputs {
        assert_eq!(got, reference(&order), "{op} of {}", T::DTYPE);
    }
}

#[test]
fn every_storage_producing_operation_works_for_f16_and_bf16() {
    check_every_copy::<half::f16>();
    check_every_copy::<half::bf16>();
}
