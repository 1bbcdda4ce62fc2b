//! Layouts as types: [`StaticLayout`] (a type whose constant holds a [`LayoutCode`]),
//! [`LayoutT`] (the type with const index math that [`layout_t!`](crate::layout_t) names),
//! [`Mode`] and tuples of them (the literal), [`StaticTiler`], [`Keep`], and the result types
//! of the algebra, each a static layout computed while the program is built.

use std::marker::PhantomData;

use super::algebra::{complement_in, compose_in, done, logical_divide_in, logical_product_in};
use super::code::LayoutCode;
use super::fault::{CodeError, Kind};
use super::op;
use super::tiler::{Split, TilerCode, Tiling, apply, gathered, local_partition_in, local_tile_in};
use crate::error::Result;
use crate::layout::core::Layout;

/// A layout known to the compiler: a type whose [`LAYOUT`](StaticLayout::LAYOUT) constant
/// holds it. [`layout_t!`](crate::layout_t) names one (`layout_t!((4, 8) : (1, 4))`), the
/// algebra's result types are ones ([`Compose`], [`ZippedDivide`], …), and any type of yours
/// can be one: implement the trait with a constant built by [`LayoutCode`]'s `const fn`s,
/// and wrap the type in [`LayoutT`] for the const index math.
///
/// ```
/// use strideweave::{LayoutCode, LayoutT, StaticLayout, layout_t};
/// struct Tile;
/// impl StaticLayout for Tile {
///     // Checked while the program is built: a mistake is a compile error here.
///     const LAYOUT: LayoutCode = <layout_t!((8, 8) : (1, 8))>::LAYOUT.compose(&LayoutCode::leaf(4, 2));
/// }
/// assert_eq!(Tile::LAYOUT.to_string(), "4:2");
/// const I: i64 = LayoutT::<Tile>::index_of(3);
/// assert_eq!(I, 6);
/// fn first_of<L: StaticLayout>() -> i64 {
///     L::LAYOUT.index_of(1)
/// }
/// assert_eq!(first_of::<Tile>(), 2);
/// ```
pub trait StaticLayout: 'static {
    /// The layout.
    const LAYOUT: LayoutCode;
}

/// A static layout with its index math as `const fn`s: the type
/// [`layout_t!`](crate::layout_t) names (`layout_t!((4, 8) : (1, 4))` is
/// `LayoutT<(Mode<4, 1>, Mode<8, 4>)>`) and every result type of the algebra is
/// ([`Compose<A, B>`](Compose) is `LayoutT<…>`). `L` is any [`StaticLayout`].
///
/// In a `const` item, out-of-range arguments are compile errors at that item, whose message
/// starts with the operation and names the value and the bound. Called at run time the
/// same functions panic with that message; the `try_` forms return it as an [`Error`](crate::Error)
/// instead. The layout's constants fold into the caller's code: in a release build
/// `index_of` and `index` are the arithmetic of the extents and strides, written as
/// constants.
///
/// ```
/// use strideweave::layout_t;
/// type A = layout_t!((4, 8) : (1, 4));
/// const X: i64 = A::index_of(9);
/// const Y: i64 = A::index(&[1, 2]);
/// assert_eq!((X, Y, A::size(), A::cosize(), A::rank()), (9, 9, 32, 32, 2));
/// assert_eq!(A::to_layout().to_string(), "(4,8):(1,4)");
/// assert_eq!(A::try_index_of(32).unwrap_err().to_string(),
///     "try_index_of: ordinal 32 is outside the layout of size 32 (valid: 0..32)");
/// ```
///
/// ```compile_fail
/// // error: index_of: ordinal 32 is outside the layout of size 32 (valid: 0..32)
/// const X: i64 = <strideweave::layout_t!((4, 8) : (1, 4))>::index_of(32);
/// ```
pub struct LayoutT<L>(PhantomData<fn() -> L>);

impl<L: StaticLayout> StaticLayout for LayoutT<L> {
    const LAYOUT: LayoutCode = L::LAYOUT;
}

impl<L> Clone for LayoutT<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for LayoutT<L> {}

impl<L> Default for LayoutT<L> {
    fn default() -> Self {
        LayoutT(PhantomData)
    }
}

impl<L: StaticLayout> std::fmt::Debug for LayoutT<L> {
    /// `LayoutT((4,8):(1,4))`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LayoutT({})", L::LAYOUT)
    }
}

/// The layout and its size, computed once per layout: the functions below name this one
/// constant (a failed constant is then reported once, with one note per use).
struct Folded {
    code: LayoutCode,
    size: usize,
}

const fn fold(code: LayoutCode) -> Folded {
    Folded {
        size: code.size(),
        code,
    }
}

impl<L: StaticLayout> LayoutT<L> {
    const FOLD: Folded = fold(L::LAYOUT);

    /// The index of the first-mode-fastest ordinal `ordinal` in `[0, size)`
    /// ([`LayoutCode::index_of`]); out of range it panics (a compile error in a `const` item).
    ///
    /// ```
    /// use strideweave::layout_t;
    /// const I: i64 = <layout_t!((2, 4) : (4, 1))>::index_of(3);
    /// assert_eq!(I, 5);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn index_of(ordinal: usize) -> i64 {
        let layout = &Self::FOLD;
        if ordinal >= layout.size {
            layout.code.ordinal_error("index_of", ordinal).fail();
        }
        layout.code.eval(ordinal)
    }

    /// [`index_of`](LayoutT::index_of), an out-of-range ordinal an error.
    ///
    /// ```
    /// use strideweave::layout_t;
    /// assert_eq!(<layout_t!(8 : 2)>::try_index_of(3).unwrap(), 6);
    /// assert!(<layout_t!(8 : 2)>::try_index_of(8).is_err());
    /// ```
    pub fn try_index_of(ordinal: usize) -> Result<i64> {
        Self::FOLD.code.try_index_of(ordinal)
    }

    /// The index of every ordinal of `ordinals`, written to `indices`: the range of all the
    /// ordinals is checked first, in one pass, and then the index math runs without a check
    /// per ordinal, so the loop vectorises where [`index_of`](LayoutT::index_of) on each
    /// ordinal cannot (its check may stop the loop at any element). An ordinal outside
    /// `[0, size)`, or `indices` of another length, is an error, and `indices` is left as it
    /// was.
    ///
    /// ```
    /// use strideweave::layout_t;
    /// type A = layout_t!((2, 4) : (4, 1));
    /// let mut indices = [0i64; 3];
    /// A::index_of_each(&[0, 3, 7], &mut indices)?;
    /// assert_eq!(indices, [0, 5, 7]);
    /// assert_eq!(A::index_of_each(&[1, 8, 2], &mut indices).unwrap_err().to_string(),
    ///     "index_of_each: ordinal 8 is outside the layout of size 8 (valid: 0..8)");
    /// assert_eq!(indices, [0, 5, 7]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn index_of_each(ordinals: &[usize], indices: &mut [i64]) -> Result<()> {
        let layout = &Self::FOLD;
        if ordinals.len() != indices.len() {
            return Err(crate::Error::RankMismatch {
                op: "index_of_each",
                what: "indices (one per ordinal)",
                expected: ordinals.len(),
                found: indices.len(),
            });
        }
        // Every ordinal is at most the bitwise or of all of them: one or per ordinal (it
        // vectorises, where a maximum of unsigned 64-bit integers does not on baseline
        // x86-64) proves the range whenever the or is below the size; only otherwise are the
        // ordinals compared one by one, to find the first outside.
        let bound = ordinals.iter().fold(0, |bits, &o| bits | o);
        if bound >= layout.size
            && let Some(&outside) = ordinals.iter().find(|&&o| o >= layout.size)
        {
            return Err(layout
                .code
                .ordinal_error("index_of_each", outside)
                .to_error());
        }
        for (index, &ordinal) in indices.iter_mut().zip(ordinals) {
            *index = layout.code.eval(ordinal);
        }
        Ok(())
    }

    /// The index of a coordinate, one integer per top-level mode, each counted
    /// first-mode-fastest inside its mode ([`LayoutCode::index`]); a coordinate of the wrong
    /// length or outside a mode panics (a compile error in a `const` item).
    ///
    /// ```
    /// use strideweave::layout_t;
    /// type A = layout_t!((2, (3, 4)) : (1, (10, 100)));
    /// const I: i64 = A::index(&[1, 11]); // 11 is (2, 3) inside the mode (3, 4)
    /// assert_eq!(I, 321);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn index(coord: &[i64]) -> i64 {
        Self::FOLD.code.index(coord)
    }

    /// [`index`](LayoutT::index), a bad coordinate an error.
    ///
    /// ```
    /// use strideweave::layout_t;
    /// type A = layout_t!((3, 4) : (2, 10));
    /// assert_eq!(A::try_index(&[2, 1]).unwrap(), 14);
    /// assert_eq!(A::try_index(&[3, 1]).unwrap_err().to_string(),
    ///     "try_index: coordinate 3 is outside mode 0 of extent 3 (valid: 0..3)");
    /// ```
    pub fn try_index(coord: &[i64]) -> Result<i64> {
        Self::FOLD.code.try_index(coord)
    }

    /// The size of the domain.
    ///
    /// ```
    /// assert_eq!(<strideweave::layout_t!((4, 8))>::size(), 32);
    /// ```
    pub const fn size() -> usize {
        Self::FOLD.size
    }

    /// 1 + the largest index reached.
    ///
    /// ```
    /// assert_eq!(<strideweave::layout_t!((4, 8) : (8, 1))>::cosize(), 32);
    /// ```
    pub const fn cosize() -> usize {
        Self::FOLD.code.cosize()
    }

    /// The number of top-level modes.
    ///
    /// ```
    /// assert_eq!(<strideweave::layout_t!((4, (2, 8)))>::rank(), 2);
    /// ```
    pub const fn rank() -> usize {
        Self::FOLD.code.rank()
    }

    /// The run-time [`Layout`].
    ///
    /// ```
    /// use strideweave::{layout, layout_t};
    /// assert_eq!(<layout_t!((4, 8) : (1, 4))>::to_layout(), layout!((4, 8) : (1, 4)));
    /// ```
    pub fn to_layout() -> Layout {
        Self::FOLD.code.to_layout()
    }
}

/// A leaf mode of extent `EXTENT` and stride `STRIDE`, the integral layout `EXTENT:STRIDE`;
/// tuples of static layouts are tuple layouts (CuTe's `make_layout(l0, l1, …)`), so
/// `(Mode<4, 1>, Mode<8, 4>)` is `(4,8):(1,4)`, what [`layout_t!`](crate::layout_t) writes.
/// An extent below 1 is refused when the layout is evaluated.
///
/// ```
/// use strideweave::{LayoutT, Mode, StaticLayout, layout_t};
/// assert_eq!(<Mode<8, -1>>::LAYOUT.to_string(), "8:-1");
/// let _: LayoutT<(Mode<4, 1>, (Mode<2, 4>, Mode<3, 8>))> = <layout_t!((4, (2, 3)))>::default();
/// assert_eq!(<(Mode<4, 1>, (Mode<2, 4>, Mode<3, 8>))>::LAYOUT.to_string(), "(4,(2,3)):(1,(4,8))");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode<const EXTENT: i64, const STRIDE: i64>;

impl<const EXTENT: i64, const STRIDE: i64> StaticLayout for Mode<EXTENT, STRIDE> {
    const LAYOUT: LayoutCode = {
        if EXTENT < 1 {
            CodeError::new("Mode", Kind::InvalidExtent { extent: EXTENT }).fail();
        }
        LayoutCode::leaf(EXTENT, STRIDE)
    };
}

impl StaticLayout for () {
    const LAYOUT: LayoutCode = LayoutCode::EMPTY;
}

/// What a layout is composed with, divided by or multiplied by, known to the compiler: a
/// type whose [`TILER`](StaticTiler::TILER) constant holds a [`TilerCode`], the static twin
/// of [`Tiler`](crate::Tiler). A static layout ([`LayoutT`], [`Mode`]) is a layout tiler (a
/// 1-D function); a tuple of tilers applies by mode to the leading top-level modes, keeping
/// the trailing ones (CuTe's `Tile<…>`); [`Leaf<N>`](crate::Leaf) is `N:1`, so a static
/// shape `shape_t!(4, 8)` is CuTe's shape tiler `<4:1, 8:1>`; [`Keep`] keeps a mode.
///
/// ```
/// use strideweave::{Keep, StaticTiler, layout_t, shape_t};
/// assert_eq!(format!("{:?}", <shape_t!(4, 8)>::TILER), "TilerCode([4:1, 8:1])");
/// assert_eq!(format!("{:?}", <(layout_t!(2 : 3), Keep)>::TILER), "TilerCode([2:3, _])");
/// assert_eq!(format!("{:?}", <layout_t!((2, 2) : (1, 4))>::TILER), "TilerCode((2,2):(1,4))");
/// ```
pub trait StaticTiler: 'static {
    /// The tiler.
    const TILER: TilerCode;
}

/// Keep the mode unchanged: CuTe's `_` in a tiler ([`Tiler::Keep`](crate::Tiler::Keep)).
///
/// ```
/// use strideweave::{Keep, ZippedDivide, layout_t};
/// type Tiles = ZippedDivide<layout_t!((8, 6)), (layout_t!(2 : 1), Keep)>;
/// assert_eq!(Tiles::to_layout().to_string(), "((2,1),(4,6)):((1,0),(2,8))");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keep;

impl<L: StaticLayout> StaticTiler for LayoutT<L> {
    const TILER: TilerCode = TilerCode::layout(L::LAYOUT);
}

impl<const EXTENT: i64, const STRIDE: i64> StaticTiler for Mode<EXTENT, STRIDE> {
    const TILER: TilerCode = TilerCode::layout(<Self as StaticLayout>::LAYOUT);
}

impl StaticTiler for Keep {
    const TILER: TilerCode = TilerCode::KEEP;
}

impl StaticTiler for () {
    const TILER: TilerCode = TilerCode::by_mode(&[]);
}

macro_rules! tuples {
    ($(($($t:ident),+))+) => {$(
        impl<$($t: StaticLayout),+> StaticLayout for ($($t,)+) {
            const LAYOUT: LayoutCode = LayoutCode::tuple(&[$($t::LAYOUT),+]);
        }

        impl<$($t: StaticTiler),+> StaticTiler for ($($t,)+) {
            const TILER: TilerCode = TilerCode::by_mode(&[$($t::TILER),+]);
        }
    )+};
}

tuples! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
    (A, B, C, D, E, F, G, H, I)
    (A, B, C, D, E, F, G, H, I, J)
    (A, B, C, D, E, F, G, H, I, J, K)
    (A, B, C, D, E, F, G, H, I, J, K, L)
}

/// One layout tiler names the operation on one layout (`compose`), anything else the tiler
/// form (`compose_tiler`), as the run-time methods name themselves.
#[track_caller]
const fn by_tiler(
    one: &'static str,
    tiler: &'static str,
    a: &LayoutCode,
    t: &TilerCode,
    how: Split,
) -> LayoutCode {
    done(match (t.root_layout(), how) {
        (Some(b), Split::Compose) => compose_in(one, a, b),
        (Some(b), Split::Divide) => logical_divide_in(one, a, b),
        (Some(b), Split::Product) => logical_product_in(one, a, b),
        (None, _) => apply(tiler, a, t, 0, how),
    })
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::Compose<A, T> {
    const LAYOUT: LayoutCode = by_tiler(
        "compose",
        "compose_tiler",
        &A::LAYOUT,
        &T::TILER,
        Split::Compose,
    );
}

impl<A: StaticLayout, const N: usize> StaticLayout for op::Complement<A, N> {
    const LAYOUT: LayoutCode = done(complement_in("complement", &A::LAYOUT, N));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::LogicalDivide<A, T> {
    const LAYOUT: LayoutCode = by_tiler(
        "logical_divide",
        "logical_divide_tiler",
        &A::LAYOUT,
        &T::TILER,
        Split::Divide,
    );
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::LogicalProduct<A, T> {
    const LAYOUT: LayoutCode = by_tiler(
        "logical_product",
        "logical_product_tiler",
        &A::LAYOUT,
        &T::TILER,
        Split::Product,
    );
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::ZippedDivide<A, T> {
    const LAYOUT: LayoutCode = done(gathered(
        "zipped_divide",
        &A::LAYOUT,
        &T::TILER,
        Split::Divide,
        false,
        false,
    ));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::TiledDivide<A, T> {
    const LAYOUT: LayoutCode = done(gathered(
        "tiled_divide",
        &A::LAYOUT,
        &T::TILER,
        Split::Divide,
        false,
        true,
    ));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::FlatDivide<A, T> {
    const LAYOUT: LayoutCode = done(gathered(
        "flat_divide",
        &A::LAYOUT,
        &T::TILER,
        Split::Divide,
        true,
        true,
    ));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::ZippedProduct<A, T> {
    const LAYOUT: LayoutCode = done(gathered(
        "zipped_product",
        &A::LAYOUT,
        &T::TILER,
        Split::Product,
        false,
        false,
    ));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::TiledProduct<A, T> {
    const LAYOUT: LayoutCode = done(gathered(
        "tiled_product",
        &A::LAYOUT,
        &T::TILER,
        Split::Product,
        false,
        true,
    ));
}

impl<A: StaticLayout, B: StaticLayout> StaticLayout for op::BlockedProduct<A, B> {
    const LAYOUT: LayoutCode = A::LAYOUT.blocked_product(&B::LAYOUT);
}

impl<A: StaticLayout, B: StaticLayout> StaticLayout for op::RakedProduct<A, B> {
    const LAYOUT: LayoutCode = A::LAYOUT.raked_product(&B::LAYOUT);
}

/// The tiling, or the panic of its refusal (a compile error).
#[track_caller]
const fn tiling(r: std::result::Result<Tiling, CodeError>) -> Tiling {
    match r {
        Ok(t) => t,
        Err(e) => e.fail(),
    }
}

impl<A: StaticLayout, T: StaticTiler> op::LocalTile<A, T> {
    const TILING: Tiling = tiling(local_tile_in("local_tile", &A::LAYOUT, &T::TILER));
}

impl<A: StaticLayout, T: StaticTiler> StaticLayout for op::LocalTile<A, T> {
    const LAYOUT: LayoutCode = Self::TILING.layout;
}

impl<A: StaticLayout, Thr: StaticLayout> op::LocalPartition<A, Thr> {
    const TILING: Tiling = tiling(local_partition_in(
        "local_partition",
        &A::LAYOUT,
        &Thr::LAYOUT,
    ));
}

impl<A: StaticLayout, Thr: StaticLayout> StaticLayout for op::LocalPartition<A, Thr> {
    const LAYOUT: LayoutCode = Self::TILING.layout;
}

/// `A ∘ T`: composition with a layout ([`Layout::compose`]) or with a by-mode tiler
/// ([`Layout::compose_tiler`]), computed while the program is built; a composition the
/// run-time algebra refuses is a compile error with its message (the first line names the
/// operation and the values; the last note, the line that used the type).
///
/// ```
/// use strideweave::{Compose, layout_t};
/// type C = Compose<layout_t!((6, 2) : (8, 2)), layout_t!((4, 3) : (3, 1))>;
/// assert_eq!(C::to_layout().to_string(), "((2,2),3):((24,2),8)");
/// const I: i64 = C::index_of(5);
/// assert_eq!(I, 32);
/// ```
///
/// ```compile_fail
/// // error: compose: shape divisibility fails: 6 remaining elements of 6:1 do not split
/// //        evenly over 4 elements of the left operand's mode 4:1
/// use strideweave::{Compose, layout_t};
/// const I: i64 = Compose::<layout_t!((4, 6) : (1, 10)), layout_t!(6 : 1)>::index_of(0);
/// ```
pub type Compose<A, T> = LayoutT<op::Compose<A, T>>;

/// `complement(A, N)` ([`Layout::complement`]): the repetitions of `A` in `[0, N)`.
///
/// ```
/// use strideweave::{Complement, layout_t};
/// assert_eq!(Complement::<layout_t!(4 : 2), 24>::to_layout().to_string(), "(2,3):(1,8)");
/// ```
pub type Complement<A, const N: usize> = LayoutT<op::Complement<A, N>>;

/// `A / T` ([`Layout::logical_divide`], [`Layout::logical_divide_tiler`] for a by-mode tiler).
///
/// ```
/// use strideweave::{LogicalDivide, layout_t};
/// type D = LogicalDivide<layout_t!((4, 2, 3) : (2, 1, 8)), layout_t!(4 : 2)>;
/// assert_eq!(D::to_layout().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub type LogicalDivide<A, T> = LayoutT<op::LogicalDivide<A, T>>;

/// `zipped_divide(A, T)` ([`Layout::zipped_divide`]): `((tiles…), (rests…))`.
///
/// ```
/// use strideweave::{ZippedDivide, layout_t, shape_t};
/// type Z = ZippedDivide<layout_t!((12, 32)), shape_t!(4, 8)>;
/// assert_eq!(Z::to_layout().to_string(), "((4,8),(3,4)):((1,12),(4,96))");
/// ```
pub type ZippedDivide<A, T> = LayoutT<op::ZippedDivide<A, T>>;

/// `tiled_divide(A, T)` ([`Layout::tiled_divide`]): `((tiles…), rests…)`.
///
/// ```
/// use strideweave::{TiledDivide, layout_t, shape_t};
/// type Z = TiledDivide<layout_t!((12, 32)), shape_t!(4, 8)>;
/// assert_eq!(Z::to_layout().to_string(), "((4,8),3,4):((1,12),4,96)");
/// ```
pub type TiledDivide<A, T> = LayoutT<op::TiledDivide<A, T>>;

/// `flat_divide(A, T)` (CuTe's): `(tiles…, rests…)`, the zipped divide with both modes
/// spliced.
///
/// ```
/// use strideweave::{FlatDivide, layout_t, shape_t};
/// type Z = FlatDivide<layout_t!((12, 32)), shape_t!(4, 8)>;
/// assert_eq!(Z::to_layout().to_string(), "(4,8,3,4):(1,12,4,96)");
/// ```
pub type FlatDivide<A, T> = LayoutT<op::FlatDivide<A, T>>;

/// `A ⊗ T` ([`Layout::logical_product`], [`Layout::logical_product_tiler`] for a by-mode
/// tiler).
///
/// ```
/// use strideweave::{LogicalProduct, layout_t};
/// type P = LogicalProduct<layout_t!((2, 2) : (4, 1)), layout_t!(6 : 1)>;
/// assert_eq!(P::to_layout().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub type LogicalProduct<A, T> = LayoutT<op::LogicalProduct<A, T>>;

/// `zipped_product(A, T)` ([`Layout::zipped_product`]).
///
/// ```
/// use strideweave::{ZippedProduct, layout_t};
/// type P = ZippedProduct<layout_t!((3) : (1)), (layout_t!(6 : 1),)>;
/// assert_eq!(P::to_layout().to_string(), "((3),(6)):((1),(3))");
/// ```
pub type ZippedProduct<A, T> = LayoutT<op::ZippedProduct<A, T>>;

/// `tiled_product(A, T)` ([`Layout::tiled_product`]).
///
/// ```
/// use strideweave::{TiledProduct, layout_t};
/// type P = TiledProduct<layout_t!((3) : (1)), (layout_t!(6 : 1),)>;
/// assert_eq!(P::to_layout().to_string(), "((3),6):((1),3)");
/// ```
pub type TiledProduct<A, T> = LayoutT<op::TiledProduct<A, T>>;

/// `blocked_product(A, B)` ([`Layout::blocked_product`]).
///
/// ```
/// use strideweave::{BlockedProduct, layout_t};
/// type P = BlockedProduct<layout_t!((2, 5) : (5, 1)), layout_t!((3, 4))>;
/// assert_eq!(P::to_layout().to_string(), "((2,3),(5,4)):((5,10),(1,30))");
/// ```
pub type BlockedProduct<A, B> = LayoutT<op::BlockedProduct<A, B>>;

/// `raked_product(A, B)` ([`Layout::raked_product`]).
///
/// ```
/// use strideweave::{RakedProduct, layout_t};
/// type P = RakedProduct<layout_t!((2, 5) : (5, 1)), layout_t!((3, 4))>;
/// assert_eq!(P::to_layout().to_string(), "((3,2),(4,5)):((10,5),(30,1))");
/// ```
pub type RakedProduct<A, B> = LayoutT<op::RakedProduct<A, B>>;

/// CuTe's `local_tile(A, T, coord)` (`inner_partition`), its layout part: the layout of one
/// tile of `A` under tiler `T` (the tile's modes, then any trailing modes a by-mode tiler
/// does not reach), and its `offset`, where the tile at a tile coordinate starts. Tiles that would reach past `A`'s elements (a residue CuTe
/// leaves to predication) are a compile error naming the mode and both extents.
///
/// ```
/// use strideweave::{LocalTile, layout_t, shape_t};
/// // A 16×12 column-major matrix in 4×3 blocks: block (2, 1) starts at 8 + 3·16.
/// type Block = LocalTile<layout_t!((16, 12)), shape_t!(4, 3)>;
/// assert_eq!(Block::to_layout().to_string(), "(4,3):(1,16)");
/// const AT: i64 = Block::offset(&[2, 1]);
/// assert_eq!(AT, 56);
/// assert_eq!(AT + Block::index(&[1, 2]), <layout_t!((16, 12))>::index(&[9, 5]));
/// ```
pub type LocalTile<A, T> = LayoutT<op::LocalTile<A, T>>;

/// CuTe's `local_partition(A, Thr, thread)` (`outer_partition` by the thread layout's
/// shape), its layout part: the layout of the elements one thread holds across all tiles,
/// and its `offset`, where thread `thread`'s elements start (its coordinate in `Thr` is CuTe's `get_flat_coord`, stride-aware).
///
/// ```
/// use strideweave::{LocalPartition, layout_t};
/// // 8×8 elements over 2×4 threads, thread ids row-major: (2,4):(4,1).
/// type Mine = LocalPartition<layout_t!((8, 8)), layout_t!((2, 4) : (4, 1))>;
/// assert_eq!(Mine::to_layout().to_string(), "(4,2):(2,32)");
/// const T5: i64 = Mine::offset(5); // thread 5 is the coordinate (1, 1)
/// assert_eq!(T5, 1 + 8);
/// ```
pub type LocalPartition<A, Thr> = LayoutT<op::LocalPartition<A, Thr>>;

impl<A: StaticLayout, T: StaticTiler> LayoutT<op::LocalTile<A, T>> {
    /// Where the tile at `coord` starts in `A`: one tile coordinate per tiler entry (one for
    /// a layout tiler), each in `[0, tiles along that mode)`. Out of range it panics (a
    /// compile error in a `const` item).
    ///
    /// ```
    /// use strideweave::{LocalTile, layout_t, shape_t};
    /// type Block = LocalTile<layout_t!((8, 8)), shape_t!(4, 4)>;
    /// const AT: i64 = Block::offset(&[1, 1]);
    /// assert_eq!(AT, 4 + 32);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn offset(coord: &[i64]) -> i64 {
        match op::LocalTile::<A, T>::TILING.tile_offset("LocalTile::offset", coord) {
            Ok(i) => i,
            Err(e) => e.fail(),
        }
    }

    /// `offset`, a bad coordinate an error.
    ///
    /// ```
    /// use strideweave::{LocalTile, layout_t, shape_t};
    /// type Block = LocalTile<layout_t!((8, 8)), shape_t!(4, 4)>;
    /// assert_eq!(Block::try_offset(&[1, 2]).unwrap_err().to_string(),
    ///     "LocalTile::try_offset: tile coordinate 2 is outside mode 1 of the 2 tiles (valid: 0..2)");
    /// ```
    pub fn try_offset(coord: &[i64]) -> Result<i64> {
        op::LocalTile::<A, T>::TILING
            .tile_offset("LocalTile::try_offset", coord)
            .map_err(|e| e.to_error())
    }
}

impl<A: StaticLayout, Thr: StaticLayout> LayoutT<op::LocalPartition<A, Thr>> {
    /// Where thread `thread`'s elements start in `A`, `thread` in `[0, size(Thr))`. Out of
    /// range it panics (a compile error in a `const` item).
    ///
    /// ```
    /// use strideweave::{LocalPartition, layout_t};
    /// type Mine = LocalPartition<layout_t!((8, 8)), layout_t!(8 : 1)>;
    /// const T3: i64 = Mine::offset(3);
    /// assert_eq!(T3, 3);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn offset(thread: usize) -> i64 {
        match op::LocalPartition::<A, Thr>::TILING.thread_offset("LocalPartition::offset", thread) {
            Ok(i) => i,
            Err(e) => e.fail(),
        }
    }

    /// `offset`, a thread out of range an error.
    ///
    /// ```
    /// use strideweave::{LocalPartition, layout_t};
    /// type Mine = LocalPartition<layout_t!((8, 8)), layout_t!(8 : 1)>;
    /// assert_eq!(Mine::try_offset(8).unwrap_err().to_string(),
    ///     "LocalPartition::try_offset: thread 8 is outside the thread layout of size 8 (valid: 0..8)");
    /// ```
    pub fn try_offset(thread: usize) -> Result<i64> {
        op::LocalPartition::<A, Thr>::TILING
            .thread_offset("LocalPartition::try_offset", thread)
            .map_err(|e| e.to_error())
    }
}
