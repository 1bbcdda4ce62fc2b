//! What the engine writes: the result's shape and its plan, into slices the caller provides,
//! and the scratch space it works in. The static path passes fixed arrays (a `ShapeCode`'s
//! capacity); the run-time path passes slices sized from its input, so nothing bounds it.

/// A plan's marker for a result leaf without a source (an inserted `1` or a new `repeat`
/// mode): its stride is 0.
pub const NO_SOURCE: usize = usize::MAX;

/// The result of a rearrangement, written by the engine: its shape (profile tokens and
/// extents) and its plan, where result leaf `k` takes `multiplier[k]` times the stride of
/// source leaf `source[k]` ([`NO_SOURCE`]: stride 0). The plan does not depend on strides,
/// so one plan serves every layout of the source's shape.
///
/// `toks` needs room for the source's tokens plus one per right-side token, the other slices
/// for the source's leaves plus one per right-side token.
#[derive(Debug)]
pub struct Out<'o> {
    /// The result's profile tokens.
    pub toks: &'o mut [u8],
    /// How many of `toks` are written.
    pub ntoks: usize,
    /// The result's extents.
    pub extents: &'o mut [i64],
    /// The source leaf of each result leaf.
    pub source: &'o mut [usize],
    /// The stride multiplier of each result leaf.
    pub multiplier: &'o mut [i64],
    /// How many leaves are written.
    pub nleaves: usize,
    /// How many of the leaves belong to the result: all of them for `rearrange` and
    /// `repeat`; for `reduce`, the leaves after these (each one top-level `LEAF` token at
    /// the end of `toks`) are the reduced leaves of the omitted symbols, in left-side order.
    pub nkept: usize,
}

/// The fast path's scratch space, zeroed: per symbol of the pattern (`given`, `sides`,
/// `kind`, `t0`, `t1`, `leaf0`, `extent`, `mult`) and per nesting level of the source (`cur`,
/// `end`, `leaf`: the source's depth plus one).
#[derive(Debug)]
pub struct Scratch<'s> {
    /// Keyword extent by symbol (0: none).
    pub given: &'s mut [i64],
    /// Which sides a symbol is on ([`ON_LEFT`], [`ON_RIGHT`]).
    pub sides: &'s mut [u8],
    /// What a symbol names.
    pub kind: &'s mut [u8],
    /// A named source node's first token.
    pub t0: &'s mut [usize],
    /// A named source node's end token.
    pub t1: &'s mut [usize],
    /// A named node's first leaf, or a split factor's leaf.
    pub leaf0: &'s mut [usize],
    /// A split factor's or a new symbol's extent.
    pub extent: &'s mut [i64],
    /// A split factor's stride multiplier.
    pub mult: &'s mut [i64],
    /// Per level: the next source token.
    pub cur: &'s mut [usize],
    /// Per level: the end token of the node being matched.
    pub end: &'s mut [usize],
    /// Per level: the next source leaf.
    pub leaf: &'s mut [usize],
}

/// [`Scratch::sides`]: the symbol is on the left.
pub const ON_LEFT: u8 = 1;
/// [`Scratch::sides`]: the symbol is on the right.
pub const ON_RIGHT: u8 = 2;
