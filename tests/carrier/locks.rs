//! One lock order (issue 11, item 4): operations that use several carriers lock them in one
//! global order, and re-entrant use of a carrier from inside `Carrier::read`/`write` is a
//! `Runtime` error, not a deadlock. Every test runs its work on spawned threads watched by a
//! timeout, so a regression fails instead of hanging the test run.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use strideweave::{Carrier, CarrierStorage, DType, ErrorKind, HostSlice, HostSliceMut, Tensor};

use super::l;

/// Runs `work` on a spawned thread and fails the test when it does not finish in time.
fn within<R: Send + 'static>(secs: u64, work: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(work());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .expect("the work did not finish in time: a deadlock")
}

/// Host elements that take a while to lend, so locks are held long enough for threads to
/// interleave (what a slow device or a file read would do).
struct Slow(Vec<f32>);

impl CarrierStorage for Slow {
    fn dtype(&self) -> DType {
        DType::F32
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn host(&self) -> Option<HostSlice<'_>> {
        thread::sleep(Duration::from_micros(200));
        Some(HostSlice::from(&self.0[..]))
    }
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
        thread::sleep(Duration::from_micros(200));
        Some(HostSliceMut::from(&mut self.0[..]))
    }
    fn class_name(&self) -> &'static str {
        "slow"
    }
}

fn slow_matrix(values: [f32; 4]) -> Tensor {
    let c = Carrier::from_storage(Slow(values.to_vec()));
    Tensor::new(c, 0, l("(2,2):(2,1)")).unwrap()
}

#[test]
fn a_re_entrant_write_on_one_thread_is_a_runtime_error_not_a_deadlock() {
    let (outer, version) = within(10, || {
        let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
        let outer = t.carrier().write(|_: &mut [f32]| t.to_vec::<f32>());
        (outer, t.carrier().version())
    });
    let err = outer.unwrap().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string()
            .starts_with("to_vec: re-entrant access to a carrier from inside Carrier::read/write"),
        "{err}"
    );
    assert_eq!(version, 1, "the outer write itself succeeded");
}

#[test]
fn a_re_entrant_read_or_set_inside_a_read_is_a_runtime_error_and_the_carrier_stays_usable() {
    let (read, set, after) = within(10, || {
        let c = Carrier::from_vec(vec![1.0f32, 2.0]);
        let read = c.read(|_: &[f32]| c.to_vec::<f32>()).unwrap();
        let set = c.read(|_: &[f32]| c.set(0, 5.0f32.into())).unwrap();
        (read, set, c.to_vec::<f32>())
    });
    assert!(
        read.unwrap_err()
            .to_string()
            .starts_with("read: re-entrant")
    );
    let set = set.unwrap_err();
    assert!(
        set.to_string().starts_with("Carrier::set: re-entrant"),
        "{set}"
    );
    assert_eq!(after.unwrap(), [1.0, 2.0]);
}

#[test]
fn another_carrier_can_be_used_inside_a_read_closure() {
    let v = within(10, || {
        let a = Carrier::from_vec(vec![1.0f32]);
        let b = Carrier::from_vec(vec![2.0f32]);
        a.read(|x: &[f32]| b.read(|y: &[f32]| x[0] + y[0]))
    });
    assert_eq!(v.unwrap().unwrap(), 3.0);
}

#[test]
fn operations_reading_one_carrier_twice_take_it_once() {
    let out = within(10, || {
        let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &"(2,2)".parse().unwrap())?;
        let b = Tensor::from_vec(vec![1.0f32; 4], &"(2,2)".parse().unwrap())?;
        let sum = a.add(&a)?.to_vec::<f32>()?;
        let square = a.matmul(&a)?.to_vec::<f32>()?;
        b.add_into(&a, &a)?;
        let into = a.to_vec::<f32>()?;
        a.copy_from(&a.permute(&[1, 0])?)?;
        Ok::<_, strideweave::Error>((sum, square, into, a.to_vec::<f32>()?))
    });
    let (sum, square, into, copied) = out.unwrap();
    assert_eq!(sum, [2.0, 4.0, 6.0, 8.0]);
    assert_eq!(square, [7.0, 10.0, 15.0, 22.0]);
    assert_eq!(into, [2.0, 3.0, 4.0, 5.0]);
    assert_eq!(copied, [2.0, 4.0, 3.0, 5.0]);
}

#[test]
fn opposite_order_binary_ops_with_queued_writers_make_progress() {
    const ROUNDS: usize = 60;
    let a = slow_matrix([1.0, 0.0, 0.0, 1.0]);
    let b = slow_matrix([2.0, 0.0, 0.0, 2.0]);
    let done = within(20, move || {
        let jobs: Vec<Box<dyn Fn(usize) + Send>> = vec![
            {
                let (a, b) = (a.clone(), b.clone());
                Box::new(move |_| {
                    a.matmul(&b).unwrap();
                    a.copy_from(&b).unwrap();
                })
            },
            {
                let (a, b) = (a.clone(), b.clone());
                Box::new(move |_| {
                    b.matmul(&a).unwrap();
                    b.copy_from(&a).unwrap();
                })
            },
            {
                let a = a.clone();
                Box::new(move |i| a.set_ordinal(0, i as f32).unwrap())
            },
            {
                let b = b.clone();
                Box::new(move |i| b.set_ordinal(3, i as f32).unwrap())
            },
        ];
        let workers: Vec<_> = jobs
            .into_iter()
            .map(|job| thread::spawn(move || (0..ROUNDS).for_each(job)))
            .collect();
        let joined: Vec<bool> = workers.into_iter().map(|w| w.join().is_ok()).collect();
        !joined.contains(&false)
    });
    assert!(done, "a worker panicked");
}
