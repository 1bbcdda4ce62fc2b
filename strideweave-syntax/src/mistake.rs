//! The mistakes a shape, stride or layout literal can make, each with the values that make it
//! and one sentence that every front end prints: `"…".parse::<Layout>()`, `layout!("…")` and
//! the token form `layout!(…)`.

use std::fmt;
use std::ops::Range;

use crate::check::NotationError;

/// One mistake in a layout literal, with its values. Its `Display` is the one sentence that
/// describes it; a front end only adds its name before it and shows where it is.
///
/// ```
/// use strideweave_syntax::LayoutMistake;
/// let m = LayoutMistake::ExtentBelowOne { extent: 0, mode: "1.0".into() };
/// assert_eq!(m.to_string(), "extent 0 at mode 1.0 must be at least 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutMistake {
    /// The text notation: something other than what the grammar allows here.
    Expected {
        /// What the grammar allows here.
        expected: Expected,
        /// The character found, `None` at the end of the text.
        found: Option<char>,
    },
    /// The text notation: more text after a complete value.
    Trailing {
        /// The first character after the value.
        found: char,
    },
    /// The text notation: brackets nested deeper than [`MAX_NESTING`](crate::MAX_NESTING)
    /// levels (reported at the first bracket beyond it).
    TooDeep {
        /// The limit, [`MAX_NESTING`](crate::MAX_NESTING).
        limit: usize,
    },
    /// An integer outside `i64`.
    IntegerOutOfRange {
        /// The integer as written (sign and digits).
        text: String,
    },
    /// An extent below 1 (every extent of a shape is at least 1).
    ExtentBelowOne {
        /// The extent.
        extent: i64,
        /// Its mode path, `1.0` for child 0 of top-level mode 1.
        mode: String,
    },
    /// A stride whose leaf-and-nesting structure differs from the shape's.
    NotCongruent {
        /// The shape, in CuTe notation.
        shape: String,
        /// The stride, in CuTe notation.
        stride: String,
        /// The mode path where they differ; `None` at the root.
        mode: Option<String>,
        /// What the shape has there.
        shape_has: Part,
        /// What the stride has there.
        stride_has: Part,
    },
    /// The size, the product of the extents, overflows `i64` at this extent.
    SizeOverflow {
        /// The product of the extents before this one.
        size: i64,
        /// The extent that overflows it.
        extent: i64,
        /// Its mode path.
        mode: String,
    },
    /// One mode's span, (extent − 1) × stride, does not fit in `i64`.
    SpanOverflow {
        /// The extent.
        extent: i64,
        /// The stride.
        stride: i64,
        /// Its mode path.
        mode: String,
    },
    /// The sum of the spans over the positive strides (the largest index reached) or over
    /// the negative strides (the smallest) overflows `i64` at this mode.
    ReachOverflow {
        /// The sum of the spans of the same sign before this mode.
        reach: i64,
        /// The extent.
        extent: i64,
        /// The stride; its sign says which end of the reach overflows.
        stride: i64,
        /// Its mode path.
        mode: String,
    },
}

/// What the grammar of the text notation allows at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// One character: `:`, `(`, `)`, `,`.
    Char(char),
    /// A value: an integer, `(` or `[`.
    Value,
    /// Digits after a sign.
    Digits,
    /// A comma, or the bracket that closes the tuple opened at byte offset `opened_at`.
    CommaOrClose {
        /// `)` or `]`.
        close: char,
        /// Where the tuple opens.
        opened_at: usize,
    },
}

/// What one side of a congruence mistake has at the place where the two differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A leaf.
    Leaf,
    /// A tuple of this many modes.
    Tuple(usize),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Leaf => f.write_str("a leaf"),
            Part::Tuple(1) => f.write_str("a tuple of 1 mode"),
            Part::Tuple(n) => write!(f, "a tuple of {n} modes"),
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Char(c) => write!(f, "'{c}'"),
            Expected::Value => f.write_str("an integer, '(' or '['"),
            Expected::Digits => f.write_str("digits after the sign"),
            Expected::CommaOrClose { close, opened_at } => {
                write!(
                    f,
                    "',' or '{close}' in the tuple opened at offset {opened_at}"
                )
            }
        }
    }
}

impl fmt::Display for LayoutMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutMistake::Expected { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                match found {
                    Some(c) => write!(f, "'{c}'"),
                    None => f.write_str("the end of the text"),
                }
            }
            LayoutMistake::Trailing { found } => {
                write!(f, "unexpected '{found}' after a complete value")
            }
            LayoutMistake::TooDeep { limit } => write!(
                f,
                "nesting deeper than {limit} levels: this bracket opens level {}",
                limit + 1
            ),
            LayoutMistake::IntegerOutOfRange { text } => write!(
                f,
                "integer `{text}` does not fit in i64 (from {} to {})",
                i64::MIN,
                i64::MAX
            ),
            LayoutMistake::ExtentBelowOne { extent, mode } => {
                write!(f, "extent {extent} at mode {mode} must be at least 1")
            }
            LayoutMistake::NotCongruent {
                shape,
                stride,
                mode,
                shape_has,
                stride_has,
            } => {
                write!(
                    f,
                    "stride {stride} is not congruent with shape {shape}: at "
                )?;
                match mode {
                    Some(mode) => write!(f, "mode {mode}")?,
                    None => f.write_str("the root")?,
                }
                write!(f, " the shape has {shape_has}, the stride {stride_has}")
            }
            LayoutMistake::SizeOverflow { size, extent, mode } => write!(
                f,
                "the size of the shape, the product of its extents, overflows i64 at mode \
                 {mode}: {size} × {extent} > {}",
                i64::MAX
            ),
            LayoutMistake::SpanOverflow {
                extent,
                stride,
                mode,
            } => write!(
                f,
                "the {} index the layout reaches overflows i64 at mode {mode}: \
                 (extent {extent} - 1) × stride {stride} does not fit in i64",
                if *stride < 0 { "smallest" } else { "largest" }
            ),
            LayoutMistake::ReachOverflow {
                reach,
                extent,
                stride,
                mode,
            } => {
                let (end, sign, bound, cmp) = if *stride < 0 {
                    ("smallest", "negative", i64::MIN, '<')
                } else {
                    ("largest", "positive", i64::MAX, '>')
                };
                write!(
                    f,
                    "the {end} index the layout reaches, the sum of (extent - 1) × stride over \
                     the {sign} strides, overflows i64 at mode {mode}: \
                     {reach} + ({extent} - 1) × {stride} {cmp} {bound}"
                )
            }
        }
    }
}

/// A [`LayoutMistake`] and where it is: a byte range of the text, or a token span.
///
/// ```
/// let err = strideweave_syntax::parse_int_tuple("(2,x)").unwrap_err();
/// assert_eq!(err.position, 3..4);
/// assert_eq!(err.to_string(), "expected an integer, '(' or '[', found 'x'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError<S> {
    /// Where the mistake is.
    pub position: S,
    /// What the mistake is.
    pub mistake: LayoutMistake,
}

impl<S> fmt::Display for LayoutError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.mistake, f)
    }
}

impl LayoutError<Range<usize>> {
    /// The sentence, then the text quoted with carets under the offending part — the same
    /// layout as a pattern's errors.
    ///
    /// ```
    /// let err = strideweave_syntax::parse_int_tuple("(2,x)").unwrap_err();
    /// assert_eq!(err.render("(2,x)"), "expected an integer, '(' or '[', found 'x'\n  (2,x)\n     ^");
    /// ```
    pub fn render(&self, text: &str) -> String {
        NotationError {
            position: self.position.clone(),
            message: self.mistake.to_string(),
        }
        .render(text)
    }
}
