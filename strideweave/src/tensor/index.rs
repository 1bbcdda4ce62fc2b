//! Slice indexing: `index(&[Key])` returns a view when a slice is present and the
//! element value when every key is an integer.

use crate::dtype::Scalar;
use crate::error::{Error, Result};
use crate::layout::Key;
use crate::repr::{Representation, Subtensor};
use crate::tensor::Tensor;

/// What indexing returns: a view when the key holds a slice, else the element's value.
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
    /// `tensor[key]`: one key per top-level mode. An integer selects one coordinate (and
    /// removes the mode); a slice selects a regular range (and keeps it). With a slice
    /// present the result is a view at the first selected element; with integers only it
    /// is that element's value.
    ///
    /// ```
    /// use strideweave::{Key, Tensor};
    /// let t = Tensor::arange::<f32>(&"(5,10)".parse().unwrap());
    /// let v = t.index(&[2.into(), Key::slice(Some(1), Some(9), Some(2))]).unwrap().view().unwrap();
    /// assert_eq!((v.layout().to_string(), v.offset()), ("4:10".to_string(), 7));
    /// assert_eq!(v.to_vec::<f32>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
    /// let err = t.index(&[Key::all(), Key::slice(Some(1), Some(8), Some(3))]).unwrap_err();
    /// assert!(err.to_string().contains("interval width 7 is not a multiple of the step 3"));
    /// ```
    pub fn index(&self, keys: &[Key]) -> Result<Indexed> {
        const OP: &str = "index";
        let r = self.representation();
        let sliced = r.subtensors[0].layout.slice(keys)?;
        if !r.is_single() {
            if sliced.layout.is_none() {
                return Err(Error::NotImplemented {
                    op: OP,
                    reason: "coordinate access requires a one-subtensor Tensor".into(),
                });
            }
            if !sliced.at_origin {
                return Err(Error::NotImplemented {
                    op: OP,
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
        }
        let Some(l0) = sliced.layout else {
            let s = &r.subtensors[0];
            return Ok(Indexed::Value(
                s.carrier.get((s.offset as i64 + sliced.offset) as usize)?,
            ));
        };
        let first = &r.subtensors[0];
        let mut subtensors = smallvec::SmallVec::new();
        subtensors.push(Subtensor {
            carrier: first.carrier.clone(),
            offset: offset_plus(OP, first.offset, sliced.offset)?,
            layout: l0,
        });
        let mut adjacent = Vec::new();
        if r.subtensors.len() > 1 {
            subtensors.extend(r.subtensors[1..].iter().cloned());
            adjacent = r.adjacent.clone();
            // The same keys select from S_0; at the origin they add no offset.
            if let Some(s0) = adjacent.first_mut()
                && let Some(l) = s0.slice(keys)?.layout
            {
                *s0 = l;
            }
        }
        let out = Representation {
            dtype: r.dtype,
            subtensors,
            adjacent,
        };
        out.validate(OP)?;
        let view = crate::autograd::view::record(self, Tensor::from_repr(out), OP, |c| {
            let s = c.slice(keys)?;
            Ok((s.layout.expect("the same keys keep a slice"), s.offset))
        })?;
        Ok(Indexed::View(view))
    }
}

/// `offset + delta`, which must stay a valid (non-negative) offset.
pub(crate) fn offset_plus(op: &'static str, offset: usize, delta: i64) -> Result<usize> {
    let o = offset as i64 + delta;
    usize::try_from(o).map_err(|_| Error::ViewOutOfBounds {
        op,
        detail: format!("the view would start at carrier index {o}, before the carrier"),
    })
}
