//! Storage requests: which carrier class a storage-producing operation
//! ([`Tensor::transfer_to`](crate::Tensor::transfer_to)) must produce. The host class is built
//! in; any other class is requested through a [`StorageAllocator`] that makes its carriers,
//! so a device, pinned or memory-mapped class plugs in without changing the tensor code.

use std::fmt;
use std::sync::Arc;

use crate::carrier::Carrier;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// The error an allocator reports when it cannot make a carrier; the operation that asked
/// wraps it into its own [`Error`] (a `Runtime` error naming the class).
pub type AllocError = Box<dyn std::error::Error + Send + Sync>;

/// Makes the carriers of one storage class: the seam through which a
/// [`StorageRequest`] reaches a class other than the host.
///
/// [`allocate`](Self::allocate) must return a carrier of exactly the asked dtype and length
/// whose [`class`](Carrier::class) is named [`class_name`](Self::class_name) and whose
/// storage lends its elements for writing from the host
/// ([`CarrierStorage::host_mut`](crate::CarrierStorage::host_mut)): the caller fills it
/// with the copy engine. A carrier that does not match is refused, never substituted.
///
/// ```
/// use strideweave::{Carrier, CarrierStorage, DType, HostSlice, HostSliceMut, StorageAllocator, StorageRequest, Tensor};
/// /// `f64` elements in a boxed slice, under the class name "boxed".
/// struct Boxed(Box<[f64]>);
/// impl CarrierStorage for Boxed {
///     fn dtype(&self) -> DType { DType::F64 }
///     fn len(&self) -> usize { self.0.len() }
///     fn host(&self) -> Option<HostSlice<'_>> { Some(HostSlice::from(&self.0[..])) }
///     fn host_mut(&mut self) -> Option<HostSliceMut<'_>> { Some(HostSliceMut::from(&mut self.0[..])) }
///     fn class_name(&self) -> &'static str { "boxed" }
/// }
/// struct BoxedAllocator;
/// impl StorageAllocator for BoxedAllocator {
///     fn class_name(&self) -> &'static str { "boxed" }
///     fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, strideweave::AllocError> {
///         match dtype {
///             DType::F64 => Ok(Carrier::from_storage(Boxed(vec![0.0; len].into()))),
///             other => Err(format!("only f64 elements, not {other}").into()),
///         }
///     }
/// }
/// let request = StorageRequest::with_allocator(BoxedAllocator);
/// let t = Tensor::arange::<f64>(&"(2,3)".parse().unwrap()).permute(&[1, 0]).unwrap();
/// let moved = t.transfer_to(&request).unwrap();
/// assert_eq!(moved.carrier_class().name(), "boxed");
/// assert_eq!(moved.to_vec::<f64>().unwrap(), t.to_vec::<f64>().unwrap());
/// let err = Tensor::arange::<i32>(&"3".parse().unwrap()).transfer_to(&request).unwrap_err();
/// assert!(err.to_string().starts_with("transfer_to: the boxed storage class could not allocate 3 i32 elements: only f64"));
/// ```
pub trait StorageAllocator: Send + Sync + 'static {
    /// The name of the class whose carriers [`allocate`](Self::allocate) makes (what their
    /// [`CarrierClass::name`](crate::CarrierClass::name) reports).
    ///
    /// ```
    /// # use strideweave::{Carrier, DType, StorageAllocator};
    /// struct OnHost;
    /// impl StorageAllocator for OnHost {
    ///     fn class_name(&self) -> &'static str { "host" }
    ///     fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, strideweave::AllocError> {
    ///         Ok(Carrier::zeros(dtype, len)?)
    ///     }
    /// }
    /// assert_eq!(OnHost.class_name(), "host");
    /// ```
    fn class_name(&self) -> &'static str;

    /// A new carrier of this class holding `len` elements of the plain dtype `dtype`
    /// (their values are overwritten), or why it cannot be made.
    ///
    /// ```
    /// # use strideweave::{Carrier, DType, StorageAllocator};
    /// struct OnHost;
    /// impl StorageAllocator for OnHost {
    ///     fn class_name(&self) -> &'static str { "host" }
    ///     fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, strideweave::AllocError> {
    ///         Ok(Carrier::zeros(dtype, len)?)
    ///     }
    /// }
    /// assert_eq!(OnHost.allocate(DType::U8, 4).unwrap().len(), 4);
    /// ```
    fn allocate(&self, dtype: DType, len: usize) -> std::result::Result<Carrier, AllocError>;
}

/// A storage request: the carrier class a new owner must live in (what
/// [`Tensor::transfer_to`](crate::Tensor::transfer_to) takes: storage is only ever made by
/// such an explicitly named operation). [`StorageRequest::host`] is built in;
/// [`StorageRequest::with_allocator`] requests any other class through its
/// [`StorageAllocator`]; [`StorageRequest::named`] asks for a class by name, which only the
/// built-in classes answer (another name is an error of the operation that uses it).
///
/// ```
/// use strideweave::{StorageRequest, Tensor};
/// let t = Tensor::arange::<u8>(&"(2,2)".parse().unwrap());
/// let copy = t.transfer_to(&StorageRequest::host()).unwrap();
/// assert_eq!((copy.carrier_class().name(), copy.to_vec::<u8>().unwrap()), ("host", vec![0, 1, 2, 3]));
/// let err = t.transfer_to(&StorageRequest::named("gpu0")).unwrap_err();
/// assert!(err.to_string().starts_with("transfer_to: no storage class named \"gpu0\""));
/// ```
#[derive(Clone)]
pub struct StorageRequest {
    class: Class,
}

#[derive(Clone)]
enum Class {
    Host,
    Unknown(String),
    Allocator(Arc<dyn StorageAllocator>),
}

impl StorageRequest {
    /// The host class: elements in a `Vec` of this process ([`HostStorage`](crate::HostStorage)).
    ///
    /// ```
    /// assert_eq!(strideweave::StorageRequest::host().class_name(), "host");
    /// ```
    pub fn host() -> StorageRequest {
        StorageRequest { class: Class::Host }
    }

    /// The class called `name`: `"host"` is [`StorageRequest::host`]; no other class is
    /// built in, so any other name makes the operation that uses the request fail with a
    /// `NotImplemented` error naming it (request such a class with
    /// [`with_allocator`](Self::with_allocator)).
    ///
    /// ```
    /// use strideweave::{ErrorKind, StorageRequest, Tensor};
    /// assert_eq!(StorageRequest::named("host").class_name(), "host");
    /// let err = Tensor::scalar(1.0f32).transfer_to(&StorageRequest::named("pinned")).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::NotImplemented);
    /// ```
    pub fn named(name: &str) -> StorageRequest {
        let class = match name {
            "host" => Class::Host,
            other => Class::Unknown(other.to_string()),
        };
        StorageRequest { class }
    }

    /// The class whose carriers `allocator` makes.
    ///
    /// ```
    /// # use strideweave::{Carrier, DType, StorageAllocator, StorageRequest};
    /// struct OnHost;
    /// impl StorageAllocator for OnHost {
    ///     fn class_name(&self) -> &'static str { "host" }
    ///     fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, strideweave::AllocError> {
    ///         Ok(Carrier::zeros(dtype, len)?)
    ///     }
    /// }
    /// assert_eq!(StorageRequest::with_allocator(OnHost).class_name(), "host");
    /// ```
    pub fn with_allocator(allocator: impl StorageAllocator) -> StorageRequest {
        StorageRequest {
            class: Class::Allocator(Arc::new(allocator)),
        }
    }

    /// The name of the requested class.
    ///
    /// ```
    /// assert_eq!(strideweave::StorageRequest::named("device").class_name(), "device");
    /// ```
    pub fn class_name(&self) -> &str {
        match &self.class {
            Class::Host => "host",
            Class::Unknown(name) => name,
            Class::Allocator(a) => a.class_name(),
        }
    }

    /// A carrier of the requested class with `len` elements of `dtype`, reporting as `op`:
    /// an unknown class is `NotImplemented`, an allocator's failure `Runtime`, and a carrier
    /// that is not what was asked (another class, dtype or length) a `Runtime` error.
    pub(crate) fn allocate(&self, op: &'static str, dtype: DType, len: usize) -> Result<Carrier> {
        let allocator = match &self.class {
            Class::Host => return Carrier::zeros_as(op, dtype, len),
            Class::Unknown(name) => {
                return Err(Error::NotImplemented {
                    op,
                    reason: format!(
                        "no storage class named {name:?} is available (built in: \"host\"); request another class with StorageRequest::with_allocator"
                    ),
                });
            }
            Class::Allocator(a) => a,
        };
        let class = allocator.class_name();
        let carrier = allocator.allocate(dtype, len).map_err(|e| Error::Runtime {
            op,
            detail: format!(
                "the {class} storage class could not allocate {len} {dtype} elements: {e}"
            ),
        })?;
        let made = (carrier.class().name(), carrier.dtype(), carrier.len());
        if made != (class, dtype, len) {
            return Err(Error::Runtime {
                op,
                detail: format!(
                    "the {class} storage class was asked for {len} {dtype} elements but made a {} carrier of {} {} elements",
                    made.0, made.2, made.1
                ),
            });
        }
        Ok(carrier)
    }
}

impl fmt::Debug for StorageRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StorageRequest({})", self.class_name())
    }
}
