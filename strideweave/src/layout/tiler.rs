//! `Tiler`: the second operand of composition, division and products.

use crate::layout::core::Layout;
use crate::layout::int_tuple::Node;
use crate::layout::shape::Shape;

/// What a layout is composed with, divided by or multiplied by
/// (`layout-algebra.md` §7): a whole layout (a 1-D function), a by-mode list applied to the
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
