//! Representations: a logical dtype, ordered subtensors and adjacent layouts. Construction
//! checks, in order, that there is one subtensor per storage entry of the dtype, that the
//! carriers and placements fit, that the adjacent layouts stay inside the next level, and then
//! the dtype's own rules (the block-scaled dtype's: its scale placement is injective).

use smallvec::SmallVec;

use crate::carrier::Carrier;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// One subtensor: a carrier, the offset `o_i` and the placement layout `L_i`; element
/// `k` of level i lives at carrier index `o_i + L_i(k)`.
///
/// ```
/// use strideweave::{Carrier, Subtensor};
/// let s = Subtensor { carrier: Carrier::from_vec(vec![0f32; 6]), offset: 0, layout: "(2,3):(1,2)".parse().unwrap() };
/// assert_eq!(s.layout.size(), 6);
/// ```
#[derive(Clone, Debug)]
pub struct Subtensor {
    /// The carrier; its dtype is this subtensor's storage dtype.
    pub carrier: Carrier,
    /// The offset: the carrier index of the element at coordinate 0.
    pub offset: usize,
    /// The placement layout.
    pub layout: Layout,
}

/// The versions of each distinct carrier of a representation, in order of first occurrence:
/// what autograd saves to detect a mutation between a forward call and its backward.
///
/// ```
/// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0], &"2".parse().unwrap()).unwrap();
/// let snap: strideweave::Snapshot = t.snapshot();
/// assert!(snap.changed().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Snapshot(pub(crate) SmallVec<[(Carrier, u64); 2]>);

impl Snapshot {
    /// `(carrier, saved version)` pairs.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0], &"2".parse().unwrap()).unwrap();
    /// let snap = t.snapshot();
    /// assert_eq!(snap.entries().len(), 1);
    /// assert_eq!(snap.entries()[0].1, 0);
    /// ```
    pub fn entries(&self) -> &[(Carrier, u64)] {
        &self.0
    }

    /// The first carrier whose version changed since the snapshot: `(carrier, saved, current)`.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0], &"2".parse().unwrap()).unwrap();
    /// let snap = t.snapshot();
    /// t.set_ordinal(0, 3.0f32).unwrap();
    /// assert_eq!(snap.changed().unwrap().1, 0);
    /// ```
    pub fn changed(&self) -> Option<(&Carrier, u64, u64)> {
        self.0
            .iter()
            .map(|(c, v)| (c, *v, c.version()))
            .find(|(_, saved, now)| saved != now)
    }
}

/// A tensor's one authoritative representation: its logical dtype, its subtensors (each a
/// carrier, an offset and a placement layout) and the adjacent layouts that link one level's
/// coordinates to the next (for example a block-scaled tensor's elements to their scales).
///
/// ```
/// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0], &"2".parse().unwrap()).unwrap();
/// let r: &strideweave::Representation = t.representation();
/// assert_eq!((r.subtensors().len(), r.adjacent().len()), (1, 0));
/// ```
#[derive(Clone, Debug)]
pub struct Representation {
    pub(crate) dtype: DType,
    pub(crate) subtensors: SmallVec<[Subtensor; 1]>,
    pub(crate) adjacent: Vec<Layout>,
}

impl Representation {
    /// Builds and validates a representation. It fails when the subtensors do not match the
    /// dtype's storage entries one for one (a value error), when a carrier holds another dtype
    /// than its entry or the carriers are of different classes (a type error), when a
    /// placement reaches outside its carrier, when an adjacent layout does not have its
    /// level's shape or reaches outside the next level (value errors), and finally when one of
    /// the dtype's own rules fails (a block-scaled tensor's scale placement must be
    /// injective).
    ///
    /// ```
    /// use strideweave::{Carrier, DType, Representation, Subtensor};
    /// let s = Subtensor { carrier: Carrier::from_vec(vec![0f32; 6]), offset: 0, layout: "(2,3):(1,2)".parse().unwrap() };
    /// let r = Representation::new(DType::F32, vec![s], vec![]).unwrap();
    /// assert_eq!(r.subtensors().len(), 1);
    /// ```
    pub fn new(
        dtype: DType,
        subtensors: Vec<Subtensor>,
        adjacent: Vec<Layout>,
    ) -> Result<Representation> {
        let r = Representation {
            dtype,
            subtensors: subtensors.into_iter().collect(),
            adjacent,
        };
        r.validate("Representation::new")?;
        Ok(r)
    }

    /// The logical dtype.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1i8], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(t.representation().dtype(), strideweave::DType::I8);
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The subtensors in order.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1i8], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(t.representation().subtensors()[0].offset, 0);
    /// ```
    pub fn subtensors(&self) -> &[Subtensor] {
        &self.subtensors
    }

    /// The adjacent layouts `S_0 … S_{n-2}`.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1i8], &"1".parse().unwrap()).unwrap();
    /// assert!(t.representation().adjacent().is_empty());
    /// ```
    pub fn adjacent(&self) -> &[Layout] {
        &self.adjacent
    }

    /// The mutation snapshot: each distinct carrier once, in order of first occurrence, with
    /// its current version.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0], &"2".parse().unwrap()).unwrap();
    /// let snap = t.representation().snapshot();
    /// assert_eq!(snap.entries().len(), 1);
    /// ```
    pub fn snapshot(&self) -> Snapshot {
        let mut out: SmallVec<[(Carrier, u64); 2]> = SmallVec::new();
        for s in &self.subtensors {
            if !out.iter().any(|(c, _)| Carrier::same(c, &s.carrier)) {
                out.push((s.carrier.clone(), s.carrier.version()));
            }
        }
        Snapshot(out)
    }

    /// The checks of the module's documentation, in order; the first violation is the error.
    pub(crate) fn validate(&self, op: &'static str) -> Result<()> {
        if let ([only], true) = (self.subtensors.as_slice(), self.adjacent.is_empty()) {
            // One plain subtensor (every view of a plain tensor): RT003 holds when the
            // carrier's dtype is the logical one; RT004 is the placement; no rules apply.
            if only.carrier.dtype() == self.dtype {
                return check_placement(op, 0, only);
            }
        }
        let schema = self.dtype.storage_schema();
        // RT003: the schema fixes the number of subtensors and adjacent layouts.
        if self.subtensors.len() != schema.len() || self.adjacent.len() + 1 != schema.len() {
            return Err(Error::NotRepresentable {
                op,
                reason: format!(
                    "dtype {} needs {} subtensor(s) and {} adjacent layout(s), found {} and {}",
                    self.dtype,
                    schema.len(),
                    schema.len() - 1,
                    self.subtensors.len(),
                    self.adjacent.len()
                ),
            });
        }
        // RT004: storage dtypes, one carrier class, placements inside their carriers.
        let class = self.subtensors[0].carrier.class();
        for (i, (s, want)) in self.subtensors.iter().zip(schema).enumerate() {
            if s.carrier.dtype() != *want {
                return Err(Error::WrongType {
                    op,
                    expected: format!(
                        "a {want} carrier for subtensor {i} of a {} tensor",
                        self.dtype
                    ),
                    found: format!("a {} carrier", s.carrier.dtype()),
                });
            }
            if s.carrier.class() != class {
                return Err(Error::WrongType {
                    op,
                    expected: format!("carriers of one class ({class})"),
                    found: format!("a {} carrier for subtensor {i}", s.carrier.class()),
                });
            }
            check_placement(op, i, s)?;
        }
        // RT005: adjacent layouts share their level's shape and reach only the next level.
        for (i, a) in self.adjacent.iter().enumerate() {
            let here = &self.subtensors[i].layout;
            if a.shape() != here.shape() {
                return Err(Error::ShapeMismatch {
                    op,
                    expected: here.shape().to_string(),
                    found: a.shape().to_string(),
                    detail: format!("adjacent layout S_{i} must have the shape of placement L_{i}"),
                });
            }
            let next = self.subtensors[i + 1].layout.size() as i64;
            let (lo, hi) = a.reach();
            if lo < 0 || hi >= next {
                let bad = if lo < 0 { lo } else { hi };
                return Err(Error::OutOfDomain {
                    op,
                    what: "adjacent index",
                    value: bad,
                    place: format!(
                        "level {} (S_{i} = {a} must reach only the {next} coordinates of level {})",
                        i + 1,
                        i + 1
                    ),
                    bound: next,
                });
            }
        }
        // RT006: the dtype's own rules.
        dtype_rules(self.dtype, self, op)
    }

    /// Whether this is a one-subtensor representation.
    pub(crate) fn is_single(&self) -> bool {
        self.subtensors.len() == 1
    }
}

/// One subtensor's placement fits its carrier: `offset + reach` inside `[0, carrier.len())`.
pub(crate) fn check_placement(op: &'static str, i: usize, s: &Subtensor) -> Result<()> {
    let (lo, hi) = s.layout.reach();
    let len = s.carrier.len() as i64;
    let o = i64::try_from(s.offset).map_err(|_| Error::overflow(op, "the offset"))?;
    let (first, last) = (o.checked_add(lo), o.checked_add(hi));
    match (first, last) {
        (Some(first), Some(last)) if first >= 0 && last < len => Ok(()),
        _ => Err(Error::ViewOutOfBounds {
            op,
            detail: format!(
                "subtensor {i} (offset {o}, layout {}) reaches carrier indices {}..={} but its carrier holds {len} element{}",
                s.layout,
                o.saturating_add(lo),
                o.saturating_add(hi),
                if len == 1 { "" } else { "s" }
            ),
        }),
    }
}

/// The dtype's own rules, run after the universal checks on a read-only representation:
/// the scale placement of a block-scaled tensor is injective.
fn dtype_rules(dtype: DType, r: &Representation, op: &'static str) -> Result<()> {
    if dtype == DType::BlockScaledI8F32 && !r.subtensors[1].layout.is_injective() {
        return Err(Error::NotInjective {
            op,
            layout: format!(
                "{} (the scale placement L_1 of a block-scaled tensor)",
                r.subtensors[1].layout
            ),
        });
    }
    Ok(())
}
