//! `einsum!`: checks the pattern with the shared grammar (`strideweave_syntax::parse_einsum`)
//! and expands to constant data (`strideweave::__private::EinsumCode`: one rearrangement
//! pattern per input, one for the output, the shared symbols) plus the call of the dispatch
//! function, whose compile-time check runs the static rearrangement engine on static
//! operands' shapes.

use std::ops::Range;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use strideweave_syntax::{
    Einsum, NotationError, Term, encode_pattern, parse_einsum, parse_pattern,
};

use crate::ast::{KeywordArg, MacroKind};
use crate::parse::EinsumCall;

const MAC: MacroKind = MacroKind::Einsum;

/// The byte range of the left side (before `->`), without surrounding spaces.
fn left_range(text: &str) -> Range<usize> {
    let arrow = text.find("->").unwrap_or(text.len());
    let left = &text[..arrow];
    let start = left.len() - left.trim_start().len();
    let end = left.trim_end().len().max(start);
    start..end
}

/// Checks the pattern and the keywords: every mistake that needs no shape.
pub fn validate(call: &EinsumCall) -> syn::Result<Einsum> {
    let text = call.pattern.text();
    let e = parse_einsum(text).map_err(|err| call.pattern.error(MAC, &err))?;
    let (want, given) = (e.inputs.len(), call.tensors.len());
    if want != given {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        return Err(call.pattern.error(
            MAC,
            &NotationError {
                position: left_range(text),
                message: format!(
                    "the pattern names {} but {} given: write one tensor per comma-separated input",
                    plural(want, "input"),
                    if given == 1 {
                        "1 tensor is".to_string()
                    } else {
                        format!("{given} tensors are")
                    }
                ),
            },
        ));
    }
    let symbols: Vec<&String> = {
        let mut all: Vec<&String> = Vec::new();
        for s in e.symbols.iter().flatten() {
            if !all.contains(&s) {
                all.push(s);
            }
        }
        all
    };
    for (i, k) in call.keywords.iter().enumerate() {
        let name = k.name.to_string();
        let value = keyword_text(k);
        if let Some(first) = call.keywords[..i].iter().find(|f| f.name == k.name) {
            return Err(k.spans.error(format!(
                "{MAC}: keyword `{name}` is given twice ({name} = {} and {name} = {value})",
                keyword_text(first)
            )));
        }
        if !symbols.iter().any(|s| **s == name) {
            let list: Vec<&str> = symbols.iter().map(|s| s.as_str()).collect();
            return Err(k.spans.error(format!(
                "{MAC}: keyword `{name} = {value}` names no symbol of the inputs (their symbols: {})",
                list.join(", ")
            )));
        }
        if matches!(k.literal, Some(v) if v < 1) {
            return Err(k.spans.error(format!(
                "{MAC}: keyword `{name} = {value}`: an extent must be at least 1"
            )));
        }
    }
    Ok(e)
}

fn keyword_text(k: &KeywordArg) -> String {
    match k.literal {
        Some(v) => v.to_string(),
        None => quote::ToTokens::to_token_stream(&k.value).to_string(),
    }
}

/// The column (in characters) of byte offset `at` of `text`.
fn column(text: &str, at: usize) -> u32 {
    text.get(..at).map_or(0, |s| s.chars().count()) as u32
}

/// `::strideweave::__private::PatternCode` for the rearrangement `parse_text` (whose
/// columns are the user's), quoting the user's pattern, with the keywords that name its
/// symbols.
fn pattern_code(
    call: &EinsumCall,
    parse_text: &str,
    keywords: &[TokenStream],
) -> syn::Result<(TokenStream, Vec<String>)> {
    let p = quote!(::strideweave::__private);
    let internal =
        |m: String| syn::Error::new(call.pattern.span_at(&(0..0)), format!("{MAC}: {m}"));
    let parsed = parse_pattern(parse_text).map_err(|e| internal(e.render(parse_text)))?;
    let encoded = encode_pattern(parse_text, &parsed).map_err(internal)?;
    let side = |s: &strideweave_syntax::EncodedSide| {
        let toks = Literal::byte_string(&s.toks);
        let strings = &s.strings;
        quote!(#p::Side { toks: #toks, strings: #strings })
    };
    let (left, right) = (side(&encoded.left), side(&encoded.right));
    let names = &encoded.names;
    let (l0, l1) = encoded.left_span;
    let text = call.pattern.text();
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
            op: #p::Op::Rearrange,
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

/// The output side's symbols in order of appearance (inside groups too).
fn output_symbols(terms: &[Term<Range<usize>>], out: &mut Vec<String>) {
    for t in terms {
        match t {
            Term::Symbol(s, _) => out.push(s.clone()),
            Term::Group(inner, _) => output_symbols(inner, out),
            _ => {}
        }
    }
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
    let arrow = text.find("->").unwrap_or(text.len());
    let ell = if e.ellipsis { "... " } else { "" };
    let keyword_values: Vec<TokenStream> = call
        .keywords
        .iter()
        .map(|k| {
            let value = &k.value;
            quote_spanned!(k.spans.last=> #p::extent(#value))
        })
        .collect();
    let mut inputs = Vec::new();
    for (k, syms) in e.symbols.iter().enumerate() {
        let parse_text = format!("{}-> {ell}{}", &e.texts[k][..arrow], syms.join(" "));
        inputs.push(pattern_code(call, &parse_text, &keyword_values)?.0);
    }
    let mut out_syms = Vec::new();
    output_symbols(&e.inputs[0].right.terms, &mut out_syms);
    // The output symbols written before the arrow, padded so that the output side keeps the
    // user's columns (the symbols, distinct and space-separated, fit where the inputs were).
    let mut lhs = format!("{ell}{}", out_syms.join(" "));
    if lhs.len() < arrow {
        lhs.push_str(&" ".repeat(arrow - lhs.len()));
    } else {
        lhs.push(' ');
    }
    let output_text = format!("{lhs}{}", &text[arrow..]);
    let (output, _) = pattern_code(call, &output_text, &[])?;
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
    let names: Vec<String> = call.keywords.iter().map(|k| k.name.to_string()).collect();
    let ellipsis = e.ellipsis;
    let at = call.pattern.span_at(&(0..0));
    // Spanned at the pattern, path included: a failed check is reported there.
    let check = quote_spanned!(at=> ::strideweave::__private::check_einsum::<A, B, Self>());
    let tensors = &call.tensors;
    let call_tokens = match &tensors[..] {
        [a] => {
            let on = first_span(a);
            let witness = quote_spanned!(at=> <__StrideWeaveEinsum as ::strideweave::__private::EinsumCheck<_, ()>>::CHECK);
            quote_spanned!(on=> ::strideweave::__private::einsum1::<__StrideWeaveEinsum, _>(#a, #witness))
        }
        [a, b] => {
            let on = first_span(a);
            let witness = quote_spanned!(at=> <__StrideWeaveEinsum as ::strideweave::__private::EinsumCheck<_, _>>::CHECK);
            quote_spanned!(on=> ::strideweave::__private::einsum2::<__StrideWeaveEinsum, _, _>(#a, #b, #witness))
        }
        // unreachable from user input: validate() required one tensor per input, and an einsum has one or two inputs.
        _ => return Err(syn::Error::new(at, format!("{MAC}: one or two tensors"))),
    };
    Ok(quote! {
        {
            {
                struct __StrideWeaveEinsum;
                impl<A: #p::ShapeInfo, B: #p::ShapeInfo> #p::EinsumCheck<A, B> for __StrideWeaveEinsum {
                    const CODE: #p::EinsumCode = #p::EinsumCode {
                        text: #text,
                        inputs: &[#(#inputs),*],
                        output: #output,
                        shared: &[#(#shared),*],
                        out_modes: &[#(#out_modes),*],
                        ellipsis: #ellipsis,
                        keywords: &[#((#names, #keyword_values)),*],
                        poisoned: false,
                    };
                    const CHECK: #p::Witness<(A, B)> = #check;
                }
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
        [] => quote!({ #errors #p::poisoned(#p::Dynamic) }),
    }
}

/// `einsum!`'s pipeline: parse, check, expand (or the errors and a placeholder).
pub fn einsum(input: TokenStream) -> TokenStream {
    let call = match crate::parse::einsum_call(input) {
        Ok(call) => call,
        Err((e, tensors)) => return error(&e, &tensors),
    };
    match validate(&call).and_then(|e| expand(&call, &e)) {
        Ok(tokens) => tokens,
        Err(e) => error(&e, &call.tensors),
    }
}
