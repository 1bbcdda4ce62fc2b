//! `Tiler`: the second operand of composition, division and products, and how a tiler
//! applies: mode by mode (`by_mode`) and, for the zipped and tiled forms, gathered into two
//! modes (`hier_unzip`).

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::hier::{self, Hierarchy};
use crate::layout::int_tuple::{Node, check_nesting};
use crate::layout::shape::Shape;
use crate::layout::structure::LayoutBuilder;

/// What a layout is composed with, divided by or multiplied by
/// (as in CuTe): a whole layout (a 1-D function), a by-mode list applied to the
/// leading top-level modes, or "keep this mode unchanged" (`_` in CuTe).
///
/// A [`Shape`] converts to the by-mode tiler of unit-stride tiles: `(3,8)` is `<3:1, 8:1>`.
///
/// ```
/// use strideweave::{Layout, Tiler};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::by_mode([Tiler::from("3:4".parse::<Layout>().unwrap()), Tiler::from("8:2".parse::<Layout>().unwrap())]);
/// assert_eq!(a.compose_tiler(&t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// let s: strideweave::Shape = "(3,8)".parse().unwrap();
/// assert_eq!(a.compose_tiler(&Tiler::from(&s)).unwrap().to_string(), "(3,(4,2)):(59,(13,1))");
/// ```
///
/// A tiler may nest without limit: clone, equality, `Debug` and drop walk it with an
/// explicit stack, never by recursion; the operations that take a tiler refuse one deeper
/// than [`MAX_NESTING`](crate::MAX_NESTING).
#[derive(Eq)]
#[allow(clippy::large_enum_variant)] // tilers are built once per algebra call, not per element
pub enum Tiler {
    /// Leave the mode unchanged.
    Keep,
    /// A layout, applied as a 1-D function.
    Layout(Layout),
    /// One tiler per leading top-level mode; trailing modes are kept.
    ByMode(Vec<Tiler>),
}

impl Tiler {
    /// A by-mode tiler.
    ///
    /// ```
    /// let t = strideweave::Tiler::by_mode([strideweave::Tiler::Keep]);
    /// assert!(matches!(t, strideweave::Tiler::ByMode(_)));
    /// ```
    pub fn by_mode(tilers: impl IntoIterator<Item = Tiler>) -> Tiler {
        Tiler::ByMode(tilers.into_iter().collect())
    }
}

impl Hierarchy for Tiler {
    fn children(&self) -> Option<&[Tiler]> {
        match self {
            Tiler::ByMode(c) => Some(c),
            _ => None,
        }
    }

    fn children_mut(&mut self) -> Option<&mut Vec<Tiler>> {
        match self {
            Tiler::ByMode(c) => Some(c),
            _ => None,
        }
    }

    fn node(children: Vec<Tiler>) -> Tiler {
        Tiler::ByMode(children)
    }

    fn clone_leaf(&self) -> Tiler {
        match self {
            Tiler::Layout(l) => Tiler::Layout(l.clone()),
            _ => Tiler::Keep,
        }
    }
}

impl Drop for Tiler {
    /// Drops nested tilers with an explicit stack: a tiler built by hand may nest without
    /// limit.
    fn drop(&mut self) {
        hier::drop_flat(self);
    }
}

impl Clone for Tiler {
    /// A deep copy, rebuilt with an explicit stack (no recursion at any depth).
    fn clone(&self) -> Tiler {
        hier::clone_flat(self)
    }
}

impl PartialEq for Tiler {
    /// Same nesting and equal entries in order, compared with an explicit stack.
    fn eq(&self, other: &Tiler) -> bool {
        hier::eq_flat(self, other, |a, b| match (a, b) {
            (Tiler::Layout(x), Tiler::Layout(y)) => x == y,
            (Tiler::Keep, Tiler::Keep) => true,
            _ => false,
        })
    }
}

impl std::fmt::Debug for Tiler {
    /// As a derived `Debug` writes it (`ByMode([Keep, Layout(Layout(…))])`), with an
    /// explicit stack.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        hier::write_flat(self, f, ("ByMode([", ", ", "])"), |t, f| match t {
            Tiler::Layout(l) => write!(f, "Layout({l:?})"),
            _ => f.write_str("Keep"),
        })
    }
}

/// Refuses a by-mode tiler nested deeper than [`MAX_NESTING`](crate::MAX_NESTING) levels
/// (on a leaf, a by-mode tiler applies to the leaf itself, so nesting alone decides the
/// depth of the recursion).
fn check_tiler_depth(op: &'static str, depth: usize) -> Result<()> {
    check_nesting(op, "the by-mode tiler nests", depth)
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Tiler {
        Tiler::Layout(l)
    }
}

impl From<&Layout> for Tiler {
    fn from(l: &Layout) -> Tiler {
        Tiler::Layout(l.clone())
    }
}

impl From<&Shape> for Tiler {
    /// `(3,8)` is `<3:1, 8:1>`; nested entries are nested by-mode tilers.
    fn from(s: &Shape) -> Tiler {
        fn go(n: Node<'_>) -> Tiler {
            match n {
                Node::Leaf(v) => Tiler::Layout(unit_stride(v)),
                Node::Tuple(seq) => Tiler::ByMode(seq.map(go).collect()),
            }
        }
        go(s.0.node())
    }
}

impl From<Shape> for Tiler {
    fn from(s: Shape) -> Tiler {
        Tiler::from(&s)
    }
}

/// `n:1` for an extent `n ≥ 1` taken from a valid shape.
fn unit_stride(n: i64) -> Layout {
    Layout::flat("Tiler::from", &[(n, 1)], true)
        .unwrap_or_else(|_| unreachable!("shape extents are ≥ 1"))
}

impl Layout {
    /// Applies a tiler with `f`, the operation by one layout: `Keep` leaves `self` unchanged,
    /// a layout is `f(self, layout)`, and a by-mode list applies each entry to its leading
    /// top-level mode (recursively) and keeps the trailing modes.
    pub(crate) fn apply_tiler(
        &self,
        op: &'static str,
        tiler: &Tiler,
        f: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
    ) -> Result<Layout> {
        self.apply_tiler_at(op, tiler, f, 0)
    }

    /// [`apply_tiler`](Layout::apply_tiler) inside `depth` by-mode tilers.
    fn apply_tiler_at(
        &self,
        op: &'static str,
        tiler: &Tiler,
        f: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
        depth: usize,
    ) -> Result<Layout> {
        match tiler {
            Tiler::Keep => Ok(self.clone()),
            Tiler::Layout(b) => f(self, b),
            Tiler::ByMode(ts) => {
                check_tiler_depth(op, depth + 1)?;
                self.by_mode(op, ts, |a, t| a.apply_tiler_at(op, t, f, depth + 1))
            }
        }
    }

    /// Applies `f` to each leading top-level mode with its tiler entry; trailing modes kept.
    fn by_mode(
        &self,
        op: &'static str,
        tilers: &[Tiler],
        mut f: impl FnMut(&Layout, &Tiler) -> Result<Layout>,
    ) -> Result<Layout> {
        let modes = self.top_layouts();
        check_by_mode_rank(op, modes.len(), tilers.len())?;
        let mut out = LayoutBuilder::default();
        for (i, m) in modes.iter().enumerate() {
            match tilers.get(i) {
                Some(t) => out.layout(&f(m, t)?),
                None => out.layout(m),
            }
        }
        out.tuple(op)
    }
}

/// A by-mode tiler names at most one entry per top-level mode.
fn check_by_mode_rank(op: &'static str, modes: usize, tilers: usize) -> Result<()> {
    if tilers > modes {
        return Err(Error::RankMismatch {
            op,
            what: "top-level modes for the by-mode tiler (at most)",
            expected: modes,
            found: tilers,
        });
    }
    Ok(())
}

/// The two halves of a rank-2 layout, such as `(tile, rest)` of a logical divide or
/// `(A, repeats)` of a logical product by one layout.
pub(crate) fn halves(pair: &Layout) -> (Layout, Layout) {
    let mut modes = pair.top_layouts().into_iter();
    match (modes.next(), modes.next(), modes.next()) {
        (Some(first), Some(second), None) => (first, second),
        _ => unreachable!("a logical divide or product by one layout has two modes"),
    }
}

/// CuTe's `hier_unzip`, shared by the zipped and tiled divides and products: splits `a` by
/// `tiler` and gathers the first halves of every split mode into one layout and the second
/// halves, followed by the modes the tiler does not reach, into another.
///
/// `split(m, b)` is the logical divide or product of a mode by one layout, `(first, second)`.
/// A by-mode tiler recurses into each leading top-level mode with its entry; a kept mode
/// (`Tiler::Keep`) splits as `(1:0, mode)`, so it goes whole to the second side, as in CuTe
/// and pycute.
pub(crate) fn hier_unzip(
    op: &'static str,
    a: &Layout,
    tiler: &Tiler,
    split: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<(Layout, Layout)> {
    hier_unzip_at(op, a, tiler, split, 0)
}

/// [`hier_unzip`] inside `depth` by-mode tilers.
///
/// The recursion's own frame holds only heap handles (the modes and the halves found so far):
/// each level's bigger locals live in [`unzip_leaf`] and [`gather_halves`], so that even an
/// unoptimised build descends the deepest tiler the limit allows on a 2 MiB thread.
fn hier_unzip_at(
    op: &'static str,
    a: &Layout,
    tiler: &Tiler,
    split: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
    depth: usize,
) -> Result<(Layout, Layout)> {
    let Tiler::ByMode(ts) = tiler else {
        return unzip_leaf(op, a, tiler, split);
    };
    check_tiler_depth(op, depth + 1)?;
    let modes = top_modes(a);
    check_by_mode_rank(op, modes.len(), ts.len())?;
    let mut split_modes = Vec::with_capacity(ts.len());
    for (m, t) in modes.iter().zip(ts) {
        split_modes.push(hier_unzip_at(op, m, t, split, depth + 1)?);
    }
    gather_halves(op, &split_modes, &modes[ts.len()..])
}

/// [`hier_unzip`] of a mode by a kept or one-layout tiler entry.
#[inline(never)]
fn unzip_leaf(
    op: &'static str,
    a: &Layout,
    tiler: &Tiler,
    split: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<(Layout, Layout)> {
    match tiler {
        Tiler::Layout(b) => Ok(halves(&split(a, b)?)),
        _ => Ok((Layout::flat(op, &[(1, 0)], true)?, a.clone())),
    }
}

/// The top-level modes of `a`, on the heap.
#[inline(never)]
fn top_modes(a: &Layout) -> Vec<Layout> {
    a.top_layouts().into_vec()
}

/// The first halves of `split` as one layout, and the second halves followed by the `rest`
/// modes as another.
#[inline(never)]
fn gather_halves(
    op: &'static str,
    split: &[(Layout, Layout)],
    rest: &[Layout],
) -> Result<(Layout, Layout)> {
    let (mut firsts, mut seconds) = (LayoutBuilder::default(), LayoutBuilder::default());
    for (first, second) in split {
        firsts.layout(first);
        seconds.layout(second);
    }
    rest.iter().for_each(|m| seconds.layout(m));
    Ok((firsts.tuple(op)?, seconds.tuple(op)?))
}
