//! [`TilerCode`]: a tiler in a const-friendly encoding, how it applies to a
//! [`LayoutCode`] (by mode, and gathered into two modes for the zipped, tiled and flat
//! forms), and the layout part of CuTe's `local_tile` and `local_partition`.

use super::algebra::{
    compose_in, done, logical_divide_in, logical_product_in, require_non_negative,
};
use super::build::Build;
use super::code::{LayoutCode, MAX_TOKENS};
use super::fault::{CodeError, Kind, Place};
use crate::layout::tiler::Tiler;

/// The most layouts a [`TilerCode`] holds.
const MAX_TILER_LAYOUTS: usize = 8;
/// The most entries and brackets a [`TilerCode`] holds.
const MAX_TILER_TOKENS: usize = 32;

#[derive(Clone, Copy)]
enum Tok {
    Push,
    Pop,
    Keep,
    Layout(u8),
}

/// A tiler in a fixed-capacity encoding that `const fn`s read and build: the static twin of
/// [`Tiler`] — a layout (a 1-D function), a by-mode list applied to the leading top-level
/// modes (nesting allowed), or "keep this mode" (CuTe's `_`); at most 8 layouts and 32
/// entries and brackets. It is the value of [`StaticTiler::TILER`](crate::StaticTiler::TILER).
///
/// ```
/// use strideweave::{LayoutCode, TilerCode};
/// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(3, 3)), TilerCode::KEEP]);
/// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(9, 1), LayoutCode::leaf(4, 9)]);
/// assert_eq!(A.zipped_divide(&T).to_string(), "((3,1),(3,4)):((3,0),(1,9))");
/// assert_eq!(format!("{T:?}"), "TilerCode([3:3, _])");
/// ```
#[derive(Clone, Copy)]
pub struct TilerCode {
    toks: [Tok; MAX_TILER_TOKENS],
    ntoks: u8,
    layouts: [LayoutCode; MAX_TILER_LAYOUTS],
    nlayouts: u8,
}

impl TilerCode {
    const EMPTY: TilerCode = TilerCode {
        toks: [Tok::Keep; MAX_TILER_TOKENS],
        ntoks: 0,
        layouts: [LayoutCode::EMPTY; MAX_TILER_LAYOUTS],
        nlayouts: 0,
    };

    /// Keep the mode unchanged (CuTe's `_`, [`Tiler::Keep`]).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// assert_eq!(LayoutCode::leaf(8, 1).compose_tiler(&TilerCode::KEEP).to_string(), "8:1");
    /// ```
    pub const KEEP: TilerCode = TilerCode {
        ntoks: 1,
        ..TilerCode::EMPTY
    };

    /// A layout, applied as a 1-D function ([`Tiler::Layout`]).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// let t = TilerCode::layout(LayoutCode::leaf(4, 2));
    /// assert_eq!(LayoutCode::leaf(16, 1).zipped_divide(&t).to_string(), "(4,(2,2)):(2,(1,8))");
    /// ```
    pub const fn layout(layout: LayoutCode) -> TilerCode {
        let mut t = TilerCode::EMPTY;
        t.toks[0] = Tok::Layout(0);
        t.ntoks = 1;
        t.layouts[0] = layout;
        t.nlayouts = 1;
        t
    }

    /// One tiler per leading top-level mode ([`Tiler::ByMode`]); trailing modes are kept.
    /// Panics (a compile error in const context) beyond 8 layouts or 32 entries and brackets.
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// let t = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(2, 1))]);
    /// let a = LayoutCode::tuple(&[LayoutCode::leaf(4, 3), LayoutCode::leaf(3, 1), LayoutCode::leaf(2, 12)]);
    /// assert_eq!(a.compose_tiler(&t).to_string(), "(2,3,2):(3,1,12)");
    /// ```
    #[track_caller]
    pub const fn by_mode(entries: &[TilerCode]) -> TilerCode {
        let mut t = TilerCode::EMPTY;
        t.push(Tok::Push);
        let mut e = 0;
        while e < entries.len() {
            let entry = &entries[e];
            let mut k = 0;
            while k < entry.ntoks as usize {
                let tok = match entry.toks[k] {
                    Tok::Layout(j) => {
                        if t.nlayouts as usize == MAX_TILER_LAYOUTS {
                            panic!("TilerCode::by_mode: a static tiler holds at most 8 layouts");
                        }
                        t.layouts[t.nlayouts as usize] = entry.layouts[j as usize];
                        t.nlayouts += 1;
                        Tok::Layout(t.nlayouts - 1)
                    }
                    tok => tok,
                };
                t.push(tok);
                k += 1;
            }
            e += 1;
        }
        t.push(Tok::Pop);
        t
    }

    #[track_caller]
    const fn push(&mut self, tok: Tok) {
        if self.ntoks as usize == MAX_TILER_TOKENS {
            panic!("TilerCode::by_mode: a static tiler holds at most 32 entries and brackets");
        }
        self.toks[self.ntoks as usize] = tok;
        self.ntoks += 1;
    }

    /// The run-time [`Tiler`].
    ///
    /// ```
    /// use strideweave::{LayoutCode, Tiler, TilerCode};
    /// let t = TilerCode::by_mode(&[TilerCode::KEEP, TilerCode::layout(LayoutCode::leaf(2, 1))]);
    /// assert_eq!(t.to_tiler(), Tiler::by_mode([Tiler::Keep, Tiler::Layout("2:1".parse().unwrap())]));
    /// ```
    pub fn to_tiler(&self) -> Tiler {
        self.tiler_at(0)
    }

    fn tiler_at(&self, pos: usize) -> Tiler {
        match self.toks[pos] {
            Tok::Keep | Tok::Pop => Tiler::Keep,
            Tok::Layout(k) => Tiler::Layout(self.layouts[k as usize].to_layout()),
            Tok::Push => {
                let children: Vec<Tiler> = (0..self.entries(pos))
                    .map(|i| self.tiler_at(self.child(pos, i)))
                    .collect();
                Tiler::ByMode(children)
            }
        }
    }

    /// Whether the tiler is one layout (not by-mode, not keep).
    pub(crate) const fn root_layout(&self) -> Option<&LayoutCode> {
        match self.toks[0] {
            Tok::Layout(k) => Some(&self.layouts[k as usize]),
            _ => None,
        }
    }

    /// Whether the tiler is a by-mode list.
    const fn is_by_mode(&self) -> bool {
        matches!(self.toks[0], Tok::Push)
    }

    /// The token after the entry that starts at `pos`.
    const fn end(&self, pos: usize) -> usize {
        let (mut depth, mut k) = (0usize, pos);
        loop {
            match self.toks[k] {
                Tok::Push => depth += 1,
                Tok::Pop => depth -= 1,
                _ => {}
            }
            k += 1;
            if depth == 0 {
                return k;
            }
        }
    }

    /// The number of entries of the by-mode list at `pos`.
    const fn entries(&self, pos: usize) -> usize {
        let (mut n, mut k) = (0, pos + 1);
        while !matches!(self.toks[k], Tok::Pop) {
            k = self.end(k);
            n += 1;
        }
        n
    }

    /// The position of entry `i` of the by-mode list at `pos`.
    const fn child(&self, pos: usize, i: usize) -> usize {
        let (mut k, mut j) = (pos + 1, 0);
        while j < i {
            k = self.end(k);
            j += 1;
        }
        k
    }
}

impl std::fmt::Debug for TilerCode {
    /// `TilerCode(…)`: layouts in CuTe notation, a by-mode list in brackets, keep as `_`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn go(t: &TilerCode, pos: usize, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match t.toks[pos] {
                Tok::Keep | Tok::Pop => f.write_str("_"),
                Tok::Layout(k) => write!(f, "{}", t.layouts[k as usize]),
                Tok::Push => {
                    f.write_str("[")?;
                    for i in 0..t.entries(pos) {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        go(t, t.child(pos, i), f)?;
                    }
                    f.write_str("]")
                }
            }
        }
        f.write_str("TilerCode(")?;
        go(self, 0, f)?;
        f.write_str(")")
    }
}

/// The operation a tiler applies by one layout.
#[derive(Clone, Copy)]
pub(crate) enum Split {
    Compose,
    Divide,
    Product,
}

const fn split(
    op: &'static str,
    how: Split,
    a: &LayoutCode,
    b: &LayoutCode,
) -> Result<LayoutCode, CodeError> {
    match how {
        Split::Compose => compose_in(op, a, b),
        Split::Divide => logical_divide_in(op, a, b),
        Split::Product => logical_product_in(op, a, b),
    }
}

/// A by-mode list names at most one entry per top-level mode (the run-time
/// `check_by_mode_rank`).
const fn check_rank(op: &'static str, modes: usize, entries: usize) -> Result<(), CodeError> {
    if entries > modes {
        return Err(CodeError::new(
            op,
            Kind::RankMismatch {
                what: "top-level modes for the by-mode tiler (at most)",
                expected: modes,
                found: entries,
            },
        ));
    }
    Ok(())
}

/// The run-time `Layout::apply_tiler`: keep, one layout, or mode by mode.
pub(crate) const fn apply(
    op: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
    pos: usize,
    how: Split,
) -> Result<LayoutCode, CodeError> {
    match t.toks[pos] {
        Tok::Keep | Tok::Pop => Ok(*a),
        Tok::Layout(k) => split(op, how, a, &t.layouts[k as usize]),
        Tok::Push => {
            let (rank, entries) = (a.rank(), t.entries(pos));
            tri!(check_rank(op, rank, entries));
            let mut b = Build::new();
            let (mut i, mut child) = (0, pos + 1);
            while i < rank {
                let m = tri!(a.mode_as(op, i));
                if i < entries {
                    let r = tri!(apply(op, &m, t, child, how));
                    b.node(&r);
                    child = t.end(child);
                } else {
                    b.node(&m);
                }
                i += 1;
            }
            b.finish(op)
        }
    }
}

/// The run-time `hier_unzip`: the first halves of every split mode, and the second halves
/// followed by the modes the tiler does not reach.
pub(crate) const fn unzip(
    op: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
    pos: usize,
    how: Split,
) -> Result<(LayoutCode, LayoutCode), CodeError> {
    match t.toks[pos] {
        Tok::Layout(k) => {
            let pair = tri!(split(op, how, a, &t.layouts[k as usize]));
            Ok((tri!(pair.mode_as(op, 0)), tri!(pair.mode_as(op, 1))))
        }
        Tok::Keep | Tok::Pop => Ok((tri!(Build::flat(op, &[(1, 0)], true)), *a)),
        Tok::Push => {
            let (rank, entries) = (a.rank(), t.entries(pos));
            tri!(check_rank(op, rank, entries));
            let (mut firsts, mut seconds) = (Build::new(), Build::new());
            let (mut i, mut child) = (0, pos + 1);
            while i < entries {
                let m = tri!(a.mode_as(op, i));
                let (first, second) = tri!(unzip(op, &m, t, child, how));
                firsts.node(&first);
                seconds.node(&second);
                child = t.end(child);
                i += 1;
            }
            while i < rank {
                seconds.node(&tri!(a.mode_as(op, i)));
                i += 1;
            }
            Ok((tri!(firsts.finish(op)), tri!(seconds.finish(op))))
        }
    }
}

/// `((first…), second)` (`flat_first`: the first's modes spliced) followed by the second
/// (`flat_second`: its modes spliced): the zipped, tiled and flat forms.
pub(crate) const fn gathered(
    op: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
    how: Split,
    flat_first: bool,
    flat_second: bool,
) -> Result<LayoutCode, CodeError> {
    let (first, second) = tri!(unzip(op, a, t, 0, how));
    let mut b = Build::new();
    if flat_first {
        b.modes_of(&first);
    } else {
        b.node(&first);
    }
    if flat_second {
        b.modes_of(&second);
    } else {
        b.node(&second);
    }
    b.finish(op)
}

impl LayoutCode {
    /// Composition with a tiler, as [`Layout::compose_tiler`](crate::Layout::compose_tiler).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(12, 59),
    ///     LayoutCode::tuple(&[LayoutCode::leaf(4, 13), LayoutCode::leaf(8, 1)])]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(3, 4)),
    ///     TilerCode::layout(LayoutCode::leaf(8, 2))]);
    /// assert_eq!(A.compose_tiler(&T).to_string(), "(3,(2,4)):(236,(26,1))");
    /// ```
    #[track_caller]
    pub const fn compose_tiler(&self, t: &TilerCode) -> LayoutCode {
        done(apply("compose_tiler", self, t, 0, Split::Compose))
    }

    /// The logical divide by a tiler, as
    /// [`Layout::logical_divide_tiler`](crate::Layout::logical_divide_tiler).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(8, 1), LayoutCode::leaf(4, 8)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(2, 1))]);
    /// assert_eq!(A.logical_divide_tiler(&T).to_string(), "((2,4),4):((1,2),8)");
    /// ```
    #[track_caller]
    pub const fn logical_divide_tiler(&self, t: &TilerCode) -> LayoutCode {
        done(apply("logical_divide_tiler", self, t, 0, Split::Divide))
    }

    /// The logical product by a tiler, as
    /// [`Layout::logical_product_tiler`](crate::Layout::logical_product_tiler).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(2, 5), LayoutCode::leaf(5, 1)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(3, 5)),
    ///     TilerCode::layout(LayoutCode::leaf(4, 6))]);
    /// assert_eq!(A.logical_product_tiler(&T).to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    #[track_caller]
    pub const fn logical_product_tiler(&self, t: &TilerCode) -> LayoutCode {
        done(apply("logical_product_tiler", self, t, 0, Split::Product))
    }

    /// `((tiles…), (rests…, trailing modes…))`, as
    /// [`Layout::zipped_divide`](crate::Layout::zipped_divide).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(12, 1), LayoutCode::leaf(32, 12)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(4, 1)),
    ///     TilerCode::layout(LayoutCode::leaf(8, 1))]);
    /// assert_eq!(A.zipped_divide(&T).to_string(), "((4,8),(3,4)):((1,12),(4,96))");
    /// ```
    #[track_caller]
    pub const fn zipped_divide(&self, t: &TilerCode) -> LayoutCode {
        done(gathered(
            "zipped_divide",
            self,
            t,
            Split::Divide,
            false,
            false,
        ))
    }

    /// `((tiles…), rests…, trailing modes…)`, as
    /// [`Layout::tiled_divide`](crate::Layout::tiled_divide).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(12, 1), LayoutCode::leaf(32, 12)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(4, 1)),
    ///     TilerCode::layout(LayoutCode::leaf(8, 1))]);
    /// assert_eq!(A.tiled_divide(&T).to_string(), "((4,8),3,4):((1,12),4,96)");
    /// ```
    #[track_caller]
    pub const fn tiled_divide(&self, t: &TilerCode) -> LayoutCode {
        done(gathered(
            "tiled_divide",
            self,
            t,
            Split::Divide,
            false,
            true,
        ))
    }

    /// `(tiles…, rests…, trailing modes…)`: CuTe's `flat_divide`, the
    /// [`zipped_divide`](LayoutCode::zipped_divide) with both of its modes spliced.
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(12, 1), LayoutCode::leaf(32, 12)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(4, 1)),
    ///     TilerCode::layout(LayoutCode::leaf(8, 1))]);
    /// assert_eq!(A.flat_divide(&T).to_string(), "(4,8,3,4):(1,12,4,96)");
    /// ```
    #[track_caller]
    pub const fn flat_divide(&self, t: &TilerCode) -> LayoutCode {
        done(gathered("flat_divide", self, t, Split::Divide, true, true))
    }

    /// `((A modes…), (products…, trailing modes…))`, as
    /// [`Layout::zipped_product`](crate::Layout::zipped_product).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(3, 1)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(6, 1))]);
    /// assert_eq!(A.zipped_product(&T).to_string(), "((3),(6)):((1),(3))");
    /// ```
    #[track_caller]
    pub const fn zipped_product(&self, t: &TilerCode) -> LayoutCode {
        done(gathered(
            "zipped_product",
            self,
            t,
            Split::Product,
            false,
            false,
        ))
    }

    /// `((A modes…), products…, trailing modes…)`, as
    /// [`Layout::tiled_product`](crate::Layout::tiled_product).
    ///
    /// ```
    /// use strideweave::{LayoutCode, TilerCode};
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(3, 1)]);
    /// const T: TilerCode = TilerCode::by_mode(&[TilerCode::layout(LayoutCode::leaf(6, 1))]);
    /// assert_eq!(A.tiled_product(&T).to_string(), "((3),6):((1),3)");
    /// ```
    #[track_caller]
    pub const fn tiled_product(&self, t: &TilerCode) -> LayoutCode {
        done(gathered(
            "tiled_product",
            self,
            t,
            Split::Product,
            false,
            true,
        ))
    }
}

/// The layout parts of CuTe's `local_tile` and `local_partition`: the zipped divide's two
/// modes, checked for a residue, and where the modes indexed by a coordinate lie.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tiling {
    /// The result's layout.
    pub(crate) layout: LayoutCode,
    /// The layout the coordinate indexes (`local_tile`: the rests, `local_partition`: the
    /// tiles).
    pub(crate) indexed: LayoutCode,
    /// How many integers the coordinate has, one per leading mode of `indexed` (`None`: a
    /// layout tiler, one integer for the whole of `indexed`).
    pub(crate) modes: Option<usize>,
    /// `(first leaf, leaves, size)` of each indexed mode.
    pub(crate) spans: [(usize, usize, i64); MAX_TOKENS],
    /// The thread layout (`local_partition`).
    pub(crate) threads: LayoutCode,
}

/// The zipped divide of `a` by `t` with a residue refused: `(tiles, rests, by-mode entries)`.
const fn divided(
    op: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
) -> Result<(LayoutCode, LayoutCode, Option<usize>), CodeError> {
    let (tiles, rests) = tri!(unzip(op, a, t, 0, Split::Divide));
    if !t.is_by_mode() {
        let covered = (tiles.size() * rests.size()) as i64;
        if covered != a.size() as i64 {
            return Err(residue(
                op,
                None,
                tiles.size() as i64,
                covered,
                a.size() as i64,
            ));
        }
        return Ok((tiles, rests, None));
    }
    let entries = t.entries(0);
    let mut i = 0;
    while i < entries {
        let (tile, rest, mode) = (
            tri!(tiles.mode_as(op, i)).size() as i64,
            tri!(rests.mode_as(op, i)).size() as i64,
            tri!(a.mode_as(op, i)).size() as i64,
        );
        if tile * rest != mode {
            return Err(residue(op, Some(i), tile, tile * rest, mode));
        }
        i += 1;
    }
    Ok((tiles, rests, Some(entries)))
}

const fn residue(
    op: &'static str,
    mode: Option<usize>,
    tile: i64,
    covered: i64,
    extent: i64,
) -> CodeError {
    CodeError::new(
        op,
        Kind::Residue {
            mode,
            tile,
            covered,
            extent,
        },
    )
}

/// CuTe's `local_tile(a, t, coord)`, its layout part: the tile's modes, then the trailing
/// modes a by-mode tiler does not reach; the coordinate indexes the rests.
pub(crate) const fn local_tile_in(
    op: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
) -> Result<Tiling, CodeError> {
    let (tiles, rests, modes) = tri!(divided(op, a, t));
    let layout = match modes {
        None => tiles,
        Some(k) => {
            let mut b = Build::new();
            b.modes_of(&tiles);
            let mut j = k;
            while j < rests.rank() {
                b.node(&tri!(rests.mode_as(op, j)));
                j += 1;
            }
            tri!(b.finish(op))
        }
    };
    Ok(Tiling {
        layout,
        indexed: rests,
        modes,
        spans: spans_of(&rests, modes),
        threads: LayoutCode::EMPTY,
    })
}

/// CuTe's `local_partition(a, threads, thread)`, its layout part: `outer_partition` by the
/// threads' shape (`product_each`): the rests; the thread's flat coordinate indexes the
/// tiles.
pub(crate) const fn local_partition_in(
    op: &'static str,
    a: &LayoutCode,
    threads: &LayoutCode,
) -> Result<Tiling, CodeError> {
    tri!(require_non_negative(op, threads, " of the thread layout"));
    let t = if threads.int_root {
        TilerCode::layout(tri!(Build::flat(op, &[(threads.size() as i64, 1)], true)))
    } else {
        let rank = threads.rank();
        if rank > MAX_TILER_LAYOUTS {
            return Err(CodeError::new(
                op,
                Kind::RankMismatch {
                    what: "top-level modes of a static thread layout (at most)",
                    expected: MAX_TILER_LAYOUTS,
                    found: rank,
                },
            ));
        }
        let mut entries = [TilerCode::KEEP; MAX_TILER_LAYOUTS];
        let mut i = 0;
        while i < rank {
            let size = tri!(threads.mode_as(op, i)).size() as i64;
            entries[i] = TilerCode::layout(tri!(Build::flat(op, &[(size, 1)], true)));
            i += 1;
        }
        TilerCode::by_mode(entries.split_at(rank).0)
    };
    let (tiles, rests, modes) = tri!(divided(op, a, &t));
    Ok(Tiling {
        layout: rests,
        indexed: tiles,
        modes,
        spans: spans_of(&tiles, modes),
        threads: *threads,
    })
}

/// The spans of the modes a coordinate indexes: the top-level modes of `c` (by mode), or
/// the whole of `c` as one (a layout tiler).
const fn spans_of(c: &LayoutCode, modes: Option<usize>) -> [(usize, usize, i64); MAX_TOKENS] {
    match modes {
        Some(_) => c.top_spans(),
        None => {
            let mut s = [(0, 0, 1); MAX_TOKENS];
            s[0] = (0, c.nleaves as usize, c.size() as i64);
            s
        }
    }
}

impl Tiling {
    /// The index, in the divided layout, of the tile at tile coordinate `coord` (one integer
    /// per tiler entry; one for a layout tiler), errors named `op`.
    #[inline(always)]
    pub(crate) const fn tile_offset(
        &self,
        op: &'static str,
        coord: &[i64],
    ) -> Result<i64, CodeError> {
        let n = match self.modes {
            Some(k) => k,
            None => 1,
        };
        if coord.len() != n {
            return Err(CodeError::new(
                op,
                Kind::RankMismatch {
                    what: "tile coordinates",
                    expected: n,
                    found: coord.len(),
                },
            ));
        }
        let (mut acc, mut i) = (0i64, 0);
        while i < n {
            let (leaf, count, size) = self.spans[i];
            let c = coord[i];
            if c < 0 || c >= size {
                return Err(CodeError::new(
                    op,
                    Kind::OutOfDomain {
                        what: "tile coordinate",
                        value: c,
                        place: Place::Tiles {
                            mode: match self.modes {
                                Some(_) => Some(i),
                                None => None,
                            },
                            count: size,
                        },
                        bound: size,
                    },
                ));
            }
            acc += self.indexed.eval_within(leaf, count, c as usize);
            i += 1;
        }
        Ok(acc)
    }

    /// The index, in the divided layout, of the first element thread `thread` holds: its
    /// flat coordinate in the thread layout (CuTe's `get_flat_coord`, stride-aware) indexes
    /// the tiles; errors named `op`.
    #[inline(always)]
    pub(crate) const fn thread_offset(
        &self,
        op: &'static str,
        thread: usize,
    ) -> Result<i64, CodeError> {
        let size = self.threads.size();
        if thread >= size {
            return Err(CodeError::new(
                op,
                Kind::OutOfDomain {
                    what: "thread",
                    value: if thread > i64::MAX as usize {
                        i64::MAX
                    } else {
                        thread as i64
                    },
                    place: Place::Threads { size: size as i64 },
                    bound: size as i64,
                },
            ));
        }
        let n = match self.modes {
            Some(k) => k,
            None => 1,
        };
        let threads = &self.threads;
        let (mut acc, mut i, mut leaf) = (0i64, 0, 0);
        while i < n {
            // The thread's coordinate in mode i, counted first-mode-fastest inside it.
            let count = match self.modes {
                Some(_) => match threads.mode_span(i) {
                    Some((_, _, count)) => count,
                    None => 0,
                },
                None => threads.nleaves as usize,
            };
            let (mut c, mut scale, mut j) = (0usize, 1usize, 0);
            while j < count {
                let (s, d) = (
                    threads.extents[leaf + j] as usize,
                    threads.strides[leaf + j],
                );
                if d != 0 {
                    c += (thread / d as usize) % s * scale;
                }
                scale *= s;
                j += 1;
            }
            leaf += count;
            let (first, leaves, _) = self.spans[i];
            acc += self.indexed.eval_within(first, leaves, c);
            i += 1;
        }
        Ok(acc)
    }
}
