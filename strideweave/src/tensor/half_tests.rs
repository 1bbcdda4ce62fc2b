//! f16 and bf16 (feature `half`) through every storage-producing operation: materialize,
//! materialize_into, relayout (column-major, row-major, a negative-stride compact order),
//! relayout_into, copy_from, to_vec, to_vec_row_major, iter, to_shape and transfer_to.

use crate::{Carrier, Element, Key, Layout, Shape, StorageRequest, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

fn check_every_copy<T: Element>() {
    let name = T::DTYPE;
    // Modes swapped, every second element of the mode of extent 4: shape ((2,3),2).
    let v = Tensor::arange::<T>(&sh("(4,(2,3))"))
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::all(), Key::slice(None, None, Some(2))])
        .unwrap();
    let want: Vec<T> = (0..v.size())
        .map(|i| T::from_ordinal((v.offset() as i64 + v.layout().index_of(i).unwrap()) as usize))
        .collect();
    let placed = |order: &Layout| {
        let mut out = want.clone();
        for (i, x) in want.iter().enumerate() {
            out[(order.index_of(i).unwrap() - order.reach().0) as usize] = *x;
        }
        out
    };
    assert_eq!(v.to_vec::<T>().unwrap(), want, "to_vec {name}");
    assert_eq!(v.iter::<T>().unwrap().collect::<Vec<T>>(), want, "iter {name}");
    let row = Layout::row_major(v.shape());
    assert_eq!(v.to_vec_row_major::<T>().unwrap(), placed(&row), "{name}");
    let m = v.materialize().unwrap();
    assert_eq!(m.carrier().to_vec::<T>().unwrap(), want, "materialize {name}");
    let other: Layout = "((2,3),2):((-1,-2),6)".parse().unwrap();
    for order in [Layout::compact(v.shape()), row, other] {
        let r = v.relayout(&order).unwrap();
        assert_eq!(r.carrier().to_vec::<T>().unwrap(), placed(&order), "{name} {order}");
        let c = Carrier::zeros(name, order.size()).unwrap();
        let dst = Tensor::new(c, (-order.reach().0) as usize, order.clone()).unwrap();
        v.relayout_into(&dst).unwrap();
        assert_eq!(dst.carrier().to_vec::<T>().unwrap(), placed(&order), "{name} {order}");
    }
    let dst = Tensor::zeros::<T>(v.shape()).reverse(0).unwrap();
    v.materialize_into(&dst).unwrap();
    assert_eq!(dst.to_vec::<T>().unwrap(), want, "materialize_into {name}");
    let dst = Tensor::zeros::<T>(v.shape()).reverse(1).unwrap();
    dst.copy_from(&v).unwrap();
    assert_eq!(dst.to_vec::<T>().unwrap(), want, "copy_from {name}");
    let moved = v.transfer_to(&StorageRequest::host()).unwrap();
    assert_eq!(moved.to_vec::<T>().unwrap(), want, "transfer_to {name}");
    let addr = m.carrier().read(|x: &[T]| x.as_ptr() as usize).unwrap();
    let flat = m.to_shape(&sh("12")).unwrap();
    assert_eq!(flat.carrier().read(|x: &[T]| x.as_ptr() as usize).unwrap(), addr);
    assert_eq!(flat.to_vec::<T>().unwrap(), want, "to_shape {name}");
}

#[test]
fn every_storage_producing_operation_works_for_f16_and_bf16() {
    check_every_copy::<half::f16>();
    check_every_copy::<half::bf16>();
}
