//! The static algebra against the run-time one: every operation on random layouts and
//! tilers, and on pycute's reference cases (`tests/data/cute_oracle.json`, which
//! `tests/layout/oracle.rs` holds the run-time algebra to), must give the same layout or
//! refuse with the same message; a result beyond a static layout's capacity is the one
//! allowed difference. `STRIDEWEAVE_LONG=1` runs many more random cases.

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

use super::algebra::{
    complement_in, compose_in, logical_divide_in, logical_product_in, zip_product,
};
use super::code::{LayoutCode, MAX_LEAVES, MAX_TOKENS};
use super::fault::{CodeError, Kind};
use super::tiler::{Split, TilerCode, apply, gathered, local_partition_in, local_tile_in};
use crate::error::Result;
use crate::layout::structure::LayoutBuilder;
use crate::layout::{IntTuple, Layout, Shape, Stride, Tiler};

type Fixed = std::result::Result<LayoutCode, CodeError>;

/// The static code of a tiler, or `None` beyond a static tiler's capacity.
fn tiler_code(t: &Tiler) -> Option<TilerCode> {
    fn count(t: &Tiler) -> (usize, usize) {
        match t {
            Tiler::Keep => (1, 0),
            Tiler::Layout(_) => (1, 1),
            Tiler::ByMode(ts) => ts
                .iter()
                .map(count)
                .fold((2, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        }
    }
    fn go(t: &Tiler) -> Option<TilerCode> {
        Some(match t {
            Tiler::Keep => TilerCode::KEEP,
            Tiler::Layout(l) => TilerCode::layout(LayoutCode::from_layout(l)?),
            Tiler::ByMode(ts) => {
                TilerCode::by_mode(&ts.iter().map(go).collect::<Option<Vec<_>>>()?)
            }
        })
    }
    let (tokens, layouts) = count(t);
    if tokens > 32 || layouts > 8 {
        return None;
    }
    go(t)
}

/// Holds one static result against the run-time one: equal layouts, or equal messages.
/// Returns whether both succeeded.
fn agree(what: &str, fixed: Fixed, run: Result<Layout>) -> bool {
    match (fixed, run) {
        (Ok(f), Ok(r)) => {
            assert_eq!(f.to_layout(), r, "{what}: static {f} vs run-time {r}");
            true
        }
        (Err(f), Err(r)) => {
            assert_eq!(f.message(), r.to_string(), "{what}");
            false
        }
        (Err(f), Ok(r)) => {
            let beyond = r.profile().len() > MAX_TOKENS || r.shape().leaves().len() > MAX_LEAVES;
            assert!(
                matches!(f.kind, Kind::Capacity { .. }) && beyond,
                "{what}: static refuses ({}) what the run time gives: {r}",
                f.message()
            );
            false
        }
        (Ok(f), Err(r)) => panic!("{what}: static gives {f}, the run time refuses: {r}"),
    }
}

/// The run-time zipped divide with both modes spliced (CuTe's `flat_divide`).
fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    let z = a.zipped_divide(t)?;
    let mut b = LayoutBuilder::default();
    b.modes_of(&z.mode(0)?);
    b.modes_of(&z.mode(1)?);
    b.tuple("zipped_divide")
}

/// One of the tiler operations, static and run time, named as the run time names it.
fn tiler_op(
    op: &'static str,
    ca: &LayoutCode,
    ct: &TilerCode,
    a: &Layout,
    t: &Tiler,
) -> (Fixed, Result<Layout>) {
    match op {
        "compose_tiler" => (apply(op, ca, ct, 0, Split::Compose), a.compose_tiler(t)),
        "logical_divide_tiler" => (
            apply(op, ca, ct, 0, Split::Divide),
            a.logical_divide_tiler(t),
        ),
        "logical_product_tiler" => (
            apply(op, ca, ct, 0, Split::Product),
            a.logical_product_tiler(t),
        ),
        "zipped_divide" => (
            gathered(op, ca, ct, Split::Divide, false, false),
            a.zipped_divide(t),
        ),
        "tiled_divide" => (
            gathered(op, ca, ct, Split::Divide, false, true),
            a.tiled_divide(t),
        ),
        // Its run-time twin is the zipped divide, whose name its refusals carry.
        "flat_divide" => (
            gathered("zipped_divide", ca, ct, Split::Divide, true, true),
            flat_divide(a, t),
        ),
        "zipped_product" => (
            gathered(op, ca, ct, Split::Product, false, false),
            a.zipped_product(t),
        ),
        _ => (
            gathered(op, ca, ct, Split::Product, false, true),
            a.tiled_product(t),
        ),
    }
}

/// One of the operations of two layouts, static and run time.
fn layout_op(
    op: &'static str,
    ca: &LayoutCode,
    cb: &LayoutCode,
    a: &Layout,
    b: &Layout,
) -> (Fixed, Result<Layout>) {
    match op {
        "compose" => (compose_in(op, ca, cb), a.compose(b)),
        "logical_divide" => (logical_divide_in(op, ca, cb), a.logical_divide(b)),
        "logical_product" => (logical_product_in(op, ca, cb), a.logical_product(b)),
        "blocked_product" => (zip_product(op, ca, cb, false), a.blocked_product(b)),
        _ => (zip_product(op, ca, cb, true), a.raked_product(b)),
    }
}

const LAYOUT_OPS: [&str; 5] = [
    "compose",
    "logical_divide",
    "logical_product",
    "blocked_product",
    "raked_product",
];
const TILER_OPS: [&str; 8] = [
    "compose_tiler",
    "logical_divide_tiler",
    "logical_product_tiler",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "zipped_product",
    "tiled_product",
];

/// Every operation of `a` with the layout `b`, the tiler `t` and the cotarget; how many
/// succeeded on both sides.
fn check_all(a: &Layout, b: &Layout, t: &Tiler, cotarget: usize) -> usize {
    let (Some(ca), Some(cb), Some(ct)) = (
        LayoutCode::from_layout(a),
        LayoutCode::from_layout(b),
        tiler_code(t),
    ) else {
        return 0;
    };
    assert_eq!(ct.to_tiler(), *t);
    let w = |op: &str| format!("{op} of {a} with {b}, {t:?}, cotarget {cotarget}");
    let mut ok = agree(
        &w("complement"),
        complement_in("complement", &ca, cotarget),
        a.complement(cotarget),
    ) as usize;
    for op in LAYOUT_OPS {
        let (fixed, run) = layout_op(op, &ca, &cb, a, b);
        ok += agree(&w(op), fixed, run) as usize;
    }
    for op in TILER_OPS {
        let (fixed, run) = tiler_op(op, &ca, &ct, a, t);
        ok += agree(&w(op), fixed, run) as usize;
    }
    ok
}

/// A random layout: 1 to 3 top-level modes of 1 to 3 leaves (an integral layout when there
/// is one leaf and `int` says so), extents 1 to `max_extent`, strides either compact over a
/// permutation of the leaves times a gap (signs flipped where `flip` says, when `signed`),
/// or drawn freely (zero included).
fn layout(max_extent: i64, signed: bool) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(1usize..=3, 1..=3),
        any::<bool>(),
        prop::collection::vec(1i64..=max_extent, 9),
        prop::collection::vec(any::<u8>(), 9),
        1i64..=3,
        prop::collection::vec(-4i64..=24, 9),
        0u8..4,
        prop::collection::vec(any::<bool>(), 9),
    )
        .prop_map(move |(groups, int, extents, keys, gap, free, kind, flip)| {
            let n: usize = groups.iter().sum();
            let mut strides = vec![0i64; n];
            if kind == 0 {
                strides.copy_from_slice(&free[..n]);
                if !signed {
                    strides.iter_mut().for_each(|d| *d = d.abs());
                }
            } else {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by_key(|&k| keys[k]);
                let mut acc = gap;
                for k in order {
                    strides[k] = if signed && flip[k] && kind == 3 {
                        -acc
                    } else {
                        acc
                    };
                    acc *= extents[k];
                }
            }
            if n == 1 && int {
                return format!("{}:{}", extents[0], strides[0]).parse().unwrap();
            }
            let (mut sh, mut st, mut k) = (vec![], vec![], 0);
            for &g in &groups {
                let e: Vec<String> = extents[k..k + g].iter().map(|x| x.to_string()).collect();
                let d: Vec<String> = strides[k..k + g].iter().map(|x| x.to_string()).collect();
                k += g;
                if g == 1 && keys[k] % 2 == 0 {
                    sh.push(e[0].clone());
                    st.push(d[0].clone());
                } else {
                    sh.push(format!("({})", e.join(",")));
                    st.push(format!("({})", d.join(",")));
                }
            }
            format!("({}):({})", sh.join(","), st.join(","))
                .parse()
                .unwrap()
        })
}

/// A random tiler: keep, a layout with non-negative strides, or a by-mode list of up to 3
/// entries (each keep, a layout, or a by-mode list of layouts).
fn tiler() -> impl Strategy<Value = Tiler> {
    let entry = prop_oneof![
        1 => Just(Tiler::Keep),
        4 => layout(4, false).prop_map(Tiler::Layout),
        4 => (1i64..=4).prop_map(|n| Tiler::Layout(format!("{n}:1").parse().unwrap())),
    ];
    let nested = prop_oneof![
        4 => entry.clone(),
        1 => prop::collection::vec(entry.clone(), 1..=2).prop_map(Tiler::ByMode),
    ];
    prop_oneof![
        1 => Just(Tiler::Keep),
        3 => layout(4, false).prop_map(Tiler::Layout),
        6 => prop::collection::vec(nested, 1..=3).prop_map(Tiler::ByMode),
    ]
}

fn config(cases: u32) -> Config {
    let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
    Config {
        cases: if long { cases * 200 } else { cases },
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn static_algebra_agrees_with_the_run_time_algebra_on_random_layouts(
        a in layout(6, true),
        b in layout(5, false),
        t in tiler(),
        cotarget in 0usize..200,
    ) {
        check_all(&a, &b, &t, cotarget);
    }

    #[test]
    fn static_index_math_agrees_with_the_run_time_layout(
        a in layout(6, true),
        ordinal in 0usize..2000,
        coord in prop::collection::vec(-1i64..8, 0..4),
    ) {
        let c = LayoutCode::from_layout(&a).unwrap();
        prop_assert_eq!((c.size(), c.cosize(), c.rank(), c.reach()), (a.size(), a.cosize(), a.rank(), a.reach()));
        prop_assert_eq!(LayoutCode::from_layout(&c.to_layout()), Some(c));
        for i in 0..a.size() {
            prop_assert_eq!(c.index_of(i), a.index_of(i).unwrap());
        }
        let strip = |s: String| s.split_once(": ").map(|(_, rest)| rest.to_string()).unwrap_or(s);
        let fixed = c.try_index_of(ordinal).map_err(|e| strip(e.to_string()));
        prop_assert_eq!(fixed, a.index_of(ordinal).map_err(|e| strip(e.to_string())));
        let fixed = c.try_index(&coord).map_err(|e| strip(e.to_string()));
        let tuple = IntTuple::tuple(coord.iter().map(|&c| IntTuple::from(c)));
        let run = a.index(&tuple).map_err(|e| strip(e.to_string()));
        prop_assert_eq!(fixed, run);
    }
}

/// A flat layout of 1 to 3 modes with extents that tile by `tile`, compact over a
/// permutation of its modes (so tiles and partitions are easy to name by coordinates).
fn tiled_layout() -> impl Strategy<Value = (Layout, Vec<i64>, Vec<i64>)> {
    (
        prop::collection::vec((1i64..=3, 1i64..=4), 1..=3),
        prop::collection::vec(any::<u8>(), 3),
        any::<bool>(),
    )
        .prop_map(|(modes, keys, trailing)| {
            let tiles: Vec<i64> = modes.iter().map(|m| m.0).collect();
            let extents: Vec<i64> = modes.iter().map(|m| m.0 * m.1).collect();
            let mut order: Vec<usize> = (0..extents.len()).collect();
            order.sort_by_key(|&k| keys[k]);
            let (mut strides, mut acc) = (vec![0; extents.len()], 1);
            for k in order {
                strides[k] = acc;
                acc *= extents[k];
            }
            let text = |v: &[i64]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let l = format!("({}):({})", text(&extents), text(&strides))
                .parse()
                .unwrap();
            // A shorter tiler keeps the trailing modes.
            let keep = if trailing && tiles.len() > 1 {
                tiles.len() - 1
            } else {
                tiles.len()
            };
            (l, tiles[..keep].to_vec(), extents)
        })
}

/// The coordinates of a flat shape, first mode fastest.
fn coords(extents: &[i64]) -> Vec<Vec<i64>> {
    let size: i64 = extents.iter().product();
    (0..size)
        .map(|mut i| {
            extents
                .iter()
                .map(|&e| {
                    let c = i % e;
                    i /= e;
                    c
                })
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn local_tile_and_local_partition_address_the_elements_cute_defines(
        (a, tile, extents) in tiled_layout(),
    ) {
        let ca = LayoutCode::from_layout(&a).unwrap();
        let by_mode: Vec<TilerCode> = tile.iter().map(|&n| TilerCode::layout(LayoutCode::leaf(n, 1))).collect();
        let t = TilerCode::by_mode(&by_mode);
        // local_tile: element c of tile b is A at b·tile + c; trailing modes kept whole.
        let tiling = local_tile_in("local_tile", &ca, &t).unwrap();
        let counts: Vec<i64> = extents.iter().zip(&tile).map(|(e, n)| e / n).collect();
        let mut inner = tile.clone();
        inner.extend_from_slice(&extents[tile.len()..]);
        prop_assert_eq!(tiling.layout.rank(), inner.len());
        for b in coords(&counts) {
            let at = tiling.tile_offset("local_tile", &b).unwrap();
            for c in coords(&inner) {
                let mut full: Vec<i64> = c.clone();
                for k in 0..tile.len() {
                    full[k] += b[k] * tile[k];
                }
                prop_assert_eq!(at + tiling.layout.index(&c), ca.index(&full));
            }
        }
        // local_partition by the compact thread layout of the tile's shape: thread th at
        // coordinate p holds, at rest coordinate r, A at r·tile + p.
        let threads = LayoutCode::from_layout(&Layout::compact(&Shape::new(IntTuple::tuple(tile.iter().map(|&n| IntTuple::from(n)))).unwrap())).unwrap();
        let part = local_partition_in("local_partition", &ca, &threads).unwrap();
        let mut rest = counts.clone();
        rest.extend_from_slice(&extents[tile.len()..]);
        for (th, p) in coords(&tile).into_iter().enumerate() {
            let at = part.thread_offset("local_partition", th).unwrap();
            for r in coords(&rest) {
                let mut full = r.clone();
                for k in 0..tile.len() {
                    full[k] = r[k] * tile[k] + p[k];
                }
                prop_assert_eq!(at + part.layout.index(&r), ca.index(&full));
            }
        }
    }
}

const ORACLE: &str = include_str!("../../../../tests/data/cute_oracle.json");

fn json_tuple(v: &Value) -> IntTuple {
    match v {
        Value::Number(n) => IntTuple::from(n.as_i64().unwrap_or(i64::MAX)),
        Value::Array(items) => IntTuple::tuple(items.iter().map(json_tuple)),
        _ => IntTuple::tuple([]),
    }
}

fn json_layout(v: &Value) -> Option<Layout> {
    let shape = Shape::new(json_tuple(&v["shape"])).ok()?;
    let stride = Stride::new(json_tuple(&v["stride"])).ok()?;
    Layout::new(shape, stride).ok()
}

fn json_tiler(v: &Value) -> Option<Tiler> {
    match v {
        Value::Null => Some(Tiler::Keep),
        Value::Number(n) => Some(Tiler::Layout(format!("{}:1", n.as_i64()?).parse().ok()?)),
        Value::Array(items) => Some(Tiler::ByMode(
            items.iter().map(json_tiler).collect::<Option<_>>()?,
        )),
        _ => json_layout(v).map(Tiler::Layout),
    }
}

#[test]
fn static_algebra_agrees_with_the_run_time_algebra_on_pycutes_cases() {
    let doc: Value = serde_json::from_str(ORACLE).unwrap();
    let (mut compared, mut succeeded) = (0usize, 0usize);
    let mut ops = std::collections::BTreeSet::new();
    for case in doc["cases"].as_array().unwrap() {
        let op = case["op"].as_str().unwrap();
        let input = &case["input"];
        let a = json_layout(&input["a"]).or_else(|| json_layout(&input["layout"]));
        let Some(ca) = a.as_ref().and_then(LayoutCode::from_layout) else {
            continue;
        };
        let a = a.unwrap();
        let what = format!("{} ({op})", case["id"]);
        let mut check = |fixed: Fixed, run: Result<Layout>| {
            compared += 1;
            succeeded += agree(&what, fixed, run) as usize;
            ops.insert(op.to_string());
        };
        match op {
            "complement" => {
                let Some(n) = input["cotarget"]
                    .as_i64()
                    .and_then(|n| usize::try_from(n).ok())
                else {
                    continue;
                };
                check(complement_in("complement", &ca, n), a.complement(n));
            }
            "blocked_product" | "raked_product" | "composition" | "logical_divide"
            | "logical_product" => {
                if let Some(b) = json_layout(&input["b"]).filter(|_| input["b"].is_object()) {
                    let Some(cb) = LayoutCode::from_layout(&b) else {
                        continue;
                    };
                    let op = match op {
                        "composition" => "compose",
                        "blocked_product" => "blocked_product",
                        "raked_product" => "raked_product",
                        "logical_divide" => "logical_divide",
                        _ => "logical_product",
                    };
                    let (fixed, run) = layout_op(op, &ca, &cb, &a, &b);
                    check(fixed, run);
                }
                if matches!(op, "composition" | "logical_divide" | "logical_product") {
                    let Some(t) = json_tiler(&input["b"]) else {
                        continue;
                    };
                    let Some(ct) = tiler_code(&t) else { continue };
                    let op = match op {
                        "composition" => "compose_tiler",
                        "logical_divide" => "logical_divide_tiler",
                        _ => "logical_product_tiler",
                    };
                    let (fixed, run) = tiler_op(op, &ca, &ct, &a, &t);
                    check(fixed, run);
                }
            }
            "zipped_divide" | "tiled_divide" | "zipped_product" | "tiled_product" => {
                let Some(t) = json_tiler(&input["b"]) else {
                    continue;
                };
                let Some(ct) = tiler_code(&t) else { continue };
                let op = TILER_OPS.into_iter().find(|o| *o == op).unwrap();
                let (fixed, run) = tiler_op(op, &ca, &ct, &a, &t);
                check(fixed, run);
                if op == "zipped_divide" {
                    let (fixed, run) = tiler_op("flat_divide", &ca, &ct, &a, &t);
                    check(fixed, run);
                }
            }
            _ => {}
        }
    }
    let want = [
        "blocked_product",
        "complement",
        "composition",
        "logical_divide",
        "logical_product",
        "raked_product",
        "tiled_divide",
        "tiled_product",
        "zipped_divide",
        "zipped_product",
    ];
    assert_eq!(ops.iter().map(String::as_str).collect::<Vec<_>>(), want);
    assert!(
        compared > 1500 && succeeded > 1300,
        "{compared} compared, {succeeded} succeeded"
    );
}
