//! `einsum!`: checks the pattern with the shared grammar (`strideweave_syntax::parse_einsum`)
//! and expands to constant data (`strideweave::__private::EinsumCode`: one rearrangement
//! pattern per input, one for the output, the shared symbols) plus the call of the dispatch
//! function, whose compile-time check runs the static rearrangement engine on static
//! operands' shapes.

use std::ops::Range;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use strideweave_syntax::{Einsum, EinsumCallError, Pattern, Term, encode_pattern, parse_einsum};

use crate::ast::MacroKind;
use crate::parse::EinsumCall;
use crate::validate::KeywordValue;

/// Checks the pattern, the number of tensors and the keywords with the shared grammar
/// (`strideweave_syntax`): every mistake that needs no shape.
pub fn validate(call: &EinsumCall) -> syn::Result<Einsum> {
    let text = call.pattern.text();
    let e = parse_einsum(text).map_err(|err| call.pattern.error(call.mac, &err))?;
    let names: Vec<String> = call.keywords.iter().map(|k| k.name.to_string()).collect();
    let keywords: Vec<(&str, KeywordValue<'_>, usize)> = (call.keywords.iter().zip(&names))
        .enumerate()
        .map(|(i, (k, name))| (name.as_str(), KeywordValue::of(k), i))
        .collect();
    match e.check_call(text, call.tensors.len(), &keywords) {
        Ok(()) => Ok(e),
        Err(EinsumCallError::Tensors(err)) => Err(call.pattern.error(call.mac, &err)),
        Err(EinsumCallError::Keyword(err)) => Err(call.keywords[err.position]
            .spans
            .error(format!("{}: {}", call.mac, err.mistake))),
    }
}

/// The column (in characters) of byte offset `at` of `text`.
fn column(text: &str, at: usize) -> u32 {
    text.get(..at).map_or(0, |s| s.chars().count()) as u32
}

/// `::strideweave::__private::PatternCode` for the rearrangement `pattern` (spans in the
/// user's text, which it quotes), with the keywords that name its symbols; and its symbols.
fn pattern_code(
    call: &EinsumCall,
    pattern: &Pattern<Range<usize>>,
    keywords: &[TokenStream],
) -> syn::Result<(TokenStream, Vec<String>)> {
    let p = quote!(::strideweave::__private);
    let text = call.pattern.text();
    let mut encoded = encode_pattern(text, pattern).map_err(|m| {
        syn::Error::new(call.pattern.span_at(&(0..0)), format!("{}: {m}", call.mac))
    })?;
    // The einops reading: every group's members slowest first, as written.
    let op = if call.mac.is_einops() {
        encoded = encoded.mirror_groups();
        quote!(#p::Op::EinopsRearrange)
    } else {
        quote!(#p::Op::Rearrange)
    };
    let side = |s: &strideweave_syntax::EncodedSide| {
        let toks = Literal::byte_string(&s.toks);
        let strings = &s.strings;
        quote!(#p::Side { toks: #toks, strings: #strings })
    };
    let (left, right) = (side(&encoded.left), side(&encoded.right));
    let names = &encoded.names;
    let (l0, l1) = encoded.left_span;
    let kws: Vec<TokenStream> = call
        .keywords
        .iter()
        .zip(keywords)
        .filter_map(|(k, value)| {
            let sym = encoded.symbol(&k.name.to_string())?;
            Some(quote!(#p::Keyword { sym: #sym, value: #value }))
        })
        .collect();
    let code = quote! {
        #p::PatternCode {
            op: #op,
            text: #text,
            left: #left,
            right: #right,
            left_span: (#l0, #l1),
            names: &[#(#names),*],
            keywords: &[#(#kws),*],
        }
    };
    Ok((code, encoded.names.clone()))
}

/// The columns of the first term naming `name` on input `k`'s side.
fn columns_of(text: &str, terms: &[Term<Range<usize>>], name: &str) -> Option<(u32, u32)> {
    terms.iter().find_map(|t| match t {
        Term::Symbol(s, r) if s == name => Some((column(text, r.start), column(text, r.end))),
        Term::Group(inner, _) => columns_of(text, inner, name),
        _ => None,
    })
}

/// The expansion of a checked call.
pub fn expand(call: &EinsumCall, e: &Einsum) -> syn::Result<TokenStream> {
    let p = quote!(::strideweave::__private);
    let text = call.pattern.text();
    let keyword_values: Vec<TokenStream> = call
        .keywords
        .iter()
        .map(|k| {
            let value = &k.value;
            quote_spanned!(k.spans.last=> #p::extent(#value))
        })
        .collect();
    let mut inputs = Vec::new();
    for k in 0..e.inputs.len() {
        inputs.push(pattern_code(call, &e.input_view(k), &keyword_values)?.0);
    }
    let (output, out_syms) = pattern_code(call, &e.output_view(), &[])?;
    let place = |k: usize, s: &str| e.symbols[k].iter().position(|x| x == s);
    let out_modes: Vec<TokenStream> = out_syms
        .iter()
        .map(|s| match place(0, s) {
            Some(m) => quote!((0usize, #m)),
            // unreachable from user input: parse_einsum checked that every output symbol is on some input.
            None => {
                let m = place(1, s).unwrap_or(0);
                quote!((1usize, #m))
            }
        })
        .collect();
    let mut shared = Vec::new();
    if e.inputs.len() == 2 {
        for (m0, s) in e.symbols[0].iter().enumerate() {
            if let Some(m1) = place(1, s) {
                let (c0, c1) = columns_of(text, &e.inputs[1].left.terms, s).unwrap_or((0, 1));
                shared.push(quote!(#p::SharedSymbol { name: #s, mode0: #m0, mode1: #m1, columns: (#c0, #c1) }));
            }
        }
    }
    let ellipsis = e.ellipsis;
    let at = call.pattern.span_at(&(0..0));
    // Spanned at the pattern, path included: a failed check is reported there.
    let check = quote_spanned!(at=> ::strideweave::__private::check_einsum::<A, B, Self>());
    let tensors = &call.tensors;
    // A static shape written after a tensor names its shape type in the check (the dispatch
    // then requires the tensor to have it); with every input's written, the check is also an
    // item-level constant, which `cargo check` (and so rust-analyzer) evaluates.
    let shape = |k: usize| match call.shapes.get(k) {
        Some(Some(t)) => t.clone(),
        _ => quote!(_),
    };
    let (sa, sb) = (
        shape(0),
        if tensors.len() == 2 {
            shape(1)
        } else {
            quote!(())
        },
    );
    let check_item = if call.shapes.iter().all(Option::is_some) {
        quote_spanned!(at=> const _: #p::Witness<(#sa, #sb)> =
            <__StrideWeaveEinsum as #p::EinsumCheck<#sa, #sb>>::CHECK;)
    } else {
        TokenStream::new()
    };
    let witness = quote_spanned!(at=> <__StrideWeaveEinsum as ::strideweave::__private::EinsumCheck<#sa, #sb>>::CHECK);
    let call_tokens = match &tensors[..] {
        [a] => {
            let on = first_span(a);
            quote_spanned!(on=> ::strideweave::__private::einsum1::<__StrideWeaveEinsum, _>(#a, #witness))
        }
        [a, b] => {
            let on = first_span(a);
            quote_spanned!(on=> ::strideweave::__private::einsum2::<__StrideWeaveEinsum, _, _>(#a, #b, #witness))
        }
        // unreachable from user input: validate() required one tensor per input, and an einsum has one or two inputs.
        _ => {
            return Err(syn::Error::new(
                at,
                format!("{}: one or two tensors", call.mac),
            ));
        }
    };
    let name = call.mac.to_string();
    // The einops reading makes each group on the output side one mode of the fresh result;
    // the output's pattern, as a type, names that result's static shape.
    let (groups_item, call_tokens) = if call.mac.is_einops()
        && e.output_view()
            .right
            .terms
            .iter()
            .any(|t| matches!(t, Term::Group(..)))
    {
        (
            quote! {
                struct __StrideWeaveOutput;
                impl #p::Check<#p::RuntimeShape> for __StrideWeaveOutput {
                    const PATTERN: #p::PatternCode = #output;
                    const CHECK: #p::Witness<#p::RuntimeShape> = #p::check::<#p::RuntimeShape, Self>();
                }
            },
            quote!(#p::einsum_groups::<__StrideWeaveOutput, _>(#call_tokens, #name)),
        )
    } else {
        (TokenStream::new(), call_tokens)
    };
    Ok(quote! {
        {
            {
                struct __StrideWeaveEinsum;
                #groups_item
                impl<A: #p::ShapeInfo, B: #p::ShapeInfo> #p::EinsumCheck<A, B> for __StrideWeaveEinsum {
                    const CODE: #p::EinsumCode = #p::EinsumCode {
                        name: #name,
                        text: #text,
                        inputs: &[#(#inputs),*],
                        output: #output,
                        shared: &[#(#shared),*],
                        out_modes: &[#(#out_modes),*],
                        ellipsis: #ellipsis,
                        poisoned: false,
                    };
                    const CHECK: #p::Witness<(A, B)> = #check;
                }
                #check_item
                #call_tokens
            }
        }
    })
}

fn first_span(t: &TokenStream) -> Span {
    t.clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span())
}

/// The errors, then a placeholder of the type a compiled call on the tensors given would
/// have (poisoned, so that later checks stay silent).
pub fn error(e: &syn::Error, tensors: &[TokenStream]) -> TokenStream {
    let errors = e.to_compile_error();
    let p = quote!(::strideweave::__private);
    match tensors {
        [a] => quote!({ #errors #p::poisoned1(#a) }),
        [a, b, ..] => quote!({ #errors #p::poisoned2(#a, #b) }),
        [] => quote!({ #errors #p::poisoned(#p::RuntimeShape) }),
    }
}

/// `einsum!`'s pipeline: parse, check, expand (or the errors and a placeholder).
pub fn einsum(input: TokenStream, mac: MacroKind) -> TokenStream {
    let call = match crate::parse::einsum_call(input, mac) {
        Ok(call) => call,
        Err((e, tensors)) => return error(&e, &tensors),
    };
    match validate(&call).and_then(|e| expand(&call, &e)) {
        Ok(tokens) => tokens,
        Err(e) => error(&e, &call.tensors),
    }
}
