//! The tiling views and the layouts for threads against `tests/data/cute_tensor.json`:
//! answers computed by pycute's layout algebra with CuTe's definitions of the tensor
//! functions on top (see `tests/data/README.md`). Every answered case must give the
//! expected shape and read the expected carrier indices; every refused case must be an
//! error that starts with the operation's name.

use serde_json::Value;
use strideweave::{Carrier, IntTuple, Layout, Shape, Stride, Tensor, Tiler};

fn int_tuple(v: &Value) -> IntTuple {
    match v {
        Value::Array(items) => IntTuple::tuple(items.iter().map(int_tuple)),
        v => IntTuple::int(v.as_i64().expect("an integer")),
    }
}

fn layout(v: &Value) -> Layout {
    Layout::new(
        Shape::new(int_tuple(&v["shape"])).unwrap(),
        Stride::new(int_tuple(&v["stride"])).unwrap(),
    )
    .unwrap()
}

fn tiler(v: &Value) -> Tiler {
    if let Some(s) = v.get("shape") {
        Tiler::from(&Shape::new(int_tuple(s)).unwrap())
    } else if let Some(l) = v.get("layout") {
        Tiler::from(layout(l))
    } else {
        let entries = v["by_mode"].as_array().expect("a by-mode list");
        Tiler::by_mode(entries.iter().map(|e| match e {
            Value::Null => Tiler::Keep,
            e if e.get("by_mode").is_some() => tiler(e),
            e => Tiler::from(layout(e)),
        }))
    }
}

/// The case's tensor: its layout at its offset over a carrier whose element `k` is `k`, so
/// that a view's values are the carrier indices it reads.
fn tensor(case: &Value) -> Tensor {
    let l = layout(&case["layout"]);
    let offset = case["offset"].as_u64().unwrap_or(0) as usize;
    let len = offset as i64 + l.reach().1 + 1;
    let data: Vec<f64> = (0..len).map(|k| k as f64).collect();
    Tensor::new(Carrier::from_vec(data), offset, l).unwrap()
}

fn thread(case: &Value) -> usize {
    case["thread"].as_u64().expect("a thread") as usize
}

/// The view a tensor case asks for.
fn view(case: &Value) -> strideweave::Result<Tensor> {
    let t = tensor(case);
    let coord = || int_tuple(&case["coord"]);
    match case["op"].as_str().unwrap() {
        "compose" => t.compose(&layout(&case["other"])),
        "logical_divide" => t.logical_divide(&tiler(&case["tiler"])),
        "zipped_divide" => t.zipped_divide(&tiler(&case["tiler"])),
        "tiled_divide" => t.tiled_divide(&tiler(&case["tiler"])),
        "flat_divide" => t.flat_divide(&tiler(&case["tiler"])),
        "local_tile" => t.local_tile(&tiler(&case["tiler"]), &coord()),
        "inner_partition" => t.inner_partition(&tiler(&case["tiler"]), &coord()),
        "outer_partition" => t.outer_partition(&tiler(&case["tiler"]), &coord()),
        "local_partition" => t.local_partition(&layout(&case["thr"]), thread(case)),
        "partition_tv" => t.partition_tv(&layout(&case["tv"]), thread(case)),
        op => panic!("not a tensor op: {op}"),
    }
}

/// `Ok(())` when the case gives its expected answer, else what differs.
fn check(case: &Value) -> Result<(), String> {
    let op = case["op"].as_str().unwrap();
    let expected = &case["expected"];
    let refused = case.get("expected_error").is_some();
    let indices =
        |l: &Layout| -> Vec<i64> { (0..l.size()).map(|i| l.index_of(i).unwrap()).collect() };
    let want_indices = || -> Vec<i64> {
        expected["indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect()
    };
    let outcome: Result<(String, Vec<i64>), strideweave::Error> = match op {
        "tv" => Layout::tv(&layout(&case["thr"]), &layout(&case["val"]))
            .map(|l| (l.shape().to_string(), indices(&l))),
        "with_shape" => layout(&case["layout"])
            .with_shape(&Shape::new(int_tuple(&case["with"])).unwrap())
            .map(|l| (l.shape().to_string(), indices(&l))),
        "flat_coordinate" => layout(&case["layout"])
            .flat_coordinate(case["index"].as_i64().unwrap())
            .map(|c| (c.to_string(), Vec::new())),
        _ => view(case).map(|v| {
            let got = v
                .to_vec::<f64>()
                .unwrap()
                .iter()
                .map(|&x| x as i64)
                .collect();
            (v.shape().to_string(), got)
        }),
    };
    match (outcome, refused) {
        (Err(e), true)
            if e.to_string().starts_with(op) || e.to_string().starts_with("Layout::tv") =>
        {
            Ok(())
        }
        (Err(e), true) => Err(format!("refused, but the message does not name {op}: {e}")),
        (Err(e), false) => Err(format!("refused: {e}")),
        (Ok((shape, _)), true) => Err(format!(
            "accepted (shape {shape}), expected {}",
            case["expected_error"]
        )),
        (Ok((got, got_indices)), false) => {
            let want = match op {
                "tv" => layout(expected).shape().to_string(),
                "flat_coordinate" => int_tuple(&expected["coord"]).to_string(),
                _ => int_tuple(&expected["shape"]).to_string(),
            };
            if got != want {
                return Err(format!("gave {got}, expected {want}"));
            }
            if op != "flat_coordinate" && got_indices != want_indices() {
                return Err(format!(
                    "read {got_indices:?}, expected {:?}",
                    want_indices()
                ));
            }
            Ok(())
        }
    }
}

#[test]
fn the_tiling_views_and_thread_layouts_agree_with_pycute_and_cutes_definitions() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/cute_tensor.json"
    ))
    .unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert!(
        cases.len() > 500,
        "the reference holds {} cases",
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check(case)
                .err()
                .map(|why| format!("{}: {why}", case["id"]))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
