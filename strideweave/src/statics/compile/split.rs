//! Splitting a leaf by a left group: `(h w)` on extent 12 with `h = 4`.

use super::{
    Compiler, MAX_PARTS, NO_PART, Node, PART_SYMBOL, PART_UNIT, Part, Path, at, begin, keyword,
    mode, push, tri,
};
use crate::statics::msg::Msg;
use crate::statics::pattern::{PatternCode, Tok, TokKind};

/// "mode 0, which the group `(h w)` on the left, term 0 splits".
const fn split_place(m: &mut Msg, mp: &Path, group: &Tok) {
    mode(m, mp);
    m.str(", which the group `");
    m.str(group.text);
    m.str("` on the left, term ");
    m.str(group.path);
    m.str(" splits");
}

/// Splits the leaf `n` by the left group at token `gi`.
pub(super) const fn split(c: &mut Compiler<'_>, gi: usize, n: Node, mp: Path) -> Result<(), Msg> {
    let (src, p) = (c.src, c.p);
    let group = p.left.get(gi);
    let extent = src.extent(n.l0 as usize);
    let close = group.close as usize;
    let mut unknown = [0u16; MAX_PARTS];
    let mut nunknown = 0;
    let mut given = [0u16; MAX_PARTS];
    let mut ngiven = 0;
    let mut known: Option<i64> = Some(1);
    let mut j = gi + 1;
    while j < close {
        let t = p.left.get(j);
        if matches!(t.kind, TokKind::Symbol) {
            match keyword(p, t.sym) {
                Some(k) => {
                    if ngiven < MAX_PARTS {
                        given[ngiven] = j as u16;
                        ngiven += 1;
                    }
                    known = match known {
                        Some(q) => q.checked_mul(k),
                        None => None,
                    };
                }
                None => {
                    if nunknown < MAX_PARTS {
                        unknown[nunknown] = j as u16;
                        nunknown += 1;
                    }
                }
            }
        }
        j += 1;
    }
    let inferred = if nunknown == 0 {
        let matches = match known {
            Some(q) => q == extent,
            None => false,
        };
        if !matches {
            let mut m = begin(p);
            write_given(&mut m, p, &given, ngiven);
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
            split_place(&mut m, &mp, &group);
            return Err(at(m, p, &group));
        }
        None
    } else if nunknown == 1 {
        match known {
            Some(k) if extent % k == 0 => Some(extent / k),
            _ => {
                let mut m = begin(p);
                write_given(&mut m, p, &given, ngiven);
                m.str(if ngiven == 1 { " does" } else { " do" });
                m.str(" not divide extent ");
                m.int(extent);
                m.str(" of ");
                split_place(&mut m, &mp, &group);
                return Err(at(m, p, &group));
            }
        }
    } else {
        let mut m = begin(p);
        m.str("cannot split extent ");
        m.int(extent);
        m.str(" of ");
        split_place(&mut m, &mp, &group);
        m.str(": ");
        let mut k = 0;
        while k < nunknown {
            if k > 0 {
                m.str(if k + 1 == nunknown { " and " } else { ", " });
            }
            m.str("`");
            m.str(p.names[p.left.get(unknown[k] as usize).sym as usize]);
            m.str("`");
            k += 1;
        }
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
            TokKind::Symbol => match keyword(p, t.sym) {
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
                mp,
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

/// "h = 4", "a = 1, b = 2 and c = 3", or "the group's members".
const fn write_given(m: &mut Msg, p: &PatternCode, given: &[u16], n: usize) {
    if n == 0 {
        m.str("the group's members");
        return;
    }
    let mut k = 0;
    while k < n {
        if k > 0 {
            m.str(if k + 1 == n { " and " } else { ", " });
        }
        let sym = p.left.get(given[k] as usize).sym;
        m.str(p.names[sym as usize]);
        m.str(" = ");
        m.int(match keyword(p, sym) {
            Some(v) => v,
            None => 0,
        });
        k += 1;
    }
}
