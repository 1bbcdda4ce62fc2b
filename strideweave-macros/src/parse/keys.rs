//! The input of `s!`: integer keys and `start..stop;step` slices.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::Lit;

use super::{int_value, signed_literal};
use crate::ast::{Bound, KeyAst, KeysAst, Spans};

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

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

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
