//! The input of `layout!`, `layout_t!`, `shape!` and `shape_t!`: the string form goes to
//! [`strideweave_syntax`], the token form is read here by a small recursive-descent parser over
//! token trees, so that each mistake is reported at the token that makes it.

use proc_macro2::{Delimiter, Literal, Spacing, Span, TokenStream, TokenTree};
use strideweave_syntax::MAX_NESTING;
use syn::Lit;

use super::{describe, int_value};
use crate::ast::{LayoutAst, LayoutInput, MacroKind, ShapeInput, Spans, Text, TokenTuple};

/// Parses the input of `layout!` or `layout_t!` (`mac`).
pub fn layout(input: TokenStream, mac: MacroKind) -> syn::Result<LayoutInput> {
    let mut c = Cursor::new(input, Span::call_site(), mac);
    if c.at_end() {
        return Err(syn::Error::new(
            Span::call_site(),
            format!(
                "{mac}: the input is empty; write a shape and a stride, e.g. \
                 `{mac}((2, (3, 4)) : (1, (2, 6)))`, a shape alone for compact strides, e.g. \
                 `{mac}((2, (3, 4)))`, or a string, e.g. `{mac}(\"(2,(3,4)):(1,(2,6))\")`"
            ),
        ));
    }
    if let Some(text) = c.text()? {
        return match strideweave_syntax::parse_layout(&text.value) {
            Ok((shape, stride)) => Ok(LayoutInput::Text(
                text,
                LayoutAst {
                    shape,
                    stride: Some(stride),
                },
            )),
            Err(e) => Err(text.errors(mac, &[e])),
        };
    }
    let shape = c.term()?;
    if c.at_end() {
        return Ok(LayoutInput::Tokens(LayoutAst {
            shape,
            stride: None,
        }));
    }
    c.colon()?;
    let stride = c.term()?;
    if let Some(rest) = c.rest_spans() {
        return Err(rest.error(format!(
            "{mac}: unexpected {} after the stride; a layout is written `shape : stride`",
            // Unreachable: rest_spans returned Some, so a token remains.
            // unreachable from user input: called only after peek() returned a token.
            describe(c.peek().expect("not at the end"))
        )));
    }
    Ok(LayoutInput::Tokens(LayoutAst {
        shape,
        stride: Some(stride),
    }))
}

/// Parses the input of `shape!`: a comma-separated list of modes (the root tuple), a single
/// integer (an integer shape), or a string. `mac` is `shape!` or `shape_t!`.
pub fn shape(input: TokenStream, mac: MacroKind) -> syn::Result<ShapeInput> {
    let mut c = Cursor::new(input, Span::call_site(), mac);
    // The list is the root tuple.
    c.depth = 1;
    if let Some(text) = c.text()? {
        return match strideweave_syntax::parse_shape(&text.value) {
            Ok(t) => Ok(ShapeInput::Text(text, t)),
            Err(e) => Err(text.errors(mac, &[e])),
        };
    }
    let whole = c.all_spans();
    let (mut items, trailing_comma) = c.list(|i| format!("the end of the input after mode {i}"))?;
    if items.len() == 1 && !trailing_comma && matches!(items[0], TokenTuple::Int(..)) {
        return Ok(ShapeInput::Tokens(items.remove(0)));
    }
    Ok(ShapeInput::Tokens(TokenTuple::Tuple(items, whole)))
}

/// `shape_t!`'s run-time extents: the input with every `_` read as the extent `1` (so that
/// the shape's checks apply to the rest unchanged), and the depth-first leaf numbers of the
/// `_`s. A leaf is an integer literal or a `_`, in token order (the token form holds nothing
/// else that counts).
pub fn runtime_extents(input: TokenStream) -> (TokenStream, Vec<usize>) {
    fn go(input: TokenStream, leaf: &mut usize, found: &mut Vec<usize>) -> TokenStream {
        input
            .into_iter()
            .map(|tt| match tt {
                TokenTree::Ident(i) if i == "_" => {
                    found.push(*leaf);
                    *leaf += 1;
                    let mut one = Literal::i64_unsuffixed(1);
                    one.set_span(i.span());
                    TokenTree::Literal(one)
                }
                TokenTree::Literal(l) => {
                    *leaf += 1;
                    TokenTree::Literal(l)
                }
                TokenTree::Group(g) => {
                    let mut inner =
                        proc_macro2::Group::new(g.delimiter(), go(g.stream(), leaf, found));
                    inner.set_span(g.span());
                    TokenTree::Group(inner)
                }
                other => other,
            })
            .collect()
    }
    let mut found = Vec::new();
    let out = go(input, &mut 0, &mut found);
    (out, found)
}

/// A position in a flat list of token trees.
struct Cursor {
    tokens: Vec<TokenTree>,
    pos: usize,
    /// How many tuples are open around these tokens (at most `MAX_NESTING`).
    depth: usize,
    /// Where to point when the input ends too early.
    end: Span,
    /// The macro's name, to start each message.
    mac: MacroKind,
}

impl Cursor {
    fn new(input: TokenStream, end: Span, mac: MacroKind) -> Cursor {
        Cursor {
            tokens: input.into_iter().collect(),
            pos: 0,
            depth: 0,
            end,
            mac,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<TokenTree> {
        let t = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    /// The spans of every token, or of the macro call when there is none.
    fn all_spans(&self) -> Spans {
        match (self.tokens.first(), self.tokens.last()) {
            (Some(a), Some(b)) => Spans {
                first: a.span(),
                last: b.span(),
            },
            _ => Spans::single(self.end),
        }
    }

    /// The spans of the tokens not read yet, if any.
    fn rest_spans(&self) -> Option<Spans> {
        let first = self.tokens.get(self.pos)?;
        let last = self.tokens.last()?;
        Some(Spans {
            first: first.span(),
            last: last.span(),
        })
    }

    /// The string form: a single string literal as the whole input.
    fn text(&mut self) -> syn::Result<Option<Text>> {
        let Some(TokenTree::Literal(lit)) = self.peek() else {
            return Ok(None);
        };
        let Lit::Str(lit) = Lit::new(lit.clone()) else {
            return Ok(None);
        };
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "{}: unexpected suffix `{}` on the string",
                    self.mac,
                    lit.suffix()
                ),
            ));
        }
        self.pos += 1;
        if let Some(rest) = self.rest_spans() {
            return Err(rest.error(format!(
                "{}: unexpected {} after the string; the string form takes the whole \
                 notation in one string literal",
                self.mac,
                // Unreachable: rest_spans returned Some, so a token remains.
                // unreachable from user input: called only after peek() returned a token.
                describe(self.peek().expect("not at the end"))
            )));
        }
        let value = lit.value();
        Ok(Some(Text { lit, value }))
    }

    /// The `:` between shape and stride.
    fn colon(&mut self) -> syn::Result<()> {
        // Unreachable: every caller checks that a token remains before asking for the colon.
        // unreachable from user input: every caller checks that a token remains before asking for the colon.
        let tt = self.next().expect("caller checked for the end");
        if let TokenTree::Punct(p) = &tt
            && p.as_char() == ':'
        {
            if p.spacing() == Spacing::Joint
                && let Some(TokenTree::Punct(q)) = self.peek()
                && q.as_char() == ':'
            {
                let spans = Spans {
                    first: p.span(),
                    last: q.span(),
                };
                return Err(spans.error(format!(
                    "{}: expected a single `:` between the shape and the stride, found `::`",
                    self.mac
                )));
            }
            return Ok(());
        }
        let mac = self.mac;
        let hint = match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => format!(
                "; a shape of several modes is one parenthesized tuple, e.g. \
                 `{mac}((2, 3) : (1, 2))`"
            ),
            _ => String::new(),
        };
        Err(syn::Error::new_spanned(
            &tt,
            format!(
                "{mac}: expected `:` between the shape and the stride, found {}{hint}",
                describe(&tt)
            ),
        ))
    }

    /// One mode: an integer (possibly negative) or a parenthesized tuple.
    fn term(&mut self) -> syn::Result<TokenTuple> {
        let mac = self.mac;
        let Some(tt) = self.next() else {
            return Err(syn::Error::new(
                self.end,
                format!(
                    "{mac}: expected an integer or a parenthesized tuple, found the end of the input"
                ),
            ));
        };
        match &tt {
            TokenTree::Literal(lit) => integer(mac, lit, None),
            TokenTree::Punct(p) if p.as_char() == '-' => match self.next() {
                Some(TokenTree::Literal(lit)) => integer(mac, &lit, Some(p.span())),
                Some(other) => Err(syn::Error::new_spanned(
                    &other,
                    format!(
                        "{mac}: expected an integer after `-`, found {}",
                        describe(&other)
                    ),
                )),
                None => Err(syn::Error::new(
                    p.span(),
                    format!("{mac}: expected an integer after `-`, found the end of the input"),
                )),
            },
            TokenTree::Group(g) => match g.delimiter() {
                Delimiter::Parenthesis => {
                    if self.depth == MAX_NESTING {
                        return Err(Spans::errors(
                            mac,
                            &[strideweave_syntax::LayoutError {
                                position: Spans::single(g.span_open()),
                                mistake: strideweave_syntax::LayoutMistake::TooDeep {
                                    limit: MAX_NESTING,
                                },
                            }],
                        ));
                    }
                    let mut inner = Cursor::new(g.stream(), g.span_close(), mac);
                    inner.depth = self.depth + 1;
                    let (items, _) =
                        inner.list(|i| format!("`)` after mode {i} of the tuple `{g}`"))?;
                    Ok(TokenTuple::Tuple(items, Spans::single(g.span())))
                }
                Delimiter::None => {
                    // A fragment forwarded by `macro_rules!` (e.g. `$e:expr`): one term.
                    let mut inner = Cursor::new(g.stream(), g.span(), mac);
                    inner.depth = self.depth;
                    let t = inner.term()?;
                    match inner.rest_spans() {
                        None => Ok(t),
                        Some(rest) => Err(rest.error(format!(
                            "{mac}: expected one integer or tuple in this fragment, found more"
                        ))),
                    }
                }
                Delimiter::Bracket | Delimiter::Brace => Err(syn::Error::new(
                    g.span_open(),
                    format!(
                        "{mac}: tuples are written in parentheses in the token form, found `{}`; \
                         e.g. `(2, (3, 4))`",
                        if g.delimiter() == Delimiter::Bracket {
                            '['
                        } else {
                            '{'
                        }
                    ),
                )),
            },
            TokenTree::Ident(i) => Err(syn::Error::new(
                i.span(),
                format!(
                    "{mac}: expected an integer or a parenthesized tuple, found identifier `{i}`; \
                     {} are integer literals (names and constants are not accepted)",
                    numbers(mac)
                ),
            )),
            TokenTree::Punct(_) => Err(syn::Error::new_spanned(
                &tt,
                format!(
                    "{mac}: expected an integer or a parenthesized tuple, found {}",
                    describe(&tt)
                ),
            )),
        }
    }

    /// Comma-separated modes up to the end of this cursor (a trailing comma is allowed).
    /// Returns the modes and whether a trailing comma ended the list. `after` says what else
    /// may follow mode `i`.
    fn list(&mut self, after: impl Fn(usize) -> String) -> syn::Result<(Vec<TokenTuple>, bool)> {
        let mut items = Vec::new();
        loop {
            if self.at_end() {
                let trailing_comma = !items.is_empty();
                return Ok((items, trailing_comma));
            }
            items.push(self.term()?);
            match self.next() {
                None => return Ok((items, false)),
                Some(TokenTree::Punct(p)) if p.as_char() == ',' => {}
                Some(other) => {
                    return Err(syn::Error::new_spanned(
                        &other,
                        format!(
                            "{}: expected `,` or {}, found {}",
                            self.mac,
                            after(items.len() - 1),
                            describe(&other)
                        ),
                    ));
                }
            }
        }
    }
}

/// An integer literal, negated when `minus` holds the span of a leading `-`.
fn integer(mac: MacroKind, lit: &Literal, minus: Option<Span>) -> syn::Result<TokenTuple> {
    let spans = Spans {
        first: minus.unwrap_or_else(|| lit.span()),
        last: lit.span(),
    };
    let sign = if minus.is_some() { "-" } else { "" };
    match Lit::new(lit.clone()) {
        Lit::Int(i) => {
            if !matches!(i.suffix(), "" | "i64") {
                return Err(spans.error(format!(
                    "{mac}: `{sign}{lit}` has the type suffix `{}`; {} are plain integers \
                     (i64), e.g. `{sign}{}`",
                    i.suffix(),
                    numbers(mac),
                    i.base10_digits()
                )));
            }
            match int_value(&i, minus.is_some()) {
                Some(v) => Ok(TokenTuple::Int(v, spans)),
                None => Err(Spans::errors(
                    mac,
                    &[strideweave_syntax::LayoutError {
                        position: spans,
                        mistake: strideweave_syntax::LayoutMistake::IntegerOutOfRange {
                            text: format!("{sign}{}", i.base10_digits()),
                        },
                    }],
                )),
            }
        }
        Lit::Float(_) => Err(spans.error(format!(
            "{mac}: `{sign}{lit}` is not an integer; {} are integers",
            numbers(mac)
        ))),
        Lit::Str(_) => {
            let example = match mac {
                MacroKind::Layout | MacroKind::LayoutT => "(2,3):(1,2)",
                _ => "(2,3)",
            };
            Err(spans.error(format!(
                "{mac}: expected an integer or a parenthesized tuple, found the string {lit}; \
                 a string is accepted only as the whole input, e.g. `{mac}(\"{example}\")`"
            )))
        }
        _ => Err(spans.error(format!(
            "{mac}: expected an integer or a parenthesized tuple, found `{sign}{lit}`"
        ))),
    }
}

/// What the integers of a macro's input are.
fn numbers(mac: MacroKind) -> &'static str {
    match mac {
        MacroKind::Layout | MacroKind::LayoutT => "extents and strides",
        _ => "extents",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn tokens(input: TokenStream) -> LayoutAst<Spans> {
        match layout(input, MacroKind::Layout) {
            Ok(LayoutInput::Tokens(ast)) => ast,
            Ok(LayoutInput::Text(..)) => panic!("string form"),
            Err(e) => panic!("{e}"),
        }
    }

    fn error(input: TokenStream) -> String {
        match layout(input, MacroKind::Layout) {
            Ok(_) => panic!("accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn token_form_reads_nested_tuples_and_negative_strides() {
        let ast = tokens(quote!((2, (3, 4)) : (1, (-2, 6))));
        assert_eq!(ast.shape.to_string(), "(2,(3,4))");
        assert_eq!(ast.stride.unwrap().to_string(), "(1,(-2,6))");
        let ast = tokens(quote!(8 : 1));
        assert_eq!(format!("{}", ast.shape), "8");
        let ast = tokens(quote!(() : ()));
        assert_eq!(ast.stride.unwrap().to_string(), "()");
        let ast = tokens(quote!((2, 3,)));
        assert!(ast.stride.is_none());
        let ast = tokens(quote!((1) : (-9223372036854775808)));
        assert_eq!(ast.stride.unwrap().to_string(), "(-9223372036854775808)");
    }

    #[test]
    fn string_form_goes_through_the_shared_parser() {
        let Ok(LayoutInput::Text(text, ast)) =
            layout(quote!("(2,(3,4)):(1,(2,6))"), MacroKind::Layout)
        else {
            panic!()
        };
        assert_eq!(text.value, "(2,(3,4)):(1,(2,6))");
        assert_eq!(ast.shape.to_string(), "(2,(3,4))");
        let e = error(quote!("(2,(3,4):(1,(2,6))"));
        assert!(e.starts_with("layout!: expected ',' or ')'"), "{e}");
        assert!(
            e.ends_with(", found ':'\n  (2,(3,4):(1,(2,6))\n          ^"),
            "{e}"
        );
    }

    #[test]
    fn token_form_mistakes_are_named() {
        assert!(error(quote!()).starts_with("layout!: the input is empty"));
        assert!(error(quote!((2, 2.5) : (1, 2))).contains("`2.5` is not an integer"));
        assert!(error(quote!((2, n) : (1, 2))).contains("found identifier `n`"));
        assert!(error(quote!((2, 3)(1, 2))).contains("expected `:` between"));
        assert!(error(quote!(2, 3)).contains("one parenthesized tuple"));
        assert!(error(quote!((2, 3) : (1, 2) x)).contains("unexpected identifier `x` after"));
        assert!(
            error(quote!((2 3) : (1, 2)))
                .contains("expected `,` or `)` after mode 0 of the tuple `(2 3)`")
        );
        assert!(error(quote!((2, "3") : (1, 2))).contains("found the string \"3\""));
        assert!(error(quote!([2, 3] : (1, 2))).contains("in parentheses"));
        assert!(error(quote!((2, 3) :: (1, 2))).contains("found `::`"));
        assert!(error(quote!((2, 3u8) : (1, 2))).contains("type suffix `u8`"));
        assert!(error(quote!((2, 99999999999999999999) : (1, 2))).contains("does not fit in i64"));
        assert!(error(quote!((2, -) : (1, 2))).contains("after `-`"));
        assert!(error(quote!((2, 3) :)).contains("found the end of the input"));
    }

    /// `n` parentheses around `2`.
    fn nested(n: usize) -> TokenStream {
        let mut t = quote!(2);
        for _ in 0..n {
            t = quote!((#t));
        }
        t
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_an_error_naming_it() {
        let deep = nested(MAX_NESTING + 1);
        let e = error(quote!(#deep : #deep));
        assert_eq!(
            e,
            "layout!: nesting deeper than 256 levels: this bracket opens level 257"
        );
        let ok = nested(MAX_NESTING);
        assert_eq!(
            tokens(quote!(#ok : #ok)).shape.to_string().len(),
            2 * 256 + 1
        );
        // In shape!, the list is the root tuple: 255 more levels fit.
        let ok = nested(MAX_NESTING - 1);
        assert!(shape(quote!(#ok), MacroKind::Shape).is_ok());
        let deep = nested(MAX_NESTING);
        let Err(e) = shape(quote!(#deep), MacroKind::Shape) else {
            panic!("accepted")
        };
        assert!(
            e.to_string()
                .starts_with("shape!: nesting deeper than 256 levels"),
            "{e}"
        );
        // Far deeper input stops at the limit.
        let deep = nested(1_000);
        assert!(error(quote!(#deep : 1)).contains("nesting deeper than 256 levels"));
    }

    #[test]
    fn shape_lists_are_the_root_tuple() {
        let read = |t: TokenStream| match shape(t, MacroKind::Shape) {
            Ok(ShapeInput::Tokens(t)) => t.to_string(),
            Ok(ShapeInput::Text(_, t)) => format!("text {t}"),
            Err(e) => format!("error {e}"),
        };
        assert_eq!(read(quote!(2, (3, 4))), "(2,(3,4))");
        assert_eq!(read(quote!(8)), "8");
        assert_eq!(read(quote!(8,)), "(8)");
        assert_eq!(read(quote!((2, 3))), "((2,3))");
        assert_eq!(read(quote!()), "()");
        assert_eq!(read(quote!("Shape([2, 3])")), "text (2,3)");
        assert!(read(quote!(2 3)).contains("expected `,` or the end of the input after mode 0"));
    }
}
