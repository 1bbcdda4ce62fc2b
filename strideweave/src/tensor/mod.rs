//! `Tensor`: a cheap handle to one validated representation over shared carriers.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `mod` | the handle, constructors, accessors |
//! | `access` | element reads and writes, `to_vec`, iteration |
//! | `materialize` | materialize, relayout and their `_into` forms; the copy path of `copy_from` and `to_vec` |
//! | `spare` | per-thread free lists of emptied handle and borrowed-view allocations that views reuse |
//! | `transfer` | `to_shape` (keep the storage, change the shape) and `transfer_to` (a new owner of a requested class) |
//! | `index` | slice indexing (`index(&[Key])`) |
//! | `borrowed` | `TensorView`: the same views on a borrowed tensor, without a handle per step |
//! | `views` | permute, reshape, as_strided, broadcasts, squeeze/unsqueeze, reversal, rearrange |
//! | `tiling` | CuTe's tensor algebra as views: compose, the divides, `local_tile`, `local_partition`, `inner_partition`, `outer_partition`, `partition_tv` |

mod access;
mod block_scaled;
mod borrowed;
mod display;
pub(crate) mod groups;
#[cfg(all(test, feature = "half"))]
mod half_tests;
mod index;
pub(crate) mod materialize;
#[cfg(feature = "rand")]
mod random;
pub(crate) mod read;
mod spare;
mod tiling;
mod transfer;
mod views;

use std::fmt;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::sync::Arc;

use crate::carrier::{Carrier, CarrierClass};
use crate::dtype::{DType, Element, HostVec};
use crate::error::{Error, Result};
use crate::layout::{Layout, Shape};
use crate::repr::{Representation, Snapshot, Subtensor};

pub use borrowed::TensorView;
pub use index::Indexed;

/// A tensor: a logical dtype and ordered subtensors over shared carriers; each subtensor
/// reads its carrier through an offset and a layout.
///
/// Cloning the handle is cheap and shares everything. Every view returns a new `Tensor`
/// over the identical carriers without copying an element.
///
/// ```
/// use strideweave::{Carrier, Tensor};
/// let c = Carrier::from_vec((0..6).map(|i| i as f32).collect());
/// let t = Tensor::new(c.clone(), 0, "(2,3):(1,2)".parse().unwrap()).unwrap();
/// let v = t.permute(&[1, 0]).unwrap();
/// assert!(Carrier::same(v.carrier(), &c));
/// assert_eq!(v.to_vec::<f32>().unwrap(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
/// ```
#[derive(Clone)]
pub struct Tensor {
    /// Dropped only by [`Tensor`]'s `Drop`, which recycles a sole owner's allocation.
    pub(crate) inner: ManuallyDrop<Arc<TensorInner>>,
}

pub(crate) struct TensorInner {
    pub(crate) repr: Representation,
    /// Gradient state: requires-grad flag, `.grad`, retention, the recorded node.
    pub(crate) autograd: crate::autograd::Meta,
}

impl Tensor {
    /// A one-subtensor tensor whose dtype is the carrier's: element `k` lives at
    /// `offset + layout(k)`, which must stay inside the carrier (otherwise a `Value` error).
    ///
    /// ```
    /// use strideweave::{Carrier, ErrorKind, Tensor};
    /// let c = Carrier::from_vec(vec![0u8; 10]);
    /// assert!(Tensor::new(c.clone(), 4, "(2,3):(1,2)".parse().unwrap()).is_ok());
    /// let err = Tensor::new(c, 5, "(2,3):(1,2)".parse().unwrap()).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Value);
    /// assert!(err.to_string().contains("reaches carrier indices 5..=10"));
    /// ```
    pub fn new(carrier: Carrier, offset: usize, layout: Layout) -> Result<Tensor> {
        let repr = Representation {
            dtype: carrier.dtype(),
            subtensors: smallvec::smallvec![Subtensor {
                carrier,
                offset,
                layout
            }],
            adjacent: Vec::new(),
        };
        repr.validate("Tensor::new")?;
        Ok(Tensor::from_repr(repr))
    }

    #[inline]
    pub(crate) fn from_repr(repr: Representation) -> Tensor {
        let value = || TensorInner {
            repr,
            autograd: crate::autograd::Meta::default(),
        };
        Tensor::in_slot(value, |_| ()).0
    }

    /// The handle holding `value()` in a spare (or new) allocation, after `fill` has completed
    /// it in place there (its result is returned beside the handle): the one place a value
    /// is written into a handle's allocation.
    #[inline(always)]
    fn in_slot<R>(
        value: impl FnOnce() -> TensorInner,
        fill: impl FnOnce(&mut TensorInner) -> R,
    ) -> (Tensor, R) {
        let raw = Arc::into_raw(spare::take()).cast_mut();
        // Built after `take` (a call), so that it goes straight into the slot: a value built
        // before it lives on the stack across the call and is then copied in with `memcpy`
        // (~80 more instructions per view, callgrind).
        let value = value();
        // SAFETY: `raw` comes from `Arc::into_raw` of a slot `spare::take` returns uniquely
        // owned (strong count 1, never cloned or downgraded), so it is the only pointer to the
        // allocation: writing through it is exclusive (as `Arc::get_mut` would allow, without
        // its atomic uniqueness check), and `MaybeUninit::write` initialises the whole value.
        // The `&mut` it returns ends before `Arc::from_raw` below takes the allocation back.
        #[allow(unsafe_code)]
        let inner = unsafe { (*raw).write(value) };
        let filled = fill(inner);
        // SAFETY: `raw` is the pointer `Arc::into_raw` returned above (same type), given back
        // once; its value was initialised above and nothing has moved or dropped it since
        // (`fill` reaches it only through `&mut`; if it panics, the allocation leaks instead
        // of being read).
        #[allow(unsafe_code)]
        let inner = unsafe { Arc::from_raw(raw).assume_init() };
        let t = Tensor {
            inner: ManuallyDrop::new(inner),
        };
        (t, filled)
    }

    /// The shared gradient state and representation, taken out of the handle without the
    /// recycling drop (for code that unwraps a sole owner's allocation itself).
    pub(crate) fn into_inner(self) -> Arc<TensorInner> {
        let mut me = ManuallyDrop::new(self);
        // SAFETY: `me` is never dropped, so its `inner` is taken exactly once, here.
        #[allow(unsafe_code)]
        unsafe {
            ManuallyDrop::take(&mut me.inner)
        }
    }

    /// The handle of a one-subtensor representation, unvalidated: the caller has checked
    /// (or knows) that the representation is valid.
    #[inline]
    pub(crate) fn single(dtype: DType, carrier: Carrier, offset: usize, layout: Layout) -> Tensor {
        // `from_buf`, not `smallvec!` (which pushes): the subtensor is written once.
        Tensor::from_repr(Representation {
            dtype,
            subtensors: smallvec::SmallVec::from_buf([Subtensor {
                carrier,
                offset,
                layout,
            }]),
            adjacent: Vec::new(),
        })
    }

    /// The handle of a one-subtensor representation whose subtensor `write` completes in
    /// place inside the handle's allocation (it starts as `carrier`, `offset` and the
    /// placeholder layout `():()`): a view's only heap allocation, with nothing built on the
    /// stack and then moved into it. Unvalidated, as [`single`](Self::single); an error of
    /// `write` drops the new handle.
    #[inline(always)]
    pub(crate) fn single_in_place(
        dtype: DType,
        carrier: Carrier,
        offset: usize,
        write: impl FnOnce(&mut Subtensor) -> Result<()>,
    ) -> Result<Tensor> {
        let value = || TensorInner {
            repr: Representation {
                dtype,
                subtensors: smallvec::SmallVec::from_buf([Subtensor {
                    carrier,
                    offset,
                    layout: Layout::unit(),
                }]),
                adjacent: Vec::new(),
            },
            autograd: crate::autograd::Meta::default(),
        };
        let (t, written) = Tensor::in_slot(value, |inner| write(&mut inner.repr.subtensors[0]));
        match written {
            Ok(()) => Ok(t),
            Err(e) => Err(Tensor::discard(t, e)),
        }
    }

    /// Drops a handle `write` failed to complete (its allocation goes back to the list) and
    /// passes the error on. Out of line: inlined, the drop's code sat in every view's body
    /// and cost each successful view ~85 instructions (callgrind, `broadcast_to` rank 4).
    #[cold]
    #[inline(never)]
    fn discard(t: Tensor, e: Error) -> Error {
        drop(t);
        e
    }

    /// A tensor over `data` with the compact (first-mode-fastest) layout of `shape`.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1, 2, 3, 4, 5, 6i32], &"(2,3)".parse().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(2,3):(1,2)");
    /// let err = strideweave::Tensor::from_vec(vec![1i32], &"(2,3)".parse().unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "Tensor::from_vec: expected 6 elements, found 1");
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &Shape) -> Result<Tensor> {
        Tensor::from_vec_with(data, Layout::compact(shape), "Tensor::from_vec")
    }

    /// A tensor over `data` read in row-major order (last leaf fastest) of `shape`.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec_row_major(vec![1, 2, 3, 4, 5, 6i32], &"(2,3)".parse().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(2,3):(3,1)");
    /// assert_eq!(t.to_vec::<i32>().unwrap(), [1, 4, 2, 5, 3, 6]);
    /// assert_eq!(t.to_vec_row_major::<i32>().unwrap(), [1, 2, 3, 4, 5, 6]);
    /// ```
    pub fn from_vec_row_major<T: Element>(data: Vec<T>, shape: &Shape) -> Result<Tensor> {
        Tensor::from_vec_with(data, Layout::row_major(shape), "Tensor::from_vec_row_major")
    }

    /// A tensor over `data` placed by `layout` (compact), reporting a length that is not the
    /// layout's size as `op`.
    pub(crate) fn from_vec_with<T: Element>(
        data: impl Into<HostVec<T>>,
        layout: Layout,
        op: &'static str,
    ) -> Result<Tensor> {
        let data = data.into();
        if data.len() != layout.size() {
            return Err(Error::RankMismatch {
                op,
                what: "elements",
                expected: layout.size(),
                found: data.len(),
            });
        }
        Tensor::new(Carrier::from_host_vec(data), 0, layout)
    }

    /// A compact tensor of zeros. Its buffer comes from a zeroed allocation, as numpy's does:
    /// a large one is fresh pages that the system zeroes when each is first written, so making
    /// it costs no pass over its memory.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"(2,2)".parse().unwrap());
    /// assert_eq!(t.to_vec::<f64>().unwrap(), [0.0; 4]);
    /// ```
    ///
    /// # Panics
    ///
    /// When `shape.size()` elements of `T` cannot be allocated. The allocation is checked
    /// before it is made, so this is a panic with a message, never an abort of the process;
    /// [`zeros_of`](Self::zeros_of) (`Tensor::zeros_of(T::DTYPE, shape)`) returns the same
    /// case as an [`Error::TooLarge`].
    pub fn zeros<T: Element>(shape: &Shape) -> Tensor {
        let data = HostVec::<T>::zeroed("Tensor::zeros", shape.size())
            // The documented panic (# Panics) of an infallible constructor: checked, not an abort.
            .unwrap_or_else(|e| panic!("{e} (Tensor::zeros_of returns this as an error)"));
        Tensor::from_repr(compact_repr(Carrier::from_host_vec(data), shape))
    }

    /// A compact tensor of zeros of a plain dtype.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros_of(strideweave::DType::I8, &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_vec::<i8>().unwrap(), [0, 0, 0]);
    /// ```
    pub fn zeros_of(dtype: DType, shape: &Shape) -> Result<Tensor> {
        Ok(Tensor::from_repr(compact_repr(
            Carrier::zeros_as("Tensor::zeros_of", dtype, shape.size())?,
            shape,
        )))
    }

    /// A compact tensor holding `0, 1, 2, …` in first-mode-fastest order.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.index(&[1.into(), 2.into()]).unwrap().value().unwrap().to_f64(), 5.0);
    /// ```
    ///
    /// # Panics
    ///
    /// When `shape.size()` elements of `T` cannot be allocated. The allocation is checked
    /// before it is made, so this is a panic with a message, never an abort of the process;
    /// [`try_arange`](Self::try_arange) returns the same case as an [`Error::TooLarge`].
    pub fn arange<T: Element>(shape: &Shape) -> Tensor {
        Tensor::arange_as::<T>("Tensor::arange", shape)
            // The documented panic (# Panics) of an infallible constructor: checked, not an abort.
            .unwrap_or_else(|e| panic!("{e} (Tensor::try_arange returns this as an error)"))
    }

    /// [`arange`](Self::arange) that reports a size that cannot be allocated as an
    /// [`Error::TooLarge`] instead of panicking.
    ///
    /// ```
    /// use strideweave::{Error, Tensor};
    /// let t = Tensor::try_arange::<i32>(&"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_vec::<i32>().unwrap(), [0, 1, 2, 3]);
    /// let huge = "(4294967296,2147483647)".parse().unwrap();
    /// let err = Tensor::try_arange::<f64>(&huge).unwrap_err();
    /// assert!(matches!(err, Error::TooLarge { .. }));
    /// assert!(err.to_string().starts_with("Tensor::try_arange: cannot allocate"));
    /// ```
    pub fn try_arange<T: Element>(shape: &Shape) -> Result<Tensor> {
        Tensor::arange_as::<T>("Tensor::try_arange", shape)
    }

    fn arange_as<T: Element>(op: &'static str, shape: &Shape) -> Result<Tensor> {
        let mut data = HostVec::zeroed(op, shape.size())?;
        for (i, x) in data.iter_mut().enumerate() {
            *x = T::from_ordinal(i);
        }
        Ok(Tensor::from_repr(compact_repr(
            Carrier::from_host_vec(data),
            shape,
        )))
    }

    /// A tensor of one element, with the empty shape `()` (no top-level modes, size 1).
    ///
    /// ```
    /// let t = strideweave::Tensor::scalar(2.5f32);
    /// assert_eq!((t.rank(), t.size()), (0, 1));
    /// ```
    pub fn scalar<T: Element>(value: T) -> Tensor {
        Tensor::from_repr(compact_repr(
            Carrier::from_vec(vec![value]),
            &Shape::empty(),
        ))
    }

    /// The carrier of subtensor zero. Like every accessor, it changes nothing.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"2".parse().unwrap());
    /// assert_eq!(t.carrier().len(), 2);
    /// ```
    pub fn carrier(&self) -> &Carrier {
        &self.inner.repr.subtensors[0].carrier
    }

    /// The offset of subtensor zero: the carrier index of the element at coordinate 0.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"(5,10)".parse().unwrap());
    /// assert_eq!(t.slice(&[2.into(), (1..9).into()]).unwrap().offset(), 7);
    /// ```
    pub fn offset(&self) -> usize {
        self.inner.repr.subtensors[0].offset
    }

    /// The placement layout of subtensor zero.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.layout().to_string(), "(2,3):(1,2)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.inner.repr.subtensors[0].layout
    }

    /// The logical shape.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,(3,4))".parse().unwrap());
    /// assert_eq!(t.shape().to_string(), "(2,(3,4))");
    /// ```
    pub fn shape(&self) -> &Shape {
        self.layout().shape()
    }

    /// The logical dtype.
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::scalar(1u8).dtype(), strideweave::DType::U8);
    /// ```
    pub fn dtype(&self) -> DType {
        self.inner.repr.dtype
    }

    /// The number of logical elements.
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::zeros::<f32>(&"(2,3)".parse().unwrap()).size(), 6);
    /// ```
    pub fn size(&self) -> usize {
        self.layout().size()
    }

    /// The number of top-level modes.
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::zeros::<f32>(&"(2,(3,4))".parse().unwrap()).rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.layout().rank()
    }

    /// The class of subtensor zero's carrier (where the elements live): the
    /// [`Carrier::class`] of [`carrier`](Self::carrier).
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::scalar(1u8).carrier_class().name(), "host");
    /// ```
    pub fn carrier_class(&self) -> CarrierClass {
        self.carrier().class()
    }

    /// The whole representation: dtype, subtensors, adjacent layouts.
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::scalar(1u8).representation().subtensors().len(), 1);
    /// ```
    pub fn representation(&self) -> &Representation {
        &self.inner.repr
    }

    /// The mutation snapshot: each distinct carrier once, with its current version.
    ///
    /// ```
    /// assert_eq!(strideweave::Tensor::scalar(1u8).snapshot().entries().len(), 1);
    /// ```
    pub fn snapshot(&self) -> Snapshot {
        self.inner.repr.snapshot()
    }

    /// Fails with `NotImplemented` unless this is a one-subtensor tensor (a block-scaled
    /// tensor takes only the pure views).
    pub(crate) fn require_single(&self, op: &'static str) -> Result<&Subtensor> {
        if self.inner.repr.is_single() {
            Ok(&self.inner.repr.subtensors[0])
        } else {
            Err(Error::NotImplemented {
                op,
                reason: format!(
                    "requires a one-subtensor Tensor; this {} tensor has {} subtensors",
                    self.dtype(),
                    self.inner.repr.subtensors.len()
                ),
            })
        }
    }
}

fn compact_repr(carrier: Carrier, shape: &Shape) -> Representation {
    Representation {
        dtype: carrier.dtype(),
        subtensors: smallvec::smallvec![Subtensor {
            carrier,
            offset: 0,
            layout: Layout::compact(shape),
        }],
        adjacent: Vec::new(),
    }
}

impl Drop for Tensor {
    /// Releases the handle; the last handle of a tensor drops its contents and leaves the
    /// emptied allocation for the next handle built on this thread (`spare`).
    fn drop(&mut self) {
        // SAFETY: `drop` runs once, and `self.inner` is not used after this line.
        #[allow(unsafe_code)]
        let mut inner = unsafe { ManuallyDrop::take(&mut self.inner) };
        if Arc::get_mut(&mut inner).is_none() {
            return; // shared with another handle or a weak reference: `inner` drops as usual
        }
        let raw = Arc::into_raw(inner)
            .cast::<MaybeUninit<TensorInner>>()
            .cast_mut();
        // SAFETY: `Arc::get_mut` succeeded, so this was the only strong reference and no
        // weak one existed (it synchronises with the other handles' releases); nothing can
        // create one since, as the pointer is ours alone. The value is initialised (it was a
        // live `TensorInner`) and is dropped once, here; if that panics, the allocation
        // leaks instead of being reused.
        #[allow(unsafe_code)]
        unsafe {
            (*raw).assume_init_drop();
        }
        // SAFETY: `raw` came from `Arc::into_raw` of an `Arc<TensorInner>`, and
        // `MaybeUninit<TensorInner>` has the same size and alignment; it is given back once.
        // The slot is still the only reference, and its contents are now uninitialised,
        // which is what its type says.
        #[allow(unsafe_code)]
        spare::give(unsafe { Arc::from_raw(raw) });
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.inner.repr;
        write!(f, "Tensor({} {}", r.dtype, self.layout())?;
        if self.offset() != 0 {
            write!(f, " at offset {}", self.offset())?;
        }
        if r.subtensors.len() > 1 {
            write!(f, ", {} subtensors", r.subtensors.len())?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `single_in_place`'s one `unsafe` (`assume_init` after `write`): the written value is
    /// the one the handle holds, and an error of the writer still drops it (the carrier is
    /// released, not leaked).
    #[test]
    fn single_in_place_holds_the_written_subtensor_and_drops_it_on_error() {
        let c = Carrier::from_vec(vec![0f32; 12]);
        let t = Tensor::single_in_place(DType::F32, c.clone(), 2, |s| {
            s.layout = "(2,5):(5,1)".parse()?;
            s.offset += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(
            (t.offset(), t.layout().to_string()),
            (3, "(2,5):(5,1)".into())
        );
        assert!(Carrier::same(t.carrier(), &c));
        drop(t);
        let err = Tensor::single_in_place(DType::F32, c.clone(), 0, |s| {
            s.layout = "(2,5):(5,1)".parse()?;
            Err(Error::overflow("test", "the writer"))
        });
        assert!(err.is_err());
        assert!(
            c.is_sole_handle(),
            "every handle the writers held was dropped"
        );
    }
}
