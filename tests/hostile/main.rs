//! Hostile input (issue 11): nesting no stack can hold, patterns of a hundred thousand terms,
//! and random text for every parser — each answered with an `Error` (never a stack overflow,
//! a panic or a hang) whose message starts with the operation called.
//!
//! The random tests run a few thousand cases; `STRIDEWEAVE_LONG=1` runs millions. `ops` and
//! `grads` give access, the storage operations and autograd random input the same way (the
//! views have theirs in `tests/views/atomicity.rs`).

mod depth;
mod grads;
mod ops;
mod parsers;
mod scale;
