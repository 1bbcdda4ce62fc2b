//! `.npy`: every reference file numpy wrote reads bit-exactly; what we write is byte for byte
//! what numpy wrote; corrupted files are errors, never panics.

use proptest::prelude::*;
use serde_json::Value;
use strideweave::{ErrorKind, Key, Layout, Tensor};

use crate::io::{bytes_allocated, data, row_major_bytes, scratch, unhex};

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(data("manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["npy"].as_array().unwrap().clone()
}

fn shape_of(entry: &Value) -> Vec<i64> {
    entry["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_i64().unwrap())
        .collect()
}

fn needs_half(entry: &Value) -> bool {
    entry["descr"].as_str().unwrap().ends_with("f2")
}

#[test]
fn read_npy_reads_every_numpy_reference_file_bit_exactly() {
    let mut read = 0;
    for entry in manifest() {
        let file = entry["file"].as_str().unwrap();
        if needs_half(&entry) && !cfg!(feature = "half") {
            let err = Tensor::read_npy(data(file)).unwrap_err();
            assert!(
                err.to_string().contains("needs the `half` feature"),
                "{file}: {err}"
            );
            continue;
        }
        let t = Tensor::read_npy(data(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(t.shape().leaves(), shape_of(&entry), "{file}");
        assert_eq!(
            row_major_bytes(&t),
            unhex(entry["c_bytes"].as_str().unwrap()),
            "{file}"
        );
        let expected = if entry["order"] == "F" {
            Layout::compact(t.shape())
        } else {
            Layout::row_major(t.shape())
        };
        assert_eq!(*t.layout(), expected, "{file}");
        let class = if entry["descr"].as_str().unwrap().starts_with('>') {
            "host"
        } else {
            "read-only map"
        };
        assert_eq!(t.carrier_class().name(), class, "{file}");
        read += 1;
    }
    assert!(read >= 50, "only {read} files read");
}

#[test]
fn write_npy_writes_the_bytes_numpy_writes() {
    let dir = scratch("write-npy");
    for entry in manifest() {
        let file = entry["file"].as_str().unwrap();
        if file.starts_with("be_") || (needs_half(&entry) && !cfg!(feature = "half")) {
            continue;
        }
        let t = Tensor::read_npy(data(file)).unwrap();
        let out = dir.join(file);
        t.write_npy(&out).unwrap();
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(data(file)).unwrap(),
            "{file}"
        );
    }
    // A tensor made in Rust, not read from a file: numpy's bytes for the same C array.
    let t = Tensor::read_npy(data("f8_r3_C.npy")).unwrap();
    let values = t.to_vec_row_major::<f64>().unwrap();
    let made = Tensor::from_vec_row_major(values, &"(2,3,4)".parse().unwrap()).unwrap();
    made.write_npy(dir.join("made.npy")).unwrap();
    assert_eq!(
        std::fs::read(dir.join("made.npy")).unwrap(),
        std::fs::read(data("f8_r3_C.npy")).unwrap()
    );
}

#[test]
fn write_npy_of_a_view_writes_its_values_in_c_order() {
    let dir = scratch("write-view");
    let t = Tensor::arange::<i32>(&"(3,4)".parse().unwrap());
    let v = t
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::slice(Some(1), Some(3), None), Key::all()])
        .unwrap();
    v.write_npy(dir.join("v.npy")).unwrap();
    let back = Tensor::read_npy(dir.join("v.npy")).unwrap();
    assert_eq!(
        back.to_vec_row_major::<i32>().unwrap(),
        v.to_vec_row_major::<i32>().unwrap()
    );
    assert_eq!(back.shape().leaves(), [2, 3]);
}

#[test]
fn read_npy_maps_without_copying_and_views_share_the_map() {
    let (bytes, t) = bytes_allocated(|| Tensor::read_npy(data("f4_r3_C.npy")).unwrap());
    assert!(bytes < 4096, "read_npy allocated {bytes} bytes");
    let p = t.permute(&[2, 0, 1]).unwrap();
    let s = t
        .slice(&[Key::Int(1), Key::all(), Key::slice(Some(0), Some(2), None)])
        .unwrap();
    assert!(strideweave::Carrier::same(p.carrier(), t.carrier()));
    assert!(strideweave::Carrier::same(s.carrier(), t.carrier()));
    assert_eq!(
        s.get_ordinal(0).unwrap(),
        t.get(&[1i64, 0, 0].into()).unwrap()
    );
}

#[test]
fn writing_through_a_read_npy_tensor_is_an_error_naming_the_read_only_map() {
    let t = Tensor::read_npy(data("i4_r2_C.npy")).unwrap();
    let before = t.to_vec::<i32>().unwrap();
    let err = t.set_ordinal(0, 1i32).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("set_ordinal: the read-only map carrier"),
        "{err}"
    );
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert_eq!(
        (t.to_vec::<i32>().unwrap(), t.carrier().version()),
        (before, 0)
    );
}

#[test]
fn read_npy_byte_swaps_a_big_endian_file_into_a_host_copy() {
    let t = Tensor::read_npy(data("be_f4_r2_C.npy")).unwrap();
    assert_eq!(t.carrier_class().name(), "host");
    let le = Tensor::from_vec_row_major(
        t.to_vec_row_major::<f32>().unwrap(),
        &"(2,3)".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(row_major_bytes(&le).len(), 24);
}

/// A version-1.0 `.npy` file with `header` (not padded) and `payload` after it.
fn npy(header: &str, payload: &[u8]) -> Vec<u8> {
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend_from_slice(&(header.len() as u16).to_le_bytes());
    b.extend_from_slice(header.as_bytes());
    b.extend_from_slice(payload);
    b
}

#[test]
fn read_npy_copies_data_that_is_misaligned_for_its_dtype() {
    let dir = scratch("misaligned");
    // 10 + 55 header bytes: the data starts at byte 65, not a multiple of 4.
    let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}";
    let payload: Vec<u8> = [1.5f32, -2.0, 8.25]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(dir.join("m.npy"), npy(header, &payload)).unwrap();
    let t = Tensor::read_npy(dir.join("m.npy")).unwrap();
    assert_eq!(t.carrier_class().name(), "host");
    assert_eq!(t.to_vec::<f32>().unwrap(), [1.5, -2.0, 8.25]);
}

#[test]
fn read_npy_rejects_truncated_mislabelled_and_oversized_headers() {
    let dir = scratch("bad-headers");
    let ok = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
    let two = [1.0f64, 2.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect::<Vec<u8>>();
    let mut oversized = b"\x93NUMPY\x02\x00\xff\xff\xff\xff".to_vec();
    oversized.extend_from_slice(ok.as_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", vec![], "not an .npy file"),
        (
            "magic only",
            b"\x93NUMPY".to_vec(),
            "version bytes are missing",
        ),
        (
            "version 9",
            b"\x93NUMPY\x09\x00\x00\x00".to_vec(),
            "unsupported .npy format version 9.0",
        ),
        (
            "no length",
            b"\x93NUMPY\x01\x00\x05".to_vec(),
            "header length is missing",
        ),
        (
            "truncated header",
            npy(ok, &two)[..30].to_vec(),
            "truncated .npy header",
        ),
        ("oversized header", oversized, "larger than 10000 bytes"),
        (
            "truncated data",
            npy(ok, &two[..12]),
            "12 bytes of data follow",
        ),
        (
            "mislabelled dtype",
            npy(&ok.replace("<f8", "<f4"), &two),
            "16 bytes of data follow",
        ),
        (
            "unknown dtype",
            npy(&ok.replace("<f8", "<u4"), &two),
            "dtype '<u4' has no StrideWeave dtype",
        ),
        (
            "structured dtype",
            npy(&ok.replace("'<f8'", "[('a', '<f8')]"), &two),
            "expected a quoted string",
        ),
        (
            "zero extent",
            npy(&ok.replace("(2,)", "(0, 2)"), &[]),
            "extent 0",
        ),
        (
            "huge extents",
            npy(
                &ok.replace("(2,)", "(4294967296, 4294967296, 4294967296)"),
                &two,
            ),
            "more elements",
        ),
        (
            "not a tuple",
            npy(&ok.replace("(2,)", "(2)"), &two),
            "needs a comma",
        ),
        (
            "missing key",
            npy("{'descr': '<f8', 'shape': (2,), }", &two),
            "no 'fortran_order'",
        ),
        (
            "bad bool byte",
            npy(&ok.replace("<f8", "|b1"), &[0, 2]),
            "bool element 1 is the byte 2",
        ),
    ];
    for (what, bytes, needle) in cases {
        let path = dir.join("bad.npy");
        std::fs::write(&path, &bytes).unwrap();
        let result = Tensor::read_npy(&path);
        let err = result.unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("Tensor::read_npy: "), "{what}: {msg}");
        assert!(msg.contains(needle), "{what}: {msg}");
    }
    let err = Tensor::read_npy(dir.join("missing.npy")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
}

#[test]
fn write_npy_refuses_dtypes_npy_cannot_hold_and_leaves_the_file_alone() {
    let dir = scratch("write-refuse");
    let path = dir.join("keep.npy");
    std::fs::write(&path, b"old").unwrap();
    let q = Tensor::block_scaled(vec![1, 2], vec![0.5], &"2".parse().unwrap(), 0, 2).unwrap();
    let err = q.write_npy(&path).unwrap_err();
    assert!(err.to_string().starts_with("Tensor::write_npy: "), "{err}");
    #[cfg(feature = "half")]
    {
        let b = Tensor::zeros::<half::bf16>(&"2".parse().unwrap());
        let err = b.write_npy(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Tensor::write_npy: bf16 has no .npy dtype code"
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    assert!(
        Tensor::arange::<u8>(&"2".parse().unwrap())
            .write_npy(dir.join("no/such/dir.npy"))
            .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    /// Any corruption of a valid file — a byte changed anywhere in the header, the file cut
    /// anywhere — is an error with the operation's name or a valid tensor; never a panic.
    #[test]
    fn read_npy_of_corrupted_bytes_is_an_error_or_a_tensor(
        pick in 0usize..8,
        at in 0usize..200,
        byte in any::<u8>(),
        cut in 0usize..400,
    ) {
        let files = ["f4_r2_C.npy", "c16_r3_F.npy", "b1_r1_C.npy", "i8_r0_C.npy",
                     "u1_r3_C.npy", "f8_r2_F.npy", "i1_r2_C.npy", "c8_r1_C.npy"];
        let mut bytes = std::fs::read(data(files[pick])).unwrap();
        let at = at % bytes.len().min(128);
        bytes[at] = byte;
        bytes.truncate(cut.max(1).min(bytes.len()));
        let dir = std::env::temp_dir().join(format!("strideweave-io-prop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("p{:?}.npy", std::thread::current().id()).replace(['(', ')'], ""));
        std::fs::write(&path, &bytes).unwrap();
        match Tensor::read_npy(&path) {
            Ok(t) => prop_assert!(t.size() >= 1),
            Err(e) => prop_assert!(e.to_string().starts_with("Tensor::read_npy: "), "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Any tensor — random dtype, shape of rank 0-3, permuted or sliced — written with
    /// `write_npy` reads back with the same shape and row-major values; writing changes no
    /// carrier (values and version).
    #[test]
    fn write_npy_then_read_npy_gives_the_values_back(
        extents in proptest::collection::vec(1i64..5, 0..4),
        dtype in 0usize..4,
        reverse in any::<bool>(),
    ) {
        let shape: strideweave::Shape = strideweave::IntTuple::from(extents.clone()).try_into().unwrap();
        let base = match dtype {
            0 => Tensor::arange::<f32>(&shape),
            1 => Tensor::arange::<i64>(&shape),
            2 => Tensor::arange::<u8>(&shape),
            _ => Tensor::arange::<strideweave::Complex64>(&shape),
        };
        let order: Vec<usize> = if reverse { (0..extents.len()).rev().collect() } else { (0..extents.len()).collect() };
        let t = base.permute(&order).unwrap();
        let before = (row_major_bytes(&t), t.carrier().version());
        let dir = std::env::temp_dir().join(format!("strideweave-io-wprop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("p{:?}.npy", std::thread::current().id()).replace(['(', ')'], ""));
        t.write_npy(&path).unwrap();
        let back = Tensor::read_npy(&path).unwrap();
        prop_assert_eq!(back.shape().leaves(), t.shape().leaves());
        prop_assert_eq!(row_major_bytes(&back), before.0.clone());
        prop_assert_eq!((row_major_bytes(&t), t.carrier().version()), before);
    }
}
