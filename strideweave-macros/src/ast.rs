//! The span-carrying syntax tree of a macro input.
//!
//! Both notations end up in the same tree, [`strideweave_syntax::Tuple`], generic over where
//! a part came from: [`Spans`] for the token form (so errors point at the token) and byte
//! offsets (`usize`) for the string form (so errors quote the string with a caret).

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};
use syn::LitStr;

/// Which macro is reading its input, for the macros that share parsing code: it names the
/// macro in every message and picks the examples and words of a few messages. (`s!` shares
/// no reader with another macro; its messages name it directly.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroKind {
    /// `layout!`.
    Layout,
    /// `layout_t!`.
    LayoutT,
    /// `shape!`.
    Shape,
    /// `shape_t!`.
    ShapeT,
    /// `rearrange!`.
    Rearrange,
    /// `repeat!`.
    Repeat,
    /// `einsum!`.
    Einsum,
    /// `reduce!`.
    Reduce,
    /// `einops::rearrange!`: `rearrange!` with groups read as einops reads them.
    EinopsRearrange,
    /// `einops::repeat!`.
    EinopsRepeat,
    /// `einops::reduce!`.
    EinopsReduce,
    /// `einops::einsum!`.
    EinopsEinsum,
}

impl MacroKind {
    /// The macro's name as the user writes it, `layout!`.
    pub fn name(self) -> &'static str {
        match self {
            MacroKind::Layout => "layout!",
            MacroKind::LayoutT => "layout_t!",
            MacroKind::Shape => "shape!",
            MacroKind::ShapeT => "shape_t!",
            MacroKind::Rearrange => "rearrange!",
            MacroKind::Repeat => "repeat!",
            MacroKind::Einsum => "einsum!",
            MacroKind::Reduce => "reduce!",
            MacroKind::EinopsRearrange => "einops::rearrange!",
            MacroKind::EinopsRepeat => "einops::repeat!",
            MacroKind::EinopsReduce => "einops::reduce!",
            MacroKind::EinopsEinsum => "einops::einsum!",
        }
    }

    /// Whether the macro reads groups as einops does (`strideweave::einops`): its pattern
    /// is encoded as written, then mirrored (`EncodedPattern::mirror_groups`).
    pub fn is_einops(self) -> bool {
        matches!(
            self,
            MacroKind::EinopsRearrange
                | MacroKind::EinopsRepeat
                | MacroKind::EinopsReduce
                | MacroKind::EinopsEinsum
        )
    }
}

impl std::fmt::Display for MacroKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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

/// An integer tuple of the string form (spans are byte ranges of the string).
pub type TextTuple = strideweave_syntax::TextTuple;

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
    Text(Text, LayoutAst<std::ops::Range<usize>>),
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
    /// One error on the literal per mistake, each quoting the string with carets under the
    /// offending part, as `"…".parse::<Layout>()` does.
    pub fn errors(
        &self,
        mac: MacroKind,
        mistakes: &[strideweave_syntax::LayoutError<std::ops::Range<usize>>],
    ) -> syn::Error {
        crate::combine(
            mistakes.iter().map(|e| {
                syn::Error::new(self.lit.span(), format!("{mac}: {}", e.render(&self.value)))
            }),
        )
    }
}

impl Spans {
    /// One error per mistake of the token form, each at its tokens.
    pub fn errors(
        mac: MacroKind,
        mistakes: &[strideweave_syntax::LayoutError<Spans>],
    ) -> syn::Error {
        crate::combine(
            mistakes
                .iter()
                .map(|e| e.position.error(format!("{mac}: {e}"))),
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

/// What `rearrange!` or `repeat!` was given: `tensor, pattern, name = extent, …`.
pub struct PatternCall {
    /// `rearrange!` or `repeat!`.
    pub mac: MacroKind,
    /// The rules the pattern obeys.
    pub kind: strideweave_syntax::PatternKind,
    /// The tensor expression, as written.
    pub tensor: TokenStream,
    /// The static shape written after the tensor (`t: shape_t!(10, 4)`): the check is then
    /// also an item-level constant, which `cargo check` evaluates.
    pub shape: Option<TokenStream>,
    /// The pattern.
    pub pattern: PatternSource,
    /// The keyword extents, in order.
    pub keywords: Vec<KeywordArg>,
}

/// A pattern in either form.
pub enum PatternSource {
    /// `"(h w) c -> h w c"`: errors quote the string with a caret line.
    Text(Text),
    /// `(h w) c -> h w c`: the tokens as text (for the shared parser) and, for each token, its
    /// byte range in that text and its span, so errors point at the exact token.
    Tokens {
        /// The tokens written out with single spaces.
        text: String,
        /// Each token's byte range in `text` and its span.
        spans: Vec<(std::ops::Range<usize>, Span)>,
        /// Each parenthesized group's byte range (from `(` to `)`) and its span.
        groups: Vec<(std::ops::Range<usize>, Span)>,
    },
}

impl PatternSource {
    /// The pattern's text.
    pub fn text(&self) -> &str {
        match self {
            PatternSource::Text(t) => &t.value,
            PatternSource::Tokens { text, .. } => text,
        }
    }

    /// The span that a const check of this pattern reports at: the literal, or the first
    /// token of the byte range `at` of the text.
    pub fn span_at(&self, at: &std::ops::Range<usize>) -> Span {
        match self {
            PatternSource::Text(t) => t.lit.span(),
            PatternSource::Tokens { spans, .. } => spans
                .iter()
                .find(|(r, _)| r.end > at.start)
                .or(spans.last())
                .map_or_else(Span::call_site, |s| s.1),
        }
    }

    /// For the token form, the span of the term at byte range `at` (a group's whole span, or
    /// the term's first token); `None` for the string form.
    pub fn term_span(&self, at: &std::ops::Range<usize>) -> Option<Span> {
        match self {
            PatternSource::Text(_) => None,
            PatternSource::Tokens { groups, .. } => Some(
                groups
                    .iter()
                    .find(|(r, _)| r == at)
                    .map_or_else(|| self.span_at(at), |g| g.1),
            ),
        }
    }

    /// An error at byte range `at` of the pattern: for the string form on the literal, with
    /// the pattern quoted and a caret line; for the token form at the tokens themselves.
    pub fn error(
        &self,
        mac: MacroKind,
        e: &strideweave_syntax::NotationError<std::ops::Range<usize>>,
    ) -> syn::Error {
        match self {
            PatternSource::Text(t) => {
                syn::Error::new(t.lit.span(), format!("{mac}: {}", e.render(&t.value)))
            }
            PatternSource::Tokens { spans, .. } => {
                let at = &e.position;
                let inside: Vec<Span> = spans
                    .iter()
                    .filter(|(r, _)| r.start < at.end.max(at.start + 1) && r.end > at.start)
                    .map(|(_, s)| *s)
                    .collect();
                let (first, last) = match (inside.first(), inside.last()) {
                    (Some(a), Some(b)) => (*a, *b),
                    // An empty range (an empty side): the token before it, else the macro.
                    _ => {
                        let s = spans
                            .iter()
                            .rev()
                            .find(|(r, _)| r.end <= at.start)
                            .or(spans.first())
                            .map_or_else(Span::call_site, |s| s.1);
                        (s, s)
                    }
                };
                Spans { first, last }.error(format!("{mac}: {}", e.message))
            }
        }
    }
}

/// One keyword argument `name = value`.
pub struct KeywordArg {
    /// The name.
    pub name: syn::Ident,
    /// The value, as written.
    pub value: syn::Expr,
    /// The value, when it is an integer literal.
    pub literal: Option<i64>,
    /// From the name to the value.
    pub spans: Spans,
}

/// What `s!` was given: one key per top-level mode, in order.
pub struct KeysAst {
    /// The keys.
    pub keys: Vec<KeyAst>,
}

/// One key of `s!`.
pub enum KeyAst {
    /// `2`, `i`, `n - 1`: one coordinate.
    Int(Bound),
    /// `start..stop;step`, each part optional (`..`, `3..`, `..5`, `..;2`).
    Slice {
        /// The start, when written.
        start: Option<Bound>,
        /// The stop, when written.
        stop: Option<Bound>,
        /// The step, when written (after `;`).
        step: Option<Bound>,
        /// The whole key, from its first to its last token.
        spans: Spans,
    },
}

/// An integer expression of `s!`: a key, a bound or a step.
pub struct Bound {
    /// The expression, as written.
    pub expr: Box<syn::Expr>,
    /// Its value when it is an integer literal, possibly negated or parenthesized.
    pub literal: Option<i64>,
    /// Whether that literal has a type suffix (`2usize`); such a literal is emitted as
    /// written, so the compiler checks its type.
    pub suffixed: bool,
    /// Its first and last token.
    pub spans: Spans,
}

impl Bound {
    /// How the bound is quoted in a message: its value for a literal, else its tokens.
    pub fn text(&self) -> String {
        match (self.literal, self.suffixed) {
            (Some(v), false) => v.to_string(),
            _ => quote::ToTokens::to_token_stream(&self.expr).to_string(),
        }
    }
}

impl KeyAst {
    /// The key as written (`1..9;2`, `..`, `-3..`), for messages.
    pub fn text(&self) -> String {
        match self {
            KeyAst::Int(b) => b.text(),
            KeyAst::Slice {
                start, stop, step, ..
            } => {
                let part = |b: &Option<Bound>| b.as_ref().map(Bound::text).unwrap_or_default();
                let step = step
                    .as_ref()
                    .map(|s| format!(";{}", s.text()))
                    .unwrap_or_default();
                format!("{}..{}{step}", part(start), part(stop))
            }
        }
    }
}
