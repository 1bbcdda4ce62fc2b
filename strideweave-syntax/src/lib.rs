//! The grammar that StrideWeave's runtime (`FromStr`, `Layout::rearrange`, `Tensor::reduce`,
//! `Tensor::einsum`) and its macros (`layout!`, `shape!`, `shape_t!`, `rearrange!`, `repeat!`,
//! `reduce!`, `einsum!`) share, so that text read at run time and tokens read at compile time
//! obey one set of rules: layout notation, rearrangement and einsum patterns, and the keyword
//! extents of a pattern.
//!
//! The crate has no dependencies. It parses and checks; it builds no layouts. Every item is
//! generic over a *span* type, so the runtime uses byte ranges of the text and the macros use
//! token spans. A layout literal's mistake is a [`LayoutError`]: a [`LayoutMistake`] with its
//! values, whose `Display` is the one sentence every front end prints.
//!
//! ```
//! use strideweave_syntax::{parse_layout, Tuple};
//! let (shape, stride) = parse_layout("(2,(3,4)):(1,(2,6))").unwrap();
//! assert_eq!(shape.to_string(), "(2,(3,4))");
//! assert_eq!(stride.to_string(), "(1,(2,6))");
//! ```
#![deny(missing_docs)]

mod check;
mod einsum;
mod encode;
mod keywords;
mod limit;
mod mirror;
mod mistake;
mod notation;
mod pattern;
mod rules;
mod tuple;

pub use check::NotationError;
pub use einsum::{Einsum, EinsumCallError, parse_einsum};
pub use encode::{
    EncodedPattern, EncodedSide, F_CLOSE, F_END, F_KIND, F_PATH, F_PATH_LEN, F_START, F_SYM,
    F_TEXT, F_TEXT_LEN, FIELDS, K_CLOSE, K_ELLIPSIS, K_OPEN, K_SYMBOL, K_UNIT, RECORD,
    encode_pattern,
};
pub use keywords::{KeywordError, KeywordMistake, KeywordValue, check_keywords};
pub use limit::MAX_NESTING;
pub use mistake::{Expected, LayoutError, LayoutMistake, Part};
pub use notation::{TextTuple, parse_int_tuple, parse_layout, parse_shape, parse_stride};
pub use pattern::{
    Pattern, PatternKind, PatternSymbols, Side, SideName, Term, check_pattern, find_symbol,
    parse_pattern, term_path,
};
pub use rules::{CheckedLayout, Mistakes, check_layout, check_shape, compact_strides};
pub use tuple::Tuple;
