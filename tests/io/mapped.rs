//! `Carrier::map_file`, `Carrier::map_file_mut` and `MapOptions`: a file's bytes lent in
//! place; writes through a read-only map are errors; ranges, alignment and bool bytes checked.

use proptest::prelude::*;
use strideweave::{Carrier, DType, ErrorKind, Key, MapOptions, Scalar, Tensor};

use crate::io::{bytes_allocated, scratch};

#[test]
fn map_file_lends_the_files_bytes_and_views_never_copy() {
    let dir = scratch("map-file");
    let path = dir.join("bytes.bin");
    let bytes: Vec<u8> = (0..=255).collect();
    std::fs::write(&path, &bytes).unwrap();
    let (allocated, c) = bytes_allocated(|| Carrier::map_file(&path).unwrap());
    assert!(allocated < 1024, "map_file allocated {allocated} bytes");
    assert_eq!(
        (c.dtype(), c.len(), c.class().name()),
        (DType::U8, 256, "read-only map")
    );
    assert_eq!(c.to_vec::<u8>().unwrap(), bytes);
    let t = Tensor::new(c.clone(), 0, "(16,16):(16,1)".parse().unwrap()).unwrap();
    let (allocated, v) = bytes_allocated(|| {
        t.permute(&[1, 0])
            .unwrap()
            .slice(&[Key::Int(3), Key::all()])
            .unwrap()
    });
    assert!(allocated < 1024, "a view allocated {allocated} bytes");
    assert!(Carrier::same(v.carrier(), &c));
    assert_eq!(
        v.to_vec::<u8>().unwrap(),
        (0..16).map(|r| r * 16 + 3).collect::<Vec<u8>>()
    );
}

#[test]
fn writing_through_a_read_only_map_is_an_error_naming_the_operation_and_the_map() {
    let dir = scratch("map-readonly");
    let path = dir.join("ro.bin");
    std::fs::write(&path, [1u8, 2, 3, 4]).unwrap();
    let c = Carrier::map_file(&path).unwrap();
    let t = Tensor::new(c.clone(), 0, "4:1".parse().unwrap()).unwrap();
    let errors = [
        c.set(0, Scalar::U8(9)).unwrap_err(),
        c.write(|x: &mut [u8]| x[0] = 9).unwrap_err(),
        t.set_ordinal(1, strideweave::Scalar::U8(9)).unwrap_err(),
    ];
    for (err, op) in errors.iter().zip(["Carrier::set", "write", "set_ordinal"]) {
        assert_eq!(
            err.to_string(),
            format!("{op}: the read-only map carrier class is not writable from the host")
        );
        assert_eq!(err.kind(), ErrorKind::NotImplemented);
    }
    assert_eq!(
        (c.to_vec::<u8>().unwrap(), c.version()),
        (vec![1, 2, 3, 4], 0)
    );
    assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3, 4]);
}

#[test]
fn map_file_mut_writes_go_to_the_file() {
    let dir = scratch("map-mut");
    let path = dir.join("rw.bin");
    let values = [1.0f64, 2.0, 3.0];
    std::fs::write(
        &path,
        values
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let c = MapOptions::new(DType::F64)
        .writable(true)
        .map(&path)
        .unwrap();
    assert_eq!(c.class().name(), "writable map");
    let t = Tensor::new(c.clone(), 0, "3:1".parse().unwrap()).unwrap();
    t.set_ordinal(2, 30.0f64).unwrap();
    assert_eq!(
        (c.version(), c.to_vec::<f64>().unwrap()),
        (1, vec![1.0, 2.0, 30.0])
    );
    drop((c, t));
    let back = MapOptions::new(DType::F64).map(&path).unwrap();
    assert_eq!(back.to_vec::<f64>().unwrap(), [1.0, 2.0, 30.0]);
    let u = Carrier::map_file_mut(&path).unwrap();
    assert_eq!((u.dtype(), u.len()), (DType::U8, 24));
}

#[test]
fn a_mapped_tensor_refuses_to_require_gradients_at_once_naming_its_class_and_materialize() {
    let dir = scratch("map-requires-grad");
    let path = dir.join("w.bin");
    let bytes: Vec<u8> = [1.0f64, 2.0, 3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(&path, &bytes).unwrap();
    for (writable, class) in [(false, "read-only map"), (true, "writable map")] {
        let c = MapOptions::new(DType::F64)
            .writable(writable)
            .map(&path)
            .unwrap();
        let t = Tensor::new(c.clone(), 0, "3:1".parse().unwrap()).unwrap();
        let err = t.set_requires_grad(true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotImplemented);
        assert_eq!(
            err.to_string(),
            format!(
                "set_requires_grad: this tensor lives in a {class} carrier, which cannot hold gradients (they are allocated in host carriers only); call materialize() for a host copy and mark that copy"
            )
        );
        assert!(!t.requires_grad() && c.version() == 0);
        // Views of it are refused the same way; switching off stays allowed.
        assert!(t.reverse(0).unwrap().set_requires_grad(true).is_err());
        t.set_requires_grad(false).unwrap();
        // The host copy takes part, and its gradient flows.
        let w = t.materialize().unwrap();
        w.set_requires_grad(true).unwrap();
        w.mul(&w).unwrap().sum().unwrap().backward().unwrap();
        assert_eq!(w.grad().unwrap().to_vec::<f64>().unwrap(), [2.0, 4.0, 6.0]);
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn map_options_checks_range_alignment_dtype_and_bool_bytes() {
    let dir = scratch("map-checks");
    let path = dir.join("f.bin");
    std::fs::write(&path, [0u8, 1, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let p = path.display().to_string();
    let cases = [
        (
            MapOptions::new(DType::F64).offset(4),
            format!(
                "MapOptions::map: {p}: byte offset 4 is not a multiple of 8, the alignment of f64: the elements cannot be read in place"
            ),
        ),
        (
            MapOptions::new(DType::I32).offset(4).len(4),
            format!(
                "MapOptions::map: {p}: 4 i32 elements from offset 4 do not fit in the file (16 bytes)"
            ),
        ),
        (
            MapOptions::new(DType::U8).offset(17),
            format!("MapOptions::map: {p}: offset 17 is past the end of the file (16 bytes)"),
        ),
        (
            MapOptions::new(DType::U8).len(usize::MAX),
            format!(
                "MapOptions::map: {p}: {} u8 elements from offset 0 do not fit in the file (16 bytes)",
                usize::MAX
            ),
        ),
        (
            MapOptions::new(DType::Bool),
            format!("MapOptions::map: {p}: bool element 4 is the byte 2, not 0 or 1"),
        ),
        (
            MapOptions::new(DType::Bool).writable(true),
            format!("MapOptions::map: {p}: bool element 4 is the byte 2, not 0 or 1"),
        ),
    ];
    for (options, message) in cases {
        let err = options.map(&path).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
    let err = MapOptions::new(DType::BlockScaledI8F32)
        .map(&path)
        .unwrap_err();
    assert!(err.to_string().ends_with("is not a plain dtype"), "{err}");
    let ok = MapOptions::new(DType::Bool).len(4).map(&path).unwrap();
    assert_eq!(ok.to_vec::<bool>().unwrap(), [false, true, true, false]);
    let tail = MapOptions::new(DType::I32).offset(12).map(&path).unwrap();
    assert_eq!(tail.to_vec::<i32>().unwrap(), [0]);
    let empty = MapOptions::new(DType::F32).offset(16).map(&path).unwrap();
    assert!(empty.is_empty());
}

#[test]
fn map_file_of_a_missing_path_a_directory_or_an_empty_file() {
    let dir = scratch("map-missing");
    let err = Carrier::map_file(dir.join("nope.bin")).unwrap_err();
    assert!(err.to_string().starts_with(&format!(
        "Carrier::map_file: {}: ",
        dir.join("nope.bin").display()
    )));
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        Carrier::map_file(&dir)
            .unwrap_err()
            .to_string()
            .starts_with("Carrier::map_file: ")
    );
    std::fs::write(dir.join("empty.bin"), []).unwrap();
    let c = Carrier::map_file(dir.join("empty.bin")).unwrap();
    assert_eq!((c.len(), c.to_vec::<u8>().unwrap()), (0, vec![]));
}

fn decode(dtype: DType, bytes: &[u8]) -> Vec<Scalar> {
    let size = dtype.size_of();
    bytes
        .chunks_exact(size)
        .map(|b| match dtype {
            DType::U8 => Scalar::U8(b[0]),
            DType::I32 => Scalar::I32(i32::from_le_bytes(b.try_into().unwrap())),
            DType::F64 => Scalar::F64(f64::from_le_bytes(b.try_into().unwrap())),
            DType::Bool => Scalar::Bool(b[0] == 1),
            _ => unreachable!(),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Any file, dtype, offset and length: a carrier lending exactly the naive decoding of
    /// those bytes, or an error naming the operation; the file is never changed.
    #[test]
    fn map_options_map_equals_a_naive_decoding_or_errs(
        bytes in proptest::collection::vec(prop_oneof![Just(0u8), Just(1u8), any::<u8>()], 0..64),
        dtype in prop_oneof![Just(DType::U8), Just(DType::I32), Just(DType::F64), Just(DType::Bool)],
        offset in 0u64..72,
        len in proptest::option::of(0usize..20),
        writable in any::<bool>(),
    ) {
        let dir = std::env::temp_dir().join(format!("strideweave-io-mprop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("p{:?}.bin", std::thread::current().id()).replace(['(', ')'], ""));
        std::fs::write(&path, &bytes).unwrap();
        let mut options = MapOptions::new(dtype).offset(offset).writable(writable);
        if let Some(n) = len {
            options = options.len(n);
        }
        match options.map(&path) {
            Ok(c) => {
                let start = offset as usize;
                let n = len.unwrap_or((bytes.len() - start) / dtype.size_of());
                let expected = decode(dtype, &bytes[start..start + n * dtype.size_of()]);
                let got: Vec<Scalar> = (0..c.len()).map(|i| c.get(i).unwrap()).collect();
                prop_assert_eq!(got, expected);
            }
            Err(e) => prop_assert!(e.to_string().starts_with("MapOptions::map: "), "{}", e),
        }
        prop_assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
}
