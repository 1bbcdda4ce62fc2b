//! The checks after matching (omitted sources, new `repeat` modes) and the result's shape
//! and plan, built from the right side.

use super::{
    Compiler, NO_PART, Node, PART_CAPTURED, PART_NEW, Part, at, begin, chars, finish, is_leaf,
    is_on, keyword_of, known_size, mode, part_of, push, tri,
};
use crate::pattern::code::{Op, TokKind};
use crate::pattern::msg::MsgState;
use crate::pattern::plan::{NO_SOURCE, ON_LEFT, ON_RIGHT, Out};
use crate::pattern::shape::{LEAF, POP, PUSH, ShapeRef, leaves_in};

/// Left symbols absent on the right are valid only at extent 1 (any extent for `reduce`,
/// which folds them).
pub(super) const fn omitted(c: &mut Compiler<'_, '_>) -> Result<(), MsgState> {
    let (src, p) = (c.src, c.p);
    if matches!(p.op.rule(), Op::Reduce) {
        return Ok(());
    }
    let mut i = 0;
    while i < p.left.len() {
        let t = p.left.get(i);
        if matches!(t.kind, TokKind::Symbol)
            && !is_on(c, t.sym, ON_RIGHT)
            && let Some(part) = part_of(c, t.sym)
            && let keyword = keyword_of(c, t.sym)
            && ((if part.split {
                part.size
            } else {
                known_size(src, part.node)
            }) > 1
                || matches!(keyword, Some(k) if k > 1))
        {
            let name = p.names[t.sym];
            let mut m = begin!(c);
            m.str("omitted source: `");
            m.str(name);
            m.str("` on the left, term ");
            m.str(t.path);
            m.str(" is absent from the right, but it names ");
            if part.split {
                m.str("a factor of the split ");
                mode(&mut m, src, part.node.t0);
            } else {
                mode(&mut m, src, part.node.t0);
                if !is_leaf(src, part.node) {
                    m.str(" (shape ");
                    m.node(src, part.node.t0, part.node.l0);
                    m.str(")");
                }
            }
            if part.size == 0 {
                match keyword {
                    Some(k) if k > 1 => {
                        m.str(" of size ");
                        m.int(k);
                        m.str(" (its keyword)");
                    }
                    _ => {
                        m.str(" of size at least ");
                        m.int(known_size(src, part.node));
                    }
                }
            } else {
                m.str(" of size ");
                m.int(part.size);
            }
            m.str("; only an extent-one sublayout may be omitted");
            return Err(at(m, p, &t));
        }
        i += 1;
    }
    Ok(())
}

/// New `repeat` symbols: stride-0 modes of their keyword extents.
pub(super) const fn new_symbols(c: &mut Compiler<'_, '_>) -> Result<(), MsgState> {
    let p = c.p;
    if !matches!(p.op.rule(), Op::Repeat) {
        return Ok(());
    }
    let size = size(c.src);
    let mut total = size;
    let mut i = 0;
    while i < p.right.len() {
        let t = p.right.get(i);
        if matches!(t.kind, TokKind::Symbol) && !is_on(c, t.sym, ON_LEFT) {
            // The macro requires a keyword for every new symbol.
            let extent = match keyword_of(c, t.sym) {
                Some(k) => k,
                None => 1,
            };
            total = match total.checked_mul(extent) {
                Some(t) => t,
                None => {
                    let mut m = begin!(c);
                    m.str("the repeated layout's size overflows i64 (source size ");
                    m.int(size);
                    m.str(", `");
                    m.str(p.names[t.sym]);
                    m.str(" = ");
                    m.int(extent);
                    m.str("`)");
                    return Err(at(m, p, &t));
                }
            };
            tri!(push(
                c,
                Part {
                    kind: PART_NEW,
                    sym: t.sym,
                    extent,
                    size: extent,
                    ..NO_PART
                }
            ));
        }
        i += 1;
    }
    Ok(())
}

/// The source's size (it fits in `i64`).
const fn size(src: ShapeRef<'_>) -> i64 {
    let mut p = 1i64;
    let mut i = 0;
    while i < src.nleaves {
        p = p.saturating_mul(src.extents[i]);
        i += 1;
    }
    p
}

/// The result under construction: `out`, and whether it ran out of room.
struct Writer<'w, 'o> {
    out: &'w mut Out<'o>,
    full: bool,
}

impl Writer<'_, '_> {
    const fn tok(&mut self, t: u8) {
        if self.out.ntoks == self.out.toks.len() {
            self.full = true;
            return;
        }
        self.out.toks[self.out.ntoks] = t;
        self.out.ntoks += 1;
    }

    const fn leaf(&mut self, extent: i64, source: usize, mult: i64) {
        let k = self.out.nleaves;
        if k == self.out.extents.len()
            || k == self.out.source.len()
            || k == self.out.multiplier.len()
        {
            self.full = true;
            return;
        }
        self.tok(LEAF);
        self.out.extents[k] = extent;
        self.out.source[k] = source;
        self.out.multiplier[k] = mult;
        self.out.nleaves += 1;
    }

    /// Copies the source node `n` whole.
    const fn node(&mut self, src: ShapeRef<'_>, n: Node) {
        let mut t = n.t0;
        let mut l = n.l0;
        while t < n.t1 {
            match src.toks[t] {
                LEAF => {
                    self.leaf(src.extents[l], l, 1);
                    l += 1;
                }
                tok => self.tok(tok),
            }
            t += 1;
        }
    }
}

/// Builds the result from the right side.
pub(super) const fn place(c: &mut Compiler<'_, '_>) -> Result<(), MsgState> {
    let (src, p) = (c.src, c.p);
    c.out.ntoks = 0;
    c.out.nleaves = 0;
    let mut out = Writer {
        out: &mut *c.out,
        full: false,
    };
    let mut i = 0;
    while i < p.right.len() {
        let t = p.right.get(i);
        match t.kind {
            TokKind::Symbol => {
                // `part_of`, with `c.out` borrowed by the writer.
                if let i @ 0..usize::MAX = c.syms[t.sym].part {
                    let part = c.parts[i];
                    if part.kind == PART_NEW {
                        out.leaf(part.extent, NO_SOURCE, 0);
                    } else if part.split {
                        out.leaf(part.extent, part.node.l0, part.mult);
                    } else {
                        out.node(src, part.node);
                    }
                }
            }
            TokKind::Unit => out.leaf(1, NO_SOURCE, 0),
            TokKind::Open => out.tok(PUSH),
            TokKind::Close => out.tok(POP),
            TokKind::Ellipsis => {
                let mut k = 0;
                while k < c.nparts {
                    if c.parts[k].kind == PART_CAPTURED {
                        out.node(src, c.parts[k].node);
                    }
                    k += 1;
                }
            }
        }
        i += 1;
    }
    out.out.nkept = out.out.nleaves;
    if matches!(p.op.rule(), Op::Reduce) {
        // The reduced leaves: each omitted symbol's leaves, in left-side order, top level.
        i = 0;
        while i < p.left.len() {
            let t = p.left.get(i);
            if matches!(t.kind, TokKind::Symbol)
                && c.syms[t.sym].sides & ON_RIGHT == 0
                && let i @ 0..usize::MAX = c.syms[t.sym].part
            {
                let part = c.parts[i];
                if part.split {
                    out.leaf(part.extent, part.node.l0, part.mult);
                } else {
                    let (mut l, n) = (part.node.l0, leaves_in(src, part.node.t0, part.node.t1));
                    while l < part.node.l0 + n {
                        out.leaf(src.extents[l], l, 1);
                        l += 1;
                    }
                }
            }
            i += 1;
        }
    }
    if out.full {
        let (leaves, toks) = (c.out.extents.len(), c.out.toks.len());
        let mut m = begin!(c);
        m.str("the result would have more than ");
        m.int(leaves as i64);
        m.str(" leaves or ");
        m.int(toks as i64);
        m.str(" profile tokens, more than the macros handle; use Tensor::");
        m.str(p.op.method());
        return Err(finish(m, p, 0, chars(p.text)));
    }
    Ok(())
}
