//! Slice indexing: `slice(&[Key])` is always a view (integer keys drop their
//! mode); `index(&[Key])` is Python's form, a view when a slice is present and the element
//! value when every key is an integer.

use crate::dtype::Scalar;
use crate::error::{Error, Result};
use crate::layout::{Key, Layout, Sliced};
use crate::repr::{Representation, Subtensor};
use crate::tensor::Tensor;

/// What [`Tensor::index`] returns: a view when the key holds a slice, else the element's
/// value.
///
/// ```
/// use strideweave::{Indexed, Key, Tensor};
/// let t = Tensor::arange::<f32>(&"(5,10)".parse().unwrap());
/// assert!(matches!(t.index(&[2.into(), 3.into()]).unwrap(), Indexed::Value(_)));
/// assert!(matches!(t.index(&[2.into(), Key::all()]).unwrap(), Indexed::View(_)));
/// ```
#[derive(Clone, Debug)]
pub enum Indexed {
    /// A view over the same carriers.
    View(Tensor),
    /// The value of one element.
    Value(Scalar),
}

impl Indexed {
    /// The view, if this is one.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"(2,2)".parse().unwrap());
    /// assert!(t.index(&[0.into(), 1.into()]).unwrap().view().is_none());
    /// ```
    pub fn view(self) -> Option<Tensor> {
        match self {
            Indexed::View(t) => Some(t),
            Indexed::Value(_) => None,
        }
    }

    /// The value, if this is one.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"(2,2)".parse().unwrap());
    /// assert_eq!(t.index(&[0.into(), 1.into()]).unwrap().value().unwrap().to_f64(), 2.0);
    /// ```
    pub fn value(self) -> Option<Scalar> {
        match self {
            Indexed::Value(v) => Some(v),
            Indexed::View(_) => None,
        }
    }
}

impl Tensor {
    /// The view selected by one key per top-level mode (`tensor[keys]` in Python): an
    /// integer selects one coordinate and drops its mode; a slice selects a regular range
    /// and keeps it. Always a view over the same carriers, starting at the first selected
    /// element; with integers only it has the empty shape `()`. The [`s!`](crate::s) macro
    /// writes the keys in Python's notation.
    ///
    /// ```
    /// use strideweave::{Key, Tensor, s};
    /// let t = Tensor::arange::<f32>(&"(5,10)".parse().unwrap());
    /// let v = t.slice(&s![2, 1..9;2]).unwrap();
    /// assert_eq!((v.layout().to_string(), v.offset()), ("4:10".to_string(), 7));
    /// assert_eq!(v.to_vec::<f32>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
    /// let one = t.slice(&[2.into(), 3.into()]).unwrap();
    /// assert_eq!((one.rank(), one.item::<f32>().unwrap()), (0, 17.0));
    /// let err = t.slice(&[Key::all(), Key::slice(Some(1), Some(8), Some(3))]).unwrap_err();
    /// assert!(err.to_string().starts_with("slice: slice 1:8:3 on mode 1"));
    /// ```
    pub fn slice(&self, keys: &[Key]) -> Result<Tensor> {
        const OP: &str = "slice";
        if let Some(view) = self.slice_in_place(OP, keys) {
            return view;
        }
        let sliced = self.representation().subtensors[0]
            .layout
            .slice_as(OP, keys)?;
        self.sliced_view(OP, keys, sliced)
    }

    /// `tensor[keys]` as Python's indexing returns it: the element's value when every key is
    /// an integer, else the view [`slice`](Self::slice) returns. Use `slice` for a view and
    /// [`get`](Self::get) for a value when the kind is known in advance.
    ///
    /// ```
    /// use strideweave::{Indexed, Tensor, s};
    /// let t = Tensor::arange::<f32>(&"(5,10)".parse().unwrap());
    /// assert_eq!(t.index(&s![2, 3]).unwrap().value().unwrap().to_f64(), 17.0);
    /// let v = t.index(&s![2, 1..9;2]).unwrap().view().unwrap();
    /// assert_eq!(v.to_vec::<f32>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
    /// assert!(t.index(&s![5, 0]).unwrap_err().to_string().starts_with("index: integer key 5"));
    /// ```
    pub fn index(&self, keys: &[Key]) -> Result<Indexed> {
        const OP: &str = "index";
        if keys.iter().any(|k| matches!(k, Key::Slice { .. }))
            && let Some(view) = self.slice_in_place(OP, keys)
        {
            return view.map(Indexed::View);
        }
        let r = self.representation();
        let sliced = r.subtensors[0].layout.slice_as(OP, keys)?;
        if sliced.layout.is_some() {
            return self.sliced_view(OP, keys, sliced).map(Indexed::View);
        }
        if !r.is_single() {
            return Err(Error::NotImplemented {
                op: OP,
                reason: "coordinate access requires a one-subtensor Tensor".into(),
            });
        }
        let s = &r.subtensors[0];
        let at = (s.offset as i64 + sliced.offset) as usize;
        s.carrier.with_host(OP, |b| Ok(Indexed::Value(b.get(at))))
    }

    /// The view of a slice of a one-subtensor tensor, its layout and offset written in
    /// place inside the new handle, recorded for autograd; `None` for another
    /// representation. A selection reads a subset of the source's carrier indices, so it
    /// stays inside the carrier because the source did: no placement check.
    fn slice_in_place(&self, op: &'static str, keys: &[Key]) -> Option<Result<Tensor>> {
        let r = self.representation();
        if !r.is_single() || !r.adjacent.is_empty() {
            return None;
        }
        let first = &r.subtensors[0];
        let view = Tensor::single_in_place(r.dtype, first.carrier.clone(), first.offset, |out| {
            let (delta, _) = first.layout.slice_into(op, keys, &mut out.layout)?;
            out.offset = offset_plus(op, first.offset, delta)?;
            Ok(())
        });
        Some(view.and_then(|out| {
            debug_assert!(out.representation().validate(op).is_ok());
            self.record_slice(op, keys, out)
        }))
    }

    /// Records `out`, the slice of `self` by `keys`, for autograd.
    fn record_slice(&self, op: &'static str, keys: &[Key], out: Tensor) -> Result<Tensor> {
        crate::autograd::view::record(self, out, op, |c| {
            let s = c.slice_as(op, keys)?;
            Ok((s.layout.unwrap_or_else(rank0), s.offset))
        })
    }

    /// The view of a slice of `L_0` and `S_0` of a multi-subtensor tensor, recorded for
    /// autograd.
    fn sliced_view(&self, op: &'static str, keys: &[Key], sliced: Sliced) -> Result<Tensor> {
        let r = self.representation();
        if !r.is_single() && !sliced.at_origin {
            return Err(Error::NotImplemented {
                op,
                reason: format!(
                    "a multi-subtensor ({}) selection must start at the origin; keys [{}] start elsewhere",
                    r.dtype,
                    keys.iter()
                        .map(|k| k.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        let first = &r.subtensors[0];
        let mut subtensors = smallvec::SmallVec::new();
        subtensors.push(Subtensor {
            carrier: first.carrier.clone(),
            offset: offset_plus(op, first.offset, sliced.offset)?,
            layout: sliced.layout.unwrap_or_else(rank0),
        });
        let mut adjacent = Vec::new();
        if r.subtensors.len() > 1 {
            subtensors.extend(r.subtensors[1..].iter().cloned());
            adjacent = r.adjacent.clone();
            // The same keys select from S_0; at the origin they add no offset.
            if let Some(s0) = adjacent.first_mut() {
                *s0 = s0.slice_as(op, keys)?.layout.unwrap_or_else(rank0);
            }
        }
        let out = Representation {
            dtype: r.dtype,
            subtensors,
            adjacent,
        };
        out.validate(op)?;
        self.record_slice(op, keys, Tensor::from_repr(out))
    }
}

/// The layout `():()` of one element: what integer keys on every mode leave.
fn rank0() -> Layout {
    Layout::unit()
}

/// `offset + delta`, which must stay a valid (non-negative) offset.
pub(crate) fn offset_plus(op: &'static str, offset: usize, delta: i64) -> Result<usize> {
    let o = offset as i64 + delta;
    usize::try_from(o).map_err(|_| Error::ViewOutOfBounds {
        op,
        detail: format!("the view would start at carrier index {o}, before the carrier"),
    })
}
