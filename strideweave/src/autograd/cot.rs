//! Cotangents while backward runs, kept unexpanded until they are written once.
//!
//! A cotangent of a tensor is a list of contributions (parts), summed in arrival order.
//! Each part holds values of some shape, readable in place through a layout — a dense
//! first-mode-fastest vector, a splat (one value through stride 0, as `sum` gives), or the
//! caller's cotangent tensor where it lies — and, when it crossed a chain of views, where
//! it lands: the chain's last view, whose layout over the shared carrier *is* the composed
//! placement of the whole chain on its base, plus the same reads as the base's ordinals.
//! A gradient buffer of an injective base is then written in one strided pass per part,
//! through the view's own layout (copy engine, or scatter-add where the view broadcasts);
//! a node that needs its cotangent as a vector gets it through the ordinal map.

use smallvec::{SmallVec, smallvec};

use crate::autograd::view::OrdinalMap;
use crate::carrier::Carrier;
use crate::dtype::zeroed_vec;
use crate::error::Result;
use crate::kernels::num::{Dense, Num, with_num};
use crate::kernels::scatter::{place, place_splat};
use crate::layout::Layout;
use crate::tensor::Tensor;
use crate::tensor::read::{gather, read};

/// The values of one contribution, in the order of its shape.
#[derive(Clone)]
enum Values {
    /// First-mode-fastest values, or a splat.
    Dense(Dense),
    /// A caller's cotangent tensor, read through its own layout where it lies.
    Held(Tensor),
}

/// Where a contribution that crossed views lands on the tensor whose cotangent it is.
#[derive(Clone)]
struct Placement {
    /// The last view of the chain: its layout and offset over the target's carrier.
    view: Tensor,
    /// The same reads as the target's ordinals.
    map: OrdinalMap,
}

#[derive(Clone)]
struct Part {
    values: Values,
    /// Boxed: a layout and a map are large, and most cotangents have no placement.
    place: Option<Box<Placement>>,
}

/// The cotangent of one tensor: its contributions, in arrival order.
#[derive(Clone)]
pub(crate) struct Cot {
    parts: SmallVec<[Part; 1]>,
}

impl Cot {
    /// First-mode-fastest values (or a splat) of the tensor's shape.
    pub(crate) fn dense(d: Dense) -> Cot {
        Cot::from_values(Values::Dense(d))
    }

    /// A caller's cotangent tensor of the tensor's shape, read where it lies when used.
    pub(crate) fn held(t: Tensor) -> Cot {
        Cot::from_values(Values::Held(t))
    }

    fn from_values(values: Values) -> Cot {
        Cot {
            parts: smallvec![Part {
                values,
                place: None
            }],
        }
    }

    /// `self + other`: vectors add at once (as every op's cotangents always did); anything
    /// else is kept as one more part.
    pub(crate) fn add(slot: &mut Option<Cot>, other: Cot) {
        let Some(acc) = slot else {
            *slot = Some(other);
            return;
        };
        if let (Some(a), Some(b)) = (acc.as_plain_mut(), other.as_plain())
            && a.dtype() == b.dtype()
        {
            a.add_assign(b);
            return;
        }
        acc.parts.extend(other.parts);
    }

    fn as_plain(&self) -> Option<&Dense> {
        match &self.parts[..] {
            [
                Part {
                    values: Values::Dense(d),
                    place: None,
                },
            ] if !matches!(d, Dense::Splat(..)) => Some(d),
            _ => None,
        }
    }

    fn as_plain_mut(&mut self) -> Option<&mut Dense> {
        match &mut self.parts[..] {
            [
                Part {
                    values: Values::Dense(d),
                    place: None,
                },
            ] if !matches!(d, Dense::Splat(..)) => Some(d),
            _ => None,
        }
    }

    /// This cotangent of `view` (a view of `target` through `map`) as a contribution to
    /// `target`'s: moved as it is when it is one unplaced part on the same carrier,
    /// else expanded to a vector first.
    pub(crate) fn through_view(
        mut self,
        op: &'static str,
        view: &Tensor,
        target: &Tensor,
        map: &OrdinalMap,
    ) -> Result<Cot> {
        let shares = match (view.require_single(op), target.require_single(op)) {
            (Ok(a), Ok(b)) => Carrier::same(&a.carrier, &b.carrier),
            _ => false,
        };
        let values = match self.single_unplaced() {
            Some(values) if shares => values,
            Some(values) => Values::Dense(Cot::from_values(values).into_dense(op, view)?),
            None => Values::Dense(self.into_dense(op, view)?),
        };
        if !shares {
            let d = match values {
                Values::Dense(d) => d,
                Values::Held(t) => held_dense(op, &t)?,
            };
            return Ok(Cot::dense(map.scatter(op, d)?));
        }
        Ok(Cot {
            parts: smallvec![Part {
                values,
                place: Some(Box::new(Placement {
                    view: view.clone(),
                    map: map.clone(),
                })),
            }],
        })
    }

    /// The values of the one part, taken, when there is one and it has no placement.
    fn single_unplaced(&mut self) -> Option<Values> {
        match &self.parts[..] {
            [Part { place: None, .. }] => self.parts.pop().map(|p| p.values),
            _ => None,
        }
    }

    /// The first-mode-fastest values over `target`'s shape (a splat stays one).
    pub(crate) fn into_dense(mut self, op: &'static str, target: &Tensor) -> Result<Dense> {
        if let Some(values) = self.single_unplaced() {
            return match values {
                Values::Dense(d) => Ok(d),
                Values::Held(t) => held_dense(op, &t),
            };
        }
        let dtype = target.dtype();
        with_num!(dtype, T => {
            let mut g = zeroed_vec(op, target.size())?;
            self.write::<T>(op, target, &mut g, None)?;
            Ok(T::dense(g))
        }, _ => unreachable!("cotangents are differentiable"))
    }

    /// Adds the one part of this cotangent into `buf`, laid out as `target` with ordinal
    /// `j` at `base + L(j)`, in one strided pass, when that keeps today's sums (`old +
    /// value` at every index: one part whose placement does not alias). `false`: nothing
    /// was written; add a vector instead.
    pub(crate) fn add_in_place<T: Num>(
        &self,
        op: &'static str,
        target: &Tensor,
        buf: &mut [T],
        base: i64,
    ) -> Result<bool> {
        let [part] = &self.parts[..] else {
            return Ok(false);
        };
        let l = match &part.place {
            Some(p) => p.view.layout(),
            None => target.layout(),
        };
        if !l.is_injective() {
            return Ok(false);
        }
        part.write(op, target, buf, Some(base), false)?;
        Ok(true)
    }

    /// Writes the sum of the parts into `buf`, zeros: the target's values in
    /// first-mode-fastest order (`base` `None`), or a gradient buffer laid out as `target`
    /// (injective) with ordinal `j` at `base + L(j)`. One strided pass per part.
    pub(crate) fn write<T: Num>(
        &self,
        op: &'static str,
        target: &Tensor,
        buf: &mut [T],
        base: Option<i64>,
    ) -> Result<()> {
        for (k, part) in self.parts.iter().enumerate() {
            part.write(op, target, buf, base, k == 0)?;
        }
        Ok(())
    }
}

impl Part {
    /// Writes (`fresh`: into zeros) or adds this part into `buf` (`base` as in
    /// [`Cot::write`]).
    fn write<T: Num>(
        &self,
        op: &'static str,
        target: &Tensor,
        buf: &mut [T],
        base: Option<i64>,
        fresh: bool,
    ) -> Result<()> {
        let compact;
        let (layout, offset): (&Layout, i64) = match (&self.place, base) {
            (Some(p), None) => (p.map.layout(), p.map.delta()),
            (Some(p), Some(base)) => (
                p.view.layout(),
                base + p.view.offset() as i64 - target.offset() as i64,
            ),
            (None, None) => {
                compact = Layout::compact(target.shape());
                (&compact, 0)
            }
            (None, Some(base)) => (target.layout(), base),
        };
        match &self.values {
            Values::Dense(d) => {
                // unreachable from user input: cotangents are built by the engine in their tensor's dtype.
                let (v, splat) = T::undense_strided(d).expect("a cotangent has its tensor's dtype");
                if splat {
                    // Through a broadcast: `v · n` once per index, not `n` additions.
                    place_splat(v[0], (buf, offset, layout), fresh);
                    return Ok(());
                }
                let strides: SmallVec<[i64; 8]> =
                    Layout::compact(layout.shape()).stride().leaves().into();
                place((v, 0, &strides), (buf, offset, layout), fresh);
            }
            Values::Held(t) => add_held(op, t, (buf, offset, layout), fresh)?,
        }
        Ok(())
    }
}

/// Writes (`fresh`) or adds the values of the tensor `t` into `buf` through the placement
/// `(offset, layout)` of `t`'s shape, read where they lie in one pass.
pub(crate) fn add_held<T: Num>(
    op: &'static str,
    t: &Tensor,
    (buf, offset, layout): (&mut [T], i64, &Layout),
    fresh: bool,
) -> Result<()> {
    if t.shape().leaves() == layout.shape().leaves() {
        return read(t, op, |x: &[T], o, l| {
            place((x, o, l.stride().leaves()), (buf, offset, layout), fresh)
        });
    }
    // The same shape in another hierarchy: its values in first-mode-fastest order first.
    let v = gather::<T>(t, op)?;
    let c = Layout::compact(layout.shape());
    place((&v, 0, c.stride().leaves()), (buf, offset, layout), fresh);
    Ok(())
}

/// A held cotangent's values in first-mode-fastest order.
fn held_dense(op: &'static str, t: &Tensor) -> Result<Dense> {
    with_num!(t.dtype(), T => Ok(T::dense(gather::<T>(t, op)?)),
        _ => unreachable!("cotangents are differentiable"))
}
