//! The rearrangement engine: one rule, from a source shape and a pattern to
//! the result's shape and a plan (where each result leaf takes its stride from), or to the
//! message of the first mistake. Both front ends compute through it:
//!
//! - the static path (`statics`): `rearrange!`/`repeat!` run it in const context on a
//!   `ShapeCode`, with fixed arrays as scratch (a failure is a compile error);
//! - the run-time path ([`Layout::rearrange`](crate::Layout::rearrange),
//!   [`Tensor::rearrange`](crate::Tensor::rearrange), and the macros on a dynamic tensor):
//!   it parses and encodes the pattern once, sizes the scratch from its input (no leaf or
//!   term limit) and applies the one plan to every layout of the source's shape.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `code` | the pattern as records ([`PatternRef`], [`Side`], [`Keyword`]), as the macros emit it |
//! | `shape` | the source shape as the engine reads it ([`ShapeRef`]) |
//! | `plan` | what the engine writes ([`Out`]), its scratch ([`Scratch`]) and what both front ends keep ([`Plan`]) |
//! | `fast` | the rule without messages, tuned for rustc's const interpreter |
//! | `explain` | the rule with a message for the first mistake |
//! | `msg` | messages written in const context into a caller's buffer |
//! | `run` | the run-time front end: `Layout::rearrange`/`repeat`, plans compiled on a run-time shape |
//! | `cache` | compiled plans kept per thread, by pattern, keywords and shape (bounded) |
//!
//! The engine imports only `layout` (for the run-time front end); `statics` and `tensor`
//! import it. Its differential test (fast against explain, static against run-time front
//! end) lives with the static front end, `statics/compile/tests.rs`.

mod cache;
mod code;
mod explain;
mod fast;
mod msg;
mod plan;
pub(crate) mod run;
mod shape;

pub use code::{Keyword, Op, PatternCode, PatternRef, Side, Tok, TokKind, extent};
pub(crate) use explain::finish;
pub use explain::{NO_PART, NO_SYM, Part, explain, keyword_value, keywords};
pub use fast::fast;
pub use msg::{MSG_CAP, Msg, MsgState};
pub use plan::{NO_SOURCE, Out, Plan, Scratch};
pub use shape::{LEAF, POP, PUSH, ShapeRef};
pub(crate) use shape::{byte, leaves_in, node_end, token};
