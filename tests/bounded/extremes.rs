//! Index and range arithmetic at the edges of `usize` and `i64`: every `Result` function of
//! the layouts and views answers extreme arguments with a value or an `Error`, never a panic
//! (tests run with overflow checks on).

use std::ops::Bound;
use std::panic::{AssertUnwindSafe, catch_unwind};

use strideweave::{Carrier, Key, Layout, Tensor};

const U: [usize; 6] = [0, 1, 2, usize::MAX / 2 + 1, usize::MAX - 1, usize::MAX];
const I: [i64; 9] = [
    0,
    1,
    -1,
    2,
    i64::MAX,
    i64::MAX - 1,
    i64::MIN,
    i64::MIN + 1,
    -2,
];

const LAYOUTS: [&str; 4] = [
    "(2,3):(1,2)",
    "(2,(3,4)):(-1,(0,6))",
    "9223372036854775807:1",
    "(2305843009213693952,2):(0,-1)",
];

/// Runs `f`, recording the label of a call that panicked.
fn check(panics: &mut Vec<String>, label: String, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        panics.push(label);
    }
}

fn bounds() -> Vec<(Bound<usize>, Bound<usize>)> {
    let mut out = Vec::new();
    for &a in &U {
        for &b in &U {
            for lo in [Bound::Included(a), Bound::Excluded(a), Bound::Unbounded] {
                for hi in [Bound::Included(b), Bound::Excluded(b), Bound::Unbounded] {
                    out.push((lo, hi));
                }
            }
        }
    }
    out
}

fn keys() -> Vec<Key> {
    let opt = |v: i64| [None, Some(v)];
    let mut out: Vec<Key> = I.iter().map(|&i| Key::Int(i)).collect();
    for &a in &I {
        for &b in &I {
            for c in [1, -1, 2, i64::MAX, i64::MIN, 0] {
                for start in opt(a) {
                    for stop in opt(b) {
                        out.push(Key::slice(start, stop, Some(c)));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn layout_functions_take_extreme_arguments_without_panicking() {
    let mut panics = Vec::new();
    for s in LAYOUTS {
        let l: Layout = s.parse().unwrap();
        for &u in &U {
            check(&mut panics, format!("{s}.complement({u})"), || {
                drop(l.complement(u))
            });
            check(&mut panics, format!("{s}.index_of({u})"), || {
                drop(l.index_of(u))
            });
            check(&mut panics, format!("{s}.mode({u})"), || drop(l.mode(u)));
            check(&mut panics, format!("{s}.select([{u}])"), || {
                drop(l.select(&[u]))
            });
            check(&mut panics, format!("{s}.permute([{u},0])"), || {
                drop(l.permute(&[u, 0]))
            });
            check(&mut panics, format!("{s}.reverse({u})"), || {
                drop(l.reverse(u))
            });
            check(&mut panics, format!("{s}.unsqueeze({u})"), || {
                drop(l.unsqueeze(u))
            });
            check(&mut panics, format!("{s}.squeeze({u})"), || {
                drop(l.squeeze(u))
            });
            check(&mut panics, format!("{s}.shape().coordinate({u})"), || {
                drop(l.shape().coordinate(u))
            });
            let target = l.shape().clone();
            check(
                &mut panics,
                format!("{s}.broadcast_in_dim(_, [{u}])"),
                || drop(l.broadcast_in_dim(&target, &[u])),
            );
        }
        for &i in &I {
            check(&mut panics, format!("{s}.unsqueeze({i})"), || {
                drop(l.unsqueeze(i))
            });
            check(&mut panics, format!("{s}.squeeze({i})"), || {
                drop(l.squeeze(i))
            });
        }
        for (lo, hi) in bounds() {
            check(&mut panics, format!("{s}.modes({lo:?}, {hi:?})"), || {
                drop(l.modes((lo, hi)))
            });
        }
        for k in keys() {
            check(&mut panics, format!("{s}.slice([{k}])"), || {
                drop(l.slice(&[k]))
            });
            check(&mut panics, format!("{s}.slice([{k}, {k}])"), || {
                drop(l.slice(&[k, k]))
            });
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics: {:#?}",
        panics.len(),
        &panics[..panics.len().min(20)]
    );
}

#[test]
fn tensor_functions_take_extreme_arguments_without_panicking() {
    let mut panics = Vec::new();
    let t = Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
    let huge = Tensor::arange::<f32>(&"1".parse().unwrap())
        .broadcast_to(&"4611686018427387904".parse().unwrap())
        .unwrap();
    for (name, t) in [("small", &t), ("huge", &huge)] {
        for &u in &U {
            check(&mut panics, format!("{name}.get_ordinal({u})"), || {
                drop(t.get_ordinal(u))
            });
            check(&mut panics, format!("{name}.set_ordinal({u})"), || {
                drop(t.set_ordinal(u, 1.0f32))
            });
            check(&mut panics, format!("{name}.reverse({u})"), || {
                drop(t.reverse(u))
            });
            check(&mut panics, format!("{name}.permute([{u},0])"), || {
                drop(t.permute(&[u, 0]))
            });
            check(&mut panics, format!("{name}.unsqueeze({u})"), || {
                drop(t.unsqueeze(u))
            });
            check(&mut panics, format!("{name}.squeeze({u})"), || {
                drop(t.squeeze(u))
            });
            let layout: Layout = "(2,3):(1,2)".parse().unwrap();
            check(&mut panics, format!("Tensor::new(offset {u})"), || {
                drop(Tensor::new(Carrier::from_vec(vec![0f32; 6]), u, layout))
            });
        }
        for &i in &I {
            check(&mut panics, format!("{name}.unsqueeze({i})"), || {
                drop(t.unsqueeze(i))
            });
            check(&mut panics, format!("{name}.squeeze({i})"), || {
                drop(t.squeeze(i))
            });
            for pattern in ["h w -> h w c", "(h w) -> h w", "h -> (h c)"] {
                check(
                    &mut panics,
                    format!("{name}.repeat({pattern}, c={i})"),
                    || drop(t.repeat(pattern, &[("c", i)])),
                );
                check(
                    &mut panics,
                    format!("{name}.rearrange({pattern}, h={i})"),
                    || drop(t.rearrange(pattern, &[("h", i)])),
                );
            }
        }
        for k in keys() {
            check(&mut panics, format!("{name}.slice([{k}])"), || {
                drop(t.slice(&[k]))
            });
            check(&mut panics, format!("{name}.index([{k}])"), || {
                drop(t.index(&[k]))
            });
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics: {:#?}",
        panics.len(),
        &panics[..panics.len().min(20)]
    );
}
