//! Elementwise arithmetic and sums on integer and bool tensors (issue 10, item 3): one test
//! per rule, named after it, plus a property test of every integer dtype and operation over
//! strided, reversed and broadcast operands against a naive reference.

mod reference;
mod rules;
