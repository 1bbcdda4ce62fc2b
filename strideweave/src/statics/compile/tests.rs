//! A differential test on random shapes, strides, patterns and keywords, valid and not: the
//! engine's fast path against its checked path (the same result, or both fail), and the
//! static front end (fixed arrays, `rearrange!`'s messages) against the run-time one
//! (`Layout::rearrange`/`repeat`, `Plan::parse` for reductions, scratch sized from the
//! input): the same layouts (for a reduction also the same kept shape), or the same messages.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use strideweave_syntax::{
    EncodedSide, Pattern, PatternKind, check_keywords, check_pattern, encode_pattern, parse_pattern,
};

use super::{Outcome, Room, compile, message_into};
use crate::layout::Layout;
use crate::pattern::{
    Keyword, MSG_CAP, MsgState, NO_PART, NO_SYM, Op, Out, PatternCode, Scratch, Side, explain, fast,
};
use crate::statics::ShapeCode;

/// A tiny deterministic generator (xorshift), so that one seed is one case.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn extent(&mut self) -> i64 {
        [1, 1, 2, 2, 3, 4, 6, 12][self.below(8)]
    }
}

struct Case {
    layout: String,
    pattern: String,
    sizes: Vec<(String, i64)>,
    kind: PatternKind,
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Random shape, strides, pattern and keywords; mostly sensible, sometimes wrong.
fn generate(seed: u64) -> Case {
    let mut g = Gen(seed | 1);
    let kind = if g.chance(30) {
        PatternKind::Repeat
    } else if g.chance(30) {
        PatternKind::Reduce
    } else {
        PatternKind::Rearrange
    };
    let mut names = (0..).map(|i| format!("s{i}"));
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    let mut left: Vec<String> = Vec::new();
    let mut sizes: Vec<(String, i64)> = Vec::new();
    let rank = g.below(5);
    let ellipsis_at = if g.chance(25) {
        Some(g.below(rank + 1))
    } else {
        None
    };
    let stride_of = |g: &mut Gen| -> i64 { g.below(30) as i64 - 10 };
    for m in 0..rank {
        let nested = g.chance(30);
        let captured = ellipsis_at.is_some_and(|a| m >= a && m < a + 1 + g.below(2));
        let (mode_shape, mode_stride, leaves): (String, String, Vec<i64>) = if nested {
            let k = 1 + g.below(3);
            let es: Vec<i64> = (0..k).map(|_| g.extent()).collect();
            let ds: Vec<i64> = (0..k).map(|_| stride_of(&mut g)).collect();
            let j = |v: &[i64]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            (format!("({})", j(&es)), format!("({})", j(&ds)), es)
        } else {
            let e = g.extent();
            (e.to_string(), stride_of(&mut g).to_string(), vec![e])
        };
        shape.push(mode_shape);
        stride.push(mode_stride);
        if captured {
            if !left.iter().any(|t| t == "...") {
                left.push("...".into());
            }
            continue;
        }
        let size: i64 = leaves.iter().product();
        let term = match (nested, g.below(10)) {
            // A symbol for the whole mode, sometimes with a keyword (right or wrong).
            (_, 0..=3) => {
                let s = names.next().unwrap();
                if g.chance(20) {
                    let v = if g.chance(60) { size } else { g.extent() };
                    sizes.push((s.clone(), v));
                }
                s
            }
            (_, 4) => "1".into(),
            // A group matching the nested mode (sometimes with the wrong arity).
            (true, _) => {
                let n = if g.chance(85) {
                    leaves.len()
                } else {
                    1 + g.below(3)
                };
                let members: Vec<String> = (0..n)
                    .map(|i| {
                        let e = leaves.get(i).copied().unwrap_or(2);
                        split_or_symbol(&mut g, &mut names, &mut sizes, e)
                    })
                    .collect();
                format!("({})", members.join(" "))
            }
            // A split of the leaf.
            (false, _) => split(&mut g, &mut names, &mut sizes, size),
        };
        left.push(term);
    }
    if let Some(a) = ellipsis_at
        && !left.iter().any(|t| t == "...")
    {
        left.insert(a.min(left.len()), "...".into());
    }
    // Sometimes a rank mistake.
    if g.chance(8) {
        left.push(names.next().unwrap());
    } else if g.chance(8) && !left.is_empty() {
        left.pop();
    }
    let left_syms: Vec<String> = left
        .join(" ")
        .split([' ', '(', ')'])
        .filter(|w| w.starts_with('s'))
        .map(String::from)
        .collect();
    // The right side: the left symbols shuffled, some omitted, `1`s, new symbols, groups.
    let mut right: Vec<String> = Vec::new();
    // A reduction omits (folds) a symbol more often.
    let omit = if kind == PatternKind::Reduce { 40 } else { 10 };
    for s in &left_syms {
        if !g.chance(omit) {
            right.insert(g.below(right.len() + 1), s.clone());
        }
    }
    for _ in 0..g.below(2) {
        right.insert(g.below(right.len() + 1), "1".into());
    }
    if kind == PatternKind::Repeat {
        for i in 0..1 + g.below(2) {
            let r = format!("r{i}");
            sizes.push((r.clone(), 1 + g.below(3) as i64));
            right.insert(g.below(right.len() + 1), r);
        }
    }
    if left.iter().any(|t| t == "...") {
        right.insert(g.below(right.len() + 1), "...".into());
    }
    if right.len() >= 2 && g.chance(40) {
        let a = g.below(right.len() - 1);
        let b = a + 1 + g.below(right.len() - a - 1);
        let group = format!("({})", right[a..=b].join(" "));
        right.splice(a..=b, [group]);
    }
    if right.is_empty() {
        right.push("1".into());
    }
    if left.is_empty() {
        left.push("...".into());
        if !right.iter().any(|t| t == "...") {
            right.push("...".into());
        }
    }
    Case {
        layout: format!("({}):({})", shape.join(","), stride.join(",")),
        pattern: format!("{} -> {}", left.join(" "), right.join(" ")),
        sizes,
        kind,
    }
}

fn split_or_symbol(
    g: &mut Gen,
    names: &mut impl Iterator<Item = String>,
    sizes: &mut Vec<(String, i64)>,
    extent: i64,
) -> String {
    match g.below(4) {
        0 => "1".into(),
        1 => split(g, names, sizes, extent),
        _ => names.next().unwrap(),
    }
}

/// A group splitting a leaf of `extent`: keywords for all but one factor (sometimes all,
/// sometimes none, sometimes wrong).
fn split(
    g: &mut Gen,
    names: &mut impl Iterator<Item = String>,
    sizes: &mut Vec<(String, i64)>,
    extent: i64,
) -> String {
    let k = 1 + g.below(3);
    let factors: Vec<String> = (0..k)
        .map(|_| {
            if g.chance(15) {
                "1".into()
            } else {
                names.next().unwrap()
            }
        })
        .collect();
    let syms: Vec<&String> = factors.iter().filter(|f| *f != "1").collect();
    let unknown = if syms.is_empty() {
        None
    } else {
        Some(g.below(syms.len()))
    };
    let mut left = extent;
    for (i, s) in syms.iter().enumerate() {
        if Some(i) == unknown && !g.chance(10) {
            continue;
        }
        if g.chance(10) {
            continue; // a second unknown
        }
        let v = if g.chance(85) {
            // A divisor of what is left.
            let ds: Vec<i64> = (1..=left).filter(|d| left % d == 0).collect();
            ds[g.below(ds.len())]
        } else {
            g.extent()
        };
        left = if left % v == 0 { left / v } else { left };
        sizes.push(((*s).clone(), v));
    }
    format!("({})", factors.join(" "))
}

/// The pattern as the macros emit it (leaked, as a test may).
fn code(
    text: &str,
    p: &Pattern<Range<usize>>,
    kind: PatternKind,
    sizes: &[(String, i64)],
) -> PatternCode {
    let e = encode_pattern(text, p).unwrap();
    let side = |s: EncodedSide| Side {
        toks: Box::leak(s.toks.into_boxed_slice()),
        strings: leak(s.strings),
    };
    let keywords: Vec<Keyword> = sizes
        .iter()
        .map(|(n, v)| Keyword {
            sym: e.symbol(n).unwrap(),
            value: *v,
        })
        .collect();
    PatternCode {
        op: match kind {
            PatternKind::Repeat => Op::Repeat,
            PatternKind::Reduce => Op::Reduce,
            _ => Op::Rearrange,
        },
        text: leak(text.to_string()),
        left_span: e.left_span,
        left: side(e.left),
        right: side(e.right),
        names: Box::leak(
            e.names
                .into_iter()
                .map(leak)
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        ),
        keywords: Box::leak(keywords.into_boxed_slice()),
    }
}

/// What the engine writes: profile tokens, extents, sources, multipliers.
type Written = (Vec<u8>, Vec<i64>, Vec<usize>, Vec<i64>);

/// Runs `f` with the static front end's scratch and output; what it wrote, when it returns
/// `true`.
fn run(f: impl FnOnce(&mut Scratch<'_>, &mut Out<'_>) -> bool) -> Option<Written> {
    let mut room = Room::NEW;
    let (mut s, mut out) = room.split();
    f(&mut s, &mut out).then(|| {
        let (nt, nl) = (out.ntoks, out.nleaves);
        (
            out.toks[..nt].to_vec(),
            out.extents[..nl].to_vec(),
            out.source[..nl].to_vec(),
            out.multiplier[..nl].to_vec(),
        )
    })
}

/// Runs one case; returns whether it was valid (for the statistics).
fn check(seed: u64) -> Option<bool> {
    let case = generate(seed);
    let layout: Layout = case.layout.parse().ok()?;
    let sizes: Vec<(&str, i64)> = case.sizes.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    // For a reduction: the view over the iteration space, and the kept (result) shape.
    let mut kept = None;
    let runtime = match case.kind {
        PatternKind::Rearrange => layout.rearrange(&case.pattern, &sizes),
        PatternKind::Repeat => layout.repeat(&case.pattern, &sizes),
        _ => {
            crate::pattern::run::Prepared::parse(layout.shape(), Op::Reduce, &case.pattern, &sizes)
                .map(|p| {
                    let plan = &p.plan;
                    kept = Some(plan.kept_shape());
                    plan.apply(&layout)
                })
        }
    };
    let what = format!(
        "{:?} on {} with {:?}",
        case.pattern, case.layout, case.sizes
    );
    // Pattern-only mistakes are the macros' compile errors; the engine never sees them.
    let pattern = parse_pattern(&case.pattern).unwrap_or_else(|e| panic!("{what}: {}", e.message));
    let kws: Vec<(&str, i64, Range<usize>)> = sizes.iter().map(|(n, v)| (*n, *v, 0..0)).collect();
    if check_pattern(&pattern, case.kind).is_err()
        || check_keywords(&pattern, case.kind, &kws).is_err()
    {
        assert!(
            runtime.is_err(),
            "{what}: the runtime accepts a pattern the macros reject"
        );
        return None;
    }
    let p = code(&case.pattern, &pattern, case.kind, &case.sizes);
    let src = ShapeCode::from_shape(layout.shape()).unwrap();
    // The fast path succeeds exactly when the checked path does, with the same result.
    let mut parts = vec![NO_PART; p.left.len() + src.ntoks as usize + p.right.len()];
    let mut msg = vec![0; MSG_CAP];
    let fast = run(|s, out| fast(src.view(), &p, s, out));
    let mut syms = vec![NO_SYM; p.names.len()];
    let checked = run(|_, out| {
        explain(
            src.view(),
            &p,
            &mut parts,
            &mut syms,
            out,
            &mut msg,
            MsgState::EMPTY,
        )
        .is_ok()
    });
    match (fast, checked) {
        (Some(a), Some(b)) => assert!(a == b, "{what}: the fast path differs"),
        (None, None) => {}
        (Some(_), None) => panic!("{what}: the fast path accepts a mistake"),
        (None, Some(_)) => panic!("{what}: the fast path gives up on a valid case"),
    }
    partly_static(seed, &src, &p, &layout, &runtime, &what);
    match (runtime, compile(&src, &p)) {
        (Ok(expected), Outcome::Ok(plan)) => {
            assert_eq!(plan.apply(&layout), expected, "{what}");
            if let Some(kept) = kept {
                let ours = crate::statics::reduce::kept(plan.shape(), plan.nkept);
                assert_eq!(ours.to_shape(), kept, "{what}: the kept shape");
            }
            Some(true)
        }
        (Err(e), Outcome::Err) => {
            let mut buf = [0; MSG_CAP];
            let m = message_into(Some(&src), &p, &mut buf);
            let runtime = e.to_string();
            let runtime = runtime.split_once(": ").unwrap().1;
            let ours = m.detail(&buf);
            let ours = ours
                .rsplit_once("\n  the tensor's shape is ")
                .map_or(ours, |(a, _)| a);
            assert_eq!(ours, runtime, "{what}");
            Some(false)
        }
        (Ok(l), Outcome::Err) => {
            let mut buf = [0; MSG_CAP];
            let m = message_into(Some(&src), &p, &mut buf);
            panic!(
                "{what}: the runtime gives {l}, compile says\n{}",
                m.text(&buf)
            )
        }
        (Err(e), _) => panic!("{what}: the runtime says {e}, compile accepts"),
        (Ok(_), _) => panic!("{what}: unexpected outcome"),
    }
}

/// Valid partly static cases whose plan was placed on the run-time extents, and those where
/// it gave up (the engine runs).
static PLACED: AtomicUsize = AtomicUsize::new(0);
static GAVE_UP: AtomicUsize = AtomicUsize::new(0);

/// The same case with some leaves known only at run time (extent 0 in the static shape): the
/// static check must accept every case the run time accepts (fast and explain agreeing), and
/// the compiler's plan placed on the run-time extents must give the run-time layout — or give
/// up (`None`: the engine runs) — and must give up on every case the run time refuses.
fn partly_static(
    seed: u64,
    src: &ShapeCode,
    p: &PatternCode,
    layout: &Layout,
    runtime: &crate::Result<Layout>,
    what: &str,
) {
    let mut g = Gen(seed.rotate_left(17) | 1);
    let mut blank = *src;
    for e in &mut blank.extents[..blank.nleaves as usize] {
        if g.chance(40) {
            *e = 0;
        }
    }
    let what = format!("{what}, static shape {blank}");
    let fast_ok = run(|s, out| fast(blank.view(), p, s, out)).is_some();
    let mut parts = vec![NO_PART; p.left.len() + blank.ntoks as usize + p.right.len()];
    let mut syms = vec![NO_SYM; p.names.len()];
    let mut msg = vec![0; MSG_CAP];
    let checked_ok = run(|_, out| {
        let st = MsgState::EMPTY;
        explain(blank.view(), p, &mut parts, &mut syms, out, &mut msg, st).is_ok()
    })
    .is_some();
    assert_eq!(fast_ok, checked_ok, "{what}: fast and explain disagree");
    match (runtime, compile(&blank, p)) {
        (Ok(expected), Outcome::Ok(plan)) => {
            let actual = layout.shape().leaves();
            match plan.with_runtime_extents(blank.leaves(), actual) {
                Some(placed) => {
                    assert_eq!(&placed.apply(layout), expected, "{what}: the placed plan");
                    PLACED.fetch_add(1, Ordering::Relaxed);
                }
                None => {
                    GAVE_UP.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        (Ok(_), _) => panic!("{what}: refused statically, accepted at run time"),
        (Err(_), Outcome::Ok(plan)) => {
            let actual = layout.shape().leaves();
            let placed = plan.with_runtime_extents(blank.leaves(), actual);
            assert!(
                placed.is_none(),
                "{what}: placed a plan the run time refuses"
            );
        }
        (Err(_), _) => {}
    }
}

#[test]
fn the_generator_covers_valid_and_invalid_cases() {
    let (mut valid, mut invalid) = (0, 0);
    for seed in 0..3000u64 {
        match check(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
            Some(true) => valid += 1,
            Some(false) => invalid += 1,
            None => {}
        }
    }
    assert!(
        valid > 300 && invalid > 300,
        "valid {valid}, invalid {invalid}"
    );
    // Giving up is for a keyword over a nested node with a run-time leaf, and an omitted
    // factor known only at run time: rare.
    let (placed, gave_up) = (
        PLACED.load(Ordering::Relaxed),
        GAVE_UP.load(Ordering::Relaxed),
    );
    assert!(
        placed > 200 && gave_up * 20 < placed,
        "placed {placed}, gave up {gave_up}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn compile_agrees_with_the_runtime(seed in any::<u64>()) {
        check(seed);
    }
}
