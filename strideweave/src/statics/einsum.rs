//! What `einsum!` expands to call: the pattern as constant data ([`EinsumCode`]), its
//! compile-time check (for static operands: every input's shape against its side, the
//! extents of the symbols the inputs share, the result's shape), the dispatch on the
//! operands' types and the run-time work.
//!
//! The check reuses the static rearrangement engine three times: input `k`'s side is
//! compiled as the rearrangement `"<input k> -> <its symbols in order>"` on its static shape
//! (so its splits, keywords and rank are checked by the one rule, and the result's top-level
//! mode `m` is the shape of its `m`-th symbol); a symbol of both inputs must have one shape
//! there; the shape of the output's symbols, in order, is then rearranged by
//! `"<output symbols> -> <output side>"` into the result's shape. The compiler keeps these
//! plans ([`EinsumPlan`]); the run-time work applies them (for a dynamic operand: compiles the
//! same patterns on the run-time shapes) around [`Tensor::einsum`]'s contraction, with errors
//! starting `einsum!: `. Nothing is parsed at run time.

use std::marker::PhantomData;

use super::arith::same_mode;
use super::code::{Extents, MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
use super::compile::{FixedPlan, Outcome, check_pattern, compile, message_as};
use super::dispatch::{RuntimeShape, ShapeInfo, Witness};
use super::tensor::StaticTensor;
use crate::Einsummed;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::ops::{contract_views, plain, view_name};
use crate::pattern::run::Plan;
use crate::pattern::{MSG_CAP, Msg, MsgState, PatternCode, finish};
use crate::tensor::Tensor;

/// A symbol named by both inputs: where it is in each, and where to point in the pattern.
#[derive(Clone, Copy, Debug)]
///
/// ```
/// use strideweave::__private::SharedSymbol;
/// let k = SharedSymbol { name: "k", mode0: 1, mode1: 0, columns: (5, 6) };
/// assert_eq!(k.columns.1 - k.columns.0, 1);
/// ```
pub struct SharedSymbol {
    /// Its name.
    pub name: &'static str,
    /// Its position among input 0's symbols (the top-level mode of input 0's view).
    pub mode0: usize,
    /// Its position among input 1's symbols.
    pub mode1: usize,
    /// The columns (in characters) of its term in input 1.
    pub columns: (u32, u32),
}

/// An `einsum!` pattern as the macro emits it: constant data, checked by the macro against
/// the grammar (`strideweave_syntax::parse_einsum`).
///
/// ```
/// use strideweave::__private::EinsumCode;
/// assert!(EinsumCode::POISONED.poisoned);
/// assert_eq!(EinsumCode::POISONED.inputs.len(), 0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct EinsumCode {
    /// The macro's name, as messages start: `einsum!` or `einops::einsum!`.
    pub name: &'static str,
    /// The pattern as written.
    pub text: &'static str,
    /// Per input, `"<input> -> <its symbols in order>"` (quoting [`text`](Self::text)).
    pub inputs: &'static [PatternCode],
    /// `"<output symbols in order> -> <output side>"` (quoting [`text`](Self::text)).
    pub output: PatternCode,
    /// The symbols named by both inputs.
    pub shared: &'static [SharedSymbol],
    /// Per output symbol (in the order of `output`'s left side): the input whose mode gives
    /// its shape and that mode.
    pub out_modes: &'static [(usize, usize)],
    /// Whether the pattern holds `...` (refused for static operands).
    pub ellipsis: bool,
    /// The placeholder of a call that did not compile: every check passes silently.
    pub poisoned: bool,
}

impl EinsumCode {
    /// The pattern of a call that did not compile.
    pub const POISONED: EinsumCode = EinsumCode {
        name: "einsum!",
        text: "",
        inputs: &[],
        output: PatternCode {
            op: crate::pattern::Op::Rearrange,
            text: "",
            left: crate::pattern::Side {
                toks: &[],
                strings: "",
            },
            right: crate::pattern::Side {
                toks: &[],
                strings: "",
            },
            left_span: (0, 0),
            names: &[],
            keywords: &[],
        },
        shared: &[],
        out_modes: &[],
        ellipsis: false,
        poisoned: true,
    };
}

/// Implemented by each `einsum!` expansion's block-local pattern type, in the caller's code,
/// for every pair of operand shapes (`B` is `()` for one input): the pattern as data, and
/// its check, so that a failed check is reported there.
///
/// ```
/// use strideweave::{StaticTensor, einsum, shape_t};
/// // Each `einsum!` declares a type implementing it; a failed check is a build error.
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
/// assert_eq!(einsum!(&a, "i j -> j").unwrap().to_vec().unwrap(), [0.0; 3]);
/// ```
pub trait EinsumCheck<A, B>: 'static {
    /// The pattern.
    const CODE: EinsumCode;
    /// Evaluating this constant runs the check.
    const CHECK: Witness<(A, B)>;
}

/// Why a check failed (the message is written on demand by [`einsum_message`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// ```
/// use strideweave::__private::EinsumFailure;
/// assert_ne!(EinsumFailure::Input(0), EinsumFailure::Input(1));
/// ```
pub enum EinsumFailure {
    /// A keyword constant below 1, in input `k`'s pattern.
    Keyword(usize),
    /// `...` with static operands.
    Ellipsis,
    /// Input `k`'s shape does not fit its side.
    Input(usize),
    /// Shared symbol `i` has two shapes.
    Shared(usize),
    /// The result does not fit a static shape.
    Capacity,
    /// The output side does not place the symbols (only beyond a static shape's capacity).
    Output,
}

/// The plans the check computed for static operands, which the run-time work applies: each
/// input's view (its symbols as top-level modes; `None` for the missing second input) and the
/// output's, whose shape is the result's.
///
/// ```
/// use strideweave::{StaticTensor, einsum, shape_t};
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
/// // `einsum!` applies the compiler's plans for `"i j -> j"` on (2,3).
/// assert_eq!(einsum!(&a, "i j -> j").unwrap().to_vec().unwrap(), [0.0; 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EinsumPlan {
    /// Per input, its view's plan.
    pub inputs: [Option<FixedPlan>; 2],
    /// The output's plan.
    pub output: FixedPlan,
}

/// What the check decides (a constant the compiler keeps per call: boxing is not possible in
/// const context).
///
/// ```
/// use strideweave::__private::{EinsumCode, EinsumOutcome, decide_einsum};
/// assert_eq!(decide_einsum(None, None, &EinsumCode::POISONED), EinsumOutcome::Poisoned);
/// ```
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EinsumOutcome {
    /// Static operands: the plans, the output's holding the result's shape.
    Ok(EinsumPlan),
    /// A dynamic operand: the pattern's own checks passed; the rest happens at run time.
    Unchecked,
    /// An operand (or the pattern) is the result of an earlier failed check.
    Poisoned,
    /// A mistake.
    Err(EinsumFailure),
}

/// The outcome of pattern `P` on operand shapes `A` and `B`, computed once per triple.
///
/// ```
/// use strideweave::__private::{RuntimeShape, EinsumCompiled, EinsumOutcome, PoisonedEinsum};
/// assert_eq!(EinsumCompiled::<RuntimeShape, RuntimeShape, PoisonedEinsum>::OUTCOME, EinsumOutcome::Poisoned);
/// ```
pub struct EinsumCompiled<A, B, P>(PhantomData<A>, PhantomData<B>, PhantomData<P>);

impl<A: ShapeInfo, B: ShapeInfo, P: EinsumCheck<A, B>> EinsumCompiled<A, B, P> {
    /// The outcome.
    pub const OUTCOME: EinsumOutcome = decide(A::INFO, B::INFO, &P::CODE);
}

/// Input `k`'s view: its symbols' modes, in order.
const fn input_view(src: &ShapeCode, p: &PatternCode) -> Option<FixedPlan> {
    match compile(src, p) {
        Outcome::Ok(plan) => Some(plan),
        _ => None,
    }
}

/// The shape of the output's symbols (one top-level mode each), if a static shape holds it.
const fn symbols_shape(views: &[ShapeCode; 2], code: &EinsumCode) -> Option<ShapeCode> {
    let (mut leaves, mut toks, mut size) = (0usize, 0usize, 1i64);
    let mut i = 0;
    while i < code.out_modes.len() {
        let (k, m) = code.out_modes[i];
        let mode = views[k].mode(m);
        leaves += mode.leaves().len();
        toks += mode.ntoks as usize + if mode.is_int() { 0 } else { 2 };
        size = match mode.checked_size() {
            Some(s) => match size.checked_mul(s) {
                Some(v) => v,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    if leaves > MAX_LEAVES || toks > MAX_TOKENS {
        return None;
    }
    let mut c = ShapeCode::EMPTY;
    let mut i = 0;
    while i < code.out_modes.len() {
        let (k, m) = code.out_modes[i];
        c = c.with_mode(views[k].mode(m));
        i += 1;
    }
    Some(c)
}

/// The check: see the module's documentation. `None` is a dynamic operand.
///
/// ```
/// use strideweave::__private::{EinsumCode, EinsumOutcome, decide_einsum};
/// use strideweave::{StaticShape, shape_t};
/// let s = <shape_t!(2, 3)>::SHAPE;
/// assert_eq!(decide_einsum(Some(s), Some(s), &EinsumCode::POISONED), EinsumOutcome::Poisoned);
/// ```
pub const fn decide(
    a: Option<ShapeCode>,
    b: Option<ShapeCode>,
    code: &EinsumCode,
) -> EinsumOutcome {
    if code.poisoned {
        return EinsumOutcome::Poisoned;
    }
    let n = code.inputs.len();
    let mut k = 0;
    while k < n {
        if let Outcome::Err = check_pattern(&code.inputs[k]) {
            return EinsumOutcome::Err(EinsumFailure::Keyword(k));
        }
        k += 1;
    }
    let (Some(a), Some(b)) = (a, b) else {
        return EinsumOutcome::Unchecked;
    };
    if a.is_poisoned() || (n == 2 && b.is_poisoned()) {
        return EinsumOutcome::Poisoned;
    }
    if code.ellipsis {
        return EinsumOutcome::Err(EinsumFailure::Ellipsis);
    }
    let srcs = [a, b];
    let mut views = [ShapeCode::EMPTY; 2];
    let mut plans = [None; 2];
    let mut k = 0;
    while k < n {
        match input_view(&srcs[k], &code.inputs[k]) {
            Some(plan) => {
                views[k] = plan.shape();
                plans[k] = Some(plan);
            }
            None => return EinsumOutcome::Err(EinsumFailure::Input(k)),
        }
        k += 1;
    }
    let mut i = 0;
    while i < code.shared.len() {
        let s = &code.shared[i];
        if !same_mode(&views[0].mode(s.mode0), &views[1].mode(s.mode1)) {
            return EinsumOutcome::Err(EinsumFailure::Shared(i));
        }
        i += 1;
    }
    let Some(symbols) = symbols_shape(&views, code) else {
        return EinsumOutcome::Err(EinsumFailure::Capacity);
    };
    match compile(&symbols, &code.output) {
        Outcome::Ok(output) => EinsumOutcome::Ok(EinsumPlan {
            inputs: plans,
            output,
        }),
        _ => EinsumOutcome::Err(EinsumFailure::Output),
    }
}

/// Writes the message of `failure` (from [`decide`] on the same operands) into `buf`,
/// starting `einsum!: `.
///
/// ```
/// use strideweave::__private::{EinsumCode, EinsumFailure, MSG_CAP, einsum_message};
/// use strideweave::{StaticShape, shape_t};
/// let s = <shape_t!(2, 3)>::SHAPE;
/// let mut buf = [0u8; MSG_CAP];
/// let st = einsum_message(&s, &s, &EinsumCode::POISONED, EinsumFailure::Capacity, &mut buf);
/// assert!(st.text(&buf).starts_with("einsum!: the result is larger than a static shape holds"));
/// ```
pub const fn einsum_message(
    a: &ShapeCode,
    b: &ShapeCode,
    code: &EinsumCode,
    failure: EinsumFailure,
    buf: &mut [u8],
) -> MsgState {
    let n = code.inputs.len();
    if let EinsumFailure::Keyword(k) | EinsumFailure::Input(k) = failure
        && k < n
    {
        let src = match failure {
            EinsumFailure::Input(_) => Some(if k == 0 { a } else { b }),
            _ => None,
        };
        let input = if n == 2 { Some(k) } else { None };
        return message_as(src, &code.inputs[k], code.name, input, buf);
    }
    let mut m = Msg::new(buf);
    m.str(code.name);
    m.str(": ");
    let span = if n > 0 {
        code.inputs[0].left_span
    } else {
        (0, 0)
    };
    // A failure that does not belong to this code (never from `decide`).
    let foreign = match failure {
        EinsumFailure::Keyword(_) | EinsumFailure::Input(_) => true,
        EinsumFailure::Shared(i) => n < 2 || i >= code.shared.len(),
        _ => false,
    };
    if foreign {
        m.mark();
        m.str("no mistake");
        return m.state();
    }
    match failure {
        EinsumFailure::Ellipsis => {
            m.str("`...` is not supported with static operands (the modes it stands for are not symbols the check could compare); call einsum! on the dynamic tensors, e.g. `einsum!(a.as_dynamic(), b.as_dynamic(), \"…\")`, or name the modes");
            finish(m, &code.output, span.0, span.1)
        }
        EinsumFailure::Shared(i) => {
            let s = &code.shared[i];
            let v0 = input_view(a, &code.inputs[0]);
            let v1 = input_view(b, &code.inputs[1]);
            m.str("symbol `");
            m.str(s.name);
            m.str("` is ");
            if let (Some(v0), Some(v1)) = (v0, v1) {
                let (v0, v1) = (v0.shape(), v1.shape());
                m.shape(v0.mode(s.mode0).view());
                m.str(" in input 0 (shape ");
                m.shape(a.view());
                m.str(") but ");
                m.shape(v1.mode(s.mode1).view());
                m.str(" in input 1 (shape ");
                m.shape(b.view());
                m.str(")");
            }
            m.str("\n  a symbol of both inputs must have one shape in both (nothing broadcasts)");
            finish(m, &code.output, s.columns.0, s.columns.1)
        }
        // Capacity or Output (the others are written above).
        _ => {
            m.str(
                "the result is larger than a static shape holds (a size that fits in i64, at most ",
            );
            m.int(MAX_LEAVES as i64);
            m.str(" leaves and ");
            m.int(MAX_TOKENS as i64);
            m.str(" profile tokens); call einsum! on the dynamic tensors, e.g. `einsum!(a.as_dynamic(), b.as_dynamic(), \"…\")`");
            finish(m, &code.output, span.1, code.text.len() as u32)
        }
    }
}

/// Runs the check of `P` on `A` and `B`: a failure panics with the message, which in const
/// context is a compile error at the caller's (`#[track_caller]`) location, the pattern.
///
/// ```
/// use strideweave::__private::{RuntimeShape, PoisonedEinsum, Witness, check_einsum};
/// let _: Witness<(RuntimeShape, RuntimeShape)> = check_einsum::<RuntimeShape, RuntimeShape, PoisonedEinsum>();
/// ```
#[track_caller]
pub const fn check_einsum<A: ShapeInfo, B: ShapeInfo, P: EinsumCheck<A, B>>() -> Witness<(A, B)> {
    if let EinsumOutcome::Err(failure) = EinsumCompiled::<A, B, P>::OUTCOME {
        let mut buf = [0u8; MSG_CAP];
        let (a, b) = match (A::INFO, B::INFO) {
            (Some(a), Some(b)) => (a, b),
            _ => (ShapeCode::EMPTY, ShapeCode::EMPTY),
        };
        let st = einsum_message(&a, &b, &P::CODE, failure, &mut buf);
        panic!("{}", st.text(&buf));
    }
    Witness(PhantomData)
}

impl<A: StaticShape, B: StaticShape, P: EinsumCheck<A, B>> StaticShape for Einsummed<A, B, P> {
    const SHAPE: ShapeCode = match EinsumCompiled::<A, B, P>::OUTCOME {
        EinsumOutcome::Ok(plans) => plans.output.shape(),
        _ => ShapeCode::POISONED,
    };
    type Extents = <A::Extents as super::code::Extents>::Or<B::Extents>;
}

/// The kind of a static operand: its element type and static shape.
///
/// ```
/// use strideweave::__private::{EinsumOperand, Typed};
/// use strideweave::{StaticTensor, shape_t};
/// fn kind<X: EinsumOperand<Kind = Typed<f32, shape_t!(2)>>>(_: X) {}
/// kind(&StaticTensor::<f32, shape_t!(2)>::zeros());
/// ```
pub struct Typed<T, S>(PhantomData<fn() -> (T, S)>);

/// The kind of a dynamic operand.
///
/// ```
/// use strideweave::__private::{EinsumOperand, Untyped};
/// use strideweave::{Tensor, shape};
/// fn kind<X: EinsumOperand<Kind = Untyped>>(_: X) {}
/// kind(&Tensor::arange::<f32>(&shape!(2)));
/// ```
pub struct Untyped;

/// The kind of the missing second operand of a one-input `einsum!`.
///
/// ```
/// use strideweave::__private::{EinsumKinds, PoisonedEinsum, Single, Untyped};
/// fn picks<K: EinsumKinds<(), (), PoisonedEinsum>>() {}
/// picks::<(Untyped, Single)>();
/// ```
pub struct Single;

/// What `einsum!` accepts: `Tensor`, `StaticTensor` and references to them.
#[diagnostic::on_unimplemented(
    message = "`einsum!` takes `Tensor`s or `StaticTensor`s (or references to them), not `{Self}`",
    label = "not a tensor"
)]
///
/// ```
/// use strideweave::__private::EinsumOperand;
/// use strideweave::{Tensor, shape};
/// let t = Tensor::arange::<f32>(&shape!(2));
/// assert_eq!(EinsumOperand::tensor(&&t).shape(), &shape!(2));
/// ```
pub trait EinsumOperand {
    /// The shape as the compiler sees it.
    type Shape: ShapeInfo;
    /// [`Typed`] or [`Untyped`].
    type Kind;
    /// The tensor.
    fn tensor(&self) -> &Tensor;
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> EinsumOperand for StaticTensor<T, S> {
    type Shape = S;
    type Kind = Typed<T, S>;
    fn tensor(&self) -> &Tensor {
        &self.tensor
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: StaticShape> EinsumOperand for &StaticTensor<T, S> {
    type Shape = S;
    type Kind = Typed<T, S>;
    fn tensor(&self) -> &Tensor {
        &self.tensor
    }
}

#[diagnostic::do_not_recommend]
impl EinsumOperand for Tensor {
    type Shape = RuntimeShape;
    type Kind = Untyped;
    fn tensor(&self) -> &Tensor {
        self
    }
}

#[diagnostic::do_not_recommend]
impl EinsumOperand for &Tensor {
    type Shape = RuntimeShape;
    type Kind = Untyped;
    fn tensor(&self) -> &Tensor {
        self
    }
}

/// The result type of `einsum!` on operands of kinds `Self` (a `(first, second)` pair; the
/// second is [`Single`] for one input): a typed result when every operand is static.
///
/// ```
/// use strideweave::__private::{EinsumKinds, PoisonedEinsum, Untyped};
/// use strideweave::{Tensor, shape};
/// let a = Tensor::arange::<f32>(&shape!(2));
/// let r = <(Untyped, Untyped) as EinsumKinds<(), (), PoisonedEinsum>>::run(&[&a, &a]);
/// assert!(r.is_err());
/// ```
pub trait EinsumKinds<A, B, P> {
    /// `StaticTensor<T, Einsummed<A, B, P>>` or `Tensor`.
    type Output;
    /// The run-time work on the operands' tensors (one or two).
    fn run(tensors: &[&Tensor]) -> Result<Self::Output>;
}

/// Operand kinds `einsum!` accepts together: static operands of one element type, or any
/// operands of which one is dynamic. (A separate bound from [`EinsumKinds`], which is
/// implemented for any two static kinds, so that two element types are one error.)
#[diagnostic::on_unimplemented(
    message = "`einsum!` on static tensors of different element types: call it on the dynamic tensors (`a.as_dynamic()`), where `Tensor::einsum`'s dtype rule applies",
    label = "operands of different element types"
)]
///
/// ```
/// use strideweave::__private::{EinsumSameElement, Typed};
/// fn same<K: EinsumSameElement>() {}
/// same::<(Typed<f32, ()>, Typed<f32, ()>)>();
/// ```
pub trait EinsumSameElement {}

impl<T, A, B> EinsumSameElement for (Typed<T, A>, Typed<T, B>) {}
impl<T, A> EinsumSameElement for (Typed<T, A>, Single) {}
impl<T, A> EinsumSameElement for (Typed<T, A>, Untyped) {}
impl<K> EinsumSameElement for (Untyped, K) {}

impl<T: Element, U, A: StaticShape, B: StaticShape, P: EinsumCheck<A, B>> EinsumKinds<A, B, P>
    for (Typed<T, A>, Typed<U, B>)
{
    type Output = StaticTensor<T, Einsummed<A, B, P>>;
    fn run(tensors: &[&Tensor]) -> Result<Self::Output> {
        let outcome: &'static EinsumOutcome = const { &EinsumCompiled::<A, B, P>::OUTCOME };
        let EinsumOutcome::Ok(plans) = outcome else {
            return Err(poisoned_error());
        };
        // Operands with extents known only at run time place the compiler's plans on their
        // run-time extents (`run`).
        let runtime = <<A::Extents as Extents>::Or<B::Extents> as Extents>::RUNTIME;
        let statics: &'static [ShapeCode; 2] = const { &[A::SHAPE, B::SHAPE] };
        let tensor = run(&P::CODE, tensors, Some((plans, runtime.then_some(statics))))?;
        // unreachable from user input: the compiler's check and the run-time einsum follow one rule (tests/statics/einsum.rs compares them).
        debug_assert!(
            ShapeCode::from_shape(tensor.shape())
                .is_some_and(|c| <Einsummed<A, B, P>>::SHAPE.agrees(&c)),
            "einsum!: the static result shape agrees with the run-time one"
        );
        Ok(StaticTensor {
            tensor,
            marker: PhantomData,
        })
    }
}

impl<T: Element, A: StaticShape, P: EinsumCheck<A, ()>> EinsumKinds<A, (), P>
    for (Typed<T, A>, Single)
{
    type Output = StaticTensor<T, Einsummed<A, (), P>>;
    fn run(tensors: &[&Tensor]) -> Result<Self::Output> {
        <(Typed<T, A>, Typed<(), ()>) as EinsumKinds<A, (), P>>::run(tensors)
    }
}

impl<K, A, B, P: EinsumCheck<A, B>> EinsumKinds<A, B, P> for (Untyped, K) {
    type Output = Tensor;
    fn run(tensors: &[&Tensor]) -> Result<Tensor> {
        run(&P::CODE, tensors, None)
    }
}

impl<T, S, A, B, P: EinsumCheck<A, B>> EinsumKinds<A, B, P> for (Typed<T, S>, Untyped) {
    type Output = Tensor;
    fn run(tensors: &[&Tensor]) -> Result<Tensor> {
        run(&P::CODE, tensors, None)
    }
}

/// The run-time work: each input's view by its plan (the compiler's `plans` for static
/// operands, else `code`'s input patterns compiled on the run-time shapes), the contraction,
/// and the output's view. Static operands with extents known only at run time also pass
/// their static shapes: the compiler's plans are then placed on the run-time extents
/// (`Plan::with_runtime_extents`), and a failed check plans on the run-time shape for the
/// message.
fn run(
    code: &EinsumCode,
    tensors: &[&Tensor],
    plans: Option<(&EinsumPlan, Option<&[ShapeCode; 2]>)>,
) -> Result<Tensor> {
    let op = code.name;
    if code.inputs.len() != tensors.len() {
        // A pattern that did not compile has no inputs (its program does not compile).
        return Err(poisoned_error());
    }
    let compiled = |name: &'static str, shape, p: &PatternCode| {
        Plan::compile(shape, p, false)
            .map_err(|detail| Error::InvalidRearrange { op: name, detail })
    };
    let mut views = Vec::with_capacity(tensors.len());
    for (k, t) in tensors.iter().enumerate() {
        let name = view_name(op, k, tensors.len());
        let view = match plans.and_then(|(p, s)| Some((p.inputs[k].as_ref()?, s))) {
            Some((plan, None)) => t.view_by(name, plan)?,
            Some((plan, Some(statics))) => {
                let plan = placed(name, plan, &statics[k], t.shape(), &code.inputs[k])?;
                t.view_by(name, &plan)?
            }
            None => t.view_by(name, &compiled(name, t.shape(), &code.inputs[k])?)?,
        };
        views.push(view);
    }
    let symbols: Vec<&[&str]> = code.inputs.iter().map(|p| p.names).collect();
    let result = contract_views(op, &views, &symbols, code.output.names)?;
    if plain(&code.output.right) {
        return Ok(result);
    }
    match plans {
        Some((plans, None)) => result.view_by(op, &plans.output),
        Some((plans, Some(_))) => {
            // The symbols' static shape, from the compiler's views of the inputs.
            let mut views = [ShapeCode::EMPTY; 2];
            for (k, v) in plans.inputs.iter().enumerate() {
                views[k] = v.map_or(ShapeCode::EMPTY, |p| p.shape());
            }
            let plan = match symbols_shape(&views, code) {
                Some(symbols) => placed(op, &plans.output, &symbols, result.shape(), &code.output)?,
                None => compiled(op, result.shape(), &code.output)?,
            };
            result.view_by(op, &plan)
        }
        None => result.view_by(op, &compiled(op, result.shape(), &code.output)?),
    }
}

/// The compiler's `plan` of `p` on the static shape `planned` placed on `shape`'s run-time
/// extents; a failed check plans `p` on `shape`, for the message (errors name `op`).
fn placed(
    op: &'static str,
    plan: &FixedPlan,
    planned: &ShapeCode,
    shape: &crate::Shape,
    p: &PatternCode,
) -> Result<Plan> {
    match plan.with_runtime_extents(planned.leaves(), shape.leaves()) {
        Some(placed) => Ok(placed),
        None => {
            Plan::compile(shape, p, false).map_err(|detail| Error::InvalidRearrange { op, detail })
        }
    }
}

/// The error of a call that did not compile (never returned: the program does not compile).
fn poisoned_error() -> Error {
    Error::Runtime {
        op: "einsum!",
        detail: "the pattern did not compile".into(),
    }
}

/// The output type of `einsum!` on operands `X` and `Y` with pattern `P`.
///
/// ```
/// use strideweave::__private::{EinsumOutput, PoisonedEinsum};
/// use strideweave::{Result, Tensor};
/// let _: Option<EinsumOutput<PoisonedEinsum, Tensor, Tensor>> = None::<Result<Tensor>>;
/// ```
pub type EinsumOutput<P, X, Y> = Result<
    <(<X as EinsumOperand>::Kind, <Y as EinsumOperand>::Kind) as EinsumKinds<
        <X as EinsumOperand>::Shape,
        <Y as EinsumOperand>::Shape,
        P,
    >>::Output,
>;

/// The output type of `einsum!` on operand `X` alone with pattern `P`.
///
/// ```
/// use strideweave::__private::{EinsumOutput1, PoisonedEinsum};
/// use strideweave::{Result, Tensor};
/// let _: Option<EinsumOutput1<PoisonedEinsum, &Tensor>> = None::<Result<Tensor>>;
/// ```
pub type EinsumOutput1<P, X> =
    Result<<(<X as EinsumOperand>::Kind, Single) as EinsumKinds<<X as EinsumOperand>::Shape, (), P>>::Output>;

/// `einsum!(x, y, "…")`: the run-time work, typed by the operands' kinds.
///
/// ```
/// use strideweave::{Tensor, einsum, shape};
/// // `einsum!(a, b, …)` expands to a call of `einsum2` with its pattern type.
/// let a = Tensor::arange::<f32>(&shape!(2));
/// assert_eq!(einsum!(&a, &a, "i, i -> i").unwrap().to_vec::<f32>().unwrap(), [0.0, 1.0]);
/// ```
pub fn einsum2<P, X, Y>(x: X, y: Y, _: Witness<(X::Shape, Y::Shape)>) -> EinsumOutput<P, X, Y>
where
    X: EinsumOperand,
    Y: EinsumOperand,
    P: EinsumCheck<X::Shape, Y::Shape>,
    (X::Kind, Y::Kind): EinsumKinds<X::Shape, Y::Shape, P> + EinsumSameElement,
{
    <(X::Kind, Y::Kind)>::run(&[x.tensor(), y.tensor()])
}

/// `einsum!(x, "…")`: as [`einsum2`], with no second operand (`()`, a static empty shape,
/// stands for it).
///
/// ```
/// use strideweave::{Tensor, einsum, shape};
/// let a = Tensor::arange::<f32>(&shape!(2, 2));
/// assert_eq!(einsum!(&a, "i j -> i").unwrap().to_vec::<f32>().unwrap(), [2.0, 4.0]);
/// ```
pub fn einsum1<P, X>(x: X, _: Witness<(X::Shape, ())>) -> EinsumOutput1<P, X>
where
    X: EinsumOperand,
    P: EinsumCheck<X::Shape, ()>,
    (X::Kind, Single): EinsumKinds<X::Shape, (), P>,
{
    <(X::Kind, Single)>::run(&[x.tensor()])
}

/// The placeholder of an `einsum!` whose pattern did not compile: a value of the type a
/// compiled call would have (never run: the program does not compile).
///
/// ```
/// use strideweave::__private::{EinsumCheck, PoisonedEinsum};
/// assert!(<PoisonedEinsum as EinsumCheck<(), ()>>::CODE.poisoned);
/// ```
pub struct PoisonedEinsum;

impl<A, B> EinsumCheck<A, B> for PoisonedEinsum {
    const CODE: EinsumCode = EinsumCode::POISONED;
    const CHECK: Witness<(A, B)> = Witness(PhantomData);
}

/// The placeholder result of a two-operand `einsum!` that did not compile.
///
/// ```
/// use strideweave::{Tensor, shape};
/// let a = Tensor::arange::<f32>(&shape!(2));
/// assert!(strideweave::__private::poisoned2(&a, &a).is_err());
/// ```
pub fn poisoned2<X, Y>(_: X, _: Y) -> EinsumOutput<PoisonedEinsum, X, Y>
where
    X: EinsumOperand,
    Y: EinsumOperand,
    (X::Kind, Y::Kind): EinsumKinds<X::Shape, Y::Shape, PoisonedEinsum>,
{
    Err(poisoned_error())
}

/// The placeholder result of a one-operand `einsum!` that did not compile.
///
/// ```
/// use strideweave::{Tensor, shape};
/// let a = Tensor::arange::<f32>(&shape!(2));
/// assert!(strideweave::__private::poisoned1(&a).is_err());
/// ```
pub fn poisoned1<X>(_: X) -> EinsumOutput1<PoisonedEinsum, X>
where
    X: EinsumOperand,
    (X::Kind, Single): EinsumKinds<X::Shape, (), PoisonedEinsum>,
{
    Err(poisoned_error())
}
