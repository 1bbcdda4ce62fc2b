//! Hierarchical layouts and CuTe's layout algebra: pure math, no tensors.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `int_tuple` | [`IntTuple`], the flat inline encoding and its node views |
//! | `shape` | [`Shape`], [`Stride`] |
//! | `core` | [`Layout`]: construction, size, reach, indexing |
//! | `indexer` | [`Indexer`]: ordinal → index with precomputed division (CuTe's `FastDivmod`) |
//! | `shift_plan` | the shift plan a layout keeps for `index_of` (power-of-two extents) |
//! | `injective` | injectivity decided from the strides, within a work budget |
//! | `notation` | `Display`/`Debug`/`FromStr` of layouts |
//! | `structure` | sub-layouts, concat, append, permute, broadcast, flatten |
//! | `tree` | [`Tree`] and tree rearrangement: `rearrange_tree` |
//! | `hier` | walks of hand-built hierarchies (`Tree`, `Tiler`) with an explicit stack |
//! | `coalesce` | coalesce, by-mode coalesce, filter |
//! | `compose` | composition with a layout, a shape or a by-mode tiler |
//! | `complement` | complement |
//! | `divide` | logical, zipped, tiled and flat divide |
//! | `partition` | the layout half of CuTe's tensor partitions: a zipped divide sliced at a coordinate, and the check that tiles stay inside a tensor |
//! | `thread` | layouts for threads: `tv` (CuTe's `make_layout_tv`), `with_shape`, `flat_coordinate` |
//! | `product` | logical, blocked, raked, zipped and tiled products |
//! | `inverse` | right and left inverse |
//! | `dim` | [`Dim`], the signed mode index of squeeze and unsqueeze |
//! | `fixed` | static layouts: [`LayoutCode`], [`StaticLayout`], [`LayoutT`] and CuTe's algebra as `const fn`s |
//! | `key` | [`Key`], one entry of a slice key |
//! | `picture` | pictures of a layout: text grid (CuTe's `print_layout`) and SVG; the printed axis the tensor printer shares |
//! | `views` | the layout half of tensor views: slice, reshape, affine composition, broadcast_in_dim, squeeze, reversal |

mod coalesce;
mod complement;
mod compose;
mod core;
mod dim;
mod divide;
mod fixed;
mod hier;
mod indexer;
mod injective;
mod inline_vec;
pub(crate) mod int_tuple;
mod inverse;
mod key;
mod notation;
pub(crate) mod partition;
pub(crate) mod picture;
mod product;
#[cfg(feature = "serde")]
mod serialize;
mod shape;
mod shift_plan;
mod structure;
mod thread;
mod tiler;
mod tree;
mod views;

pub use self::core::Layout;
pub(crate) use self::core::reach_from;
pub(crate) use coalesce::coalesce_modes;
pub use dim::Dim;
pub(crate) use dim::{clamp as clamp_dim, normalise_dim};
pub use fixed::{
    BlockedProduct, Complement, Compose, FlatDivide, Keep, LayoutCode, LayoutT, LocalPartition,
    LocalTile, LogicalDivide, LogicalProduct, MAX_LEAVES, MAX_TOKENS, Mode, RakedProduct,
    StaticLayout, StaticTiler, TiledDivide, TiledProduct, TilerCode, ZippedDivide, ZippedProduct,
};
pub use indexer::Indexer;
pub use int_tuple::{IntTuple, ProfileToken};
pub use key::Key;
pub use shape::{Shape, Stride};
pub use tiler::Tiler;
pub use tree::Tree;
pub use views::Sliced;

#[doc(hidden)]
pub mod __private {
    //! Constructors for values that a macro expansion has already checked at compile time.
    use super::{Layout, ProfileToken, Shape};

    /// A shape from its profile and extents, already checked (extents ≥ 1, size fits).
    pub fn shape(profile: &[ProfileToken], extents: &[i64], int_root: bool) -> Shape {
        Shape::from_valid(profile, extents, int_root)
    }

    /// A layout from its profile, extents and strides, already checked (congruent, extents
    /// ≥ 1, size and reach fit).
    pub fn layout(
        profile: &[ProfileToken],
        extents: &[i64],
        strides: &[i64],
        int_root: bool,
    ) -> Layout {
        Layout::from_valid(profile, extents, strides, int_root)
    }

    /// The keys of `s!`, as an array of the length written (also when it is 0).
    pub const fn keys<const N: usize>(keys: [super::Key; N]) -> [super::Key; N] {
        keys
    }

    /// An integer of any primitive integer type, as an `s!` key, bound or step.
    #[diagnostic::on_unimplemented(
        message = "s!: a key, slice bound or step must be an integer, found `{Self}`",
        label = "not an integer",
        note = "`s!` takes integer literals and integer expressions, e.g. `s![i, 1..n;2]`"
    )]
    pub trait KeyBound {
        /// The value as `i64`; beyond `i64` it saturates (and is then out of range).
        fn key_value(self) -> i64;
    }

    macro_rules! key_bound {
        ($($t:ty),*) => {$(
            impl KeyBound for $t {
                #[inline]
                fn key_value(self) -> i64 {
                    i64::try_from(self).unwrap_or(if self > 0 as $t { i64::MAX } else { i64::MIN })
                }
            }
        )*};
    }
    key_bound!(
        i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, i128, u128
    );

    impl<T: KeyBound + Copy> KeyBound for &T {
        #[inline]
        fn key_value(self) -> i64 {
            (*self).key_value()
        }
    }

    /// A key, bound or step of `s!` that is an expression rather than a literal.
    #[inline]
    pub fn key_bound(value: impl KeyBound) -> i64 {
        value.key_value()
    }
}
