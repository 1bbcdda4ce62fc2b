//! The definitions behind the result types of the algebra on static layouts: each a
//! [`StaticLayout`](crate::StaticLayout) whose constant runs the algebra (`types.rs`), reached
//! through the public aliases ([`Compose`](crate::Compose), …), which wrap them in
//! [`LayoutT`](crate::LayoutT). Their paths appear in compile errors, so they are short.

use std::marker::PhantomData;

/// `A ∘ T`.
pub struct Compose<A, T>(PhantomData<fn() -> (A, T)>);
/// `complement(A, N)`.
pub struct Complement<A, const N: usize>(PhantomData<fn() -> A>);
/// `A / T`.
pub struct LogicalDivide<A, T>(PhantomData<fn() -> (A, T)>);
/// `zipped_divide(A, T)`.
pub struct ZippedDivide<A, T>(PhantomData<fn() -> (A, T)>);
/// `tiled_divide(A, T)`.
pub struct TiledDivide<A, T>(PhantomData<fn() -> (A, T)>);
/// `flat_divide(A, T)`.
pub struct FlatDivide<A, T>(PhantomData<fn() -> (A, T)>);
/// `A ⊗ T`.
pub struct LogicalProduct<A, T>(PhantomData<fn() -> (A, T)>);
/// `zipped_product(A, T)`.
pub struct ZippedProduct<A, T>(PhantomData<fn() -> (A, T)>);
/// `tiled_product(A, T)`.
pub struct TiledProduct<A, T>(PhantomData<fn() -> (A, T)>);
/// `blocked_product(A, B)`.
pub struct BlockedProduct<A, B>(PhantomData<fn() -> (A, B)>);
/// `raked_product(A, B)`.
pub struct RakedProduct<A, B>(PhantomData<fn() -> (A, B)>);
/// `local_tile(A, T, _)`.
pub struct LocalTile<A, T>(PhantomData<fn() -> (A, T)>);
/// `local_partition(A, Thr, _)`.
pub struct LocalPartition<A, Thr>(PhantomData<fn() -> (A, Thr)>);
