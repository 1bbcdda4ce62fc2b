//! Runs the PyTorch reference programs of `tests/data/*_torch.json` (documented in
//! `tests/data/README.md`): leaves, steps as a register machine, `loss = sum(last * weights)`,
//! and the check of forward values, loss and every leaf gradient to 1e-9 relative (f32: 2e-6).
//! The families use this module (`crate::torch_programs`) and pass their own `step` (the
//! operations their file uses). A case whose `grads` is `null` is forward only (its output
//! may be `bool` or `i64`, named by `output_dtype`); values may be the strings `"nan"`,
//! `"inf"`, `"-inf"`, which JSON has no numbers for.

use std::collections::BTreeMap;

use serde_json::Value;
use strideweave::{Carrier, Complex64, DType, Element, Key, Layout, Shape, Tensor};

/// An element type of the reference files: `f64` or `f32` (a number) or `c128` (`[re, im]`).
pub trait Elem: Element {
    /// The relative tolerance of the check: `|found - torch| <= TOL (1 + |torch|)` per part.
    const TOL: f64;
    fn from_json(v: &Value) -> Self;
    fn parts(self) -> (f64, f64);
}

/// A number of a reference file: a JSON number or one of the strings `"nan"`, `"inf"`,
/// `"-inf"` (JSON has no numbers for them).
pub fn num(v: &Value) -> f64 {
    match v.as_str() {
        Some("nan") => f64::NAN,
        Some("inf") => f64::INFINITY,
        Some("-inf") => f64::NEG_INFINITY,
        Some(other) => panic!("not a number: {other:?}"),
        None => v.as_f64().unwrap(),
    }
}

impl Elem for f64 {
    const TOL: f64 = 1e-9;
    fn from_json(v: &Value) -> f64 {
        num(v)
    }
    fn parts(self) -> (f64, f64) {
        (self, 0.0)
    }
}

impl Elem for f32 {
    const TOL: f64 = 2e-6;
    fn from_json(v: &Value) -> f32 {
        // Rounded to nearest, as torch's `float64 -> float32` conversion of the same value.
        num(v) as f32
    }
    fn parts(self) -> (f64, f64) {
        (self as f64, 0.0)
    }
}

impl Elem for Complex64 {
    const TOL: f64 = 1e-9;
    fn from_json(v: &Value) -> Complex64 {
        Complex64::new(num(&v[0]), num(&v[1]))
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

/// `found` against torch's `expected`, part by part: within `T::TOL (1 + |expected|)` (the
/// finite parts' magnitudes), NaN where torch has NaN, and infinities exactly.
pub fn close<T: Elem>(what: &str, found: &[T], expected: &[T]) {
    assert_eq!(found.len(), expected.len(), "{what}: lengths");
    for (k, (a, b)) in found.iter().zip(expected).enumerate() {
        let ((ar, ai), (br, bi)) = (a.parts(), b.parts());
        let finite = |y: f64| if y.is_finite() { y.abs() } else { 0.0 };
        let tol = T::TOL * (1.0 + finite(br) + finite(bi));
        let part = |x: f64, y: f64| {
            if y.is_nan() {
                x.is_nan()
            } else if y.is_infinite() {
                x == y
            } else {
                (x - y).abs() <= tol
            }
        };
        assert!(
            part(ar, br) && part(ai, bi),
            "{what}: element {k}: {a:?} vs torch {b:?}"
        );
    }
}

/// The dtype a reference file names: `f64`, `f32`, `c128`, `bool`, `i64`.
pub fn dtype(name: &str) -> DType {
    match name {
        "f64" => DType::F64,
        "f32" => DType::F32,
        "c128" => DType::ComplexF64,
        "bool" => DType::Bool,
        "i64" => DType::I64,
        other => panic!("unknown dtype {other}"),
    }
}

/// Checks `out`'s dtype and values against the file's: floats by [`close`], `bool` and
/// `i64` exactly.
pub fn check_output(what: &str, out: &Tensor, output_dtype: &str, expected: &Value) {
    assert_eq!(out.dtype(), dtype(output_dtype), "{what}: dtype");
    match output_dtype {
        "f64" => close(
            what,
            &out.to_vec::<f64>().unwrap(),
            &values::<f64>(expected),
        ),
        "f32" => close(
            what,
            &out.to_vec::<f32>().unwrap(),
            &values::<f32>(expected),
        ),
        "c128" => close(
            what,
            &out.to_vec::<Complex64>().unwrap(),
            &values::<Complex64>(expected),
        ),
        "bool" => {
            let want: Vec<bool> = expected
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_bool().unwrap())
                .collect();
            assert_eq!(out.to_vec::<bool>().unwrap(), want, "{what}");
        }
        "i64" => assert_eq!(out.to_vec::<i64>().unwrap(), ints(expected), "{what}"),
        other => panic!("unknown output dtype {other}"),
    }
}

/// One step: `op` on the registers `ins` with `args`, the new register.
pub type Step = fn(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor;

/// Runs one case: builds the leaves (requiring gradients), the steps, the loss and its
/// backward pass, and checks the output shape and values, the loss and every leaf gradient.
/// `rank0_of` lists the ops whose rank-0 result the file wrote as shape `[1]`. A case with
/// `"grads": null` is forward only: no loss, no backward pass, and its output is checked in
/// its `output_dtype` (the leaves' dtype when the file has none).
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
    let output_dtype = case["output_dtype"]
        .as_str()
        .unwrap_or_else(|| case["dtype"].as_str().unwrap());
    check_output(&format!("{id}: output"), out, output_dtype, &case["output"]);
    if case["grads"].is_null() {
        return;
    }
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
    let by_dtype = run_selected(data, step, rank0_of, &|_| true);
    let count = |d: &str| by_dtype.get(d).copied().unwrap_or(0);
    (count("f64"), count("c128"))
}

/// Runs the cases of a reference file that `keep` selects, f64, f32 and c128 (every one, so
/// that a failure lists all the disagreeing ids, each with its panic message above); the
/// counts per dtype (`"f64"`, `"f32"`, `"c128"`).
pub fn run_selected(
    data: &str,
    step: Step,
    rank0_of: &[&str],
    keep: &dyn Fn(&Value) -> bool,
) -> BTreeMap<String, usize> {
    let doc: Value = serde_json::from_str(data).unwrap();
    let mut by_dtype = BTreeMap::new();
    let mut failed = Vec::new();
    for case in doc["cases"].as_array().unwrap().iter().filter(|c| keep(c)) {
        let dtype = case["dtype"].as_str().unwrap();
        let one = std::panic::catch_unwind(|| match dtype {
            "f64" => run::<f64>(case, step, rank0_of),
            "f32" => run::<f32>(case, step, rank0_of),
            "c128" => run::<Complex64>(case, step, rank0_of),
            d => panic!("unknown dtype {d}"),
        });
        match one {
            Err(_) => failed.push(case["id"].as_str().unwrap().to_string()),
            Ok(()) => *by_dtype.entry(dtype.to_string()).or_insert(0) += 1,
        }
    }
    assert!(
        failed.is_empty(),
        "{} cases disagree: {failed:?}",
        failed.len()
    );
    by_dtype
}
