//! Carriers: shared, typed element storage with an identity, a version (raised by every
//! mutation) and a release state.
//!
//! Views never touch storage: they read only a carrier's identity, dtype, length and class.
//! Storage sits behind the [`CarrierStorage`] trait, so further classes (memory-mapped
//! files, device memory) can be added without changing any view; a [`StorageRequest`]
//! names the class that an operation making a new owner
//! ([`Tensor::transfer_to`](crate::Tensor::transfer_to)) must produce.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::dtype::{DType, Element, HostBuffer, HostSlice, HostSliceMut, HostVec, Scalar};
use crate::error::{Error, Result};

mod lock;
pub(crate) use lock::ReadLock;
mod mapped;
pub use mapped::MapOptions;
pub(crate) use mapped::{SharedMap, invalid, io_error};
mod request;
pub use request::{AllocError, StorageAllocator, StorageRequest};

/// A storage class: where a carrier's elements live. Views never call it.
///
/// The host class ([`HostStorage`]) keeps a [`Vec`]; another class — a caller's buffer, a
/// memory-mapped file, device memory — implements this trait and is wrapped with
/// [`Carrier::from_storage`]. The carrier reads [`dtype`](Self::dtype) and
/// [`len`](Self::len) once; what [`host`](Self::host) and [`host_mut`](Self::host_mut) lend
/// must have that dtype and length, else an access is a `Runtime` error.
///
/// ```
/// use strideweave::{Carrier, CarrierStorage, DType, HostSlice, HostSliceMut, Tensor};
/// /// Read-only elements owned by the caller (a file's contents, say).
/// struct Frozen(Box<[f64]>);
/// impl CarrierStorage for Frozen {
///     fn dtype(&self) -> DType { DType::F64 }
///     fn len(&self) -> usize { self.0.len() }
///     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
///     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
///     fn class_name(&self) -> &'static str { "frozen" }
/// }
/// let c = Carrier::from_storage(Frozen(vec![1.0, 2.0, 3.0, 4.0].into()));
/// let t = Tensor::new(c, 0, "(2,2):(2,1)".parse().unwrap()).unwrap();
/// assert_eq!(t.to_vec::<f64>().unwrap(), [1.0, 3.0, 2.0, 4.0]);
/// assert!(t.set_ordinal(0, 9.0f64).is_err()); // not writable from the host
/// ```
pub trait CarrierStorage: Any + Send + Sync + 'static {
    /// The storage dtype of the elements.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// // `Frozen` is the storage of the trait's example.
    /// assert_eq!(Frozen(vec![1.0, 2.0].into()).dtype(), DType::F64);
    /// ```
    fn dtype(&self) -> DType;
    /// The number of elements.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// assert_eq!(Frozen(vec![1.0, 2.0].into()).len(), 2);
    /// ```
    fn len(&self) -> usize;
    /// Whether there are no elements.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// assert!(Frozen(Box::new([])).is_empty());
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements, when they are readable from the host; `None` otherwise.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// let s = Frozen(vec![1.0, 2.0].into());
    /// assert_eq!(s.host().unwrap().len(), 2);
    /// ```
    fn host(&self) -> Option<HostSlice<'_>>;
    /// The elements, mutably, when they are writable from the host; `None` otherwise.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// let mut s = Frozen(vec![1.0, 2.0].into());
    /// assert!(s.host_mut().is_none()); // read-only storage
    /// ```
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>>;
    /// The class's name, for messages.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// let c = strideweave::Carrier::from_storage(Frozen(vec![1.0].into()));
    /// assert_eq!(c.class().name(), "frozen");
    /// ```
    fn class_name(&self) -> &'static str;
}

/// The host storage class: elements in a `Vec` in this process's memory. Carriers made with
/// [`Carrier::from_vec`] and [`Carrier::zeros`] use it.
///
/// ```
/// let c = strideweave::Carrier::from_vec(vec![1.0f32, 2.0]);
/// assert_eq!(c.class().name(), "host");
/// ```
#[derive(Debug)]
pub struct HostStorage(HostBuffer);

impl CarrierStorage for HostStorage {
    fn dtype(&self) -> DType {
        self.0.as_slice().dtype()
    }
    fn len(&self) -> usize {
        self.0.as_slice().len()
    }
    fn host(&self) -> Option<HostSlice<'_>> {
        Some(self.0.as_slice())
    }
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
        Some(self.0.as_slice_mut())
    }
    fn class_name(&self) -> &'static str {
        "host"
    }
}

/// The exact class of a carrier (where its elements live). All the carriers of one tensor
/// must be of the same class; building a tensor from carriers of different classes is a type
/// error.
///
/// ```
/// let a = strideweave::Carrier::from_vec(vec![1.0f32]);
/// let b = strideweave::Carrier::from_vec(vec![1i8]);
/// assert_eq!(a.class(), b.class());
/// assert_eq!(a.class().to_string(), "host");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CarrierClass {
    name: &'static str,
    id: TypeId,
}

impl CarrierClass {
    /// The class's name.
    ///
    /// ```
    /// assert_eq!(strideweave::Carrier::from_vec(vec![0u8]).class().name(), "host");
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl fmt::Display for CarrierClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

struct Shared {
    class: CarrierClass,
    dtype: DType,
    len: usize,
    version: AtomicU64,
    released: AtomicBool,
    storage: RwLock<Option<Box<dyn CarrierStorage>>>,
}

/// Shared, typed element storage: cloning the handle shares the storage.
///
/// A carrier has an identity ([`Carrier::same`]), a version that every mutation increments,
/// and a release state: [`release`](Carrier::release) frees the storage, and any later
/// access is a `Runtime` error. Carriers are `Send + Sync`; the version is atomic.
///
/// ```
/// use strideweave::Carrier;
/// let c = Carrier::from_vec(vec![1.0f64, 2.0, 3.0]);
/// let d = c.clone();
/// assert!(Carrier::same(&c, &d));
/// assert_eq!(c.version(), 0);
/// c.set(1, 5.0f64.into()).unwrap();
/// assert_eq!((d.version(), d.get(1).unwrap().to_f64()), (1, 5.0));
/// c.release().unwrap();
/// assert!(d.is_released());
/// assert_eq!(d.get(0).unwrap_err().kind(), strideweave::ErrorKind::Runtime);
/// ```
#[derive(Clone)]
pub struct Carrier {
    shared: Arc<Shared>,
}

impl Carrier {
    /// A host carrier holding `data`.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![1i32, 2, 3]);
    /// assert_eq!((c.len(), c.dtype()), (3, strideweave::DType::I32));
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>) -> Carrier {
        Carrier::from_host_vec(data.into())
    }

    /// A host carrier holding `data`'s elements (kept where they are, past any padding).
    pub(crate) fn from_host_vec<T: Element>(data: HostVec<T>) -> Carrier {
        Carrier::from_storage(HostStorage(T::wrap(data)))
    }

    /// A host carrier of `len` zeros of a plain dtype.
    ///
    /// ```
    /// use strideweave::{Carrier, DType};
    /// let c = Carrier::zeros(DType::F32, 4).unwrap();
    /// assert_eq!(c.to_vec::<f32>().unwrap(), [0.0; 4]);
    /// assert!(Carrier::zeros(DType::BlockScaledI8F32, 4).is_err());
    /// ```
    pub fn zeros(dtype: DType, len: usize) -> Result<Carrier> {
        Carrier::zeros_as("Carrier::zeros", dtype, len)
    }

    /// [`Carrier::zeros`] reporting errors as `op`, the operation called.
    pub(crate) fn zeros_as(op: &'static str, dtype: DType, len: usize) -> Result<Carrier> {
        let buf = HostBuffer::zeros(op, dtype, len)?.ok_or_else(|| Error::WrongType {
            op,
            expected: "a plain dtype".into(),
            found: dtype.to_string(),
        })?;
        Ok(Carrier::from_storage(HostStorage(buf)))
    }

    /// A carrier of another storage class. Its dtype and length are read once, here.
    ///
    /// ```
    /// # use strideweave::{CarrierStorage, DType, HostSlice, HostSliceMut};
    /// # struct Frozen(Box<[f64]>);
    /// # impl CarrierStorage for Frozen {
    /// #     fn dtype(&self) -> DType { DType::F64 }
    /// #     fn len(&self) -> usize { self.0.len() }
    /// #     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
    /// #     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { None }
    /// #     fn class_name(&self) -> &'static str { "frozen" }
    /// # }
    /// // `Frozen` is the storage of [`CarrierStorage`]'s example.
    /// let c = strideweave::Carrier::from_storage(Frozen(vec![1.0, 2.0].into()));
    /// assert_eq!((c.dtype(), c.len()), (DType::F64, 2));
    /// ```
    pub fn from_storage<S: CarrierStorage>(storage: S) -> Carrier {
        let (dtype, len) = (storage.dtype(), storage.len());
        Carrier {
            shared: Arc::new(Shared {
                class: CarrierClass {
                    name: storage.class_name(),
                    id: TypeId::of::<S>(),
                },
                dtype,
                len,
                version: AtomicU64::new(0),
                released: AtomicBool::new(false),
                storage: RwLock::new(Some(Box::new(storage))),
            }),
        }
    }

    /// Whether two handles denote the same carrier.
    ///
    /// ```
    /// use strideweave::Carrier;
    /// let a = Carrier::from_vec(vec![1u8]);
    /// assert!(Carrier::same(&a, &a.clone()));
    /// assert!(!Carrier::same(&a, &Carrier::from_vec(vec![1u8])));
    /// ```
    pub fn same(a: &Carrier, b: &Carrier) -> bool {
        Arc::ptr_eq(&a.shared, &b.shared)
    }

    /// The number of elements.
    ///
    /// ```
    /// assert_eq!(strideweave::Carrier::from_vec(vec![0u8; 7]).len(), 7);
    /// ```
    pub fn len(&self) -> usize {
        self.shared.len
    }

    /// Whether the carrier holds no elements.
    ///
    /// ```
    /// assert!(strideweave::Carrier::from_vec(Vec::<f32>::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.shared.len == 0
    }

    /// The storage dtype.
    ///
    /// ```
    /// assert_eq!(strideweave::Carrier::from_vec(vec![true]).dtype(), strideweave::DType::Bool);
    /// ```
    pub fn dtype(&self) -> DType {
        self.shared.dtype
    }

    /// The storage class.
    ///
    /// ```
    /// assert_eq!(strideweave::Carrier::from_vec(vec![1u8]).class().name(), "host");
    /// ```
    pub fn class(&self) -> CarrierClass {
        self.shared.class
    }

    /// The version: the number of mutations so far.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![0i64; 2]);
    /// c.set(0, strideweave::Scalar::I64(1)).unwrap();
    /// assert_eq!(c.version(), 1);
    /// ```
    pub fn version(&self) -> u64 {
        self.shared.version.load(Ordering::Acquire)
    }

    /// Frees the storage; every later access is a `Runtime` error. Idempotent.
    ///
    /// It waits for the accesses under way on other threads to finish. Called from inside a
    /// [`read`](Self::read)/[`write`](Self::write) closure (or any operation) that holds this
    /// same carrier, it would wait for itself: that is a `Runtime` error ("re-entrant
    /// access"), and the carrier is left as it was.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![1u8]);
    /// let inside = c.read(|_: &[u8]| c.release()).unwrap();
    /// assert!(inside.unwrap_err().to_string().starts_with("release: re-entrant access"));
    /// assert!(!c.is_released());
    /// c.release().unwrap();
    /// assert!(c.is_released());
    /// ```
    pub fn release(&self) -> Result<()> {
        let mut lock = self.write_lock("release")?;
        *lock.slot() = None;
        self.shared.released.store(true, Ordering::Release);
        Ok(())
    }

    /// Whether [`release`](Self::release) was called.
    ///
    /// ```
    /// assert!(!strideweave::Carrier::from_vec(vec![1u8]).is_released());
    /// ```
    pub fn is_released(&self) -> bool {
        self.shared.released.load(Ordering::Acquire)
    }

    /// Reads the elements as `&[T]`.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![1.0f32, 2.0]);
    /// assert_eq!(c.read(|x: &[f32]| x[0] + x[1]).unwrap(), 3.0);
    /// assert!(c.read(|x: &[f64]| x[0]).is_err());
    /// ```
    pub fn read<T: Element, R>(&self, f: impl FnOnce(&[T]) -> R) -> Result<R> {
        self.read_as("read", f)
    }

    /// [`read`](Self::read) reporting errors as `op`, the operation called.
    pub(crate) fn read_as<T: Element, R>(
        &self,
        op: &'static str,
        f: impl FnOnce(&[T]) -> R,
    ) -> Result<R> {
        self.with_host(op, |b| {
            T::slice(b)
                .map(f)
                .ok_or_else(|| self.wrong_type(op, T::DTYPE))
        })
    }

    /// Whether this is the only handle to the carrier (no clone, no tensor or view of it
    /// elsewhere): then writing through it cannot be seen by anyone else.
    pub(crate) fn is_sole_handle(&self) -> bool {
        Arc::strong_count(&self.shared) == 1 && Arc::weak_count(&self.shared) == 0
    }

    /// Moves the elements out (with their padding) and releases the carrier, when this is
    /// the only handle and the storage is the host class holding `T`s; otherwise `None`,
    /// untouched.
    #[cfg(feature = "ndarray")]
    pub(crate) fn take_host_vec<T: Element>(&self) -> Option<HostVec<T>> {
        if !self.is_sole_handle() {
            return None;
        }
        // A sole handle cannot be held by this thread already; through the lock module
        // all the same, so a re-entrant call is refused (`None`) rather than a deadlock.
        let mut lock = self.write_lock("ArrayD::try_from").ok()?;
        let guard = lock.slot();
        let storage: &mut dyn Any = guard.as_deref_mut()?;
        let data = storage.downcast_mut::<HostStorage>()?.0.take_vec::<T>()?;
        *guard = None;
        self.shared.released.store(true, Ordering::Release);
        Some(data)
    }

    /// The number of live handles to this carrier (clones, tensors and views over it).
    pub(crate) fn handle_count(&self) -> usize {
        Arc::strong_count(&self.shared) + Arc::weak_count(&self.shared)
    }

    /// Writes the elements through `&mut [T]` and increments the version.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![1.0f32, 2.0]);
    /// c.write(|x: &mut [f32]| x[0] = 9.0).unwrap();
    /// assert_eq!((c.to_vec::<f32>().unwrap(), c.version()), (vec![9.0, 2.0], 1));
    /// ```
    pub fn write<T: Element, R>(&self, f: impl FnOnce(&mut [T]) -> R) -> Result<R> {
        self.write_as("write", f)
    }

    /// [`write`](Self::write) reporting errors as `op`, the operation called.
    pub(crate) fn write_as<T: Element, R>(
        &self,
        op: &'static str,
        f: impl FnOnce(&mut [T]) -> R,
    ) -> Result<R> {
        self.with_host_mut(op, |b| {
            T::slice_mut(b)
                .map(f)
                .ok_or_else(|| self.wrong_type(op, T::DTYPE))
        })
    }

    /// A copy of the elements.
    ///
    /// ```
    /// assert_eq!(strideweave::Carrier::from_vec(vec![3u8, 4]).to_vec::<u8>().unwrap(), [3, 4]);
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        const OP: &str = "Carrier::to_vec";
        // Reserved before the lock (a failed allocation is `TooLarge`, never an abort).
        let mut v = crate::budget::reserved_vec(OP, self.len())?;
        self.read_as(OP, |x: &[T]| v.extend_from_slice(x))?;
        Ok(v)
    }

    /// The element at `index`.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![3u8, 4]);
    /// assert_eq!(c.get(1).unwrap(), strideweave::Scalar::U8(4));
    /// assert!(c.get(2).is_err());
    /// ```
    pub fn get(&self, index: usize) -> Result<Scalar> {
        self.check_index("Carrier::get", index)?;
        self.with_host("Carrier::get", |b| Ok(b.get(index)))
    }

    /// Sets the element at `index` (of exactly the carrier's dtype) and increments the version.
    ///
    /// ```
    /// let c = strideweave::Carrier::from_vec(vec![3u8, 4]);
    /// assert!(c.set(0, strideweave::Scalar::F32(1.0)).is_err());
    /// assert_eq!(c.version(), 0);
    /// ```
    pub fn set(&self, index: usize, value: Scalar) -> Result<()> {
        self.check_index("Carrier::set", index)?;
        self.with_host_mut("Carrier::set", |mut b| {
            if b.set(index, value) {
                Ok(())
            } else {
                Err(self.wrong_type("Carrier::set", value.dtype()))
            }
        })
    }

    fn check_index(&self, op: &'static str, index: usize) -> Result<()> {
        if index >= self.len() {
            return Err(Error::OutOfDomain {
                op,
                what: "carrier index",
                value: index as i64,
                place: format!("a carrier of {} elements", self.len()),
                bound: self.len() as i64,
            });
        }
        Ok(())
    }

    fn wrong_type(&self, op: &'static str, asked: DType) -> Error {
        Error::WrongType {
            op,
            expected: format!("{} (the carrier's dtype)", self.dtype()),
            found: asked.to_string(),
        }
    }

    fn released_error(&self, op: &'static str) -> Error {
        Error::Runtime {
            op,
            detail: format!(
                "the {} carrier of {} {} elements was released",
                self.class(),
                self.len(),
                self.dtype()
            ),
        }
    }

    pub(crate) fn with_host<R>(
        &self,
        op: &'static str,
        f: impl FnOnce(HostSlice<'_>) -> Result<R>,
    ) -> Result<R> {
        let lock = self.read_lock(op)?;
        f(lock.host(op)?)
    }

    /// Runs `f` on the host elements and increments the version if `f` succeeds.
    pub(crate) fn with_host_mut<R>(
        &self,
        op: &'static str,
        f: impl FnOnce(HostSliceMut<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut lock = self.write_lock(op)?;
        let out = f(lock.host_mut(op)?)?;
        lock.finish();
        Ok(out)
    }

    /// What a storage lends must be what it declared when the carrier was made: a storage
    /// class written outside this crate could lend anything.
    fn check_lent(&self, op: &'static str, dtype: DType, len: usize) -> Result<()> {
        if (dtype, len) == (self.dtype(), self.len()) {
            return Ok(());
        }
        Err(Error::Runtime {
            op,
            detail: format!(
                "the {} carrier declared {} {} elements but its storage lent {len} {dtype} elements",
                self.class(),
                self.len(),
                self.dtype()
            ),
        })
    }
}

impl fmt::Debug for Carrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Carrier({} {} × {}, version {}{})",
            self.class(),
            self.len(),
            self.dtype(),
            self.version(),
            if self.is_released() { ", released" } else { "" }
        )
    }
}
