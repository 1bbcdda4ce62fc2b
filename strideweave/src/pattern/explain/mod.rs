//! The checked path of the engine, [`explain`]: every rule of a rearrangement pattern in order, with the
//! message of the first mistake. The fast path ([`fast`](super::fast::fast)) computes the
//! same result without messages; this path runs when it has found something wrong (and its
//! result, when there is none, is the same: the differential test in `tests.rs` checks it).
//!
//! Everything it keeps lives in the caller's slices: the parts (what each left term
//! extracts), the result ([`Out`]) and the message buffer. The static path passes fixed
//! arrays; the run-time path sizes them from its input.

mod output;
mod split;

use super::code::{PatternRef, Side, Tok, TokKind};
use super::msg::{Msg, MsgState};
use super::plan::{ON_LEFT, ON_RIGHT, Out};
use super::shape::{LEAF, ShapeRef, leaves_in, node_end};
use output::{new_symbols, omitted, place};
use split::split;

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

/// A message at the failure's start: the front end's prefix (written into the buffer and
/// marked before the engine ran) and nothing else.
macro_rules! begin {
    ($c:expr) => {
        $crate::pattern::Msg::resume(&mut *$c.msg, $c.start)
    };
}
use begin;

const PART_SYMBOL: u8 = 0;
const PART_UNIT: u8 = 1;
const PART_CAPTURED: u8 = 2;
const PART_NEW: u8 = 3;

/// A sublayout of the source: tokens `t0..t1`, first leaf `l0`.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    t0: usize,
    t1: usize,
    l0: usize,
}

impl Node {
    const fn new(t0: usize, t1: usize, l0: usize) -> Node {
        Node { t0, t1, l0 }
    }
}

/// What one left term extracts, in depth-first order: a symbol's sublayout (or a factor of a
/// split leaf), a `1`, a mode that `...` captures, or a new `repeat` mode.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    kind: u8,
    sym: usize,
    node: Node,
    /// A factor of a split leaf: leaf `node.l0`, `extent`, stride multiplier `mult`.
    split: bool,
    extent: i64,
    mult: i64,
    size: i64,
}

/// A part to fill the caller's array with.
pub const NO_PART: Part = Part {
    kind: PART_UNIT,
    sym: 0,
    node: Node::new(0, 0, 0),
    split: false,
    extent: 1,
    mult: 1,
    size: 1,
};

struct Compiler<'a, 'o> {
    src: ShapeRef<'a>,
    p: &'a PatternRef<'a>,
    parts: &'a mut [Part],
    nparts: usize,
    syms: &'a mut [Sym],
    out: &'a mut Out<'o>,
    msg: &'a mut [u8],
    start: MsgState,
}

/// What the checked path knows of one symbol, gathered once per call so that every look-up
/// takes constant time (a pattern read at run time may have any number of terms and
/// keywords): its keyword extent, the sides it is on, and the first part it names.
#[derive(Clone, Copy, Debug)]
pub struct Sym {
    /// The first keyword's extent (0: none; every keyword is at least 1 once checked).
    keyword: i64,
    /// [`ON_LEFT`] and [`ON_RIGHT`].
    sides: u8,
    /// The index of the first part that names it (`usize::MAX`: none yet).
    part: usize,
}

/// A symbol entry to fill the caller's array with.
pub const NO_SYM: Sym = Sym {
    keyword: 0,
    sides: 0,
    part: usize::MAX,
};

/// Checks `p` against the source shape `src` and writes the result into `out`; on a mistake
/// writes its message into `msg` after the front end's prefix (`start`: the state after
/// writing and marking it) and returns the message's state. `parts` needs one entry per
/// left-side token plus one per right-side token, `syms` one per symbol (`p.names`); `out` as
/// documented on [`Out`]. Never panics: too small a `parts`, `syms` or `out` is reported as a
/// mistake of its own.
pub const fn explain(
    src: ShapeRef<'_>,
    p: &PatternRef<'_>,
    parts: &mut [Part],
    syms: &mut [Sym],
    out: &mut Out<'_>,
    msg: &mut [u8],
    start: MsgState,
) -> Result<(), MsgState> {
    tri!(keywords(p, msg, start));
    let mut c = Compiler {
        src,
        p,
        parts,
        nparts: 0,
        syms,
        out,
        msg,
        start,
    };
    tri!(gather_symbols(&mut c));
    tri!(match_left(&mut c));
    tri!(omitted(&mut c));
    tri!(new_symbols(&mut c));
    place(&mut c)
}

/// Fills [`Compiler::syms`]: each symbol's first keyword and its sides.
const fn gather_symbols(c: &mut Compiler<'_, '_>) -> Result<(), MsgState> {
    let p = c.p;
    let nsym = p.names.len();
    if nsym > c.syms.len() {
        let mut m = begin!(c);
        m.str("the pattern has more than ");
        m.int(c.syms.len() as i64);
        m.str(" symbols, more than the macros handle");
        return Err(finish(m, p, 0, chars(p.text)));
    }
    let mut i = 0;
    while i < nsym {
        c.syms[i] = NO_SYM;
        i += 1;
    }
    i = 0;
    while i < p.keywords.len() {
        let k = p.keywords[i];
        if k.sym < nsym && c.syms[k.sym].keyword == 0 {
            c.syms[k.sym].keyword = k.value;
        }
        i += 1;
    }
    let sides = [(p.left, ON_LEFT), (p.right, ON_RIGHT)];
    let mut s = 0;
    while s < 2 {
        let (toks, bit) = sides[s];
        i = 0;
        while i < toks.len() {
            if matches!(toks.kind(i), TokKind::Symbol) && toks.sym(i) < nsym {
                c.syms[toks.sym(i)].sides |= bit;
            }
            i += 1;
        }
        s += 1;
    }
    Ok(())
}

/// The keyword extent given for a symbol.
const fn keyword_of(c: &Compiler<'_, '_>, sym: usize) -> Option<i64> {
    keyword_in(c.syms, sym)
}

/// [`keyword_of`] where the compiler is borrowed (by a message).
const fn keyword_in(syms: &[Sym], sym: usize) -> Option<i64> {
    match syms[sym].keyword {
        0 => None,
        k => Some(k),
    }
}

/// Whether a symbol appears on the side `bit` ([`ON_LEFT`], [`ON_RIGHT`]).
const fn is_on(c: &Compiler<'_, '_>, sym: usize, bit: u8) -> bool {
    c.syms[sym].sides & bit != 0
}

/// The first part that a symbol names.
const fn part_of(c: &Compiler<'_, '_>, sym: usize) -> Option<Part> {
    match c.syms[sym].part {
        usize::MAX => None,
        i => Some(c.parts[i]),
    }
}

/// Ends a message with the pattern quoted and carets under columns `start..end`.
pub(crate) const fn finish(mut m: Msg<'_>, p: &PatternRef<'_>, start: u32, end: u32) -> MsgState {
    m.set_anchor(start);
    m.str("\n  ");
    m.str(p.text);
    m.str("\n  ");
    m.repeat(" ", start as usize);
    let n = if end > start { end - start } else { 1 };
    m.repeat("^", n as usize);
    m.state()
}

const fn at(m: Msg<'_>, p: &PatternRef<'_>, t: &Tok<'_>) -> MsgState {
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

/// The first occurrence of a symbol: its side name and token (left first).
const fn find_symbol<'p>(p: &PatternRef<'p>, sym: usize) -> (&'static str, Tok<'p>) {
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

/// Keyword values that the macros could not check (constants): each at least 1, in
/// `check_keywords`' words. Writes the message of a mistake into `msg` after the front end's
/// prefix (`start`).
pub const fn keywords(p: &PatternRef<'_>, msg: &mut [u8], start: MsgState) -> Result<(), MsgState> {
    let mut i = 0;
    while i < p.keywords.len() {
        tri!(keyword_value(p, i, msg, start));
        i += 1;
    }
    Ok(())
}

/// Keyword `i`'s value (see [`keywords`]): `rearrange!(t, "(h w) c -> h w c", h = H)` with
/// `const H: i64 = 0` checks it at `H`, where the expansion calls this alone.
pub const fn keyword_value(
    p: &PatternRef<'_>,
    i: usize,
    msg: &mut [u8],
    start: MsgState,
) -> Result<(), MsgState> {
    let k = p.keywords[i];
    if k.value >= 1 {
        return Ok(());
    }
    let name = p.names[k.sym];
    let (side, t) = find_symbol(p, k.sym);
    let mut m = Msg::resume(msg, start);
    m.str("keyword `");
    m.str(name);
    m.str(" = ");
    m.int(k.value);
    m.str("` for `");
    m.str(name);
    m.str("` on the ");
    m.str(side);
    m.str(", term ");
    m.str(t.path);
    m.str(": an extent must be at least 1");
    Err(at(m, p, &t))
}

/// The index of the term after the one at `i`.
const fn next_term(toks: Side<'_>, i: usize) -> usize {
    match toks.kind(i) {
        TokKind::Open => toks.close(i) + 1,
        _ => i + 1,
    }
}

/// The source node that starts at token `t` (first leaf `l`).
const fn node_at(c: ShapeRef<'_>, t: usize, l: usize) -> Node {
    Node::new(t, node_end(c, t), l)
}

/// The node after sibling `n`.
const fn next_sibling(c: ShapeRef<'_>, n: Node) -> Node {
    node_at(c, n.t1, n.l0 + leaves_in(c, n.t0, n.t1))
}

/// The number of sibling nodes among tokens `from..to`.
const fn count_siblings(c: ShapeRef<'_>, from: usize, to: usize) -> usize {
    let (mut n, mut t) = (0, from);
    while t < to {
        t = node_end(c, t);
        n += 1;
    }
    n
}

const fn node_size(c: ShapeRef<'_>, n: Node) -> i64 {
    let k = leaves_in(c, n.t0, n.t1);
    let mut p = 1i64;
    let mut i = 0;
    while i < k {
        p = p.saturating_mul(c.extents[n.l0 + i]);
        i += 1;
    }
    p
}

/// The product of the node's extents that are known (one known only at run time, 0 on the
/// static path, counts as 1): a lower bound of its size, and its size when it is static.
pub(super) const fn known_size(c: ShapeRef<'_>, n: Node) -> i64 {
    let k = leaves_in(c, n.t0, n.t1);
    let mut p = 1i64;
    let mut i = 0;
    while i < k {
        if c.extents[n.l0 + i] != 0 {
            p = p.saturating_mul(c.extents[n.l0 + i]);
        }
        i += 1;
    }
    p
}

const fn is_leaf(c: ShapeRef<'_>, n: Node) -> bool {
    c.toks[n.t0] == LEAF
}

/// "mode 1.0": the path of the source node that starts at token `target`.
const fn mode(m: &mut Msg<'_>, c: ShapeRef<'_>, target: usize) {
    m.str("mode ");
    let (mut t, mut idx) = (0, 0);
    while t < c.ntoks {
        let e = node_end(c, t);
        if t == target {
            m.int(idx);
            return;
        }
        if target > t && target < e {
            m.int(idx);
            m.str(".");
            t += 1;
            idx = 0;
        } else {
            t = e;
            idx += 1;
        }
    }
}

/// "extent 5" for a leaf, "size 12 (shape (3,4))" for a nested sublayout.
const fn describe(m: &mut Msg<'_>, c: ShapeRef<'_>, n: Node) {
    if is_leaf(c, n) {
        m.str("extent ");
        m.int(c.extents[n.l0]);
    } else {
        m.str("size ");
        m.int(node_size(c, n));
        m.str(" (shape ");
        m.node(c, n.t0, n.l0);
        m.str(")");
    }
}

const fn push(c: &mut Compiler<'_, '_>, part: Part) -> Result<(), MsgState> {
    if c.nparts == c.parts.len() {
        let p = c.p;
        let mut m = begin!(c);
        m.str("the pattern extracts more than ");
        m.int(c.parts.len() as i64);
        m.str(" sublayouts, more than the macros handle");
        return Err(finish(m, p, 0, chars(p.text)));
    }
    if (part.kind == PART_SYMBOL || part.kind == PART_NEW) && c.syms[part.sym].part == usize::MAX {
        c.syms[part.sym].part = c.nparts;
    }
    c.parts[c.nparts] = part;
    c.nparts += 1;
    Ok(())
}

const fn match_left(c: &mut Compiler<'_, '_>) -> Result<(), MsgState> {
    let (src, p) = (c.src, c.p);
    let rank = count_siblings(src, 0, src.ntoks);
    let toks = p.left;
    let mut named = 0;
    let mut ellipsis = false;
    let mut i = 0;
    let mut past_rank = p.left_span.0;
    while i < toks.len() {
        if matches!(toks.kind(i), TokKind::Ellipsis) {
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
        let mut m = begin!(c);
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
    // The next top-level node (none for a rank-0 source).
    let mut n = Node::new(0, 0, 0);
    if rank > 0 {
        n = node_at(src, 0, 0);
    }
    let mut i = 0;
    while i < toks.len() {
        if matches!(toks.kind(i), TokKind::Ellipsis) {
            let mut k = 0;
            while k < captured {
                tri!(push(
                    c,
                    Part {
                        kind: PART_CAPTURED,
                        node: n,
                        ..NO_PART
                    }
                ));
                if n.t1 < src.ntoks {
                    n = next_sibling(src, n);
                }
                k += 1;
            }
        } else {
            tri!(match_term(c, i, n));
            if n.t1 < src.ntoks {
                n = next_sibling(src, n);
            }
        }
        i = next_term(toks, i);
    }
    Ok(())
}

/// Matches the left term at token `i` against the source node `n`.
const fn match_term(c: &mut Compiler<'_, '_>, i: usize, n: Node) -> Result<(), MsgState> {
    let (src, p) = (c.src, c.p);
    let t = p.left.get(i);
    match t.kind {
        TokKind::Symbol => {
            let size = node_size(src, n);
            // An extent known only at run time (0, on the static path) passes.
            if let Some(k) = keyword_of(c, t.sym)
                && size != 0
                && k != size
            {
                let name = p.names[t.sym];
                let mut m = begin!(c);
                m.str("keyword ");
                m.str(name);
                m.str(" = ");
                m.int(k);
                m.str(" disagrees with ");
                describe(&mut m, src, n);
                m.str(" of ");
                mode(&mut m, src, n.t0);
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
                    ..NO_PART
                },
            )
        }
        TokKind::Unit => {
            if known_size(src, n) > 1 {
                let mut m = begin!(c);
                m.str("`1` on the left, term ");
                m.str(t.path);
                m.str(" matches ");
                mode(&mut m, src, n.t0);
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
                    ..NO_PART
                },
            )
        }
        TokKind::Open => {
            if is_leaf(src, n) {
                return split(c, i, n);
            }
            let nkids = count_siblings(src, n.t0 + 1, n.t1 - 1);
            let close = t.close;
            let mut members = 0;
            let mut j = i + 1;
            while j < close {
                members += 1;
                j = next_term(p.left, j);
            }
            if members != nkids {
                let mut m = begin!(c);
                m.str("the group `");
                m.str(t.text);
                m.str("` on the left, term ");
                m.str(t.path);
                m.str(" has ");
                m.plural(members, "member");
                m.str(" but ");
                mode(&mut m, src, n.t0);
                m.str(" of the source, ");
                m.node(src, n.t0, n.l0);
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
            let mut kid = node_at(src, n.t0 + 1, n.l0);
            while j < close {
                tri!(match_term(c, j, kid));
                if kid.t1 < n.t1 - 1 {
                    kid = next_sibling(src, kid);
                }
                j = next_term(p.left, j);
            }
            Ok(())
        }
        // Rejected with the pattern (`...` inside a left group) or not a term.
        TokKind::Ellipsis | TokKind::Close => Ok(()),
    }
}
