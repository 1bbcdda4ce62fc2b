//! `Tensor::transfer_to` (contracts C5, the Shaped Types document's `TransferTo(request)`):
//! a new owner in the carrier class a `StorageRequest` names. The "pinned" and "sealed"
//! classes here are the caller's buffers of `main.rs`, reached only through the public
//! `StorageAllocator` seam.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use strideweave::{
    AllocError, Carrier, Complex64, DType, Element, ErrorKind, Key, StorageAllocator,
    StorageRequest, Tensor,
};

/// Makes "pinned" carriers of the integer, bool, float and complex dtypes, counting them.
#[derive(Default)]
struct PinnedAllocator {
    made: Arc<AtomicUsize>,
}

/// A carrier of the "pinned" test class (standing for page-locked host memory).
fn pinned<T: Element>(len: usize) -> Carrier {
    super::buffer_carrier(vec![T::zero(); len], "pinned", true).0
}

impl StorageAllocator for PinnedAllocator {
    fn class_name(&self) -> &'static str {
        "pinned"
    }
    fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, AllocError> {
        let c = match dtype {
            DType::F32 => pinned::<f32>(len),
            DType::F64 => pinned::<f64>(len),
            DType::I8 => pinned::<i8>(len),
            DType::I32 => pinned::<i32>(len),
            DType::I64 => pinned::<i64>(len),
            DType::U8 => pinned::<u8>(len),
            DType::Bool => pinned::<bool>(len),
            DType::ComplexF32 => pinned::<strideweave::Complex32>(len),
            DType::ComplexF64 => pinned::<Complex64>(len),
            other => return Err(format!("pinned memory holds no {other}").into()),
        };
        self.made.fetch_add(1, Ordering::Relaxed);
        Ok(c)
    }
}

/// A non-compact view of `0, 1, …`: permuted, every second row, reversed columns.
fn strided_view<T: Element>() -> Tensor {
    Tensor::arange::<T>(&"(6,(2,3))".parse().unwrap())
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::all(), Key::slice(None, None, Some(2))])
        .unwrap()
        .reverse(1)
        .unwrap()
}

#[test]
fn transfer_to_a_test_class_gives_that_class_with_equal_contents_for_every_plain_dtype() {
    let alloc = PinnedAllocator::default();
    let made = alloc.made.clone();
    let request = StorageRequest::with_allocator(alloc);
    assert_eq!(request.class_name(), "pinned");
    macro_rules! each {
        ($($t:ty),*) => {$(
            let src = strided_view::<$t>();
            let (version, before) = (src.carrier().version(), src.to_vec::<$t>().unwrap());
            let moved = src.transfer_to(&request).unwrap();
            assert_eq!(moved.carrier_class().name(), "pinned", "{}", stringify!($t));
            assert_eq!((moved.dtype(), moved.shape()), (src.dtype(), src.shape()));
            assert_eq!(moved.layout(), &strideweave::Layout::compact(src.shape()));
            assert_eq!(moved.to_vec::<$t>().unwrap(), before);
            assert_eq!(moved.carrier().to_vec::<$t>().unwrap(), before);
            // The source stays a valid, unchanged owner.
            assert_eq!((src.carrier().version(), src.to_vec::<$t>().unwrap()), (version, before));
            assert!(!Carrier::same(src.carrier(), moved.carrier()));
        )*};
    }
    each!(
        f32,
        f64,
        i8,
        i32,
        i64,
        u8,
        bool,
        strideweave::Complex32,
        Complex64
    );
    assert_eq!(made.load(Ordering::Relaxed), 9);
    // And back to the host class.
    let back = strided_view::<i32>()
        .transfer_to(&request)
        .unwrap()
        .transfer_to(&StorageRequest::host())
        .unwrap();
    assert_eq!(back.carrier_class().name(), "host");
    assert_eq!(
        back.to_vec::<i32>().unwrap(),
        strided_view::<i32>().to_vec::<i32>().unwrap()
    );
}

#[test]
fn an_unknown_storage_class_is_an_error_naming_it() {
    let t = strided_view::<f32>();
    let err = t
        .transfer_to(&StorageRequest::named("device:0"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert!(
        err.to_string()
            .starts_with("transfer_to: no storage class named \"device:0\""),
        "{err}"
    );
    assert_eq!(
        StorageRequest::named("host").class_name(),
        StorageRequest::host().class_name()
    );
    assert_eq!(t.carrier().version(), 0);
}

#[test]
fn a_block_scaled_tensor_is_refused_and_its_dequantized_values_transfer() {
    let request = StorageRequest::with_allocator(PinnedAllocator::default());
    let t = Tensor::block_scaled(vec![1, 2], vec![1.0], &"2".parse().unwrap(), 0, 2).unwrap();
    let err = t.transfer_to(&request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert!(err.to_string().starts_with("transfer_to: "), "{err}");
    // A dequantized block-scaled tensor transfers as f32.
    let d = t.dequantize().unwrap().transfer_to(&request).unwrap();
    assert_eq!(
        (d.carrier_class().name(), d.to_vec::<f32>().unwrap()),
        ("pinned", vec![1.0, 2.0])
    );
}

/// An allocator out of memory.
struct Exhausted;

impl StorageAllocator for Exhausted {
    fn class_name(&self) -> &'static str {
        "pinned"
    }
    fn allocate(&self, _: DType, _: usize) -> Result<Carrier, AllocError> {
        Err("out of pinned memory".into())
    }
}

#[test]
fn an_allocation_failure_is_a_runtime_error_naming_class_count_and_dtype() {
    let t = Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    let err = t
        .transfer_to(&StorageRequest::with_allocator(Exhausted))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert_eq!(
        err.to_string(),
        "transfer_to: the pinned storage class could not allocate 6 i64 elements: out of pinned memory"
    );
}

/// An allocator that breaks its contract: another class, or another length.
struct Liar {
    class: &'static str,
    extra: usize,
}

impl StorageAllocator for Liar {
    fn class_name(&self) -> &'static str {
        "pinned"
    }
    fn allocate(&self, dtype: DType, len: usize) -> Result<Carrier, AllocError> {
        Ok(match self.class {
            "pinned" => pinned::<f64>(len + self.extra),
            _ => Carrier::zeros(dtype, len + self.extra)?,
        })
    }
}

#[test]
fn a_carrier_that_does_not_satisfy_the_request_is_refused_never_substituted() {
    let t = Tensor::arange::<f64>(&"(2,2)".parse().unwrap());
    for (liar, made) in [
        (
            Liar {
                class: "host",
                extra: 0,
            },
            "made a host carrier of 4 f64 elements",
        ),
        (
            Liar {
                class: "pinned",
                extra: 1,
            },
            "made a pinned carrier of 5 f64 elements",
        ),
    ] {
        let err = t
            .transfer_to(&StorageRequest::with_allocator(liar))
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Runtime);
        let msg = err.to_string();
        assert!(
            msg.starts_with("transfer_to: the pinned storage class was asked for 4 f64 elements"),
            "{msg}"
        );
        assert!(msg.contains(made), "{msg}");
    }
}

struct SealedAllocator;

impl StorageAllocator for SealedAllocator {
    fn class_name(&self) -> &'static str {
        "sealed"
    }
    fn allocate(&self, _: DType, len: usize) -> Result<Carrier, AllocError> {
        // Readable but not writable from the host: device memory without a host mapping.
        Ok(super::buffer_carrier(vec![0u8; len], "sealed", false).0)
    }
}

#[test]
fn a_class_not_writable_from_the_host_is_an_error_naming_it() {
    let t = Tensor::arange::<u8>(&"3".parse().unwrap());
    let err = t
        .transfer_to(&StorageRequest::with_allocator(SealedAllocator))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert_eq!(
        err.to_string(),
        "transfer_to: the sealed carrier class is not writable from the host"
    );
}

#[test]
fn transfer_to_the_host_is_recorded_for_autograd_and_the_gradient_passes_through() {
    let x = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    x.set_requires_grad(true).unwrap();
    let y = x
        .permute(&[1, 0])
        .unwrap()
        .transfer_to(&StorageRequest::host())
        .unwrap();
    assert_eq!(y.grad_op(), Some("transfer_to"));
    y.mul(&y).unwrap().sum().unwrap().backward().unwrap();
    assert_eq!(
        x.grad().unwrap().to_vec::<f64>().unwrap(),
        [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    );
}

#[test]
fn a_tensor_in_autograd_is_refused_for_another_class_unless_detached_or_not_recording() {
    let x = Tensor::arange::<f64>(&"3".parse().unwrap());
    x.set_requires_grad(true).unwrap();
    let request = StorageRequest::with_allocator(PinnedAllocator::default());
    let err = x.transfer_to(&request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string()
            .starts_with("transfer_to: this tensor takes part in autograd"),
        "{err}"
    );
    assert!(err.to_string().contains("pinned"), "{err}");
    let d = x.detach().transfer_to(&request).unwrap();
    assert!(!d.requires_grad() && d.carrier_class().name() == "pinned");
    let _g = strideweave::no_grad();
    assert_eq!(
        x.transfer_to(&request).unwrap().to_vec::<f64>().unwrap(),
        [0.0, 1.0, 2.0]
    );
}
