//! Gradients against PyTorch's on generated reference programs (`tests/data/autograd_torch.json`,
//! documented in `tests/data/README.md`): random view chains, arithmetic, matmul, a
//! least-squares loss, f64 and complex128. Forward values, the loss and every leaf
//! gradient must agree (the harness: `tests/common/torch_programs.rs`).

use serde_json::Value;
use strideweave::{Stride, Tensor};

use crate::autograd::support::torch_programs::{indices, ints, keys, run_all, shape};

const DATA: &str = include_str!("../data/autograd_torch.json");

fn step(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor {
    let a = &regs[ins[0]];
    let b = || &regs[ins[1]];
    let value = || args["value"].as_f64().unwrap();
    match op {
        "permute" => a.permute(&indices(&args["order"])).unwrap(),
        "index" => a.slice(&keys(&args["keys"])).unwrap(),
        "reshape" => a.reshape(&shape(&args["shape"])).unwrap(),
        "unsqueeze" => a.unsqueeze(args["dim"].as_u64().unwrap() as usize).unwrap(),
        "squeeze" => a.squeeze(args["dim"].as_u64().unwrap() as usize).unwrap(),
        "reverse" => a.reverse(args["mode"].as_u64().unwrap() as usize).unwrap(),
        "broadcast_to" => a.broadcast_to(&shape(&args["shape"])).unwrap(),
        "broadcast_in_dim" => a
            .broadcast_in_dim(&shape(&args["shape"]), &indices(&args["dims"]))
            .unwrap(),
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
        "sum_modes" => a.sum_modes(&indices(&args["modes"])).unwrap(),
        "matmul" => a.matmul(b()).unwrap(),
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn gradients_agree_with_pytorch() {
    // A full reduction is rank 0 here (shape `()`); the generator wrote torch's result as
    // shape `[1]`, StrideWeave's convention when the data was made.
    let by_dtype = run_all(DATA, step, &["sum", "mean", "sum_modes"]);
    assert!(
        by_dtype.0 + by_dtype.1 >= 100 && by_dtype.0 >= 100 && by_dtype.1 >= 20,
        "{by_dtype:?}"
    );
}
