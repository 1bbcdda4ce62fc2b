//! Static shapes and what the compile-time checked macros (`rearrange!`, `repeat!`) call.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `code` | [`ShapeCode`] (a shape in a const-friendly encoding), [`StaticShape`], [`Leaf`] and tuple shapes |
//! | `tensor` | [`StaticTensor`]: a `Tensor` whose shape the compiler knows |
//! | `compile` | the static front end of the rearrangement engine (`crate::pattern`): its rule on a `ShapeCode`, in const context |
//! | `arith` | `+ - * /` of equal static shapes: compile-time checks, typed results |
//! | `matmul` | `matmul` in `Tensor::matmul`'s forms (matrices, vectors, batches): compile-time checks, `MatMul` results |
//! | `contract` | `contract` along [`Axes`] lists, `dot`, `outer`: compile-time checks, `Contracted` results |
//! | `math` | the functions of a model (`exp` … `gelu`, `powf`, `clamp`, `softmax`, `maximum`, …) keeping the static shape |
//! | `scalar` | scalar operands (`&a * 2.0`, `1 + &a`), keeping the static shape |
//! | `einsum` | what `einsum!` calls: its pattern as data, the compile-time check of static operands, the dispatch |
//! | `dispatch` | the check constant, the dispatch on the tensor's type, the runtime paths |
//! | `reduce` | `reduce!`: its dispatch, the static result shape `Reduced`, the reduction's check against the element type |
//!
//! No type-level arithmetic: a static shape is a type whose associated constant holds the
//! shape, a result's shape is computed by a `const fn`, and every message a user reads is
//! written by StrideWeave (never a `UInt<UInt<…>>`).

mod arith;
mod code;
mod compile;
mod contract;
mod dispatch;
mod einops;
mod einsum;
mod math;
mod matmul;
mod reduce;
mod scalar;
mod tensor;

pub use code::{
    Dyn, Extents, Known, Leaf, MAX_LEAVES, MAX_TOKENS, Partly, RUNTIME_EXTENT, ShapeCode,
    StaticShape,
};
pub use contract::{Axes, AxisList, MAX_AXES};
pub use einops::Grouped;
pub use tensor::StaticTensor;

/// What macro expansions call. Not part of the public API.
pub mod __private {
    pub use super::compile::{FixedPlan, Outcome, check_pattern, compile, message_into};
    pub use super::dispatch::{
        Check, Compiled, PatternView, Poisoned, RunStatic, RuntimeShape, ShapeInfo, Target,
        Witness, check, check_at, check_keyword, dynamic, poisoned,
    };
    pub use super::einops::{EinsumGroups, GroupedReduceView, GroupedView, einsum_groups, grouped};
    pub use super::einsum::{
        EinsumCheck, EinsumCode, EinsumCompiled, EinsumFailure, EinsumKinds, EinsumOperand,
        EinsumOutcome, EinsumOutput, EinsumOutput1, EinsumSameElement, PoisonedEinsum,
        SharedSymbol, Single, Typed, Untyped, check_einsum, decide as decide_einsum,
        einsum_message, einsum1, einsum2, poisoned1, poisoned2,
    };
    pub use super::reduce::{
        Chosen, ElemInfo, ReduceTarget, ReduceView, ReductionCheck, check_reduction,
        check_reduction_as, poisoned_reduce,
    };
    pub use crate::pattern::{
        Keyword, LEAF, MSG_CAP, Msg, MsgState, NO_SOURCE, Op, POP, PUSH, PatternCode, PatternRef,
        Plan, ShapeRef, Side, Tok, TokKind, extent,
    };
}
