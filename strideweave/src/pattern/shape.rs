//! A shape as the engine reads it: its profile tokens and extents, borrowed.

use crate::layout::ProfileToken;

/// Profile token: a leaf.
pub const LEAF: u8 = 0;
/// Profile token: a nested tuple starts.
pub const PUSH: u8 = 1;
/// Profile token: a nested tuple ends.
pub const POP: u8 = 2;

/// A profile token as a layout's.
pub(crate) fn token(t: u8) -> ProfileToken {
    match t {
        LEAF => ProfileToken::Leaf,
        PUSH => ProfileToken::Push,
        _ => ProfileToken::Pop,
    }
}

/// A layout's profile token as the engine reads it.
pub(crate) fn byte(t: ProfileToken) -> u8 {
    match t {
        ProfileToken::Leaf => LEAF,
        ProfileToken::Push => PUSH,
        ProfileToken::Pop => POP,
    }
}

/// A borrowed shape: the profile of the root's contents ([`LEAF`], [`PUSH`], [`POP`]) and the
/// extents in depth-first order. The static path borrows a `ShapeCode`'s arrays (whose first
/// `ntoks` and `nleaves` entries hold the shape: slicing them would cost the compiler's
/// interpreter more than the whole check), the run-time path a layout's shape; neither bounds
/// the number of leaves.
///
/// ```
/// use strideweave::__private::{LEAF, POP, PUSH, ShapeRef};
/// // (2,(3,4))
/// let toks = [LEAF, PUSH, LEAF, LEAF, POP];
/// let s = ShapeRef { toks: &toks, ntoks: 5, extents: &[2, 3, 4], nleaves: 3, int_root: false };
/// assert_eq!(s.toks[s.ntoks - 1], POP);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ShapeRef<'a> {
    /// The profile tokens of the root's contents (the first `ntoks`).
    pub toks: &'a [u8],
    /// The number of profile tokens.
    pub ntoks: usize,
    /// The extents, depth-first (the first `nleaves`).
    pub extents: &'a [i64],
    /// The number of leaves.
    pub nleaves: usize,
    /// Whether the shape is an integer (`8`) rather than a tuple (`(8)`).
    pub int_root: bool,
}

/// The token after the node that starts at token `t`.
pub(crate) const fn node_end(c: ShapeRef<'_>, t: usize) -> usize {
    if c.toks[t] != PUSH {
        return t + 1;
    }
    let mut depth = 0;
    let mut i = t;
    loop {
        match c.toks[i] {
            PUSH => depth += 1,
            POP => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The number of leaves among tokens `from..to`.
pub(crate) const fn leaves_in(c: ShapeRef<'_>, from: usize, to: usize) -> usize {
    let mut n = 0;
    let mut i = from;
    while i < to {
        if c.toks[i] == LEAF {
            n += 1;
        }
        i += 1;
    }
    n
}
