//! safetensors: the reference files Python's `safetensors` wrote load bit-exactly over one
//! shared map; what we save is byte for byte what Python saves; bad files are errors.

use proptest::prelude::*;
use serde_json::Value;
use strideweave::{Carrier, ErrorKind, Layout, Tensor, io};

use crate::io::{bytes_allocated, data, row_major_bytes, scratch, unhex};

fn entries(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(data("manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["safetensors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["file"] == file)
        .cloned()
        .collect()
}

fn check_reference(file: &str) {
    let (allocated, loaded) = bytes_allocated(|| io::load_safetensors(data(file)).unwrap());
    assert!(
        allocated < 16 * 1024,
        "{file}: loading allocated {allocated} bytes"
    );
    let expected = entries(file);
    assert_eq!(loaded.len(), expected.len());
    for e in &expected {
        let t = &loaded[e["name"].as_str().unwrap()];
        let shape: Vec<i64> = e["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(t.shape().leaves(), shape, "{e}");
        assert_eq!(*t.layout(), Layout::row_major(t.shape()), "{e}");
        assert_eq!(
            row_major_bytes(t),
            unhex(e["c_bytes"].as_str().unwrap()),
            "{e}"
        );
        assert_eq!(t.carrier_class().name(), "read-only map");
    }
    // The tensors of one dtype share one carrier.
    for a in loaded.values() {
        for b in loaded.values() {
            let shared = a.dtype() == b.dtype()
                && (a.dtype() != strideweave::DType::Bool || std::ptr::eq(a, b));
            assert_eq!(Carrier::same(a.carrier(), b.carrier()), shared);
        }
    }
}

#[test]
fn load_safetensors_reads_pythons_file_bit_exactly_over_one_map() {
    check_reference("mixed.safetensors");
}

#[cfg(feature = "half")]
#[test]
fn load_safetensors_reads_f16_with_the_half_feature() {
    check_reference("f16.safetensors");
}

#[cfg(not(feature = "half"))]
#[test]
fn load_safetensors_names_f16_as_unsupported_without_the_half_feature() {
    let err = io::load_safetensors(data("f16.safetensors")).unwrap_err();
    assert!(
        err.to_string()
            .contains("has dtype F16, which StrideWeave does not hold"),
        "{err}"
    );
}

#[test]
fn save_safetensors_writes_the_bytes_python_writes() {
    let dir = scratch("save-st");
    let mut files = vec!["mixed.safetensors"];
    if cfg!(feature = "half") {
        files.push("f16.safetensors");
    }
    for file in files {
        let loaded = io::load_safetensors(data(file)).unwrap();
        let pairs: Vec<(&str, &Tensor)> = loaded.iter().map(|(k, v)| (k.as_str(), v)).collect();
        io::save_safetensors(dir.join(file), &pairs).unwrap();
        assert_eq!(
            std::fs::read(dir.join(file)).unwrap(),
            std::fs::read(data(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn save_safetensors_writes_views_in_row_major_order() {
    let dir = scratch("save-views");
    let t = Tensor::arange::<f32>(&"(3,4)".parse().unwrap());
    let p = t.permute(&[1, 0]).unwrap();
    io::save_safetensors(dir.join("v.safetensors"), &[("p", &p), ("t", &t)]).unwrap();
    let back = io::load_safetensors(dir.join("v.safetensors")).unwrap();
    assert_eq!(
        back["p"].to_vec_row_major::<f32>().unwrap(),
        p.to_vec_row_major::<f32>().unwrap()
    );
    assert_eq!(
        back["t"].to_vec::<f32>().unwrap(),
        t.to_vec::<f32>().unwrap()
    );
    assert!(back["p"].set_ordinal(0, 1.0f32).is_err());
}

/// A safetensors file with `header` (JSON, padded to 8 bytes) and `payload`.
fn file(header: &str, payload: &[u8]) -> Vec<u8> {
    let mut h = header.as_bytes().to_vec();
    h.resize(h.len().next_multiple_of(8), b' ');
    let mut b = (h.len() as u64).to_le_bytes().to_vec();
    b.extend(h);
    b.extend_from_slice(payload);
    b
}

#[test]
fn load_safetensors_copies_only_a_tensor_misaligned_for_its_dtype() {
    let dir = scratch("st-misaligned");
    let header = r#"{"a":{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"b":{"dtype":"F32","shape":[2],"data_offsets":[3,11]},"c":{"dtype":"U8","shape":[1],"data_offsets":[11,12]},"d":{"dtype":"C64","shape":[1],"data_offsets":[12,20]}}"#;
    let mut payload = vec![7u8, 8, 9];
    payload.extend([1.5f32, -3.0].iter().flat_map(|v| v.to_le_bytes()));
    payload.push(5);
    payload.extend([0.25f32, 4.0].iter().flat_map(|v| v.to_le_bytes()));
    std::fs::write(dir.join("m.safetensors"), file(header, &payload)).unwrap();
    let loaded = io::load_safetensors(dir.join("m.safetensors")).unwrap();
    assert_eq!(loaded["a"].to_vec::<u8>().unwrap(), [7, 8, 9]);
    assert_eq!(loaded["b"].to_vec::<f32>().unwrap(), [1.5, -3.0]);
    assert_eq!(loaded["b"].carrier_class().name(), "host"); // the one copy
    assert_eq!(loaded["c"].to_vec::<u8>().unwrap(), [5]);
    // Aligned for its parts (4) but not a multiple of its size (8): its own carrier, mapped.
    let d = &loaded["d"];
    assert_eq!(d.carrier_class().name(), "read-only map");
    assert_eq!(
        d.to_vec::<strideweave::Complex32>().unwrap(),
        [strideweave::Complex32::new(0.25, 4.0)]
    );
    assert!(Carrier::same(loaded["a"].carrier(), loaded["c"].carrier()));
}

#[test]
fn load_safetensors_errors_name_the_file_tensor_and_dtype() {
    let dir = scratch("st-errors");
    let path = dir.join("e.safetensors");
    let cases = [
        (
            file(
                r#"{"x":{"dtype":"I16","shape":[2],"data_offsets":[0,4]}}"#,
                &[0; 4],
            ),
            "tensor 'x' has dtype I16, which StrideWeave does not hold",
            ErrorKind::NotImplemented,
        ),
        (
            file(
                r#"{"x":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}}"#,
                &[],
            ),
            "tensor 'x' has shape [0]: StrideWeave extents are at least 1",
            ErrorKind::Value,
        ),
        (
            file(
                r#"{"x":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}}"#,
                &[0; 3],
            ),
            "not a valid safetensors file",
            ErrorKind::Value,
        ),
        (
            file(
                r#"{"x":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}}"#,
                &[1, 3],
            ),
            "bool element",
            ErrorKind::Value,
        ),
        (
            vec![1, 2, 3],
            "not a valid safetensors file",
            ErrorKind::Value,
        ),
        (
            u64::MAX.to_le_bytes().to_vec(),
            "not a valid safetensors file",
            ErrorKind::Value,
        ),
    ];
    for (bytes, needle, kind) in cases {
        std::fs::write(&path, &bytes).unwrap();
        let err = io::load_safetensors(&path).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!("io::load_safetensors: {}", path.display())),
            "{msg}"
        );
        assert!(msg.contains(needle), "{msg}");
        assert_eq!(err.kind(), kind, "{msg}");
    }
}

#[test]
fn save_safetensors_refuses_without_touching_the_file() {
    let dir = scratch("st-refuse");
    let path = dir.join("keep.safetensors");
    std::fs::write(&path, b"old").unwrap();
    let c = Tensor::zeros::<strideweave::Complex64>(&"2".parse().unwrap());
    let f = Tensor::zeros::<f32>(&"2".parse().unwrap());
    let err = io::save_safetensors(&path, &[("c", &c)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "io::save_safetensors: tensor 'c' is complex128, which safetensors has no dtype for"
    );
    let err = io::save_safetensors(&path, &[("f", &f), ("f", &f)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "io::save_safetensors: tensor name 'f' appears twice"
    );
    let q = Tensor::block_scaled(vec![1, 2], vec![0.5], &"2".parse().unwrap(), 0, 2).unwrap();
    assert!(io::save_safetensors(&path, &[("q", &q)]).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    assert_eq!(
        io::save_safetensors(dir.join("no/dir/x.safetensors"), &[("f", &f)])
            .unwrap_err()
            .kind(),
        ErrorKind::Runtime
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    /// A byte of Python's file changed anywhere in its first 256 bytes, or the file cut
    /// anywhere: a map of tensors or an error naming the operation; never a panic.
    #[test]
    fn load_safetensors_of_corrupted_bytes_is_an_error_or_tensors(
        at in 0usize..256,
        byte in any::<u8>(),
        cut in 1usize..2048,
    ) {
        let mut bytes = std::fs::read(data("mixed.safetensors")).unwrap();
        let at = at % bytes.len();
        bytes[at] = byte;
        bytes.truncate(cut.min(bytes.len()));
        let dir = std::env::temp_dir().join(format!("strideweave-io-sprop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("p{:?}.safetensors", std::thread::current().id()).replace(['(', ')'], ""));
        std::fs::write(&path, &bytes).unwrap();
        match io::load_safetensors(&path) {
            Ok(map) => {
                for t in map.values() {
                    prop_assert!(t.size() >= 1);
                }
            }
            Err(e) => prop_assert!(e.to_string().starts_with("io::load_safetensors: "), "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Random tensors (dtype, rank 0-3, permuted) saved together load back under their names
    /// with the same shapes and row-major values; saving changes no carrier.
    #[test]
    fn save_then_load_safetensors_gives_the_values_back(
        specs in proptest::collection::vec((proptest::collection::vec(1i64..5, 0..4), 0usize..4), 1..4),
    ) {
        let tensors: Vec<Tensor> = specs
            .iter()
            .map(|(extents, dtype)| {
                let shape: strideweave::Shape = strideweave::IntTuple::from(extents.clone()).try_into().unwrap();
                let t = match dtype {
                    0 => Tensor::arange::<f32>(&shape),
                    1 => Tensor::arange::<i32>(&shape),
                    2 => Tensor::arange::<bool>(&shape),
                    _ => Tensor::arange::<f64>(&shape),
                };
                let order: Vec<usize> = (0..extents.len()).rev().collect();
                t.permute(&order).unwrap()
            })
            .collect();
        let names: Vec<String> = (0..tensors.len()).map(|i| format!("t{i}")).collect();
        let pairs: Vec<(&str, &Tensor)> = names.iter().map(String::as_str).zip(&tensors).collect();
        let dir = std::env::temp_dir().join(format!("strideweave-io-stprop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("p{:?}.safetensors", std::thread::current().id()).replace(['(', ')'], ""));
        io::save_safetensors(&path, &pairs).unwrap();
        let back = io::load_safetensors(&path).unwrap();
        prop_assert_eq!(back.len(), tensors.len());
        for (name, t) in &pairs {
            prop_assert_eq!(back[*name].shape().leaves(), t.shape().leaves());
            prop_assert_eq!(row_major_bytes(&back[*name]), row_major_bytes(t));
            prop_assert_eq!(t.carrier().version(), 0);
        }
    }
}
