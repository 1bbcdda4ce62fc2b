//! Runs the PyTorch reference programs of `tests/data/*_torch.json` (documented in
//! `tests/data/README.md`): leaves, steps as a register machine, `loss = sum(last * weights)`,
//! and the check of forward values, loss and every leaf gradient to 1e-9 relative. The
//! families use this module (`crate::torch_programs`) and pass their own
//! `step` (the operations their file uses).

use serde_json::Value;
use strideweave::{Carrier, Complex64, Element, Key, Layout, Shape, Tensor};

/// An element type of the reference files: `f64` (a number) or `c128` (`[re, im]`).
pub trait Elem: Element {
    fn from_json(v: &Value) -> Self;
    fn parts(self) -> (f64, f64);
}

impl Elem for f64 {
    fn from_json(v: &Value) -> f64 {
        v.as_f64().unwrap()
    }
    fn parts(self) -> (f64, f64) {
        (self, 0.0)
    }
}

impl Elem for Complex64 {
    fn from_json(v: &Value) -> Complex64 {
        Complex64::new(v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
    }
    fn parts(self) -> (f64, f64) {
        (self.re, self.im)
    }
}

/// A JSON array of integers.
pub fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

/// A JSON array of non-negative integers as `usize` (modes, axes, orders).
pub fn indices(v: &Value) -> Vec<usize> {
    ints(v).iter().map(|&i| i as usize).collect()
}

/// A JSON array of extents as a shape: `[]` is the rank-0 shape `()`, `[4]` is `4`, a
/// nested array is a nested mode (`[[3, 4], 2]` is `((3,4),2)`).
pub fn shape(v: &Value) -> Shape {
    fn text(v: &Value) -> String {
        match v.as_array() {
            None => v.as_i64().unwrap().to_string(),
            Some(items) => format!("({})", items.iter().map(text).collect::<Vec<_>>().join(",")),
        }
    }
    let items = v.as_array().unwrap();
    let t = match items.as_slice() {
        [one] if one.is_i64() => text(one),
        _ => text(v),
    };
    t.parse().unwrap()
}

/// Slicing keys: an integer or `[start, stop, step]`.
pub fn keys(v: &Value) -> Vec<Key> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|k| match k.as_i64() {
            Some(i) => Key::Int(i),
            None => {
                let s = ints(k);
                Key::slice(Some(s[0]), Some(s[1]), Some(s[2]))
            }
        })
        .collect()
}

pub fn values<T: Elem>(v: &Value) -> Vec<T> {
    v.as_array().unwrap().iter().map(T::from_json).collect()
}

pub fn close<T: Elem>(what: &str, found: &[T], expected: &[T]) {
    assert_eq!(found.len(), expected.len(), "{what}: lengths");
    for (k, (a, b)) in found.iter().zip(expected).enumerate() {
        let ((ar, ai), (br, bi)) = (a.parts(), b.parts());
        let tol = 1e-9 * (1.0 + br.abs() + bi.abs());
        assert!(
            (ar - br).abs() <= tol && (ai - bi).abs() <= tol,
            "{what}: element {k}: {a:?} vs torch {b:?}"
        );
    }
}

/// One step: `op` on the registers `ins` with `args`, the new register.
pub type Step = fn(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor;

/// Runs one case: builds the leaves (requiring gradients), the steps, the loss and its
/// backward pass, and checks the output shape and values, the loss and every leaf gradient.
/// `rank0_of` lists the ops whose rank-0 result the file wrote as shape `[1]`.
pub fn run<T: Elem>(case: &Value, step: Step, rank0_of: &[&str]) {
    let id = case["id"].as_str().unwrap();
    let mut regs: Vec<Tensor> = Vec::new();
    for leaf in case["leaves"].as_array().unwrap() {
        let layout: Layout = leaf["layout"].as_str().unwrap().parse().unwrap();
        let t = Tensor::new(
            Carrier::from_vec(values::<T>(&leaf["storage"])),
            leaf["offset"].as_u64().unwrap() as usize,
            layout,
        )
        .unwrap();
        t.set_requires_grad(true).unwrap();
        regs.push(t);
    }
    let n = regs.len();
    for s in case["steps"].as_array().unwrap() {
        let next = step(
            s["op"].as_str().unwrap(),
            &regs,
            &indices(&s["in"]),
            &s["args"],
        );
        regs.push(next);
    }
    let out = regs.last().unwrap();
    let want = shape(&case["output_shape"]);
    let last_op = case["steps"].as_array().unwrap().last().unwrap()["op"]
        .as_str()
        .unwrap();
    if out.rank() == 0 && rank0_of.contains(&last_op) {
        assert_eq!(want.size(), 1, "{id}: output shape");
    } else {
        assert_eq!(out.shape(), &want, "{id}: output shape");
    }
    close(
        &format!("{id}: output"),
        &out.to_vec::<T>().unwrap(),
        &values::<T>(&case["output"]),
    );
    let w = Tensor::from_vec(values::<T>(&case["weights"]), out.shape()).unwrap();
    let loss = out.mul(&w).unwrap().sum().unwrap();
    close(
        &format!("{id}: loss"),
        &loss.to_vec::<T>().unwrap(),
        &[T::from_json(&case["loss"])],
    );
    loss.backward().unwrap();
    for (k, (leaf, expected)) in regs[..n]
        .iter()
        .zip(case["grads"].as_array().unwrap())
        .enumerate()
    {
        let expected = values::<T>(expected);
        let found = match leaf.grad() {
            Some(g) => g.to_vec::<T>().unwrap(),
            None => vec![T::zero(); leaf.size()], // a leaf the loss does not reach
        };
        close(&format!("{id}: gradient of leaf {k}"), &found, &expected);
    }
}

/// Runs every case of a reference file, f64 and c128 (every case, so that a failure lists
/// all the disagreeing ids, each with its panic message above); the counts per dtype.
pub fn run_all(data: &str, step: Step, rank0_of: &[&str]) -> (usize, usize) {
    let doc: Value = serde_json::from_str(data).unwrap();
    let mut by_dtype = (0, 0);
    let mut failed = Vec::new();
    for case in doc["cases"].as_array().unwrap() {
        let one = std::panic::catch_unwind(|| match case["dtype"].as_str().unwrap() {
            "f64" => run::<f64>(case, step, rank0_of),
            "c128" => run::<Complex64>(case, step, rank0_of),
            d => panic!("unknown dtype {d}"),
        });
        match (one, case["dtype"].as_str()) {
            (Err(_), _) => failed.push(case["id"].as_str().unwrap().to_string()),
            (Ok(()), Some("f64")) => by_dtype.0 += 1,
            (Ok(()), _) => by_dtype.1 += 1,
        }
    }
    assert!(
        failed.is_empty(),
        "{} cases disagree: {failed:?}",
        failed.len()
    );
    by_dtype
}
