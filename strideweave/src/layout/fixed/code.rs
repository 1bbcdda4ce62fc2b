//! [`LayoutCode`]: a layout in a fixed-capacity encoding that `const fn`s read and build,
//! with its index math.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::fault::{CodeError, Kind, Place};
use super::text::Text;
use crate::error::Result;
use crate::layout::core::Layout;
use crate::layout::int_tuple::ProfileToken;

/// The most leaves a static layout ([`LayoutCode`]) or a static shape
/// ([`ShapeCode`](crate::ShapeCode)) holds.
///
/// ```
/// use strideweave::{LayoutCode, MAX_LEAVES, Shape, ShapeCode};
/// let widest: Shape = format!("({})", vec!["2"; MAX_LEAVES].join(",")).parse().unwrap();
/// assert!(ShapeCode::from_shape(&widest).is_some());
/// let too_wide: Shape = format!("({})", vec!["2"; MAX_LEAVES + 1].join(",")).parse().unwrap();
/// assert!(ShapeCode::from_shape(&too_wide).is_none());
/// assert!(LayoutCode::from_layout(&strideweave::Layout::compact(&too_wide)).is_none());
/// ```
pub const MAX_LEAVES: usize = 32;
/// The most profile tokens (leaves, `(`, `)`) a static layout ([`LayoutCode`]) or a static
/// shape ([`ShapeCode`](crate::ShapeCode)) holds.
///
/// ```
/// use strideweave::{MAX_TOKENS, Shape, ShapeCode};
/// // Every `(2)` is three tokens: `(`, a leaf and `)`.
/// let deep: Shape = format!("({})", vec!["(2)"; MAX_TOKENS / 3].join(",")).parse().unwrap();
/// assert!(ShapeCode::from_shape(&deep).is_some());
/// let deeper: Shape = format!("({})", vec!["(2)"; MAX_TOKENS / 3 + 1].join(",")).parse().unwrap();
/// assert!(ShapeCode::from_shape(&deeper).is_none());
/// ```
pub const MAX_TOKENS: usize = 64;

/// A layout in a fixed-capacity encoding that `const fn`s read and build: the profile of
/// the root's contents (leaf, `(`, `)`), the extents and the strides in depth-first order,
/// for at most [`MAX_LEAVES`] leaves and [`MAX_TOKENS`] profile tokens.
///
/// It is the value of [`StaticLayout::LAYOUT`](crate::StaticLayout::LAYOUT): the layout of a
/// type the compiler knows (name one with [`layout_t!`](crate::layout_t)). Its index math
/// and CuTe's algebra on it are `const fn`s, so they run while the program is built: a
/// mistake in a `const` item is a compile error at that item, worded as the run-time
/// [`Layout`] words it. Every constructor checks what [`Layout::new`] checks (extents ≥ 1,
/// the size and the reach within `i64`).
///
/// ```
/// use strideweave::{LayoutCode, layout};
/// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(4, 8), LayoutCode::leaf(8, 1)]);
/// const I: i64 = A.index_of(9); // ordinal 9 is the coordinate (1, 2)
/// const J: i64 = A.index(&[1, 2]);
/// assert_eq!((I, J), (10, 10));
/// assert_eq!(A.to_layout(), layout!((4, 8) : (8, 1)));
/// assert_eq!(A.to_string(), "(4,8):(8,1)");
/// // The algebra, computed at compile time.
/// const TILE: LayoutCode = A.compose(&LayoutCode::leaf(8, 2));
/// assert_eq!(TILE.to_string(), "(2,4):(16,1)");
/// assert_eq!(TILE.to_layout(), A.to_layout().compose(&"8:2".parse().unwrap()).unwrap());
/// ```
#[derive(Clone, Copy)]
pub struct LayoutCode {
    pub(crate) toks: [ProfileToken; MAX_TOKENS],
    pub(crate) ntoks: u8,
    pub(crate) extents: [i64; MAX_LEAVES],
    pub(crate) strides: [i64; MAX_LEAVES],
    pub(crate) nleaves: u8,
    pub(crate) int_root: bool,
}

impl LayoutCode {
    /// The empty layout `():()` (rank 0, size 1); add modes with
    /// [`with_mode`](LayoutCode::with_mode).
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::EMPTY.to_string(), "():()");
    /// ```
    pub const EMPTY: LayoutCode = LayoutCode {
        toks: [ProfileToken::Leaf; MAX_TOKENS],
        ntoks: 0,
        extents: [0; MAX_LEAVES],
        strides: [0; MAX_LEAVES],
        nleaves: 0,
        int_root: false,
    };

    /// The integral layout `extent:stride`; panics (a compile error in const context)
    /// unless `extent ≥ 1` or when the reach overflows `i64`.
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::leaf(8, -2).to_string(), "8:-2");
    /// ```
    #[track_caller]
    pub const fn leaf(extent: i64, stride: i64) -> LayoutCode {
        if extent < 1 {
            CodeError::new("LayoutCode::leaf", Kind::InvalidExtent { extent }).fail();
        }
        let mut c = LayoutCode::EMPTY;
        c.ntoks = 1;
        c.extents[0] = extent;
        c.strides[0] = stride;
        c.nleaves = 1;
        c.int_root = true;
        match c.checked("LayoutCode::leaf") {
            Ok(c) => c,
            Err(e) => e.fail(),
        }
    }

    /// This layout with `child` appended as its last top-level mode (an integral layout as a
    /// leaf, a tuple as a nested mode); an integral `self` becomes the one-mode tuple first.
    /// Panics (a compile error in const context) beyond the capacity or when the size or the
    /// reach overflows `i64`.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// let l = LayoutCode::leaf(2, 1).with_mode(LayoutCode::leaf(3, 2));
    /// assert_eq!(l.to_string(), "(2,3):(1,2)");
    /// ```
    #[track_caller]
    pub const fn with_mode(self, child: LayoutCode) -> LayoutCode {
        let mut b = super::build::Build::new();
        if self.int_root {
            b.node(&self);
        } else {
            b.modes_of(&self);
        }
        b.node(&child);
        match b.finish("LayoutCode::with_mode") {
            Ok(c) => c,
            Err(e) => e.fail(),
        }
    }

    /// The tuple layout whose top-level modes are `modes` (CuTe's `make_layout(l0, l1, …)`).
    /// Panics (a compile error in const context) beyond the capacity or when the size or the
    /// reach overflows `i64`.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// let l = LayoutCode::tuple(&[LayoutCode::leaf(2, 1), LayoutCode::leaf(3, 2).with_mode(LayoutCode::leaf(4, 6))]);
    /// assert_eq!(l.to_string(), "(2,(3,4)):(1,(2,6))");
    /// assert_eq!(LayoutCode::tuple(&[]).to_string(), "():()");
    /// ```
    #[track_caller]
    pub const fn tuple(modes: &[LayoutCode]) -> LayoutCode {
        match Self::tuple_as("LayoutCode::tuple", modes) {
            Ok(c) => c,
            Err(e) => e.fail(),
        }
    }

    /// [`tuple`](LayoutCode::tuple) with errors named `op`.
    pub(crate) const fn tuple_as(
        op: &'static str,
        modes: &[LayoutCode],
    ) -> std::result::Result<LayoutCode, CodeError> {
        let mut b = super::build::Build::new();
        let mut m = 0;
        while m < modes.len() {
            b.node(&modes[m]);
            m += 1;
        }
        b.finish(op)
    }

    /// `self` after checking that its reach and its size fit in `i64` (what the run-time
    /// `Layout::checked` refuses), errors named `op`.
    pub(crate) const fn checked(
        self,
        op: &'static str,
    ) -> std::result::Result<LayoutCode, CodeError> {
        let (mut lo, mut hi) = (0i128, 0i128);
        let mut k = 0;
        while k < self.nleaves as usize {
            let span = (self.extents[k] as i128 - 1) * self.strides[k] as i128;
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
            k += 1;
        }
        if lo < i64::MIN as i128 || hi > i64::MAX as i128 {
            return Err(CodeError::new(
                op,
                Kind::Overflow {
                    what: "the reach of the layout",
                },
            ));
        }
        if self.checked_size().is_none() {
            return Err(CodeError::new(
                op,
                Kind::Overflow {
                    what: "the size of the layout",
                },
            ));
        }
        Ok(self)
    }

    #[inline]
    const fn checked_size(&self) -> Option<i64> {
        let mut p: i64 = 1;
        let mut k = 0;
        while k < self.nleaves as usize {
            p = match p.checked_mul(self.extents[k]) {
                Some(p) => p,
                None => return None,
            };
            k += 1;
        }
        Some(p)
    }

    /// The code of a run-time layout, or `None` beyond the capacity ([`MAX_LEAVES`] leaves,
    /// [`MAX_TOKENS`] profile tokens).
    ///
    /// ```
    /// use strideweave::{LayoutCode, layout};
    /// let l = layout!((2, (3, 4)) : (1, (2, 6)));
    /// assert_eq!(LayoutCode::from_layout(&l).unwrap().to_layout(), l);
    /// ```
    pub fn from_layout(layout: &Layout) -> Option<LayoutCode> {
        let profile = layout.profile();
        let (extents, strides) = (&layout.shape.0.vals, &layout.stride.0.vals);
        if profile.len() > MAX_TOKENS || extents.len() > MAX_LEAVES {
            return None;
        }
        let mut c = LayoutCode::EMPTY;
        c.toks[..profile.len()].copy_from_slice(profile);
        c.extents[..extents.len()].copy_from_slice(extents);
        c.strides[..strides.len()].copy_from_slice(strides);
        c.ntoks = profile.len() as u8;
        c.nleaves = extents.len() as u8;
        c.int_root = layout.shape.0.is_int();
        Some(c)
    }

    /// The run-time [`Layout`] (not a `const fn`: a `Layout` may allocate), so static and
    /// run-time layouts interoperate.
    ///
    /// ```
    /// let l = strideweave::LayoutCode::leaf(8, 2).to_layout();
    /// assert_eq!(l.index_of(3).unwrap(), 6);
    /// ```
    pub fn to_layout(&self) -> Layout {
        Layout::from_valid(
            self.profile(),
            self.extents(),
            self.strides(),
            self.int_root,
        )
    }

    /// The profile tokens of the root's contents (`[Leaf]` for an integral layout).
    ///
    /// ```
    /// use strideweave::{LayoutCode, ProfileToken::*};
    /// let l = LayoutCode::leaf(2, 1).with_mode(LayoutCode::leaf(3, 2));
    /// assert_eq!(l.profile(), &[Leaf, Leaf]);
    /// ```
    #[inline]
    pub const fn profile(&self) -> &[ProfileToken] {
        self.toks.split_at(self.ntoks as usize).0
    }

    /// The extents, depth-first.
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::leaf(8, 2).extents(), &[8]);
    /// ```
    #[inline]
    pub const fn extents(&self) -> &[i64] {
        self.extents.split_at(self.nleaves as usize).0
    }

    /// The strides, depth-first.
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::leaf(8, 2).strides(), &[2]);
    /// ```
    #[inline]
    pub const fn strides(&self) -> &[i64] {
        self.strides.split_at(self.nleaves as usize).0
    }

    /// Whether this is an integral layout (`8:1`) rather than a tuple (`(8):(1)`).
    ///
    /// ```
    /// assert!(strideweave::LayoutCode::leaf(8, 1).is_int());
    /// ```
    #[inline]
    pub const fn is_int(&self) -> bool {
        self.int_root
    }

    /// The size of the domain: the product of the extents.
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::leaf(8, 2).size(), 8);
    /// ```
    #[inline]
    pub const fn size(&self) -> usize {
        // Every code is built with its size checked, so it fits.
        match self.checked_size() {
            Some(s) => s as usize,
            None => usize::MAX,
        }
    }

    /// The smallest and the largest index the layout reaches, from the strides (as
    /// [`Layout::reach`]).
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// assert_eq!(LayoutCode::leaf(4, -1).with_mode(LayoutCode::leaf(3, 5)).reach(), (-3, 10));
    /// ```
    #[inline]
    pub const fn reach(&self) -> (i64, i64) {
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut k = 0;
        while k < self.nleaves as usize {
            // Every code is built with its reach checked, so no span overflows.
            let span = (self.extents[k] - 1) * self.strides[k];
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
            k += 1;
        }
        (lo, hi)
    }

    /// 1 + the largest index the layout reaches (as [`Layout::cosize`]: `4:-1` has cosize 1).
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::leaf(4, 3).cosize(), 10);
    /// ```
    #[inline]
    pub const fn cosize(&self) -> usize {
        self.reach().1 as usize + 1
    }

    /// The number of top-level modes (an integral layout has rank 1).
    ///
    /// ```
    /// assert_eq!(strideweave::LayoutCode::EMPTY.rank(), 0);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        if self.int_root {
            return 1;
        }
        let (mut rank, mut t) = (0, 0);
        while t < self.ntoks as usize {
            t = self.node_end(t);
            rank += 1;
        }
        rank
    }

    /// The token just after the node that starts at token `t`.
    #[inline]
    pub(crate) const fn node_end(&self, t: usize) -> usize {
        let mut depth = 0usize;
        let mut k = t;
        loop {
            match self.toks[k] {
                ProfileToken::Push => depth += 1,
                ProfileToken::Pop => depth -= 1,
                ProfileToken::Leaf => {}
            }
            k += 1;
            if depth == 0 {
                return k;
            }
        }
    }

    /// The leaves among tokens `[t, end)`.
    #[inline]
    pub(crate) const fn leaves_in(&self, t: usize, end: usize) -> usize {
        let (mut n, mut k) = (0, t);
        while k < end {
            if matches!(self.toks[k], ProfileToken::Leaf) {
                n += 1;
            }
            k += 1;
        }
        n
    }

    /// Top-level mode `i` as a layout of its own: `(first token, first leaf, leaves)` of
    /// its node, or `None` when `i ≥ rank` (an integral layout is its own mode 0).
    #[inline]
    pub(crate) const fn mode_span(&self, i: usize) -> Option<(usize, usize, usize)> {
        if self.int_root {
            return if i == 0 { Some((0, 0, 1)) } else { None };
        }
        let (mut t, mut leaf, mut k) = (0, 0, 0);
        while t < self.ntoks as usize {
            let end = self.node_end(t);
            let n = self.leaves_in(t, end);
            if k == i {
                return Some((t, leaf, n));
            }
            leaf += n;
            t = end;
            k += 1;
        }
        None
    }

    /// `(first leaf, leaves, size)` of every top-level mode, in order (an integral layout is
    /// its own mode 0); the entries beyond the rank are `(0, 0, 1)`.
    pub(crate) const fn top_spans(&self) -> [(usize, usize, i64); MAX_TOKENS] {
        let mut out = [(0, 0, 1); MAX_TOKENS];
        let mut i = 0;
        while let Some((_, leaf, count)) = self.mode_span(i) {
            let mut size = 1i64;
            let mut j = 0;
            while j < count {
                size *= self.extents[leaf + j];
                j += 1;
            }
            out[i] = (leaf, count, size);
            i += 1;
        }
        out
    }

    /// Top-level mode `i` (`layout[i]` in CuTe, as [`Layout::mode`]); panics (a compile error
    /// in const context) when `i` is not below the rank.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// let l = LayoutCode::leaf(2, 1).with_mode(LayoutCode::leaf(3, 2).with_mode(LayoutCode::leaf(4, 6)));
    /// assert_eq!(l.mode(1).to_string(), "(3,4):(2,6)");
    /// ```
    #[track_caller]
    pub const fn mode(&self, i: usize) -> LayoutCode {
        match self.mode_as("mode", i) {
            Ok(m) => m,
            Err(e) => e.fail(),
        }
    }

    /// [`mode`](LayoutCode::mode) with errors named `op`.
    pub(crate) const fn mode_as(
        &self,
        op: &'static str,
        i: usize,
    ) -> std::result::Result<LayoutCode, CodeError> {
        let Some((t, leaf, n)) = self.mode_span(i) else {
            let rank = self.rank();
            return Err(CodeError::new(
                op,
                Kind::OutOfDomain {
                    what: "mode index",
                    value: i as i64,
                    place: Place::Modes { rank },
                    bound: rank as i64,
                },
            ));
        };
        if self.int_root {
            return Ok(*self);
        }
        let mut c = LayoutCode::EMPTY;
        if matches!(self.toks[t], ProfileToken::Leaf) {
            c.ntoks = 1;
            c.int_root = true;
        } else {
            // The node's contents, without its own `(` and `)`.
            let end = self.node_end(t);
            let mut j = t + 1;
            while j + 1 < end {
                c.toks[c.ntoks as usize] = self.toks[j];
                c.ntoks += 1;
                j += 1;
            }
        }
        let mut j = 0;
        while j < n {
            c.extents[j] = self.extents[leaf + j];
            c.strides[j] = self.strides[leaf + j];
            j += 1;
        }
        c.nleaves = n as u8;
        Ok(c)
    }

    /// The index of the first-mode-fastest ordinal `ordinal` in `[0, size)`, as
    /// [`Layout::index_of`]. Out of the domain it panics: in const context a compile error
    /// at the caller's line, at run time a panic with the message
    /// [`try_index_of`](LayoutCode::try_index_of) returns as an error.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const L: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(2, 4), LayoutCode::leaf(4, 1)]);
    /// const SEQ: [i64; 3] = [L.index_of(0), L.index_of(1), L.index_of(2)];
    /// assert_eq!(SEQ, [0, 4, 1]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn index_of(&self, ordinal: usize) -> i64 {
        if ordinal >= self.size() {
            self.ordinal_error("index_of", ordinal).fail();
        }
        self.eval(ordinal)
    }

    /// [`index_of`](LayoutCode::index_of) returning an error instead of panicking
    /// (`try_index_of: ordinal 8 is outside the layout of size 8 (valid: 0..8)`).
    ///
    /// ```
    /// let l = strideweave::LayoutCode::leaf(8, 2);
    /// assert_eq!(l.try_index_of(3).unwrap(), 6);
    /// assert_eq!(l.try_index_of(8).unwrap_err().to_string(),
    ///     "try_index_of: ordinal 8 is outside the layout of size 8 (valid: 0..8)");
    /// ```
    pub fn try_index_of(&self, ordinal: usize) -> Result<i64> {
        if ordinal >= self.size() {
            return Err(self.ordinal_error("try_index_of", ordinal).to_error());
        }
        Ok(self.eval(ordinal))
    }

    #[cold]
    #[inline(never)]
    pub(crate) const fn ordinal_error(&self, op: &'static str, ordinal: usize) -> CodeError {
        let size = self.size() as i64;
        CodeError::new(
            op,
            Kind::OutOfDomain {
                what: "ordinal",
                value: if ordinal > i64::MAX as usize {
                    i64::MAX
                } else {
                    ordinal as i64
                },
                place: Place::Layout { size },
                bound: size,
            },
        )
    }

    /// `L(ordinal)` for an ordinal in the domain: the leaves' coordinates by division in
    /// unsigned arithmetic (the last leaf takes the quotient whole), each times its stride.
    #[inline(always)]
    pub(crate) const fn eval(&self, ordinal: usize) -> i64 {
        let n = self.nleaves as usize;
        let (mut i, mut acc, mut k) = (ordinal, 0i64, 0);
        while k + 1 < n {
            let e = self.extents[k] as usize;
            acc += (i % e) as i64 * self.strides[k];
            i /= e;
            k += 1;
        }
        if n > 0 {
            acc += i as i64 * self.strides[n - 1];
        }
        acc
    }

    /// `L(i)` with CuTe's extension of the last leaf for `i ≥ size` (the run-time
    /// `Layout::eval_extended`, wrapping as it does).
    pub(crate) const fn eval_extended(&self, mut i: i64) -> i64 {
        let n = self.nleaves as usize;
        let (mut acc, mut k) = (0i64, 0);
        while k < n {
            let s = self.extents[k];
            let c = if k + 1 == n { i } else { i % s };
            acc = acc.wrapping_add(c.wrapping_mul(self.strides[k]));
            i /= s;
            k += 1;
        }
        acc
    }

    /// The index of a coordinate given as one integer per top-level mode, each counted
    /// first-mode-fastest inside its mode (CuTe's `layout(i, j)`; a nested mode's own
    /// coordinate is its ordinal), as [`Layout::index`] reads `IntTuple::from([i, j])`.
    /// A coordinate of the wrong length or outside a mode panics: in const context a compile
    /// error at the caller's line, at run time a panic with the message
    /// [`try_index`](LayoutCode::try_index) returns as an error.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// // (2,(3,4)):(1,(10,100)): mode 1 is (3,4), its coordinate 11 is (2,3).
    /// const L: LayoutCode = LayoutCode::tuple(&[
    ///     LayoutCode::leaf(2, 1),
    ///     LayoutCode::tuple(&[LayoutCode::leaf(3, 10), LayoutCode::leaf(4, 100)]),
    /// ]);
    /// const I: i64 = L.index(&[1, 11]);
    /// assert_eq!(I, 321);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn index(&self, coord: &[i64]) -> i64 {
        match self.index_as("index", coord) {
            Ok(i) => i,
            Err(e) => e.fail(),
        }
    }

    /// [`index`](LayoutCode::index) returning an error instead of panicking.
    ///
    /// ```
    /// let l = strideweave::LayoutCode::leaf(3, 2).with_mode(strideweave::LayoutCode::leaf(4, 10));
    /// assert_eq!(l.try_index(&[2, 1]).unwrap(), 14);
    /// assert_eq!(l.try_index(&[2, 4]).unwrap_err().to_string(),
    ///     "try_index: coordinate 4 is outside mode 1 of extent 4 (valid: 0..4)");
    /// assert_eq!(l.try_index(&[2]).unwrap_err().to_string(),
    ///     "try_index: expected 2 top-level coordinates, found 1");
    /// ```
    pub fn try_index(&self, coord: &[i64]) -> Result<i64> {
        self.index_as("try_index", coord).map_err(|e| e.to_error())
    }

    /// [`index`](LayoutCode::index) with errors named `op`.
    #[inline(always)]
    pub(crate) const fn index_as(
        &self,
        op: &'static str,
        coord: &[i64],
    ) -> std::result::Result<i64, CodeError> {
        let rank = self.rank();
        if coord.len() != rank {
            return Err(CodeError::new(
                op,
                Kind::RankMismatch {
                    what: "top-level coordinates",
                    expected: rank,
                    found: coord.len(),
                },
            ));
        }
        let (mut acc, mut m) = (0i64, 0);
        while m < rank {
            let Some((_, leaf, n)) = self.mode_span(m) else {
                break;
            };
            let c = coord[m];
            let mut size = 1i64;
            let mut j = 0;
            while j < n {
                size *= self.extents[leaf + j];
                j += 1;
            }
            if c < 0 || c >= size {
                return Err(CodeError::new(
                    op,
                    Kind::OutOfDomain {
                        what: "coordinate",
                        value: c,
                        place: Place::Mode {
                            mode: m,
                            extent: size,
                        },
                        bound: size,
                    },
                ));
            }
            acc += self.eval_within(leaf, n, c as usize);
            m += 1;
        }
        Ok(acc)
    }

    /// The index of coordinate `c` (in the domain) of the mode made of leaves
    /// `[leaf, leaf + n)`.
    #[inline(always)]
    pub(crate) const fn eval_within(&self, leaf: usize, n: usize, c: usize) -> i64 {
        let (mut i, mut acc, mut j) = (c, 0i64, 0);
        while j + 1 < n {
            let e = self.extents[leaf + j] as usize;
            acc += (i % e) as i64 * self.strides[leaf + j];
            i /= e;
            j += 1;
        }
        if n > 0 {
            acc += i as i64 * self.strides[leaf + n - 1];
        }
        acc
    }
}

impl PartialEq for LayoutCode {
    /// Same profile, extents, strides and root (the unused capacity is not compared).
    fn eq(&self, other: &LayoutCode) -> bool {
        self.int_root == other.int_root
            && self.profile() == other.profile()
            && self.extents() == other.extents()
            && self.strides() == other.strides()
    }
}

impl Eq for LayoutCode {}

impl Hash for LayoutCode {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (
            self.int_root,
            self.profile(),
            self.extents(),
            self.strides(),
        )
            .hash(state);
    }
}

impl fmt::Display for LayoutCode {
    /// CuTe notation, as [`Layout`]'s `Display`: `(2,(3,4)):(1,(2,6))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = Text::new();
        t.layout(self);
        f.write_str(t.as_str())
    }
}

impl fmt::Debug for LayoutCode {
    /// `LayoutCode((2,(3,4)):(1,(2,6)))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LayoutCode({self})")
    }
}
