//! What `rearrange!` and `repeat!` expand to call: the compile-time check, the dispatch on
//! the tensor's type, and the two runtime paths.
//!
//! An expansion declares a block-local pattern type `P` and implements [`Check<S>`] for it in
//! the caller's code, for every shape `S` (one impl: the pattern as data, `PATTERN`, and its
//! check, `CHECK`); `Check::CHECK` calls
//! [`check`], a `#[track_caller]` const fn, with the tokens spanned at the user's pattern. The
//! expansion passes `<P as Check<_>>::CHECK` to [`PatternView::apply`], whose signature ties
//! `_` to the tensor's shape: the compiler evaluates the constant for that shape in the
//! caller's body, so a failed check is reported at the user's line.

use std::marker::PhantomData;
use std::rc::Rc;

use super::code::{Known, Partly, ShapeCode, StaticShape};
use super::compile::{FixedPlan, Outcome, check_pattern, compile, message_into};
use super::tensor::StaticTensor;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::pattern::run::Plan;
use crate::pattern::{MSG_CAP, Msg, MsgState, PatternCode, keyword_value};
use crate::tensor::Tensor;
use crate::{PartlyRearranged, PartlyReduced, Rearranged, Reduced};

/// The shape of a tensor as the compiler sees it: static, or known only at run time.
pub trait ShapeInfo {
    /// The shape, if static.
    const INFO: Option<ShapeCode>;
}

impl<S: StaticShape> ShapeInfo for S {
    const INFO: Option<ShapeCode> = Some(S::SHAPE);
}

/// The shape of a dynamic [`Tensor`]: known only at run time (`reduce!` also takes it for a
/// dynamic tensor's element type, likewise known only at run time).
pub struct RuntimeShape;

impl ShapeInfo for RuntimeShape {
    const INFO: Option<ShapeCode> = None;
}

/// The shape after a failed check (or after a pattern that did not compile): later checks
/// accept it silently, so one mistake gives one error.
pub struct Poisoned;

impl StaticShape for Poisoned {
    const SHAPE: ShapeCode = ShapeCode::POISONED;
    type Extents = super::code::Known;
}

/// Proof that pattern `P` passed its check for shape `S`.
pub struct Witness<S>(pub(crate) PhantomData<fn() -> S>);

/// Implemented by each expansion's block-local pattern type, in the caller's code, for every
/// shape: the pattern as data, and its check, so that a failed check is reported there.
pub trait Check<S>: 'static {
    /// The pattern.
    const PATTERN: PatternCode;
    /// Evaluating this constant runs the check.
    const CHECK: Witness<S>;
}

/// The outcome of pattern `P` on shape `S`, computed once per pair.
pub struct Compiled<S, P>(PhantomData<S>, PhantomData<P>);

impl<S: ShapeInfo, P: Check<S>> Compiled<S, P> {
    /// The outcome, as a reference: the run-time code reads this one allocation (a
    /// reference taken of a by-value constant at each use would be one more constant, and one
    /// more copy of the plan, per call).
    pub const OUTCOME: &'static Outcome = &match S::INFO {
        Some(s) => compile(&s, &<P as Check<S>>::PATTERN),
        None => check_pattern(&<P as Check<S>>::PATTERN),
    };

    /// Writes the message of the mistake (when [`OUTCOME`](Compiled::OUTCOME) is `Err`)
    /// into `buf`.
    pub const fn message(buf: &mut [u8]) -> MsgState {
        message_into(S::INFO.as_ref(), &<P as Check<S>>::PATTERN, buf)
    }
}

/// Runs the check of `P` on `S`: a failure panics with the message, which in const context
/// is a compile error at the caller's (`#[track_caller]`) location.
#[track_caller]
pub const fn check<S: ShapeInfo, P: Check<S>>() -> Witness<S> {
    if let Outcome::Err = *Compiled::<S, P>::OUTCOME {
        let mut buf = [0u8; MSG_CAP];
        let m = Compiled::<S, P>::message(&mut buf);
        fail(m.text(&buf));
    }
    Witness(PhantomData)
}

/// Like [`check`], but fails only for a mistake about the term at `column` of the pattern:
/// the token form calls it once per term, each call spanned at its term, so the error
/// points at the exact term.
#[track_caller]
pub const fn check_at<S: ShapeInfo, P: Check<S>>(column: u32) {
    if let Outcome::Err = *Compiled::<S, P>::OUTCOME {
        let mut buf = [0u8; MSG_CAP];
        let m = Compiled::<S, P>::message(&mut buf);
        if m.anchor() == column {
            fail(m.text(&buf));
        }
    }
}

/// Checks the value of keyword `i` (a constant, `h = H`) alone: the expansion calls it first,
/// spanned at the constant, so that `H = 0` is reported at `H`, once.
///
/// ```
/// use strideweave::{Tensor, rearrange, shape};
/// const H: i64 = 2;
/// // The expansion of `h = H` calls `check_keyword::<_, P>(0)` at `H`.
/// let t = Tensor::arange::<f32>(&shape!(4, 3));
/// assert_eq!(rearrange!(&t, "(h w) c -> h w c", h = H).unwrap().shape(), &shape!(2, 2, 3));
/// ```
#[track_caller]
pub const fn check_keyword<S: ShapeInfo, P: Check<S>>(i: usize) {
    let p = &<P as Check<S>>::PATTERN;
    let mut buf = [0u8; MSG_CAP];
    let mut m = Msg::new(&mut buf);
    m.str(p.op.name());
    m.str(": ");
    m.mark();
    let start = m.state();
    if let Err(st) = keyword_value(p, i, &mut buf, start) {
        fail(st.text(&buf));
    }
}

#[track_caller]
const fn fail(message: &str) -> ! {
    panic!("{}", message)
}

impl<S: StaticShape, P: Check<S>> StaticShape for Rearranged<S, P> {
    // Written out here and below, not shared: each constant costs an evaluation per call.
    const SHAPE: ShapeCode = match *Compiled::<S, P>::OUTCOME {
        Outcome::Ok(plan) => plan.shape(),
        _ => ShapeCode::POISONED,
    };
    type Extents = Known;
}

impl<S: StaticShape, P: Check<S>> StaticShape for PartlyRearranged<S, P> {
    const SHAPE: ShapeCode = match *Compiled::<S, P>::OUTCOME {
        Outcome::Ok(plan) => plan.shape(),
        _ => ShapeCode::POISONED,
    };
    type Extents = Partly;
}

/// What `rearrange!` and `repeat!` accept: `Tensor`, `StaticTensor` and references to them.
#[diagnostic::on_unimplemented(
    message = "`rearrange!` and `repeat!` take a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait Target: Sized {
    /// The placeholder result after a pattern that did not compile.
    type Poisoned;
    /// The placeholder (never run: the program does not compile).
    fn poisoned(self) -> Self::Poisoned;
}

/// A tensor that pattern `P` applies to.
#[diagnostic::on_unimplemented(
    message = "`rearrange!` and `repeat!` take a `Tensor` or a `StaticTensor` (or a reference to one), not `{Self}`",
    label = "not a tensor"
)]
pub trait PatternView<P>: Sized {
    /// The shape as the compiler sees it.
    type Shape: ShapeInfo;
    /// `StaticTensor<T, Rearranged<S, P>>` for a static tensor, `Result<Tensor>` for a
    /// dynamic one.
    type Output;
    /// Applies the pattern; `check` is the caller's evaluated check.
    fn apply(self, check: Witness<Self::Shape>) -> Self::Output;
}

/// The placeholder for a call whose tensor could not be read.
#[diagnostic::do_not_recommend]
impl Target for RuntimeShape {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(Tensor::scalar(0u8))
    }
}

/// The placeholder of an expansion whose pattern did not compile.
pub fn poisoned<X: Target>(x: X) -> X::Poisoned {
    x.poisoned()
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> Target for StaticTensor<T, S> {
    type Poisoned = StaticTensor<T, Poisoned>;
    fn poisoned(self) -> Self::Poisoned {
        StaticTensor::new_unchecked(self.into_dynamic())
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> Target for &StaticTensor<T, S> {
    type Poisoned = StaticTensor<T, Poisoned>;
    fn poisoned(self) -> Self::Poisoned {
        StaticTensor::new_unchecked(self.as_dynamic().clone())
    }
}

#[diagnostic::do_not_recommend]
impl Target for Tensor {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(self)
    }
}

#[diagnostic::do_not_recommend]
impl Target for &Tensor {
    type Poisoned = Result<Tensor>;
    fn poisoned(self) -> Self::Poisoned {
        Ok(self.clone())
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S>> PatternView<P> for StaticTensor<T, S> {
    type Shape = S;
    type Output = <S::Extents as RunStatic>::View<T, S, P>;
    // Inlined even in debug builds: one function less to emit per call (0.17 M instructions
    // of rustc per call in scripts/compile_cost.sh).
    #[inline(always)]
    fn apply(self, _: Witness<S>) -> Self::Output {
        <S::Extents as RunStatic>::view::<T, S, P>(&self.tensor)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape, P: Check<S>> PatternView<P> for &StaticTensor<T, S> {
    type Shape = S;
    type Output = <S::Extents as RunStatic>::View<T, S, P>;
    // Inlined even in debug builds: one function less to emit per call (0.17 M instructions
    // of rustc per call in scripts/compile_cost.sh).
    #[inline(always)]
    fn apply(self, _: Witness<S>) -> Self::Output {
        <S::Extents as RunStatic>::view::<T, S, P>(&self.tensor)
    }
}

/// How a pattern `P` runs on a static tensor of shape `S`, by `S`'s [`Extents`](crate::Extents) (whose
/// supertrait this is): by the compiler's plan alone ([`Known`]: infallible, a
/// [`Rearranged`] result), or by that plan placed on the tensor's run-time extents
/// ([`Partly`]: a `Result` of a [`PartlyRearranged`]). Implemented for the two only.
pub trait RunStatic {
    /// What `rearrange!`/`repeat!` return.
    type View<T: Element, S: StaticShape, P: Check<S>>;
    /// The static shape of a rearrangement's result ([`Rearranged`] or [`PartlyRearranged`]).
    type Rearranged<S: StaticShape, P: Check<S>>: StaticShape;
    /// The static shape of a reduction's result ([`Reduced`] or [`PartlyReduced`]).
    type Reduced<S: StaticShape, P: Check<S>>: StaticShape;
    /// The view of `t` (whose shape is `S`).
    fn view<T: Element, S: StaticShape, P: Check<S>>(t: &Tensor) -> Self::View<T, S, P>;
    /// The view of `t` as a dynamic tensor (for the einops macros' groups).
    fn view_tensor<S: StaticShape, P: Check<S>>(t: &Tensor) -> Result<Tensor>;
    /// The plan of a reduction of `t` (whose shape is `S`).
    fn reduce_plan<S: StaticShape, P: Check<S>>(t: &Tensor) -> Result<Plan>;
}

impl RunStatic for Known {
    type View<T: Element, S: StaticShape, P: Check<S>> = StaticTensor<T, Rearranged<S, P>>;
    type Rearranged<S: StaticShape, P: Check<S>> = Rearranged<S, P>;
    type Reduced<S: StaticShape, P: Check<S>> = Reduced<S, P>;
    #[inline(always)]
    fn view<T: Element, S: StaticShape, P: Check<S>>(t: &Tensor) -> Self::View<T, S, P> {
        // Generic code per call stays this small: no helper calls (each would be one more
        // instantiation per call) and no constant of its own (each costs the compiler an
        // evaluation and an allocation per call); the work is in `checked_view`.
        let outcome = Compiled::<S, P>::OUTCOME;
        StaticTensor {
            tensor: checked_view(t, outcome),
            marker: PhantomData,
        }
    }
    fn view_tensor<S: StaticShape, P: Check<S>>(t: &Tensor) -> Result<Tensor> {
        let outcome = Compiled::<S, P>::OUTCOME;
        Ok(checked_view(t, outcome))
    }
    fn reduce_plan<S: StaticShape, P: Check<S>>(_: &Tensor) -> Result<Plan> {
        let outcome = Compiled::<S, P>::OUTCOME;
        Ok(checked(outcome).to_run_time())
    }
}

impl RunStatic for Partly {
    type View<T: Element, S: StaticShape, P: Check<S>> =
        Result<StaticTensor<T, PartlyRearranged<S, P>>>;
    type Rearranged<S: StaticShape, P: Check<S>> = PartlyRearranged<S, P>;
    type Reduced<S: StaticShape, P: Check<S>> = PartlyReduced<S, P>;
    fn view<T: Element, S: StaticShape, P: Check<S>>(t: &Tensor) -> Self::View<T, S, P> {
        Partly::view_tensor::<S, P>(t).map(StaticTensor::new_unchecked)
    }
    fn view_tensor<S: StaticShape, P: Check<S>>(t: &Tensor) -> Result<Tensor> {
        let outcome = Compiled::<S, P>::OUTCOME;
        let placed = placed_plan(t, outcome, const { &<P as Check<S>>::PATTERN }, &S::SHAPE)?;
        let op = <P as Check<S>>::PATTERN.op.name();
        t.require_single(op)?;
        t.view_by(op, &placed)
    }
    fn reduce_plan<S: StaticShape, P: Check<S>>(t: &Tensor) -> Result<Plan> {
        let outcome = Compiled::<S, P>::OUTCOME;
        placed_plan(t, outcome, const { &<P as Check<S>>::PATTERN }, &S::SHAPE)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> PatternView<P> for Tensor {
    type Shape = RuntimeShape;
    type Output = Result<Tensor>;
    fn apply(self, _: Witness<RuntimeShape>) -> Self::Output {
        dynamic(&self, const { &<P as Check<RuntimeShape>>::PATTERN })
    }
}

#[diagnostic::do_not_recommend]
impl<P: Check<RuntimeShape>> PatternView<P> for &Tensor {
    type Shape = RuntimeShape;
    type Output = Result<Tensor>;
    fn apply(self, _: Witness<RuntimeShape>) -> Self::Output {
        dynamic(self, const { &<P as Check<RuntimeShape>>::PATTERN })
    }
}

/// The dynamic path: the engine of the compiler's check, on the runtime shape, with scratch
/// sized from it (no capacity).
///
/// ```
/// use strideweave::{Tensor, rearrange, shape};
/// let t = Tensor::arange::<f32>(&shape!(10, 4));
/// let err = rearrange!(&t, "(h w) c -> h w c", h = 3).unwrap_err();
/// assert_eq!(err.to_string(), "\
/// rearrange!: h = 3 does not divide extent 10 of mode 0, which the group `(h w)` on the left, term 0 splits
///   (h w) c -> h w c
///   ^^^^^
///   the tensor's shape is (10,4)");
/// ```
pub fn dynamic(t: &Tensor, p: &'static PatternCode) -> Result<Tensor> {
    t.require_single(p.op.name())?;
    t.view_by(p.op.name(), &*kept(t, p)?)
}

/// The plan of `p` compiled on `t`'s run-time shape by the engine of the compiler's check
/// (kept per thread: [`Plan::compile_kept`]); a mistake's message starts with the macro's
/// name and ends with the tensor's shape.
fn kept(t: &Tensor, p: &'static PatternCode) -> Result<Rc<Plan>> {
    let op = p.op.name();
    Plan::compile_kept(t.shape(), p, true).map_err(|detail| Error::InvalidRearrange { op, detail })
}

/// [`kept`]'s plan, owned.
pub(crate) fn compiled(t: &Tensor, p: &'static PatternCode) -> Result<Plan> {
    kept(t, p).map(|plan| (*plan).clone())
}

/// The plan the compiler computed for a static tensor.
pub(crate) fn checked(outcome: &Outcome) -> &FixedPlan {
    let Outcome::Ok(plan) = outcome else {
        unreachable!("the compiler checked this pattern")
    };
    plan
}

/// The static path: the view by the plan the compiler computed.
fn checked_view(t: &Tensor, outcome: &Outcome) -> Tensor {
    let plan = checked(outcome);
    // unreachable from user input: the compiler checked this rearrangement against the static shape, and the tensor has one subtensor.
    (t.view_by(plan.op.name(), plan))
        .expect("a checked rearrangement of a one-subtensor tensor is a valid view")
}

/// The compiler's plan of `p` on the static shape `code` (which has extents known only at run
/// time) placed on `t`'s run-time extents ([`Plan::with_runtime_extents`]): nothing else is
/// planned again. A failed check runs the engine on `t`'s shape, for the message the compiler
/// would have given.
fn placed_plan(
    t: &Tensor,
    outcome: &Outcome,
    p: &'static PatternCode,
    code: &ShapeCode,
) -> Result<Plan> {
    let plan = checked(outcome);
    match plan.with_runtime_extents(code.leaves(), t.shape().leaves()) {
        Some(placed) => Ok(placed),
        None => compiled(t, p),
    }
}
