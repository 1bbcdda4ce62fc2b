//! Every einops reference case, the pattern verbatim through `einops::rearrange` /
//! `einops::repeat` on `np.arange(n).reshape(input_shape)`: the shape must be einops'
//! `output_shape` exactly and the values, row-major, einops' `expected`.
//!
//! Outcomes, counted and printed:
//!
//! - **matched**: einops' shape and values;
//! - **rejected**: einops raises, and so does StrideWeave (`ErrorKind::Value`, the message
//!   starting with the function's name and quoting the pattern as written);
//! - **departure**: a grammar departure the existing agreement test records
//!   (`tests/layout/einops.rs`, `sw_departure`): StrideWeave rejects (quoting the pattern)
//!   what einops accepts, or accepts what einops rejects and then gives einops' answer to
//!   the recorded equivalent pattern;
//! - **materialize-first**: einops answers with a copy, StrideWeave refuses a right-side
//!   group whose strides do not merge; `materialize()` of the nested result, reshaped to
//!   einops' shape, must then give einops' values.
//!
//! Anything else fails the test.

use std::collections::BTreeMap;

use strideweave::{Error, ErrorKind, Tensor, einops};

use super::{numpy_arange, numpy_values, shape_of};
use crate::layout::einops::{Case, departures, load, sw_rejects};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Matched,
    Rejected,
    Departure,
    MaterializeFirst,
}

fn call(op: &str, t: &Tensor, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor, Error> {
    match op {
        "rearrange" => einops::rearrange(t, pattern, sizes),
        "repeat" => einops::repeat(t, pattern, sizes),
        other => panic!("unknown op {other}"),
    }
}

fn agrees(t: &Tensor, output_shape: &[i64], expected: &[i64]) -> Result<(), String> {
    if t.shape() != &shape_of(output_shape) {
        return Err(format!(
            "shape {}, einops' {output_shape:?} (layout {})",
            t.shape(),
            t.layout()
        ));
    }
    let got: Vec<i64> = numpy_values(t);
    if got != expected {
        return Err(format!(
            "values differ (layout {}):\n    strideweave {got:?}\n    einops      {expected:?}",
            t.layout()
        ));
    }
    Ok(())
}

/// A rejection as it must read: kind Value, the function's name first, the pattern quoted
/// as written.
fn proper(e: &Error, op: &str, pattern: &str) -> Result<(), String> {
    if e.kind() != ErrorKind::Value {
        return Err(format!("error of kind {:?}: {e}", e.kind()));
    }
    let text = e.to_string();
    if !text.starts_with(&format!("einops::{op}: ")) {
        return Err(format!(
            "the error does not start with einops::{op}: {text}"
        ));
    }
    if !text.contains(&format!("\n  {pattern}\n")) {
        return Err(format!("the error does not quote {pattern:?}: {text}"));
    }
    Ok(())
}

fn is_materialize_first(e: &Error, op: &str) -> bool {
    let text = e.to_string();
    text.starts_with(&format!("einops::{op}: the group `")) && text.contains("materialize first")
}

fn check(case: &Case) -> Result<Outcome, String> {
    let x = numpy_arange(&case.input_shape);
    let before = x.layout().clone();
    let kw: Vec<(&str, i64)> = (case.sizes.iter())
        .map(|(k, v)| (k.as_str(), *v as i64))
        .collect();
    let result = call(&case.op, &x, &case.pattern, &kw);
    if x.layout() != &before || numpy_values::<i64>(&x) != (0..x.size() as i64).collect::<Vec<_>>()
    {
        return Err("the input changed".into());
    }
    let rejecting: Vec<&str> = departures(&case.pattern, &case.sizes)
        .into_iter()
        .filter(|c| sw_rejects(c))
        .collect();
    match (&case.expected, &case.output_shape, &case.error) {
        (Some(expected), Some(output_shape), None) => {
            if !rejecting.is_empty() {
                return match result {
                    Ok(t) => Err(format!(
                        "a rejecting departure {rejecting:?}, but StrideWeave answers {}",
                        t.layout()
                    )),
                    Err(e) => proper(&e, &case.op, &case.pattern).map(|()| Outcome::Departure),
                };
            }
            match result {
                Ok(t) => agrees(&t, output_shape, expected).map(|()| Outcome::Matched),
                Err(e) if is_materialize_first(&e, &case.op) => {
                    proper(&e, &case.op, &case.pattern)?;
                    let nested = strideweave::__private::einops_nested(
                        &x,
                        case.op == "repeat",
                        &case.pattern,
                        &kw,
                    )
                    .map_err(|e| format!("the nested result is refused: {e}"))?;
                    let copy = nested.materialize().map_err(|e| e.to_string())?;
                    let flat = copy
                        .reshape(&shape_of(output_shape))
                        .map_err(|e| format!("the materialized result does not flatten: {e}"))?;
                    agrees(&flat, output_shape, expected)
                        .map_err(|m| format!("materialized, then flattened: {m}"))?;
                    Ok(Outcome::MaterializeFirst)
                }
                Err(e) => Err(format!("einops answers, StrideWeave refuses:\n{e}")),
            }
        }
        (None, _, Some(einops_error)) => match (&case.departure, result) {
            (None, Err(e)) => proper(&e, &case.op, &case.pattern).map(|()| Outcome::Rejected),
            (None, Ok(t)) => Err(format!(
                "einops rejects ({einops_error}), StrideWeave answers {}",
                t.layout()
            )),
            (Some(d), result) => {
                if !d.sw_accepts {
                    return Err("an einops error recorded as a rejecting departure".into());
                }
                let eq = d
                    .equivalent
                    .as_ref()
                    .ok_or("an accepting departure without an equivalent")?;
                let expected = eq.expected.as_ref().ok_or("the equivalent has no answer")?;
                match result {
                    Ok(t) => agrees(&t, &eq.output_shape, expected)
                        .map_err(|m| format!("against the equivalent {:?}: {m}", eq.pattern))
                        .map(|()| Outcome::Departure),
                    Err(e) if is_materialize_first(&e, &case.op) => {
                        proper(&e, &case.op, &case.pattern).map(|()| Outcome::Departure)
                    }
                    Err(e) => Err(format!(
                        "departure {:?}: StrideWeave should accept, but:\n{e}",
                        d.codes
                    )),
                }
            }
        },
        _ => Err("a case needs expected and output_shape, or expected_error".into()),
    }
}

fn check_all(name: &str, select: impl Fn(&Case) -> bool) -> BTreeMap<Outcome, usize> {
    let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let cases: Vec<Case> = load().into_iter().filter(|c| select(c)).collect();
    assert!(!cases.is_empty(), "{name}: no cases");
    for case in &cases {
        match check(case) {
            Ok(o) => *counts.entry(o).or_default() += 1,
            Err(m) => failures.push(format!(
                "{} {} ({} {:?}, sizes {:?}, input {:?}): {m}",
                case.file, case.id, case.op, case.pattern, case.sizes, case.input_shape
            )),
        }
    }
    let get = |o| counts.get(&o).copied().unwrap_or(0);
    eprintln!(
        "{name}: {} cases: {} matched, {} rejected by both, {} departures, {} materialize-first, {} mismatches",
        cases.len(),
        get(Outcome::Matched),
        get(Outcome::Rejected),
        get(Outcome::Departure),
        get(Outcome::MaterializeFirst),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{name}: {} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    counts
}

#[test]
fn einops_rearrange_verbatim_agrees() {
    let c = check_all("einops::rearrange", |c| {
        c.op == "rearrange" && c.error.is_none()
    });
    assert!(
        c.get(&Outcome::Matched).copied().unwrap_or(0) > 100,
        "{c:?}"
    );
}

#[test]
fn einops_repeat_verbatim_agrees() {
    let c = check_all("einops::repeat", |c| c.op == "repeat" && c.error.is_none());
    assert!(c.get(&Outcome::Matched).copied().unwrap_or(0) > 50, "{c:?}");
}

#[test]
fn einops_errors_verbatim_agree() {
    check_all("einops errors", |c| c.error.is_some());
}
