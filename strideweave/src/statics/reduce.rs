//! What `reduce!` expands to call: the dispatch on the tensor's type, the static result
//! shape [`Reduced`], and the compile-time check of the reduction against the element type.
//!
//! The pattern's check is `rearrange!`'s ([`Check`], spanned at the pattern, run by the
//! engine with `Op::Reduce`). The reduction gets a second block-local type implementing
//! [`ReductionCheck<T>`] for every element type `T`, whose constant calls
//! [`check_reduction`] spanned at the reduction's name: for a `StaticTensor<T, _>` the
//! compiler evaluates it for `T` and refuses a reduction the dtype has not (`mean` of
//! integers, `sum` of bools, `max` of complex numbers) at the user's token; for a dynamic
//! `Tensor` the dtype is only known at run time (`T` is [`RuntimeShape`]) and the same rule is an
//! `Error`.

use std::marker::PhantomData;

use super::code::{Known, Partly, ShapeCode, StaticShape};
use super::compile::Outcome;
use super::dispatch::{
    Check, Compiled, Poisoned, RunStatic, RuntimeShape, ShapeInfo, Witness, compiled,
};
use super::tensor::StaticTensor;
use crate::dtype::{DType, Element};
use crate::error::Result;
use crate::ops::{Reduction, reduce_code};
use crate::pattern::{MSG_CAP, Msg};
use crate::tensor::Tensor;
use crate::{PartlyReduced, Reduced};

impl<S: StaticShape, P: Check<S>> StaticShape for Reduced<S, P> {
    const SHAPE: ShapeCode = match *Compiled::<S, P>::OUTCOME {
        Outcome::Ok(plan) => kept(plan.shape(), plan.nkept),
        _ => ShapeCode::POISONED,
    };
    type Extents = Known;
}

impl<S: StaticShape, P: Check<S>> StaticShape for PartlyReduced<S, P> {
    const SHAPE: ShapeCode = match *Compiled::<S, P>::OUTCOME {
        Outcome::Ok(plan) => kept(plan.shape(), plan.nkept),
        _ => ShapeCode::POISONED,
    };
    type Extents = Partly;
}

/// The result of a reduction's iteration space: its first `nkept` leaves. The engine writes
/// each reduced leaf as one top-level token after them, so the cut is exact for the shapes
/// it writes (not for an arbitrary shape).
pub(crate) const fn kept(mut shape: ShapeCode, nkept: usize) -> ShapeCode {
    let reduced = shape.nleaves as usize - nkept;
    shape.ntoks -= reduced as u8;
    shape.nleaves = nkept as u8;
    shape
}

/// The element type of a tensor as the compiler sees it: static, or known only at run time.
pub trait ElemInfo {
    /// The dtype, if static.
    const DTYPE: Option<DType>;
}

impl<T: Element> ElemInfo for T {
    const DTYPE: Option<DType> = Some(T::DTYPE);
}

impl ElemInfo for RuntimeShape {
    const DTYPE: Option<DType> = None;
}

/// The reduction of a `reduce!` call, checked against element type `T`.
pub struct Chosen<T>(Reduction, PhantomData<fn() -> T>);

/// Implemented by each `reduce!` expansion's block-local reduction type, in the caller's
/// code, for every element type: evaluating `CHECK` for a static element type refuses a
/// reduction the dtype has not, at the reduction's name.
pub trait ReductionCheck<T>: 'static {
    /// The reduction, checked.
    const CHECK: Chosen<T>;
}

/// Checks reduction `r` against `T`'s dtype when it is static: a refusal panics with the
/// message, which in const context is a compile error at the caller's location.
#[track_caller]
pub const fn check_reduction<T: ElemInfo>(r: Reduction) -> Chosen<T> {
    check_reduction_as::<T>("reduce!", r)
}

/// [`check_reduction`] for the macro `name` (`einops::reduce!`), which its message starts with.
#[track_caller]
pub const fn check_reduction_as<T: ElemInfo>(name: &str, r: Reduction) -> Chosen<T> {
    if let Some(d) = T::DTYPE
        && let Some(why) = r.refusal(d)
    {
        let mut buf = [0u8; MSG_CAP];
        let mut m = Msg::new(&mut buf);
        m.str(name);
        m.str(": ");
        m.str(d.name());
        m.str(" tensors have no `");
        m.str(r.name());
        m.str("`: ");
        m.str(why);
        let st = m.state();
        panic!("{}", st.text(&buf));
    }
    Chosen(r, PhantomData)
}

/// A tensor that `reduce!` with pattern `P` applies to.
#[diagnostic::on_unimplemented(
    message = "`reduce!` takes a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait ReduceView<P>: Sized {
    /// The shape as the compiler sees it.
    type Shape: ShapeInfo;
    /// The element type as the compiler sees it.
    type Elem: ElemInfo;
    /// `Result<StaticTensor<T, Reduced<S, P, _>>>` for a static tensor, `Result<Tensor>` for a
    /// dynamic one.
    type Output;
    /// Reduces by the pattern; `check` and `reduction` are the caller's evaluated checks.
    fn reduce_by(self, check: Witness<Self::Shape>, reduction: Chosen<Self::Elem>) -> Self::Output;
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S>> ReduceView<P> for StaticTensor<T, S> {
    type Shape = S;
    type Elem = T;
    type Output = Result<StaticTensor<T, <S::Extents as RunStatic>::Reduced<S, P>>>;
    fn reduce_by(self, _: Witness<S>, r: Chosen<T>) -> Self::Output {
        let op = const { <P as Check<S>>::PATTERN.op };
        let plan = || <S::Extents as RunStatic>::reduce_plan::<S, P>(&self.tensor);
        reduce_code(&self.tensor, op, plan, r.0).map(StaticTensor::new_unchecked)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S>> ReduceView<P> for &StaticTensor<T, S> {
    type Shape = S;
    type Elem = T;
    type Output = Result<StaticTensor<T, <S::Extents as RunStatic>::Reduced<S, P>>>;
    fn reduce_by(self, _: Witness<S>, r: Chosen<T>) -> Self::Output {
        let op = const { <P as Check<S>>::PATTERN.op };
        let plan = || <S::Extents as RunStatic>::reduce_plan::<S, P>(&self.tensor);
        reduce_code(&self.tensor, op, plan, r.0).map(StaticTensor::new_unchecked)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> ReduceView<P> for Tensor {
    type Shape = RuntimeShape;
    type Elem = RuntimeShape;
    type Output = Result<Tensor>;
    fn reduce_by(self, _: Witness<RuntimeShape>, r: Chosen<RuntimeShape>) -> Self::Output {
        reduce_code(
            &self,
            P::PATTERN.op,
            || compiled(&self, const { &<P as Check<RuntimeShape>>::PATTERN }),
            r.0,
        )
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> ReduceView<P> for &Tensor {
    type Shape = RuntimeShape;
    type Elem = RuntimeShape;
    type Output = Result<Tensor>;
    fn reduce_by(self, _: Witness<RuntimeShape>, r: Chosen<RuntimeShape>) -> Self::Output {
        reduce_code(
            self,
            P::PATTERN.op,
            || compiled(self, const { &<P as Check<RuntimeShape>>::PATTERN }),
            r.0,
        )
    }
}

/// What `reduce!` accepts, for the placeholder after a mistake the macro reports itself.
#[diagnostic::on_unimplemented(
    message = "`reduce!` takes a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait ReduceTarget: Sized {
    /// The placeholder result.
    type Poisoned;
    /// The placeholder (never run: the program does not compile).
    fn poisoned(self) -> Self::Poisoned;
}

/// The placeholder of a `reduce!` expansion whose pattern or reduction did not compile.
pub fn poisoned_reduce<X: ReduceTarget>(x: X) -> X::Poisoned {
    x.poisoned()
}

#[diagnostic::do_not_recommend]
impl ReduceTarget for RuntimeShape {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(Tensor::scalar(0u8))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> ReduceTarget for StaticTensor<T, S> {
    type Poisoned = Result<StaticTensor<T, Poisoned>>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(StaticTensor::new_unchecked(self.into_dynamic()))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> ReduceTarget for &StaticTensor<T, S> {
    type Poisoned = Result<StaticTensor<T, Poisoned>>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(StaticTensor::new_unchecked(self.as_dynamic().clone()))
    }
}

#[diagnostic::do_not_recommend]
impl ReduceTarget for Tensor {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(self)
    }
}

#[diagnostic::do_not_recommend]
impl ReduceTarget for &Tensor {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::{Complex32, Complex64};
    use crate::layout::Shape;

    const ALL: [Reduction; 6] = [
        Reduction::Sum,
        Reduction::Mean,
        Reduction::Max,
        Reduction::Min,
        Reduction::Prod,
        Reduction::LogSumExp,
    ];

    /// The compile-time rule refuses exactly what `Tensor::reduce` refuses, on every element
    /// type, with the runtime's reason.
    fn agree<T: Element>() {
        let shape: Shape = "(2,3)".parse().unwrap();
        let t = Tensor::zeros::<T>(&shape);
        for r in ALL {
            let runtime = t.reduce("a b -> a", r, &[]);
            let rule = r.refusal(T::DTYPE);
            assert_eq!(runtime.is_err(), rule.is_some(), "{r} of {}", T::DTYPE);
            if let (Err(e), Some(why)) = (runtime, rule) {
                let e = e.to_string();
                assert!(e.contains(why), "{r} of {}: {e} against {why}", T::DTYPE);
            }
        }
    }

    #[test]
    fn the_compile_time_dtype_rule_is_tensor_reduces() {
        agree::<f32>();
        agree::<f64>();
        agree::<i8>();
        agree::<u8>();
        agree::<i32>();
        agree::<i64>();
        agree::<bool>();
        agree::<Complex32>();
        agree::<Complex64>();
        #[cfg(feature = "half")]
        {
            agree::<half::f16>();
            agree::<half::bf16>();
        }
    }

    #[test]
    fn the_kept_shape_drops_the_reduced_leaves() {
        let s = ShapeCode::EMPTY
            .with_mode(
                ShapeCode::EMPTY
                    .with_mode(ShapeCode::leaf(2))
                    .with_mode(ShapeCode::leaf(3)),
            )
            .with_mode(ShapeCode::leaf(4))
            .with_mode(ShapeCode::leaf(5));
        assert_eq!(kept(s, 3).to_string(), "((2,3),4)");
        assert_eq!(kept(s, 2).to_string(), "((2,3))");
        let flat = ShapeCode::EMPTY
            .with_mode(ShapeCode::leaf(4))
            .with_mode(ShapeCode::leaf(5));
        assert_eq!(kept(flat, 0).to_string(), "()");
    }
}
