//! The input of `reduce!`: `tensor, pattern, reduction, name = extent, …`. The tensor,
//! pattern and keywords are read as `rearrange!` reads them; the reduction is one of
//! einops' names (`sum`, `mean`, `max`, `min`, `prod`) or `logsumexp` or a path to a `Reduction` variant.

use proc_macro2::{Span, TokenStream, TokenTree};

use super::describe;
use super::pattern_call::{head, keywords, pattern_source};
use crate::ast::{MacroKind, PatternCall, Spans};

/// The reductions, as `reduce!` spells them and as `strideweave::Reduction` names them.
pub const REDUCTIONS: [(&str, &str); 6] = [
    ("sum", "Sum"),
    ("mean", "Mean"),
    ("max", "Max"),
    ("min", "Min"),
    ("prod", "Prod"),
    ("logsumexp", "LogSumExp"),
];

/// What a message lists: "`sum`, `mean`, `max`, `min`, `prod` or `logsumexp`".
const NAMES: &str = "`sum`, `mean`, `max`, `min`, `prod` or `logsumexp`";

const EXAMPLE: &str = "reduce!(t, \"b c h w -> b c\", mean)";

/// A parsed `reduce!` call: the pattern call `rearrange!` would read, and the reduction.
pub struct ReduceCall {
    /// Tensor, shape, pattern and keywords.
    pub call: PatternCall,
    /// The `strideweave::Reduction` variant (`"Mean"`).
    pub variant: &'static str,
    /// Where the reduction was written.
    pub spans: Spans,
    /// The path as written (`Reduction::Mean`), which the expansion names so that the
    /// user's import is used; `None` for einops' names.
    pub path: Option<TokenStream>,
}

/// Parses the input of `reduce!`. On an error, also returns the tensor expression if it was
/// read (for the placeholder).
pub fn reduce_call(
    input: TokenStream,
    mac: MacroKind,
) -> Result<ReduceCall, (syn::Error, Option<TokenStream>)> {
    use syn::parse::{ParseStream, Parser};
    let mut read: Option<TokenStream> = None;
    let parser = |s: ParseStream<'_>| -> syn::Result<ReduceCall> {
        let (tensor, shape) = head(s, mac, "a pattern and a reduction", EXAMPLE, &mut read)?;
        let pattern_tokens = until_comma(s)?;
        let pattern = pattern_source(mac, pattern_tokens, s.span(), EXAMPLE)?;
        let end = s.span();
        if s.peek(syn::Token![,]) {
            s.parse::<syn::Token![,]>()?;
        }
        let (variant, spans, path) = reduction(mac, until_comma(s)?, end)?;
        let keywords = keywords(mac, s)?;
        Ok(ReduceCall {
            call: PatternCall {
                mac,
                kind: strideweave_syntax::PatternKind::Reduce,
                tensor,
                shape,
                pattern,
                keywords,
            },
            variant,
            spans,
            path,
        })
    };
    parser.parse2(input).map_err(|e| (e, read))
}

/// The token trees up to the next top-level comma.
fn until_comma(s: syn::parse::ParseStream<'_>) -> syn::Result<Vec<TokenTree>> {
    let mut tokens = Vec::new();
    while !s.is_empty() && !s.peek(syn::Token![,]) {
        tokens.push(s.parse()?);
    }
    Ok(tokens)
}

/// The reduction: `mean`, or a path ending in `Reduction::Mean`.
fn reduction(
    mac: MacroKind,
    tokens: Vec<TokenTree>,
    end: Span,
) -> syn::Result<(&'static str, Spans, Option<TokenStream>)> {
    let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else {
        return Err(syn::Error::new(
            end,
            format!("{mac}: expected a reduction after the pattern: {NAMES}, e.g. `{EXAMPLE}`"),
        ));
    };
    let spans = Spans {
        first: first.span(),
        last: last.span(),
    };
    let written: TokenStream = tokens.iter().cloned().collect();
    if tokens
        .iter()
        .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '='))
    {
        return Err(spans.error(format!(
            "{mac}: expected a reduction after the pattern ({NAMES}), found the keyword `{written}`; \
             the reduction comes before the keyword extents, e.g. \
             `reduce!(t, \"(h h2) w -> h w\", max, h2 = 2)`"
        )));
    }
    let path: Option<syn::Path> = syn::parse2(written.clone()).ok();
    let segments: Vec<String> = path
        .iter()
        .flat_map(|p| p.segments.iter())
        .filter(|s| s.arguments.is_empty())
        .map(|s| s.ident.to_string())
        .collect();
    let found = match (path.as_ref().map(|p| p.segments.len()), &segments[..]) {
        (Some(1), [name]) if path.as_ref().is_some_and(|p| p.leading_colon.is_none()) => REDUCTIONS
            .iter()
            .find(|(n, _)| n == name)
            .map(|r| (r.1, None)),
        (Some(n), [.., ty, variant]) if n == segments.len() && ty == "Reduction" => REDUCTIONS
            .iter()
            .find(|(_, v)| v == variant)
            .map(|r| (r.1, Some(written.clone()))),
        _ => None,
    };
    if let Some((variant, path)) = found {
        return Ok((variant, spans, path));
    }
    let hint = match &segments[..] {
        [.., name] => REDUCTIONS
            .iter()
            .find(|(n, v)| n.eq_ignore_ascii_case(name) || v.eq_ignore_ascii_case(name))
            .map(|(n, v)| format!(" (did you mean `{n}`, or `Reduction::{v}`?)"))
            .unwrap_or_default(),
        [] => String::new(),
    };
    let what = match &tokens[..] {
        [one] => describe(one),
        _ => format!("`{written}`"),
    };
    Err(spans.error(format!(
        "{mac}: unknown reduction {what}{hint}; write one of {NAMES} (einops' names), or a \
         `Reduction` variant such as `Reduction::Mean`"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn error(t: TokenStream) -> String {
        match reduce_call(t, MacroKind::Reduce) {
            Ok(_) => panic!("accepted"),
            Err((e, _)) => e.to_string(),
        }
    }

    #[test]
    fn each_reduction_is_read_by_its_name_or_its_variant_path() {
        for (name, variant) in REDUCTIONS {
            let id = proc_macro2::Ident::new(name, Span::call_site());
            let r = reduce_call(quote!(t, "a b -> a", #id, b = 2), MacroKind::Reduce)
                .unwrap_or_else(|(e, _)| panic!("{e}"));
            assert_eq!((r.variant, r.call.keywords.len()), (variant, 1));
            let v = proc_macro2::Ident::new(variant, Span::call_site());
            for path in [quote!(Reduction::#v), quote!(::strideweave::Reduction::#v)] {
                let r = reduce_call(quote!(t, a b -> a, #path), MacroKind::Reduce)
                    .unwrap_or_else(|(e, _)| panic!("{e}"));
                assert_eq!(r.variant, variant);
            }
        }
    }

    #[test]
    fn a_missing_or_unknown_reduction_lists_the_six_names() {
        let e = error(quote!(t, "a b -> a"));
        assert!(e.starts_with("reduce!: expected a reduction after the pattern: `sum`, `mean`, `max`, `min`, `prod` or `logsumexp`"), "{e}");
        let e = error(quote!(t, "a b -> a",));
        assert!(e.starts_with("reduce!: expected a reduction"), "{e}");
        let e = error(quote!(t, "a b -> a", avg));
        assert!(e.starts_with("reduce!: unknown reduction identifier `avg`; write one of `sum`, `mean`, `max`, `min`, `prod` or `logsumexp`"), "{e}");
        let e = error(quote!(t, "a b -> a", Mean));
        assert!(
            e.contains("(did you mean `mean`, or `Reduction::Mean`?)"),
            "{e}"
        );
        let e = error(quote!(t, "a b -> a", Other::Mean));
        assert!(
            e.starts_with("reduce!: unknown reduction `Other :: Mean`"),
            "{e}"
        );
        let e = error(quote!(t, "a b -> a", "mean"));
        assert!(
            e.starts_with("reduce!: unknown reduction `\"mean\"`"),
            "{e}"
        );
        let e = error(quote!(t, "(h h2) w -> h w", h2 = 2));
        assert!(
            e.contains("found the keyword `h2 = 2`; the reduction comes before"),
            "{e}"
        );
        let e = error(quote!());
        assert!(e.starts_with("reduce!: the input is empty"), "{e}");
        let e = error(quote!(t));
        assert!(e.starts_with("reduce!: expected `,` and a pattern"), "{e}");
        let e = error(quote!(t,));
        assert!(
            e.starts_with("reduce!: expected a pattern after the tensor"),
            "{e}"
        );
    }
}
