//! Differentiable operations of the user's own: [`Function`], as `torch.autograd.Function`.
//!
//! [`Function::apply`] runs the forward with recording off and attaches one node whose rule
//! calls the user's backward, so a user's operation takes part in the graph like a built-in
//! one: its inputs' versions are saved and checked by the traversal (plus the output's,
//! which the rule checks), views of leaves as inputs carry their gradients on, and the
//! gradients the user returns are checked (one per input, each of its input's dtype and
//! shape) before they move on.

use smallvec::SmallVec;

use crate::autograd::no_grad;
use crate::autograd::node::{self, Cotangents, Step};
use crate::error::{Error, Result};
use crate::kernels::num::{Num, with_num};
use crate::repr::Snapshot;
use crate::tensor::Tensor;
use crate::tensor::read::gather;

/// An operation with a backward of its own, as `torch.autograd.Function`: implement
/// [`forward`](Self::forward) and [`backward`](Self::backward) over tensors, and call
/// [`apply`](Self::apply) to run it and record it for autograd.
///
/// * `forward` runs with recording off (inside [`no_grad`](crate::no_grad)), so what it
///   computes is not recorded: the backward is yours alone.
/// * `backward` receives the inputs as they were given, the output, and the output's
///   cotangent (a compact tensor of the output's shape and dtype), and returns one
///   gradient per input (`None` where an input needs none). It runs with recording off too;
///   its gradients are checked (count, dtype, shape) and read through their layouts.
/// * As for every recorded operation, modifying an input (or the output) in place after
///   `apply` makes a later backward fail with a `Runtime` error naming the function.
///
/// ```
/// use strideweave::{autograd::Function, Result, Tensor};
///
/// /// `x²`, with its derivative written out.
/// struct Square;
///
/// impl Function for Square {
///     fn forward(&self, inputs: &[&Tensor]) -> Result<Tensor> {
///         inputs[0].mul(inputs[0])
///     }
///     fn backward(&self, inputs: &[&Tensor], _output: &Tensor, cotangent: &Tensor) -> Result<Vec<Option<Tensor>>> {
///         Ok(vec![Some(cotangent.mul(&inputs[0].mul_scalar(2.0)?)?)])
///     }
/// }
///
/// let x = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
/// x.set_requires_grad(true).unwrap();
/// let y = Square.apply(&[&x.reverse(0).unwrap()]).unwrap();
/// assert_eq!(y.to_vec::<f64>().unwrap(), [9.0, 4.0, 1.0]);
/// y.sum().unwrap().backward().unwrap();
/// assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [2.0, 4.0, 6.0]);
/// ```
pub trait Function {
    /// The output of the operation on `inputs`, computed with recording off.
    ///
    /// ```
    /// use strideweave::{autograd::Function, Result, Tensor};
    /// struct Double;
    /// impl Function for Double {
    ///     fn forward(&self, inputs: &[&Tensor]) -> Result<Tensor> {
    ///         assert!(!strideweave::is_grad_enabled()); // recording is off in here (under `apply`)
    ///         inputs[0].mul_scalar(2.0f32)
    ///     }
    ///     fn backward(&self, _: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
    ///         Ok(vec![Some(c.mul_scalar(2.0f32)?)])
    ///     }
    /// }
    /// let x = Tensor::arange::<f32>(&"2".parse().unwrap());
    /// x.set_requires_grad(true).unwrap();
    /// let y = Double.apply(&[&x]).unwrap(); // `apply` runs `forward` with recording off
    /// assert_eq!(y.to_vec::<f32>().unwrap(), [0.0, 2.0]);
    /// assert!(y.requires_grad()); // and records the result as `Double`'s
    /// assert!(strideweave::is_grad_enabled());
    /// ```
    fn forward(&self, inputs: &[&Tensor]) -> Result<Tensor>;

    /// One gradient per input (`None` where an input needs none), given the inputs, the
    /// output and the output's cotangent. A gradient must have its input's shape and dtype
    /// (any layout); an input without gradients (an integer tensor) takes `None`.
    ///
    /// ```
    /// use strideweave::{autograd::Function, Result, Tensor};
    /// /// `a·b + c`, elementwise.
    /// struct MulAdd;
    /// impl Function for MulAdd {
    ///     fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
    ///         x[0].mul(x[1])?.add(x[2])
    ///     }
    ///     fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
    ///         Ok(vec![Some(c.mul(x[1])?), Some(c.mul(x[0])?), Some(c.clone())])
    ///     }
    /// }
    /// let t = |v: f64| Tensor::from_vec(vec![v, v], &"2".parse().unwrap()).unwrap();
    /// let (a, b, c) = (t(2.0), t(3.0), t(1.0));
    /// let g = MulAdd.backward(&[&a, &b, &c], &t(7.0), &t(1.0)).unwrap();
    /// assert_eq!(g[0].as_ref().unwrap().to_vec::<f64>().unwrap(), [3.0, 3.0]);
    /// ```
    fn backward(
        &self,
        inputs: &[&Tensor],
        output: &Tensor,
        cotangent: &Tensor,
    ) -> Result<Vec<Option<Tensor>>>;

    /// The name the recorded node carries ([`Tensor::grad_op`]) and errors give: the
    /// type's name unless overridden.
    ///
    /// ```
    /// use strideweave::{autograd::Function, Result, Tensor};
    /// struct Identity;
    /// impl Function for Identity {
    ///     fn forward(&self, x: &[&Tensor]) -> Result<Tensor> { Ok(x[0].clone()) }
    ///     fn backward(&self, _: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
    ///         Ok(vec![Some(c.clone())])
    ///     }
    ///     fn name(&self) -> &'static str { "identity" }
    /// }
    /// let x = Tensor::zeros::<f64>(&"2".parse().unwrap());
    /// x.set_requires_grad(true).unwrap();
    /// assert_eq!(Identity.apply(&[&x]).unwrap().grad_op(), Some("identity"));
    /// ```
    fn name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    /// Runs [`forward`](Self::forward) with recording off and, when recording is on and an
    /// input takes part in autograd, records the result as this function's output: a later
    /// backward calls [`backward`](Self::backward) with the saved inputs and output (kept
    /// until that backward releases the graph). A floating or complex output is recorded;
    /// another dtype's is returned unrecorded, as every operation does.
    ///
    /// Errors of `forward` are returned as they are. Backward fails (`Runtime`) when an
    /// input or the output was modified in place since, and names the function when its
    /// gradients do not fit: not one per input (`Value`), another dtype (`Type`), another
    /// shape (`Value`), or a gradient for an input without gradients (`Runtime`).
    ///
    /// ```
    /// use strideweave::{autograd::Function, Result, Tensor};
    /// struct Square;
    /// impl Function for Square {
    ///     fn forward(&self, x: &[&Tensor]) -> Result<Tensor> { x[0].mul(x[0]) }
    ///     fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
    ///         Ok(vec![Some(c.mul(&x[0].mul_scalar(2.0)?)?)])
    ///     }
    ///     fn name(&self) -> &'static str { "square" }
    /// }
    /// let x = Tensor::from_vec(vec![3.0f64], &"1".parse().unwrap()).unwrap();
    /// x.set_requires_grad(true).unwrap();
    /// let y = Square.apply(&[&x]).unwrap();
    /// x.set_ordinal(0, 4.0f64).unwrap(); // modified after it was saved
    /// let err = y.backward().unwrap_err();
    /// assert!(err.to_string().starts_with("backward: input 0 of `square`"));
    /// ```
    fn apply(self, inputs: &[&Tensor]) -> Result<Tensor>
    where
        Self: Sized + Send + Sync + 'static,
    {
        record(self, inputs)
    }
}

/// [`Function::apply`]: the forward with recording off, then the node.
fn record<F: Function + Send + Sync + 'static>(f: F, inputs: &[&Tensor]) -> Result<Tensor> {
    let out = {
        let _off = no_grad();
        f.forward(inputs)?
    };
    if !node::wants(inputs) {
        return Ok(out);
    }
    // A handle of its own (the forward may return an input, or a tensor someone else holds),
    // so that the node is attached to this result alone; the rule keeps another, without a
    // node, so that no cycle forms through the graph.
    let out = out.detach();
    let name = f.name();
    let saved = Output {
        snapshot: out.snapshot(),
        tensor: out.detach(),
    };
    let rule = node::rule(move |step| run_backward(&f, name, &saved, step));
    Ok(node::attach(out, name, inputs, rule))
}

/// The output a function's node keeps for its backward, with its carriers' versions.
struct Output {
    tensor: Tensor,
    snapshot: Snapshot,
}

/// The rule of a function's node: the user's backward on the cotangent as a tensor, with
/// recording off, and its gradients checked and read as vectors.
fn run_backward<F: Function>(
    f: &F,
    name: &'static str,
    out: &Output,
    step: Step<'_>,
) -> Result<Cotangents> {
    let (op, cot, inputs, needs) = step.parts();
    let output = &out.tensor;
    if let Some((_, was, now)) = out.snapshot.changed() {
        return Err(Error::Runtime {
            op,
            detail: format!(
                "the output of `{name}` ({} tensor, layout {}) was modified in place after `{name}` saved it: its carrier was at version {was} when saved and is at version {now} now; recompute the forward pass after the modification",
                output.dtype(),
                output.layout()
            ),
        });
    }
    let cotangent = with_num!(cot.dtype(), T => Tensor::from_vec(T::cotangent(op, cot)?, output.shape())?,
        _ => unreachable!("cotangents are differentiable"));
    let refs: SmallVec<[&Tensor; 4]> = inputs.iter().collect();
    let grads = {
        let _off = no_grad();
        f.backward(&refs, output, &cotangent)?
    };
    if grads.len() != inputs.len() {
        return Err(Error::InvalidGradient {
            op,
            detail: format!(
                "the backward of `{name}` returned {} gradients for {} inputs; return one per input, None where an input needs none",
                grads.len(),
                inputs.len()
            ),
        });
    }
    let mut outs = Cotangents::new();
    for (k, ((g, x), &need)) in grads.iter().zip(inputs).zip(needs).enumerate() {
        let Some(g) = g else {
            outs.push(None);
            continue;
        };
        check_gradient(op, name, k, g, x)?;
        outs.push(match need {
            true => Some(with_num!(g.dtype(), T => T::dense(gather::<T>(g, op)?),
                _ => unreachable!("checked: the input's differentiable dtype"))),
            false => None,
        });
    }
    Ok(outs)
}

/// Fails unless `g`, the gradient `name`'s backward returned for input `k` (`x`), has
/// `x`'s dtype and shape, and `x` has gradients at all.
fn check_gradient(op: &'static str, name: &str, k: usize, g: &Tensor, x: &Tensor) -> Result<()> {
    if !x.dtype().is_differentiable() {
        return Err(Error::Runtime {
            op,
            detail: format!(
                "the backward of `{name}` returned a gradient for input {k}, a {} tensor, which has no gradient; return None for it",
                x.dtype()
            ),
        });
    }
    g.require_single(op)?;
    if g.dtype() != x.dtype() {
        return Err(Error::WrongType {
            op,
            expected: format!(
                "a {} gradient for input {k} of `{name}` (the input's dtype)",
                x.dtype()
            ),
            found: format!("a {} gradient", g.dtype()),
        });
    }
    if g.shape() != x.shape() {
        return Err(Error::InvalidGradient {
            op,
            detail: format!(
                "the backward of `{name}` returned a gradient of shape {} for input {k}, whose shape is {}",
                g.shape(),
                x.shape()
            ),
        });
    }
    Ok(())
}
