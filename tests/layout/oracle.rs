//! The pycute reference cases: `tests/data/cute_oracle.json` (generated from pycute,
//! nvidia-cutlass 4.2.0.0; see `tests/data/README.md`) and the 40-case excerpt
//! `tests/data/layout_algebra_sample.json`, checked against StrideWeave.
//!
//! Every case ends in one of these outcomes:
//!
//! - **exact**: StrideWeave returns pycute's layout (at the root `n` equals `(n)`, contracts L2);
//! - **functional**: the same function (size and `indices`) with another notation, e.g. pycute
//!   drops extent-1 modes; for `left_inverse` the same function on the image of L;
//! - **rejected**: pycute raised and StrideWeave returns an error;
//! - **departure**: a deliberate difference from pycute (`layout-algebra.md`, contracts L1/L3/
//!   L13): StrideWeave rejects what pycute answers wrongly (truncation, floor-divided
//!   complements, operands whose non-broadcast modes overlap, negative strides,
//!   out-of-domain coordinates), or
//!   returns an answer that differs from pycute's but provably satisfies the operation's
//!   post-condition (checked here independently, never by calling the operation again), often
//!   C++ CuTe's answer (`cpp_static`);
//! - **skipped**: the op has no StrideWeave counterpart (`shape_div`);
//! - **mismatch**: anything else. A mismatch fails the test.
//!
//! pycute's answer is never accepted where it violates the post-condition: such cases (flags
//! `pycute_quirk`, `postcondition_violated`) demand an error or an answer that passes the
//! post-condition check.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::Value;
use strideweave::{IntTuple, Layout, Shape, Stride, Tiler};

const ORACLE: &str = include_str!("../data/cute_oracle.json");
const SAMPLE: &str = include_str!("../data/layout_algebra_sample.json");

/// Enumerations in post-condition checks stay below this many points.
const ENUM_LIMIT: usize = 1 << 16;

// ------------------------------------------------------------------ data access

fn all_cases() -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    for (file, text) in [
        ("cute_oracle.json", ORACLE),
        ("layout_algebra_sample.json", SAMPLE),
    ] {
        let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let cases = doc["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no cases"));
        assert_eq!(
            doc["total_cases"].as_u64(),
            Some(cases.len() as u64),
            "{file}: total_cases"
        );
        out.extend(cases.iter().map(|c| (file, c.clone())));
    }
    out
}

fn flags(case: &Value) -> BTreeSet<String> {
    case["flags"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn tuple(v: &Value) -> IntTuple {
    match v {
        Value::Number(n) => IntTuple::from(n.as_i64().expect("integer leaf")),
        Value::Array(items) => IntTuple::tuple(items.iter().map(tuple)),
        other => panic!("not an IntTuple: {other}"),
    }
}

fn layout(v: &Value) -> Result<Layout, String> {
    let shape = Shape::new(tuple(&v["shape"])).map_err(|e| e.to_string())?;
    let stride = Stride::new(tuple(&v["stride"])).map_err(|e| e.to_string())?;
    Layout::new(shape, stride).map_err(|e| e.to_string())
}

fn unit_stride(n: i64) -> Result<Layout, String> {
    let shape = Shape::new(IntTuple::from(n)).map_err(|e| e.to_string())?;
    Layout::new(
        shape,
        Stride::new(IntTuple::from(1)).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())
}

/// JSON tiler: `null` keeps the mode, an integer n is `n:1`, a list is by-mode.
fn tiler(v: &Value) -> Result<Tiler, String> {
    match v {
        Value::Null => Ok(Tiler::Keep),
        Value::Number(n) => Ok(Tiler::Layout(unit_stride(n.as_i64().unwrap())?)),
        Value::Array(items) => Ok(Tiler::ByMode(
            items.iter().map(tiler).collect::<Result<_, _>>()?,
        )),
        Value::Object(_) => Ok(Tiler::Layout(layout(v)?)),
        other => panic!("not a tiler: {other}"),
    }
}

fn tiler_layouts(t: &Tiler) -> Vec<&Layout> {
    match t {
        Tiler::Keep => vec![],
        Tiler::Layout(l) => vec![l],
        Tiler::ByMode(ts) => ts.iter().flat_map(tiler_layouts).collect(),
    }
}

/// pycute's answer: `layout` (absent when it is not a valid StrideWeave layout, e.g. a zero
/// extent), `size` and `indices` (when recorded).
struct Expected {
    layout: Option<Layout>,
    size: i64,
    indices: Option<Vec<i64>>,
}

fn expected_of(v: &Value) -> Option<Expected> {
    if v.is_null() || v.get("error").is_some() {
        return None;
    }
    let layout = layout(&v["layout"]).ok();
    let indices = v["indices"]
        .as_array()
        .map(|a| a.iter().map(|x| x.as_i64().unwrap()).collect());
    Some(Expected {
        size: v["size"].as_i64().unwrap(),
        layout,
        indices,
    })
}

// -------------------------------------------------------------- evaluation helpers

fn indices(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.index_of(i).unwrap()).collect()
}

/// `L(i)` with CuTe's extension: the last leaf takes the whole quotient beyond the domain.
/// A layout without leaves has size 1 and maps 0 to 0; it has no last leaf to extend.
fn eval_ext(l: &Layout, mut i: i64) -> Option<i64> {
    let (s, d) = (l.shape().leaves(), l.stride().leaves());
    if s.is_empty() {
        return (i == 0).then_some(0);
    }
    let mut acc = 0i64;
    for k in 0..s.len() {
        let c = if k + 1 == s.len() { i } else { i % s[k] };
        acc = acc.checked_add(c.checked_mul(d[k])?)?;
        i /= s[k];
    }
    Some(acc)
}

fn injective(l: &Layout) -> bool {
    let mut seen = HashSet::new();
    (0..l.size()).all(|i| seen.insert(l.index_of(i).unwrap()))
}

/// The flat layout with every stride-0 extent replaced by 1 (`filter_zeros` of CuTe).
fn drop_broadcast(l: &Layout) -> Layout {
    let (extents, strides) = (l.shape().leaves(), l.stride().leaves());
    Layout::new(
        Shape::new(IntTuple::tuple(
            extents
                .iter()
                .zip(strides)
                .map(|(&s, &d)| IntTuple::from(if d == 0 { 1 } else { s })),
        ))
        .unwrap(),
        Stride::new(IntTuple::tuple(strides.iter().map(|&d| IntTuple::from(d)))).unwrap(),
    )
    .unwrap()
}

/// Injective once the stride-0 (broadcast) modes are ignored: what CuTe's complement, and
/// so the divides and products, require of their operand.
fn injective_live(l: &Layout) -> bool {
    injective(&drop_broadcast(l))
}

fn has_negative(l: &Layout) -> bool {
    l.stride().leaves().iter().any(|&d| d < 0)
}

fn is_tuple(l: &Layout) -> bool {
    !l.shape().as_int_tuple().is_int()
}

type Check = Result<(), String>;

fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Check {
    if cond { Ok(()) } else { Err(msg()) }
}

fn same_fn(x: &Layout, y: &Layout) -> bool {
    x.size() == y.size() && x.size() <= ENUM_LIMIT && indices(x) == indices(y)
}

fn same_fn_check(what: &str, r: &Layout, a: &Layout) -> Check {
    ensure(same_fn(r, a), || {
        format!("{what}: {r} is not the function of {a}")
    })
}

/// Whether `r` is the function pycute recorded.
fn matches_expected(r: &Layout, e: &Expected) -> bool {
    if r.size() as i64 != e.size {
        return false;
    }
    match (&e.indices, &e.layout) {
        (Some(ix), _) => &indices(r) == ix,
        (None, Some(l)) => same_fn(r, l),
        (None, None) => false,
    }
}

// ------------------------------------------------------------ post-conditions

/// `R = A ∘ B`: R is congruent to B down to B's leaves (composition distributes over B's
/// modes), `size(R) == size(B)` and `R(i) == A(B(i))` for every i, A extending its last
/// leaf beyond its domain as in CuTe.
fn post_compose(a: &Layout, b: &Layout, r: &Layout) -> Check {
    fn structure(b: &Layout, r: &Layout) -> Check {
        if !is_tuple(b) {
            return ensure(r.size() == b.size(), || {
                format!("leaf {b} gives {r} of another size")
            });
        }
        ensure(r.rank() == b.rank(), || {
            format!("{r} is not congruent with the modes of {b}")
        })?;
        for i in 0..b.rank() {
            structure(&b.mode(i).unwrap(), &r.mode(i).unwrap())?;
        }
        Ok(())
    }
    structure(b, r)?;
    ensure(b.size() <= ENUM_LIMIT, || "too large to check".into())?;
    for i in 0..b.size() {
        let bi = b.index_of(i).unwrap();
        let want = eval_ext(a, bi);
        let got = r.index_of(i).unwrap();
        ensure(want == Some(got), || {
            format!("R({i}) = {got} but A(B({i})) = A({bi}) = {want:?}")
        })?;
    }
    Ok(())
}

fn post_compose_tiler(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Keep => same_fn_check("kept mode", r, a),
        Tiler::Layout(b) => post_compose(a, b, r),
        Tiler::ByMode(ts) => by_mode(a, ts, r, post_compose_tiler),
    }
}

/// A by-mode result: `r` has A's rank, mode i satisfies `f` with tiler i, trailing modes kept.
fn by_mode(
    a: &Layout,
    ts: &[Tiler],
    r: &Layout,
    f: fn(&Layout, &Tiler, &Layout) -> Check,
) -> Check {
    ensure(r.rank() == a.rank(), || {
        format!("{r} does not have the rank of {a}")
    })?;
    for i in 0..a.rank() {
        let (am, rm) = (a.mode(i).unwrap(), r.mode(i).unwrap());
        match ts.get(i) {
            Some(t) => f(&am, t, &rm).map_err(|e| format!("mode {i}: {e}"))?,
            None => same_fn_check("trailing mode", &rm, &am)?,
        }
    }
    Ok(())
}

/// complement: ordered (`R(i-1) < R(i)`), disjoint from A except at 0, and
/// `cosize((A, R)) >= cotarget`.
fn post_complement(a: &Layout, cotarget: i64, r: &Layout) -> Check {
    ensure(r.size() <= ENUM_LIMIT && a.size() <= ENUM_LIMIT, || {
        "too large to check".into()
    })?;
    let rv = indices(r);
    let av: HashSet<i64> = indices(a).into_iter().collect();
    ensure(rv.windows(2).all(|w| w[0] < w[1]), || {
        format!("{r} is not ordered")
    })?;
    ensure(rv.iter().skip(1).all(|x| !av.contains(x)), || {
        format!("{r} meets {a} outside 0")
    })?;
    let reach = av.iter().max().unwrap() + rv.iter().max().unwrap() + 1;
    ensure(reach >= cotarget, || {
        format!("({a}, {r}) reaches {reach} < cotarget {cotarget}")
    })
}

/// `A / B = (A ∘ B, A ∘ B*)` with `B* = complement(B, size(A))`; B* is computed by
/// StrideWeave and verified by the complement post-condition first.
fn post_divide(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Keep => same_fn_check("kept mode", r, a),
        Tiler::ByMode(ts) => by_mode(a, ts, r, post_divide),
        Tiler::Layout(b) => {
            ensure(r.rank() == 2, || format!("{r} is not (tile, rest)"))?;
            // CuTe's complement(B, size(A)).
            let cot = a.size();
            let bstar = b
                .complement(cot)
                .map_err(|e| format!("complement({b}, {cot}): {e}"))?;
            post_complement(b, a.size() as i64, &bstar)?;
            post_compose(a, b, &r.mode(0).unwrap()).map_err(|e| format!("tile: {e}"))?;
            post_compose(a, &bstar, &r.mode(1).unwrap()).map_err(|e| format!("rest: {e}"))
        }
    }
}

/// `((tiles…), (rests…, trailing…))`: mode i of both sides together is the zipped divide of
/// mode i of A (a kept mode is `(1:0, A_i)`); a layout tiler gives the logical divide.
fn post_zipped_divide(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Layout(_) => post_divide(a, t, r),
        Tiler::Keep => {
            ensure(r.rank() == 2, || format!("{r} is not (tile, rest)"))?;
            ensure(r.mode(0).unwrap().size() == 1, || format!("{r}: kept tile"))?;
            same_fn_check("kept mode", &r.mode(1).unwrap(), a)
        }
        Tiler::ByMode(ts) => unzip_check(a, ts, r, post_zipped_divide),
    }
}

fn unzip_check(
    a: &Layout,
    ts: &[Tiler],
    r: &Layout,
    f: fn(&Layout, &Tiler, &Layout) -> Check,
) -> Check {
    ensure(r.rank() == 2, || format!("{r} is not (firsts, seconds)"))?;
    let (firsts, seconds) = (r.mode(0).unwrap(), r.mode(1).unwrap());
    ensure(
        firsts.rank() == ts.len() && seconds.rank() == a.rank(),
        || format!("{r}: wrong ranks for {} tiler modes of {a}", ts.len()),
    )?;
    for i in 0..a.rank() {
        let am = a.mode(i).unwrap();
        match ts.get(i) {
            Some(t) => {
                let piece =
                    Layout::make(&[firsts.mode(i).unwrap(), seconds.mode(i).unwrap()]).unwrap();
                f(&am, t, &piece).map_err(|e| format!("mode {i}: {e}"))?;
            }
            None => same_fn_check("trailing mode", &seconds.mode(i).unwrap(), &am)?,
        }
    }
    Ok(())
}

/// A tiled result `(firsts, seconds…)` regrouped as the zipped `(firsts, (seconds…))`.
fn regroup_tiled(r: &Layout) -> Result<Layout, String> {
    ensure(r.rank() >= 1, || format!("{r} has no modes"))?;
    Layout::make(&[r.mode(0).unwrap(), r.modes(1..).unwrap()]).map_err(|e| e.to_string())
}

fn post_tiled_divide(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    post_zipped_divide(a, t, &regroup_tiled(r)?)
}

/// `A ⊗ B = (A, complement(A, size(A)·cosize(B)) ∘ B)`; the complement is verified first.
fn post_product(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Keep => same_fn_check("kept mode", r, a),
        Tiler::ByMode(ts) => by_mode(a, ts, r, post_product),
        Tiler::Layout(b) => {
            ensure(r.rank() == 2, || format!("{r} is not (A, repeats)"))?;
            same_fn_check("mode 0", &r.mode(0).unwrap(), a)?;
            let cot = a.size() * b.cosize();
            let c = a
                .complement(cot)
                .map_err(|e| format!("complement({a}, {cot}): {e}"))?;
            post_complement(a, cot as i64, &c)?;
            post_compose(&c, b, &r.mode(1).unwrap()).map_err(|e| format!("repeats: {e}"))
        }
    }
}

/// Zipped product: like the zipped divide; a kept mode is `(1:0, A_i)`, the untouched mode
/// on the second side with the trailing modes.
fn post_zipped_product(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Layout(_) => post_product(a, t, r),
        Tiler::Keep => {
            ensure(r.rank() == 2, || format!("{r} is not (A, repeats)"))?;
            ensure(r.mode(0).unwrap().size() == 1, || format!("{r}: kept mode"))?;
            same_fn_check("kept mode", &r.mode(1).unwrap(), a)
        }
        Tiler::ByMode(ts) => unzip_check(a, ts, r, post_zipped_product),
    }
}

fn post_tiled_product(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    post_zipped_product(a, t, &regroup_tiled(r)?)
}

/// `append<R>`: the top-level modes padded with `1:0` up to rank R.
fn pad(l: &Layout, rank: usize) -> Layout {
    let mut modes: Vec<Layout> = (0..l.rank()).map(|i| l.mode(i).unwrap()).collect();
    while modes.len() < rank {
        modes.push("1:0".parse().unwrap());
    }
    Layout::make(&modes).unwrap()
}

/// Blocked/raked: unzip mode i into `(A'_i, P_i)` (raked: `(P_i, A'_i)`) and check
/// `(A', P)` as the logical product of the padded operands.
fn post_zip_product(a: &Layout, b: &Layout, r: &Layout, raked: bool) -> Check {
    let rank = a.rank().max(b.rank());
    ensure(r.rank() == rank, || {
        format!("{r} does not have rank {rank}")
    })?;
    let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
    for i in 0..rank {
        let m = r.mode(i).unwrap();
        ensure(m.rank() == 2, || format!("mode {i} of {r} is not a pair"))?;
        let (x, y) = (m.mode(0).unwrap(), m.mode(1).unwrap());
        let (x, y) = if raked { (y, x) } else { (x, y) };
        firsts.push(x);
        seconds.push(y);
    }
    let p = Layout::make(&[
        Layout::make(&firsts).unwrap(),
        Layout::make(&seconds).unwrap(),
    ])
    .unwrap();
    post_product(&pad(a, rank), &Tiler::Layout(pad(b, rank)), &p)
}

fn post_right_inverse(l: &Layout, r: &Layout) -> Check {
    for i in 0..r.size() {
        let x = r.index_of(i).unwrap();
        let back = usize::try_from(x).ok().and_then(|x| l.index_of(x).ok());
        ensure(back == Some(i as i64), || {
            format!("L(R({i})) = L({x}) = {back:?}")
        })?;
    }
    Ok(())
}

fn post_left_inverse(l: &Layout, r: &Layout) -> Check {
    for i in 0..l.size() {
        let x = l.index_of(i).unwrap();
        let back = usize::try_from(x).ok().and_then(|x| r.index_of(x).ok());
        ensure(back == Some(i as i64), || {
            format!("R(L({i})) = R({x}) = {back:?}")
        })?;
    }
    Ok(())
}

fn post_coalesce(l: &Layout, r: &Layout) -> Check {
    ensure(r.depth() <= 1, || format!("{r} is nested"))?;
    same_fn_check("coalesce", r, l)
}

// ------------------------------------------------------------------ judging

#[derive(Debug)]
enum Outcome {
    Exact,
    /// The same function in another notation (the detail names both).
    Functional(String),
    Rejected,
    Departure(String),
    Skipped,
    Mismatch(String),
}

/// Why StrideWeave may reject an input pycute answers (deliberate departures).
fn deliberate_rejection(op: &str, main: &Layout, others: &[&Layout]) -> Option<String> {
    let negative = has_negative(main) || others.iter().any(|l| has_negative(l));
    match op {
        "composition" if others.iter().any(|l| has_negative(l)) => {
            Some("negative stride in the right operand".into())
        }
        "complement" | "right_inverse" | "left_inverse" | "logical_divide" | "zipped_divide"
        | "tiled_divide" | "logical_product" | "zipped_product" | "tiled_product"
        | "blocked_product" | "raked_product"
            if negative =>
        {
            Some("negative strides are rejected (contracts L1)".into())
        }
        "left_inverse" if !injective(main) => Some("non-injective input is rejected".into()),
        "complement" if !injective_live(main) => {
            Some("overlapping modes (besides stride-0 ones) are rejected".into())
        }
        "logical_divide" | "zipped_divide" | "tiled_divide"
            if others.iter().any(|l| !injective_live(l)) =>
        {
            Some("a divisor with overlapping modes: its complement is rejected".into())
        }
        "logical_product" | "zipped_product" | "tiled_product" | "blocked_product"
        | "raked_product"
            if !injective_live(main) =>
        {
            Some("an A with overlapping modes: its complement is rejected".into())
        }
        _ => None,
    }
}

struct Ctx<'a> {
    case: &'a Value,
    op: &'a str,
    flags: BTreeSet<String>,
}

impl Ctx<'_> {
    fn is_doc(&self) -> bool {
        self.case["source"]
            .as_str()
            .is_some_and(|s| s.starts_with("doc:"))
    }
}

/// The general rule for an op whose answer is a layout.
fn judge_layout(
    cx: &Ctx<'_>,
    sw: Result<Layout, String>,
    post: &dyn Fn(&Layout) -> Check,
    deliberate: Option<String>,
) -> Outcome {
    let case = cx.case;
    let cpp = expected_of(&case["cpp_static"])
        .filter(|_| case["cpp_static"]["functional"].as_bool().unwrap_or(true));
    let cpp_error = case["cpp_static"].get("error").is_some();
    if case.get("expected_error").is_some() {
        return match sw {
            Err(_) => Outcome::Rejected,
            Ok(r) => match post(&r) {
                Ok(()) => Outcome::Departure(format!(
                    "pycute raised; StrideWeave gives {r}, which satisfies the post-condition"
                )),
                Err(e) => Outcome::Mismatch(format!(
                    "pycute raised; StrideWeave gives {r}, which fails the post-condition: {e}"
                )),
            },
        };
    }
    let expected = expected_of(&case["expected"]).expect("expected result");
    let pycute_wrong =
        cx.flags.contains("pycute_quirk") || cx.flags.contains("postcondition_violated");
    if pycute_wrong {
        return match sw {
            Err(_) => Outcome::Departure("rejects what pycute answers wrongly".into()),
            Ok(r) => match post(&r) {
                Ok(()) if cpp.as_ref().is_some_and(|c| matches_expected(&r, c)) => {
                    Outcome::Departure("C++ CuTe's answer where pycute is wrong".into())
                }
                Ok(()) => Outcome::Departure(format!("a correct answer {r} where pycute is wrong")),
                Err(e) => Outcome::Mismatch(format!(
                    "pycute is wrong here and StrideWeave's {r} fails the post-condition too: {e}"
                )),
            },
        };
    }
    match sw {
        Ok(r) => {
            if matches_expected(&r, &expected) {
                if expected.layout.as_ref() == Some(&r) {
                    Outcome::Exact
                } else if cx.is_doc() && cx.flags.is_empty() {
                    Outcome::Mismatch(format!(
                        "doc example: {r} is the right function but not the notation {}",
                        expected
                            .layout
                            .as_ref()
                            .map_or("?".into(), |l| l.to_string())
                    ))
                } else {
                    Outcome::Functional(format!(
                        "StrideWeave {r}, pycute {}",
                        expected
                            .layout
                            .as_ref()
                            .map_or("?".into(), |l| l.to_string())
                    ))
                }
            } else if cx.flags.contains("cpp_differs") {
                match post(&r) {
                    Ok(()) if cpp.as_ref().is_some_and(|c| matches_expected(&r, c)) => {
                        Outcome::Departure("C++ CuTe's answer".into())
                    }
                    Ok(()) => Outcome::Departure(format!("another correct answer {r}")),
                    Err(e) => Outcome::Mismatch(format!("{r} fails the post-condition: {e}")),
                }
            } else if cx.op == "left_inverse" {
                // Not unique: the same function on the image of L is the same answer.
                match post(&r) {
                    Ok(()) => Outcome::Functional(format!("{r}: the same on the image of L")),
                    Err(e) => Outcome::Mismatch(format!("{r}: {e}")),
                }
            } else {
                Outcome::Mismatch(format!(
                    "StrideWeave gives {r}, pycute {}",
                    expected
                        .layout
                        .as_ref()
                        .map_or("?".into(), |l| l.to_string())
                ))
            }
        }
        Err(e) => {
            if let Some(why) = deliberate {
                Outcome::Departure(why)
            } else if cpp_error {
                Outcome::Departure("rejected like C++ CuTe's static_assert".into())
            } else {
                Outcome::Mismatch(format!("StrideWeave rejects a valid case: {e}"))
            }
        }
    }
}

fn in_layout(case: &Value, key: &str) -> Result<Layout, String> {
    layout(&case["input"][key])
}

fn judge(case: &Value) -> Outcome {
    let op = case["op"].as_str().unwrap();
    let cx = Ctx {
        case,
        op,
        flags: flags(case),
    };
    let input = &case["input"];
    let exp = &case["expected"];
    match op {
        "size" => {
            let l = in_layout(case, "layout").unwrap();
            value_outcome(l.size() as i64 == exp["value"].as_i64().unwrap(), || {
                format!("size {}", l.size())
            })
        }
        "cosize" => {
            let l = in_layout(case, "layout").unwrap();
            // contracts L4: 1 + the largest index (pycute: L(size-1)+1).
            let want = indices(&l).into_iter().max().unwrap() + 1;
            let got = l.cosize() as i64;
            if got != want {
                Outcome::Mismatch(format!("cosize {got}, 1 + max index {want}"))
            } else if case.get("expected_error").is_some() {
                Outcome::Departure("pycute cannot evaluate; cosize is 1 + max".into())
            } else if exp["value"].as_i64() == Some(got) {
                Outcome::Exact
            } else if cx.flags.contains("pycute_quirk") {
                Outcome::Departure("1 + max index, not pycute's L(size-1)+1".into())
            } else {
                Outcome::Mismatch(format!("cosize {got}, pycute {}", exp["value"]))
            }
        }
        "crd2idx" => {
            let l = in_layout(case, "layout").unwrap();
            let want: Vec<i64> = exp["indices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            if indices(&l) != want {
                return Outcome::Mismatch(format!("indices of {l}"));
            }
            for s in exp["coord_samples"].as_array().unwrap() {
                let got = l.index(&tuple(&s["coord"]));
                if got.as_ref().ok() != s["index"].as_i64().as_ref() {
                    return Outcome::Mismatch(format!("{l} at {}: {got:?}", s["coord"]));
                }
            }
            // contracts L3: no extension of the last mode.
            for s in exp["extension_samples"].as_array().into_iter().flatten() {
                let i = s[0].as_i64().unwrap();
                let ordinal = usize::try_from(i).ok();
                if ordinal.is_some_and(|o| l.index_of(o).is_ok())
                    || l.index(&IntTuple::from(i)).is_ok()
                {
                    return Outcome::Mismatch(format!("{l} accepts ordinal {i} ≥ size"));
                }
            }
            if exp.get("extension_samples").is_some() {
                Outcome::Departure("in-domain exact; out-of-domain ordinals rejected (L3)".into())
            } else {
                Outcome::Exact
            }
        }
        "idx2crd" => {
            let shape = Shape::new(tuple(&input["shape"])).unwrap();
            for (i, c) in exp["coords"].as_array().unwrap().iter().enumerate() {
                let got = shape.coordinate(i).unwrap();
                let want = tuple(c);
                // contracts L2: at the root an integer and a one-element tuple agree.
                let same = got == want
                    || (shape.as_int_tuple().is_int() && IntTuple::tuple([got.clone()]) == want);
                if !same {
                    return Outcome::Mismatch(format!("coordinate {i}: {got} vs {want}"));
                }
            }
            Outcome::Exact
        }
        "flatten" => {
            let l = in_layout(case, "layout").unwrap();
            let want = layout(&exp["layout"]).unwrap();
            value_outcome(l.flatten() == want, || format!("{}", l.flatten()))
        }
        "prefix_product" => {
            let shape = Shape::new(tuple(&input["a"]));
            match shape {
                Ok(s) => {
                    let got = Layout::compact(&s);
                    let want = Stride::new(tuple(&exp["value"])).unwrap();
                    value_outcome(got.stride() == &want, || format!("{}", got.stride()))
                }
                Err(e) => Outcome::Mismatch(format!("{e}")),
            }
        }
        "shape_div" => Outcome::Skipped,
        "coalesce" => {
            let l = in_layout(case, "layout").unwrap();
            let sw = match input.get("profile") {
                None => Ok(l.coalesce()),
                Some(p) => l.coalesce_by(&tuple(p)).map_err(|e| e.to_string()),
            };
            let by_profile = input.get("profile").is_some_and(|p| p.is_array());
            let post = |r: &Layout| {
                if by_profile {
                    same_fn_check("coalesce_by", r, &l)
                } else {
                    post_coalesce(&l, r)
                }
            };
            judge_layout(&cx, sw, &post, None)
        }
        "filter" => {
            let l = in_layout(case, "layout").unwrap();
            // filter = coalesce(filter_zeros(L)): stride-0 extents become 1.
            let zeros = drop_broadcast(&l);
            let post = |r: &Layout| post_coalesce(&zeros, r);
            judge_layout(&cx, Ok(l.filter()), &post, None)
        }
        "composition" => {
            let a = in_layout(case, "a");
            let t = tiler(&input["b"]);
            let (a, t) = match (a, t) {
                (Ok(a), Ok(t)) => (a, t),
                (a, t) => return invalid_input(&cx, a.err().or(t.err())),
            };
            let sw = a.compose_tiler(&t).map_err(|e| e.to_string());
            let post = |r: &Layout| post_compose_tiler(&a, &t, r);
            let why = deliberate_rejection(op, &a, &tiler_layouts(&t));
            judge_layout(&cx, sw, &post, why)
        }
        "complement" => {
            let a = in_layout(case, "layout").unwrap();
            let mut cx = cx;
            if cx.flags.contains("stride0")
                && !cx.flags.contains("pycute_quirk")
                && injective_live(&a)
            {
                // The generator held complement to an injective input, so it flagged
                // pycute's answer for a broadcast one; CuTe's complement ignores stride-0
                // modes (contracts L13), and pycute's answer is then the reference.
                cx.flags.remove("postcondition_violated");
            }
            let cot = input["cotarget"].as_i64().unwrap();
            let sw = a.complement(cot as usize).map_err(|e| e.to_string());
            let post = |r: &Layout| post_complement(&a, cot, r);
            let why = deliberate_rejection(op, &a, &[]).or_else(|| {
                cx.flags
                    .contains("pycute_quirk")
                    .then(|| "strides that do not divide are rejected".into())
            });
            judge_layout(&cx, sw, &post, why)
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "logical_product"
        | "zipped_product" | "tiled_product" => {
            let a = in_layout(case, "a");
            let t = tiler(&input["b"]);
            let (a, t) = match (a, t) {
                (Ok(a), Ok(t)) => (a, t),
                (a, t) => return invalid_input(&cx, a.err().or(t.err())),
            };
            let (sw, post): (_, fn(&Layout, &Tiler, &Layout) -> Check) = match op {
                "logical_divide" => (a.logical_divide_tiler(&t), post_divide),
                "zipped_divide" => (a.zipped_divide(&t), post_zipped_divide),
                "tiled_divide" => (a.tiled_divide(&t), post_tiled_divide),
                "logical_product" => (a.logical_product_tiler(&t), post_product),
                "zipped_product" => (a.zipped_product(&t), post_zipped_product),
                _ => (a.tiled_product(&t), post_tiled_product),
            };
            let check = |r: &Layout| post(&a, &t, r);
            let why = deliberate_rejection(op, &a, &tiler_layouts(&t));
            judge_layout(&cx, sw.map_err(|e| e.to_string()), &check, why)
        }
        "blocked_product" | "raked_product" => {
            let a = in_layout(case, "a").unwrap();
            let b = in_layout(case, "b").unwrap();
            let raked = op == "raked_product";
            let sw = if raked {
                a.raked_product(&b)
            } else {
                a.blocked_product(&b)
            };
            let post = |r: &Layout| post_zip_product(&a, &b, r, raked);
            let why = deliberate_rejection(op, &a, &[&b]);
            judge_layout(&cx, sw.map_err(|e| e.to_string()), &post, why)
        }
        "right_inverse" => {
            let l = in_layout(case, "layout").unwrap();
            let pycute_size = exp["size"].as_i64();
            let post = |r: &Layout| {
                post_right_inverse(&l, r)?;
                // The largest such R: at least as large as pycute's valid answer.
                ensure(pycute_size.is_none_or(|n| r.size() as i64 >= n), || {
                    format!("{r} is smaller than pycute's right inverse")
                })
            };
            let why = deliberate_rejection(op, &l, &[]);
            judge_layout(
                &cx,
                l.right_inverse().map_err(|e| e.to_string()),
                &post,
                why,
            )
        }
        "left_inverse" => {
            let l = in_layout(case, "layout").unwrap();
            let post = |r: &Layout| post_left_inverse(&l, r);
            let why = deliberate_rejection(op, &l, &[]);
            judge_layout(&cx, l.left_inverse().map_err(|e| e.to_string()), &post, why)
        }
        other => Outcome::Mismatch(format!("unknown op {other}")),
    }
}

fn value_outcome(ok: bool, got: impl FnOnce() -> String) -> Outcome {
    if ok {
        Outcome::Exact
    } else {
        Outcome::Mismatch(format!("StrideWeave gives {}", got()))
    }
}

/// An input StrideWeave cannot even build (not a valid Shape or Layout, contracts L1/L2).
fn invalid_input(cx: &Ctx<'_>, e: Option<String>) -> Outcome {
    let e = e.unwrap_or_default();
    if cx.case.get("expected_error").is_some() {
        Outcome::Rejected
    } else {
        Outcome::Departure(format!("input rejected: {e}"))
    }
}

// ------------------------------------------------------------------ driver

#[derive(Default)]
struct Tally {
    exact: usize,
    functional: usize,
    rejected: usize,
    departures: usize,
    skipped: usize,
    mismatches: Vec<String>,
}

fn run(ops: &[&str]) {
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut departures: BTreeMap<String, usize> = BTreeMap::new();
    // ORACLE_VERBOSE=1 lists every functional match and departure with its case id.
    let verbose = std::env::var_os("ORACLE_VERBOSE").is_some();
    for (file, case) in all_cases() {
        let op = case["op"].as_str().unwrap();
        if !ops.contains(&op) {
            continue;
        }
        let id = case["id"].as_str().unwrap();
        let t = tallies.entry(op.to_string()).or_default();
        match judge(&case) {
            Outcome::Exact => t.exact += 1,
            Outcome::Functional(detail) => {
                t.functional += 1;
                if verbose {
                    eprintln!("  functional {file} {id}: {detail}");
                }
            }
            Outcome::Rejected => t.rejected += 1,
            Outcome::Skipped => t.skipped += 1,
            Outcome::Departure(why) => {
                t.departures += 1;
                if verbose {
                    eprintln!("  departure {file} {id}: {why}");
                }
                *departures.entry(format!("{op}: {why}")).or_default() += 1;
            }
            Outcome::Mismatch(why) => t.mismatches.push(format!("{file} {id}: {why}")),
        }
    }
    let mut failures = Vec::new();
    for (op, t) in &tallies {
        eprintln!(
            "oracle {op}: {} matched exactly, {} matched functionally, {} correctly rejected, \
             {} deliberate departures, {} skipped, {} mismatches",
            t.exact,
            t.functional,
            t.rejected,
            t.departures,
            t.skipped,
            t.mismatches.len()
        );
        failures.extend(t.mismatches.iter().cloned());
    }
    for (why, n) in &departures {
        eprintln!("  departure ×{n}: {why}");
    }
    for op in ops {
        assert!(tallies.contains_key(*op), "no reference case for {op}");
    }
    assert!(
        failures.is_empty(),
        "{} real mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn oracle_covers_every_op() {
    const KNOWN: &[&str] = &[
        "size",
        "cosize",
        "crd2idx",
        "idx2crd",
        "flatten",
        "prefix_product",
        "shape_div",
        "coalesce",
        "filter",
        "composition",
        "complement",
        "logical_divide",
        "zipped_divide",
        "tiled_divide",
        "logical_product",
        "zipped_product",
        "tiled_product",
        "blocked_product",
        "raked_product",
        "right_inverse",
        "left_inverse",
    ];
    let cases = all_cases();
    assert!(cases.len() >= 1000, "only {} reference cases", cases.len());
    for (file, c) in &cases {
        let op = c["op"].as_str().unwrap();
        assert!(KNOWN.contains(&op), "{file}: unknown op {op}");
    }
}

#[test]
fn oracle_size_cosize() {
    run(&["size", "cosize"]);
}

#[test]
fn oracle_coordinates() {
    run(&["crd2idx", "idx2crd", "prefix_product", "shape_div"]);
}

#[test]
fn oracle_flatten() {
    run(&["flatten"]);
}

#[test]
fn oracle_coalesce() {
    run(&["coalesce"]);
}

#[test]
fn oracle_filter() {
    run(&["filter"]);
}

#[test]
fn oracle_composition() {
    run(&["composition"]);
}

#[test]
fn oracle_complement() {
    run(&["complement"]);
}

#[test]
fn oracle_logical_divide() {
    run(&["logical_divide"]);
}

#[test]
fn oracle_zipped_divide() {
    run(&["zipped_divide"]);
}

#[test]
fn oracle_tiled_divide() {
    run(&["tiled_divide"]);
}

#[test]
fn oracle_logical_product() {
    run(&["logical_product"]);
}

#[test]
fn oracle_zipped_product() {
    run(&["zipped_product"]);
}

#[test]
fn oracle_tiled_product() {
    run(&["tiled_product"]);
}

#[test]
fn oracle_blocked_product() {
    run(&["blocked_product"]);
}

#[test]
fn oracle_raked_product() {
    run(&["raked_product"]);
}

#[test]
fn oracle_right_inverse() {
    run(&["right_inverse"]);
}

#[test]
fn oracle_left_inverse() {
    run(&["left_inverse"]);
}
