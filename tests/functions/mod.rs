//! The functions of a model: elementwise math, functions along one mode, comparisons and
//! selection, casts — values against their definitions, edge values (±inf, NaN, ties,
//! kinks), gradients against central finite differences, and every refusal.

mod math;
#[cfg(feature = "rand")]
mod random;
