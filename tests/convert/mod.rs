//! Honest conversions (issue 11, item 6): the one casting rule of `Scalar::cast`, used by
//! `set`, `set_ordinal`, `fill` and scalar arithmetic, and writes through a view that reaches
//! one element by several coordinates refused before any work. One test per finding, plus a
//! property test of the rule over random scalars × dtypes against a reference written from it.

mod findings;
mod rule;
