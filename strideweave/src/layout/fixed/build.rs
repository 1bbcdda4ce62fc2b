//! [`Build`]: a [`LayoutCode`] built node by node in const context (the static twin of
//! `LayoutBuilder`), refusing at the end what the run-time builder refuses, plus what a
//! static layout cannot hold.

use super::code::{LayoutCode, MAX_LEAVES, MAX_TOKENS};
use super::fault::{CodeError, Kind};
use crate::layout::int_tuple::ProfileToken;

/// A tuple layout being built: siblings appended one by one. Past the capacity the counts
/// go on without writing, so [`finish`](Build::finish) names what the result would need.
pub(crate) struct Build {
    code: LayoutCode,
    tokens: usize,
    leaves: usize,
}

impl Build {
    pub(crate) const fn new() -> Build {
        Build {
            code: LayoutCode::EMPTY,
            tokens: 0,
            leaves: 0,
        }
    }

    const fn token(&mut self, t: ProfileToken) {
        if self.tokens < MAX_TOKENS {
            self.code.toks[self.tokens] = t;
        }
        self.tokens += 1;
    }

    /// Appends the leaf `s:d`.
    pub(crate) const fn leaf(&mut self, s: i64, d: i64) {
        self.token(ProfileToken::Leaf);
        if self.leaves < MAX_LEAVES {
            self.code.extents[self.leaves] = s;
            self.code.strides[self.leaves] = d;
        }
        self.leaves += 1;
    }

    /// Opens a nested tuple.
    pub(crate) const fn open(&mut self) {
        self.token(ProfileToken::Push);
    }

    /// Closes the nested tuple opened last.
    pub(crate) const fn close(&mut self) {
        self.token(ProfileToken::Pop);
    }

    /// Appends a whole layout as one node (an integral layout as a leaf).
    pub(crate) const fn node(&mut self, child: &LayoutCode) {
        if child.int_root {
            self.leaf(child.extents[0], child.strides[0]);
            return;
        }
        self.open();
        self.modes_of(child);
        self.close();
    }

    /// Appends the top-level modes of a layout as siblings.
    pub(crate) const fn modes_of(&mut self, child: &LayoutCode) {
        let (mut t, mut leaf) = (0, 0);
        while t < child.ntoks as usize {
            let tok = child.toks[t];
            if matches!(tok, ProfileToken::Leaf) {
                self.leaf(child.extents[leaf], child.strides[leaf]);
                leaf += 1;
            } else {
                self.token(tok);
            }
            t += 1;
        }
    }

    /// The siblings as a tuple layout, checked: within the capacity, the reach and the
    /// size within `i64` (errors named `op`).
    pub(crate) const fn finish(self, op: &'static str) -> Result<LayoutCode, CodeError> {
        self.finish_root(op, false)
    }

    /// [`finish`](Build::finish), the one leaf an integral layout when `int_root`.
    pub(crate) const fn finish_root(
        mut self,
        op: &'static str,
        int_root: bool,
    ) -> Result<LayoutCode, CodeError> {
        if self.tokens > MAX_TOKENS || self.leaves > MAX_LEAVES {
            return Err(CodeError::new(
                op,
                Kind::Capacity {
                    leaves: self.leaves,
                    tokens: self.tokens,
                },
            ));
        }
        self.code.ntoks = self.tokens as u8;
        self.code.nleaves = self.leaves as u8;
        self.code.int_root = int_root && self.tokens == 1 && self.leaves == 1;
        self.code.checked(op)
    }

    /// The flat layout `(s0,s1,…):(d0,d1,…)`, or `s:d` for one mode when `int_root` (the
    /// run-time `Layout::flat`).
    pub(crate) const fn flat(
        op: &'static str,
        modes: &[(i64, i64)],
        int_root: bool,
    ) -> Result<LayoutCode, CodeError> {
        let mut b = Build::new();
        let mut k = 0;
        while k < modes.len() {
            b.leaf(modes[k].0, modes[k].1);
            k += 1;
        }
        b.finish_root(op, int_root)
    }

    /// [`flat`](Build::flat) of the modes, `1:0` when there are none (the run-time
    /// `flat_layout`).
    pub(crate) const fn flat_or_unit(
        op: &'static str,
        modes: &[(i64, i64)],
    ) -> Result<LayoutCode, CodeError> {
        if modes.is_empty() {
            return Build::flat(op, &[(1, 0)], true);
        }
        Build::flat(op, modes, true)
    }
}
