//! Recorded operations: what a forward call saves (its tensor inputs and the versions of
//! their carriers, to detect a later mutation) and the rule that maps the result's cotangent to the inputs' cotangents.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use smallvec::SmallVec;

use crate::autograd::{is_grad_enabled, participates};
use crate::error::Result;
use crate::kernels::num::Dense;
use crate::repr::Snapshot;
use crate::tensor::Tensor;

/// One cotangent (or none) per saved input.
pub(crate) type Cotangents = SmallVec<[Option<Dense>; 2]>;

/// What a backward rule receives.
pub(crate) struct Step<'a> {
    /// The operation the user called (`backward`, `grad`): every error names it.
    pub(crate) op: &'static str,
    /// The result's cotangent, in first-mode-fastest order.
    pub(crate) cot: Dense,
    /// The saved inputs.
    pub(crate) inputs: &'a [Tensor],
    /// Whether each input takes part in autograd.
    pub(crate) needs: &'a [bool],
}

impl<'a> Step<'a> {
    /// The operation, the cotangent, the inputs and their needs, in one tuple.
    pub(crate) fn parts(self) -> (&'static str, Dense, &'a [Tensor], &'a [bool]) {
        (self.op, self.cot, self.inputs, self.needs)
    }
}

/// The backward rule of one recorded operation.
pub(crate) trait Rule: Send + Sync {
    /// Maps the step's cotangent to one cotangent per saved input, in the order of that
    /// input's shape; a rule may skip the inputs that do not take part (returning `None`).
    fn backward(&self, step: Step<'_>) -> Result<Cotangents>;

    /// Whether input `k`'s cotangent is the result's cotangent unchanged (an identity
    /// backward: `add`'s for both inputs, `sub`'s and `add_scalar`'s for the first). When
    /// it holds for every input that takes part, the traversal hands the cotangent on
    /// where it lies (a caller's tensor stays a tensor, no vector is made), so a chain of
    /// views below writes it into the gradient in one pass.
    fn passes_through(&self, _k: usize) -> bool {
        false
    }

    /// The rule as a view's, for the traversal's fusion of view chains.
    fn view(&self) -> Option<&crate::autograd::view::ViewRule> {
        None
    }
}

/// A closure of a [`Step`] is the backward rule of most operations: what it needs from the
/// forward call, it captures.
impl<F: Fn(Step<'_>) -> Result<Cotangents> + Send + Sync> Rule for F {
    fn backward(&self, step: Step<'_>) -> Result<Cotangents> {
        self(step)
    }
}

/// The closure `f` as a boxed backward rule (its argument's type inferred).
pub(crate) fn rule(
    f: impl Fn(Step<'_>) -> Result<Cotangents> + Send + Sync + 'static,
) -> Box<dyn Rule> {
    Box::new(f)
}

/// What a recorded operation saves until a backward releases it.
pub(crate) struct Saved {
    pub(crate) inputs: SmallVec<[Tensor; 2]>,
    pub(crate) versions: SmallVec<[Snapshot; 2]>,
    pub(crate) rule: Box<dyn Rule>,
}

/// A recorded operation, attached to its result. Released nodes stay attached (their result
/// remains a non-leaf) but hold nothing.
pub(crate) struct Node {
    pub(crate) op: &'static str,
    state: Mutex<Option<Saved>>,
}

impl Node {
    /// The saved state; `None` once released.
    pub(crate) fn state(&self) -> MutexGuard<'_, Option<Saved>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Drops the saved inputs, snapshots and rule.
    pub(crate) fn release(&self) {
        let taken = self.state().take();
        drop(taken);
    }
}

/// Whether an operation on `inputs` records a node: recording is on for this thread and an
/// input takes part in autograd. One flag load per input and one thread-local read.
#[inline]
pub(crate) fn wants(inputs: &[&Tensor]) -> bool {
    inputs.iter().any(|t| participates(t)) && is_grad_enabled()
}

/// Attaches a node for `op` to the fresh result `out`, saving `inputs` and their snapshots.
/// A non-differentiable result records nothing.
pub(crate) fn attach(
    mut out: Tensor,
    op: &'static str,
    inputs: &[&Tensor],
    rule: Box<dyn Rule>,
) -> Tensor {
    if !out.dtype().is_differentiable() {
        return out;
    }
    let node = Arc::new(Node {
        op,
        state: Mutex::new(Some(Saved {
            inputs: inputs.iter().map(|t| (*t).clone()).collect(),
            versions: inputs.iter().map(|t| t.snapshot()).collect(),
            rule,
        })),
    });
    // `out` was just created, so this handle is its only one.
    if let Some(inner) = Arc::get_mut(&mut out.inner) {
        inner.autograd.node = Some(node);
        inner.autograd.flag = AtomicBool::new(true);
    }
    out
}

impl Drop for Node {
    /// Drops the graph behind this node iteratively: a long chain of recorded operations
    /// would otherwise drop recursively, one stack frame group per operation.
    fn drop(&mut self) {
        let Some(saved) = self
            .state
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        else {
            return;
        };
        let mut stack: Vec<Tensor> = saved.inputs.into_iter().collect();
        while let Some(t) = stack.pop() {
            let Ok(inner) = Arc::try_unwrap(t.into_inner()) else {
                continue; // still shared: someone else drops it later
            };
            let Some(node) = inner.autograd.node else {
                continue;
            };
            if let Ok(mut node) = Arc::try_unwrap(node)
                && let Some(saved) = node
                    .state
                    .get_mut()
                    .unwrap_or_else(|p| p.into_inner())
                    .take()
            {
                stack.extend(saved.inputs);
            }
        }
    }
}
