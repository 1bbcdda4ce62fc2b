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
            .starts_with("Carrier::to_vec: re-entrant")
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

/// Every public method that locks a carrier, called on `t` (whose carrier the caller
/// holds) or with `t` as an operand or destination: the operation's name and its result.
fn every_locking_call(t: &Tensor) -> Vec<(&'static str, strideweave::Result<()>)> {
    let other = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
    let m = t.reshape(&"(3,1)".parse().unwrap()).unwrap();
    let row = Tensor::from_vec(vec![1.0f32], &"(1,1)".parse().unwrap()).unwrap();
    let c = t.carrier();
    let ok = |r: strideweave::Result<Tensor>| r.map(|_| ());
    vec![
        ("release", c.release()),
        ("read", c.read(|_: &[f32]| ())),
        ("write", c.write(|_: &mut [f32]| ())),
        ("Carrier::to_vec", c.to_vec::<f32>().map(|_| ())),
        ("Carrier::get", c.get(0).map(|_| ())),
        ("Carrier::set", c.set(0, 1.0f32.into())),
        ("get", t.get(&0.into()).map(|_| ())),
        ("get_ordinal", t.get_ordinal(0).map(|_| ())),
        ("set", t.set(&0.into(), 1.0f32)),
        ("set_ordinal", t.set_ordinal(0, 1.0f32)),
        ("fill", t.fill(1.0f32)),
        ("to_vec", t.to_vec::<f32>().map(|_| ())),
        ("to_vec_row_major", t.to_vec_row_major::<f32>().map(|_| ())),
        ("to_scalars", t.to_scalars().map(|_| ())),
        ("iter", t.iter::<f32>().map(|_| ())),
        ("materialize", ok(t.materialize())),
        ("materialize_into", t.materialize_into(&other)),
        ("materialize_into", other.materialize_into(t)),
        ("relayout", ok(t.relayout(&"3:1".parse().unwrap()))),
        ("copy_from", t.copy_from(&other)),
        ("copy_from", other.copy_from(t)),
        ("add", ok(t.add(&other))),
        ("add", ok(other.add(t))),
        ("add_into", other.add_into(&other, t)),
        ("neg", ok(t.neg())),
        ("mul_scalar_into", other.mul_scalar_into(2.0f32, t)),
        ("sum", ok(t.sum())),
        ("sum_modes", ok(m.sum_modes(&[1]))),
        ("matmul", ok(m.matmul(&row))),
        ("Tensor::typed_view", t.typed_view::<f32>().map(|_| ())),
        (
            "Tensor::with_typed_view",
            t.with_typed_view(|_: strideweave::TypedTensorView<'_, f32>| ()),
        ),
        (
            "transfer_to",
            ok(t.transfer_to(&strideweave::StorageRequest::host())),
        ),
    ]
}

#[test]
fn every_locking_method_inside_a_closure_over_the_same_carrier_is_an_error_not_a_deadlock() {
    let (inside_write, inside_read, after) = within(20, || {
        let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
        let w = t
            .carrier()
            .write(|_: &mut [f32]| {
                every_locking_call(&t)
                    .into_iter()
                    .map(|(op, r)| (op, r.map_err(|e| e.to_string())))
                    .collect::<Vec<_>>()
            })
            .unwrap();
        let r = t
            .carrier()
            .read(|_: &[f32]| {
                every_locking_call(&t)
                    .into_iter()
                    .map(|(op, r)| (op, r.map_err(|e| e.to_string())))
                    .collect::<Vec<_>>()
            })
            .unwrap();
        (
            w,
            r,
            (
                t.carrier().is_released(),
                t.to_vec::<f32>().unwrap(),
                t.carrier().version(),
            ),
        )
    });
    let wrong: Vec<String> = inside_write
        .iter()
        .chain(&inside_read)
        .filter(|(op, r)| {
            !r.as_ref()
                .is_err_and(|e| e.starts_with(&format!("{op}: re-entrant access")))
        })
        .map(|(op, r)| format!("{op}: {r:?}"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Nothing was released or written: the one version step is the outer write's.
    assert_eq!(after, (false, vec![1.0, 2.0, 3.0], 1));
}

#[test]
fn backward_inside_a_closure_over_an_input_carrier_is_an_error_and_stores_no_gradient() {
    let (inside, grad, again) = within(20, || {
        let x = Tensor::from_vec(vec![1.0f64, 2.0], &"2".parse().unwrap()).unwrap();
        x.set_requires_grad(true).unwrap();
        let loss = x.mul(&x).unwrap().sum().unwrap();
        let inside = x
            .carrier()
            .read(|_: &[f64]| loss.backward().map_err(|e| e.to_string()))
            .unwrap();
        let grad = x.grad().is_none();
        loss.backward().unwrap();
        (inside, grad, x.grad().unwrap().to_vec::<f64>().unwrap())
    });
    let err = inside.unwrap_err();
    assert!(err.starts_with("backward: re-entrant access"), "{err}");
    assert!(grad, "a failed backward stored a gradient");
    assert_eq!(again, [2.0, 4.0]);
}
