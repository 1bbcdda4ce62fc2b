//! The static front end of the rearrangement engine (`crate::pattern`): the rule run in const
//! context on a [`ShapeCode`], with fixed arrays of the code's capacity as scratch, giving an
//! [`Outcome`] the compiler keeps per pattern and shape, and the message of a failure.
#![allow(clippy::large_enum_variant)]

#[cfg(test)]
mod tests;

use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode};
use crate::pattern::{
    LEAF, Msg, MsgState, NO_PART, NO_SOURCE, NO_SYM, Out, Part, PatternRef, Plan, Scratch, explain,
    fast, keywords,
};

/// The most symbols a pattern may have on the static path (one per leaf at most, bar
/// extent-one factors), and the most parts the checked path extracts.
const MAX_SYMBOLS: usize = MAX_LEAVES;
/// The deepest nesting of a static shape, plus one.
const MAX_DEPTH: usize = MAX_TOKENS / 2 + 1;

/// The engine's [`Plan`] as the static path keeps it: fixed arrays of a [`ShapeCode`]'s
/// capacity.
pub type FixedPlan = Plan<[u8; MAX_TOKENS], [i64; MAX_LEAVES], [usize; MAX_LEAVES]>;

impl FixedPlan {
    /// The result's shape.
    ///
    /// ```
    /// use strideweave::__private::{FixedPlan, Outcome};
    /// // A static tensor's rearrangement keeps `Outcome::Ok(plan)` (see `compile`).
    /// let shape = |o: &Outcome| if let Outcome::Ok(p) = o { Some(FixedPlan::shape(p)) } else { None };
    /// assert_eq!(shape(&Outcome::Unchecked), None);
    /// ```
    pub const fn shape(&self) -> ShapeCode {
        ShapeCode::from_raw(self.toks, self.ntoks, self.extents, self.nleaves)
    }
}

/// What [`compile`] decides. A failure carries no message (it would add a kilobyte to every
/// result the compiler keeps); [`message_into`] words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The plan, which holds the result's shape.
    Ok(FixedPlan),
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
/// let Outcome::Ok(plan) = compile(&<shape_t!(2, 3)>::SHAPE, p) else { panic!() };
/// assert_eq!(plan.shape().to_string(), "(3,2)");
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
    let mut room = Room::NEW;
    let (mut scratch, mut out) = room.split();
    let mut ok = fast(shape, p, &mut scratch, &mut out);
    if !ok {
        // The checked path: the same rule with messages (here only its verdict is kept).
        let mut parts = [NO_PART; MAX_SYMBOLS];
        let mut syms = [NO_SYM; MAX_SYMBOLS];
        let mut msg = [0u8; 0];
        ok = explain(
            shape,
            p,
            &mut parts,
            &mut syms,
            &mut out,
            &mut msg,
            MsgState::EMPTY,
        )
        .is_ok();
    }
    if !ok {
        return Outcome::Err;
    }
    let (ntoks, nleaves, nkept) = (out.ntoks, out.nleaves, out.nkept);
    Outcome::Ok(Plan {
        toks: room.toks,
        ntoks,
        extents: room.extents,
        source: room.source,
        multiplier: room.multiplier,
        nleaves,
        nkept,
        op: p.op,
    })
}

/// The engine's output and scratch as arrays of a [`ShapeCode`]'s capacity.
pub(crate) struct Room {
    toks: [u8; MAX_TOKENS],
    extents: [i64; MAX_LEAVES],
    source: [usize; MAX_LEAVES],
    multiplier: [i64; MAX_LEAVES],
    given: [i64; MAX_SYMBOLS],
    sides: [u8; MAX_SYMBOLS],
    kind: [u8; MAX_SYMBOLS],
    t0: [usize; MAX_SYMBOLS],
    t1: [usize; MAX_SYMBOLS],
    leaf0: [usize; MAX_SYMBOLS],
    extent: [i64; MAX_SYMBOLS],
    mult: [i64; MAX_SYMBOLS],
    cur: [usize; MAX_DEPTH],
    end: [usize; MAX_DEPTH],
    leaf: [usize; MAX_DEPTH],
}

impl Room {
    /// Zeroed, as the engine expects its scratch.
    pub(crate) const NEW: Room = Room {
        toks: [LEAF; MAX_TOKENS],
        extents: [0; MAX_LEAVES],
        source: [NO_SOURCE; MAX_LEAVES],
        multiplier: [0; MAX_LEAVES],
        given: [0; MAX_SYMBOLS],
        sides: [0; MAX_SYMBOLS],
        kind: [0; MAX_SYMBOLS],
        t0: [0; MAX_SYMBOLS],
        t1: [0; MAX_SYMBOLS],
        leaf0: [0; MAX_SYMBOLS],
        extent: [0; MAX_SYMBOLS],
        mult: [0; MAX_SYMBOLS],
        cur: [0; MAX_DEPTH],
        end: [0; MAX_DEPTH],
        leaf: [0; MAX_DEPTH],
    };

    /// The scratch and the output, borrowed.
    pub(crate) const fn split(&mut self) -> (Scratch<'_>, Out<'_>) {
        (
            Scratch {
                given: &mut self.given,
                sides: &mut self.sides,
                kind: &mut self.kind,
                t0: &mut self.t0,
                t1: &mut self.t1,
                leaf0: &mut self.leaf0,
                extent: &mut self.extent,
                mult: &mut self.mult,
                cur: &mut self.cur,
                end: &mut self.end,
                leaf: &mut self.leaf,
            },
            Out {
                toks: &mut self.toks,
                ntoks: 0,
                extents: &mut self.extents,
                source: &mut self.source,
                multiplier: &mut self.multiplier,
                nleaves: 0,
                nkept: 0,
            },
        )
    }
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
    message_as(src, p, p.op.name(), None, buf)
}

/// [`message_into`] for `p` run by the operation `name`, on its input `input` when it has
/// several (the message then starts `name: input k: ` and ends with `input k's shape`).
pub(crate) const fn message_as(
    src: Option<&ShapeCode>,
    p: &PatternRef<'_>,
    name: &str,
    input: Option<usize>,
    buf: &mut [u8],
) -> MsgState {
    let mut m = Msg::new(buf);
    m.str(name);
    m.str(": ");
    if let Some(k) = input {
        m.str("input ");
        m.int(k as i64);
        m.str(": ");
    }
    m.mark();
    let start = m.state();
    // A keyword's own mistake does not depend on the shape: its message does not name it.
    let failed = match (keywords(p, buf, start), src) {
        (Err(st), _) => Some(st),
        (Ok(()), Some(src)) if !src.is_poisoned() => {
            let mut room = Room::NEW;
            let (_, mut out) = room.split();
            let mut parts: [Part; MAX_SYMBOLS] = [NO_PART; MAX_SYMBOLS];
            let mut syms = [NO_SYM; MAX_SYMBOLS];
            match explain(src.view(), p, &mut parts, &mut syms, &mut out, buf, start) {
                Ok(()) => None,
                Err(st) => {
                    let mut m = Msg::resume(buf, st);
                    if !st.names_shape() {
                        match input {
                            Some(k) => {
                                m.str("\n  input ");
                                m.int(k as i64);
                                m.str("'s shape is ");
                            }
                            None => m.str("\n  the tensor's shape is "),
                        }
                        m.shape(src.view());
                    }
                    Some(m.state())
                }
            }
        }
        (Ok(()), _) => None,
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
