//! Tokens → [`ast`](crate::ast).
//!
//! The token form is read by a small recursive-descent parser over token trees, so that each
//! mistake is reported at the token that makes it. The string form is handed to
//! [`strideweave_syntax`], the parser the runtime's `FromStr` uses, so that a string means the
//! same in `layout!("…")` as in `"…".parse::<Layout>()`.

use proc_macro2::{Delimiter, Literal, Spacing, Span, TokenStream, TokenTree};
use syn::Lit;

use crate::ast::{
    Bound, KeyAst, KeysAst, KeywordArg, LayoutAst, LayoutInput, PatternCall, PatternSource,
    ShapeInput, Spans, Text, TokenTuple,
};

/// Parses the input of `layout!`.
pub fn layout(input: TokenStream) -> syn::Result<LayoutInput> {
    let mac = "layout!";
    let mut c = Cursor::new(input, Span::call_site(), mac);
    if c.at_end() {
        return Err(syn::Error::new(
            Span::call_site(),
            "layout!: the input is empty; write a shape and a stride, e.g. \
             `layout!((2, (3, 4)) : (1, (2, 6)))`, a shape alone for compact strides, e.g. \
             `layout!((2, (3, 4)))`, or a string, e.g. `layout!(\"(2,(3,4)):(1,(2,6))\")`",
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
            Err(e) => Err(text.error(mac, &e)),
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
            "layout!: unexpected {} after the stride; a layout is written `shape : stride`",
            describe(c.peek().expect("not at the end"))
        )));
    }
    Ok(LayoutInput::Tokens(LayoutAst {
        shape,
        stride: Some(stride),
    }))
}

/// Parses the input of `shape!`: a comma-separated list of modes (the root tuple), a single
/// integer (an integer shape), or a string.
pub fn shape(input: TokenStream) -> syn::Result<ShapeInput> {
    let mac = "shape!";
    let mut c = Cursor::new(input, Span::call_site(), mac);
    if let Some(text) = c.text()? {
        return match strideweave_syntax::parse_shape(&text.value) {
            Ok(t) => Ok(ShapeInput::Text(text, t)),
            Err(e) => Err(text.error(mac, &e)),
        };
    }
    let whole = c.all_spans();
    let (mut items, trailing_comma) = c.list(|i| format!("the end of the input after mode {i}"))?;
    if items.len() == 1 && !trailing_comma && matches!(items[0], TokenTuple::Int(..)) {
        return Ok(ShapeInput::Tokens(items.remove(0)));
    }
    Ok(ShapeInput::Tokens(TokenTuple::Tuple(items, whole)))
}

/// Parses the input of `rearrange!` or `repeat!`: `tensor, pattern, name = extent, …`, the
/// pattern a string literal or tokens up to the next top-level comma.
/// On an error, also returns the tensor expression if it was read (for the placeholder).
pub fn pattern_call(
    input: TokenStream,
    mac: &'static str,
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
        if s.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                format!(
                    "{mac}: the input is empty; write a tensor, a pattern and keyword extents, e.g. `{example}`"
                ),
            ));
        }
        let tensor: syn::Expr = s.parse()?;
        read = Some(quote::ToTokens::to_token_stream(&tensor));
        let shape = if s.peek(syn::Token![:]) {
            s.parse::<syn::Token![:]>()?;
            let ty: syn::Type = s.parse()?;
            Some(quote::ToTokens::to_token_stream(&ty))
        } else {
            None
        };
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
        let mut pattern_tokens: Vec<TokenTree> = Vec::new();
        while !s.is_empty() && !s.peek(syn::Token![,]) {
            pattern_tokens.push(s.parse()?);
        }
        let pattern = pattern_source(mac, pattern_tokens, s.span(), example)?;
        let mut keywords = Vec::new();
        while !s.is_empty() {
            s.parse::<syn::Token![,]>()?;
            if s.is_empty() {
                break;
            }
            keywords.push(keyword(mac, s)?);
        }
        Ok(PatternCall {
            mac,
            kind,
            tensor: quote::ToTokens::to_token_stream(&tensor),
            shape,
            pattern,
            keywords,
        })
    };
    let result = parser.parse2(input);
    result.map_err(|e| (e, read))
}

/// The pattern: one string literal, or tokens.
fn pattern_source(
    mac: &str,
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
    );
    Ok(PatternSource::Tokens {
        text,
        spans,
        groups,
    })
}

/// Writes the token form out as text for the shared parser, recording each token's range.
/// Tokens are separated by one space, except after `(`, before `)` and inside a run of
/// joined punctuation (`->`, `...`).
fn write_tokens(
    tokens: TokenStream,
    text: &mut String,
    spans: &mut Vec<(std::ops::Range<usize>, Span)>,
    groups: &mut Vec<(std::ops::Range<usize>, Span)>,
    joint: &mut bool,
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
                write_tokens(g.stream(), text, spans, groups, joint);
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

/// One keyword argument `name = value`.
fn keyword(mac: &str, s: syn::parse::ParseStream<'_>) -> syn::Result<KeywordArg> {
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

/// A literal expression, possibly negated or parenthesized (`4`, `-2`, `(3)`): whether it
/// is negated, and the literal; `None` for any other expression.
fn signed_literal(e: &syn::Expr) -> Option<(bool, &Lit)> {
    match e {
        syn::Expr::Lit(l) => Some((false, &l.lit)),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            syn::Expr::Lit(l) => Some((true, &l.lit)),
            _ => None,
        },
        syn::Expr::Group(g) => signed_literal(&g.expr),
        syn::Expr::Paren(p) => signed_literal(&p.expr),
        _ => None,
    }
}

/// The value of an integer literal with its sign, if it fits in `i64`.
fn int_value(i: &syn::LitInt, negative: bool) -> Option<i64> {
    i.base10_digits()
        .parse::<i128>()
        .ok()
        .map(|v| if negative { -v } else { v })
        .and_then(|v| i64::try_from(v).ok())
}

/// The value of an integer literal extent (`4`, `4usize`, `-2`); `None` for any other
/// expression (a constant, checked by the compiler); an error for other literals.
fn literal_extent(mac: &str, name: &syn::Ident, e: &syn::Expr) -> syn::Result<Option<i64>> {
    let Some((negative, lit)) = signed_literal(e) else {
        return Ok(None);
    };
    let err = |message: String| Err(syn::Error::new_spanned(e, format!("{mac}: {message}")));
    match lit {
        Lit::Int(i) => {
            if !matches!(i.suffix(), "" | "usize") {
                return err(format!(
                    "keyword `{name}` has the type suffix `{}`; extents are plain integers (usize), e.g. `{name} = {}`",
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

/// The example every `s!` message may point to.
const KEYS_EXAMPLE: &str = "s![2, 1..9;2, .., -3..]";

/// Parses the input of `s!`: comma-separated keys (a trailing comma is allowed), each an
/// integer expression or a range `start..stop` (either bound optional) with an optional
/// `;step`. On an error, also returns the number of keys written (for the placeholder).
pub fn keys(input: TokenStream) -> Result<KeysAst, (syn::Error, usize)> {
    // Split at the top-level commas.
    let mut items: Vec<Vec<TokenTree>> = Vec::new();
    let mut current = Vec::new();
    let mut empty_before: Option<Span> = None;
    for tt in input {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                if current.is_empty() && empty_before.is_none() {
                    empty_before = Some(p.span());
                }
                items.push(std::mem::take(&mut current));
            }
            _ => current.push(tt),
        }
    }
    if !current.is_empty() {
        items.push(current);
    }
    let count = items.len();
    if let Some(comma) = empty_before {
        let e = syn::Error::new(
            comma,
            format!(
                "s!: expected a key before this `,`; keys are separated by single commas, e.g. `{KEYS_EXAMPLE}`"
            ),
        );
        return Err((e, count));
    }
    let mut keys = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for item in items {
        match key(item) {
            Ok(k) => keys.push(k),
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
        }
    }
    match errors {
        Some(e) => Err((e, count)),
        None => Ok(KeysAst { keys }),
    }
}

/// The first and last token of a non-empty list.
fn spans_of(tokens: &[TokenTree]) -> Spans {
    Spans {
        first: tokens.first().map_or_else(Span::call_site, TokenTree::span),
        last: tokens.last().map_or_else(Span::call_site, TokenTree::span),
    }
}

/// What a run of dots starting at a `.` is: `..`, `..=` or `...`, with its length.
fn dots(tokens: &[TokenTree], i: usize) -> Option<(&'static str, usize)> {
    let punct = |j: usize, c: char| match tokens.get(j) {
        Some(TokenTree::Punct(p)) if p.as_char() == c => Some(p.spacing()),
        _ => None,
    };
    if punct(i, '.') != Some(Spacing::Joint) || punct(i + 1, '.').is_none() {
        return None;
    }
    if punct(i + 1, '.') == Some(Spacing::Joint) {
        if punct(i + 2, '=').is_some() {
            return Some(("..=", 3));
        }
        if punct(i + 2, '.').is_some() {
            return Some(("...", 3));
        }
    }
    Some(("..", 2))
}

/// One key of `s!` (never empty).
fn key(mut tokens: Vec<TokenTree>) -> syn::Result<KeyAst> {
    // A fragment forwarded by `macro_rules!` (`$k:expr`) arrives in an invisible group.
    if let [TokenTree::Group(g)] = &tokens[..]
        && g.delimiter() == Delimiter::None
    {
        tokens = g.stream().into_iter().collect();
    }
    let whole = spans_of(&tokens);
    // The step, after a top-level `;`.
    let semis: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
        .map(|(i, _)| i)
        .collect();
    if let Some(&second) = semis.get(1) {
        return Err(syn::Error::new(
            tokens[second].span(),
            "s!: a second `;` in one key; a slice has one step, written `start..stop;step`",
        ));
    }
    let (range, step) = match semis.first() {
        Some(&at) => {
            let step: Vec<TokenTree> = tokens[at + 1..].to_vec();
            let semi = tokens[at].span();
            tokens.truncate(at);
            if step.is_empty() {
                return Err(syn::Error::new(
                    semi,
                    "s!: expected a step after `;`, e.g. `1..9;2`",
                ));
            }
            (tokens, Some((semi, step)))
        }
        None => (tokens, None),
    };
    // The range operator, at top level.
    let mut ops = Vec::new();
    let mut i = 0;
    while i < range.len() {
        match dots(&range, i) {
            Some((op, len)) => {
                ops.push((i, op, len));
                i += len;
            }
            None => i += 1,
        }
    }
    if let Some(&(at, op, _)) = ops.get(1) {
        return Err(syn::Error::new(
            range[at].span(),
            format!("s!: a second `{op}` in one key; a slice is written `start..stop;step`"),
        ));
    }
    let Some(&(at, op, len)) = ops.first() else {
        if let Some((semi, _)) = step {
            let e = if range.is_empty() {
                "s!: a step needs a range before it, e.g. `..;2` for every second coordinate"
                    .to_string()
            } else {
                format!(
                    "s!: a step applies to a slice, not to the integer key `{}`; write \
                     `start..stop;step`, e.g. `1..9;2`",
                    TokenStream::from_iter(range.iter().cloned())
                )
            };
            return Err(syn::Error::new(semi, e));
        }
        return Ok(KeyAst::Int(bound(range, "a key")?));
    };
    let op_spans = spans_of(&range[at..at + len]);
    let start = &range[..at];
    let stop = &range[at + len..];
    match op {
        "..=" => {
            let text = |t: &[TokenTree]| match bound(t.to_vec(), "a bound") {
                Ok(b) if !t.is_empty() => (b.text(), b.literal.filter(|_| !b.suffixed)),
                _ => (TokenStream::from_iter(t.iter().cloned()).to_string(), None),
            };
            let (start_text, _) = text(start);
            let (stop_text, stop_value) = text(stop);
            let suggestion = match stop_value {
                // `..=-1` runs to the end.
                Some(-1) => format!("{start_text}.."),
                Some(v) if v < i64::MAX => format!("{start_text}..{}", v + 1),
                Some(_) => format!("{start_text}..{stop_text} + 1"),
                None => format!("{start_text}..{stop_text} + 1"),
            };
            return Err(op_spans.error(format!(
                "s!: inclusive ranges (`..=`) are not accepted: a slice's stop is exclusive, as \
                 in Python; write `{suggestion}` for `{start_text}..={stop_text}`"
            )));
        }
        "..." => {
            return Err(op_spans.error(
                "s!: `...` is not a key: give one key per top-level mode, `..` for a whole mode",
            ));
        }
        _ => {}
    }
    let part = |t: &[TokenTree], what: &str| -> syn::Result<Option<Bound>> {
        if t.is_empty() {
            Ok(None)
        } else {
            bound(t.to_vec(), what).map(Some)
        }
    };
    let start = part(start, "the start of a slice")?;
    let stop = part(stop, "the stop of a slice")?;
    let step = match step {
        Some((_, t)) => Some(bound(t, "a step")?),
        None => None,
    };
    Ok(KeyAst::Slice {
        start,
        stop,
        step,
        spans: whole,
    })
}

/// An integer expression of `s!` (never empty).
fn bound(tokens: Vec<TokenTree>, what: &str) -> syn::Result<Bound> {
    let spans = spans_of(&tokens);
    let stream = TokenStream::from_iter(tokens);
    let text = stream.to_string();
    let expr: syn::Expr = syn::parse2(stream).map_err(|_| {
        spans.error(format!(
            "s!: expected an integer expression as {what}, found `{text}`; e.g. `{KEYS_EXAMPLE}`"
        ))
    })?;
    let (literal, suffixed) = integer_literal(&expr, what, &spans)?;
    Ok(Bound {
        expr: Box::new(expr),
        literal,
        suffixed,
        spans,
    })
}

/// The value of an integer literal (`4`, `-2`, `(3)`, `4usize`) and whether it has a suffix;
/// `None` for any other expression; an error for a literal that is not an integer.
fn integer_literal(e: &syn::Expr, what: &str, spans: &Spans) -> syn::Result<(Option<i64>, bool)> {
    let Some((negative, lit)) = signed_literal(e) else {
        return Ok((None, false));
    };
    let sign = if negative { "-" } else { "" };
    match lit {
        Lit::Int(i) => match int_value(i, negative) {
            Some(v) => Ok((Some(v), !i.suffix().is_empty())),
            None => Err(spans.error(format!(
                "s!: {what} `{sign}{}` does not fit in i64",
                i.base10_digits()
            ))),
        },
        Lit::Float(f) => {
            Err(spans.error(format!("s!: {what} must be an integer, found `{sign}{f}`")))
        }
        other => Err(spans.error(format!(
            "s!: {what} must be an integer, found `{sign}{}`",
            quote::ToTokens::to_token_stream(other)
        ))),
    }
}

/// A position in a flat list of token trees.
struct Cursor {
    tokens: Vec<TokenTree>,
    pos: usize,
    /// Where to point when the input ends too early.
    end: Span,
    /// The macro's name, to start each message.
    mac: &'static str,
}

impl Cursor {
    fn new(input: TokenStream, end: Span, mac: &'static str) -> Cursor {
        Cursor {
            tokens: input.into_iter().collect(),
            pos: 0,
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
                describe(self.peek().expect("not at the end"))
            )));
        }
        let value = lit.value();
        Ok(Some(Text { lit, value }))
    }

    /// The `:` between shape and stride.
    fn colon(&mut self) -> syn::Result<()> {
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
                return Err(spans.error(
                    "layout!: expected a single `:` between the shape and the stride, found `::`",
                ));
            }
            return Ok(());
        }
        let hint = match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                "; a shape of several modes is one parenthesized tuple, e.g. \
                 `layout!((2, 3) : (1, 2))`"
            }
            _ => "",
        };
        Err(syn::Error::new_spanned(
            &tt,
            format!(
                "layout!: expected `:` between the shape and the stride, found {}{hint}",
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
                    let mut inner = Cursor::new(g.stream(), g.span_close(), mac);
                    let (items, _) =
                        inner.list(|i| format!("`)` after mode {i} of the tuple `{g}`"))?;
                    Ok(TokenTuple::Tuple(items, Spans::single(g.span())))
                }
                Delimiter::None => {
                    // A fragment forwarded by `macro_rules!` (e.g. `$e:expr`): one term.
                    let mut inner = Cursor::new(g.stream(), g.span(), mac);
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
fn integer(mac: &str, lit: &Literal, minus: Option<Span>) -> syn::Result<TokenTuple> {
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
            let value = i
                .base10_digits()
                .parse::<i128>()
                .ok()
                .map(|v| if minus.is_some() { -v } else { v })
                .and_then(|v| i64::try_from(v).ok());
            match value {
                Some(v) => Ok(TokenTuple::Int(v, spans)),
                None => Err(spans.error(format!(
                    "{mac}: integer `{sign}{}` does not fit in i64 (from {} to {})",
                    i.base10_digits(),
                    i64::MIN,
                    i64::MAX
                ))),
            }
        }
        Lit::Float(_) => Err(spans.error(format!(
            "{mac}: `{sign}{lit}` is not an integer; {} are integers",
            numbers(mac)
        ))),
        Lit::Str(_) => {
            let example = if mac == "layout!" {
                "(2,3):(1,2)"
            } else {
                "(2,3)"
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
fn numbers(mac: &str) -> &'static str {
    if mac == "shape!" {
        "extents"
    } else {
        "extents and strides"
    }
}

/// How a token is named in a message.
fn describe(tt: &TokenTree) -> String {
    match tt {
        TokenTree::Ident(i) => format!("identifier `{i}`"),
        TokenTree::Punct(p) => format!("`{}`", p.as_char()),
        TokenTree::Literal(l) => format!("`{l}`"),
        TokenTree::Group(g) => match g.delimiter() {
            Delimiter::Parenthesis => format!("the tuple `{g}`"),
            _ => format!("`{g}`"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn tokens(input: TokenStream) -> LayoutAst<Spans> {
        match layout(input) {
            Ok(LayoutInput::Tokens(ast)) => ast,
            Ok(LayoutInput::Text(..)) => panic!("string form"),
            Err(e) => panic!("{e}"),
        }
    }

    fn error(input: TokenStream) -> String {
        match layout(input) {
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
        let Ok(LayoutInput::Text(text, ast)) = layout(quote!("(2,(3,4)):(1,(2,6))")) else {
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

    #[test]
    fn shape_lists_are_the_root_tuple() {
        let read = |t: TokenStream| match shape(t) {
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

    fn keys_of(t: TokenStream) -> Result<Vec<String>, String> {
        match keys(t) {
            Ok(k) => Ok(k.keys.iter().map(KeyAst::text).collect()),
            Err((e, _)) => Err(e.to_string()),
        }
    }

    #[test]
    fn keys_read_integers_ranges_and_steps() {
        assert_eq!(
            keys_of(quote!(2, 1..9;2, .., ..5, 3.., ..;2, -3.., -4..-1, n - 1, a..b;k,)).unwrap(),
            [
                "2", "1..9;2", "..", "..5", "3..", "..;2", "-3..", "-4..-1", "n - 1", "a..b;k"
            ]
        );
        assert_eq!(keys_of(quote!()).unwrap(), Vec::<String>::new());
        let Ok(k) = keys(quote!((3), 4usize)) else {
            panic!()
        };
        assert!(matches!(&k.keys[0], KeyAst::Int(b) if b.literal == Some(3) && !b.suffixed));
        assert!(matches!(&k.keys[1], KeyAst::Int(b) if b.literal == Some(4) && b.suffixed));
    }

    #[test]
    fn key_mistakes_are_named_and_counted() {
        let err = |t: TokenStream| match keys(t) {
            Ok(_) => panic!("accepted"),
            Err((e, n)) => (e.to_string(), n),
        };
        let (e, n) = err(quote!(1..=8, ..));
        assert!(e.contains("write `1..9` for `1..=8`"), "{e}");
        assert_eq!(n, 2);
        assert!(err(quote!(..=-1)).0.contains("write `..` for `..=-1`"));
        assert!(err(quote!(0..=n)).0.contains("write `0..n + 1`"));
        assert!(err(quote!(..., 2)).0.contains("`...` is not a key"));
        assert!(err(quote!(1..2..3)).0.contains("a second `..`"));
        assert!(err(quote!(1..9;2;2)).0.contains("a second `;`"));
        assert!(err(quote!(1..9;)).0.contains("expected a step after `;`"));
        assert!(err(quote!(;2)).0.contains("a step needs a range"));
        assert!(err(quote!(2;2)).0.contains("not to the integer key `2`"));
        assert!(
            err(quote!(1.5))
                .0
                .contains("a key must be an integer, found `1.5`")
        );
        assert!(
            err(quote!(.."a"))
                .0
                .contains("the stop of a slice must be an integer")
        );
        assert!(
            err(quote!(1..99999999999999999999))
                .0
                .contains("does not fit in i64")
        );
        assert!(
            err(quote!(1, , 2))
                .0
                .contains("expected a key before this `,`")
        );
        assert!(
            err(quote!(1..+))
                .0
                .contains("expected an integer expression as the stop")
        );
        assert_eq!(err(quote!(1.5, 2..;0.5, 3)).1, 3);
    }
}
