//! Issue 24's functions against PyTorch's on generated reference programs
//! (`tests/data/functions_torch.json`, documented in `tests/data/README.md`): the elementwise
//! functions (f64 and c128 with gradients, f32 forward), `maximum`/`minimum`/`pow`, the
//! softmax family and `argmax`/`argmin` along one mode (and `Reduction::LogSumExp`), the
//! comparisons, `where_cond`, `to_dtype` between floating dtypes, `index_select` and
//! `gather`, and a cross-entropy chain; on compact, transposed, sliced, reversed and
//! broadcast leaves, with ±inf/NaN inputs, ties and kinks (torch's gradients there). Forward
//! values, the loss and every leaf gradient must agree to 1e-9 (f32 forward values to 2e-6;
//! NaN equals NaN, infinities exactly; the harness: `tests/common/torch_programs.rs`). One
//! test per family (the case's `family`), so that a failure names it.

use serde_json::Value;
use strideweave::{DType, Reduction, Shape, Tensor};

use crate::torch_programs::{indices, ints, keys, num, run_selected, shape};

const DATA: &str = include_str!("../data/functions_torch.json");

/// A `Reduction` by the name the file uses.
fn reduction(name: &str) -> Reduction {
    match name {
        "sum" => Reduction::Sum,
        "mean" => Reduction::Mean,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "prod" => Reduction::Prod,
        "logsumexp" => Reduction::LogSumExp,
        other => panic!("unknown reduction {other}"),
    }
}

fn step(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor {
    let a = &regs[ins[0]];
    let b = || &regs[ins[1]];
    let dim = || args["dim"].as_i64().unwrap();
    let value = || num(&args["value"]);
    match op {
        // The views and reductions of the earlier files, in chains.
        "permute" => a.permute(&indices(&args["order"])).unwrap(),
        "index" => a.slice(&keys(&args["keys"])).unwrap(),
        "reverse" => a.reverse(args["mode"].as_u64().unwrap() as usize).unwrap(),
        "broadcast_to" => a.broadcast_to(&shape(&args["shape"])).unwrap(),
        "neg" => a.neg().unwrap(),
        "reduce" => {
            let sizes: Vec<(&str, usize)> = args["sizes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|kv| (kv[0].as_str().unwrap(), kv[1].as_u64().unwrap() as usize))
                .collect();
            a.reduce(
                args["pattern"].as_str().unwrap(),
                reduction(args["reduction"].as_str().unwrap()),
                &sizes,
            )
            .unwrap()
        }
        // Elementwise.
        "exp" => a.exp().unwrap(),
        "log" => a.log().unwrap(),
        "sqrt" => a.sqrt().unwrap(),
        "abs" => a.abs().unwrap(),
        "sin" => a.sin().unwrap(),
        "cos" => a.cos().unwrap(),
        "tanh" => a.tanh().unwrap(),
        "sigmoid" => a.sigmoid().unwrap(),
        "relu" => a.relu().unwrap(),
        "silu" => a.silu().unwrap(),
        "gelu" => a.gelu().unwrap(),
        "powf" => a.powf(num(&args["p"])).unwrap(),
        "clamp" => a.clamp(num(&args["min"]), num(&args["max"])).unwrap(),
        "maximum" => a.maximum(b()).unwrap(),
        "minimum" => a.minimum(b()).unwrap(),
        "pow" => a.pow(b()).unwrap(),
        // Along one mode.
        "softmax" => a.softmax(dim()).unwrap(),
        "log_softmax" => a.log_softmax(dim()).unwrap(),
        "logsumexp" => a.logsumexp(dim()).unwrap(),
        "argmax" => a.argmax(dim()).unwrap(),
        "argmin" => a.argmin(dim()).unwrap(),
        // Comparisons.
        "eq" => a.eq(b()).unwrap(),
        "ne" => a.ne(b()).unwrap(),
        "lt" => a.lt(b()).unwrap(),
        "le" => a.le(b()).unwrap(),
        "gt" => a.gt(b()).unwrap(),
        "ge" => a.ge(b()).unwrap(),
        "eq_scalar" => a.eq_scalar(value()).unwrap(),
        "ne_scalar" => a.ne_scalar(value()).unwrap(),
        "lt_scalar" => a.lt_scalar(value()).unwrap(),
        "le_scalar" => a.le_scalar(value()).unwrap(),
        "gt_scalar" => a.gt_scalar(value()).unwrap(),
        "ge_scalar" => a.ge_scalar(value()).unwrap(),
        // Selection: the mask in ordinal order of the result's (a's) shape.
        "where_cond" => {
            let mask: Vec<bool> = args["mask"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_bool().unwrap())
                .collect();
            let cond = Tensor::from_vec(mask, a.shape()).unwrap();
            cond.where_cond(a, b()).unwrap()
        }
        // Casts between floating dtypes.
        "to_dtype" => a
            .to_dtype(match args["dtype"].as_str().unwrap() {
                "f32" => DType::F32,
                "f64" => DType::F64,
                other => panic!("unknown dtype {other}"),
            })
            .unwrap(),
        // Gathers: rank-1 i64 indices, or i64 indices of the result's shape.
        "index_select" => {
            let idx = ints(&args["indices"]);
            let n: Shape = idx.len().to_string().parse().unwrap();
            a.index_select(dim(), &Tensor::from_vec(idx, &n).unwrap())
                .unwrap()
        }
        "gather" => {
            let idx =
                Tensor::from_vec(ints(&args["indices"]), &shape(&args["indices_shape"])).unwrap();
            a.gather(dim(), &idx).unwrap()
        }
        other => panic!("unknown op {other}"),
    }
}

/// Runs the cases of `family`; at least `min` of them.
fn family(name: &str, min: usize) {
    let by_dtype = run_selected(DATA, step, &[], &|case: &Value| case["family"] == name);
    let total: usize = by_dtype.values().sum();
    assert!(total >= min, "{name}: {by_dtype:?}");
}

#[test]
fn unary() {
    family("unary", 150);
}

#[test]
fn binary() {
    family("binary", 20);
}

#[test]
fn along_mode() {
    family("along_mode", 50);
}

#[test]
fn comparisons() {
    family("comparisons", 35);
}

#[test]
fn where_cond() {
    family("where_cond", 10);
}

#[test]
fn casts() {
    family("casts", 9);
}

#[test]
fn gathers() {
    family("gathers", 15);
}

#[test]
fn cross_entropy() {
    family("cross_entropy", 5);
}
