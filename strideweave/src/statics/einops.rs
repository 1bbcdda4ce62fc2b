//! What the einops macros (`strideweave::einops::{rearrange!, repeat!, reduce!}`) expand to
//! call when their pattern has a group on the right: the default macros' check and run on
//! the mirrored pattern, then each right-side group made one mode at run time
//! (`tensor/groups.rs`), so the result is a `Result`; its static shape, [`Grouped`], has
//! each group flattened. Without a group on the right the einops macros expand to the
//! default macros' dispatch ([`PatternView`](super::dispatch::PatternView),
//! [`ReduceView`](super::reduce::ReduceView)) on the mirrored pattern.

use std::marker::PhantomData;

use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
use super::dispatch::{Check, RunStatic, RuntimeShape, ShapeInfo, Witness, dynamic};
use super::reduce::{Chosen, ElemInfo, ReduceView};
use super::tensor::StaticTensor;
use crate::dtype::Element;
use crate::error::Result;
use crate::pattern::{LEAF, PatternCode, TokKind, leaves_in, node_end};
use crate::tensor::Tensor;

/// The static shape of an einops macro's result whose pattern has a group on the right: the
/// default macro's result shape `S` (of the mirrored pattern `P`) with each right-side
/// group's nested mode flattened into one leaf, whose extent is the product of the group's
/// (an extent 0, "known at run time", stays 0).
///
/// ```
/// use strideweave::{StaticTensor, Tensor, einops, shape, shape_t};
/// // numpy's np.arange(24).reshape(2, 3, 4): row-major strides.
/// let x = Tensor::from_vec_row_major((0..24).map(|v| v as f32).collect(), &shape!(2, 3, 4)).unwrap();
/// let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::try_from_dynamic(x).unwrap();
/// let v = einops::rearrange!(&t, "b h w -> b (h w)").unwrap();
/// assert_eq!(v.shape().to_string(), "(2,12)");
/// let c: StaticTensor<f32, shape_t!(2, 12)> = v.cast();
/// assert_eq!(c.shape().to_string(), "(2,12)");
/// ```
pub struct Grouped<S, P>(PhantomData<S>, PhantomData<P>);

impl<S: StaticShape, P: Check<RuntimeShape>> StaticShape for Grouped<S, P> {
    const SHAPE: ShapeCode = grouped(S::SHAPE, &<P as Check<RuntimeShape>>::PATTERN);
    type Extents = S::Extents;
}

/// `shape` (the engine's result of `p`, mirrored) with each mode made by a top-level group of
/// `p`'s right side flattened into one leaf: the const twin of `tensor/groups.rs`'s shape
/// rule (a product of extents).
pub const fn grouped(shape: ShapeCode, p: &PatternCode) -> ShapeCode {
    if shape.poisoned || shape.int_root {
        return shape;
    }
    let right = &p.right;
    // The top-level terms and whether one is `...`.
    let (mut terms, mut ellipsis, mut i) = (0usize, false, 0usize);
    while i < right.len() {
        if matches!(right.kind(i), TokKind::Ellipsis) {
            ellipsis = true;
        }
        terms += 1;
        i = right.close(i) + 1;
    }
    // The top-level modes of the shape.
    let (mut modes, mut t) = (0usize, 0usize);
    while t < shape.ntoks as usize {
        modes += 1;
        t = node_end(shape.view(), t);
    }
    let k = if ellipsis {
        (modes + 1).saturating_sub(terms)
    } else {
        0
    };
    let mut out = ShapeCode {
        toks: [LEAF; MAX_TOKENS],
        ntoks: 0,
        extents: [0; MAX_LEAVES],
        nleaves: 0,
        ..shape
    };
    let (mut t, mut l, mut i) = (0usize, 0usize, 0usize);
    while i < right.len() && t < shape.ntoks as usize {
        let n = match right.kind(i) {
            TokKind::Ellipsis => k,
            _ => 1,
        };
        let mut m = 0;
        while m < n {
            let end = node_end(shape.view(), t);
            let nl = leaves_in(shape.view(), t, end);
            if matches!(right.kind(i), TokKind::Open) {
                let mut product = 1i64;
                let mut j = 0;
                while j < nl {
                    product *= shape.extents[l + j];
                    j += 1;
                }
                out.toks[out.ntoks as usize] = LEAF;
                out.ntoks += 1;
                out.extents[out.nleaves as usize] = product;
                out.nleaves += 1;
            } else {
                let mut j = t;
                while j < end {
                    out.toks[out.ntoks as usize] = shape.toks[j];
                    out.ntoks += 1;
                    j += 1;
                }
                let mut j = 0;
                while j < nl {
                    out.extents[out.nleaves as usize] = shape.extents[l + j];
                    out.nleaves += 1;
                    j += 1;
                }
            }
            t = end;
            l += nl;
            m += 1;
        }
        i = right.close(i) + 1;
    }
    out
}

/// A tensor that an einops `rearrange!`/`repeat!` with a group on the right (pattern `P`)
/// applies to.
#[diagnostic::on_unimplemented(
    message = "`einops::rearrange!` and `einops::repeat!` take a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait GroupedView<P>: Sized {
    /// The shape as the compiler sees it.
    type Shape: ShapeInfo;
    /// `Result<StaticTensor<T, Grouped<Rearranged<S, P>, P>>>` for a static tensor,
    /// `Result<Tensor>` for a dynamic one.
    type Output;
    /// Applies the pattern, then makes each right-side group one mode; `check` is the
    /// caller's evaluated check.
    fn apply_grouped(self, check: Witness<Self::Shape>) -> Self::Output;
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S> + Check<RuntimeShape>> GroupedView<P>
    for StaticTensor<T, S>
{
    type Shape = S;
    type Output = Result<StaticTensor<T, Grouped<<S::Extents as RunStatic>::Rearranged<S, P>, P>>>;
    fn apply_grouped(self, check: Witness<S>) -> Self::Output {
        // The view shares the carrier either way: the tensor is only read, by reference.
        GroupedView::<P>::apply_grouped(&self, check)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S> + Check<RuntimeShape>> GroupedView<P>
    for &StaticTensor<T, S>
{
    type Shape = S;
    type Output = Result<StaticTensor<T, Grouped<<S::Extents as RunStatic>::Rearranged<S, P>, P>>>;
    fn apply_grouped(self, _: Witness<S>) -> Self::Output {
        let p = &<P as Check<S>>::PATTERN;
        let v = <S::Extents as RunStatic>::view_tensor::<S, P>(&self.tensor)?;
        (v.einops_groups(p.op.name(), p, None, false)).map(StaticTensor::new_unchecked)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> GroupedView<P> for Tensor {
    type Shape = RuntimeShape;
    type Output = Result<Tensor>;
    fn apply_grouped(self, _: Witness<RuntimeShape>) -> Self::Output {
        grouped_dynamic(&self, const { &<P as Check<RuntimeShape>>::PATTERN })
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> GroupedView<P> for &Tensor {
    type Shape = RuntimeShape;
    type Output = Result<Tensor>;
    fn apply_grouped(self, _: Witness<RuntimeShape>) -> Self::Output {
        grouped_dynamic(self, const { &<P as Check<RuntimeShape>>::PATTERN })
    }
}

/// The dynamic path: the default macros' ([`dynamic`]), then the groups; a refused group's
/// message ends with the tensor's shape, as the macros' messages do.
fn grouped_dynamic(t: &Tensor, p: &'static PatternCode) -> Result<Tensor> {
    dynamic(t, p)?.einops_groups(p.op.name(), p, Some(t.shape()), false)
}

/// A tensor that `einops::reduce!` with a group on the right (pattern `P`) applies to.
#[diagnostic::on_unimplemented(
    message = "`einops::reduce!` takes a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait GroupedReduceView<P>: Sized {
    /// The shape as the compiler sees it.
    type Shape: ShapeInfo;
    /// The element type as the compiler sees it.
    type Elem: ElemInfo;
    /// `Result<StaticTensor<T, Grouped<<S::Extents as RunStatic>::Reduced<S, P>, P>>>` for a static tensor,
    /// `Result<Tensor>` for a dynamic one.
    type Output;
    /// Reduces by the pattern, then makes each right-side group one mode of the fresh result.
    fn reduce_grouped(
        self,
        check: Witness<Self::Shape>,
        reduction: Chosen<Self::Elem>,
    ) -> Self::Output;
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S> + Check<RuntimeShape>> GroupedReduceView<P>
    for StaticTensor<T, S>
{
    type Shape = S;
    type Elem = T;
    type Output = Result<StaticTensor<T, Grouped<<S::Extents as RunStatic>::Reduced<S, P>, P>>>;
    fn reduce_grouped(self, check: Witness<S>, r: Chosen<T>) -> Self::Output {
        // A reduction's result is fresh: the tensor is only read, by reference.
        GroupedReduceView::<P>::reduce_grouped(&self, check, r)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S> + Check<RuntimeShape>> GroupedReduceView<P>
    for &StaticTensor<T, S>
{
    type Shape = S;
    type Elem = T;
    type Output = Result<StaticTensor<T, Grouped<<S::Extents as RunStatic>::Reduced<S, P>, P>>>;
    fn reduce_grouped(self, check: Witness<S>, r: Chosen<T>) -> Self::Output {
        let p = &<P as Check<S>>::PATTERN;
        let v = ReduceView::<P>::reduce_by(self, check, r)?;
        (v.tensor.einops_groups(p.op.name(), p, None, true)).map(StaticTensor::new_unchecked)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> GroupedReduceView<P> for Tensor {
    type Shape = RuntimeShape;
    type Elem = RuntimeShape;
    type Output = Result<Tensor>;
    fn reduce_grouped(self, check: Witness<RuntimeShape>, r: Chosen<RuntimeShape>) -> Self::Output {
        GroupedReduceView::<P>::reduce_grouped(&self, check, r)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> GroupedReduceView<P> for &Tensor {
    type Shape = RuntimeShape;
    type Elem = RuntimeShape;
    type Output = Result<Tensor>;
    fn reduce_grouped(self, check: Witness<RuntimeShape>, r: Chosen<RuntimeShape>) -> Self::Output {
        let p = &<P as Check<RuntimeShape>>::PATTERN;
        ReduceView::<P>::reduce_by(self, check, r)?.einops_groups(p.op.name(), p, None, true)
    }
}

/// What `einops::einsum!` with a group on the output side (pattern `Q`, the output's view)
/// makes of einsum's result: each group one mode of the fresh result (a copy lays it out
/// when its strides do not merge), the static shape [`Grouped`].
pub trait EinsumGroups<Q>: Sized {
    /// `Result<StaticTensor<T, Grouped<S, Q>>>` for a static result, `Result<Tensor>` for a
    /// dynamic one.
    type Out;
    /// The groups made one mode each; errors name `name`.
    fn groups(self, name: &'static str) -> Self::Out;
}

impl<Q: Check<RuntimeShape>> EinsumGroups<Q> for Result<Tensor> {
    type Out = Result<Tensor>;
    fn groups(self, name: &'static str) -> Result<Tensor> {
        self?.einops_groups(name, &<Q as Check<RuntimeShape>>::PATTERN, None, true)
    }
}

impl<T: Element, S: StaticShape, Q: Check<RuntimeShape>> EinsumGroups<Q>
    for Result<StaticTensor<T, S>>
{
    type Out = Result<StaticTensor<T, Grouped<S, Q>>>;
    fn groups(self, name: &'static str) -> Self::Out {
        let p = &<Q as Check<RuntimeShape>>::PATTERN;
        (self?.tensor.einops_groups(name, p, None, true)).map(StaticTensor::new_unchecked)
    }
}

/// `einops::einsum!`'s groups on the output side (see [`EinsumGroups`]).
pub fn einsum_groups<Q, R: EinsumGroups<Q>>(result: R, name: &'static str) -> R::Out {
    result.groups(name)
}
