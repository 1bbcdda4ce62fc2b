//! `strideweave::einops`: patterns read as einops reads them (the last member of a group
//! fastest, a right-side group one flat mode), on numpy-ordered data.
//!
//! | module | what it checks |
//! | --- | --- |
//! | `agreement` | every einops reference case (`einops_cases.json`, `einops_sample.json`) with its pattern verbatim |
//! | `reduce` | `einops::reduce` on einops' reduce reference (`einops_reduce.json`) and hand cases |
//! | `einsum` | `einops::einsum` with and without groups, against `Tensor::einsum` and matmul |
//! | `errors` | every new error: the name prefix, the pattern quoted as written, the materialize-first refusal |
//! | `macros` | the einops macros on `Tensor` and `StaticTensor`, against the functions |

mod agreement;
mod einsum;
mod errors;
mod macros;
mod reduce;

use strideweave::{IntTuple, Shape, Tensor};

/// The shape of numpy's extents (a tuple, also for one mode; `()` for none).
pub(crate) fn shape_of(extents: &[i64]) -> Shape {
    Shape::new(IntTuple::tuple(extents.iter().map(|&e| IntTuple::from(e)))).expect("extents ≥ 1")
}

/// numpy's `np.arange(n).reshape(shape)`: `0..n` at row-major coordinates, as a view with
/// row-major strides of a first-mode-fastest buffer (`from_vec` over the reversed shape, then
/// the modes reversed).
pub(crate) fn numpy_arange(shape: &[i64]) -> Tensor {
    let rev: Vec<i64> = shape.iter().rev().copied().collect();
    let n: i64 = rev.iter().product();
    let t = Tensor::from_vec((0..n).collect::<Vec<i64>>(), &shape_of(&rev)).expect("input");
    let order: Vec<usize> = (0..shape.len()).rev().collect();
    t.permute(&order).expect("reversed modes")
}

/// numpy's values of a tensor: row-major order.
pub(crate) fn numpy_values<T: strideweave::Element>(t: &Tensor) -> Vec<T> {
    t.to_vec_row_major::<T>().expect("values")
}
