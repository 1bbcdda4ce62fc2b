//! `Tensor::einsum` against numpy.einsum (`tests/data/einsum_numpy.json`; see
//! `tests/data/README.md` for how it was made): values, result leaves and, for the float
//! cases without groups, the gradients of `Σ W ⊙ einsum(…)`.

use serde_json::Value;
use strideweave::Tensor;

fn cases() -> Vec<Value> {
    let data: Value =
        serde_json::from_str(include_str!("../data/einsum_numpy.json")).expect("valid JSON");
    data["cases"].as_array().expect("cases").clone()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn input(v: &Value, dtype: &str) -> Tensor {
    let shape = v["shape"].as_str().unwrap().parse().unwrap();
    match dtype {
        "f64" => Tensor::from_vec(floats(&v["data"]), &shape).unwrap(),
        _ => {
            let d: Vec<i64> = v["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            Tensor::from_vec(d, &shape).unwrap()
        }
    }
}

fn sizes(c: &Value) -> Vec<(String, usize)> {
    c["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

#[test]
fn einsum_agrees_with_numpy_reference_cases() {
    let cases = cases();
    assert!(cases.len() >= 40);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let dtype = c["dtype"].as_str().unwrap();
        let ins: Vec<Tensor> = c["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| input(v, dtype))
            .collect();
        let refs: Vec<&Tensor> = ins.iter().collect();
        let sz = sizes(c);
        let kw: Vec<(&str, usize)> = sz.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let out = Tensor::einsum_with(c["pattern"].as_str().unwrap(), &refs, &kw)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let leaves: Vec<i64> = c["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(out.shape().leaves(), &leaves[..], "{id}: leaves");
        if dtype == "f64" {
            let got = out.to_vec::<f64>().unwrap();
            let want = floats(&c["output"]);
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-9 * (1.0 + w.abs()),
                    "{id}: {got:?} vs {want:?}"
                );
            }
            assert_eq!(got.len(), want.len(), "{id}");
        } else {
            let got = out.to_vec::<i64>().unwrap();
            let want: Vec<i64> = c["output"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            assert_eq!(got, want, "{id}");
        }
    }
}

#[test]
fn einsum_gradients_agree_with_numpy_reference_cases() {
    let mut checked = 0;
    for c in cases().iter().filter(|c| c.get("grads").is_some()) {
        let id = c["id"].as_str().unwrap();
        let ins: Vec<Tensor> = c["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| input(v, "f64"))
            .collect();
        for t in &ins {
            t.set_requires_grad(true).unwrap();
        }
        let refs: Vec<&Tensor> = ins.iter().collect();
        let out = Tensor::einsum(c["pattern"].as_str().unwrap(), &refs).unwrap();
        let w = Tensor::from_vec(floats(&c["cotangent"]), out.shape()).unwrap();
        out.mul(&w).unwrap().sum().unwrap().backward().unwrap();
        for (k, (t, g)) in ins.iter().zip(c["grads"].as_array().unwrap()).enumerate() {
            let got = t.grad().unwrap().to_vec::<f64>().unwrap();
            let want = floats(g);
            assert_eq!(got.len(), want.len(), "{id} input {k}");
            for (x, y) in got.iter().zip(&want) {
                assert!(
                    (x - y).abs() <= 1e-9 * (1.0 + y.abs()),
                    "{id} input {k}: {got:?} vs {want:?}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 35, "{checked}");
}
