//! Borrowed rank-typed views, `strideweave::typed` (issue 12, seed 001): every documented
//! error path, the documented behaviour of each method, and property tests against direct
//! index arithmetic and the `Tensor` views over the same data.

mod bridge;
mod copies;
mod errors;
mod methods;
mod mutable;
#[cfg(feature = "ndarray")]
mod nd;
mod props;
