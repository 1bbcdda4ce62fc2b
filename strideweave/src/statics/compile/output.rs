//! The checks after matching (omitted sources, new `repeat` modes) and the result's shape
//! and plan, built from the right side.

use super::{
    Compiler, NO_PART, NO_SOURCE, Node, PART_CAPTURED, PART_NEW, PART_SYMBOL, Part, Plan, at,
    begin, chars, finish, is_leaf, keyword, mode, on_side, push, tri,
};
use crate::statics::code::{LEAF, MAX_LEAVES, MAX_TOKENS, POP, PUSH, ShapeCode};
use crate::statics::msg::Msg;
use crate::statics::pattern::{Op, TokKind};

/// The first part that a symbol names.
const fn part_of(c: &Compiler<'_>, sym: u16) -> Option<Part> {
    let mut i = 0;
    while i < c.nparts {
        let part = c.parts[i];
        if (part.kind == PART_SYMBOL || part.kind == PART_NEW) && part.sym == sym {
            return Some(part);
        }
        i += 1;
    }
    None
}

/// Left symbols absent on the right are valid only at extent 1.
pub(super) const fn omitted(c: &Compiler<'_>) -> Result<(), Msg> {
    let (src, p) = (c.src, c.p);
    let mut i = 0;
    while i < p.left.len() {
        let t = p.left.get(i);
        if matches!(t.kind, TokKind::Symbol)
            && !on_side(p.right, t.sym)
            && let Some(part) = part_of(c, t.sym)
            && part.size > 1
        {
            let name = p.names[t.sym as usize];
            let mut m = begin(p);
            m.str("omitted source: `");
            m.str(name);
            m.str("` on the left, term ");
            m.str(t.path);
            m.str(" is absent from the right, but it names ");
            if part.split {
                m.str("a factor of the split ");
                mode(&mut m, &part.mp);
            } else {
                mode(&mut m, &part.mp);
                if !is_leaf(src, part.node) {
                    m.str(" (shape ");
                    m.node(src, part.node.t0 as usize, part.node.l0 as usize);
                    m.str(")");
                }
            }
            m.str(" of size ");
            m.int(part.size);
            m.str("; only an extent-one sublayout may be omitted");
            return Err(at(m, p, &t));
        }
        i += 1;
    }
    Ok(())
}

/// New `repeat` symbols: stride-0 modes of their keyword extents.
pub(super) const fn new_symbols(c: &mut Compiler<'_>) -> Result<(), Msg> {
    let p = c.p;
    if !matches!(p.op, Op::Repeat) {
        return Ok(());
    }
    let mut total = c.src.size();
    let mut i = 0;
    while i < p.right.len() {
        let t = p.right.get(i);
        if matches!(t.kind, TokKind::Symbol) && !on_side(p.left, t.sym) {
            // The macro requires a keyword for every new symbol.
            let extent = match keyword(p, t.sym) {
                Some(k) => k,
                None => 1,
            };
            total = match total.checked_mul(extent) {
                Some(t) => t,
                None => {
                    let mut m = begin(p);
                    m.str("the repeated layout's size overflows i64 (source size ");
                    m.int(c.src.size());
                    m.str(", `");
                    m.str(p.names[t.sym as usize]);
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

/// The result under construction.
struct Out {
    toks: [u8; MAX_TOKENS],
    ntoks: usize,
    extents: [i64; MAX_LEAVES],
    plan: Plan,
    full: bool,
}

impl Out {
    const fn tok(&mut self, t: u8) {
        if self.ntoks == MAX_TOKENS {
            self.full = true;
            return;
        }
        self.toks[self.ntoks] = t;
        self.ntoks += 1;
    }

    const fn leaf(&mut self, extent: i64, source: u8, mult: i64) {
        if self.plan.len == MAX_LEAVES {
            self.full = true;
            return;
        }
        self.tok(LEAF);
        let k = self.plan.len;
        self.extents[k] = extent;
        self.plan.source[k] = source;
        self.plan.multiplier[k] = mult;
        self.plan.len += 1;
    }

    /// Copies the source node `n` whole.
    const fn node(&mut self, src: &ShapeCode, n: Node) {
        let mut t = n.t0 as usize;
        let mut l = n.l0 as usize;
        while t < (n.t1 as usize) {
            match src.tok(t) {
                LEAF => {
                    self.leaf(src.extent(l), l as u8, 1);
                    l += 1;
                }
                tok => self.tok(tok),
            }
            t += 1;
        }
    }
}

/// Builds the result from the right side.
pub(super) const fn place(c: &Compiler<'_>) -> Result<(ShapeCode, Plan), Msg> {
    let (src, p) = (c.src, c.p);
    let mut out = Out {
        toks: [LEAF; MAX_TOKENS],
        ntoks: 0,
        extents: [0; MAX_LEAVES],
        plan: Plan {
            source: [NO_SOURCE; MAX_LEAVES],
            multiplier: [0; MAX_LEAVES],
            len: 0,
            op: p.op,
        },
        full: false,
    };
    let mut i = 0;
    while i < p.right.len() {
        let t = p.right.get(i);
        match t.kind {
            TokKind::Symbol => {
                if let Some(part) = part_of(c, t.sym) {
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
    if out.full {
        let mut m = begin(p);
        m.str("the result would have more than 32 leaves or 64 profile tokens, more than the macros handle; use Tensor::");
        m.str(match p.op {
            Op::Rearrange => "rearrange",
            Op::Repeat => "repeat",
        });
        return Err(finish(m, p, 0, chars(p.text)));
    }
    let len = out.plan.len;
    Ok((
        ShapeCode::from_raw(out.toks, out.ntoks, out.extents, len),
        out.plan,
    ))
}
