//! Loading a 1 GiB file costs no element copy: the bytes allocated during the load stay tiny
//! (a sparse file made at test time, so the test is fast and takes no disk space).

use std::io::Write;

use strideweave::{Tensor, io};

use crate::io::{bytes_allocated, scratch};

const GIB: u64 = 1 << 30;

#[test]
fn read_npy_of_a_1_gib_file_allocates_under_64_kib() {
    let dir = scratch("big-npy");
    let path = dir.join("big.npy");
    let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 16384), }";
    let mut h = header.as_bytes().to_vec();
    h.resize(117, b' ');
    h.push(b'\n');
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"\x93NUMPY\x01\x00").unwrap();
    f.write_all(&(h.len() as u16).to_le_bytes()).unwrap();
    f.write_all(&h).unwrap();
    f.set_len(128 + GIB).unwrap();
    drop(f);
    let (allocated, t) = bytes_allocated(|| Tensor::read_npy(&path).unwrap());
    assert!(
        allocated < 64 * 1024,
        "read_npy allocated {allocated} bytes"
    );
    assert_eq!(t.size() as u64 * 4, GIB);
    assert_eq!(t.get(&[16383i64, 16383].into()).unwrap().to_f64(), 0.0);
}

#[test]
fn load_safetensors_of_a_1_gib_file_allocates_under_64_kib() {
    let dir = scratch("big-st");
    let path = dir.join("big.safetensors");
    let header = format!(
        r#"{{"a":{{"dtype":"F32","shape":[8192,16384],"data_offsets":[0,{half}]}},"b":{{"dtype":"F32","shape":[8192,16384],"data_offsets":[{half},{GIB}]}}}}"#,
        half = GIB / 2
    );
    let mut h = header.into_bytes();
    h.resize(h.len().next_multiple_of(8), b' ');
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(&(h.len() as u64).to_le_bytes()).unwrap();
    f.write_all(&h).unwrap();
    f.set_len(8 + h.len() as u64 + GIB).unwrap();
    drop(f);
    let (allocated, loaded) = bytes_allocated(|| io::load_safetensors(&path).unwrap());
    assert!(
        allocated < 64 * 1024,
        "load_safetensors allocated {allocated} bytes"
    );
    assert_eq!(
        loaded["b"].get(&[8191i64, 16383].into()).unwrap().to_f64(),
        0.0
    );
    assert!(strideweave::Carrier::same(
        loaded["a"].carrier(),
        loaded["b"].carrier()
    ));
}
