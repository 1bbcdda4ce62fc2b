//! The shape rule of rearrangement patterns as one non-panicking `const fn`, [`compile`]:
//! from a source shape and a pattern to the result's shape and a [`Plan`] (where each result
//! leaf takes its stride from), or to the message of the first mistake.
//!
//! The compiler runs it on static shapes (a failure becomes a compile error at the user's
//! line); the dynamic path runs the same function at run time, so both report the same text.
//! The rules and messages mirror `Layout::rearrange_pattern` (`layout/pattern.rs`); the
//! integration tests check that both agree.
//!
//! Messages travel by value (`Result<_, Msg>`, about 1 KiB): a `const fn` cannot box, and a
//! message is built at most once per check.
#![allow(clippy::result_large_err, clippy::large_enum_variant)]

mod fast;
mod output;
mod split;
#[cfg(test)]
mod tests;

use super::code::{LEAF, MAX_LEAVES, MAX_TOKENS, ShapeCode};
use super::msg::{Msg, leaves_in, node_end};
use super::pattern::{Op, PatternCode, Side, Tok, TokKind};
use output::{new_symbols, omitted, place};
use split::split;

/// A plan's marker for a leaf without a source (an inserted `1` or a new `repeat` mode):
/// its stride is 0.
pub const NO_SOURCE: u8 = u8::MAX;

/// Where each leaf of a rearrangement's result takes its stride from: leaf `k`'s stride is
/// `multiplier[k]` times the stride of source leaf `source[k]` (0 without a source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    source: [u8; MAX_LEAVES],
    multiplier: [i64; MAX_LEAVES],
    len: usize,
    /// The macro, named in the view's errors.
    pub(crate) op: Op,
}

impl Plan {
    /// The result's strides from the source's. A product that overflows can only belong to
    /// an extent-one leaf after a split, whose stride is immaterial (contracts D5): it is 0.
    pub fn strides(&self, source: &[i64]) -> Vec<i64> {
        let mut out = [0; MAX_LEAVES];
        self.strides_into(source, &mut out).to_vec()
    }

    /// [`strides`](Plan::strides) without an allocation: written into `out`, returned as
    /// the filled prefix.
    pub(crate) fn strides_into<'o>(
        &self,
        source: &[i64],
        out: &'o mut [i64; MAX_LEAVES],
    ) -> &'o [i64] {
        for (k, o) in out.iter_mut().enumerate().take(self.len) {
            *o = match self.source[k] {
                NO_SOURCE => 0,
                s => source[s as usize]
                    .checked_mul(self.multiplier[k])
                    .unwrap_or(0),
            };
        }
        &out[..self.len]
    }
}

/// What [`compile`] decides. A failure carries no message (it would add a kilobyte to every
/// result the compiler keeps); [`message`] words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The result's shape and plan.
    Ok(ShapeCode, Plan),
    /// The pattern's own checks passed; the shape is only known at run time.
    Unchecked,
    /// The source is the result of an earlier failed check: accepted silently.
    Poisoned,
    /// A mistake: [`message`] says which.
    Err,
}

/// What the checked path ([`explain`]) decides: an [`Outcome`] with the message of a failure.
#[derive(Clone, Copy)]
pub(crate) enum Checked {
    Ok(ShapeCode, Plan),
    Poisoned,
    Err(Msg),
}

/// `?` for `const fn`s.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
use tri;

const MAX_PARTS: usize = 32;
const MAX_DEPTH: usize = 8;
/// The most children a nested mode has (each takes at least two profile tokens, or a leaf).
const MAX_CHILDREN: usize = MAX_TOKENS / 2;

const PART_SYMBOL: u8 = 0;
const PART_UNIT: u8 = 1;
const PART_CAPTURED: u8 = 2;
const PART_NEW: u8 = 3;

/// A mode's path in the source (`1.0`).
#[derive(Clone, Copy)]
struct Path {
    idx: [u8; MAX_DEPTH],
    len: u8,
}

impl Path {
    const fn one(i: usize) -> Path {
        let mut p = Path {
            idx: [0; MAX_DEPTH],
            len: 1,
        };
        p.idx[0] = i as u8;
        p
    }

    const fn child(&self, j: usize) -> Path {
        let mut p = *self;
        if (p.len as usize) < MAX_DEPTH {
            p.idx[p.len as usize] = j as u8;
            p.len += 1;
        }
        p
    }
}

/// A sublayout of the source: tokens `t0..t1`, first leaf `l0`.
#[derive(Clone, Copy)]
struct Node {
    t0: u8,
    t1: u8,
    l0: u8,
}

impl Node {
    const fn new(t0: usize, t1: usize, l0: usize) -> Node {
        Node {
            t0: t0 as u8,
            t1: t1 as u8,
            l0: l0 as u8,
        }
    }
}

/// What one selection leaf extracts, in depth-first order (as `layout/pattern.rs`'s `Part`).
#[derive(Clone, Copy)]
struct Part {
    kind: u8,
    sym: u16,
    node: Node,
    /// A factor of a split leaf: leaf `node.l0`, `extent`, stride multiplier `mult`.
    split: bool,
    extent: i64,
    mult: i64,
    size: i64,
    mp: Path,
}

const NO_PART: Part = Part {
    kind: PART_UNIT,
    sym: 0,
    node: Node::new(0, 0, 0),
    split: false,
    extent: 1,
    mult: 1,
    size: 1,
    mp: Path {
        idx: [0; MAX_DEPTH],
        len: 0,
    },
};

struct Compiler<'a> {
    src: &'a ShapeCode,
    p: &'a PatternCode,
    parts: [Part; MAX_PARTS],
    nparts: usize,
}

/// Checks `p` against the source shape `src` and computes the result. Never panics; a
/// poisoned source gives [`Outcome::Poisoned`].
///
/// ```
/// use strideweave::{StaticShape, shape_t};
/// use strideweave::__private::{Op, Outcome, PatternCode, Side, compile, message};
/// use strideweave_syntax::{EncodedSide, encode_pattern, parse_pattern};
/// // What `rearrange!(t, "a b -> b a")` emits, built at run time.
/// let text = "a b -> b a";
/// let e = encode_pattern(text, &parse_pattern(text).unwrap()).unwrap();
/// let side = |s: EncodedSide| Side { toks: s.toks.leak(), strings: s.strings.leak() };
/// let p = PatternCode {
///     op: Op::Rearrange,
///     text,
///     left: side(e.left),
///     right: side(e.right),
///     left_span: (0, 3),
///     names: &["a", "b"],
///     keywords: &[],
/// };
/// let p = &p;
/// let Outcome::Ok(s, _) = compile(&<shape_t!(2, 3)>::SHAPE, p) else { panic!() };
/// assert_eq!(s.to_string(), "(3,2)");
/// let s3 = <shape_t!(2, 3, 4)>::SHAPE;
/// assert_eq!(compile(&s3, p), Outcome::Err);
/// assert_eq!(message(Some(&s3), p).as_str(), "\
/// rearrange!: the left side has 2 terms but the source has 3 top-level modes (shape (2,3,4))
///   a b -> b a
///   ^^^");
/// ```
pub const fn compile(src: &ShapeCode, p: &PatternCode) -> Outcome {
    // Fields, not accessors, on the compiler's hot path (see `fast`).
    if !src.poisoned
        && let Some((shape, plan)) = fast::plan(src, p)
    {
        return Outcome::Ok(shape, plan);
    }
    match explain(src, p) {
        Checked::Ok(shape, plan) => Outcome::Ok(shape, plan),
        Checked::Poisoned => Outcome::Poisoned,
        Checked::Err(_) => Outcome::Err,
    }
}

/// The message of the mistake that made [`compile`] (for `Some(src)`) or [`check_pattern`]
/// (for `None`) fail; a note that there is none otherwise.
pub const fn message(src: Option<&ShapeCode>, p: &PatternCode) -> Msg {
    let checked = match src {
        Some(src) => explain(src, p),
        None => match keywords(p) {
            Err(m) => Checked::Err(m),
            Ok(()) => Checked::Poisoned,
        },
    };
    match checked {
        Checked::Err(m) => m,
        _ => {
            let mut m = begin(p);
            m.str("no mistake");
            m
        }
    }
}

/// [`compile`]'s checked path: every rule in order, with a message for the first mistake.
/// Slow under the compiler's interpreter (see `fast`), so it runs only when the fast path
/// has found something wrong.
pub(crate) const fn explain(src: &ShapeCode, p: &PatternCode) -> Checked {
    if let Err(m) = keywords(p) {
        return Checked::Err(m);
    }
    if src.is_poisoned() {
        return Checked::Poisoned;
    }
    let mut c = Compiler {
        src,
        p,
        parts: [NO_PART; MAX_PARTS],
        nparts: 0,
    };
    match run(&mut c) {
        Ok((s, plan)) => Checked::Ok(s, plan),
        Err(mut m) => {
            if !m.names_shape() {
                m.str("\n  the tensor's shape is ");
                m.shape(src);
            }
            Checked::Err(m)
        }
    }
}

/// The checks that need only the pattern and its keyword values (for a tensor whose shape
/// is known only at run time).
pub const fn check_pattern(p: &PatternCode) -> Outcome {
    match keywords(p) {
        Err(_) => Outcome::Err,
        Ok(()) => Outcome::Unchecked,
    }
}

/// A message starting with the macro's name.
const fn begin(p: &PatternCode) -> Msg {
    let mut m = Msg::new();
    m.str(p.op.name());
    m.str(": ");
    m.mark();
    m
}

/// Ends a message with the pattern quoted and carets under columns `start..end`.
const fn finish(mut m: Msg, p: &PatternCode, start: u32, end: u32) -> Msg {
    m.set_anchor(start);
    m.str("\n  ");
    m.str(p.text);
    m.str("\n  ");
    m.repeat(" ", start as usize);
    let n = if end > start { end - start } else { 1 };
    m.repeat("^", n as usize);
    m
}

const fn at(m: Msg, p: &PatternCode, t: &Tok) -> Msg {
    finish(m, p, t.start, t.end)
}

const fn chars(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if (b[i] & 0xC0) != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn keyword(p: &PatternCode, sym: u16) -> Option<i64> {
    let mut i = 0;
    while i < p.keywords.len() {
        if p.keywords[i].sym == sym {
            return Some(p.keywords[i].value as i64);
        }
        i += 1;
    }
    None
}

/// The first occurrence of a symbol: its side name and token (left first).
const fn find_symbol(p: &PatternCode, sym: u16) -> (&'static str, Tok) {
    let mut i = 0;
    while i < p.left.len() {
        if matches!(p.left.get(i).kind, TokKind::Symbol) && p.left.get(i).sym == sym {
            return ("left", p.left.get(i));
        }
        i += 1;
    }
    let mut i = 0;
    while i < p.right.len() {
        if matches!(p.right.get(i).kind, TokKind::Symbol) && p.right.get(i).sym == sym {
            return ("right", p.right.get(i));
        }
        i += 1;
    }
    ("right", Tok::close())
}

const fn on_side(toks: Side, sym: u16) -> bool {
    let mut i = 0;
    while i < toks.len() {
        if matches!(toks.get(i).kind, TokKind::Symbol) && toks.get(i).sym == sym {
            return true;
        }
        i += 1;
    }
    false
}

/// Keyword values that the macro could not check (constants): each fits in `i64` and is at
/// least 1 (`check_keywords`' messages).
const fn keywords(p: &PatternCode) -> Result<(), Msg> {
    let mut i = 0;
    while i < p.keywords.len() {
        let k = p.keywords[i];
        if k.value > i64::MAX as usize {
            let name = p.names[k.sym as usize];
            let mut m = begin(p);
            m.str("keyword `");
            m.str(name);
            m.str(" = ");
            m.uint(k.value as u64);
            m.str("` does not fit in i64");
            return Err(finish(m, p, 0, chars(p.text)));
        }
        i += 1;
    }
    let mut i = 0;
    while i < p.keywords.len() {
        let k = p.keywords[i];
        if k.value == 0 {
            let name = p.names[k.sym as usize];
            let (side, t) = find_symbol(p, k.sym);
            let mut m = begin(p);
            m.str("keyword `");
            m.str(name);
            m.str(" = 0` for `");
            m.str(name);
            m.str("` on the ");
            m.str(side);
            m.str(", term ");
            m.str(t.path);
            m.str(": an extent must be at least 1");
            return Err(at(m, p, &t));
        }
        i += 1;
    }
    Ok(())
}

/// The index of the term after the one at `i`.
const fn next_term(toks: Side, i: usize) -> usize {
    match toks.get(i).kind {
        TokKind::Open => toks.get(i).close as usize + 1,
        _ => i + 1,
    }
}

/// The sibling nodes of tokens `from..to` (first leaf `l0`).
const fn siblings(
    c: &ShapeCode,
    from: usize,
    to: usize,
    l0: usize,
) -> ([Node; MAX_CHILDREN], usize) {
    let mut out = [Node::new(0, 0, 0); MAX_CHILDREN];
    let mut n = 0;
    let mut t = from;
    let mut l = l0;
    while t < to {
        let end = node_end(c, t);
        out[n] = Node::new(t, end, l);
        n += 1;
        l += leaves_in(c, t, end);
        t = end;
    }
    (out, n)
}

const fn node_size(c: &ShapeCode, n: Node) -> i64 {
    let k = leaves_in(c, n.t0 as usize, n.t1 as usize);
    let mut p = 1i64;
    let mut i = 0;
    while i < k {
        p = p.saturating_mul(c.extent((n.l0 as usize) + i));
        i += 1;
    }
    p
}

const fn is_leaf(c: &ShapeCode, n: Node) -> bool {
    c.tok(n.t0 as usize) == LEAF
}

const fn mode(m: &mut Msg, mp: &Path) {
    m.str("mode ");
    let mut i = 0;
    while i < mp.len as usize {
        if i > 0 {
            m.str(".");
        }
        m.int(mp.idx[i] as i64);
        i += 1;
    }
}

/// "extent 5" for a leaf, "size 12 (shape (3,4))" for a nested sublayout.
const fn describe(m: &mut Msg, c: &ShapeCode, n: Node) {
    if is_leaf(c, n) {
        m.str("extent ");
        m.int(c.extent(n.l0 as usize));
    } else {
        m.str("size ");
        m.int(node_size(c, n));
        m.str(" (shape ");
        m.node(c, n.t0 as usize, n.l0 as usize);
        m.str(")");
    }
}

const fn push(c: &mut Compiler<'_>, part: Part) -> Result<(), Msg> {
    if c.nparts == MAX_PARTS {
        let mut m = begin(c.p);
        m.str("the pattern extracts more than 32 sublayouts, more than the macros handle");
        return Err(finish(m, c.p, 0, chars(c.p.text)));
    }
    c.parts[c.nparts] = part;
    c.nparts += 1;
    Ok(())
}

const fn run(c: &mut Compiler<'_>) -> Result<(ShapeCode, Plan), Msg> {
    tri!(match_left(c));
    tri!(omitted(c));
    tri!(new_symbols(c));
    place(c)
}

const fn match_left(c: &mut Compiler<'_>) -> Result<(), Msg> {
    let (src, p) = (c.src, c.p);
    let (top, rank) = if src.is_int() {
        let mut top = [Node::new(0, 0, 0); MAX_CHILDREN];
        top[0] = Node::new(0, 1, 0);
        (top, 1)
    } else {
        siblings(src, 0, src.ntoks(), 0)
    };
    let toks = p.left;
    let mut named = 0;
    let mut ellipsis = false;
    let mut i = 0;
    let mut past_rank = p.left_span.0;
    while i < toks.len() {
        if matches!(toks.get(i).kind, TokKind::Ellipsis) {
            ellipsis = true;
        } else {
            if named == rank {
                past_rank = toks.get(i).start;
            }
            named += 1;
        }
        i = next_term(toks, i);
    }
    if (ellipsis && named > rank) || (!ellipsis && named != rank) {
        let mut m = begin(p);
        m.str("the left side has ");
        m.plural(named, "term");
        m.str(if ellipsis {
            " besides `...` but the source has only "
        } else {
            " but the source has "
        });
        m.plural(rank, "top-level mode");
        m.str(" (shape ");
        m.shape(src);
        m.str(")");
        m.set_names_shape();
        // Too many terms: the carets start at the first term beyond the rank.
        let start = if !ellipsis && named > rank {
            past_rank
        } else {
            p.left_span.0
        };
        return Err(finish(m, p, start, p.left_span.1));
    }
    let captured = rank - named;
    let mut at_mode = 0;
    let mut i = 0;
    while i < toks.len() {
        if matches!(toks.get(i).kind, TokKind::Ellipsis) {
            let mut k = 0;
            while k < captured {
                tri!(push(
                    c,
                    Part {
                        kind: PART_CAPTURED,
                        node: top[at_mode + k],
                        ..NO_PART
                    }
                ));
                k += 1;
            }
            at_mode += captured;
        } else {
            tri!(match_term(c, i, top[at_mode], Path::one(at_mode)));
            at_mode += 1;
        }
        i = next_term(toks, i);
    }
    Ok(())
}

/// Matches the left term at token `i` against the source node `n` at mode path `mp`.
const fn match_term(c: &mut Compiler<'_>, i: usize, n: Node, mp: Path) -> Result<(), Msg> {
    let (src, p) = (c.src, c.p);
    let t = p.left.get(i);
    match t.kind {
        TokKind::Symbol => {
            let size = node_size(src, n);
            if let Some(k) = keyword(p, t.sym)
                && k != size
            {
                let name = p.names[t.sym as usize];
                let mut m = begin(p);
                m.str("keyword ");
                m.str(name);
                m.str(" = ");
                m.int(k);
                m.str(" disagrees with ");
                describe(&mut m, src, n);
                m.str(" of ");
                mode(&mut m, &mp);
                m.str(", which `");
                m.str(name);
                m.str("` names on the left, term ");
                m.str(t.path);
                return Err(at(m, p, &t));
            }
            push(
                c,
                Part {
                    kind: PART_SYMBOL,
                    sym: t.sym,
                    node: n,
                    size,
                    mp,
                    ..NO_PART
                },
            )
        }
        TokKind::Unit => {
            if node_size(src, n) != 1 {
                let mut m = begin(p);
                m.str("`1` on the left, term ");
                m.str(t.path);
                m.str(" matches ");
                mode(&mut m, &mp);
                m.str(" of ");
                describe(&mut m, src, n);
                m.str("; only an extent-one mode can be dropped");
                return Err(at(m, p, &t));
            }
            push(
                c,
                Part {
                    kind: PART_UNIT,
                    node: n,
                    mp,
                    ..NO_PART
                },
            )
        }
        TokKind::Open => {
            if is_leaf(src, n) {
                return split(c, i, n, mp);
            }
            let (kids, nkids) =
                siblings(src, (n.t0 as usize) + 1, (n.t1 as usize) - 1, n.l0 as usize);
            let close = t.close as usize;
            let mut members = 0;
            let mut j = i + 1;
            while j < close {
                members += 1;
                j = next_term(p.left, j);
            }
            if members != nkids {
                let mut m = begin(p);
                m.str("the group `");
                m.str(t.text);
                m.str("` on the left, term ");
                m.str(t.path);
                m.str(" has ");
                m.plural(members, "member");
                m.str(" but ");
                mode(&mut m, &mp);
                m.str(" of the source, ");
                m.node(src, n.t0 as usize, n.l0 as usize);
                m.str(", has ");
                if nkids == 1 {
                    m.str("1 child");
                } else {
                    m.int(nkids as i64);
                    m.str(" children");
                }
                return Err(at(m, p, &t));
            }
            let mut j = i + 1;
            let mut k = 0;
            while j < close {
                tri!(match_term(c, j, kids[k], mp.child(k)));
                k += 1;
                j = next_term(p.left, j);
            }
            Ok(())
        }
        // Rejected with the pattern (`...` inside a left group) or not a term.
        TokKind::Ellipsis | TokKind::Close => Ok(()),
    }
}
