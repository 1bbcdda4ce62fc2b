//! The input of `einsum!`: `a, "pattern", name = extent, …` or `a, b, "pattern", …`.

use proc_macro2::{Span, TokenStream};
use syn::Lit;

use super::pattern_call::{comma_after_tensor, keywords};
use crate::ast::{KeywordArg, MacroKind, PatternSource, Text};

const EXAMPLE: &str = "einsum!(a, b, \"i k, k j -> i j\")";

/// What `einsum!` was given.
pub struct EinsumCall {
    /// `einsum!` or `einops::einsum!`.
    pub mac: MacroKind,
    /// The tensor expressions, as written (one or two).
    pub tensors: Vec<TokenStream>,
    /// The static shape written after each tensor (`&a: shape_t!(2, 3)`), if any: the check
    /// is then also an item-level constant, which `cargo check` evaluates.
    pub shapes: Vec<Option<TokenStream>>,
    /// The pattern (always the string form: its commas separate the inputs).
    pub pattern: PatternSource,
    /// The keyword extents, in order.
    pub keywords: Vec<KeywordArg>,
}

/// The string literal an argument is, if it is one (also inside the invisible group a
/// `macro_rules!` forwarding leaves).
fn string_literal(e: &syn::Expr) -> Option<&syn::LitStr> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s),
        syn::Expr::Group(g) => string_literal(&g.expr),
        _ => None,
    }
}

/// Parses the input of `einsum!`. On an error, also returns the tensor expressions read
/// (for the placeholder).
pub fn einsum_call(
    input: TokenStream,
    mac: MacroKind,
) -> Result<EinsumCall, (syn::Error, Vec<TokenStream>)> {
    use syn::parse::{ParseStream, Parser};
    let mut read: Vec<TokenStream> = Vec::new();
    let parser = |s: ParseStream<'_>| -> syn::Result<EinsumCall> {
        if s.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                format!(
                    "{mac}: the input is empty; write one or two tensors, a pattern and keyword extents, e.g. `{EXAMPLE}`"
                ),
            ));
        }
        let mut tensors: Vec<TokenStream> = Vec::new();
        let mut shapes: Vec<Option<TokenStream>> = Vec::new();
        let pattern = loop {
            if s.is_empty() {
                return Err(syn::Error::new(
                    Span::call_site(),
                    format!(
                        "{mac}: expected a pattern (a string literal) after the tensors, e.g. `{EXAMPLE}`"
                    ),
                ));
            }
            let arg: syn::Expr = s.parse()?;
            if let Some(lit) = string_literal(&arg) {
                if tensors.is_empty() {
                    return Err(syn::Error::new(
                        lit.span(),
                        format!(
                            "{mac}: expected one or two tensors before the pattern, e.g. `{EXAMPLE}`"
                        ),
                    ));
                }
                if !lit.suffix().is_empty() {
                    return Err(syn::Error::new(
                        lit.span(),
                        format!("{mac}: unexpected suffix `{}` on the pattern", lit.suffix()),
                    ));
                }
                let value = lit.value();
                break PatternSource::Text(Text {
                    lit: lit.clone(),
                    value,
                });
            }
            let tokens = quote::ToTokens::to_token_stream(&arg);
            if tensors.len() == 2 {
                return Err(syn::Error::new_spanned(
                    &tokens,
                    format!(
                        "{mac}: expected the pattern as a string literal after at most two tensors, found `{tokens}`; einsum takes one or two inputs, e.g. `{EXAMPLE}`"
                    ),
                ));
            }
            tensors.push(tokens.clone());
            read.push(tokens);
            shapes.push(if s.peek(syn::Token![:]) {
                s.parse::<syn::Token![:]>()?;
                let ty: syn::Type = s.parse()?;
                Some(quote::ToTokens::to_token_stream(&ty))
            } else {
                None
            });
            comma_after_tensor(mac, s, EXAMPLE)?;
        };
        let keywords = keywords(mac, s)?;
        Ok(EinsumCall {
            mac,
            tensors,
            shapes,
            pattern,
            keywords,
        })
    };
    parser.parse2(input).map_err(|e| (e, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn message(t: TokenStream) -> String {
        match einsum_call(t, MacroKind::Einsum) {
            Ok(_) => String::new(),
            Err((e, _)) => e.to_string(),
        }
    }

    #[test]
    fn einsum_call_reads_tensors_pattern_and_keywords() {
        let c = einsum_call(quote!(a, &b, "i k, k j -> i j", h = 2), MacroKind::Einsum)
            .unwrap_or_else(|_| panic!());
        assert_eq!(c.tensors.len(), 2);
        assert_eq!(c.pattern.text(), "i k, k j -> i j");
        assert_eq!(c.keywords.len(), 1);
        let c = einsum_call(quote!(x.clone(), "i j -> j i",), MacroKind::Einsum)
            .unwrap_or_else(|_| panic!());
        assert_eq!(c.tensors.len(), 1);
        let c = einsum_call(
            quote!(&a: shape_t!(2, 3), b, "i k, k j -> i j"),
            MacroKind::Einsum,
        )
        .unwrap_or_else(|_| panic!());
        assert_eq!(c.tensors.len(), 2);
        assert_eq!(
            c.shapes[0].as_ref().unwrap().to_string(),
            "shape_t ! (2 , 3)"
        );
        assert!(c.shapes[1].is_none());
    }

    #[test]
    fn einsum_call_mistakes_say_what_to_write() {
        assert!(message(quote!()).contains("the input is empty"));
        assert!(message(quote!("i -> i")).contains("expected one or two tensors before"));
        assert!(message(quote!(a, b, c, "i -> i")).contains("at most two tensors"));
        assert!(message(quote!(a, b,)).contains("expected a pattern (a string literal)"));
        assert!(message(quote!(a, b)).contains("found the end of the input"));
        assert!(message(quote!(a b)).contains("expected `,` and a pattern after the tensor"));
        assert!(message(quote!(a, "i -> i", h)).contains("expected `=`"));
    }
}
