//! CuTe's algebra on [`LayoutCode`]s in `const fn`s: composition, complement, the logical
//! divide and product, the blocked and raked products.
//!
//! The rules — coalescing, composition with one leaf, the complement's holes, injectivity —
//! are the run-time algebra's own `const fn`s (`coalesce_in_place`, `compose_leaf_rule`,
//! `complement_rule`, `injective_rule`), called here on fixed arrays. What is restated is
//! the structure around them (which operand is divided by what, how results nest), the same
//! steps in the same order as `layout/{compose,complement,divide,product}.rs`, so that
//! every result and every refusal agrees; `layout/fixed/tests.rs` compares them on random
//! layouts and on pycute's reference cases.

use super::build::Build;
use super::code::{LayoutCode, MAX_LEAVES};
use super::fault::{CodeError, Kind, Question, StrideAt};
use crate::budget::EXACT_STEPS;
use crate::layout::coalesce::coalesce_in_place;
use crate::layout::complement::{ComplementFault, complement_rule};
use crate::layout::compose::compose_leaf_rule;
use crate::layout::injective::{injective_rule, live_modes};

/// The layout, or the panic of its refusal (a compile error in const context).
#[track_caller]
pub(crate) const fn done(r: Result<LayoutCode, CodeError>) -> LayoutCode {
    match r {
        Ok(c) => c,
        Err(e) => e.fail(),
    }
}

impl LayoutCode {
    /// `self ∘ b`, as [`Layout::compose`](crate::Layout::compose): the layout `R` with
    /// `R(c) = self(b(c))` for every coordinate `c` of `b`, with `b`'s hierarchy. A
    /// composition the run-time algebra refuses panics with its message — in const context a
    /// compile error at the caller's line — and so does a result beyond the capacity.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(6, 8), LayoutCode::leaf(2, 2)]);
    /// const B: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(4, 3), LayoutCode::leaf(3, 1)]);
    /// const C: LayoutCode = A.compose(&B);
    /// assert_eq!(C.to_string(), "((2,2),3):((24,2),8)");
    /// ```
    ///
    /// ```compile_fail
    /// use strideweave::LayoutCode;
    /// // compose: shape divisibility fails: 6 remaining elements of 6:1 do not split evenly
    /// // over 4 elements of the left operand's mode 4:1
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(4, 1), LayoutCode::leaf(6, 10)]);
    /// const C: LayoutCode = A.compose(&LayoutCode::leaf(6, 1));
    /// ```
    #[track_caller]
    pub const fn compose(&self, b: &LayoutCode) -> LayoutCode {
        done(compose_in("compose", self, b))
    }

    /// The complement of `self` in `[0, cotarget)`, as
    /// [`Layout::complement`](crate::Layout::complement); its refusals panic with the
    /// run-time message (a compile error in const context).
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const C: LayoutCode = LayoutCode::leaf(4, 2).complement(24);
    /// assert_eq!(C.to_string(), "(2,3):(1,8)");
    /// ```
    #[track_caller]
    pub const fn complement(&self, cotarget: usize) -> LayoutCode {
        done(complement_in("complement", self, cotarget))
    }

    /// `self / b = self ∘ (b, complement(b, size(self)))`, as
    /// [`Layout::logical_divide`](crate::Layout::logical_divide).
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(4, 2), LayoutCode::leaf(2, 1), LayoutCode::leaf(3, 8)]);
    /// const D: LayoutCode = A.logical_divide(&LayoutCode::leaf(4, 2));
    /// assert_eq!(D.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    #[track_caller]
    pub const fn logical_divide(&self, b: &LayoutCode) -> LayoutCode {
        done(logical_divide_in("logical_divide", self, b))
    }

    /// `self ⊗ b = (self, complement(self, size(self)·cosize(b)) ∘ b)`, as
    /// [`Layout::logical_product`](crate::Layout::logical_product).
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(2, 4), LayoutCode::leaf(2, 1)]);
    /// const P: LayoutCode = A.logical_product(&LayoutCode::leaf(6, 1));
    /// assert_eq!(P.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    #[track_caller]
    pub const fn logical_product(&self, b: &LayoutCode) -> LayoutCode {
        done(logical_product_in("logical_product", self, b))
    }

    /// The blocked product, as [`Layout::blocked_product`](crate::Layout::blocked_product):
    /// each block of `self` repeated in `b`'s pattern, mode by mode.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(2, 5), LayoutCode::leaf(5, 1)]);
    /// const B: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(3, 1), LayoutCode::leaf(4, 3)]);
    /// assert_eq!(A.blocked_product(&B).to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    #[track_caller]
    pub const fn blocked_product(&self, b: &LayoutCode) -> LayoutCode {
        done(zip_product("blocked_product", self, b, false))
    }

    /// The raked product, as [`Layout::raked_product`](crate::Layout::raked_product): the
    /// elements of `self` interleaved across `b`'s pattern, mode by mode.
    ///
    /// ```
    /// use strideweave::LayoutCode;
    /// const A: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(2, 5), LayoutCode::leaf(5, 1)]);
    /// const B: LayoutCode = LayoutCode::tuple(&[LayoutCode::leaf(3, 1), LayoutCode::leaf(4, 3)]);
    /// assert_eq!(A.raked_product(&B).to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// ```
    #[track_caller]
    pub const fn raked_product(&self, b: &LayoutCode) -> LayoutCode {
        done(zip_product("raked_product", self, b, true))
    }

    /// Stride-0 and extent-1 modes dropped, then coalesced; `1:0` when nothing is left (as
    /// [`Layout::filter`](crate::Layout::filter)).
    pub(crate) const fn filter(&self) -> LayoutCode {
        let n = self.nleaves as usize;
        let mut modes = [(0i64, 0i64); MAX_LEAVES];
        let mut k = 0;
        while k < n {
            modes[k] = if self.strides[k] == 0 {
                (1, 0)
            } else {
                (self.extents[k], self.strides[k])
            };
            k += 1;
        }
        let kept = coalesce_in_place(modes.split_at_mut(n).0, false);
        // Coalescing keeps the size and shrinks the reach: nothing to refuse.
        match Build::flat_or_unit("coalesce", modes.split_at(kept).0) {
            Ok(c) => c,
            Err(_) => LayoutCode::EMPTY,
        }
    }
}

/// The coalesced (`coalesce_x`) flat modes of `a` into `out`; their number.
const fn coalesced_x(a: &LayoutCode, out: &mut [(i64, i64); MAX_LEAVES]) -> usize {
    let n = a.nleaves as usize;
    let mut k = 0;
    while k < n {
        out[k] = (a.extents[k], a.strides[k]);
        k += 1;
    }
    coalesce_in_place(out.split_at_mut(n).0, true)
}

/// `A ∘ s:d` on the coalesced modes of A (the shared rule), errors named `op`.
const fn compose_leaf(
    op: &'static str,
    a: &[(i64, i64)],
    s: i64,
    d: i64,
    alone: bool,
    out: &mut [(i64, i64); MAX_LEAVES],
) -> Result<usize, CodeError> {
    match compose_leaf_rule(a, s, d, alone, out) {
        Ok(n) => Ok(n),
        Err(fault) => Err(CodeError::new(op, Kind::Compose { fault, s, d })),
    }
}

/// Whether `c` is injective (ignoring its stride-0 modes when `skip_broadcast`), by the
/// shared rule; `Err(steps)` beyond the work budget.
const fn injective(c: &LayoutCode, skip_broadcast: bool) -> Result<bool, u128> {
    let mut live = [(0i128, 0i128); MAX_LEAVES];
    let Some(n) = live_modes(c.extents(), c.strides(), skip_broadcast, &mut live) else {
        return Ok(false);
    };
    let mut scratch = [0i128; MAX_LEAVES + 1];
    injective_rule(live.split_at_mut(n).0, &mut scratch)
}

/// Fails on the first negative stride of `c`, its mode path followed by `suffix`.
pub(crate) const fn require_non_negative(
    op: &'static str,
    c: &LayoutCode,
    suffix: &'static str,
) -> Result<(), CodeError> {
    let mut k = 0;
    while k < c.nleaves as usize {
        if c.strides[k] < 0 {
            return Err(CodeError::new(
                op,
                Kind::NegativeStride {
                    stride: c.strides[k],
                    at: StrideAt::Leaf {
                        layout: *c,
                        leaf: k,
                        suffix,
                    },
                },
            ));
        }
        k += 1;
    }
    Ok(())
}

/// The run-time `Layout::compose_in`, step for step.
pub(crate) const fn compose_in(
    op: &'static str,
    a: &LayoutCode,
    b: &LayoutCode,
) -> Result<LayoutCode, CodeError> {
    let mut am = [(0i64, 0i64); MAX_LEAVES];
    let na = coalesced_x(a, &mut am);
    let modes = am.split_at(na).0;
    let mut out = [(0i64, 0i64); MAX_LEAVES];
    if b.int_root {
        let n = tri!(compose_leaf(
            op,
            modes,
            b.extents[0],
            b.strides[0],
            true,
            &mut out
        ));
        return Build::flat(op, out.split_at(n).0, true);
    }
    let mut build = Build::new();
    let (mut t, mut leaf) = (0, 0);
    while t < b.ntoks as usize {
        match b.toks[t] {
            crate::layout::int_tuple::ProfileToken::Push => build.open(),
            crate::layout::int_tuple::ProfileToken::Pop => build.close(),
            crate::layout::int_tuple::ProfileToken::Leaf => {
                let (s, d) = (b.extents[leaf], b.strides[leaf]);
                let n = tri!(compose_leaf(op, modes, s, d, false, &mut out));
                if n == 1 {
                    build.leaf(out[0].0, out[0].1);
                } else {
                    build.open();
                    let mut j = 0;
                    while j < n {
                        build.leaf(out[j].0, out[j].1);
                        j += 1;
                    }
                    build.close();
                }
                leaf += 1;
            }
        }
        t += 1;
    }
    let r = tri!(build.finish(op));
    // Distribution over B's modes (see the run-time compose_in): verified over B's domain
    // unless A is linear or B is injective once its stride-0 modes are ignored.
    let linear = na <= 1;
    if !linear && !matches!(injective(b, true), Ok(true)) {
        let size = b.size();
        if size as u128 > EXACT_STEPS {
            return Err(CodeError::new(
                op,
                Kind::TooLarge {
                    question: Question::Distributes { a: *a, b: *b },
                    steps: size as u128,
                },
            ));
        }
        let mut i = 0;
        while i < size {
            if r.eval(i) != a.eval_extended(b.eval(i)) {
                return Err(CodeError::new(
                    op,
                    Kind::NotDistributive {
                        a: *a,
                        b: *b,
                        at: i as i64,
                    },
                ));
            }
            i += 1;
        }
    }
    Ok(r)
}

/// The run-time `Layout::complement_in`, step for step.
pub(crate) const fn complement_in(
    op: &'static str,
    a: &LayoutCode,
    cotarget: usize,
) -> Result<LayoutCode, CodeError> {
    tri!(require_non_negative(op, a, ""));
    let mut pairs = [(0i64, 0i64); MAX_LEAVES];
    let (mut np, mut k) = (0, 0);
    while k < a.nleaves as usize {
        let (s, d) = (a.extents[k], a.strides[k]);
        if s != 1 && d != 0 {
            pairs[np] = (d, s);
            np += 1;
        }
        k += 1;
    }
    match injective(a, true) {
        Ok(true) => {}
        Ok(false) => return Err(CodeError::new(op, Kind::NotInjective { layout: *a })),
        Err(steps) => {
            return Err(CodeError::new(
                op,
                Kind::TooLarge {
                    question: Question::Injective { layout: *a },
                    steps,
                },
            ));
        }
    }
    if cotarget > i64::MAX as usize {
        return Err(CodeError::new(
            op,
            Kind::Overflow {
                what: "the cotarget",
            },
        ));
    }
    let mut out = [(0i64, 0i64); MAX_LEAVES + 1];
    match complement_rule(pairs.split_at_mut(np).0, cotarget as i64, &mut out) {
        Ok(n) => Build::flat_or_unit(op, out.split_at(n).0),
        Err(ComplementFault::NotMultiple { stride, covered }) => Err(CodeError::new(
            op,
            Kind::NotMultiple {
                stride,
                covered,
                layout: *a,
            },
        )),
        Err(ComplementFault::Overflow) => Err(CodeError::new(
            op,
            Kind::Overflow {
                what: "the covered extent",
            },
        )),
    }
}

/// The run-time `Layout::logical_divide_in`, step for step.
pub(crate) const fn logical_divide_in(
    op: &'static str,
    a: &LayoutCode,
    b: &LayoutCode,
) -> Result<LayoutCode, CodeError> {
    let rest = tri!(complement_in(op, b, a.size()));
    let mut pair = Build::new();
    pair.node(b);
    pair.node(&rest);
    let pair = tri!(pair.finish(op));
    compose_in(op, a, &pair)
}

/// The run-time `Layout::logical_product_in`, step for step.
pub(crate) const fn logical_product_in(
    op: &'static str,
    a: &LayoutCode,
    b: &LayoutCode,
) -> Result<LayoutCode, CodeError> {
    tri!(require_non_negative(op, b, ""));
    let Some(cotarget) = a.size().checked_mul(b.cosize()) else {
        return Err(CodeError::new(
            op,
            Kind::Overflow {
                what: "size(A)·cosize(B)",
            },
        ));
    };
    let complement = tri!(complement_in(op, a, cotarget));
    let repeat = tri!(compose_in(op, &complement, b));
    let mut pair = Build::new();
    pair.node(a);
    pair.node(&repeat);
    pair.finish(op)
}

/// The top-level modes of `c` followed by `1:0` modes up to `rank` (the run-time
/// `pad_to_rank`).
const fn pad_to_rank(
    op: &'static str,
    c: &LayoutCode,
    rank: usize,
) -> Result<LayoutCode, CodeError> {
    let mut b = Build::new();
    b.modes_of(c);
    let mut r = c.rank();
    while r < rank {
        b.leaf(1, 0);
        r += 1;
    }
    b.finish(op)
}

/// The blocked (`raked`: raked) product: the run-time `zip_product`, step for step.
pub(crate) const fn zip_product(
    op: &'static str,
    a: &LayoutCode,
    b: &LayoutCode,
    raked: bool,
) -> Result<LayoutCode, CodeError> {
    let rank = if a.rank() > b.rank() {
        a.rank()
    } else {
        b.rank()
    };
    let a = tri!(pad_to_rank(op, a, rank));
    let b = tri!(pad_to_rank(op, b, rank));
    let pair = tri!(logical_product_in(op, &a, &b));
    let first = tri!(pair.mode_as(op, 0));
    let second = tri!(pair.mode_as(op, 1));
    let n = if first.rank() < second.rank() {
        first.rank()
    } else {
        second.rank()
    };
    let mut out = Build::new();
    let mut i = 0;
    while i < n {
        let x = tri!(first.mode_as(op, i));
        let y = tri!(second.mode_as(op, i));
        out.open();
        if raked {
            out.node(&y);
            out.node(&x);
        } else {
            out.node(&x);
            out.node(&y);
        }
        out.close();
        i += 1;
    }
    out.finish(op)
}
