//! StrideWeave: hierarchical (CuTe-style) tensor layouts whose mistakes surface early.
//!
//! A [`Layout`] maps the coordinates of a hierarchical [`Shape`] to integers through a
//! congruent [`Stride`]. Layouts compose, divide, multiply and invert as in CuTe's algebra,
//! print in CuTe's notation, parse back, and reject every invalid input with an [`Error`]
//! that names the operation, the mode and the values — never a panic.
//!
//! A [`Tensor`] reads a shared, typed [`Carrier`] through an offset and a layout. Its views
//! (permute, [`slice`](Tensor::slice) with [`s!`](macro@s), reshape, broadcasts,
//! [`rearrange`](Tensor::rearrange) with einops' patterns) never copy; storage is made only
//! by named operations ([`materialize`](Tensor::materialize), arithmetic, matmul,
//! [`reduce`](Tensor::reduce), [`einsum`](Tensor::einsum), each with a form writing into a
//! tensor you provide). Gradients flow through views and operations ([`autograd`]).
//! A [`StaticTensor`] carries its shape in its type, so `rearrange!`, `reduce!`, `einsum!` and
//! arithmetic on it are checked by the compiler. [`typed`] borrows a slice as a typed strided
//! view, [`io`] maps `.npy` and safetensors files, and [`guide`] maps einops, numpy and CuTe
//! vocabulary onto this crate's.
//!
//! ```
//! use strideweave::{layout, Layout};
//! let l: Layout = layout!((2, (3, 4)) : (12, (1, 3)));
//! assert_eq!(l.to_string(), "(2,(3,4)):(12,(1,3))");
//! assert_eq!(l.index_of(5).unwrap(), 14); // ordinal 5 is the coordinate (1,(2,0))
//! // Tiles of every second element: 12 of them per tile, 2 tiles.
//! let tiles = l.logical_divide(&"12:2".parse().unwrap()).unwrap();
//! assert_eq!(tiles.to_string(), "(12,2):(1,12)");
//! ```
//!
//! # Cargo features
//!
//! | Feature | Default | What it adds |
//! |---|---|---|
//! | `parallel` | on | Copies, elementwise operations and reductions over 1 MiB or more, and large matrix products, split across rayon's thread pool; results are bit-identical to a serial run. |
//! | `gemm` | on | Matrix products of `f32`, `f64`, `Complex32` and `Complex64` in the `gemm` crate's packed SIMD kernels; without it they run in StrideWeave's own contraction loop (slower, a lighter build). |
//! | `half` | off | The `f16` and `bf16` element types (`DType::F16`, `DType::BF16`), their arithmetic, and their `.npy` and safetensors files. |
//! | `ndarray` | off | Zero-copy conversions between typed views and ndarray's views (`From`, `TryFrom`), and `ArrayD` conversions of tensors. |
//! | `serde` | off | [`Layout`], [`Shape`], [`Stride`] and [`IntTuple`] serialize as their notation string and deserialize from it. |
//! | `rand` | off | `Tensor::random_using` with rand's distributions; re-exports the `rand` and `rand_distr` crates. |
//!
//! On docs.rs every feature is on, and items that need one say which.
#![deny(missing_docs)]
// docs.rs (nightly, `--cfg docsrs`): badges "Available on crate feature …" on gated items.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)] // exceptions: docs/unsafe.md lists each with its safety argument and test. Total: 78 unsafe blocks and functions.

pub mod autograd;
mod budget;
pub mod carrier;
mod dtype;
pub mod einops;
mod error;
pub mod guide;
pub mod io;
mod kernels;
pub mod layout;
mod ops;
mod pattern;
mod repr;
mod statics;
mod tensor;
pub mod typed;
mod validation;

pub use autograd::{NoGradGuard, is_grad_enabled, no_grad, set_grad_enabled};
pub use carrier::{
    AllocError, Carrier, CarrierClass, CarrierStorage, HostStorage, MapOptions, StorageAllocator,
    StorageRequest,
};
pub use dtype::{Complex32, Complex64, DType, Element, HostSlice, HostSliceMut, Scalar};
pub use error::{Error, ErrorKind, Result};
pub use layout::{
    BlockedProduct, Complement, Compose, Dim, FlatDivide, Indexer, IntTuple, Keep, Key, Layout,
    LayoutCode, LayoutT, LocalPartition, LocalTile, LogicalDivide, LogicalProduct, Mode,
    ProfileToken, RakedProduct, Shape, Sliced, StaticLayout, StaticTiler, Stride, TiledDivide,
    TiledProduct, Tiler, TilerCode, Tree, ZippedDivide, ZippedProduct,
};
pub use repr::{Representation, Snapshot, Subtensor};
pub use statics::{
    Axes, AxisList, Dyn, Extents, Known, Leaf, MAX_AXES, MAX_LEAVES, MAX_TOKENS, Partly,
    RUNTIME_EXTENT, ShapeCode, StaticShape, StaticTensor,
};
/// The deepest nesting of any layout, shape, stride, tuple, tree or pattern: deeper input
/// is an [`Error`] naming the limit, never a stack overflow.
///
/// ```
/// use strideweave::{Layout, MAX_NESTING};
/// let deep = format!("{}2{}:1", "(".repeat(MAX_NESTING + 1), ")".repeat(MAX_NESTING + 1));
/// let err = deep.parse::<Layout>().unwrap_err();
/// assert!(err.to_string().starts_with("cannot parse layout: nesting deeper than 256 levels"));
/// ```
pub use strideweave_syntax::MAX_NESTING;

/// The static shape of a rearrangement's result: `S` rearranged by `P` (`rearrange!` and
/// `repeat!` alike).
///
/// ```
/// use strideweave::{StaticShape, StaticTensor, rearrange, shape_t};
/// fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
///     S::SHAPE.to_string()
/// }
/// let t = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
/// assert_eq!(shape_of(&rearrange!(t, "a b -> b 1 a")), "(3,1,2)");
/// ```
///
/// Defined at the crate root: its path is part of every debuginfo and symbol name of a chain
/// of results, which nest it once per call. `S` is fully static (every extent known); the
/// result of a source with `_` is a [`PartlyRearranged`].
pub struct Rearranged<S, P>(std::marker::PhantomData<S>, std::marker::PhantomData<P>);

/// The static shape of a rearrangement's result whose source `S` has extents known only at
/// run time (`_`): `rearrange!` and `repeat!` then return a `Result` of it (see [`Extents`]).
///
/// ```
/// use strideweave::{StaticShape, StaticTensor, rearrange, shape_t};
/// fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
///     S::SHAPE.to_string()
/// }
/// let t = StaticTensor::<f32, shape_t!(_, 512)>::zeros_with(&[3]).unwrap();
/// let v = rearrange!(&t, "b (h d) -> h b d", h = 8).unwrap();
/// assert_eq!(shape_of(&v), "(8,_,64)");
/// assert_eq!(v.shape().to_string(), "(8,3,64)");
/// ```
pub struct PartlyRearranged<S, P>(std::marker::PhantomData<S>, std::marker::PhantomData<P>);

/// The static shape of a matrix product's result, [`StaticTensor::matmul`] of static shapes
/// `A` and `B`: `A`'s row mode, then `B`'s column mode, each keeping its nesting.
///
/// ```
/// use strideweave::{MatMul, StaticShape, StaticTensor, shape_t};
/// type Rows = shape_t!((2, 3), 4);
/// type Cols = shape_t!(4, 5);
/// assert_eq!(<MatMul<Rows, Cols>>::SHAPE.to_string(), "((2,3),5)");
/// let c: StaticTensor<f32, MatMul<Rows, Cols>> =
///     StaticTensor::<f32, Rows>::zeros().matmul(&StaticTensor::<f32, Cols>::zeros()).unwrap();
/// assert_eq!(c.layout().to_string(), "((2,3),5):((1,2),6)");
/// ```
///
/// Defined at the crate root, like [`Rearranged`], because its path is part of every
/// debuginfo and symbol name of the results that nest it.
pub struct MatMul<A, B>(std::marker::PhantomData<A>, std::marker::PhantomData<B>);

/// The static shape of a contraction's result, [`StaticTensor::contract`] of static shapes
/// `A` and `B` along the [`Axes`] lists `L` and `R`: the modes of `A` that `L` does not
/// name, in order, then those of `B` that `R` does not name, each keeping its nesting
/// ([`StaticTensor::outer`]'s result is the contraction along no axes).
///
/// ```
/// use strideweave::{Axes, Contracted, StaticShape, StaticTensor, shape_t};
/// type A = shape_t!(2, (3, 1), 4);
/// type B = shape_t!(4, 5);
/// assert_eq!(<Contracted<A, B, Axes<2>, Axes<0>>>::SHAPE.to_string(), "(2,(3,1),5)");
/// let c: StaticTensor<f32, Contracted<A, B, Axes<2>, Axes<0>>> = StaticTensor::<f32, A>::zeros()
///     .contract::<Axes<2>, Axes<0>, _>(&StaticTensor::<f32, B>::zeros())
///     .unwrap();
/// assert_eq!(c.shape().to_string(), "(2,(3,1),5)");
/// ```
///
/// Defined at the crate root, like [`MatMul`], because its path is part of every debuginfo
/// and symbol name of the results that nest it.
pub struct Contracted<A, B, L, R>(
    std::marker::PhantomData<A>,
    std::marker::PhantomData<B>,
    std::marker::PhantomData<L>,
    std::marker::PhantomData<R>,
);

/// The static shape of an [`einsum!`](crate::einsum) result on static operands: pattern `P`
/// (the macro's block-local type) applied to operand shapes `A` and `B` (`B` is `()` for the
/// one-input form). Its [`SHAPE`](StaticShape::SHAPE) is computed at compile time by the
/// rearrangement engine: each input's side against its shape, the shared symbols' shapes
/// compared, the output side placing the output symbols' modes.
///
/// ```
/// use strideweave::{Einsummed, StaticShape, StaticTensor, einsum, shape_t};
/// fn shape_of<A: StaticShape, B: StaticShape, P>(_: &StaticTensor<f32, Einsummed<A, B, P>>) -> String
/// where
///     Einsummed<A, B, P>: StaticShape,
/// {
///     <Einsummed<A, B, P>>::SHAPE.to_string()
/// }
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
/// let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
/// let c = einsum!(&a, &b, "i k, k j -> j 1 i").unwrap();
/// assert_eq!(shape_of(&c), "(4,1,2)");
/// ```
///
/// Defined at the crate root, like [`Rearranged`], because its path is part of every
/// debuginfo and symbol name of the results that nest it.
pub struct Einsummed<A, B, P>(
    std::marker::PhantomData<A>,
    std::marker::PhantomData<B>,
    std::marker::PhantomData<P>,
);

/// The static shape of a reduction's result, `reduce!` of a `StaticTensor<T, S>` by pattern
/// `P`: the kept symbols, arranged as the right side says (the reduced ones are gone; an
/// empty right side gives the rank-0 shape `()`).
///
/// ```
/// use strideweave::{Reduced, StaticShape, StaticTensor, reduce, shape_t};
/// fn shape_of<S: StaticShape>(_: &StaticTensor<f32, S>) -> String {
///     S::SHAPE.to_string()
/// }
/// let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
/// let m = reduce!(&t, "a b c -> (c a)", sum).unwrap();
/// assert_eq!(shape_of(&m), "((4,2))");
/// let all = reduce!(&t, "a b c ->", max).unwrap();
/// assert_eq!(shape_of(&all), "()");
/// assert_eq!(all.item().unwrap(), 23.0);
/// ```
///
/// Defined at the crate root, like [`Rearranged`], because its path is part of every
/// debuginfo and symbol name of the results that nest it.
pub struct Reduced<S, P>(std::marker::PhantomData<S>, std::marker::PhantomData<P>);

/// The static shape of a `reduce!` result whose source `S` has extents known only at run time
/// (`_`), as [`PartlyRearranged`] is for [`Rearranged`].
///
/// ```
/// use strideweave::{StaticShape, StaticTensor, reduce, shape_t};
/// let t = StaticTensor::<f32, shape_t!(_, 4)>::arange_with(&[3]).unwrap();
/// let m = reduce!(&t, "b c -> c", sum).unwrap();
/// assert_eq!(m.to_vec().unwrap(), [3.0, 12.0, 21.0, 30.0]);
/// ```
pub struct PartlyReduced<S, P>(std::marker::PhantomData<S>, std::marker::PhantomData<P>);
pub use ops::Reduction;
/// The `rand` crate StrideWeave was built with (feature `rand`), for
/// [`Tensor::random_using`]'s generators.
#[cfg(feature = "rand")]
pub use rand;
/// The `rand_distr` crate StrideWeave was built with (feature `rand`): `StandardNormal`,
/// `Uniform`, `Normal`, … for [`Tensor::random_using`].
#[cfg(feature = "rand")]
pub use rand_distr;
pub use strideweave_macros::{
    einsum, layout, layout_t, rearrange, reduce, repeat, s, shape, shape_t,
};
pub use tensor::{Indexed, Tensor, TensorView};
pub use typed::{
    ColMajorView, DynRank, Host, MemoryKind, Placement, Rank, StaticLayoutView, StridedSliceSpec,
    TensorLayout, TensorRank, TensorRead, TypedTensor, TypedTensorView,
};
pub use validation::{ValidationError, ValidationKind};

/// The README's tour, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeTour;

#[doc(hidden)]
pub mod __private {
    //! What macro expansions call. Not part of the public API.
    pub use crate::layout::__private::*;
    pub use crate::statics::__private::*;

    /// The engine's nested result of `einops::rearrange` (`repeat`: `einops::repeat`), each
    /// right-side group one tuple of its leaves fastest first: `materialize` of it, reshaped
    /// to einops' shape, is einops' copy where the view is refused (the tests check it).
    pub fn einops_nested(
        t: &crate::Tensor,
        repeat: bool,
        pattern: &str,
        sizes: &[(&str, i64)],
    ) -> crate::Result<crate::Tensor> {
        let op = if repeat {
            crate::pattern::Op::EinopsRepeat
        } else {
            crate::pattern::Op::EinopsRearrange
        };
        crate::einops::nested(t, op, pattern, sizes)
    }
}
