//! Splitting a leaf by a left group: `(h w)` on extent 12 with `h = 4`.

use super::{
    Compiler, NO_PART, Node, PART_SYMBOL, PART_UNIT, Part, Sym, at, begin, keyword_in, keyword_of,
    mode, push, tri,
};
use crate::pattern::code::{PatternRef, Tok, TokKind};
use crate::pattern::msg::{Msg, MsgState};
use crate::pattern::shape::ShapeRef;

/// "mode 0, which the group `(h w)` on the left, term 0 splits".
const fn split_place(m: &mut Msg<'_>, src: ShapeRef<'_>, n: Node, group: &Tok<'_>) {
    mode(m, src, n.t0);
    m.str(", which the group `");
    m.str(group.text);
    m.str("` on the left, term ");
    m.str(group.path);
    m.str(" splits");
}

/// Splits the leaf `n` by the left group at token `gi`.
pub(super) const fn split(c: &mut Compiler<'_, '_>, gi: usize, n: Node) -> Result<(), MsgState> {
    let (src, p) = (c.src, c.p);
    let group = p.left.get(gi);
    let extent = src.extents[n.l0];
    let close = group.close;
    let mut nunknown = 0;
    let mut ngiven = 0;
    let mut known: Option<i64> = Some(1);
    let mut j = gi + 1;
    while j < close {
        if matches!(p.left.kind(j), TokKind::Symbol) {
            match keyword_of(c, p.left.sym(j)) {
                Some(k) => {
                    ngiven += 1;
                    known = match known {
                        Some(q) => q.checked_mul(k),
                        None => None,
                    };
                }
                None => nunknown += 1,
            }
        }
        j += 1;
    }
    let inferred = if nunknown == 0 {
        let matches = match known {
            // An extent known only at run time (0, on the static path) passes.
            Some(q) => q == extent || extent == 0,
            None => false,
        };
        if !matches {
            let mut m = begin!(c);
            write_factors(&mut m, p, c.syms, gi, ngiven, true);
            match known {
                Some(_) if ngiven == 1 => m.str(" is not extent "),
                Some(q) => {
                    m.str(" multiply to ");
                    m.int(q);
                    m.str(", not extent ");
                }
                None => m.str(" multiply to more than i64 holds, not extent "),
            }
            m.int(extent);
            m.str(" of ");
            split_place(&mut m, src, n, &group);
            return Err(at(m, p, &group));
        }
        None
    } else if nunknown == 1 {
        match known {
            Some(k) if extent % k == 0 => Some(extent / k),
            _ => {
                let mut m = begin!(c);
                write_factors(&mut m, p, c.syms, gi, ngiven, true);
                m.str(if ngiven == 1 { " does" } else { " do" });
                m.str(" not divide extent ");
                m.int(extent);
                m.str(" of ");
                split_place(&mut m, src, n, &group);
                return Err(at(m, p, &group));
            }
        }
    } else {
        let mut m = begin!(c);
        m.str("cannot split extent ");
        m.int(extent);
        m.str(" of ");
        split_place(&mut m, src, n, &group);
        m.str(": ");
        write_factors(&mut m, p, c.syms, gi, nunknown, false);
        m.str(if nunknown == 2 { " both" } else { " all" });
        m.str(" lack an extent; give all but one of them as keywords");
        return Err(at(m, p, &group));
    };
    // The factors, first fastest.
    let mut prefix = 1i64;
    let mut j = gi + 1;
    while j < close {
        let t = p.left.get(j);
        let e = match t.kind {
            TokKind::Symbol => match keyword_of(c, t.sym) {
                Some(k) => k,
                None => match inferred {
                    Some(k) => k,
                    None => 1,
                },
            },
            TokKind::Unit => 1,
            _ => {
                j += 1;
                continue;
            }
        };
        let part = if matches!(t.kind, TokKind::Symbol) {
            Part {
                kind: PART_SYMBOL,
                sym: t.sym,
                node: n,
                split: true,
                extent: e,
                mult: prefix,
                size: e,
            }
        } else {
            Part {
                kind: PART_UNIT,
                ..NO_PART
            }
        };
        tri!(push(c, part));
        // The prefix stays ≤ the extent, which fits.
        prefix *= e;
        j += 1;
    }
    Ok(())
}

/// The `n` factors of the group at `gi` with a keyword (`given`: "h = 4", "a = 1, b = 2 and
/// c = 3", or "the group's members" when there are none) or without one ("`h` and `w`").
const fn write_factors(
    m: &mut Msg<'_>,
    p: &PatternRef<'_>,
    syms: &[Sym],
    gi: usize,
    n: usize,
    given: bool,
) {
    if given && n == 0 {
        m.str("the group's members");
        return;
    }
    let close = p.left.close(gi);
    let mut k = 0;
    let mut j = gi + 1;
    while j < close {
        if matches!(p.left.kind(j), TokKind::Symbol) {
            let sym = p.left.sym(j);
            let value = keyword_in(syms, sym);
            if value.is_some() == given {
                if k > 0 {
                    m.str(if k + 1 == n { " and " } else { ", " });
                }
                if !given {
                    m.str("`");
                }
                m.str(p.names[sym]);
                match value {
                    Some(v) => {
                        m.str(" = ");
                        m.int(v);
                    }
                    None => m.str("`"),
                }
                k += 1;
            }
        }
        j += 1;
    }
}
