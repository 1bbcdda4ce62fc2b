//! The fast path of the engine: the result of a valid rearrangement, or `false` at the first
//! sign of a mistake, with no message (the checked path, [`explain`], then finds the mistake
//! and words it).
//!
//! It exists for the compiler's sake. Rustc evaluates `const fn`s with an interpreter whose
//! cost is per MIR statement and, above all, per call: entering a function scans the
//! callee's whole body. The checked path (`explain`) is written for its messages — many small
//! helpers, each carrying message code — and costs about a millisecond per macro call; this
//! one is a single loop nest over the tokens whose helpers are macros, and it reads the
//! source's slices and the byte records of the pattern in place. It keeps its state in the
//! caller's [`Scratch`] and writes the result into the caller's [`Out`]: no capacity of its
//! own.
//!
//! Contract, checked by the differential test in `tests.rs`: `fast(s, p, ..)` is `true`
//! exactly when `explain(s, p, ..)` is `Ok`, with the same result (for a pattern that passed
//! the pattern-only checks of `strideweave_syntax`, with scratch and output of the sizes
//! documented on [`Scratch`] and [`Out`]).
//!
//! [`explain`]: super::explain::explain

use super::code::{Op, PatternRef};
use super::plan::{NO_SOURCE, ON_LEFT, ON_RIGHT, Out, Scratch};
use super::shape::{LEAF, POP, PUSH, ShapeRef};
use strideweave_syntax::{
    F_CLOSE, F_KIND, F_SYM, K_CLOSE, K_ELLIPSIS, K_OPEN, K_SYMBOL, K_UNIT, RECORD,
};

/// What a symbol names: nothing yet (0, as the caller zeroes [`Scratch::kind`]), a source
/// node (copied whole), a factor of a split leaf, or a new (`repeat`) stride-0 mode.
const NODE: u8 = 1;
const FACTOR: u8 = 2;
const NEW: u8 = 3;

// The helpers are macros, expanded in place: a call would cost the interpreter a scan of
// the callee's body each time.

/// Field `f` (`F_*`) of token `i` of a side.
macro_rules! field {
    ($side:expr, $i:expr, $f:expr) => {{
        let at = $i * RECORD + 4 * $f;
        $side.toks[at] as usize
            | ($side.toks[at + 1] as usize) << 8
            | ($side.toks[at + 2] as usize) << 16
            | ($side.toks[at + 3] as usize) << 24
    }};
}

/// The kind of token `i` of a side (`SYMBOL`, `UNIT`, …).
macro_rules! kind {
    ($side:expr, $i:expr) => {
        $side.toks[$i * RECORD + 4 * F_KIND] as usize
    };
}

/// The token after the node that starts at token `$t` of `$toks`, and the node's number of
/// leaves.
macro_rules! skip {
    ($toks:expr, $t:expr) => {{
        let t = $t;
        if $toks[t] == LEAF {
            (t + 1, 1)
        } else {
            let (mut depth, mut leaves, mut i) = (0usize, 0usize, t);
            loop {
                match $toks[i] {
                    LEAF => leaves += 1,
                    PUSH => depth += 1,
                    _ => depth -= 1,
                }
                i += 1;
                if depth == 0 {
                    break (i, leaves);
                }
            }
        }
    }};
}

/// The product of `$n` extents from leaf `$l0` that are known (an extent known only at run
/// time, 0 on the static path, counts as 1): a lower bound of the size.
macro_rules! known_product {
    ($extents:expr, $l0:expr, $n:expr) => {{
        let (mut p, mut k) = (1i64, 0);
        while k < $n {
            if $extents[$l0 + k] != 0 {
                p *= $extents[$l0 + k];
            }
            k += 1;
        }
        p
    }};
}

/// The product of `$n` extents from leaf `$l0` (it fits: the whole shape's size does).
macro_rules! product {
    ($extents:expr, $l0:expr, $n:expr) => {{
        let (mut p, mut k) = (1i64, 0);
        while k < $n {
            p *= $extents[$l0 + k];
            k += 1;
        }
        p
    }};
}

const SYMBOL: usize = K_SYMBOL as usize;
const UNIT: usize = K_UNIT as usize;
const OPEN: usize = K_OPEN as usize;
const CLOSE: usize = K_CLOSE as usize;
const ELLIPSIS: usize = K_ELLIPSIS as usize;

/// Writes the result's shape and plan into `out` when `p` applies to `src` and returns
/// `true`; `false` for any mistake (and when `s` or `out` is too small, which the checked
/// path reports).
pub const fn fast(
    src: ShapeRef<'_>,
    p: &PatternRef<'_>,
    s: &mut Scratch<'_>,
    out: &mut Out<'_>,
) -> bool {
    let (toks, extents) = (src.toks, src.extents);
    let ntoks = src.ntoks;
    let (left, right) = (p.left, p.right);
    let (nleft, nright) = (left.toks.len() / RECORD, right.toks.len() / RECORD);
    let nsym = p.names.len();
    if nsym > s.given.len() {
        return false;
    }
    let given = &mut *s.given;
    let sides = &mut *s.sides;
    let kind = &mut *s.kind;
    let node_t0 = &mut *s.t0;
    let node_t1 = &mut *s.t1;
    let leaf0 = &mut *s.leaf0;
    let extent = &mut *s.extent;
    let mult = &mut *s.mult;
    let cur = &mut *s.cur;
    let end = &mut *s.end;
    let leaf = &mut *s.leaf;
    // Keyword extents by symbol (0: none given).
    let mut i = 0;
    while i < p.keywords.len() {
        let k = &p.keywords[i];
        if k.value < 1 {
            return false;
        }
        given[k.sym] = k.value;
        i += 1;
    }
    // The sides each symbol is on.
    i = 0;
    while i < nleft {
        if kind!(left, i) == SYMBOL {
            sides[field!(left, i, F_SYM)] |= ON_LEFT;
        }
        i += 1;
    }
    let mut new = false;
    i = 0;
    while i < nright {
        if kind!(right, i) == SYMBOL {
            let s = field!(right, i, F_SYM);
            sides[s] |= ON_RIGHT;
            new |= sides[s] == ON_RIGHT;
        }
        i += 1;
    }
    // How many top-level modes `...` captures: the source's rank less the named terms.
    let (mut rank, mut t) = (0usize, 0usize);
    while t < ntoks {
        t = skip!(toks, t).0;
        rank += 1;
    }
    let (mut named, mut ellipsis) = (0usize, false);
    i = 0;
    while i < nleft {
        match kind!(left, i) {
            ELLIPSIS => ellipsis = true,
            _ => named += 1,
        }
        i = match kind!(left, i) {
            OPEN => field!(left, i, F_CLOSE) + 1,
            _ => i + 1,
        };
    }
    if ellipsis && named > rank {
        return false;
    }
    let captured = rank.saturating_sub(named);
    // `reduce` lists the omitted symbols after the result instead of refusing them.
    let reduce = matches!(p.op.rule(), Op::Reduce);

    // What each symbol names (`kind`): a source node (tokens node_t0..node_t1, first leaf
    // leaf0) or a factor (extent, source leaf leaf0, stride multiplier mult).
    // The tokens and first leaf that `...` captures.
    let (mut ell_t0, mut ell_t1, mut ell_l0) = (0usize, 0usize, 0usize);

    // Match the left side: a stack of source nodes being walked (next token, end, next leaf).
    if cur.is_empty() {
        return false;
    }
    cur[0] = 0;
    leaf[0] = 0;
    end[0] = ntoks;
    let mut d = 0;
    i = 0;
    while i < nleft {
        let term = kind!(left, i);
        if term == CLOSE {
            if cur[d] != end[d] {
                return false; // fewer members than children
            }
            d -= 1;
            i += 1;
            continue;
        }
        if term == ELLIPSIS {
            if d != 0 {
                return false;
            }
            ell_t0 = cur[0];
            ell_l0 = leaf[0];
            let mut k = 0;
            while k < captured {
                let (t1, n) = skip!(toks, cur[0]);
                cur[0] = t1;
                leaf[0] += n;
                k += 1;
            }
            ell_t1 = cur[0];
            i += 1;
            continue;
        }
        // A symbol, `1` or a group: the next source node.
        if cur[d] >= end[d] {
            return false; // more terms than modes
        }
        let (t0, l0) = (cur[d], leaf[d]);
        let (t1, n) = skip!(toks, t0);
        cur[d] = t1;
        leaf[d] = l0 + n;
        match term {
            SYMBOL => {
                let s = field!(left, i, F_SYM);
                let size = product!(extents, l0, n);
                // An extent known only at run time (0, on the static path) passes: the run
                // time checks it.
                // An omitted symbol must be extent 1: its known extents and its keyword say
                // so already when the rest is known only at run time.
                let omitted = sides[s] & ON_RIGHT == 0 && !reduce;
                if (given[s] != 0 && size != 0 && given[s] != size)
                    || (omitted && (given[s] > 1 || known_product!(extents, l0, n) > 1))
                {
                    return false;
                }
                kind[s] = NODE;
                node_t0[s] = t0;
                node_t1[s] = t1;
                leaf0[s] = l0;
                i += 1;
            }
            UNIT => {
                if known_product!(extents, l0, n) > 1 {
                    return false;
                }
                i += 1;
            }
            _ if toks[t0] != LEAF => {
                // A group on a nested mode: its members match the mode's children.
                d += 1;
                if d == cur.len() {
                    return false;
                }
                cur[d] = t0 + 1;
                end[d] = t1 - 1;
                leaf[d] = l0;
                i += 1;
            }
            _ => {
                // A group on a leaf: split it, at most one factor without a keyword.
                let close = field!(left, i, F_CLOSE);
                let whole = extents[l0];
                let (mut known, mut unknown) = (1i64, usize::MAX);
                let mut j = i + 1;
                while j < close {
                    match kind!(left, j) {
                        UNIT => {}
                        SYMBOL => {
                            let s = field!(left, j, F_SYM);
                            if given[s] == 0 {
                                if unknown != usize::MAX {
                                    return false;
                                }
                                unknown = s;
                            } else {
                                known = match known.checked_mul(given[s]) {
                                    Some(k) => k,
                                    None => return false,
                                };
                            }
                        }
                        // A nested group's tokens: its members are factors too.
                        _ => {}
                    }
                    j += 1;
                }
                let inferred = if unknown == usize::MAX {
                    if whole != 0 && known != whole {
                        return false;
                    }
                    1
                } else {
                    if whole % known != 0 {
                        return false;
                    }
                    whole / known
                };
                // The factors, first fastest. After a factor known only at run time (extent
                // 0, on the static path) a multiplier is `-prefix`: the run time multiplies
                // it by that factor (`Plan::with_runtime_extents`).
                let (mut prefix, mut sign) = (1i64, 1i64);
                j = i + 1;
                while j < close {
                    if kind!(left, j) == SYMBOL {
                        let s = field!(left, j, F_SYM);
                        let e = if given[s] == 0 { inferred } else { given[s] };
                        if sides[s] & ON_RIGHT == 0 && e > 1 && !reduce {
                            return false;
                        }
                        kind[s] = FACTOR;
                        extent[s] = e;
                        mult[s] = sign * prefix;
                        leaf0[s] = l0;
                        if e == 0 {
                            sign = -1;
                        } else {
                            prefix *= e;
                        }
                    }
                    j += 1;
                }
                i = close + 1;
            }
        }
    }
    if d != 0 || cur[0] != end[0] {
        return false; // fewer terms than modes
    }

    // New symbols on the right: `repeat`'s stride-0 modes, of their keyword extents.
    if new {
        if !matches!(p.op.rule(), Op::Repeat) {
            return false;
        }
        let mut total = product!(extents, 0, src.nleaves);
        let mut s = 0;
        while s < nsym {
            if sides[s] == ON_RIGHT {
                if given[s] == 0 {
                    return false;
                }
                total = match total.checked_mul(given[s]) {
                    Some(t) => t,
                    None => return false,
                };
                kind[s] = NEW;
                extent[s] = given[s];
            }
            s += 1;
        }
    }

    // Build the result from the right side.
    let (cap_toks, cap_leaves) = (out.toks.len(), out.extents.len());
    if out.source.len() < cap_leaves || out.multiplier.len() < cap_leaves {
        return false;
    }
    let out_toks = &mut *out.toks;
    let out_extents = &mut *out.extents;
    let source = &mut *out.source;
    let multiplier = &mut *out.multiplier;
    let mut nt = 0usize;
    let mut nl = 0usize;
    i = 0;
    while i < nright {
        let term = kind!(right, i);
        i += 1;
        // Either one token (`(`, `)`, or a leaf of `extent`, `source`, `multiplier`), or a
        // copy of the source's tokens t0..t1 from leaf l0.
        let (mut tok, mut e, mut from, mut m) = (LEAF, 1i64, NO_SOURCE, 0i64);
        let (mut t0, mut t1, mut l0) = (0usize, 0usize, 0usize);
        // A symbol's keyword, for a node whose extent is known only at run time.
        let mut kw = 0i64;
        match term {
            OPEN => tok = PUSH,
            CLOSE => tok = POP,
            UNIT => {}
            ELLIPSIS => {
                (t0, t1, l0) = (ell_t0, ell_t1, ell_l0);
                if !ellipsis {
                    return false;
                }
            }
            _ => {
                // A symbol.
                let s = field!(right, i - 1, F_SYM);
                match kind[s] {
                    NODE => (t0, t1, l0, kw) = (node_t0[s], node_t1[s], leaf0[s], given[s]),
                    FACTOR => (e, from, m) = (extent[s], leaf0[s], mult[s]),
                    NEW => e = extent[s],
                    _ => return false,
                }
            }
        }
        if t1 == t0 && term != ELLIPSIS {
            // One token.
            if nt == cap_toks || (tok == LEAF && nl == cap_leaves) {
                return false;
            }
            out_toks[nt] = tok;
            nt += 1;
            if tok == LEAF {
                out_extents[nl] = e;
                source[nl] = from;
                multiplier[nl] = m;
                nl += 1;
            }
            continue;
        }
        // A copy of source tokens.
        let mut t = t0;
        let mut l = l0;
        while t < t1 {
            if nt == cap_toks || (toks[t] == LEAF && nl == cap_leaves) {
                return false;
            }
            out_toks[nt] = toks[t];
            nt += 1;
            if toks[t] == LEAF {
                out_extents[nl] = extents[l];
                source[nl] = l;
                multiplier[nl] = 1;
                if extents[l] == 0 && kw != 0 {
                    // A keyword fixes a run-time extent: a leaf takes it (the run time checks
                    // it); a nested node's leaves cannot, so the run time plans afresh
                    // (multiplier 0).
                    if t1 - t0 == 1 {
                        out_extents[nl] = kw;
                    } else {
                        multiplier[nl] = 0;
                    }
                }
                nl += 1;
                l += 1;
            }
            t += 1;
        }
    }
    out.nkept = nl;
    // `reduce`: the leaves of the omitted symbols, in left-side order, each a top-level leaf.
    if reduce {
        i = 0;
        while i < nleft {
            if kind!(left, i) == SYMBOL {
                let s = field!(left, i, F_SYM);
                if sides[s] & ON_RIGHT == 0 {
                    // A node's leaves whole, or one factor of a split leaf.
                    let node = kind[s] == NODE;
                    let (mut l, l1, e1, m1) = if node {
                        (leaf0[s], leaf0[s] + skip!(toks, node_t0[s]).1, 1, 1)
                    } else {
                        (leaf0[s], leaf0[s] + 1, extent[s], mult[s])
                    };
                    while l < l1 {
                        if nt == cap_toks || nl == cap_leaves {
                            return false;
                        }
                        out_toks[nt] = LEAF;
                        nt += 1;
                        out_extents[nl] = if node { extents[l] } else { e1 };
                        source[nl] = l;
                        multiplier[nl] = m1;
                        if node && extents[l] == 0 && given[s] != 0 {
                            // As on the right: a keyword fixes a run-time leaf.
                            if l1 - leaf0[s] == 1 {
                                out_extents[nl] = given[s];
                            } else {
                                multiplier[nl] = 0;
                            }
                        }
                        nl += 1;
                        l += 1;
                    }
                }
            }
            i += 1;
        }
    }
    out.ntoks = nt;
    out.nleaves = nl;
    true
}
