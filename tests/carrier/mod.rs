//! Carriers over storage written outside the crate (contracts §4: a carrier is a shared,
//! typed element buffer with an identity, a version and a release state; all carriers of a
//! Tensor share one exact class). The storages here lend a caller's buffer, as a file-backed
//! (memory-mapped) carrier will: views, reads, writes, arithmetic and release go through the
//! public `CarrierStorage` trait only.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use strideweave::{
    Carrier, CarrierStorage, DType, Element, ErrorKind, HostSlice, HostSliceMut, Key, Layout,
    Tensor,
};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// A caller's buffer that outlives the carrier (what a memory map gives), of any element
/// type, under the class name `class`: lent for reading and, when `writable`, for writing.
/// `dropped` is set when the carrier frees the storage.
struct CallerBuffer<T: Element> {
    data: &'static mut [T],
    class: &'static str,
    writable: bool,
    dropped: Arc<AtomicBool>,
}

impl<T: Element> CarrierStorage for CallerBuffer<T> {
    fn dtype(&self) -> DType {
        T::DTYPE
    }
    fn len(&self) -> usize {
        self.data.len()
    }
    fn host(&self) -> Option<HostSlice<'_>> {
        Some(HostSlice::from(&self.data[..]))
    }
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
        self.writable
            .then(|| HostSliceMut::from(&mut self.data[..]))
    }
    fn class_name(&self) -> &'static str {
        self.class
    }
}

impl<T: Element> Drop for CallerBuffer<T> {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::Release);
    }
}

/// A carrier of class `class` over `values` in a caller's buffer, and the flag its release
/// sets.
fn buffer_carrier<T: Element>(
    values: Vec<T>,
    class: &'static str,
    writable: bool,
) -> (Carrier, Arc<AtomicBool>) {
    let dropped = Arc::new(AtomicBool::new(false));
    let storage = CallerBuffer {
        data: Box::leak(values.into_boxed_slice()),
        class,
        writable,
        dropped: dropped.clone(),
    };
    (Carrier::from_storage(storage), dropped)
}

/// A carrier of class "caller" over `f32` `values`, and the flag its release sets.
fn caller_carrier(values: Vec<f32>, writable: bool) -> (Carrier, Arc<AtomicBool>) {
    buffer_carrier(values, "caller", writable)
}

#[test]
fn a_storage_written_outside_the_crate_backs_a_tensor_and_its_views() {
    let (c, _) = caller_carrier((0..6).map(|i| i as f32).collect(), true);
    assert_eq!(
        (c.dtype(), c.len(), c.class().name()),
        (DType::F32, 6, "caller")
    );
    // Row-major 2×3 over the caller's elements.
    let t = Tensor::new(c.clone(), 0, l("(2,3):(3,1)")).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    let col = t.slice(&[Key::all(), 2.into()]).unwrap();
    assert_eq!(col.to_vec::<f32>().unwrap(), [2.0, 5.0]);
    assert_eq!(
        t.permute(&[1, 0]).unwrap().get_ordinal(1).unwrap().to_f64(),
        1.0
    );
    assert_eq!(t.carrier_class().name(), "caller");
}

#[test]
fn writes_through_a_foreign_storage_reach_the_callers_buffer_and_bump_the_version() {
    let (c, _) = caller_carrier(vec![0.0; 4], true);
    let t = Tensor::new(c.clone(), 0, l("4:1")).unwrap();
    t.set_ordinal(2, 7.0f32).unwrap();
    t.reverse(0).unwrap().fill(1.5f32).unwrap();
    assert_eq!(c.version(), 2);
    assert_eq!(c.to_vec::<f32>().unwrap(), [1.5; 4]);
    c.write(|x: &mut [f32]| x[0] = -1.0).unwrap();
    assert_eq!(t.get_ordinal(0).unwrap().to_f64(), -1.0);
}

#[test]
fn arithmetic_reads_a_foreign_storage_in_place() {
    let (c, _) = caller_carrier(vec![1.0, 2.0, 3.0, 4.0], false);
    let a = Tensor::new(c, 0, l("(2,2):(2,1)")).unwrap();
    let sum = a.add(&a.permute(&[1, 0]).unwrap()).unwrap();
    assert_eq!(sum.to_vec::<f32>().unwrap(), [2.0, 5.0, 5.0, 8.0]);
    assert_eq!(sum.carrier().class().name(), "host");
    assert_eq!(
        a.matmul(&a).unwrap().to_vec::<f32>().unwrap(),
        [7.0, 15.0, 10.0, 22.0]
    );
}

#[test]
fn a_read_only_storage_refuses_writes_and_keeps_its_values_and_version() {
    let (c, _) = caller_carrier(vec![1.0, 2.0], false);
    let t = Tensor::new(c.clone(), 0, l("2:1")).unwrap();
    let err = t.set_ordinal(0, 5.0f32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert!(
        err.to_string()
            .contains("caller carrier class is not writable"),
        "{err}"
    );
    assert_eq!(c.version(), 0);
    assert_eq!(c.to_vec::<f32>().unwrap(), [1.0, 2.0]);
}

#[test]
fn releasing_a_foreign_carrier_frees_its_storage_and_later_reads_are_runtime_errors() {
    let (c, dropped) = caller_carrier(vec![1.0, 2.0], true);
    let t = Tensor::new(c.clone(), 0, l("2:1")).unwrap();
    c.release().unwrap();
    assert!(dropped.load(Ordering::Acquire));
    let err = t.to_vec::<f32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(err.to_string().contains("caller carrier"), "{err}");
}

/// A storage that declares more elements than it lends.
struct Short(Vec<i8>);

impl CarrierStorage for Short {
    fn dtype(&self) -> DType {
        DType::I8
    }
    fn len(&self) -> usize {
        self.0.len() + 1
    }
    fn host(&self) -> Option<HostSlice<'_>> {
        Some(HostSlice::from(&self.0[..]))
    }
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
        Some(HostSliceMut::from(&mut self.0[..]))
    }
    fn class_name(&self) -> &'static str {
        "short"
    }
}

#[test]
fn a_storage_lending_other_elements_than_it_declared_is_a_runtime_error_not_a_panic() {
    let c = Carrier::from_storage(Short(vec![1, 2]));
    let t = Tensor::new(c.clone(), 0, l("3:1")).unwrap();
    let err = t.get_ordinal(2).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string()
            .contains("declared 3 i8 elements but its storage lent 2 i8 elements"),
        "{err}"
    );
    assert_eq!(
        t.set_ordinal(0, 1i64).unwrap_err().kind(),
        ErrorKind::Runtime
    );
    assert_eq!(c.version(), 0);
}
mod lines;
mod locks;
mod transfer;
