//! A rearrangement pattern as constant data: what `rearrange!` and `repeat!` emit after
//! parsing and checking the pattern at compile time, so nothing is parsed at run time.

/// Which macro a pattern belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `rearrange!`: every right symbol appears on the left.
    Rearrange,
    /// `repeat!`: right symbols absent on the left are new stride-0 modes.
    Repeat,
}

impl Op {
    /// The macro's name, as messages start: `rearrange!` or `repeat!`.
    ///
    /// ```
    /// assert_eq!(strideweave::__private::Op::Repeat.name(), "repeat!");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Op::Rearrange => "rearrange!",
            Op::Repeat => "repeat!",
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
pub struct Tok {
    /// What it is.
    pub kind: TokKind,
    /// For a symbol, its index in [`PatternCode::names`].
    pub sym: u16,
    /// For `(`, the index of its `)` on the same side; else the token's own index.
    pub close: u16,
    /// The first column (in characters) of the term in the pattern text.
    pub start: u32,
    /// The column after the term (for a group, after its `)`).
    pub end: u32,
    /// The term's dotted path in its side (`1.0`).
    pub path: &'static str,
    /// The term's text with single spaces (`(h w)`, `a`, `1`, `...`).
    pub text: &'static str,
}

impl Tok {
    /// A symbol.
    pub const fn symbol(
        sym: u16,
        start: u32,
        end: u32,
        path: &'static str,
        text: &'static str,
    ) -> Tok {
        Tok {
            kind: TokKind::Symbol,
            sym,
            close: 0,
            start,
            end,
            path,
            text,
        }
    }

    /// `1`.
    pub const fn unit(start: u32, end: u32, path: &'static str) -> Tok {
        Tok {
            kind: TokKind::Unit,
            sym: 0,
            close: 0,
            start,
            end,
            path,
            text: "1",
        }
    }

    /// `...`.
    pub const fn ellipsis(start: u32, end: u32, path: &'static str) -> Tok {
        Tok {
            kind: TokKind::Ellipsis,
            sym: 0,
            close: 0,
            start,
            end,
            path,
            text: "...",
        }
    }

    /// `(`, whose `)` is token `close` of the side.
    pub const fn open(
        close: u16,
        start: u32,
        end: u32,
        path: &'static str,
        text: &'static str,
    ) -> Tok {
        Tok {
            kind: TokKind::Open,
            sym: 0,
            close,
            start,
            end,
            path,
            text,
        }
    }

    /// `)`.
    pub const fn close() -> Tok {
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

/// A keyword argument: `h = 4` gives symbol `h` the extent 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// The symbol's index in [`PatternCode::names`].
    pub sym: u16,
    /// The extent.
    pub value: usize,
}

/// A pattern parsed and checked at compile time, with its keywords.
///
/// ```
/// use strideweave::__private::{Op, PatternCode, Tok};
/// // "a b -> b a"
/// const P: PatternCode = PatternCode {
///     op: Op::Rearrange,
///     text: "a b -> b a",
///     left: &[Tok::symbol(0, 0, 1, "0", "a"), Tok::symbol(1, 2, 3, "1", "b")],
///     right: &[Tok::symbol(1, 7, 8, "0", "b"), Tok::symbol(0, 9, 10, "1", "a")],
///     left_span: (0, 3),
///     names: &["a", "b"],
///     keywords: &[],
/// };
/// assert_eq!(P.op.name(), "rearrange!");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PatternCode {
    /// The macro.
    pub op: Op,
    /// The pattern as written (quoted in messages).
    pub text: &'static str,
    /// The left side's tokens.
    pub left: &'static [Tok],
    /// The right side's tokens.
    pub right: &'static [Tok],
    /// The columns of the left side's text.
    pub left_span: (u32, u32),
    /// The symbols' names.
    pub names: &'static [&'static str],
    /// The keyword extents.
    pub keywords: &'static [Keyword],
}

/// A keyword extent as the expansion writes it: `extent(H)` makes a constant of another type
/// a type error at the user's constant.
///
/// ```
/// const H: usize = 4;
/// assert_eq!(strideweave::__private::extent(H), 4);
/// ```
pub const fn extent(value: usize) -> usize {
    value
}
