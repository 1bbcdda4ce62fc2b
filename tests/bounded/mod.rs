//! Bounded work and memory, no panic from a `Result` function (issue 11 items 1 and 3): each
//! adversarial input of the issue gets an answer or an `Error` in milliseconds, without
//! allocating anything near the size of its domain.

mod algebra;
mod broadcast_reductions;
mod extremes;
mod injective_oracle;
mod ops;
mod tensors;
mod watchdog;

/// 2^40: a domain far beyond any allocation or walk.
pub const HUGE: &str = "1099511627776";

/// The layout `s` parsed, for tests.
pub fn l(s: &str) -> strideweave::Layout {
    s.parse().unwrap()
}
