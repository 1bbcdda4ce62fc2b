//! `einops::reduce` against einops: every case of `tests/data/einops_reduce.json` with its
//! pattern verbatim on numpy-ordered data, and hand cases with groups on both sides.

use serde_json::Value;
use strideweave::{Reduction, Tensor, einops, shape};

use super::{numpy_values, shape_of};
use crate::layout::einops::{departures, sw_rejects};

fn reduction(name: &str) -> Reduction {
    match name {
        "sum" => Reduction::Sum,
        "mean" => Reduction::Mean,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "prod" => Reduction::Prod,
        other => panic!("unknown reduction {other}"),
    }
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + y.abs()))
}

#[test]
fn einops_reduce_verbatim_agrees_with_the_reference() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/einops_reduce.json"
    ))
    .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 140, "{}", cases.len());
    let mut refused = 0;
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let pattern = c["pattern"].as_str().unwrap();
        let r = reduction(c["reduction"].as_str().unwrap());
        let sizes: Vec<(String, i64)> = (c["axes_lengths"].as_object().unwrap().iter())
            .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
            .collect();
        let sizes: Vec<(&str, i64)> = sizes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let x =
            Tensor::from_vec_row_major(floats(&c["input"]), &shape_of(&ints(&c["input_shape"])))
                .unwrap();
        let result = einops::reduce(&x, pattern, r, &sizes);
        let kw: Vec<(String, usize)> = sizes
            .iter()
            .map(|(k, v)| (k.to_string(), *v as usize))
            .collect();
        // A grammar departure (`()`, numbers): refused, quoting the pattern (an empty right
        // side is a full reduction, not a departure).
        if (departures(pattern, &kw).iter()).any(|c| *c != "empty_side" && sw_rejects(c)) {
            let e = result.expect_err(id);
            assert!(e.to_string().starts_with("einops::reduce: "), "{e}");
            assert!(e.to_string().contains(&format!("\n  {pattern}\n")), "{e}");
            refused += 1;
            continue;
        }
        let out = result.unwrap_or_else(|e| panic!("{id} {pattern}: {e}"));
        assert_eq!(
            out.shape(),
            &shape_of(&ints(&c["output_shape"])),
            "{id} {pattern}"
        );
        let got: Vec<f64> = numpy_values(&out);
        assert!(
            close(&got, &floats(&c["expected"])),
            "{id} {pattern}: {got:?}"
        );
    }
    eprintln!(
        "einops::reduce: {} cases: {} agree, {} grammar departures refused",
        cases.len(),
        cases.len() - refused,
        refused
    );
    assert!(refused < 10, "{refused}");
}

/// numpy's arange as f64, row-major.
fn arange(shape: &strideweave::Shape) -> Tensor {
    let n = shape.size();
    Tensor::from_vec_row_major((0..n).map(|v| v as f64).collect(), shape).unwrap()
}

#[test]
fn hand_cases_with_groups_in_einops_order() {
    // x[b, (h h2), (w w2)]: 2×2 pooling, h2 and w2 fastest inside their groups.
    let x = arange(&shape!(2, 4, 6));
    let m = einops::reduce(
        &x,
        "b (h h2) (w w2) -> b h w",
        Reduction::Max,
        &[("h2", 2), ("w2", 2)],
    )
    .unwrap();
    assert_eq!(m.shape(), &shape!(2, 2, 3));
    // Row-major: x[b, i, j] = 24b + 6i + j; the max of each 2×2 block is its last element.
    let want: Vec<f64> = (0..2)
        .flat_map(|b| {
            (0..2).flat_map(move |h| {
                (0..3).map(move |w| (24 * b + 6 * (2 * h + 1) + 2 * w + 1) as f64)
            })
        })
        .collect();
    assert_eq!(numpy_values::<f64>(&m), want);

    // The mean over the fast member of a group: (a k) -> a.
    let y = arange(&shape!(6));
    let s = einops::reduce(&y, "(a k) -> a", Reduction::Mean, &[("k", 3)]).unwrap();
    assert_eq!(s.to_vec::<f64>().unwrap(), [1.0, 4.0]);
    // ... and over the slow one: (k a) -> a, k slowest.
    let s = einops::reduce(&y, "(k a) -> a", Reduction::Sum, &[("k", 3)]).unwrap();
    assert_eq!(s.to_vec::<f64>().unwrap(), [6.0, 9.0]);

    // A group on the right is one flat mode of the fresh result, in einops' order.
    let z = arange(&shape!(2, 3, 4));
    let g = einops::reduce(&z, "a b c -> (b a)", Reduction::Sum, &[]).unwrap();
    assert_eq!(g.shape(), &shape!(6));
    // out[b·2 + a] = Σ_c z[a, b, c] = 4·(12a + 4b) + 6.
    let want: Vec<f64> = (0..3)
        .flat_map(|b| (0..2).map(move |a| (4 * (12 * a + 4 * b) + 6) as f64))
        .collect();
    assert_eq!(numpy_values::<f64>(&g), want);

    // `...` of two modes inside a right group: the modes in einops' order (one more copy).
    let w = arange(&shape!(2, 3, 4, 5));
    let e = einops::reduce(&w, "a ... d -> (... a)", Reduction::Min, &[]).unwrap();
    assert_eq!(e.shape(), &shape!(24));
    // out[(b·4 + c)·2 + a] = w[a, b, c, 0] = 60a + 20b + 5c.
    let want: Vec<f64> = (0..3)
        .flat_map(|b| {
            (0..4).flat_map(move |c| (0..2).map(move |a| (60 * a + 20 * b + 5 * c) as f64))
        })
        .collect();
    assert_eq!(numpy_values::<f64>(&e), want);
}
