//! Gradients against PyTorch's on generated reference programs (`tests/data/autograd_torch.json`,
//! documented in `tests/data/README.md`): random view chains, arithmetic, matmul, a
//! least-squares loss, f64 and complex128. Forward values, the loss and every leaf
//! gradient must agree.

use serde_json::Value;
use strideweave::{Carrier, Complex64, Element, Key, Shape, Stride, Tensor};

use crate::support::l;

const DATA: &str = include_str!("../data/autograd_torch.json");

trait Elem: Element {
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

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn shape(v: &Value) -> Shape {
    let e = ints(v);
    let text = if e.len() == 1 {
        e[0].to_string()
    } else {
        format!(
            "({})",
            e.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        )
    };
    text.parse().unwrap()
}

fn values<T: Elem>(v: &Value) -> Vec<T> {
    v.as_array().unwrap().iter().map(T::from_json).collect()
}

fn close<T: Elem>(what: &str, found: &[T], expected: &[T]) {
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

fn step(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor {
    let a = &regs[ins[0]];
    let b = || &regs[ins[1]];
    let value = || args["value"].as_f64().unwrap();
    match op {
        "permute" => {
            let order: Vec<usize> = ints(&args["order"]).iter().map(|&i| i as usize).collect();
            a.permute(&order).unwrap()
        }
        "index" => {
            let keys: Vec<Key> = args["keys"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| match k.as_i64() {
                    Some(i) => Key::Int(i),
                    None => {
                        let s = ints(k);
                        Key::slice(Some(s[0]), Some(s[1]), Some(s[2]))
                    }
                })
                .collect();
            a.slice(&keys).unwrap()
        }
        "reshape" => a.reshape(&shape(&args["shape"])).unwrap(),
        "unsqueeze" => a.unsqueeze(args["dim"].as_u64().unwrap() as usize).unwrap(),
        "squeeze" => a.squeeze(args["dim"].as_u64().unwrap() as usize).unwrap(),
        "reverse" => a.reverse(args["mode"].as_u64().unwrap() as usize).unwrap(),
        "broadcast_to" => a.broadcast_to(&shape(&args["shape"])).unwrap(),
        "broadcast_in_dim" => {
            let dims: Vec<usize> = ints(&args["dims"]).iter().map(|&i| i as usize).collect();
            a.broadcast_in_dim(&shape(&args["shape"]), &dims).unwrap()
        }
        "as_strided" => {
            let st = ints(&args["stride"]);
            let stride: Stride = format!("({},{})", st[0], st[1]).parse().unwrap();
            a.as_strided(&shape(&args["shape"]), &stride).unwrap()
        }
        "add" => a.add(b()).unwrap(),
        "sub" => a.sub(b()).unwrap(),
        "mul" => a.mul(b()).unwrap(),
        "div" => a.div(b()).unwrap(),
        "neg" => a.neg().unwrap(),
        "add_scalar" => a.add_scalar(value()).unwrap(),
        "sub_scalar" => a.sub_scalar(value()).unwrap(),
        "mul_scalar" => a.mul_scalar(value()).unwrap(),
        "div_scalar" => a.div_scalar(value()).unwrap(),
        "sum" => a.sum().unwrap(),
        "mean" => a.mean().unwrap(),
        "sum_modes" => {
            let modes: Vec<usize> = ints(&args["modes"]).iter().map(|&i| i as usize).collect();
            a.sum_modes(&modes).unwrap()
        }
        "matmul" => a.matmul(b()).unwrap(),
        other => panic!("unknown op {other}"),
    }
}

fn run<T: Elem>(case: &Value) {
    let id = case["id"].as_str().unwrap();
    let mut regs: Vec<Tensor> = Vec::new();
    for leaf in case["leaves"].as_array().unwrap() {
        let t = Tensor::new(
            Carrier::from_vec(values::<T>(&leaf["storage"])),
            leaf["offset"].as_u64().unwrap() as usize,
            l(leaf["layout"].as_str().unwrap()),
        )
        .unwrap();
        t.set_requires_grad(true).unwrap();
        regs.push(t);
    }
    let n = regs.len();
    for s in case["steps"].as_array().unwrap() {
        let ins: Vec<usize> = ints(&s["in"]).iter().map(|&i| i as usize).collect();
        let next = step(s["op"].as_str().unwrap(), &regs, &ins, &s["args"]);
        regs.push(next);
    }
    let out = regs.last().unwrap();
    let want = shape(&case["output_shape"]);
    let last_op = case["steps"].as_array().unwrap().last().unwrap()["op"].as_str();
    if out.rank() == 0 && matches!(last_op, Some("sum" | "mean" | "sum_modes")) {
        // A full reduction is rank 0 here (shape `()`); the generator wrote torch's result
        // as shape `[1]`, StrideWeave's convention when the data was made.
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

#[test]
fn gradients_agree_with_pytorch() {
    let doc: Value = serde_json::from_str(DATA).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let mut by_dtype = (0, 0);
    for case in cases {
        match case["dtype"].as_str().unwrap() {
            "f64" => {
                run::<f64>(case);
                by_dtype.0 += 1;
            }
            "c128" => {
                run::<Complex64>(case);
                by_dtype.1 += 1;
            }
            d => panic!("unknown dtype {d}"),
        }
    }
    assert!(by_dtype.0 >= 100 && by_dtype.1 >= 20, "{by_dtype:?}");
}
