//! Static layouts: layouts the compiler knows, whose index math and algebra are `const fn`s.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `code` | [`LayoutCode`] (a layout in a fixed-capacity, const-friendly encoding): construction, index math, conversions |
//! | `build` | `Build`, a code built node by node in const context, checked as the run-time builder checks |
//! | `algebra` | composition, complement, logical divide and product, blocked and raked products on codes |
//! | `tiler` | [`TilerCode`]; tilers applied by mode and unzipped (zipped, tiled, flat divides and products); `local_tile` and `local_partition` |
//! | `op` | the definitions behind the result types (`op::Compose`, …), named in compile errors |
//! | `types` | [`StaticLayout`], [`LayoutT`], [`Mode`], [`StaticTiler`], [`Keep`] and the result types of the algebra ([`Compose`], …) |
//! | `fault`, `text` | refusals and their messages, written in const context in the run-time algebra's words |
//!
//! One rule, two front ends: coalescing, composition with one leaf, the complement's holes
//! and injectivity are the run-time algebra's own `const fn`s over slices, called here on
//! fixed arrays; the structure around them is restated in `const fn`s, and `tests.rs`
//! compares every operation with the run-time one on random layouts and pycute's cases.

// A refusal carries copies of the layouts its message names (a `const fn` cannot box, and a
// layout built inside an operation cannot be borrowed out of it): large, but made only on
// the way to a compile error or a cold run-time path.
#![allow(clippy::result_large_err, clippy::large_enum_variant)]

/// `?` for `Result` in a `const fn` (the `?` operator is not const).
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

mod algebra;
mod build;
mod code;
mod fault;
mod op;
mod text;
mod tiler;
mod types;

#[cfg(test)]
mod tests;

pub use code::{LayoutCode, MAX_LEAVES, MAX_TOKENS};
pub use tiler::TilerCode;
pub use types::{
    BlockedProduct, Complement, Compose, FlatDivide, Keep, LayoutT, LocalPartition, LocalTile,
    LogicalDivide, LogicalProduct, Mode, RakedProduct, StaticLayout, StaticTiler, TiledDivide,
    TiledProduct, ZippedDivide, ZippedProduct,
};
