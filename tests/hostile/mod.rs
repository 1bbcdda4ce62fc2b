//! Hostile input (issue 11): nesting no stack can hold, patterns of a hundred thousand terms,
//! and random text for every parser — each answered with an `Error` (never a stack overflow,
//! a panic or a hang) whose message starts with the operation called.
//!
//! The random tests run a few thousand cases; `STRIDEWEAVE_LONG=1` runs millions. `ops` and
//! `grads` give access, the storage operations and autograd random input the same way (the
//! views have theirs in `tests/views/atomicity.rs`).

use crate::layouts;

mod depth;
mod grads;
mod ops;
mod parsers;
mod scale;

/// `cases` random cases per property, a million with `STRIDEWEAVE_LONG=1`.
pub fn config(cases: u32) -> proptest::test_runner::Config {
    let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
    proptest::test_runner::Config {
        cases: if long { 1_000_000 } else { cases },
        max_global_rejects: 1 << 20,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}
