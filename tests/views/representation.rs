//! core-tensor-representation (contracts §4): RT001–RT008 and carriers.

use strideweave::{
    Carrier, CarrierStorage, DType, ErrorKind, Key, Representation, Subtensor, Tensor,
};

use crate::views::support::{block_scaled, l, s};

/// A second carrier class (device-like), to test class rules without touching the views.
struct OtherClass(Carrier);

impl CarrierStorage for OtherClass {
    fn dtype(&self) -> DType {
        self.0.dtype()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn host(&self) -> Option<strideweave::HostSlice<'_>> {
        None
    }
    fn host_mut(&mut self) -> Option<strideweave::HostSliceMut<'_>> {
        None
    }
    fn class_name(&self) -> &'static str {
        "other"
    }
}

fn sub(c: &Carrier, offset: usize, layout: &str) -> Subtensor {
    Subtensor {
        carrier: c.clone(),
        offset,
        layout: l(layout),
    }
}

#[test]
fn rt001_public_constructor_makes_a_one_subtensor_tensor() {
    let c = Carrier::from_vec(vec![0i32; 12]);
    let t = Tensor::new(c.clone(), 2, l("(2,5):(1,2)")).unwrap();
    assert_eq!(t.dtype(), DType::I32);
    assert_eq!(t.representation().subtensors().len(), 1);
    assert_eq!(
        t.representation().subtensors()[0].carrier.dtype(),
        DType::I32
    );
    // offset + cosize ≤ carrier.size: 2 + 10 = 12 fits, 3 + 10 does not.
    assert!(Tensor::new(c.clone(), 3, l("(2,5):(1,2)")).is_err());
}

#[test]
fn rt001_negative_strides_use_the_reach() {
    let c = Carrier::from_vec((0..5).map(|i| i as f32).collect());
    let t = Tensor::new(c.clone(), 4, l("5:-1")).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [4.0, 3.0, 2.0, 1.0, 0.0]);
    let err = Tensor::new(c, 3, l("5:-1")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("reaches carrier indices -1..=3"),
        "{err}"
    );
}

#[test]
fn rt002_accessors_read_subtensor_zero_and_change_nothing() {
    let c = Carrier::from_vec(vec![1.5f64; 8]);
    let t = Tensor::new(c.clone(), 1, l("(2,3):(1,2)")).unwrap();
    assert!(Carrier::same(t.carrier(), &c));
    assert_eq!(t.offset(), 1);
    assert_eq!(t.layout(), &l("(2,3):(1,2)"));
    assert_eq!((t.dtype(), t.size()), (DType::F64, 6));
    assert_eq!(t.carrier_class(), c.class());
    assert_eq!(c.version(), 0);
    let b = block_scaled();
    assert_eq!(b.dtype(), DType::BlockScaledI8F32);
    assert_eq!(b.carrier().dtype(), DType::I8);
    assert_eq!(b.size(), 8);
}

#[test]
fn rt003_the_schema_fixes_subtensors_and_adjacent_layouts() {
    let codes = Carrier::from_vec(vec![0i8; 4]);
    let scales = Carrier::from_vec(vec![1f32; 2]);
    let err = Representation::new(DType::BlockScaledI8F32, vec![sub(&codes, 0, "4:1")], vec![])
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string()
            .contains("needs 2 subtensor(s) and 1 adjacent layout(s)"),
        "{err}"
    );
    let err = Representation::new(
        DType::BlockScaledI8F32,
        vec![sub(&codes, 0, "4:1"), sub(&scales, 0, "2:1")],
        vec![],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    let ok = Representation::new(
        DType::BlockScaledI8F32,
        vec![sub(&codes, 0, "(2,2):(1,2)"), sub(&scales, 0, "2:1")],
        vec![l("(2,2):(0,1)")],
    );
    assert!(ok.is_ok());
}

#[test]
fn rt004_carrier_dtype_must_be_the_storage_dtype() {
    let wrong = Carrier::from_vec(vec![0u8; 4]);
    let scales = Carrier::from_vec(vec![1f32; 2]);
    let err = Representation::new(
        DType::BlockScaledI8F32,
        vec![sub(&wrong, 0, "(2,2):(1,2)"), sub(&scales, 0, "2:1")],
        vec![l("(2,2):(0,1)")],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
}

#[test]
fn rt004_carriers_share_one_exact_class() {
    let codes = Carrier::from_vec(vec![0i8; 4]);
    let scales = Carrier::from_storage(OtherClass(Carrier::from_vec(vec![1f32; 2])));
    assert_eq!(scales.class().name(), "other");
    let err = Representation::new(
        DType::BlockScaledI8F32,
        vec![sub(&codes, 0, "(2,2):(1,2)"), sub(&scales, 0, "2:1")],
        vec![l("(2,2):(0,1)")],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type);
    assert!(err.to_string().contains("carriers of one class"), "{err}");
}

#[test]
fn rt004_reach_outside_carrier() {
    let c = Carrier::from_vec(vec![0f32; 9]);
    let err = Tensor::new(c, 0, l("(2,3):(1,4)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "Tensor::new: subtensor 0 (offset 0, layout (2,3):(1,4)) reaches carrier indices 0..=9 but its carrier holds 9 elements"
    );
}

#[test]
fn rt005_adjacent_layouts_share_the_shape_and_reach_the_next_level() {
    let codes = Carrier::from_vec(vec![0i8; 4]);
    let scales = Carrier::from_vec(vec![1f32; 2]);
    let mk = |s0: &str| {
        Representation::new(
            DType::BlockScaledI8F32,
            vec![sub(&codes, 0, "(2,2):(1,2)"), sub(&scales, 0, "2:1")],
            vec![l(s0)],
        )
    };
    let err = mk("4:0").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string()
            .contains("S_0 must have the shape of placement L_0"),
        "{err}"
    );
    let err = mk("(2,2):(0,2)").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string()
            .contains("adjacent index 2 is outside level 1"),
        "{err}"
    );
}

#[test]
fn rt006_dtype_rules_run_after_universal_validation() {
    let codes = Carrier::from_vec(vec![0i8; 4]);
    let scales = Carrier::from_vec(vec![1f32; 2]);
    // The block-scaled rule: the scale placement must be injective.
    let err = Representation::new(
        DType::BlockScaledI8F32,
        vec![sub(&codes, 0, "(2,2):(1,2)"), sub(&scales, 0, "2:0")],
        vec![l("(2,2):(0,1)")],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("scale placement"), "{err}");
}

#[test]
fn rt007_snapshot_lists_each_carrier_once_with_its_version() {
    let c = Carrier::from_vec(vec![0f32; 4]);
    let t = Tensor::new(c.clone(), 0, l("4:1")).unwrap();
    c.set(0, 1.0f32.into()).unwrap();
    let snap = t.snapshot();
    assert_eq!(snap.entries().len(), 1);
    assert_eq!(snap.entries()[0].1, 1);
    assert!(snap.changed().is_none());
    t.set_ordinal(1, 2.0).unwrap();
    let (carrier, saved, now) = snap.changed().unwrap();
    assert!(Carrier::same(carrier, &c));
    assert_eq!((saved, now), (1, 2));
    assert_eq!(block_scaled().snapshot().entries().len(), 2);
}

#[test]
fn rt007_representations_keep_carriers_alive() {
    let t = {
        let c = Carrier::from_vec(vec![3u8; 2]);
        Tensor::new(c, 0, l("2:1")).unwrap()
    };
    assert_eq!(t.to_vec::<u8>().unwrap(), [3, 3]);
}

#[test]
fn rt008_multi_subtensor_tensors_reject_every_other_operation_first() {
    let b = block_scaled();
    let before = b.snapshot();
    for (op, kind) in [
        (
            "get",
            b.get(&"(0,0)".parse().unwrap())
                .map(|_| ())
                .unwrap_err()
                .kind(),
        ),
        ("set_ordinal", b.set_ordinal(0, 1.0).unwrap_err().kind()),
        ("fill", b.fill(1.0).unwrap_err().kind()),
        ("to_vec", b.to_vec::<i8>().map(|_| ()).unwrap_err().kind()),
        (
            "index",
            b.index(&[0.into(), 0.into()])
                .map(|_| ())
                .unwrap_err()
                .kind(),
        ),
        ("reverse", b.reverse(0).map(|_| ()).unwrap_err().kind()),
    ] {
        assert_eq!(kind, ErrorKind::NotImplemented, "{op}");
    }
    let msg = b.set_ordinal(0, 1.0).unwrap_err().to_string();
    assert!(msg.contains("requires a one-subtensor Tensor"), "{msg}");
    assert!(before.changed().is_none());
    // The listed leading-level views accept it.
    assert!(b.permute(&[1, 0]).is_ok());
    assert!(b.index(&[Key::all(), 0.into()]).is_ok());
}

#[test]
fn carriers_have_identity_versions_and_release_state() {
    let c = Carrier::from_vec(vec![1.0f64, 2.0]);
    let d = c.clone();
    assert!(Carrier::same(&c, &d));
    assert!(!Carrier::same(&c, &Carrier::from_vec(vec![1.0f64, 2.0])));
    assert_eq!(c.version(), 0);
    d.write(|x: &mut [f64]| x[0] = 5.0).unwrap();
    assert_eq!(c.version(), 1);
    assert!(c.write(|x: &mut [f32]| x[0] = 5.0).is_err());
    assert_eq!(c.version(), 1, "a failed write is not a mutation");
    c.release().unwrap();
    assert!(d.is_released());
    assert_eq!(d.to_vec::<f64>().unwrap_err().kind(), ErrorKind::Runtime);
    assert_eq!(
        d.set(0, 1.0f64.into()).unwrap_err().kind(),
        ErrorKind::Runtime
    );
    c.release().unwrap();
    assert!(c.is_released());
}

#[test]
fn carriers_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Carrier>();
    check::<Tensor>();
    let c = Carrier::from_vec(vec![0u64 as i64; 1000]);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let c = c.clone();
            scope.spawn(move || {
                for i in 0..250 {
                    c.set(i, strideweave::Scalar::I64(1)).unwrap();
                }
            });
        }
    });
    assert_eq!(c.version(), 1000);
}

#[test]
fn plain_dtypes_round_trip() {
    macro_rules! round_trip {
        ($($t:ty => $d:ident = $v:expr),*) => {$(
            let t = Tensor::from_vec(vec![$v; 3], &s("3")).unwrap();
            assert_eq!(t.dtype(), DType::$d);
            assert_eq!(t.to_vec::<$t>().unwrap(), vec![$v; 3]);
            assert_eq!(t.index(&[1.into()]).unwrap().value().unwrap().dtype(), DType::$d);
        )*};
    }
    round_trip!(
        f32 => F32 = 1.5f32, f64 => F64 = 2.5f64, i32 => I32 = -3i32, i64 => I64 = 4i64,
        u8 => U8 = 5u8, i8 => I8 = -6i8, bool => Bool = true,
        strideweave::Complex32 => ComplexF32 = strideweave::Complex32::new(1.0, 2.0),
        strideweave::Complex64 => ComplexF64 = strideweave::Complex64::new(3.0, -4.0)
    );
}

#[test]
fn block_scaled_values_are_code_times_scale() {
    let codes: Vec<i8> = vec![1, 2, 3, 4, -1, -2, -3, -4, 10, 20, 30, 40];
    // (6, 2) with blocks of 3 along mode 0: scales (2, 2).
    let t =
        Tensor::block_scaled(codes.clone(), vec![0.5, 2.0, 1.0, -1.0], &s("(6,2)"), 0, 3).unwrap();
    assert_eq!(t.shape(), &s("((3,2),2)"));
    let v = t.dequantize().unwrap().to_vec::<f32>().unwrap();
    let scale = |i: usize, j: usize| [0.5, 2.0, 1.0, -1.0][i / 3 + 2 * j];
    for j in 0..2 {
        for i in 0..6 {
            assert_eq!(v[i + 6 * j], f32::from(codes[i + 6 * j]) * scale(i, j));
        }
    }
    assert!(Tensor::block_scaled(codes.clone(), vec![1.0; 4], &s("(6,2)"), 0, 4).is_err());
    assert!(Tensor::block_scaled(codes, vec![1.0; 3], &s("(6,2)"), 0, 3).is_err());
}
