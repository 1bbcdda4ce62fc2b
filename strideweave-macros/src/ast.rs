//! The span-carrying syntax tree of a macro input.
//!
//! Both notations end up in the same tree, [`strideweave_syntax::Tuple`], generic over where
//! a part came from: [`Spans`] for the token form (so errors point at the token) and byte
//! offsets (`usize`) for the string form (so errors quote the string with a caret).

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};
use syn::LitStr;

/// Where a part of the token form came from: the span of its first and of its last token.
///
/// A single span would do for most parts, but a negative integer is two tokens (`-` and the
/// literal), and `Span::join` is unavailable on stable; `syn::Error::new_spanned` reproduces a
/// joined span from its first and last token.
#[derive(Clone, Copy, Debug)]
pub struct Spans {
    /// The span of the first token.
    pub first: Span,
    /// The span of the last token.
    pub last: Span,
}

impl Spans {
    /// A part made of one token (or one delimited group).
    pub fn single(span: Span) -> Spans {
        Spans {
            first: span,
            last: span,
        }
    }

    /// An error underlining this part.
    pub fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        let mut a = Punct::new('.', Spacing::Alone);
        a.set_span(self.first);
        let mut b = Punct::new('.', Spacing::Alone);
        b.set_span(self.last);
        let tokens: TokenStream = [TokenTree::Punct(a), TokenTree::Punct(b)]
            .into_iter()
            .collect();
        syn::Error::new_spanned(tokens, message)
    }
}

/// An integer tuple of the token form.
pub type TokenTuple = strideweave_syntax::Tuple<Spans>;

/// An integer tuple of the string form.
pub type TextTuple = strideweave_syntax::Tuple<usize>;

/// The parts of a layout, in either notation.
#[derive(Debug)]
pub struct LayoutAst<S> {
    /// The shape.
    pub shape: strideweave_syntax::Tuple<S>,
    /// The stride; `None` asks for the compact (first-mode-fastest) strides of the shape.
    pub stride: Option<strideweave_syntax::Tuple<S>>,
}

/// What `layout!` was given.
pub enum LayoutInput {
    /// `layout!((2, (3, 4)) : (1, (2, 6)))` or `layout!((2, (3, 4)))`.
    Tokens(LayoutAst<Spans>),
    /// `layout!("(2,(3,4)):(1,(2,6))")`: the literal, its value and what it holds.
    Text(Text, LayoutAst<usize>),
}

/// What `shape!` was given.
pub enum ShapeInput {
    /// `shape!(2, (3, 4))`.
    Tokens(TokenTuple),
    /// `shape!("(2,(3,4))")`.
    Text(Text, TextTuple),
}

/// A string-form input: the literal (for its span) and its value (for carets).
pub struct Text {
    /// The literal as written.
    pub lit: LitStr,
    /// Its value, escapes resolved; byte offsets refer to this.
    pub value: String,
}

impl Text {
    /// An error on the literal whose message quotes the string with a caret under the
    /// offending character.
    ///
    /// The layout is `NotationError::render`'s without its "at offset N": that phrase, glued to
    /// the end of a message such as "… the stride a leaf", reads as part of the sentence, and
    /// the caret already says where.
    pub fn error(&self, mac: &str, e: &strideweave_syntax::NotationError<usize>) -> syn::Error {
        let column = self
            .value
            .get(..e.position)
            .map_or(0, |before| before.chars().count());
        syn::Error::new(
            self.lit.span(),
            format!(
                "{mac}: {}\n  {}\n  {}^",
                e.message,
                self.value,
                " ".repeat(column)
            ),
        )
    }
}

/// One token of a profile (mirrors `strideweave::ProfileToken`, which this crate cannot name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// A leaf.
    Leaf,
    /// The start of a nested tuple.
    Push,
    /// The end of a nested tuple.
    Pop,
}

/// A checked layout or shape, flattened into what `__private` takes.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    /// The root's children as a token stream (for an integer root: one `Leaf`).
    pub profile: Vec<Profile>,
    /// The extents in depth-first order.
    pub extents: Vec<i64>,
    /// The strides in depth-first order (absent for a shape).
    pub strides: Option<Vec<i64>>,
    /// Whether the root is an integer rather than a tuple.
    pub int_root: bool,
}
