//! The input of `rearrange!` and `repeat!`: `tensor, pattern, name = extent, …`.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use strideweave_syntax::MAX_NESTING;
use syn::Lit;

use super::{describe, int_value, signed_literal};
use crate::ast::{KeywordArg, MacroKind, PatternCall, PatternSource, Spans, Text};

/// Parses the input of `rearrange!` or `repeat!`: `tensor, pattern, name = extent, …`, the
/// pattern a string literal or tokens up to the next top-level comma.
/// On an error, also returns the tensor expression if it was read (for the placeholder).
pub fn pattern_call(
    input: TokenStream,
    mac: MacroKind,
    kind: strideweave_syntax::PatternKind,
) -> Result<PatternCall, (syn::Error, Option<TokenStream>)> {
    use syn::parse::{ParseStream, Parser};
    let example = if kind == strideweave_syntax::PatternKind::Repeat {
        "repeat!(t, \"h w -> h w c\", c = 3)"
    } else {
        "rearrange!(t, \"(h w) c -> h w c\", h = 4)"
    };
    let mut read: Option<TokenStream> = None;
    let parser = |s: ParseStream<'_>| -> syn::Result<PatternCall> {
        let (tensor, shape) = head(s, mac, "a pattern and keyword extents", example, &mut read)?;
        let mut pattern_tokens: Vec<TokenTree> = Vec::new();
        while !s.is_empty() && !s.peek(syn::Token![,]) {
            pattern_tokens.push(s.parse()?);
        }
        let pattern = pattern_source(mac, pattern_tokens, s.span(), example)?;
        let keywords = keywords(mac, s)?;
        Ok(PatternCall {
            mac,
            kind,
            tensor,
            shape,
            pattern,
            keywords,
        })
    };
    let result = parser.parse2(input);
    result.map_err(|e| (e, read))
}

/// What every pattern macro starts with: the tensor (also stored in `read`, for the
/// placeholder after a later error), an optional `: shape` type, and the comma after them.
/// `rest` and `example` word the messages.
pub(super) fn head(
    s: syn::parse::ParseStream<'_>,
    mac: MacroKind,
    rest: &str,
    example: &str,
    read: &mut Option<TokenStream>,
) -> syn::Result<(TokenStream, Option<TokenStream>)> {
    if s.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            format!("{mac}: the input is empty; write a tensor, {rest}, e.g. `{example}`"),
        ));
    }
    let tensor: syn::Expr = s.parse()?;
    let tensor = quote::ToTokens::to_token_stream(&tensor);
    *read = Some(tensor.clone());
    let shape = if s.peek(syn::Token![:]) {
        s.parse::<syn::Token![:]>()?;
        let ty: syn::Type = s.parse()?;
        Some(quote::ToTokens::to_token_stream(&ty))
    } else {
        None
    };
    comma_after_tensor(mac, s, example)?;
    Ok((tensor, shape))
}

/// The `,` after a tensor expression; a message naming what was found instead.
pub(super) fn comma_after_tensor(
    mac: MacroKind,
    s: syn::parse::ParseStream<'_>,
    example: &str,
) -> syn::Result<()> {
    if !s.peek(syn::Token![,]) {
        let message = |what: String| {
            format!(
                "{mac}: expected `,` and a pattern after the tensor, found {what}; e.g. `{example}`"
            )
        };
        if s.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                message("the end of the input".to_string()),
            ));
        }
        let found: TokenTree = s.parse()?;
        return Err(syn::Error::new_spanned(&found, message(describe(&found))));
    }
    s.parse::<syn::Token![,]>()?;
    Ok(())
}

/// The pattern: one string literal, or tokens.
pub(super) fn pattern_source(
    mac: MacroKind,
    tokens: Vec<TokenTree>,
    end: Span,
    example: &str,
) -> syn::Result<PatternSource> {
    if tokens.is_empty() {
        return Err(syn::Error::new(
            end,
            format!("{mac}: expected a pattern after the tensor, e.g. `{example}`"),
        ));
    }
    // A string forwarded by `macro_rules!` may arrive in an invisible group.
    let single = match &tokens[..] {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::None => {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            match &inner[..] {
                [TokenTree::Literal(l)] => Some(l.clone()),
                _ => None,
            }
        }
        [TokenTree::Literal(l)] => Some(l.clone()),
        _ => None,
    };
    if let Some(lit) = single
        && let Lit::Str(lit) = Lit::new(lit)
    {
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                format!("{mac}: unexpected suffix `{}` on the pattern", lit.suffix()),
            ));
        }
        let value = lit.value();
        return Ok(PatternSource::Text(Text { lit, value }));
    }
    let mut text = String::new();
    let mut spans = Vec::new();
    let mut groups = Vec::new();
    write_tokens(
        tokens.into_iter().collect(),
        &mut text,
        &mut spans,
        &mut groups,
        &mut false,
        0,
    );
    Ok(PatternSource::Tokens {
        text,
        spans,
        groups,
    })
}

/// Writes the token form out as text for the shared parser, recording each token's range.
/// Tokens are separated by one space, except after `(`, before `)` and inside a run of
/// joined punctuation (`->`, `...`). `depth` groups are open around `tokens`; the contents
/// of a group beyond [`MAX_NESTING`] levels are left out (the shared parser refuses its
/// opening parenthesis), so that no input recurses deeper.
fn write_tokens(
    tokens: TokenStream,
    text: &mut String,
    spans: &mut Vec<(std::ops::Range<usize>, Span)>,
    groups: &mut Vec<(std::ops::Range<usize>, Span)>,
    joint: &mut bool,
    depth: usize,
) {
    fn put(
        text: &mut String,
        spans: &mut Vec<(std::ops::Range<usize>, Span)>,
        s: &str,
        span: Span,
        glue: bool,
    ) {
        if !text.is_empty() && !glue && !text.ends_with('(') && s != ")" {
            text.push(' ');
        }
        let start = text.len();
        text.push_str(s);
        spans.push((start..text.len(), span));
    }
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    put(text, spans, open, g.span_open(), false);
                }
                let start = text.len() - open.len();
                *joint = false;
                if depth < MAX_NESTING {
                    write_tokens(g.stream(), text, spans, groups, joint, depth + 1);
                }
                if !close.is_empty() {
                    put(text, spans, close, g.span_close(), false);
                }
                if g.delimiter() == Delimiter::Parenthesis {
                    groups.push((start..text.len(), g.span()));
                }
                *joint = false;
            }
            TokenTree::Punct(p) => {
                put(text, spans, &p.as_char().to_string(), p.span(), *joint);
                *joint = p.spacing() == Spacing::Joint;
            }
            other => {
                put(text, spans, &other.to_string(), other.span(), false);
                *joint = false;
            }
        }
    }
}

/// The keyword arguments that end a macro's input: `, name = value` each, a trailing comma
/// allowed.
pub(super) fn keywords(
    mac: MacroKind,
    s: syn::parse::ParseStream<'_>,
) -> syn::Result<Vec<KeywordArg>> {
    let mut keywords = Vec::new();
    while !s.is_empty() {
        s.parse::<syn::Token![,]>()?;
        if s.is_empty() {
            break;
        }
        keywords.push(keyword(mac, s)?);
    }
    Ok(keywords)
}

/// One keyword argument `name = value`.
fn keyword(mac: MacroKind, s: syn::parse::ParseStream<'_>) -> syn::Result<KeywordArg> {
    let name: syn::Ident = match s.parse() {
        Ok(name) => name,
        Err(_) => {
            let found: TokenTree = s.parse()?;
            return Err(syn::Error::new_spanned(
                &found,
                format!(
                    "{mac}: expected a keyword extent `name = value` after the pattern, found {}",
                    describe(&found)
                ),
            ));
        }
    };
    if !s.peek(syn::Token![=]) {
        return Err(syn::Error::new(
            name.span(),
            format!("{mac}: expected `=` and an extent after keyword `{name}`, e.g. `{name} = 4`"),
        ));
    }
    s.parse::<syn::Token![=]>()?;
    let value: syn::Expr = s.parse()?;
    let spans = Spans {
        first: name.span(),
        last: last_span(&value),
    };
    let literal = literal_extent(mac, &name, &value)?;
    Ok(KeywordArg {
        name,
        value,
        literal,
        spans,
    })
}

/// The span of an expression's last token.
fn last_span(e: &syn::Expr) -> Span {
    quote::ToTokens::to_token_stream(e)
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| t.span())
}

/// The value of an integer literal extent (`4`, `4i64`, `-2`); `None` for any other
/// expression (a constant, checked by the compiler); an error for other literals.
fn literal_extent(mac: MacroKind, name: &syn::Ident, e: &syn::Expr) -> syn::Result<Option<i64>> {
    let Some((negative, lit)) = signed_literal(e) else {
        return Ok(None);
    };
    let err = |message: String| Err(syn::Error::new_spanned(e, format!("{mac}: {message}")));
    match lit {
        Lit::Int(i) => {
            if !matches!(i.suffix(), "" | "i64") {
                return err(format!(
                    "keyword `{name}` has the type suffix `{}`; extents are `i64`, write a plain integer, e.g. `{name} = {}`",
                    i.suffix(),
                    i.base10_digits()
                ));
            }
            match int_value(i, negative) {
                Some(v) => Ok(Some(v)),
                None => err(format!(
                    "keyword `{name} = {}{}` does not fit in i64",
                    if negative { "-" } else { "" },
                    i.base10_digits()
                )),
            }
        }
        _ => err(format!(
            "keyword `{name}` must be an integer extent (a literal or a constant), found `{}`",
            quote::ToTokens::to_token_stream(e)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn the_token_form_stops_at_the_nesting_limit() {
        let mut deep = quote!(a);
        for _ in 0..1_000 {
            deep = quote!((#deep));
        }
        let (mut text, mut spans, mut groups) = (String::new(), Vec::new(), Vec::new());
        write_tokens(
            quote!(#deep -> a),
            &mut text,
            &mut spans,
            &mut groups,
            &mut false,
            0,
        );
        assert_eq!(text.matches('(').count(), MAX_NESTING + 1);
        let e = strideweave_syntax::parse_pattern(&text).unwrap_err();
        assert_eq!(
            e.message,
            "nesting deeper than 256 levels on the left: this `(` opens level 257"
        );
        assert_eq!(e.position.start, MAX_NESTING);
    }
}
