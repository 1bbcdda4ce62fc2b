//! The owner-level storage operations, each an explicitly named allocation or move:
//! `to_shape` (consume an owner, keep its storage, change its shape) and `transfer_to`
//! (a new owner in the carrier class a [`StorageRequest`] names).

use std::sync::Arc;

use crate::carrier::StorageRequest;
use crate::error::{Error, Result};
use crate::layout::{Layout, Shape};
use crate::tensor::Tensor;

impl Tensor {
    /// Consumes this handle and returns the same storage under `shape` (of the same size),
    /// laid out first-mode-fastest: no element is copied and nothing is allocated but the
    /// handle. The logical elements keep their first-mode-fastest order, as with
    /// [`reshape`](Self::reshape).
    ///
    /// Reuse needs two things, checked before anything else happens:
    /// * **compact**: the layout visits carrier indices `offset, offset + 1, …` in
    ///   first-mode-fastest order (compact column-major; extent-1 modes may have any
    ///   stride). A permuted, row-major, strided, reversed or broadcast view is refused;
    /// * **unshared**: this is the only handle to the tensor, and no other tensor, view or
    ///   [`Carrier`](crate::Carrier) handle reaches its carrier — so the new owner is the only one.
    ///
    /// Otherwise it is an error that says to call [`materialize`](Self::materialize) first
    /// (which makes an unshared compact copy); a size mismatch names both shapes; a
    /// multi-subtensor (block-scaled) tensor is `NotImplemented`. On an error the
    /// handle is dropped and nothing else changes: the carrier's elements and version are
    /// untouched. A tensor fresh from [`materialize`](Self::materialize),
    /// [`from_vec`](Self::from_vec), [`zeros`](Self::zeros) or an arithmetic result always
    /// qualifies while no clone or view of it is alive; to keep a handle for a fallback, use
    /// the view [`reshape`](Self::reshape) instead.
    ///
    /// Autograd: the result of a recorded operation is recorded like a reshape (its gradient
    /// passes through unchanged). A leaf that requires gradients is refused: its `.grad`
    /// would be unreachable once its only handle is consumed (use
    /// [`reshape`](Self::reshape), a view that keeps the leaf).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor};
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    /// let flat = t.to_shape(&"(3,(2))".parse().unwrap()).unwrap();
    /// assert_eq!(flat.layout().to_string(), "(3,(2)):(1,(3))");
    /// assert_eq!(flat.to_vec::<i32>().unwrap(), [0, 1, 2, 3, 4, 5]);
    ///
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    /// let view = t.permute(&[1, 0]).unwrap();
    /// let err = view.to_shape(&"6".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().starts_with("to_shape: "));
    /// assert!(err.to_string().contains("materialize"));
    /// ```
    pub fn to_shape(self, shape: &Shape) -> Result<Tensor> {
        const OP: &str = "to_shape";
        if shape.size() != self.size() {
            return Err(Error::ShapeMismatch {
                op: OP,
                expected: format!("{} ({} elements)", self.shape(), self.size()),
                found: format!("{shape} ({} elements)", shape.size()),
                detail: "the new shape must hold exactly the tensor's elements".into(),
            });
        }
        let s = self.require_single(OP)?;
        if !is_compact_column_major(&s.layout) {
            return Err(Error::NotRepresentable {
                op: OP,
                reason: format!(
                    "layout {} is not compact first-mode-fastest (it does not visit consecutive carrier indices in order), so its storage cannot take another shape without a copy; call materialize first",
                    s.layout
                ),
            });
        }
        let handles = Arc::strong_count(&self.inner) + Arc::weak_count(&self.inner);
        let carriers = s.carrier.handle_count();
        if handles > 1 || carriers > 1 {
            let (n, what) = if handles > 1 {
                (handles - 1, "handle(s) to this tensor")
            } else {
                (
                    carriers - 1,
                    "other tensor(s), view(s) or carrier handle(s)",
                )
            };
            return Err(Error::Runtime {
                op: OP,
                detail: format!(
                    "the storage is shared ({n} more {what} alive), so it cannot change owner; drop them, or call materialize first for an unshared copy"
                ),
            });
        }
        if self.requires_grad() && self.is_leaf() {
            return Err(Error::Runtime {
                op: OP,
                detail: "this tensor is a leaf that requires gradients: its .grad would be unreachable once the handle is consumed; use reshape for a view that keeps the leaf".into(),
            });
        }
        let out = Tensor::single(
            self.dtype(),
            s.carrier.clone(),
            s.offset,
            Layout::compact(shape),
        );
        crate::autograd::view::record(&self, out, OP, |c| Ok((c.reshape(shape)?, 0)))
    }

    /// A new owner of this tensor's contents in the carrier class `request` names: a fresh
    /// carrier of that class, laid out compact first-mode-fastest (hierarchy of the shape
    /// kept), filled by the copy engine from any view (permuted, sliced, reversed,
    /// broadcast). This tensor stays valid and unchanged. Every plain dtype; a block-scaled
    /// tensor is `NotImplemented` ([`dequantize`](Self::dequantize) it first). A class
    /// that is not available is a `NotImplemented` error naming it; a class that cannot
    /// allocate the elements, or whose carriers are not writable from the host, an error
    /// naming it too. Into the host class it is recorded for autograd like
    /// [`materialize`](Self::materialize); gradients flow through host carriers only, so a
    /// tensor that takes part in autograd is refused (a `Runtime` error) for any other
    /// class while recording is on.
    ///
    /// ```
    /// use strideweave::{StorageRequest, Tensor};
    /// let t = Tensor::arange::<i64>(&"(2,3)".parse().unwrap()).permute(&[1, 0]).unwrap();
    /// let owned = t.transfer_to(&StorageRequest::host()).unwrap();
    /// assert_eq!(owned.layout().to_string(), "(3,2):(1,3)");
    /// assert_eq!(owned.to_vec::<i64>().unwrap(), t.to_vec::<i64>().unwrap());
    /// let err = t.transfer_to(&StorageRequest::named("device")).unwrap_err();
    /// assert!(err.to_string().starts_with("transfer_to: no storage class named \"device\""));
    /// ```
    pub fn transfer_to(&self, request: &StorageRequest) -> Result<Tensor> {
        const OP: &str = "transfer_to";
        self.require_single(OP)?;
        if request.class_name() != "host" && crate::autograd::node::wants(&[self]) {
            return Err(Error::Runtime {
                op: OP,
                detail: format!(
                    "this tensor takes part in autograd, and gradients flow through host carriers only, so a copy into the {} class could not be differentiated; transfer detach() of it, or call it inside no_grad()",
                    request.class_name()
                ),
            });
        }
        let layout = Layout::compact(self.shape());
        let carrier = request.allocate(OP, self.dtype(), layout.size())?;
        self.copy_to_carrier(OP, carrier, 0, layout)
    }
}

/// Whether `layout` visits `0, 1, 2, …` in first-mode-fastest order: once its extent-1 modes
/// are dropped and neighbours merged, one unit-stride mode (or a single element).
fn is_compact_column_major(layout: &Layout) -> bool {
    if layout.size() <= 1 {
        return true;
    }
    let c = layout.coalesce();
    c.stride().leaves() == [1]
}
