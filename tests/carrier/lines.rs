//! Fresh host buffers of 4 KiB or more start on a 64-byte cache line, as PyTorch's CPU
//! allocator places tensors: a copy's rows then touch the fewest lines
//! (docs/performance.md, the permute rows).

use strideweave::{Carrier, DType, Layout, Tensor};

fn first_address<T: strideweave::Element>(t: &Tensor) -> usize {
    t.carrier().read(|x: &[T]| x.as_ptr() as usize).unwrap()
}

#[test]
fn fresh_large_tensors_start_on_a_cache_line() {
    let shape = "(32,64,3)".parse().unwrap();
    let zeros = Tensor::zeros::<f32>(&shape);
    let of = Tensor::zeros_of(DType::F64, &shape).unwrap();
    let bytes = Tensor::arange::<u8>(&"(4096,3)".parse().unwrap());
    let ints = Tensor::arange::<i32>(&shape);
    let permuted = ints.permute(&[2, 0, 1]).unwrap();
    let copied = permuted.materialize().unwrap();
    let rows = permuted
        .relayout(&Layout::row_major(permuted.shape()))
        .unwrap();
    for (name, at) in [
        ("zeros", first_address::<f32>(&zeros)),
        ("zeros_of", first_address::<f64>(&of)),
        ("arange u8", first_address::<u8>(&bytes)),
        ("arange i32", first_address::<i32>(&ints)),
        ("materialize", first_address::<i32>(&copied)),
        ("relayout", first_address::<i32>(&rows)),
    ] {
        assert_eq!(at % 64, 0, "{name} starts {} bytes into a line", at % 64);
    }
    let c = Carrier::zeros(DType::I64, 1000).unwrap();
    assert_eq!(c.read(|x: &[i64]| x.as_ptr() as usize % 64).unwrap(), 0);
    // The padding is not part of the elements.
    assert_eq!((ints.carrier().len(), copied.carrier().len()), (6144, 6144));
    assert_eq!(ints.to_vec::<i32>().unwrap(), (0..6144).collect::<Vec<_>>());
    assert_eq!(bytes.to_vec::<u8>().unwrap()[4097], 1);
    assert_eq!(
        copied.to_vec::<i32>().unwrap(),
        permuted.to_vec::<i32>().unwrap()
    );
    assert!(zeros.to_vec::<f32>().unwrap().iter().all(|&x| x == 0.0));
}
