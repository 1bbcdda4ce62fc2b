//! The static front end of the rearrangement engine (`crate::pattern`): the rule run in const
//! context on a [`ShapeCode`], with fixed arrays of the code's capacity as scratch, giving an
//! [`Outcome`] the compiler keeps per pattern and shape, and the message of a failure.
#![allow(clippy::large_enum_variant)]

use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode};
use crate::pattern::{
    LEAF, Msg, MsgState, NO_PART, NO_SOURCE, Op, Out, Part, PatternRef, Scratch, explain, fast,
    keywords,
};

/// The most symbols a pattern may have on the static path (one per leaf at most, bar
/// extent-one factors), and the most parts the checked path extracts.
const MAX_SYMBOLS: usize = MAX_LEAVES;
/// The deepest nesting of a static shape, plus one.
const MAX_DEPTH: usize = MAX_TOKENS / 2 + 1;

/// Where each leaf of a rearrangement's result takes its stride from: leaf `k`'s stride is
/// `multiplier[k]` times the stride of source leaf `source[k]` (0 without a source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    source: [usize; MAX_LEAVES],
    multiplier: [i64; MAX_LEAVES],
    len: usize,
    /// The macro, named in the view's errors.
    pub(crate) op: Op,
}

impl Plan {
    /// [`strides`](Plan::strides) without an allocation: written into `out`, returned as
    /// the filled prefix. A product that overflows can only belong to an extent-one leaf
    /// after a split, whose stride is immaterial (contracts D5): it is 0.
    pub(crate) fn strides_into<'o>(
        &self,
        source: &[i64],
        out: &'o mut [i64; MAX_LEAVES],
    ) -> &'o [i64] {
        for (k, o) in out.iter_mut().enumerate().take(self.len) {
            *o = match self.source[k] {
                NO_SOURCE => 0,
                s => source[s].checked_mul(self.multiplier[k]).unwrap_or(0),
            };
        }
        &out[..self.len]
    }

    /// The result's strides from the source's.
    #[cfg(test)]
    pub(crate) fn strides(&self, source: &[i64]) -> Vec<i64> {
        let mut out = [0; MAX_LEAVES];
        self.strides_into(source, &mut out).to_vec()
    }
}

/// What [`compile`] decides. A failure carries no message (it would add a kilobyte to every
/// result the compiler keeps); [`message_into`] words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The result's shape and plan.
    Ok(ShapeCode, Plan),
    /// The pattern's own checks passed; the shape is only known at run time.
    Unchecked,
    /// The source is the result of an earlier failed check: accepted silently.
    Poisoned,
    /// A mistake: [`message_into`] says which.
    Err,
}

/// Checks `p` against the source shape `src` and computes the result. Never panics; a
/// poisoned source gives [`Outcome::Poisoned`].
///
/// ```
/// use strideweave::{StaticShape, shape_t};
/// use strideweave::__private::{MSG_CAP, Op, Outcome, PatternCode, Side, compile, message_into};
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
/// let mut buf = [0; MSG_CAP];
/// assert_eq!(message_into(Some(&s3), p, &mut buf).text(&buf), "\
/// rearrange!: the left side has 2 terms but the source has 3 top-level modes (shape (2,3,4))
///   a b -> b a
///   ^^^");
/// ```
pub const fn compile(src: &ShapeCode, p: &PatternRef<'_>) -> Outcome {
    if src.poisoned {
        return match check_pattern(p) {
            Outcome::Err => Outcome::Err,
            _ => Outcome::Poisoned,
        };
    }
    let shape = src.view();
    let mut toks = [LEAF; MAX_TOKENS];
    let mut extents = [0i64; MAX_LEAVES];
    let mut source = [NO_SOURCE; MAX_LEAVES];
    let mut multiplier = [0i64; MAX_LEAVES];
    let mut out = Out {
        toks: &mut toks,
        ntoks: 0,
        extents: &mut extents,
        source: &mut source,
        multiplier: &mut multiplier,
        nleaves: 0,
    };
    let mut given = [0i64; MAX_SYMBOLS];
    let mut sides = [0u8; MAX_SYMBOLS];
    let mut kind = [0u8; MAX_SYMBOLS];
    let mut t0 = [0usize; MAX_SYMBOLS];
    let mut t1 = [0usize; MAX_SYMBOLS];
    let mut leaf0 = [0usize; MAX_SYMBOLS];
    let mut extent = [0i64; MAX_SYMBOLS];
    let mut mult = [0i64; MAX_SYMBOLS];
    let mut cur = [0usize; MAX_DEPTH];
    let mut end = [0usize; MAX_DEPTH];
    let mut leaf = [0usize; MAX_DEPTH];
    let mut scratch = Scratch {
        given: &mut given,
        sides: &mut sides,
        kind: &mut kind,
        t0: &mut t0,
        t1: &mut t1,
        leaf0: &mut leaf0,
        extent: &mut extent,
        mult: &mut mult,
        cur: &mut cur,
        end: &mut end,
        leaf: &mut leaf,
    };
    let mut ok = fast(shape, p, &mut scratch, &mut out);
    if !ok {
        // The checked path: the same rule with messages (here only its verdict is kept).
        let mut parts = [NO_PART; MAX_SYMBOLS];
        let mut msg = [0u8; 0];
        ok = explain(shape, p, &mut parts, &mut out, &mut msg, MsgState::EMPTY).is_ok();
    }
    if !ok {
        return Outcome::Err;
    }
    let (ntoks, nleaves) = (out.ntoks, out.nleaves);
    Outcome::Ok(
        ShapeCode::from_raw(toks, ntoks, extents, nleaves),
        Plan {
            source,
            multiplier,
            len: nleaves,
            op: p.op,
        },
    )
}

/// The checks that need only the pattern and its keyword values (for a tensor whose shape
/// is known only at run time).
pub const fn check_pattern(p: &PatternRef<'_>) -> Outcome {
    let mut msg = [0u8; 0];
    match keywords(p, &mut msg, MsgState::EMPTY) {
        Err(_) => Outcome::Err,
        Ok(()) => Outcome::Unchecked,
    }
}

/// Writes into `buf` the message of the mistake that made [`compile`] (for `Some(src)`) or
/// [`check_pattern`] (for `None`) fail, starting with the macro's name and ending with the
/// tensor's shape unless the message names it; a note that there is none otherwise.
pub const fn message_into(src: Option<&ShapeCode>, p: &PatternRef<'_>, buf: &mut [u8]) -> MsgState {
    let mut m = Msg::new(buf);
    m.str(p.op.name());
    m.str(": ");
    m.mark();
    let start = m.state();
    let failed = match src {
        Some(src) if !src.is_poisoned() => {
            let mut toks = [LEAF; MAX_TOKENS];
            let mut extents = [0i64; MAX_LEAVES];
            let mut source = [NO_SOURCE; MAX_LEAVES];
            let mut multiplier = [0i64; MAX_LEAVES];
            let mut out = Out {
                toks: &mut toks,
                ntoks: 0,
                extents: &mut extents,
                source: &mut source,
                multiplier: &mut multiplier,
                nleaves: 0,
            };
            let mut parts: [Part; MAX_SYMBOLS] = [NO_PART; MAX_SYMBOLS];
            match explain(src.view(), p, &mut parts, &mut out, buf, start) {
                Ok(()) => None,
                Err(st) => {
                    let mut m = Msg::resume(buf, st);
                    if !st.names_shape() {
                        m.str("\n  the tensor's shape is ");
                        m.shape(src.view());
                    }
                    Some(m.state())
                }
            }
        }
        _ => match keywords(p, buf, start) {
            Err(st) => Some(st),
            Ok(()) => None,
        },
    };
    match failed {
        Some(st) => st,
        None => {
            let mut m = Msg::resume(buf, start);
            m.str("no mistake");
            m.state()
        }
    }
}
