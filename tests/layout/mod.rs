//! core-layout: every worked example and scenario of contracts §3 and `layout-algebra.md`,
//! the algebra's laws as property tests, and the pycute reference cases.

mod algebra_examples;
mod contracts;
pub(crate) mod einops;
mod index_math;
mod laws;
mod oracle;
mod pattern;
mod rules_doc;
mod support;
