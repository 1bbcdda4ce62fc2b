//! The gradient methods of `Tensor`.

use std::sync::atomic::Ordering;

use crate::autograd::{backward, buffer, participates};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

impl Tensor {
    /// Marks a leaf as requiring (or no longer requiring) gradients: operations and views on
    /// it record the graph from now on. Fails with `Runtime` for a dtype without gradients
    /// (only floating and complex tensors have them) and for switching off a non-leaf, and
    /// with `NotImplemented` for a multi-subtensor (block-scaled) tensor and for a tensor
    /// whose carrier is not a host carrier (a memory-mapped file, another storage class):
    /// gradients live in host carriers only, so such a tensor could never receive one;
    /// [`materialize`](Self::materialize) gives a host copy that can.
    ///
    /// ```
    /// use strideweave::{Carrier, CarrierStorage, DType, ErrorKind, HostSlice, HostSliceMut, Tensor};
    /// let w = Tensor::zeros::<f32>(&"3".parse().unwrap());
    /// w.set_requires_grad(true).unwrap();
    /// assert!(w.requires_grad());
    /// let i = Tensor::zeros::<i32>(&"3".parse().unwrap());
    /// assert_eq!(i.set_requires_grad(true).unwrap_err().kind(), ErrorKind::Runtime);
    ///
    /// // Weights in read-only storage of the caller's (as a read-only file map is).
    /// struct Frozen(Box<[f32]>);
    /// impl CarrierStorage for Frozen {
    ///     fn dtype(&self) -> DType { DType::F32 }
    ///     fn len(&self) -> usize { self.0.len() }
    ///     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    ///     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    ///     fn class_name(&self) -> &'static str { "frozen" }
    /// }
    /// let c = Carrier::from_storage(Frozen(vec![1.0, 2.0].into()));
    /// let frozen = Tensor::new(c, 0, "2:1".parse().unwrap()).unwrap();
    /// let err = frozen.set_requires_grad(true).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::NotImplemented);
    /// assert!(err.to_string().contains("frozen carrier") && err.to_string().contains("materialize()"));
    /// let w = frozen.materialize().unwrap();
    /// w.set_requires_grad(true).unwrap();
    /// ```
    pub fn set_requires_grad(&self, requires: bool) -> Result<()> {
        const OP: &str = "set_requires_grad";
        self.require_single(OP)?;
        let meta = &self.inner.autograd;
        if let Some(node) = &meta.node {
            if requires {
                return Ok(());
            }
            return Err(Error::Runtime {
                op: OP,
                detail: format!(
                    "this tensor is the result of `{}`, not a leaf; only a leaf's flag can change (use `detach()` for a leaf view of its values)",
                    node.op
                ),
            });
        }
        if requires {
            buffer::require_differentiable(OP, self, "this tensor")?;
            let class = self.carrier_class();
            if class.name() != "host" {
                return Err(Error::NotImplemented {
                    op: OP,
                    reason: format!(
                        "this tensor lives in a {class} carrier, which cannot hold gradients (they are allocated in host carriers only); call materialize() for a host copy and mark that copy"
                    ),
                });
            }
        }
        meta.flag.store(requires, Ordering::Relaxed);
        Ok(())
    }

    /// Whether the tensor takes part in autograd: a leaf marked with
    /// [`set_requires_grad`](Self::set_requires_grad), or the result of a recorded operation.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"2".parse().unwrap());
    /// assert!(!t.requires_grad());
    /// ```
    pub fn requires_grad(&self) -> bool {
        participates(self)
    }

    /// Whether no recorded operation produced this tensor (including every tensor made while
    /// recording was off).
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"2".parse().unwrap());
    /// t.set_requires_grad(true).unwrap();
    /// assert!(t.is_leaf() && !t.neg().unwrap().is_leaf());
    /// ```
    pub fn is_leaf(&self) -> bool {
        self.inner.autograd.node.is_none()
    }

    /// The name of the operation that produced this tensor, for a non-leaf.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"(2,3)".parse().unwrap());
    /// t.set_requires_grad(true).unwrap();
    /// assert_eq!(t.permute(&[1, 0]).unwrap().grad_op(), Some("permute"));
    /// ```
    pub fn grad_op(&self) -> Option<&'static str> {
        self.inner.autograd.node.as_ref().map(|n| n.op)
    }

    /// The accumulated gradient: a detached tensor in its own fresh carrier, laid out like
    /// this tensor when its layout is injective, compactly when it aliases through
    /// stride-zero modes (each coordinate then holds the sum over its aliases). `None` until
    /// a backward reaches this tensor (a leaf, or a non-leaf after
    /// [`retain_grad`](Self::retain_grad)).
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"2".parse().unwrap());
    /// assert!(t.grad().is_none());
    /// ```
    pub fn grad(&self) -> Option<Tensor> {
        self.inner
            .autograd
            .grad
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Forgets the accumulated gradient (`.grad()` is `None` again), so that the next
    /// backward starts from zero.
    ///
    /// ```
    /// let w = strideweave::Tensor::from_vec(vec![2.0f64], &"1".parse().unwrap()).unwrap();
    /// w.set_requires_grad(true).unwrap();
    /// w.mul(&w).unwrap().backward().unwrap();
    /// assert!(w.grad().is_some());
    /// w.zero_grad();
    /// assert!(w.grad().is_none());
    /// ```
    pub fn zero_grad(&self) {
        *self
            .inner
            .autograd
            .grad
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// Asks a non-leaf to keep the gradient that later backward calls propagate through it
    /// (accumulated like a leaf's). Leaves always keep theirs.
    ///
    /// ```
    /// let w = strideweave::Tensor::from_vec(vec![1.0f64, 2.0], &"2".parse().unwrap()).unwrap();
    /// w.set_requires_grad(true).unwrap();
    /// let h = w.mul_scalar(3.0).unwrap();
    /// h.retain_grad();
    /// h.sum().unwrap().backward().unwrap();
    /// assert_eq!(h.grad().unwrap().to_vec::<f64>().unwrap(), [1.0, 1.0]);
    /// ```
    pub fn retain_grad(&self) {
        self.inner.autograd.retain.store(true, Ordering::Relaxed);
    }

    /// Whether a non-leaf keeps its gradient ([`retain_grad`](Self::retain_grad)).
    ///
    /// ```
    /// assert!(!strideweave::Tensor::zeros::<f32>(&"1".parse().unwrap()).retains_grad());
    /// ```
    pub fn retains_grad(&self) -> bool {
        self.inner.autograd.retain.load(Ordering::Relaxed)
    }

    /// A leaf sharing this tensor's carriers and layout, outside any graph (requires no
    /// gradient until told to).
    ///
    /// ```
    /// let w = strideweave::Tensor::zeros::<f32>(&"2".parse().unwrap());
    /// w.set_requires_grad(true).unwrap();
    /// let d = w.neg().unwrap().detach();
    /// assert!(d.is_leaf() && !d.requires_grad());
    /// ```
    pub fn detach(&self) -> Tensor {
        Tensor::from_repr(self.representation().clone())
    }

    /// Reverse-mode differentiation from a tensor of one element — a loss — with the unit
    /// cotangent (`∂loss/∂loss = 1`); releases the graph it reached. Any shape of size 1 is
    /// accepted: the rank-0 result of [`sum`](Self::sum) or [`mean`](Self::mean), `1`,
    /// `(1,1)`, …. Any other shape is a `Value` error; differentiate it with
    /// [`backward_with`](Self::backward_with) and an explicit cotangent.
    ///
    /// Every recorded operation reachable from here runs once, in topological order, with
    /// the sum of its consumers' contributions; leaves (and tensors that
    /// [`retain_grad`](Self::retain_grad)) accumulate into [`grad`](Self::grad). Everything
    /// is checked before any `.grad` changes (see [`backward_with`](Self::backward_with)).
    ///
    /// ```
    /// use strideweave::{Tensor, s};
    /// let x = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// x.set_requires_grad(true).unwrap();
    /// let row = x.slice(&s![1, ..]).unwrap();
    /// let loss = row.mul(&row).unwrap().sum().unwrap();
    /// loss.backward().unwrap();
    /// // d/dx of Σ x[1,j]²: 2·x at row 1, zero elsewhere.
    /// assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [0.0, 2.0, 0.0, 6.0, 0.0, 10.0]);
    /// assert!(x.backward().unwrap_err().to_string().starts_with("backward: "));
    /// ```
    pub fn backward(&self) -> Result<()> {
        const OP: &str = "backward";
        let cot = buffer::unit_cotangent(OP, self)?;
        backward::run(OP, vec![(self.clone(), cot)], false, None)?;
        Ok(())
    }

    /// Reverse-mode differentiation from this tensor with a given cotangent, keeping the
    /// graph if asked: the full form of [`backward`](Self::backward).
    ///
    /// `gradient` is the cotangent of this tensor. `None` stands for the unit cotangent, as
    /// in [`backward`](Self::backward): any tensor of one element takes it (a loss of rank
    /// 0, `1`, `(1,1)`, …; any other shape is a `Value` error). A cotangent of another
    /// dtype is a `Type` error. For an injective layout the cotangent
    /// must have exactly this tensor's layout; for a layout that aliases through stride-zero
    /// modes, this tensor's shape in an injective layout (else `Value`).
    ///
    /// Every recorded operation reachable from here runs once, in topological order, with
    /// the sum of its consumers' contributions; leaves (and tensors that
    /// [`retain_grad`](Self::retain_grad)) accumulate into [`grad`](Self::grad). A tensor
    /// without a recorded operation — a leaf, or a view made under [`no_grad`](crate::no_grad)
    /// — accumulates the cotangent into its own `.grad` and propagates nowhere.
    ///
    /// Everything is checked before any `.grad` changes: a saved carrier whose version
    /// changed since it was recorded fails with `Runtime`, naming the tensor, the saved and
    /// the current version; so does a graph an earlier backward released (pass
    /// `retain_graph = true` to keep it). On success the reached graph is released unless
    /// `retain_graph`.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let x = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// x.set_requires_grad(true).unwrap();
    /// let y = x.mul_scalar(3.0).unwrap();
    /// let ones = Tensor::from_vec(vec![1.0f64; 6], &"(2,3)".parse().unwrap()).unwrap();
    /// y.backward_with(Some(&ones), true).unwrap();
    /// y.backward_with(Some(&ones), false).unwrap(); // the graph was kept
    /// assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [6.0; 6]);
    /// assert!(y.backward_with(Some(&ones), false).is_err()); // and is now released
    ///
    /// // A loss kept for a second backward: the unit cotangent without building it.
    /// let loss = x.mul(&x).unwrap().sum().unwrap();
    /// loss.backward_with(None, true).unwrap();
    /// loss.backward_with(None, false).unwrap();
    /// ```
    ///
    /// A cotangent must be a tensor; anything else does not compile:
    ///
    /// ```compile_fail
    /// let x = strideweave::Tensor::zeros::<f64>(&"2".parse().unwrap());
    /// x.backward_with(Some(&[1.0f64, 1.0]), false).unwrap();
    /// ```
    pub fn backward_with(&self, gradient: Option<&Tensor>, retain_graph: bool) -> Result<()> {
        const OP: &str = "backward_with";
        let cot = buffer::root_cotangent(OP, self, gradient)?;
        backward::run(OP, vec![(self.clone(), cot)], retain_graph, None)?;
        Ok(())
    }
}
