//! The owner-level storage operations (the Shaped Types document, contracts C5):
//! `Tensor::to_shape` (`ToShape`) consumes the handle and keeps the storage — no element
//! copy, no allocation — when the view is compact first-mode-fastest and nothing else shares
//! its carrier, otherwise an error that says to `materialize` first; `Tensor::transfer_to`
//! over random views (its storage classes are tested in tests/carrier/transfer.rs).

use proptest::prelude::*;
use strideweave::{Carrier, DType, Element, ErrorKind, Key, Layout, Shape, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

/// The address of a one-subtensor tensor's carrier elements: equal before and after means
/// the very same storage, without keeping a handle.
pub(crate) fn storage_address<T: Element>(t: &Tensor) -> usize {
    t.carrier().read(|x: &[T]| x.as_ptr() as usize).unwrap()
}

#[test]
fn to_shape_reuses_the_storage_without_a_copy() {
    let t = Tensor::arange::<f32>(&sh("(2,(3,2))"));
    let (addr, values) = (storage_address::<f32>(&t), t.to_vec::<f32>().unwrap());
    let r = t.to_shape(&sh("(4,3)")).unwrap();
    assert_eq!(storage_address::<f32>(&r), addr);
    assert_eq!(r.carrier().version(), 0);
    assert_eq!(
        (r.layout().to_string(), r.offset()),
        ("(4,3):(1,4)".into(), 0)
    );
    assert_eq!(r.to_vec::<f32>().unwrap(), values);
    // Every dtype: tests/copy/dtypes.rs.
}

#[test]
fn a_compact_view_at_an_offset_keeps_its_offset_and_extent_one_modes_may_have_any_stride() {
    // Columns 1 and 2 of a 4×3 column-major matrix: compact at offset 4, once the matrix is gone.
    let cols = {
        let m = Tensor::arange::<i32>(&sh("(4,3)"));
        m.slice(&[Key::all(), (1..3).into()]).unwrap()
    };
    let addr = storage_address::<i32>(&cols);
    let r = cols.to_shape(&sh("(2,(2,2))")).unwrap();
    assert_eq!(
        (r.offset(), r.layout().to_string()),
        (4, "(2,(2,2)):(1,(2,4))".into())
    );
    assert_eq!(storage_address::<i32>(&r), addr);
    assert_eq!(r.to_vec::<i32>().unwrap(), [4, 5, 6, 7, 8, 9, 10, 11]);
    let odd = Tensor::new(
        Carrier::from_vec((0..6).collect::<Vec<u8>>()),
        0,
        "(2,1,3):(1,7,2)".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(
        odd.to_shape(&sh("6")).unwrap().to_vec::<u8>().unwrap(),
        [0, 1, 2, 3, 4, 5]
    );
    let one = Tensor::scalar(3.5f64).to_shape(&sh("(1,1)")).unwrap();
    assert_eq!(one.item::<f64>().unwrap(), 3.5);
}

#[test]
fn a_shared_handle_is_refused_with_the_materialize_hint_and_nothing_changes() {
    let t = Tensor::arange::<f32>(&sh("(2,3)"));
    let carrier = t.carrier().clone();
    let view = t.permute(&[0, 1]).unwrap();
    let clone = t.clone();
    let shared = [
        ("a clone of the handle", clone.clone()),
        ("a view of the carrier", view.clone()),
    ];
    for (what, s) in shared {
        let err = s.to_shape(&sh("6")).unwrap_err();
        let msg = err.to_string();
        assert_eq!(err.kind(), ErrorKind::Runtime, "{what}");
        assert!(msg.starts_with("to_shape: the storage is shared"), "{msg}");
        assert!(msg.contains("call materialize first"), "{msg}");
    }
    assert_eq!(
        (carrier.version(), carrier.to_vec::<f32>().unwrap()),
        (0, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    );
    // Only a Carrier handle left besides the tensor: still shared.
    drop((view, clone));
    let err = t.to_shape(&sh("6")).unwrap_err();
    assert!(err.to_string().contains("carrier handle"), "{err}");
    // materialize gives an unshared owner.
    let owned = Tensor::new(carrier, 0, "(2,3):(1,2)".parse().unwrap())
        .unwrap()
        .materialize()
        .unwrap();
    assert_eq!(owned.to_shape(&sh("(3,2)")).unwrap().size(), 6);
}

/// A view made from a fresh tensor.
type ViewOf = fn(Tensor) -> Tensor;

#[test]
fn a_view_that_is_not_compact_first_mode_fastest_is_refused_with_the_materialize_hint() {
    let fresh = || Tensor::arange::<i64>(&sh("(4,6)"));
    let cases: [(&str, ViewOf); 5] = [
        ("permuted", |t| t.permute(&[1, 0]).unwrap()),
        ("every second row", |t| {
            t.slice(&[Key::slice(None, None, Some(2)), Key::all()])
                .unwrap()
        }),
        ("reversed", |t| t.reverse(0).unwrap()),
        ("broadcast", |t| {
            t.slice(&[Key::all(), 0.into()])
                .unwrap()
                .broadcast_in_dim(&sh("(4,2)"), &[0])
                .unwrap()
        }),
        ("row-major", |t| {
            Tensor::from_vec_row_major(t.to_vec::<i64>().unwrap(), t.shape()).unwrap()
        }),
    ];
    for (what, make) in cases {
        let v = make(fresh());
        let size = v.size().to_string();
        let err = v.to_shape(&sh(&size)).unwrap_err();
        let msg = err.to_string();
        assert_eq!(err.kind(), ErrorKind::Value, "{what}");
        assert!(msg.starts_with("to_shape: layout "), "{what}: {msg}");
        assert!(
            msg.contains("not compact first-mode-fastest")
                && msg.ends_with("call materialize first"),
            "{what}: {msg}"
        );
        // materialize first, then it works.
        let m = make(fresh()).materialize().unwrap();
        let want = m.to_vec::<i64>().unwrap();
        assert_eq!(
            m.to_shape(&sh(&size)).unwrap().to_vec::<i64>().unwrap(),
            want
        );
    }
}

#[test]
fn a_shape_of_another_size_is_an_error_naming_both_shapes() {
    let err = Tensor::arange::<u8>(&sh("(2,3)"))
        .to_shape(&sh("(2,4)"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "to_shape: shape (2,4) (8 elements) does not match (2,3) (6 elements): the new shape must hold exactly the tensor's elements"
    );
}

#[test]
fn a_block_scaled_tensor_is_not_implemented() {
    let t = Tensor::block_scaled(vec![1, 2, 3, 4], vec![1.0, 2.0], &sh("4"), 0, 2).unwrap();
    let err = t.to_shape(&sh("(2,2)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert!(err.to_string().starts_with("to_shape: "), "{err}");
}

#[test]
fn a_result_in_autograd_is_recorded_like_a_reshape_and_a_leaf_that_requires_grad_is_refused() {
    let x = Tensor::arange::<f64>(&sh("(2,3)"));
    x.set_requires_grad(true).unwrap();
    let y = x.add(&x).unwrap(); // fresh, unshared, in autograd
    let z = y.to_shape(&sh("(3,2)")).unwrap();
    assert_eq!(z.grad_op(), Some("to_shape"));
    let w = Tensor::arange::<f64>(&sh("(3,2)"));
    z.mul(&w).unwrap().sum().unwrap().backward().unwrap();
    // d/dx Σ 2·x_i·w_i = 2·w_i, ordinal by ordinal (first-mode-fastest order is kept).
    assert_eq!(
        x.grad().unwrap().to_vec::<f64>().unwrap(),
        [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    );
    let leaf = Tensor::arange::<f32>(&sh("4"));
    leaf.set_requires_grad(true).unwrap();
    let err = leaf.to_shape(&sh("(2,2)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string()
            .starts_with("to_shape: this tensor is a leaf that requires gradients"),
        "{err}"
    );
}

/// A random shape of `size` elements: its prime factors (and ones) grouped at random.
fn regroup(size: usize, cuts: &[u8]) -> Shape {
    let mut factors = vec![];
    let (mut n, mut p) = (size, 2);
    while n > 1 {
        if n % p == 0 {
            factors.push(p);
            n /= p;
        } else {
            p += 1;
        }
    }
    let mut modes: Vec<String> = vec![];
    let mut group: Vec<String> = vec![];
    for (k, f) in factors.iter().enumerate() {
        group.push(f.to_string());
        if cuts.get(k).is_some_and(|c| c % 2 == 0) {
            modes.push(format!("({})", group.join(",")));
            group.clear();
        }
    }
    if !group.is_empty() || modes.is_empty() {
        group.push("1".into());
        modes.push(format!("({})", group.join(",")));
    }
    format!("({})", modes.join(",")).parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Over random hierarchical layouts with signed and zero strides: no panic; success
    /// exactly when the size matches, the layout is compact first-mode-fastest and nothing
    /// shares the storage, and then the same storage holds the same values; otherwise an
    /// error starting with `to_shape: ` and an untouched carrier.
    #[test]
    fn to_shape_succeeds_exactly_when_the_storage_can_be_reused(
        c in super::case(),
        cuts in prop::collection::vec(any::<u8>(), 24),
        keep in any::<bool>(),
        grow in prop_oneof![4 => Just(0usize), 1 => Just(1usize)],
    ) {
        let (src, _) = super::build(&c);
        let target = regroup(src.size() + grow, &cuts);
        let compact = src.size() <= 1 || src.layout().coalesce().stride().leaves() == [1];
        let kept = keep.then(|| src.carrier().clone());
        let (addr, values, version) = (
            storage_address::<i32>(&src),
            src.to_vec::<i32>().unwrap(),
            src.carrier().version(),
        );
        let carrier_before = src.carrier().to_vec::<i32>().unwrap();
        match src.to_shape(&target) {
            Ok(r) => {
                prop_assert!(grow == 0 && compact && !keep);
                prop_assert_eq!(storage_address::<i32>(&r), addr);
                prop_assert_eq!(r.layout(), &Layout::compact(&target));
                prop_assert_eq!(r.to_vec::<i32>().unwrap(), values);
                prop_assert_eq!(r.carrier().version(), version);
            }
            Err(e) => {
                prop_assert!(grow != 0 || !compact || keep, "{}", e);
                prop_assert!(e.to_string().starts_with("to_shape: "), "{}", e);
                if let Some(k) = kept {
                    prop_assert_eq!(k.version(), version);
                    prop_assert_eq!(k.to_vec::<i32>().unwrap(), carrier_before);
                }
            }
        }
    }

    /// transfer_to over random layouts: no panic; the host request gives a compact owner of
    /// equal contents, an unknown class an error starting with `transfer_to: `; the source
    /// carrier is untouched either way.
    #[test]
    fn transfer_to_copies_any_view_and_never_touches_the_source(
        c in super::case(),
        known in any::<bool>(),
    ) {
        let (src, _) = super::build(&c);
        let (before, version) = (src.carrier().to_vec::<i32>().unwrap(), src.carrier().version());
        let request = if known {
            strideweave::StorageRequest::host()
        } else {
            strideweave::StorageRequest::named("elsewhere")
        };
        match src.transfer_to(&request) {
            Ok(r) => {
                prop_assert!(known);
                prop_assert_eq!(r.dtype(), DType::I32);
                prop_assert_eq!(r.layout(), &Layout::compact(src.shape()));
                prop_assert_eq!(r.to_vec::<i32>().unwrap(), src.to_vec::<i32>().unwrap());
            }
            Err(e) => {
                prop_assert!(!known);
                prop_assert!(e.to_string().starts_with("transfer_to: no storage class named \"elsewhere\""), "{}", e);
            }
        }
        prop_assert_eq!(src.carrier().to_vec::<i32>().unwrap(), before);
        prop_assert_eq!(src.carrier().version(), version);
    }
}
