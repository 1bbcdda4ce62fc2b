//! A rearrangement pattern as the engine reads it: each side's tokens as fixed-width byte
//! records (the encoding of `strideweave_syntax::encode_pattern`), the symbols' names and the
//! keyword extents. `rearrange!` and `repeat!` emit one as constant data ([`PatternCode`]);
//! `Layout::rearrange` encodes its string once per call and borrows it ([`PatternRef`]).

use strideweave_syntax::{
    F_CLOSE, F_END, F_KIND, F_PATH, F_PATH_LEN, F_START, F_SYM, F_TEXT, F_TEXT_LEN, K_CLOSE,
    K_OPEN, K_SYMBOL, K_UNIT, RECORD,
};

/// Which operation a pattern is for, as the user called it: the rule it follows
/// ([`rule`](Op::rule)) and the name its messages start with. The `Einops*` operations
/// (`strideweave::einops`) follow the same rules on a pattern whose groups arrive mirrored
/// (`strideweave_syntax::EncodedPattern::mirror_groups`); only their names differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `rearrange`: every right symbol appears on the left.
    Rearrange,
    /// `repeat`: right symbols absent on the left are new stride-0 modes.
    Repeat,
    /// `reduce`: left symbols absent on the right (of any extent) are listed after the
    /// result's leaves, as the leaves a reduction folds (`Out::nkept` says where the result ends).
    Reduce,
    /// `einops::rearrange`: [`Rearrange`](Op::Rearrange)'s rule, groups read as einops reads them.
    EinopsRearrange,
    /// `einops::repeat`: [`Repeat`](Op::Repeat)'s rule, groups read as einops reads them.
    EinopsRepeat,
    /// `einops::reduce`: [`Reduce`](Op::Reduce)'s rule, groups read as einops reads them.
    EinopsReduce,
}

impl Op {
    /// The rule the operation follows: `Rearrange`, `Repeat` or `Reduce`.
    ///
    /// ```
    /// use strideweave::__private::Op;
    /// assert_eq!(Op::EinopsRepeat.rule(), Op::Repeat);
    /// ```
    pub const fn rule(self) -> Op {
        match self {
            Op::Rearrange | Op::EinopsRearrange => Op::Rearrange,
            Op::Repeat | Op::EinopsRepeat => Op::Repeat,
            Op::Reduce | Op::EinopsReduce => Op::Reduce,
        }
    }

    /// Whether the operation reads groups as einops does (`strideweave::einops`).
    ///
    /// ```
    /// use strideweave::__private::Op;
    /// assert!(Op::EinopsReduce.is_einops() && !Op::Reduce.is_einops());
    /// ```
    pub const fn is_einops(self) -> bool {
        matches!(
            self,
            Op::EinopsRearrange | Op::EinopsRepeat | Op::EinopsReduce
        )
    }

    /// The macro's name, as messages start: `rearrange!`, `einops::rearrange!`, ….
    ///
    /// ```
    /// assert_eq!(strideweave::__private::Op::Repeat.name(), "repeat!");
    /// assert_eq!(strideweave::__private::Op::EinopsRepeat.name(), "einops::repeat!");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Op::Rearrange => "rearrange!",
            Op::Repeat => "repeat!",
            Op::Reduce => "reduce!",
            Op::EinopsRearrange => "einops::rearrange!",
            Op::EinopsRepeat => "einops::repeat!",
            Op::EinopsReduce => "einops::reduce!",
        }
    }

    /// The function's name, as run-time messages start: `rearrange`, `einops::rearrange`, ….
    ///
    /// ```
    /// assert_eq!(strideweave::__private::Op::Repeat.method(), "repeat");
    /// assert_eq!(strideweave::__private::Op::EinopsRepeat.method(), "einops::repeat");
    /// ```
    pub const fn method(self) -> &'static str {
        match self {
            Op::Rearrange => "rearrange",
            Op::Repeat => "repeat",
            Op::Reduce => "reduce",
            Op::EinopsRearrange => "einops::rearrange",
            Op::EinopsRepeat => "einops::repeat",
            Op::EinopsReduce => "einops::reduce",
        }
    }
}

/// The kind of a pattern token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// A symbol.
    Symbol,
    /// `1`.
    Unit,
    /// `(`: a group starts.
    Open,
    /// `)`: a group ends.
    Close,
    /// `...`.
    Ellipsis,
}

/// One token of a pattern side, with what messages need precomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok<'a> {
    /// What it is.
    pub kind: TokKind,
    /// For a symbol, its index in [`PatternRef::names`].
    pub sym: usize,
    /// For `(`, the index of its `)` on the same side; else the token's own index.
    pub close: usize,
    /// The first column (in characters) of the term in the pattern text.
    pub start: u32,
    /// The column after the term (for a group, after its `)`).
    pub end: u32,
    /// The term's dotted path in its side (`1.0`).
    pub path: &'a str,
    /// The term's text with single spaces (`(h w)`, `a`, `1`, `...`).
    pub text: &'a str,
}

impl Tok<'_> {
    /// The `)` of a group (and a placeholder where no token applies).
    pub const fn close() -> Tok<'static> {
        Tok {
            kind: TokKind::Close,
            sym: 0,
            close: 0,
            start: 0,
            end: 0,
            path: "",
            text: ")",
        }
    }
}

/// One side of a pattern as the macros emit it: the tokens as fixed-width records in a byte
/// string and the texts messages quote in a string (the encoding of
/// `strideweave_syntax::encode_pattern`). Read token `i` with [`get`](Side::get), or one of
/// its fields with the cheaper [`kind`](Side::kind), [`sym`](Side::sym) and
/// [`close`](Side::close).
///
/// ```
/// use strideweave::__private::{Side, TokKind};
/// let text = "(h w) c -> c h w";
/// let e = strideweave_syntax::encode_pattern(text, &strideweave_syntax::parse_pattern(text).unwrap()).unwrap();
/// let left = Side {
///     toks: Box::leak(e.left.toks.into_boxed_slice()),
///     strings: Box::leak(e.left.strings.into_boxed_str()),
/// };
/// assert_eq!(left.len(), 5);
/// assert_eq!(left.kind(0), TokKind::Open);
/// assert_eq!(left.close(0), 3);
/// let w = left.get(2);
/// assert_eq!((w.kind, w.sym, w.start, w.end, w.path, w.text), (TokKind::Symbol, 1, 3, 4, "0.1", "w"));
/// assert_eq!(left.get(0).text, "(h w)");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// The records.
    pub toks: &'a [u8],
    /// The paths and texts the records point into.
    pub strings: &'a str,
}

impl<'a> Side<'a> {
    /// The number of tokens.
    ///
    /// ```
    /// assert_eq!(strideweave::__private::Side { toks: &[], strings: "" }.len(), 0);
    /// ```
    pub const fn len(&self) -> usize {
        self.toks.len() / RECORD
    }

    /// Whether the side has no tokens.
    ///
    /// ```
    /// assert!(strideweave::__private::Side { toks: &[], strings: "" }.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    const fn field(&self, i: usize, f: usize) -> usize {
        let at = i * RECORD + 4 * f;
        self.toks[at] as usize
            | (self.toks[at + 1] as usize) << 8
            | (self.toks[at + 2] as usize) << 16
            | (self.toks[at + 3] as usize) << 24
    }

    const fn string(&self, offset: usize, len: usize) -> &'a str {
        self.strings.split_at(offset).1.split_at(len).0
    }

    /// The kind of token `i`.
    pub const fn kind(&self, i: usize) -> TokKind {
        match self.field(i, F_KIND) as u32 {
            K_SYMBOL => TokKind::Symbol,
            K_UNIT => TokKind::Unit,
            K_OPEN => TokKind::Open,
            K_CLOSE => TokKind::Close,
            _ => TokKind::Ellipsis,
        }
    }

    /// The symbol index of token `i` (0 unless it is a symbol).
    pub const fn sym(&self, i: usize) -> usize {
        self.field(i, F_SYM)
    }

    /// For a `(` at `i`, the index of its `)`; else `i`.
    pub const fn close(&self, i: usize) -> usize {
        self.field(i, F_CLOSE)
    }

    /// Token `i`, decoded.
    pub const fn get(&self, i: usize) -> Tok<'a> {
        Tok {
            kind: self.kind(i),
            sym: self.field(i, F_SYM),
            close: self.field(i, F_CLOSE),
            start: self.field(i, F_START) as u32,
            end: self.field(i, F_END) as u32,
            path: self.string(self.field(i, F_PATH), self.field(i, F_PATH_LEN)),
            text: self.string(self.field(i, F_TEXT), self.field(i, F_TEXT_LEN)),
        }
    }
}

/// A keyword argument: `h = 4` gives symbol `h` the extent 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// The symbol's index in [`PatternRef::names`].
    pub sym: usize,
    /// The extent (at least 1; the engine reports a smaller one).
    pub value: i64,
}

/// A pattern parsed and checked by `strideweave_syntax`, with its keywords, as the engine
/// reads it (see [`Side`]). The macros emit a [`PatternCode`] (all of it `'static`);
/// `Layout::rearrange` borrows one from its encoded string.
///
/// ```
/// use strideweave::__private::{Op, PatternCode, Side};
/// // "a -> a 1"
/// const P: PatternCode = PatternCode {
///     op: Op::Rearrange,
///     text: "a -> a 1",
///     left: Side {
///         toks: b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\0\0",
///         strings: "0a",
///     },
///     right: Side {
///         toks: b"\0\0\0\0\0\0\0\0\0\0\0\0\x05\0\0\0\x06\0\0\0\0\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\0\0\
///                 \x01\0\0\0\0\0\0\0\x01\0\0\0\x07\0\0\0\x08\0\0\0\x02\0\0\0\x01\0\0\0\x03\0\0\0\x01\0\0\0",
///         strings: "0a11",
///     },
///     left_span: (0, 1),
///     names: &["a"],
///     keywords: &[],
/// };
/// assert_eq!(P.op.name(), "rearrange!");
/// assert_eq!((P.right.len(), P.right.get(1).text, P.right.get(1).start), (2, "1", 7));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PatternRef<'a> {
    /// The rule: `rearrange`, `repeat` or `reduce`.
    pub op: Op,
    /// The pattern as written (quoted in messages).
    pub text: &'a str,
    /// The left side's tokens.
    pub left: Side<'a>,
    /// The right side's tokens.
    pub right: Side<'a>,
    /// The columns of the left side's text.
    pub left_span: (u32, u32),
    /// The symbols' names.
    pub names: &'a [&'a str],
    /// The keyword extents.
    pub keywords: &'a [Keyword],
}

impl<'a> PatternRef<'a> {
    /// The pattern `e` encodes (from `text`, for operation `op`), with its symbols' `names`
    /// and `keywords`: what the run-time front ends borrow.
    pub(crate) fn over(
        op: Op,
        text: &'a str,
        e: &'a strideweave_syntax::EncodedPattern,
        names: &'a [&'a str],
        keywords: &'a [Keyword],
    ) -> PatternRef<'a> {
        let side = |s: &'a strideweave_syntax::EncodedSide| Side {
            toks: &s.toks,
            strings: &s.strings,
        };
        PatternRef {
            op,
            text,
            left: side(&e.left),
            right: side(&e.right),
            left_span: e.left_span,
            names,
            keywords,
        }
    }
}

/// A pattern as `rearrange!` and `repeat!` emit it: constant data.
pub type PatternCode = PatternRef<'static>;

/// A keyword extent as the expansion writes it: `extent(H)` makes a constant of another
/// type than `i64` (the type of every extent and size) a type error at the user's constant.
///
/// ```
/// const H: i64 = 4;
/// assert_eq!(strideweave::__private::extent(H), 4);
/// ```
pub const fn extent(value: i64) -> i64 {
    value
}
