//! The zero-copy views. Each is the layout function of the same name applied
//! to the leading layouts (`L_0`, and `S_0` for a multi-subtensor tensor) plus a validated
//! new representation over the identical carriers.

use crate::error::{Error, Result};
use crate::layout::{Dim, Layout, Shape, Stride, Tree};
use crate::pattern::Op;
use crate::pattern::run::{Plan, Prepared};
use crate::repr::{Representation, Subtensor};
use crate::tensor::Tensor;
use crate::tensor::index::offset_plus;

/// Whether a view's layout function keeps the reach (no placement check needed).
#[derive(Clone, Copy)]
enum Reach {
    Checked,
    Kept,
}

impl Tensor {
    /// Applies `f` to `L_0` (and `S_0`), keeping every offset, and validates the result.
    pub(crate) fn leading_view(
        &self,
        op: &'static str,
        f: impl Fn(&Layout) -> Result<Layout>,
    ) -> Result<Tensor> {
        self.leading_view_with(op, Reach::Checked, f)
    }

    /// [`leading_view`](Self::leading_view) for a layout function that keeps the reach of
    /// every layout it is given (it reorders, regroups or splits leaves, widens or inserts
    /// extent-1 leaves to stride 0, drops extent-1 leaves): a one-subtensor view then stays
    /// inside its carrier because its source did, and skips the placement check.
    pub(crate) fn reach_keeping_view(
        &self,
        op: &'static str,
        f: impl Fn(&Layout) -> Result<Layout>,
    ) -> Result<Tensor> {
        self.leading_view_with(op, Reach::Kept, f)
    }

    /// [`reach_keeping_view`](Self::reach_keeping_view) for a layout function that writes
    /// its result over a given layout (`write(source, out)`): a one-subtensor view's layout
    /// is written in place inside the new handle's allocation, which is the view's only
    /// heap allocation (nothing is built on the stack and then moved).
    pub(crate) fn view_in_place(
        &self,
        op: &'static str,
        write: impl Fn(&Layout, &mut Layout) -> Result<()>,
    ) -> Result<Tensor> {
        let apply = |l: &Layout| {
            let mut out = Layout::unit();
            write(l, &mut out)?;
            Ok(out)
        };
        let r = self.representation();
        if r.subtensors.len() != 1 || !r.adjacent.is_empty() {
            return self.leading_view_out_of_line(op, apply);
        }
        let first = &r.subtensors[0];
        let out = Tensor::single_in_place(r.dtype, first.carrier.clone(), first.offset, |out| {
            write(&first.layout, &mut out.layout)
        })?;
        debug_assert_eq!(
            out.layout().reach(),
            first.layout.reach(),
            "{op} claims to keep the reach"
        );
        crate::autograd::view::record(self, out, op, |c| Ok((apply(c)?, 0)))
    }

    /// [`leading_view_with`](Self::leading_view_with) keeping the reach, out of line: the
    /// multi-subtensor path of [`view_in_place`](Self::view_in_place), kept apart so that
    /// the one-subtensor path stays small.
    #[cold]
    #[inline(never)]
    fn leading_view_out_of_line(
        &self,
        op: &'static str,
        f: impl Fn(&Layout) -> Result<Layout>,
    ) -> Result<Tensor> {
        self.leading_view_with(op, Reach::Kept, f)
    }

    fn leading_view_with(
        &self,
        op: &'static str,
        reach: Reach,
        f: impl Fn(&Layout) -> Result<Layout>,
    ) -> Result<Tensor> {
        let r = self.representation();
        let first = &r.subtensors[0];
        if r.subtensors.len() == 1 && r.adjacent.is_empty() {
            // One plain subtensor (every view of a plain tensor): the new handle is built
            // around the new layout in one step.
            let layout = f(&first.layout)?;
            let out = Tensor::single(r.dtype, first.carrier.clone(), first.offset, layout);
            match reach {
                Reach::Kept => debug_assert_eq!(
                    out.layout().reach(),
                    first.layout.reach(),
                    "{op} claims to keep the reach"
                ),
                Reach::Checked => out.representation().validate(op)?,
            }
            return crate::autograd::view::record(self, out, op, |c| Ok((f(c)?, 0)));
        }
        let mut subtensors = smallvec::SmallVec::new();
        subtensors.push(Subtensor {
            carrier: first.carrier.clone(),
            offset: first.offset,
            layout: f(&first.layout)?,
        });
        subtensors.extend(r.subtensors[1..].iter().cloned());
        let adjacent = match r.adjacent.split_first() {
            None => Vec::new(),
            Some((s0, rest)) => std::iter::once(f(s0))
                .chain(rest.iter().cloned().map(Ok))
                .collect::<Result<_>>()?,
        };
        let out = Representation {
            dtype: r.dtype,
            subtensors,
            adjacent,
        };
        out.validate(op)?;
        crate::autograd::view::record(self, Tensor::from_repr(out), op, |c| Ok((f(c)?, 0)))
    }

    /// Reorders complete top-level modes: mode `j` of the view is mode `order[j]` of the
    /// source; nested modes move whole.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"((2,3),4,5)".parse().unwrap());
    /// let p = t.permute(&[1, 0, 2]).unwrap();
    /// assert_eq!(p.shape().to_string(), "(4,(2,3),5)");
    /// assert!(t.permute(&[0, 0, 1]).is_err());
    /// ```
    pub fn permute(&self, order: &[usize]) -> Result<Tensor> {
        self.view_in_place("permute", |l, out| l.permute_into(order, out))
    }

    /// Regroups the same first-mode-fastest sequence as `target`; never copies (a source that
    /// does not step regularly is an error).
    ///
    /// ```
    /// use strideweave::{Carrier, Tensor};
    /// let t = Tensor::new(Carrier::from_vec(vec![0f32; 12]), 0, "(2,3):(2,4)".parse().unwrap()).unwrap();
    /// let r = t.reshape(&"(3,(2))".parse().unwrap()).unwrap();
    /// assert_eq!(r.layout().to_string(), "(3,(2)):(2,(6))");
    /// ```
    pub fn reshape(&self, target: &Shape) -> Result<Tensor> {
        self.view_in_place("reshape", |l, out| l.reshape_into(target, out))
    }

    /// A view whose coordinate `q` reads source ordinal `B(q)`, with `B = shape:stride`
    /// injective and inside the source; each leaf of `B` must stay affine through the
    /// source layout, and the composed placement must be injective.
    ///
    /// ```
    /// let t = strideweave::Tensor::new(strideweave::Carrier::from_vec(vec![0f32; 20]), 0, "(5,4):(4,1)".parse().unwrap()).unwrap();
    /// let v = t.as_strided(&"(2,2)".parse().unwrap(), &"(1,2)".parse().unwrap()).unwrap();
    /// assert_eq!(v.layout().to_string(), "(2,2):(4,8)");
    /// assert!(t.as_strided(&"(2,2)".parse().unwrap(), &"(1,1)".parse().unwrap()).is_err());
    /// ```
    pub fn as_strided(&self, shape: &Shape, stride: &Stride) -> Result<Tensor> {
        const OP: &str = "as_strided";
        let b = Layout::new_as(OP, shape.clone(), stride.clone())?;
        let (lo, _) = b.reach();
        if lo < 0 || b.cosize() > self.size() {
            return Err(Error::ViewOutOfBounds {
                op: OP,
                detail: format!(
                    "selector {b} reaches source ordinals {}..={}, outside the source's {} elements",
                    lo,
                    b.cosize() as i64 - 1,
                    self.size()
                ),
            });
        }
        // The cheap bounds check above runs first; injectivity is decided from the strides.
        if !b.injective_in(OP)? {
            return Err(Error::NotInjective {
                op: OP,
                layout: format!("{b} (the selector aliases source ordinals)"),
            });
        }
        let view = self.leading_view(OP, |l| l.compose_affine_as(OP, &b))?;
        if !view.layout().injective_in(OP)? {
            return Err(Error::NotInjective {
                op: OP,
                layout: format!(
                    "{} (the composed placement aliases carrier elements)",
                    view.layout()
                ),
            });
        }
        Ok(view)
    }

    /// Widens extent-1 leaves to `target` with stride 0; same profile required.
    ///
    /// ```
    /// let t = strideweave::Tensor::new(strideweave::Carrier::from_vec(vec![0f32; 8]), 0, "(2,(1,3)):(1,(2,2))".parse().unwrap()).unwrap();
    /// let b = t.broadcast_to(&"(2,(4,3))".parse().unwrap()).unwrap();
    /// assert_eq!(b.layout().to_string(), "(2,(4,3)):(1,(0,2))");
    /// ```
    pub fn broadcast_to(&self, target: &Shape) -> Result<Tensor> {
        const OP: &str = "broadcast_to";
        self.view_in_place(OP, |l, out| l.broadcast_to_into(OP, target, out))
    }

    /// Inserts the target modes not named in `dims` as extent-1 modes, then broadcasts.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"2".parse().unwrap());
    /// let b = t.broadcast_in_dim(&"(3,2)".parse().unwrap(), &[1]).unwrap();
    /// assert_eq!(b.layout().to_string(), "(3,2):(0,1)");
    /// assert_eq!(b.to_vec::<f32>().unwrap(), [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    /// ```
    pub fn broadcast_in_dim(&self, target: &Shape, dims: &[usize]) -> Result<Tensor> {
        const OP: &str = "broadcast_in_dim";
        self.reach_keeping_view(OP, |l| l.broadcast_in_dim_as(OP, target, dims))
    }

    /// Right-aligned broadcasting, as NumPy does it: the source's modes line up with the
    /// last modes of `target`, missing leading modes act as extent 1, and extent-1 leaves
    /// widen with stride 0. Broadcasting happens only through this view and
    /// [`broadcast_to`](Self::broadcast_to)/[`broadcast_in_dim`](Self::broadcast_in_dim):
    /// arithmetic never broadcasts implicitly.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// let b = t.broadcast_right(&"(2,3)".parse().unwrap()).unwrap();
    /// assert_eq!(b.to_vec::<f32>().unwrap(), [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]);
    /// ```
    pub fn broadcast_right(&self, target: &Shape) -> Result<Tensor> {
        self.reach_keeping_view("broadcast_right", |l| l.broadcast_right(target))
    }

    /// Inserts an extent-1, stride-0 top-level mode at position `dim` (`0..=rank`; a negative
    /// `dim` counts back from `rank + 1`, so `-1` appends).
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3)".parse().unwrap());
    /// let u = t.unsqueeze(0).unwrap();
    /// assert_eq!(u.layout().to_string(), "(1,2,3):(0,1,2)");
    /// assert_eq!(u.squeeze(0).unwrap().layout(), t.layout());
    /// assert_eq!(t.unsqueeze(-1).unwrap().shape().to_string(), "(2,3,1)");
    /// ```
    pub fn unsqueeze(&self, dim: impl Dim) -> Result<Tensor> {
        self.view_in_place("unsqueeze", |l, out| l.unsqueeze_into(dim, out))
    }

    /// Removes top-level mode `dim` (`0..rank`; a negative `dim` counts back from `rank`),
    /// which must be an extent-1 leaf.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,1)".parse().unwrap());
    /// assert_eq!(t.squeeze(1).unwrap().shape().to_string(), "(2)");
    /// assert!(t.squeeze(0).is_err());
    /// assert_eq!(t.squeeze(-1).unwrap().shape().to_string(), "(2)");
    /// ```
    pub fn squeeze(&self, dim: impl Dim) -> Result<Tensor> {
        self.reach_keeping_view("squeeze", |l| l.squeeze(dim))
    }

    /// Reverses the coordinates of top-level mode `mode`: a view with negated strides whose
    /// origin is the old last element of that mode. (Slices take only positive steps;
    /// reversal is this separate operation.)
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    /// let r = t.reverse(1).unwrap();
    /// assert_eq!((r.layout().to_string(), r.offset()), ("(2,3):(1,-2)".to_string(), 4));
    /// assert_eq!(r.to_vec::<i32>().unwrap(), [4, 5, 2, 3, 0, 1]);
    /// ```
    pub fn reverse(&self, mode: usize) -> Result<Tensor> {
        const OP: &str = "reverse";
        let s = self.require_single(OP)?;
        let (layout, delta) = s.layout.reverse(mode)?;
        let mut out = self.representation().clone();
        out.subtensors[0].offset = offset_plus(OP, s.offset, delta)?;
        out.subtensors[0].layout = layout;
        out.validate(OP)?;
        crate::autograd::view::record(self, Tensor::from_repr(out), OP, |c| c.reverse(mode))
    }

    /// Rearranges a one-subtensor tensor by trees, as [`Layout::rearrange_tree`] does:
    /// `selection` mirrors the top of the shape and extracts the whole sub-layout at each of
    /// its leaves (by default every leaf, depth-first); in `output`, `Tree::id(n)` places
    /// extracted sub-layout `n` and a plain `Tree::Leaf` inserts an extent-1 mode. Every
    /// extracted sub-layout of size > 1 must be placed exactly once. A view over the same
    /// carrier.
    ///
    /// ```
    /// use strideweave::{Tensor, Tree};
    /// let t = Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
    /// let v = t.rearrange_tree(&Tree::node([Tree::id(1), Tree::Leaf, Tree::id(0)]), None).unwrap();
    /// assert_eq!(v.layout().to_string(), "(3,1,2):(2,0,1)");
    /// ```
    pub fn rearrange_tree(&self, output: &Tree, selection: Option<&Tree>) -> Result<Tensor> {
        const OP: &str = "rearrange_tree";
        self.require_single(OP)?;
        self.view_in_place(OP, |l, out| l.rearrange_tree_into(output, selection, out))
    }

    /// Rearranges by a pattern: `"b (h w) c -> b c h w"` with keyword
    /// extents for split groups and assertions (see [`Layout::rearrange`]). A view over the
    /// same carrier and offset. The pattern is read once per thread, pattern, keywords and
    /// shape (the plan is kept; see [`Layout::rearrange`]), also when autograd records the
    /// view.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"(12,5)".parse().unwrap());
    /// let v = t.rearrange("(h w) c -> h w c", &[("h", 4)]).unwrap();
    /// assert_eq!(v.layout().to_string(), "(4,3,5):(1,4,12)");
    /// let err = t.rearrange("(h w) c -> h w c", &[("h", 5)]).unwrap_err();
    /// assert!(err.to_string().contains("does not divide extent 12 of mode 0"));
    /// ```
    pub fn rearrange(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
        self.pattern_view(Op::Rearrange, pattern, sizes)
    }

    /// einops' `repeat` as a zero-copy view: new symbols on the right become stride-0
    /// modes of the given extents (also inside groups).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
    /// let v = t.repeat("h w -> h w c", &[("c", 4)]).unwrap();
    /// assert_eq!(v.layout().to_string(), "(2,3,4):(1,2,0)");
    /// ```
    pub fn repeat(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
        self.pattern_view(Op::Repeat, pattern, sizes)
    }

    /// `rearrange` and `repeat`: the pattern compiled once on the shape, then
    /// [`view_by`](Self::view_by).
    fn pattern_view(&self, op: Op, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
        let name = op.method();
        self.require_single(name)?;
        self.view_by(
            name,
            &Prepared::parse(self.shape(), op, pattern, sizes)?.plan,
        )
    }

    /// The view by a plan compiled on this tensor's shape, applied to every layout the view
    /// needs (`L_0`, `S_0` and autograd's compact layout); errors start with `name`.
    pub(crate) fn view_by(
        &self,
        name: &'static str,
        plan: &Plan<impl AsRef<[u8]>, impl AsRef<[i64]>, impl AsRef<[usize]>>,
    ) -> Result<Tensor> {
        self.require_single(name)?;
        self.view_in_place(name, |l, out| {
            plan.apply_into(l, out);
            Ok(())
        })
    }
}
