//! Buffers of the arithmetic, the reductions, matmul and the infallible constructors are
//! sized by the user's shapes: each is reserved before it is filled, so a size that cannot
//! be allocated is an `Error::TooLarge` naming the operation (a `# Panics` message for the
//! infallible constructors), never an allocation abort. 2^62 `f32` elements are 2^64 bytes:
//! no allocator can serve them, on any machine.

use strideweave::{DType, Error, Tensor};

/// A broadcast of one `f32` to `shape` (no memory behind its size): the source has
/// `shape`'s nesting with every extent 1.
fn broadcast(shape: &str) -> Tensor {
    let mut ones = String::new();
    for c in shape.chars() {
        match c.is_ascii_digit() {
            true if ones.ends_with('1') => {}
            true => ones.push('1'),
            false => ones.push(c),
        }
    }
    Tensor::arange::<f32>(&ones.parse().unwrap())
        .broadcast_to(&shape.parse().unwrap())
        .unwrap()
}

/// 2^62 elements.
const QUINTILLIONS: &str = "4611686018427387904";

fn too_large(r: strideweave::Result<Tensor>, op: &str) {
    let err = r.unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with(&format!("{op}: cannot allocate")), "{msg}");
}

#[test]
fn elementwise_results_of_an_unallocatable_size_are_too_large() {
    let (a, b) = (broadcast(QUINTILLIONS), broadcast(QUINTILLIONS));
    too_large(a.add(&b), "add");
    too_large(a.div(&b), "div");
    too_large(a.neg(), "neg");
    too_large(a.mul_scalar(2.0f32), "mul_scalar");
}

#[test]
fn sum_modes_of_an_unallocatable_size_is_too_large() {
    let t = broadcast(&format!("({QUINTILLIONS},1)"));
    too_large(t.sum_modes(&[1]), "sum_modes");
}

#[test]
fn matmul_of_an_unallocatable_size_is_too_large() {
    // (2^31 × 1) · (1 × 2^31): a 2^62-element product of two one-element carriers.
    let a = broadcast("(2147483648,1)");
    let b = broadcast("(1,2147483648)");
    too_large(a.matmul(&b), "matmul");
    // A mode that does not coalesce to one stride lists its offsets: reserved too.
    let c = broadcast("((2305843009213693952,2),1)");
    let d = Tensor::arange::<f32>(&"(1,1)".parse().unwrap());
    let err = c.matmul(&d).unwrap_err().to_string();
    assert!(err.starts_with("matmul: "), "{err}");
}

#[test]
fn dequantize_of_an_unallocatable_size_is_too_large() {
    let q = Tensor::block_scaled(vec![1, 2], vec![0.5], &"2".parse().unwrap(), 0, 2).unwrap();
    let wide = q
        .broadcast_in_dim(&"(2305843009213693952,(2,1))".parse().unwrap(), &[1])
        .unwrap();
    too_large(wide.dequantize(), "dequantize");
}

#[test]
fn try_arange_of_an_unallocatable_size_is_too_large() {
    too_large(
        Tensor::try_arange::<f32>(&QUINTILLIONS.parse().unwrap()),
        "Tensor::try_arange",
    );
    let t = Tensor::try_arange::<i64>(&"(2,3)".parse().unwrap()).unwrap();
    assert_eq!(t.to_vec::<i64>().unwrap(), [0, 1, 2, 3, 4, 5]);
}

#[test]
#[should_panic(expected = "Tensor::zeros: cannot allocate 4611686018427387904 elements")]
fn zeros_of_an_unallocatable_size_panics_with_a_message_not_an_abort() {
    let _ = Tensor::zeros::<f32>(&QUINTILLIONS.parse().unwrap());
}

#[test]
#[should_panic(expected = "Tensor::arange: cannot allocate 4611686018427387904 elements")]
fn arange_of_an_unallocatable_size_panics_with_a_message_not_an_abort() {
    let _ = Tensor::arange::<f32>(&QUINTILLIONS.parse().unwrap());
}

#[test]
fn the_fallible_forms_of_zeros_report_the_same_case() {
    too_large(
        Tensor::zeros_of(DType::F32, &QUINTILLIONS.parse().unwrap()),
        "Tensor::zeros_of",
    );
}
