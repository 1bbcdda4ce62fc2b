//! `TensorView`: a view that borrows its tensor instead of holding its carrier.
//!
//! Every view of a [`Tensor`] is a new owned handle: it counts one more reference to the
//! carrier (an atomic read-modify-write, which every thread viewing the same tensor
//! contends for) and records itself for autograd. A chain of views that lives only while
//! its tensor does — views taken to read a shape, copy a block or index in a loop — needs
//! neither. [`Tensor::view`] starts a borrowed chain: each step writes only the new offset
//! and layout, into an allocation reused from the thread's spare list (as a handle's is),
//! and [`TensorView::to_tensor`] makes the owned handle once, at the end.
//!
//! The layout functions are the tensor's own (`Layout::permute_into`, `slice_into`, …), so
//! a borrowed view has the same layout, offset and error as the owned view of the same
//! name. A tensor that takes part in autograd, or holds more than one subtensor, is carried
//! as an owned handle instead and each step is the tensor's own view, recorded as usual.

use std::cell::RefCell;
use std::fmt;

use crate::autograd::node;
use crate::carrier::Carrier;
use crate::dtype::{DType, Element};
use crate::error::Result;
use crate::layout::{Dim, Key, Layout, Shape, Tree};
use crate::pattern::Op;
use crate::pattern::run::Prepared;
use crate::repr::Subtensor;
use crate::tensor::Tensor;
use crate::tensor::index::offset_plus;
use crate::tensor::spare::{self, List};

/// A view of a [`Tensor`] that borrows it: the same views as the tensor's own
/// (`permute`, `reshape`, `broadcast_to`, `slice`, `rearrange`, …) with the same results
/// and errors, each writing only a new offset and layout — no reference count and no
/// autograd record per step. [`to_tensor`](Self::to_tensor) turns the result into an owned
/// `Tensor` over the same carrier, without copying an element.
///
/// ```
/// use strideweave::{Key, Tensor};
/// let t = Tensor::arange::<f32>(&"(4,6)".parse().unwrap());
/// let v = t.view().permute(&[1, 0]).unwrap().slice(&[Key::all(), (1..3).into()]).unwrap();
/// assert_eq!(v.layout().to_string(), "(6,2):(4,1)");
/// let owned = v.to_tensor();
/// assert_eq!(owned.layout(), t.permute(&[1, 0]).unwrap().slice(&[Key::all(), (1..3).into()]).unwrap().layout());
/// assert_eq!(owned.to_vec::<f32>().unwrap()[..3], [1.0, 5.0, 9.0]);
/// ```
pub struct TensorView<'a> {
    kind: Kind<'a>,
}

enum Kind<'a> {
    /// The tensor itself (one subtensor, outside autograd), before any step.
    Source(DType, &'a Subtensor),
    /// A view of such a tensor: its carrier borrowed, the view's own placement.
    Borrowed(&'a Carrier, Placed),
    /// Any other tensor: an owned handle, each step the tensor's own (recorded) view.
    Owned(Tensor),
}

/// What a view reads (`TensorView::reads`): element `k` at `offset + layout(k)` of a
/// carrier, or an owned handle's elements.
enum Reads<'v, 'a> {
    At(&'a Carrier, DType, usize, &'v Layout),
    Owned(&'v Tensor),
}

/// A borrowed view's dtype, offset and layout (element `k` at `offset + layout(k)` of the
/// carrier), in an allocation that goes back to the thread's spare list when the view
/// drops. Always `Some` until then.
struct Placed(Option<Box<Placement>>);

struct Placement {
    dtype: DType,
    offset: usize,
    layout: Layout,
}

thread_local! {
    /// Placements of dropped borrowed views, for the next view on this thread.
    static SPARE: RefCell<List<Box<Placement>>> = const { RefCell::new(List::new()) };
}

impl Placed {
    /// An allocation for a placement of `dtype` at `offset`: a spare one (its layout is
    /// whatever the last view left) or a new one.
    #[inline(always)]
    fn slot(dtype: DType, offset: usize) -> Box<Placement> {
        match spare::pop(&SPARE) {
            Some(mut p) => {
                p.dtype = dtype;
                p.offset = offset;
                p
            }
            None => Box::new(Placement {
                dtype,
                offset,
                layout: Layout::unit(),
            }),
        }
    }

    /// A placement of `dtype` at `offset` that `write` completes (it sets the layout, over
    /// whatever layout the reused allocation held, and may move the offset); on `write`'s
    /// error the allocation goes back to the list.
    #[inline(always)]
    fn written(
        dtype: DType,
        offset: usize,
        write: impl FnOnce(&mut Placement) -> Result<()>,
    ) -> Result<Placed> {
        let mut p = Placed::slot(dtype, offset);
        let done = write(&mut p);
        let placed = Placed(Some(p));
        done.map(|()| placed)
    }

    fn get(&self) -> &Placement {
        // Unreachable from user input: every `Placed` is built `Some` (`written`, `clone`)
        // and only its own `drop` takes the allocation out, after which it is never read.
        self.0.as_deref().expect("a live view's placement")
    }
}

impl Drop for Placed {
    fn drop(&mut self) {
        if let Some(mut p) = self.0.take() {
            if !p.layout.is_inline() {
                // Heap storage is not kept with a spare allocation.
                p.layout = Layout::unit();
            }
            spare::push(&SPARE, p);
        }
    }
}

impl Clone for TensorView<'_> {
    /// Another view of the same elements (a borrowed view takes its own placement).
    fn clone(&self) -> Self {
        let kind = match &self.kind {
            Kind::Source(dtype, s) => Kind::Source(*dtype, s),
            Kind::Borrowed(c, p) => {
                let p = p.get();
                let mut copy = Placed::slot(p.dtype, p.offset);
                copy.layout.clone_from(&p.layout);
                Kind::Borrowed(c, Placed(Some(copy)))
            }
            Kind::Owned(t) => Kind::Owned(t.clone()),
        };
        TensorView { kind }
    }
}

impl Tensor {
    /// A borrowed view of this tensor, the start of a chain of views that makes no owned
    /// handle until [`TensorView::to_tensor`]. A tensor that takes part in autograd when
    /// the view is taken (it requires or carries a gradient and recording is on) is
    /// carried as an owned handle, so that every step is recorded as the tensor's own view.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    /// let v = t.view();
    /// assert_eq!((v.layout(), v.offset(), v.dtype()), (t.layout(), 0, t.dtype()));
    /// ```
    pub fn view(&self) -> TensorView<'_> {
        let r = self.representation();
        let kind = if !r.is_single() || !r.adjacent.is_empty() || node::wants(&[self]) {
            Kind::Owned(self.clone())
        } else {
            Kind::Source(r.dtype, &r.subtensors[0])
        };
        TensorView { kind }
    }
}

impl<'a> TensorView<'a> {
    /// What the view reads: a placement (carrier, dtype, offset, layout) for the tensor or
    /// a borrowed view, the handle otherwise.
    #[inline(always)]
    fn reads(&self) -> Reads<'_, 'a> {
        match &self.kind {
            Kind::Source(dtype, s) => Reads::At(&s.carrier, *dtype, s.offset, &s.layout),
            Kind::Borrowed(c, p) => {
                let p = p.get();
                Reads::At(c, p.dtype, p.offset, &p.layout)
            }
            Kind::Owned(t) => Reads::Owned(t),
        }
    }

    /// The next view: `owned` on an owned handle; on the tensor or a borrowed view,
    /// `write(layout, out)` writes the new layout over `out` and returns the offset change.
    #[inline(always)]
    fn derive(
        &self,
        op: &'static str,
        owned: impl FnOnce(&Tensor) -> Result<Tensor>,
        write: impl FnOnce(&Layout, &mut Layout) -> Result<i64>,
    ) -> Result<TensorView<'a>> {
        let kind = match self.reads() {
            Reads::At(carrier, dtype, offset, layout) => {
                let placed = Placed::written(dtype, offset, |p| {
                    let delta = write(layout, &mut p.layout)?;
                    if delta != 0 {
                        p.offset = offset_plus(op, offset, delta)?;
                    }
                    Ok(())
                })?;
                Kind::Borrowed(carrier, placed)
            }
            Reads::Owned(t) => Kind::Owned(owned(t)?),
        };
        Ok(TensorView { kind })
    }

    /// [`Tensor::permute`] on the borrowed view.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3,4)".parse().unwrap());
    /// assert_eq!(t.view().permute(&[2, 0, 1]).unwrap().layout().to_string(), "(4,2,3):(6,1,2)");
    /// assert!(t.view().permute(&[0, 0, 1]).is_err());
    /// ```
    pub fn permute(&self, order: &[usize]) -> Result<TensorView<'a>> {
        self.derive(
            "permute",
            |t| t.permute(order),
            |l, out| l.permute_into(order, out).map(|()| 0),
        )
    }

    /// [`Tensor::reshape`] on the borrowed view.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(4,6)".parse().unwrap());
    /// let v = t.view().reshape(&"(2,2,6)".parse().unwrap()).unwrap();
    /// assert_eq!(v.layout().to_string(), "(2,2,6):(1,2,4)");
    /// assert!(t.view().reshape(&"(5,5)".parse().unwrap()).is_err());
    /// ```
    pub fn reshape(&self, target: &Shape) -> Result<TensorView<'a>> {
        self.derive(
            "reshape",
            |t| t.reshape(target),
            |l, out| l.reshape_into(target, out).map(|()| 0),
        )
    }

    /// [`Tensor::broadcast_to`] on the borrowed view.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(1,3)".parse().unwrap());
    /// let v = t.view().broadcast_to(&"(4,3)".parse().unwrap()).unwrap();
    /// assert_eq!(v.layout().to_string(), "(4,3):(0,1)");
    /// assert!(t.view().broadcast_to(&"(4,2)".parse().unwrap()).is_err());
    /// ```
    pub fn broadcast_to(&self, target: &Shape) -> Result<TensorView<'a>> {
        const OP: &str = "broadcast_to";
        self.derive(
            OP,
            |t| t.broadcast_to(target),
            |l, out| l.broadcast_to_into(OP, target, out).map(|()| 0),
        )
    }

    /// [`Tensor::slice`] on the borrowed view: a range, a step or a whole mode per top-level
    /// mode (an integer key keeps its mode at extent 1).
    ///
    /// ```
    /// use strideweave::{Key, Tensor};
    /// let t = Tensor::arange::<f32>(&"(4,6)".parse().unwrap());
    /// let v = t.view().slice(&[Key::slice(None, None, Some(2)), (2..5).into()]).unwrap();
    /// assert_eq!((v.layout().to_string(), v.offset()), ("(2,3):(2,4)".to_string(), 8));
    /// assert!(t.view().slice(&[Key::all(), Key::slice(None, None, Some(0))]).is_err());
    /// ```
    pub fn slice(&self, keys: &[Key]) -> Result<TensorView<'a>> {
        const OP: &str = "slice";
        self.derive(
            OP,
            |t| t.slice(keys),
            |l, out| l.slice_into(OP, keys, out).map(|(delta, _)| delta),
        )
    }

    /// [`Tensor::unsqueeze`] on the borrowed view.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().unsqueeze(1).unwrap().shape().to_string(), "(2,1,3)");
    /// assert!(t.view().unsqueeze(4).is_err());
    /// ```
    pub fn unsqueeze(&self, dim: impl Dim) -> Result<TensorView<'a>> {
        self.derive(
            "unsqueeze",
            |t| t.unsqueeze(dim),
            |l, out| l.unsqueeze_into(dim, out).map(|()| 0),
        )
    }

    /// [`Tensor::squeeze`] on the borrowed view.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,1)".parse().unwrap());
    /// assert_eq!(t.view().squeeze(1).unwrap().shape().to_string(), "(2)");
    /// assert!(t.view().squeeze(0).is_err());
    /// ```
    pub fn squeeze(&self, dim: impl Dim) -> Result<TensorView<'a>> {
        self.derive(
            "squeeze",
            |t| t.squeeze(dim),
            |l, out| {
                *out = l.squeeze(dim)?;
                Ok(0)
            },
        )
    }

    /// [`Tensor::rearrange_tree`] on the borrowed view.
    ///
    /// ```
    /// use strideweave::{Tensor, Tree};
    /// let t = Tensor::zeros::<f32>(&"(2,3)".parse().unwrap());
    /// let v = t.view().rearrange_tree(&Tree::node([Tree::id(1), Tree::id(0)]), None).unwrap();
    /// assert_eq!(v.layout().to_string(), "(3,2):(2,1)");
    /// ```
    pub fn rearrange_tree(
        &self,
        output: &Tree,
        selection: Option<&Tree>,
    ) -> Result<TensorView<'a>> {
        self.derive(
            "rearrange_tree",
            |t| t.rearrange_tree(output, selection),
            |l, out| l.rearrange_tree_into(output, selection, out).map(|()| 0),
        )
    }

    /// [`Tensor::rearrange`] on the borrowed view: an einops pattern whose output regroups,
    /// reorders, splits or merges modes.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3,4)".parse().unwrap());
    /// let v = t.view().rearrange("a b c -> c (a b)", &[]).unwrap();
    /// assert_eq!(v.shape().to_string(), "(4,(2,3))");
    /// assert!(t.view().rearrange("a b -> b a", &[]).is_err());
    /// ```
    pub fn rearrange(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<TensorView<'a>> {
        self.pattern(Op::Rearrange, pattern, sizes, |t| {
            t.rearrange(pattern, sizes)
        })
    }

    /// [`Tensor::repeat`] on the borrowed view: new output axes read their elements through
    /// stride 0.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3)".parse().unwrap());
    /// let v = t.view().repeat("a b -> a b r", &[("r", 4)]).unwrap();
    /// assert_eq!(v.layout().to_string(), "(2,3,4):(1,2,0)");
    /// assert!(t.view().repeat("a b -> a b r", &[]).is_err());
    /// ```
    pub fn repeat(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<TensorView<'a>> {
        self.pattern(Op::Repeat, pattern, sizes, |t| t.repeat(pattern, sizes))
    }

    /// A view by an einops pattern of operation `op`, compiled (or found in the thread's
    /// pattern cache) for the view's shape.
    fn pattern(
        &self,
        op: Op,
        pattern: &str,
        sizes: &[(&str, i64)],
        owned: impl FnOnce(&Tensor) -> Result<Tensor>,
    ) -> Result<TensorView<'a>> {
        self.derive(op.method(), owned, |l, out| {
            Prepared::parse(l.shape(), op, pattern, sizes)?
                .plan
                .apply_into(l, out);
            Ok(0)
        })
    }

    /// An owned [`Tensor`] over the same carrier with this view's offset and layout; no
    /// element is copied.
    ///
    /// ```
    /// use strideweave::{Carrier, Tensor};
    /// let t = Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
    /// let owned = t.view().permute(&[1, 0]).unwrap().to_tensor();
    /// assert!(Carrier::same(owned.carrier(), t.carrier()));
    /// assert_eq!(owned.to_vec::<f32>().unwrap(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
    /// ```
    pub fn to_tensor(&self) -> Tensor {
        match self.reads() {
            // The layout functions keep every view inside its carrier (a reordering,
            // regrouping, broadcast or selection of a placement its source validated).
            Reads::At(c, dtype, offset, layout) => {
                Tensor::single(dtype, c.clone(), offset, layout.clone())
            }
            Reads::Owned(t) => t.clone(),
        }
    }

    /// The elements in the view's compact (first-mode-fastest) order, as
    /// [`Tensor::to_vec`] gives them.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().permute(&[1, 0]).unwrap().to_vec::<i64>().unwrap(), [0, 2, 4, 1, 3, 5]);
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.to_tensor().to_vec_as("TensorView::to_vec")
    }

    /// The view's layout (the leading subtensor's, for a tensor of several).
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().layout().to_string(), "(2,3):(1,2)");
    /// ```
    pub fn layout(&self) -> &Layout {
        match self.reads() {
            Reads::At(_, _, _, layout) => layout,
            Reads::Owned(t) => t.layout(),
        }
    }

    /// The view's shape.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().shape().to_string(), "(2,3)");
    /// ```
    pub fn shape(&self) -> &Shape {
        self.layout().shape()
    }

    /// The carrier index of the view's first element (of the leading subtensor's, for a
    /// tensor of several).
    ///
    /// ```
    /// use strideweave::{Key, Tensor};
    /// let t = Tensor::zeros::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().slice(&[Key::all(), (1..3).into()]).unwrap().offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        match self.reads() {
            Reads::At(_, _, offset, _) => offset,
            Reads::Owned(t) => t.offset(),
        }
    }

    /// The view's logical dtype.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.view().dtype(), strideweave::DType::U8);
    /// ```
    pub fn dtype(&self) -> DType {
        match self.reads() {
            Reads::At(_, dtype, _, _) => dtype,
            Reads::Owned(t) => t.dtype(),
        }
    }

    /// The carrier the view reads (the leading subtensor's, for a tensor of several).
    ///
    /// ```
    /// use strideweave::{Carrier, Tensor};
    /// let t = Tensor::zeros::<u8>(&"(2,3)".parse().unwrap());
    /// assert!(Carrier::same(t.view().carrier(), t.carrier()));
    /// ```
    pub fn carrier(&self) -> &Carrier {
        match self.reads() {
            Reads::At(c, ..) => c,
            Reads::Owned(t) => t.carrier(),
        }
    }
}

impl fmt::Debug for TensorView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorView")
            .field("dtype", &self.dtype())
            .field("offset", &self.offset())
            .field("layout", &self.layout().to_string())
            .field("borrowed", &!matches!(self.kind, Kind::Owned(_)))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held() -> usize {
        SPARE.with(|s| s.borrow().len())
    }

    #[test]
    fn borrowed_views_hold_no_reference_to_the_carrier() {
        let t = Tensor::arange::<f32>(&"(4,6)".parse().unwrap());
        let v = t.view().permute(&[1, 0]).unwrap();
        let w = v.unsqueeze(1).unwrap();
        assert!(t.carrier().is_sole_handle(), "no step counted a reference");
        let owned = w.to_tensor();
        assert!(!t.carrier().is_sole_handle(), "the owned handle counts one");
        drop(owned);
        assert!(t.carrier().is_sole_handle());
    }

    #[test]
    fn a_dropped_view_leaves_its_placement_for_the_next_one() {
        let t = Tensor::arange::<f32>(&"(2,3,4)".parse().unwrap());
        let v = t.view().permute(&[2, 0, 1]).unwrap();
        let before = held();
        drop(v);
        assert_eq!(held(), before + 1);
        let w = t
            .view()
            .slice(&[(1..2).into(), Key::all(), Key::all()])
            .unwrap();
        assert_eq!(held(), before, "the placement is taken back");
        assert_eq!(
            (w.layout().to_string(), w.offset()),
            ("(1,3,4):(1,2,6)".into(), 1)
        );
        let twin = w.clone();
        drop(w);
        assert_eq!(
            twin.to_vec::<f32>().unwrap(),
            t.slice(&[(1..2).into(), Key::all(), Key::all()])
                .unwrap()
                .to_vec::<f32>()
                .unwrap()
        );
    }

    #[test]
    fn borrowed_views_are_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<TensorView<'static>>();
    }

    #[test]
    fn a_kept_placement_drops_a_layout_past_the_inline_size() {
        let shape: Shape = "(1,1,1,1,1,1,1,1,1,1)".parse().unwrap();
        let t = Tensor::zeros::<u8>(&shape);
        let v = t.view().permute(&[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]).unwrap();
        drop(v);
        let kept = SPARE.with(|s| s.borrow().last().map(|p| p.layout.to_string()));
        assert_eq!(kept.as_deref(), Some("():()"), "kept as the unit layout");
    }
}
