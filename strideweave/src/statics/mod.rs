//! Static shapes and what the compile-time checked macros (`rearrange!`, `repeat!`) call.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `code` | [`ShapeCode`] (a shape in a const-friendly encoding), [`StaticShape`], [`Leaf`] and tuple shapes |
//! | `tensor` | [`StaticTensor`]: a `Tensor` whose shape the compiler knows |
//! | `pattern` | a pattern as constant data, as the macros emit it |
//! | `compile` | the shape rule as one non-panicking `const fn`, shared by compile time and run time |
//! | `msg` | messages formatted in const context |
//! | `dispatch` | the check constant, the dispatch on the tensor's type, the runtime paths |
//!
//! No type-level arithmetic: a static shape is a type whose associated constant holds the
//! shape, a result's shape is computed by a `const fn`, and every message a user reads is
//! written by StrideWeave (never a `UInt<UInt<…>>`).

mod code;
mod compile;
mod dispatch;
mod msg;
mod pattern;
mod tensor;

pub use code::{Leaf, MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
pub use tensor::StaticTensor;

/// What macro expansions call. Not part of the public API.
pub mod __private {
    pub use super::compile::{NO_SOURCE, Outcome, Plan, check_pattern, compile, message};
    pub use super::dispatch::{
        Check, Compiled, Dynamic, PatternView, Poisoned, ShapeInfo, Target, Witness, check,
        check_at, dynamic, poisoned,
    };
    pub use super::msg::Msg;
    pub use super::pattern::{Keyword, Op, PatternCode, Side, Tok, TokKind, extent};
}
