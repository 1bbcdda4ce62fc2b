//! The run-time front end: a pattern string parsed, checked and encoded once, compiled by the
//! engine on a layout's shape into a [`Plan`], which then applies to any layout of that shape
//! (the source's placement, its adjacent layouts, and the compact layout that autograd
//! records). Scratch and message buffers are sized from the input: no leaf or term limit.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use smallvec::{SmallVec, smallvec};
use strideweave_syntax::{
    EncodedPattern, NotationError, PatternKind, check_keywords, check_pattern, encode_pattern,
    parse_pattern,
};

use super::cache::{Cache, Key, prepared};
use super::code::{Keyword, Op, PatternCode, PatternRef};
use super::explain::{NO_PART, NO_SYM, explain};
use super::fast::fast;
use super::msg::{MSG_CAP, Msg, MsgState};
use super::plan::{INLINE, Out, Scratch};
use super::shape::{ShapeRef, byte};
use crate::error::{Error, Result};
use crate::layout::int_tuple::{too_deep, tuple_depth};
use crate::layout::{Layout, Shape};

pub(crate) use super::plan::Plan;

/// The inline scratch of small patterns on small shapes, in elements of each type (larger
/// scratch is on the heap, without a limit).
const SCRATCH: usize = 128;

/// A pattern string compiled on one shape: the plan, and the encoding it was compiled from
/// (for an einops operation, [`Op::is_einops`], the pattern as written, checked, encoded and
/// then mirrored by `EncodedPattern::mirror_groups`, so the engine reads every group's last
/// member fastest and its messages still quote the terms as written).
#[derive(Debug)]
pub(crate) struct Prepared {
    /// The plan on the shape.
    pub(crate) plan: Plan,
    /// The encoding the plan was compiled from.
    pub(crate) encoded: EncodedPattern,
}

thread_local! {
    /// The pattern strings this thread compiled, by operation, text, keywords and shape.
    static PREPARED: RefCell<Cache<Prepared>> = const { RefCell::new(Cache::new()) };
    /// The macros' patterns this thread compiled on dynamic shapes.
    static COMPILED: RefCell<Cache<Plan>> = const { RefCell::new(Cache::new()) };
}

impl Prepared {
    /// `text` for `op` on `shape` with keyword extents `sizes`: parsed, checked, encoded and
    /// compiled on the first call with these arguments on this thread, then kept
    /// ([`cache`](super::cache): bounded; mistakes are not kept, so they are found and
    /// worded again, the same way, on every call). Errors start with `op`'s method name
    /// (`rearrange: …`).
    pub(crate) fn parse(
        shape: &Shape,
        op: Op,
        text: &str,
        sizes: &[(&str, i64)],
    ) -> Result<Rc<Prepared>> {
        let mut key = Key::new(op, text, shape);
        for &(name, value) in sizes {
            key.name(name);
            key.int(value);
        }
        prepared(&PREPARED, &key, || {
            Prepared::uncached(shape, op, text, sizes)
        })
    }

    /// [`parse`](Prepared::parse) without the cache: the pattern read on every call.
    pub(crate) fn uncached(
        shape: &Shape,
        op: Op,
        text: &str,
        sizes: &[(&str, i64)],
    ) -> Result<Prepared> {
        let fail = |detail: String| Error::InvalidRearrange {
            op: op.method(),
            detail,
        };
        let lift = |e: NotationError<Range<usize>>| fail(e.render(text));
        let kind = match op.rule() {
            Op::Reduce => PatternKind::Reduce,
            Op::Repeat => PatternKind::Repeat,
            _ => PatternKind::Rearrange,
        };
        let pattern = parse_pattern(text).map_err(lift)?;
        check_pattern(&pattern, kind).map_err(lift)?;
        let keywords: Vec<(&str, i64, Range<usize>)> =
            sizes.iter().map(|&(n, v)| (n, v, 0..text.len())).collect();
        check_keywords(&pattern, kind, &keywords).map_err(|e| lift(e.into()))?;
        let mut e = encode_pattern(text, &pattern).map_err(fail)?;
        if op.is_einops() {
            e = e.mirror_groups();
        }
        let plan = Plan::encoded(shape, op, text, &e, &keywords).map_err(fail)?;
        Ok(Prepared { plan, encoded: e })
    }
}

impl Plan {
    /// Compiles the encoding of a checked pattern (spans in `text`) on `shape`, with the
    /// keyword extents that name its symbols (the front end checked every keyword); on a
    /// mistake, the message after the front end's name.
    pub(crate) fn encoded(
        shape: &Shape,
        op: Op,
        text: &str,
        e: &EncodedPattern,
        sizes: &[(&str, i64, Range<usize>)],
    ) -> std::result::Result<Plan, String> {
        let names: SmallVec<[&str; INLINE]> = e.names.iter().map(String::as_str).collect();
        // Looked up in constant time: a call may give any number of keywords.
        let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let keywords: SmallVec<[Keyword; INLINE]> = (sizes.iter())
            .filter_map(|&(n, value, _)| {
                Some(Keyword {
                    sym: *index.get(n)?,
                    value,
                })
            })
            .collect();
        let p = PatternRef::over(op, text, e, &names, &keywords);
        Plan::compile(shape, &p, false)
    }

    /// [`compile`](Plan::compile) of a macro's pattern on a dynamic shape, kept per thread
    /// by the pattern constant's address (one per macro call site: its text and keywords
    /// are not read again) and the shape (see [`Key::site`]; mistakes are not kept).
    pub(crate) fn compile_kept(
        shape: &Shape,
        p: &'static PatternCode,
        shape_line: bool,
    ) -> std::result::Result<Rc<Plan>, String> {
        let key = Key::site(p.op, p, shape);
        prepared(&COMPILED, &key, || Plan::compile(shape, p, shape_line))
    }

    /// Compiles an encoded pattern on `shape`; on a mistake, the message after the front
    /// end's name, ending with the tensor's shape when `shape_line` (as the macros say it)
    /// and the message does not name it already.
    pub(crate) fn compile(
        shape: &Shape,
        p: &PatternRef<'_>,
        shape_line: bool,
    ) -> std::result::Result<Plan, String> {
        let profile = shape.profile();
        let (nleaves, ntoks) = (shape.leaves().len(), profile.len());
        let (nsym, nleft, nright) = (p.names.len(), p.left.len(), p.right.len());
        // Room for every result leaf and token: the source's plus one per right-side token,
        // plus, for a reduction, one per left-side token (a split leaf's reduced factors are
        // listed after the result: `(a b c) -> 1` on one leaf writes four leaves).
        let extra = if matches!(p.op.rule(), Op::Reduce) {
            nleft
        } else {
            0
        };
        let (cap_leaves, cap_toks) = (nleaves + nright + extra, ntoks + nright + extra);
        let depth = ntoks / 2 + 2;
        let mut bytes: SmallVec<[u8; SCRATCH]> = smallvec![0; ntoks + 2 * nsym + cap_toks];
        let mut words: SmallVec<[usize; SCRATCH]> = smallvec![0; 3 * nsym + 3 * depth + cap_leaves];
        let mut ints: SmallVec<[i64; SCRATCH]> = smallvec![0; 3 * nsym + 2 * cap_leaves];
        let (src_toks, bytes) = bytes.split_at_mut(ntoks);
        for (b, &t) in src_toks.iter_mut().zip(profile) {
            *b = byte(t);
        }
        let src = ShapeRef {
            toks: src_toks,
            ntoks,
            extents: shape.leaves(),
            nleaves,
            int_root: shape.as_int_tuple().is_int(),
        };
        let (sides, bytes) = bytes.split_at_mut(nsym);
        let (kind, out_toks) = bytes.split_at_mut(nsym);
        let (t0, words) = words.split_at_mut(nsym);
        let (t1, words) = words.split_at_mut(nsym);
        let (leaf0, words) = words.split_at_mut(nsym);
        let (cur, words) = words.split_at_mut(depth);
        let (end, words) = words.split_at_mut(depth);
        let (leaf, source) = words.split_at_mut(depth);
        let (given, ints) = ints.split_at_mut(nsym);
        let (extent, ints) = ints.split_at_mut(nsym);
        let (mult, ints) = ints.split_at_mut(nsym);
        let (extents, multiplier) = ints.split_at_mut(cap_leaves);
        let mut out = Out {
            toks: out_toks,
            ntoks: 0,
            extents,
            source,
            multiplier,
            nleaves: 0,
            nkept: 0,
        };
        let mut scratch = Scratch {
            given,
            sides,
            kind,
            t0,
            t1,
            leaf0,
            extent,
            mult,
            cur,
            end,
            leaf,
        };
        if !fast(src, p, &mut scratch, &mut out) {
            let mut parts = vec![NO_PART; nleft + nright + ntoks];
            let mut syms = vec![NO_SYM; nsym];
            let mut cap = MSG_CAP;
            loop {
                let mut msg = vec![0u8; cap];
                if let Err(st) = explain(
                    src,
                    p,
                    &mut parts,
                    &mut syms,
                    &mut out,
                    &mut msg,
                    MsgState::EMPTY,
                ) {
                    let mut m = Msg::resume(&mut msg, st);
                    if shape_line && !st.names_shape() {
                        m.str("\n  the tensor's shape is ");
                        m.shape(src);
                    }
                    let st = m.state();
                    if st.is_full() {
                        cap *= 4;
                        continue;
                    }
                    return Err(st.text(&msg).to_string());
                }
                break;
            }
        }
        let (nt, nl) = (out.ntoks, out.nleaves);
        let plan = Plan {
            toks: out.toks[..nt].into(),
            ntoks: nt,
            extents: out.extents[..nl].into(),
            source: out.source[..nl].into(),
            multiplier: out.multiplier[..nl].into(),
            nleaves: nl,
            nkept: out.nkept,
            op: p.op,
        };
        // Each side is at most MAX_NESTING deep, but a right group around a nested symbol
        // adds their depths.
        if let Some(reason) = too_deep("the result would nest", tuple_depth(&plan.profile(nt))) {
            return Err(reason);
        }
        Ok(plan)
    }
}

impl Layout {
    /// Rearranges the layout by a pattern: a zero-copy view.
    ///
    /// The left side mirrors the source hierarchy top-down: each top-level term matches a
    /// top-level mode, a symbol names the whole sublayout at its place (leaf or nested), a
    /// group matches a nested mode child by child, `1` matches an extent-one sublayout (which
    /// is dropped) and `...` matches zero or more whole top-level modes. On the right every
    /// left symbol appears once (a left symbol of extent 1 may be omitted), `1` inserts an
    /// extent-one, stride-zero mode, a group builds one nested mode from its contents (which
    /// keep their own hierarchy) and `...` places the captured modes in order.
    ///
    /// `sizes` gives keyword extents (each at least 1). A left group on a *leaf* mode splits
    /// that leaf: all of its names but at most one need a keyword, the missing one is
    /// inferred, the product must equal the leaf's extent, and the first name varies fastest
    /// (strides `d, d·e₁, …`). A keyword on any other symbol asserts the extent (size) of the
    /// sublayout it names. A thread reads the pattern on its first call with this pattern,
    /// keywords and shape and keeps the result (a bounded cache, einops' recipe cache);
    /// there is no limit on the number of leaves or terms.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.rearrange("a (b c) -> c b a", &[]).unwrap().to_string(), "(4,3,2):(6,2,1)");
    /// // A symbol names a whole nested mode; a group builds one.
    /// assert_eq!(l.rearrange("a bc -> (bc a) 1", &[]).unwrap().to_string(), "(((3,4),2),1):(((2,6),1),0)");
    ///
    /// // Splitting a leaf: the first name varies fastest.
    /// let l: Layout = "(12,5):(1,12)".parse().unwrap();
    /// let v = l.rearrange("(h w) c -> h w c", &[("h", 4)]).unwrap();
    /// assert_eq!(v.to_string(), "(4,3,5):(1,4,12)");
    ///
    /// // `...` stands for whole top-level modes.
    /// let l: Layout = "(2,3,4,5):(1,2,6,24)".parse().unwrap();
    /// let v = l.rearrange("a ... d -> d ... a", &[]).unwrap();
    /// assert_eq!(v.to_string(), "(5,3,4,2):(24,2,6,1)");
    ///
    /// // Errors quote the pattern and mark the offending term.
    /// let err = "(10,5):(1,10)".parse::<Layout>().unwrap()
    ///     .rearrange("(h w) c -> h w c", &[("h", 3)]).unwrap_err();
    /// assert_eq!(err.kind(), strideweave::ErrorKind::Value);
    /// assert_eq!(err.to_string(), "\
    /// rearrange: h = 3 does not divide extent 10 of mode 0, which the group `(h w)` on the left, term 0 splits
    ///   (h w) c -> h w c
    ///   ^^^^^");
    /// ```
    pub fn rearrange(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<Layout> {
        Prepared::parse(self.shape(), Op::Rearrange, pattern, sizes).map(|p| p.plan.apply(self))
    }

    /// einops' `repeat` as a zero-copy view: like [`rearrange`](Layout::rearrange), and a
    /// right symbol absent on the left is a new mode of the keyword extent (≥ 1) with
    /// stride 0, at top level or inside a group.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "(3,4):(1,3)".parse().unwrap();
    /// let v = l.repeat("h w -> h (w r)", &[("r", 2)]).unwrap();
    /// assert_eq!(v.to_string(), "(3,(4,2)):(1,(3,0))");
    /// let v = l.repeat("h w -> b w h", &[("b", 5)]).unwrap();
    /// assert_eq!(v.to_string(), "(5,4,3):(0,3,1)");
    /// let err = l.repeat("h w -> h w r", &[]).unwrap_err();
    /// assert!(err.to_string().contains("new symbol `r` on the right, term 2 needs an extent"));
    /// ```
    pub fn repeat(&self, pattern: &str, sizes: &[(&str, i64)]) -> Result<Layout> {
        Prepared::parse(self.shape(), Op::Repeat, pattern, sizes).map(|p| p.plan.apply(self))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::super::cache::{MAX_KEY, SLOTS};
    use super::{COMPILED, PREPARED, Prepared};
    use crate::layout::{Layout, Shape};
    use crate::pattern::Op;

    fn kept() -> (usize, usize) {
        PREPARED.with(|c| (c.borrow().len(), c.borrow().key_bytes()))
    }

    #[test]
    fn a_cached_call_returns_the_same_view_as_an_uncached_one() {
        type Case<'a> = (&'a str, Op, &'a str, &'a [(&'a str, i64)]);
        let cases: [Case; 6] = [
            (
                "(2,(3,4)):(1,(2,6))",
                Op::Rearrange,
                "a (b c) -> c b a",
                &[],
            ),
            (
                "(12,5):(1,12)",
                Op::Rearrange,
                "(h w) c -> h w c",
                &[("h", 4)],
            ),
            (
                "(12,5):(1,12)",
                Op::Rearrange,
                "(h w) c -> h w c",
                &[("h", 3)],
            ),
            ("(3,4):(1,3)", Op::Repeat, "h w -> h (w r)", &[("r", 2)]),
            (
                "(3,4):(1,3)",
                Op::EinopsRepeat,
                "h w -> h (w r)",
                &[("r", 2)],
            ),
            ("(2,3,4):(1,2,6)", Op::Reduce, "a b c -> c a", &[]),
        ];
        for (layout, op, pattern, sizes) in cases {
            let l: Layout = layout.parse().unwrap();
            let fresh = Prepared::uncached(l.shape(), op, pattern, sizes).unwrap();
            for _ in 0..2 {
                let p = Prepared::parse(l.shape(), op, pattern, sizes).unwrap();
                assert_eq!(p.plan, fresh.plan, "{pattern} with {sizes:?}");
                assert_eq!(p.encoded, fresh.encoded, "{pattern}");
                assert_eq!(p.plan.apply(&l), fresh.plan.apply(&l), "{pattern}");
            }
        }
        // Keys tell apart what the plan depends on: the keyword's value, the operation, the
        // shape, and an integer root against a one-mode tuple.
        let l: Layout = "(12,5):(1,12)".parse().unwrap();
        let h4 = l.rearrange("(h w) c -> h w c", &[("h", 4)]).unwrap();
        let h3 = l.rearrange("(h w) c -> h w c", &[("h", 3)]).unwrap();
        assert_eq!(
            (h4.to_string(), h3.to_string()),
            ("(4,3,5):(1,4,12)".into(), "(3,4,5):(1,3,12)".into())
        );
        let l: Layout = "(3,4):(1,3)".parse().unwrap();
        let ours = l.repeat("h w -> h (w r)", &[("r", 2)]).unwrap();
        let einops = Prepared::parse(l.shape(), Op::EinopsRepeat, "h w -> h (w r)", &[("r", 2)])
            .unwrap()
            .plan
            .apply(&l);
        assert_eq!(ours.to_string(), "(3,(4,2)):(1,(3,0))");
        assert_eq!(einops.to_string(), "(3,(2,4)):(1,(0,3))");
        for text in ["6:1", "(6):(1)", "6:1"] {
            let l: Layout = text.parse().unwrap();
            let fresh = Prepared::uncached(l.shape(), Op::Rearrange, "a -> a 1", &[]).unwrap();
            let kept = l.rearrange("a -> a 1", &[]).unwrap();
            assert_eq!(kept, fresh.plan.apply(&l), "{text}");
            assert_eq!(kept.to_string(), "(6,1):(1,0)");
        }
    }

    #[test]
    fn a_pattern_found_by_its_address_is_still_compared_whole() -> crate::error::Result<()> {
        // One buffer, rewritten in place (same address, same length) between calls: the
        // address only says where to look first.
        let l: Layout = "(2,3,4):(1,2,6)".parse()?;
        let mut text = String::from("a b c -> c b a");
        let addr = text.as_ptr();
        let first = l.rearrange(&text, &[])?;
        text.replace_range(9.., "b a c");
        assert_eq!(text.as_ptr(), addr, "rewritten in place");
        let second = l.rearrange(&text, &[])?;
        assert_eq!(first.to_string(), "(4,3,2):(6,2,1)");
        assert_eq!(second.to_string(), "(3,2,4):(2,1,6)");
        // The same text on other shapes, other texts in turn, and the first shape again.
        let other: Layout = "(5,6,7):(1,5,30)".parse()?;
        for _ in 0..3 {
            assert_eq!(l.rearrange(&text, &[])?, second);
            let o = other.rearrange(&text, &[])?;
            assert_eq!(o.to_string(), "(6,5,7):(5,1,30)");
            let k = l.rearrange("a b c -> (a b) c", &[])?;
            assert_eq!(k.to_string(), "((2,3),4):((1,2),6)");
        }
        Ok(())
    }

    #[test]
    fn a_bad_pattern_errors_identically_twice() {
        let l: Layout = "(10,5):(1,10)".parse().unwrap();
        let bad: [(&str, &[(&str, i64)]); 3] = [
            ("(h w) c -> h w c", &[("h", 3)]),
            ("a b -> a", &[]),
            ("a b -> (a", &[]),
        ];
        for (pattern, sizes) in bad {
            let before = kept();
            let once = l.rearrange(pattern, sizes).unwrap_err();
            let twice = l.rearrange(pattern, sizes).unwrap_err();
            let fresh = Prepared::uncached(l.shape(), Op::Rearrange, pattern, sizes).unwrap_err();
            assert_eq!(once.to_string(), twice.to_string());
            assert_eq!(once.to_string(), fresh.to_string());
            assert_eq!(once.kind(), twice.kind());
            assert_eq!(kept(), before, "a mistake is not kept");
        }
        // The same pattern, valid on another shape, is kept there and still refused here.
        let ok: Layout = "(12,5):(1,12)".parse().unwrap();
        assert!(ok.rearrange("(h w) c -> h w c", &[("h", 3)]).is_ok());
        let again = l.rearrange("(h w) c -> h w c", &[("h", 3)]).unwrap_err();
        assert!(
            again
                .to_string()
                .contains("h = 3 does not divide extent 10"),
            "{again}"
        );
    }

    #[test]
    fn the_cache_stays_bounded_after_10000_distinct_patterns() {
        let l: Layout = "(2,3):(1,2)".parse().unwrap();
        for i in 0..10_000 {
            let v = l.rearrange(&format!("a{i} b -> b a{i}"), &[]).unwrap();
            assert_eq!(v.to_string(), "(3,2):(2,1)");
        }
        let (n, bytes) = kept();
        assert!(n > 0 && n <= SLOTS, "{n} kept");
        assert!(bytes <= SLOTS * MAX_KEY, "{bytes} key bytes");
        // A key longer than MAX_KEY is never kept.
        let long = format!("{} b -> b {}", "a".repeat(MAX_KEY), "a".repeat(MAX_KEY));
        let before = kept();
        assert_eq!(l.rearrange(&long, &[]).unwrap().to_string(), "(3,2):(2,1)");
        assert_eq!(kept(), before, "the long key was not kept");
        // The macros' cache is bounded alike: 10,000 shapes, one pattern (encoded as the
        // string front end encodes it, which is what the macros emit).
        let text = "a b -> b a";
        let e = Prepared::uncached(l.shape(), Op::Rearrange, text, &[])
            .unwrap()
            .encoded;
        // A macro's pattern is a `'static` constant: leaked here to stand for one.
        let e = Box::leak(Box::new(e));
        let names: &'static [&'static str] =
            Vec::leak(e.names.iter().map(String::as_str).collect());
        let code: &'static crate::pattern::PatternCode = Box::leak(Box::new(
            crate::pattern::PatternRef::over(Op::Rearrange, text, e, names, &[]),
        ));
        for i in 1..=10_000 {
            let s: Shape = format!("({i},2)").parse().unwrap();
            let plan = Layout::compact(&s).rearrange("a b -> b a", &[]).unwrap();
            let kept_plan = super::Plan::compile_kept(&s, code, true).unwrap();
            assert_eq!(kept_plan.apply(&Layout::compact(&s)), plan);
        }
        let n = COMPILED.with(|c| c.borrow().len());
        assert!(n > 0 && n <= SLOTS, "{n} kept");
    }

    /// Patterns read at run time have no length limit: one longer than 65,535 characters (the
    /// old `u16` encoding's limit) rearranges, or is refused for what it says, quickly.
    /// What "quickly" means: a bound that tells linear work from quadratic (which takes
    /// minutes at these sizes), with room for an unoptimised build on a loaded machine.
    const QUICKLY: Duration = Duration::from_secs(10);

    fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
        let t = Instant::now();
        let out = f();
        (out, t.elapsed())
    }

    #[test]
    fn a_run_time_pattern_has_no_length_limit_long_symbol_names() {
        let long = "a".repeat(70_000);
        let pattern = format!("{long} b -> b {long}");
        let l: Layout = "(2,3):(1,2)".parse().unwrap();
        let (v, took) = timed(|| l.rearrange(&pattern, &[]));
        assert_eq!(v.unwrap().to_string(), "(3,2):(2,1)");
        assert!(took < QUICKLY, "{took:?}");
    }

    #[test]
    fn a_run_time_pattern_has_no_term_limit_seventy_thousand_units() {
        let n = 70_000;
        let units = " 1".repeat(n);
        let pattern = format!("a{units} -> a");
        assert!(pattern.len() > 65_535);
        // Refused for its rank, with the rank message.
        let l: Layout = "5:1".parse().unwrap();
        let (err, took) = timed(|| l.rearrange(&pattern, &[]).unwrap_err().to_string());
        assert!(
            err.starts_with(
                "rearrange: the left side has 70001 terms but the source has 1 top-level mode"
            ),
            "{}",
            &err[..err.len().min(200)]
        );
        assert!(!err.contains("macros"));
        assert!(took < QUICKLY, "{took:?}");
        // Rearranged on a layout of matching rank: the `1`s drop their extent-one modes.
        let l: Layout = format!("(5{}):(1{})", ",1".repeat(n), ",0".repeat(n))
            .parse()
            .unwrap();
        let (v, took) = timed(|| l.rearrange(&pattern, &[]));
        assert_eq!(v.unwrap().to_string(), "(5):(1)");
        assert!(took < QUICKLY, "{took:?}");
    }
}
