//! The functions of a model: elementwise math, functions along one mode, comparisons and
//! selection, casts, gathers — values against their definitions and hand-computed
//! expectations on compact, transposed, sliced, reversed and broadcast inputs, edge values
//! (±inf, NaN, ties, kinks), gradients against central finite differences, and every
//! refusal with its message and untouched carriers.

mod gather;
mod math;
#[cfg(feature = "rand")]
mod random;
mod refusals;
mod torch_reference;
