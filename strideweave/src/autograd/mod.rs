//! Reverse-mode gradients: [`Tensor::backward`](crate::Tensor::backward) and [`grad`] run
//! every recorded operation once, in topological order; a gradient buffer never aliases (a
//! tensor that aliases through broadcast modes receives, at each coordinate, the sum over
//! its aliases; other aliasing is refused); a mutation of a saved input makes backward fail
//! before any gradient changes.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `mod` | the per-tensor state (`Meta`), the thread-local recording switch, [`no_grad`], [`grad`] |
//! | `node` | recorded operations: saved inputs, their carriers' versions, a backward rule |
//! | `view` | the one backward rule of every view (a scatter-add through an ordinal map) |
//! | `cot` | cotangents while backward runs: contributions kept where they lie, written once |
//! | `backward` | the traversal: validate everything, propagate in topological order, commit |
//! | `buffer` | cotangent checks and gradient buffers (injective layouts, sums over aliases) |
//! | `tensor` | the `Tensor` methods: `backward`, `grad`, `set_requires_grad`, … |
//! | `function` | [`Function`]: an operation with a backward of the user's own, recorded like a built-in one |
//!
//! A recorded operation is a `node` attached to its result when the result is created; the
//! node keeps its inputs (and so the graph behind them) alive until a backward releases it.
//! A rule sees cotangents as dense vectors in the first-mode-fastest order of their
//! tensor's shape (or one value through stride 0, `sum`'s); between rules they stay where
//! they lie — a caller's cotangent in its tensor, a chain of views as its last view's
//! layout — and a gradient buffer is written from them in one strided pass.

mod backward;
mod buffer;
mod cot;
mod function;
pub(crate) mod node;
mod tensor;
pub(crate) mod view;

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::tensor::Tensor;

pub use function::Function;
pub(crate) use node::Node;

/// The autograd state of one tensor.
#[derive(Default)]
pub(crate) struct Meta {
    /// Whether the tensor takes part in autograd: a leaf that requires grad, or a result of
    /// a recorded operation. Views and operations read only this flag (and the thread-local
    /// switch) when they decide whether to record.
    pub(crate) flag: AtomicBool,
    /// Whether a non-leaf keeps its gradient (`retain_grad`).
    pub(crate) retain: AtomicBool,
    /// The accumulated gradient.
    pub(crate) grad: Mutex<Option<Tensor>>,
    /// The operation that produced this tensor; set once, when the tensor is created.
    pub(crate) node: Option<Arc<Node>>,
}

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// Whether operations on this thread record the autograd graph (on unless switched off).
///
/// ```
/// assert!(strideweave::is_grad_enabled());
/// let guard = strideweave::no_grad();
/// assert!(!strideweave::is_grad_enabled());
/// drop(guard);
/// assert!(strideweave::is_grad_enabled());
/// ```
#[inline]
pub fn is_grad_enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// Switches graph recording on or off for the current thread only.
///
/// ```
/// strideweave::set_grad_enabled(false);
/// assert!(!strideweave::is_grad_enabled());
/// strideweave::set_grad_enabled(true);
/// ```
pub fn set_grad_enabled(enabled: bool) {
    ENABLED.with(|c| c.set(enabled));
}

/// Switches graph recording off on this thread until the guard drops, then restores the
/// state seen on entry (also when unwinding). Views made meanwhile are detached leaves.
///
/// ```
/// use strideweave::{no_grad, Tensor};
/// let w = Tensor::from_vec(vec![1.0f64, 2.0], &"2".parse().unwrap()).unwrap();
/// w.set_requires_grad(true).unwrap();
/// let v = {
///     let _g = no_grad();
///     w.permute(&[0]).unwrap()
/// };
/// assert!(!v.requires_grad() && v.is_leaf());
/// assert!(w.permute(&[0]).unwrap().requires_grad());
/// ```
#[must_use = "recording resumes as soon as the guard is dropped"]
pub fn no_grad() -> NoGradGuard {
    let prev = is_grad_enabled();
    set_grad_enabled(false);
    NoGradGuard {
        prev,
        _thread: PhantomData,
    }
}

/// The guard of [`no_grad`]; restores the previous recording state when dropped. It stays on
/// the thread that created it (the state is thread-local).
///
/// ```
/// use strideweave::{NoGradGuard, is_grad_enabled, no_grad};
/// let guard: NoGradGuard = no_grad();
/// assert!(!is_grad_enabled());
/// drop(guard);
/// assert!(is_grad_enabled());
/// ```
#[derive(Debug)]
pub struct NoGradGuard {
    prev: bool,
    _thread: PhantomData<*const ()>,
}

impl Drop for NoGradGuard {
    fn drop(&mut self) {
        set_grad_enabled(self.prev);
    }
}

/// Gradients of `outputs` with respect to `inputs`, without reading or changing any `.grad`
/// (functional reverse mode).
///
/// `cotangents[k]` is the cotangent of `outputs[k]` (`None`: the unit cotangent of an output
/// of one element, as [`Tensor::backward`] uses). Each entry of the result is the gradient of the
/// matching input, in a fresh buffer laid out as `backward` would lay out its `.grad`, or
/// `None` when the traversal does not reach that input. The graph is released unless
/// `retain_graph`. Errors, always before any traversal effect: `Value` for mismatched counts
/// and invalid cotangents, `Type` for a cotangent of another dtype, `Runtime` for a
/// non-differentiable input or output (as everywhere a tensor without gradients is asked
/// for one), a released graph or a changed saved version, `NotImplemented` for
/// multi-subtensor tensors.
///
/// ```
/// use strideweave::{autograd, Tensor};
/// let x = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
/// x.set_requires_grad(true).unwrap();
/// let y = x.mul(&x).unwrap().sum().unwrap();
/// let g = autograd::grad(&[&y], &[&x], &[None], false).unwrap();
/// assert_eq!(g[0].as_ref().unwrap().to_vec::<f64>().unwrap(), [2.0, 4.0, 6.0]);
/// assert!(x.grad().is_none());
/// ```
pub fn grad(
    outputs: &[&Tensor],
    inputs: &[&Tensor],
    cotangents: &[Option<&Tensor>],
    retain_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    const OP: &str = "autograd::grad";
    if outputs.len() != cotangents.len() {
        return Err(Error::RankMismatch {
            op: OP,
            what: "cotangents (one per output)",
            expected: outputs.len(),
            found: cotangents.len(),
        });
    }
    for (k, t) in inputs.iter().enumerate() {
        t.require_single(OP)?;
        buffer::require_differentiable(OP, t, &format!("input {k}"))?;
    }
    let mut roots = Vec::with_capacity(outputs.len());
    for (t, c) in outputs.iter().zip(cotangents) {
        let cot = match c {
            None => buffer::unit_cotangent(OP, t)?,
            Some(_) => buffer::root_cotangent(OP, t, *c)?,
        };
        roots.push(((*t).clone(), cot));
    }
    backward::run(OP, roots, retain_graph, Some(inputs))
}

/// Whether a tensor takes part in autograd (one atomic load).
#[inline]
pub(crate) fn participates(t: &Tensor) -> bool {
    t.inner.autograd.flag.load(Ordering::Relaxed)
}

#[cfg(all(test, feature = "half"))]
mod half_tests {
    use crate::{Key, Tensor};

    #[test]
    fn f16_and_bf16_gradients_flow_through_views_and_arithmetic() {
        let v: Vec<half::f16> = (0..6).map(|i| half::f16::from_f64(i as f64)).collect();
        let x = Tensor::from_vec(v, &"(2,3)".parse().unwrap()).unwrap();
        x.set_requires_grad(true).unwrap();
        let row = x.slice(&[1.into(), Key::all()]).unwrap();
        row.mul(&row).unwrap().sum().unwrap().backward().unwrap();
        let g: Vec<f64> = x
            .grad()
            .unwrap()
            .to_vec::<half::f16>()
            .unwrap()
            .iter()
            .map(|v| v.to_f64())
            .collect();
        assert_eq!(g, [0.0, 2.0, 0.0, 6.0, 0.0, 10.0]);
        let b = Tensor::zeros::<half::bf16>(&"(2,2)".parse().unwrap());
        b.set_requires_grad(true).unwrap();
        b.matmul(&b.permute(&[1, 0]).unwrap())
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        assert_eq!(b.grad().unwrap().size(), 4);
    }
}
