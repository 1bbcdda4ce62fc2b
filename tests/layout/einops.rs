//! Agreement with einops (issue 4 item 6): `tests/data/einops_cases.json` (generated with
//! einops 0.8.2, see `tests/data/README.md`) and the 25-case excerpt
//! `tests/data/einops_sample.json`, checked against `Tensor::rearrange` / `Tensor::repeat`.
//!
//! Each einops pattern is translated by rule (a) of `einops-reference.md` §2.1 (contracts §5):
//! the terms are reversed at the top level and inside every group, the keywords stay. The input
//! is the same row-major buffer `0..n` seen first-mode-fastest, i.e. `Tensor::from_vec` over the
//! reversed input shape. StrideWeave's result must then have the reversed einops output shape
//! (compared per top-level mode: StrideWeave keeps groups as nested modes) and, visited
//! first-mode-fastest (`to_vec`), exactly einops' output visited row-major.
//!
//! Outcomes:
//!
//! - **matched**: einops answers and StrideWeave gives the same shape and elements;
//! - **rejected**: einops raises and StrideWeave returns an `ErrorKind::Value` error that
//!   quotes the pattern;
//! - **departure**: a deliberate difference of contracts §5's grammar, recorded in the case
//!   (`sw_departure`) and re-derived here from the pattern text:
//!   - StrideWeave rejects (ErrorKind::Value) what einops accepts: `()` (`empty_group`, spelt
//!     `1`), numbers other than `1` (`number`: einops' anonymous axes and `01`), an empty side
//!     (`empty_side`), non-ASCII identifiers (`non_ascii`), a keyword extent 0 (`zero_extent`,
//!     contracts L1);
//!   - StrideWeave accepts what einops rejects: nested groups (`nested_group`), a trailing `_`
//!     (`trailing_underscore`), tabs and newlines as separators (`whitespace`; the translation
//!     writes spaces, so the translated pattern is also run with a tab and a newline), a left
//!     symbol of extent 1 absent on the right (`omitted_unit`). Its answer must equal einops'
//!     answer to the recorded equivalent pattern (flattened groups, renamed symbol, spaces,
//!     `1`);
//!
//!   where the case records an equivalent pattern inside StrideWeave's grammar, that pattern
//!   is run too and must give einops' answer;
//! - **mismatch**: anything else. A mismatch fails the test.
//!
//! `EINOPS_VERBOSE=1` lists every departure by case id.

use std::collections::BTreeMap;

use serde_json::Value;
use strideweave::{Error, ErrorKind, IntTuple, Layout, Shape, Stride, Tensor};

const CASES: &str = include_str!("../data/einops_cases.json");
const SAMPLE: &str = include_str!("../data/einops_sample.json");

// ------------------------------------------------------------------ the translation

/// A term of an einops side: a token (name, number, `1`, `...`) or a group.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum T {
    Tok(String),
    Group(Vec<T>),
}

/// Tokenises a side: any whitespace and the parentheses separate, everything else is token
/// text. `None` when the parentheses do not balance.
pub(crate) fn parse_side(text: &str) -> Option<Vec<T>> {
    let mut stack: Vec<Vec<T>> = vec![Vec::new()];
    let mut cur = String::new();
    for ch in text.chars() {
        if ch.is_whitespace() || ch == '(' || ch == ')' {
            if !cur.is_empty() {
                stack.last_mut()?.push(T::Tok(std::mem::take(&mut cur)));
            }
            if ch == '(' {
                stack.push(Vec::new());
            } else if ch == ')' {
                if stack.len() == 1 {
                    return None;
                }
                let g = stack.pop()?;
                stack.last_mut()?.push(T::Group(g));
            }
        } else {
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        stack.last_mut()?.push(T::Tok(cur));
    }
    (stack.len() == 1).then(|| stack.pop().expect("one level"))
}

fn render(terms: &[T]) -> String {
    terms
        .iter()
        .map(|t| match t {
            T::Tok(s) => s.clone(),
            T::Group(g) => format!("({})", render(g)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reverses the terms at every level.
fn reversed(terms: &[T]) -> Vec<T> {
    terms
        .iter()
        .rev()
        .map(|t| match t {
            T::Tok(s) => T::Tok(s.clone()),
            T::Group(g) => T::Group(reversed(g)),
        })
        .collect()
}

/// Rule (a): the StrideWeave pattern of an einops pattern (each `->`-separated part reversed
/// at every level); `None` when parentheses do not balance.
fn colex(pattern: &str) -> Option<String> {
    let parts: Option<Vec<String>> = pattern
        .split("->")
        .map(|s| parse_side(s).map(|t| render(&reversed(&t))))
        .collect();
    parts.map(|p| p.join(" -> "))
}

#[test]
fn einops_translation_reverses_every_level() {
    assert_eq!(
        colex("b (h w) c -> b h w c").as_deref(),
        Some("c (w h) b -> c w h b")
    );
    assert_eq!(
        colex("b c (h h1) (w w1) -> b (h1 w1 c) h w").as_deref(),
        Some("(w1 w) (h1 h) c b -> w h (c w1 h1) b")
    );
    assert_eq!(
        colex("(a a2) b c ... -> b (c a2) (a ...)").as_deref(),
        Some("... c b (a2 a) -> (... a) (a2 c) b")
    );
    assert_eq!(
        colex("a b c -> (c copy a b)").as_deref(),
        Some("c b a -> (b a copy c)")
    );
    assert_eq!(colex("h w -> (r h) w").as_deref(), Some("w h -> w (h r)"));
    assert_eq!(colex("a ((b c) d)->x").as_deref(), Some("(d (c b)) a -> x"));
    assert_eq!(colex("a (b -> a b"), None);
}

// ------------------------------------------------------------------ grammar departures

fn tokens(terms: &[T], out: &mut Vec<String>) {
    for t in terms {
        match t {
            T::Tok(s) => out.push(s.clone()),
            T::Group(g) => tokens(g, out),
        }
    }
}

fn depth(terms: &[T]) -> usize {
    terms
        .iter()
        .map(|t| match t {
            T::Tok(_) => 0,
            T::Group(g) => 1 + depth(g),
        })
        .max()
        .unwrap_or(0)
}

fn has_empty_group(terms: &[T]) -> bool {
    terms
        .iter()
        .any(|t| matches!(t, T::Group(g) if g.is_empty() || has_empty_group(g)))
}

fn is_name(tok: &str) -> bool {
    tok != "..." && !tok.chars().all(char::is_numeric)
}

/// Departure codes whose feature the pattern (and its keywords) shows, by this file's own
/// reading of contracts §5 against einops-reference.md §1.
pub(crate) fn departures(pattern: &str, sizes: &[(String, usize)]) -> Vec<&'static str> {
    let mut out = Vec::new();
    let Some(sides) = pattern
        .split("->")
        .map(parse_side)
        .collect::<Option<Vec<_>>>()
    else {
        return out;
    };
    let toks: Vec<Vec<String>> = sides
        .iter()
        .map(|s| {
            let mut v = Vec::new();
            tokens(s, &mut v);
            v
        })
        .collect();
    let all = || toks.iter().flatten();
    if sides.iter().any(|s| has_empty_group(s)) {
        out.push("empty_group");
    }
    if all().any(|t| t != "1" && t.chars().all(char::is_numeric)) {
        out.push("number");
    }
    if sides.len() == 2 && sides.iter().any(Vec::is_empty) {
        out.push("empty_side");
    }
    if all().any(|t| !t.is_ascii()) {
        out.push("non_ascii");
    }
    if sizes.iter().any(|(_, v)| *v == 0) {
        out.push("zero_extent");
    }
    if sides.iter().any(|s| depth(s) > 1) {
        out.push("nested_group");
    }
    if all().any(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()) && t.ends_with('_')) {
        out.push("trailing_underscore");
    }
    if pattern.chars().any(|c| c.is_whitespace() && c != ' ') {
        out.push("whitespace");
    }
    if sides.len() == 2
        && toks[0]
            .iter()
            .any(|t| is_name(t) && t != "1" && !toks[1].contains(t))
    {
        out.push("omitted_unit");
    }
    out
}

/// What StrideWeave does with a pattern that shows the feature.
pub(crate) fn sw_rejects(code: &str) -> bool {
    match code {
        "empty_group" | "number" | "empty_side" | "non_ascii" | "zero_extent" => true,
        "nested_group" | "trailing_underscore" | "whitespace" | "omitted_unit" => false,
        other => panic!("unknown departure code {other}"),
    }
}

// ------------------------------------------------------------------ data

pub(crate) struct Case {
    pub(crate) file: &'static str,
    pub(crate) id: String,
    pub(crate) op: String,
    pub(crate) pattern: String,
    pub(crate) sizes: Vec<(String, usize)>,
    pub(crate) input_shape: Vec<i64>,
    pub(crate) output_shape: Option<Vec<i64>>,
    pub(crate) expected: Option<Vec<i64>>,
    pub(crate) error: Option<String>,
    pub(crate) pattern_colex: Option<String>,
    pub(crate) departure: Option<Departure>,
    pub(crate) layout_colex: Option<Value>,
}

pub(crate) struct Departure {
    pub(crate) codes: Vec<String>,
    pub(crate) sw_accepts: bool,
    pub(crate) equivalent: Option<Equivalent>,
}

pub(crate) struct Equivalent {
    pub(crate) pattern: String,
    pub(crate) sizes: Vec<(String, usize)>,
    pub(crate) output_shape: Vec<i64>,
    pub(crate) expected: Option<Vec<i64>>,
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_i64().expect("integer"))
        .collect()
}

fn sizes(v: &Value) -> Vec<(String, usize)> {
    v.as_object()
        .expect("axes_lengths object")
        .iter()
        .map(|(k, x)| {
            (
                k.clone(),
                x.as_u64().expect("non-negative keyword") as usize,
            )
        })
        .collect()
}

/// FNV-1a over the ordinals, as the data's `checksum`.
pub(crate) fn checksum(values: &[i64]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &o in values {
        h = (h ^ o as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("0x{h:016x}")
}

pub(crate) fn load() -> Vec<Case> {
    let mut out = Vec::new();
    for (file, text) in [("einops_cases.json", CASES), ("einops_sample.json", SAMPLE)] {
        let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for c in doc["cases"].as_array().expect("cases") {
            let id = c["id"].as_str().expect("id").to_string();
            let expected = c.get("expected").filter(|v| !v.is_null()).map(ints);
            if let (Some(e), Some(sum)) = (&expected, c.get("checksum").and_then(Value::as_str)) {
                assert_eq!(checksum(e), sum, "{file} {id}: checksum");
            }
            if let Some(ec) = c.get("expected_colex").filter(|v| !v.is_null()) {
                assert_eq!(Some(ints(ec)), expected, "{file} {id}: expected_colex");
            }
            let departure = c.get("sw_departure").map(|d| Departure {
                codes: d["codes"]
                    .as_array()
                    .expect("codes")
                    .iter()
                    .map(|x| x.as_str().expect("code").to_string())
                    .collect(),
                sw_accepts: match d["strideweave"].as_str() {
                    Some("accepts") => true,
                    Some("rejects") => false,
                    other => panic!("{id}: strideweave = {other:?}"),
                },
                equivalent: d.get("equivalent").map(|e| Equivalent {
                    pattern: e["pattern"].as_str().expect("pattern").to_string(),
                    sizes: sizes(&e["axes_lengths"]),
                    output_shape: ints(&e["output_shape"]),
                    expected: e.get("expected").map(ints),
                }),
            });
            out.push(Case {
                file,
                id,
                op: c["op"].as_str().expect("op").to_string(),
                pattern: c["pattern"].as_str().expect("pattern").to_string(),
                sizes: sizes(&c["axes_lengths"]),
                input_shape: ints(&c["input_shape"]),
                output_shape: c.get("output_shape").filter(|v| !v.is_null()).map(ints),
                expected,
                error: c.get("expected_error").map(|e| {
                    format!(
                        "{}: {}",
                        e["class"].as_str().unwrap_or("?"),
                        e["message"].as_str().unwrap_or("?")
                    )
                }),
                pattern_colex: c
                    .get("pattern_colex")
                    .and_then(Value::as_str)
                    .map(String::from),
                departure,
                layout_colex: c.get("layout_colex").cloned(),
            });
        }
    }
    out
}

// ------------------------------------------------------------------ running StrideWeave

/// A StrideWeave answer: the result's layout, its top-level mode sizes and its elements in
/// first-mode-fastest order.
struct Answer {
    layout: Layout,
    top: Vec<i64>,
    values: Vec<i64>,
}

fn shape_of(extents: &[i64]) -> Shape {
    Shape::new(IntTuple::tuple(extents.iter().map(|&e| IntTuple::from(e)))).expect("extents ≥ 1")
}

/// Runs the translated pattern on the first-mode-fastest view of the row-major buffer `0..n`
/// of the einops input shape.
fn run(
    op: &str,
    sw_pattern: &str,
    input_shape: &[i64],
    sizes: &[(String, usize)],
) -> Result<Answer, Error> {
    let rev: Vec<i64> = input_shape.iter().rev().copied().collect();
    let n: i64 = rev.iter().product();
    let t = Tensor::from_vec((0..n).collect::<Vec<i64>>(), &shape_of(&rev)).expect("input");
    let kw: Vec<(&str, i64)> = sizes.iter().map(|(k, v)| (k.as_str(), *v as i64)).collect();
    let v = match op {
        "rearrange" => t.rearrange(sw_pattern, &kw)?,
        "repeat" => t.repeat(sw_pattern, &kw)?,
        other => panic!("unknown op {other}"),
    };
    let top = (0..v.shape().rank())
        .map(|i| v.shape().mode(i).expect("mode").size() as i64)
        .collect();
    let values = v.to_vec::<i64>().expect("to_vec");
    Ok(Answer {
        layout: v.layout().clone(),
        top,
        values,
    })
}

/// Checks an answer against einops' output shape and row-major elements.
fn agrees(a: &Answer, output_shape: &[i64], expected: &[i64]) -> Result<(), String> {
    let want: Vec<i64> = output_shape.iter().rev().copied().collect();
    if a.top != want {
        return Err(format!(
            "top-level sizes {:?} (layout {}), einops' reversed output shape {:?}",
            a.top, a.layout, want
        ));
    }
    if a.values != expected {
        return Err(format!(
            "elements differ (layout {}):\n    strideweave {:?}\n    einops      {:?}",
            a.layout, a.values, expected
        ));
    }
    Ok(())
}

/// An error as contracts §2/§5 require: kind Value, quoting the pattern.
fn proper_rejection(e: &Error, sw_pattern: &str) -> Result<(), String> {
    if e.kind() != ErrorKind::Value {
        return Err(format!("error of kind {:?}, not Value: {e}", e.kind()));
    }
    if !e.to_string().contains(sw_pattern) {
        return Err(format!("the error does not quote the pattern: {e}"));
    }
    Ok(())
}

fn tuple(v: &Value) -> IntTuple {
    match v {
        Value::Number(n) => IntTuple::from(n.as_i64().expect("integer leaf")),
        Value::Array(items) => IntTuple::tuple(items.iter().map(tuple)),
        other => panic!("not an IntTuple: {other}"),
    }
}

/// The sample's `layout_colex` (the colex output as a view of the compact input) against
/// StrideWeave's view: same hierarchy and extents, same strides except on extent-one leaves
/// (contracts D5: any stride is correct there).
fn layout_agrees(sw: &Layout, v: &Value) -> Result<(), String> {
    let want = Layout::new(
        Shape::new(tuple(&v["shape"])).map_err(|e| e.to_string())?,
        Stride::new(tuple(&v["stride"])).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let same = sw.profile() == want.profile()
        && sw.shape().leaves() == want.shape().leaves()
        && sw
            .shape()
            .leaves()
            .iter()
            .zip(sw.stride().leaves().iter().zip(want.stride().leaves()))
            .all(|(&e, (a, b))| e == 1 || a == b);
    if same {
        Ok(())
    } else {
        Err(format!("layout {sw}, the sample's layout_colex {want}"))
    }
}

// ------------------------------------------------------------------ one case

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Matched,
    Rejected,
    Departure,
}

fn check(case: &Case) -> Result<Outcome, String> {
    let sw_pattern = colex(&case.pattern);
    if let (Some(mine), Some(theirs)) = (&sw_pattern, &case.pattern_colex)
        && mine != theirs
    {
        return Err(format!(
            "translation {mine:?}, the data's pattern_colex {theirs:?}"
        ));
    }
    let codes = departures(&case.pattern, &case.sizes);
    let rejecting: Vec<&str> = codes.iter().copied().filter(|c| sw_rejects(c)).collect();
    if let Some(d) = &case.departure {
        for c in &d.codes {
            if !codes.contains(&c.as_str()) {
                return Err(format!(
                    "recorded departure {c} not visible in the pattern (seen: {codes:?})"
                ));
            }
            if sw_rejects(c) == d.sw_accepts {
                return Err(format!(
                    "recorded departure {c} with the wrong StrideWeave outcome"
                ));
            }
        }
    }
    // Unbalanced parentheses: nothing to translate; StrideWeave gets the pattern as it is.
    let sw_pattern = sw_pattern.unwrap_or_else(|| case.pattern.clone());
    let result = run(&case.op, &sw_pattern, &case.input_shape, &case.sizes);

    match (&case.expected, &case.output_shape, &case.error) {
        (Some(expected), Some(output_shape), None) => {
            if rejecting.is_empty() {
                if let Some(d) = &case.departure {
                    return Err(format!(
                        "recorded departure {:?}, but none that rejects",
                        d.codes
                    ));
                }
                let a = result.map_err(|e| {
                    format!("einops answers, StrideWeave rejects {sw_pattern:?}:\n{e}")
                })?;
                agrees(&a, output_shape, expected)?;
                if let Some(lc) = &case.layout_colex {
                    layout_agrees(&a.layout, lc)?;
                }
                return Ok(Outcome::Matched);
            }
            // einops accepts, StrideWeave's grammar rejects.
            if case.file == "einops_cases.json" && case.departure.is_none() {
                return Err(format!("departure {rejecting:?} not recorded in the data"));
            }
            match result {
                Ok(a) => Err(format!(
                    "a departure ({rejecting:?}) where StrideWeave should reject, but it answers {}",
                    a.layout
                )),
                Err(e) => {
                    proper_rejection(&e, &sw_pattern)?;
                    if let Some(eq) = case.departure.as_ref().and_then(|d| d.equivalent.as_ref()) {
                        let eq_codes = departures(&eq.pattern, &eq.sizes);
                        if eq_codes.iter().any(|c| sw_rejects(c)) {
                            return Err(format!(
                                "the equivalent {:?} is outside StrideWeave's grammar",
                                eq.pattern
                            ));
                        }
                        let p = colex(&eq.pattern).expect("balanced equivalent");
                        let a = run(&case.op, &p, &case.input_shape, &eq.sizes)
                            .map_err(|e| format!("the equivalent {p:?} is rejected:\n{e}"))?;
                        agrees(&a, &eq.output_shape, expected)
                            .map_err(|m| format!("the equivalent {p:?}: {m}"))?;
                    }
                    Ok(Outcome::Departure)
                }
            }
        }
        (None, _, Some(einops_error)) => match (&case.departure, result) {
            (None, Err(e)) => {
                proper_rejection(&e, &sw_pattern)?;
                Ok(Outcome::Rejected)
            }
            (None, Ok(a)) => Err(format!(
                "einops rejects ({einops_error}), StrideWeave answers {} with {sw_pattern:?} (departures seen: {codes:?})",
                a.layout
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
                let a = result.map_err(|e| {
                    format!(
                        "departure {:?}: StrideWeave should accept {sw_pattern:?}, but:\n{e}",
                        d.codes
                    )
                })?;
                agrees(&a, &eq.output_shape, expected)
                    .map_err(|m| format!("against the equivalent {:?}: {m}", eq.pattern))?;
                if d.codes.iter().any(|c| c == "whitespace") {
                    // The translation writes spaces; StrideWeave also reads tabs and newlines.
                    let t = sw_pattern.replacen(' ', "\t", 1).replacen(' ', "\n", 1);
                    let a = run(&case.op, &t, &case.input_shape, &case.sizes)
                        .map_err(|e| format!("{t:?} is rejected:\n{e}"))?;
                    agrees(&a, &eq.output_shape, expected).map_err(|m| format!("{t:?}: {m}"))?;
                }
                let p = colex(&eq.pattern).expect("balanced equivalent");
                let b = run(&case.op, &p, &case.input_shape, &eq.sizes)
                    .map_err(|e| format!("the equivalent {p:?} is rejected:\n{e}"))?;
                agrees(&b, &eq.output_shape, expected)
                    .map_err(|m| format!("the equivalent {p:?}: {m}"))?;
                Ok(Outcome::Departure)
            }
        },
        _ => Err("a case needs either expected and output_shape, or expected_error".into()),
    }
}

// ------------------------------------------------------------------ the tests

fn check_all(name: &str, select: impl Fn(&Case) -> bool) {
    let verbose = std::env::var_os("EINOPS_VERBOSE").is_some();
    let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
    let mut departures: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let cases: Vec<Case> = load().into_iter().filter(|c| select(c)).collect();
    assert!(!cases.is_empty(), "{name}: no cases");
    for case in &cases {
        match check(case) {
            Ok(o) => {
                *counts.entry(o).or_default() += 1;
                if o == Outcome::Departure {
                    let codes = departures_of(case);
                    *departures.entry(codes.clone()).or_default() += 1;
                    if verbose {
                        eprintln!(
                            "{name}: departure {} {}: {:?} ({codes})",
                            case.file, case.id, case.pattern
                        );
                    }
                }
            }
            Err(m) => failures.push(format!(
                "{} {} ({} {:?}, sizes {:?}, input {:?}): {m}",
                case.file, case.id, case.op, case.pattern, case.sizes, case.input_shape
            )),
        }
    }
    let get = |o| counts.get(&o).copied().unwrap_or(0);
    eprintln!(
        "{name}: {} cases: {} matched, {} rejected by both, {} departures {:?}, {} mismatches",
        cases.len(),
        get(Outcome::Matched),
        get(Outcome::Rejected),
        get(Outcome::Departure),
        departures,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{name}: {} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn departures_of(case: &Case) -> String {
    match &case.departure {
        Some(d) => format!(
            "{}/{}",
            d.codes.join("+"),
            if d.sw_accepts { "accepts" } else { "rejects" }
        ),
        None => {
            let codes: Vec<&str> = departures(&case.pattern, &case.sizes)
                .into_iter()
                .filter(|c| sw_rejects(c))
                .collect();
            format!("{}/rejects", codes.join("+"))
        }
    }
}

/// Every rearrange case einops answers: StrideWeave's answer agrees, or the case is a
/// departure StrideWeave rejects.
#[test]
fn einops_rearrange_agrees() {
    check_all("einops_rearrange_agrees", |c| {
        c.op == "rearrange" && c.error.is_none()
    });
}

/// Every repeat case einops answers (new axes, `h -> (h r)`, `h w -> h (w r) c`, …).
#[test]
fn einops_repeat_agrees() {
    check_all("einops_repeat_agrees", |c| {
        c.op == "repeat" && c.error.is_none()
    });
}

/// Every case einops rejects: StrideWeave rejects it too (ErrorKind::Value), or the case is
/// a departure StrideWeave accepts, with einops' answer to the equivalent pattern.
#[test]
fn einops_errors_agree() {
    check_all("einops_errors_agree", |c| c.error.is_some());
}
