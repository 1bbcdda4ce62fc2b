//! Hostile input (issue 11): nesting no stack can hold, patterns of a hundred thousand terms,
//! and random text for every parser — each answered with an `Error` (never a stack overflow,
//! a panic or a hang) whose message starts with the operation called.
//!
//! The random tests run a few thousand cases; `STRIDEWEAVE_LONG=1` runs millions.

mod depth;
mod parsers;
mod scale;
