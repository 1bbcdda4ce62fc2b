//! Gradients of issue 13's operations against PyTorch's on generated reference programs
//! (`tests/data/algebra_torch.json`, documented in `tests/data/README.md`): `dot`, `outer`,
//! matmul's forms (matrix × matrix, matrix × vector, vector × matrix, batched), `contract`,
//! `einsum`/`einsum_with` (one and two inputs, groups, keywords), `reduce` with every
//! `Reduction` (max/min on tie-free data), `magnitude`, `normalize`, `cross`, on compact,
//! strided, transposed, reversed, sliced and permuted leaves and in chains with views; f64
//! and complex128. Forward values, the loss and every leaf gradient must agree to 1e-9
//! (the harness: `tests/common/torch_programs.rs`).

use serde_json::Value;
use strideweave::Tensor;

use crate::algebra::reference::reduction;
use crate::algebra::torch_programs::{indices, keys, run_all};

const DATA: &str = include_str!("../data/algebra_torch.json");

fn step(op: &str, regs: &[Tensor], ins: &[usize], args: &Value) -> Tensor {
    let a = &regs[ins[0]];
    let b = || &regs[ins[1]];
    let sizes: Vec<(&str, usize)> = args["sizes"]
        .as_array()
        .map(|v| {
            v.iter()
                .map(|kv| (kv[0].as_str().unwrap(), kv[1].as_u64().unwrap() as usize))
                .collect()
        })
        .unwrap_or_default();
    let pattern = || args["pattern"].as_str().unwrap();
    match op {
        "permute" => a.permute(&indices(&args["order"])).unwrap(),
        "index" => a.slice(&keys(&args["keys"])).unwrap(),
        "reverse" => a.reverse(args["mode"].as_u64().unwrap() as usize).unwrap(),
        "dot" => a.dot(b()).unwrap(),
        "outer" => a.outer(b()).unwrap(),
        "matmul" => a.matmul(b()).unwrap(),
        "contract" => a
            .contract(b(), &indices(&args["left"]), &indices(&args["right"]))
            .unwrap(),
        "einsum" => {
            let inputs: Vec<&Tensor> = ins.iter().map(|&i| &regs[i]).collect();
            if sizes.is_empty() {
                Tensor::einsum(pattern(), &inputs).unwrap()
            } else {
                Tensor::einsum_with(pattern(), &inputs, &sizes).unwrap()
            }
        }
        "reduce" => a
            .reduce(
                pattern(),
                reduction(args["reduction"].as_str().unwrap()),
                &sizes,
            )
            .unwrap(),
        "magnitude" => a.magnitude().unwrap(),
        "normalize" => a.normalize().unwrap().expect("a non-zero vector"),
        "cross" => a.cross(b()).unwrap(),
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn gradients_of_the_algebra_agree_with_pytorch() {
    let by_dtype = run_all(DATA, step, &[]);
    assert!(by_dtype.0 >= 100 && by_dtype.1 >= 80, "{by_dtype:?}");
}
