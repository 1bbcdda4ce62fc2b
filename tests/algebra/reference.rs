//! `Tensor::reduce` against einops.reduce (`tests/data/einops_reduce.json`, see
//! `tests/data/README.md`): values and the gradient of `Σ out ⊙ w`, on a compact operand and
//! on a row-major (strided) one holding the same values.

use serde_json::Value;
use strideweave::{Layout, Reduction, Shape, Tensor};

fn shape(v: &Value) -> Shape {
    let mut e: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap().to_string())
        .collect();
    e.reverse();
    format!("({})", e.join(",")).parse().unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// A `Reduction` by the name the reference files use (`sum`, `mean`, `max`, `min`, `prod`).
pub(crate) fn reduction(name: &str) -> Reduction {
    match name {
        "sum" => Reduction::Sum,
        "mean" => Reduction::Mean,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "prod" => Reduction::Prod,
        other => panic!("unknown reduction {other}"),
    }
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + y.abs()))
}

#[test]
fn reduce_agrees_with_einops_values_and_gradients() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/einops_reduce.json"
    ))
    .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 140, "{}", cases.len());
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let pattern = c["pattern_colex"].as_str().unwrap();
        let r = reduction(c["reduction"].as_str().unwrap());
        let sizes: Vec<(String, usize)> = c["axes_lengths"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize))
            .collect();
        let sizes: Vec<(&str, usize)> = sizes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let in_shape = shape(&c["input_shape"]);
        let out_shape = shape(&c["output_shape"]);
        let input = floats(&c["input"]);
        let expected = floats(&c["expected"]);
        let grad = floats(&c["grad"]);
        let compact = Tensor::from_vec(input.clone(), &in_shape).unwrap();
        // The same values placed row-major: a strided operand.
        let strided = Tensor::from_vec_row_major(vec![0.0f64; input.len()], &in_shape).unwrap();
        strided.copy_from(&compact).unwrap();
        for (how, x) in [("compact", compact), ("row-major", strided)] {
            x.set_requires_grad(true).unwrap();
            let out = x
                .reduce(pattern, r, &sizes)
                .unwrap_or_else(|e| panic!("{id} ({how}) {pattern}: {e}"));
            // einops flattens a right group into one axis; here it is one nested mode.
            let c = Layout::compact(out.shape());
            let modes: Vec<usize> = (0..out.rank()).map(|k| c.mode(k).unwrap().size()).collect();
            let want: Vec<usize> = out_shape.leaves().iter().map(|&e| e as usize).collect();
            assert_eq!(modes, want, "{id} ({how}) {pattern}");
            let got = out.to_vec::<f64>().unwrap();
            assert!(
                close(&got, &expected),
                "{id} ({how}) {pattern}: {got:?} vs {expected:?}"
            );
            let w: Vec<f64> = (1..=out.size()).map(|i| i as f64).collect();
            let w = Tensor::from_vec(w, out.shape()).unwrap();
            out.mul(&w).unwrap().sum().unwrap().backward().unwrap();
            let g = x.grad().unwrap().to_vec::<f64>().unwrap();
            assert!(
                close(&g, &grad),
                "{id} ({how}) {pattern}: grad {g:?} vs {grad:?}"
            );
        }
    }
}
