//! Checked values → a call of `::strideweave::__private`, with every number a literal, so the
//! expansion parses and checks nothing at run time.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use strideweave_syntax::Term;

use crate::ast::{Checked, PatternCall, Profile};

mod reduce;

pub use reduce::{reduce_call, reduce_error};

/// `::strideweave::__private::layout(&[profile…], &[extents…], &[strides…], int_root)`.
pub fn layout(c: &Checked) -> TokenStream {
    let profile = profile(&c.profile);
    let extents = numbers(&c.extents);
    let strides = numbers(c.strides.as_deref().unwrap_or_default());
    let int_root = c.int_root;
    quote! {
        ::strideweave::__private::layout(&[#(#profile),*], &[#(#extents),*], &[#(#strides),*], #int_root)
    }
}

/// `::strideweave::__private::shape(&[profile…], &[extents…], int_root)`.
pub fn shape(c: &Checked) -> TokenStream {
    let profile = profile(&c.profile);
    let extents = numbers(&c.extents);
    let int_root = c.int_root;
    quote! {
        ::strideweave::__private::shape(&[#(#profile),*], &[#(#extents),*], #int_root)
    }
}

/// The errors, then a placeholder `Layout`, so that the caller's code still type-checks and
/// the user sees only our messages.
pub fn layout_error(e: &syn::Error) -> TokenStream {
    let errors = e.to_compile_error();
    quote! {
        { #errors ::strideweave::__private::layout(&[], &[], &[], false) }
    }
}

/// The errors, then a placeholder `Shape`.
pub fn shape_error(e: &syn::Error) -> TokenStream {
    let errors = e.to_compile_error();
    quote! {
        { #errors ::strideweave::__private::shape(&[], &[], false) }
    }
}

/// The type `shape_t!` names: `Leaf<N>` for an integer shape, tuples of mode types
/// otherwise (`(Leaf<2>, (Leaf<3>, Leaf<4>))`; a one-mode tuple is `(Leaf<8>,)`).
/// `runtime` holds the depth-first numbers of the leaves written `_`: each is `Dyn`.
pub fn shape_type(c: &Checked, runtime: &[usize]) -> TokenStream {
    let leaf = |i: usize, e: i64| {
        if runtime.contains(&i) {
            return quote!(::strideweave::Dyn);
        }
        let lit = Literal::i64_unsuffixed(e);
        quote!(::strideweave::Leaf<#lit>)
    };
    if c.int_root {
        return leaf(0, c.extents[0]);
    }
    // A stack of open tuples, each the types of its modes so far.
    let mut stack: Vec<Vec<TokenStream>> = vec![Vec::new()];
    let mut extents = c.extents.iter().enumerate();
    for t in &c.profile {
        match t {
            Profile::Leaf => {
                // unreachable from user input: validate.rs checked the literal: its profile has one extent per leaf.
                let (i, &e) = extents.next().expect("one extent per leaf");
                // unreachable from user input: the stack starts with the root level and a Pop never removes it (the profile is balanced).
                stack.last_mut().expect("root").push(leaf(i, e));
            }
            Profile::Push => stack.push(Vec::new()),
            Profile::Pop => {
                // unreachable from user input: validate.rs checked the literal: every Pop closes a Push.
                let modes = stack.pop().expect("balanced");
                // unreachable from user input: a Pop closes an inner level, so the root level is still below it.
                stack.last_mut().expect("root").push(tuple(&modes));
            }
        }
    }
    // unreachable from user input: the root level pushed first is never popped by a balanced profile.
    tuple(&stack.pop().expect("root"))
}

/// The type `layout_t!` names: `LayoutT<M>` where `M` is `Mode<extent, stride>` for an
/// integral layout and tuples of mode types otherwise (`LayoutT<(Mode<4, 1>, Mode<8, 4>)>`;
/// a one-mode tuple is `(Mode<8, 1>,)`, the empty layout `()`).
pub fn layout_type(c: &Checked) -> TokenStream {
    // unreachable from user input: validate::layout fills the strides (compact ones when none are written).
    let strides = c.strides.as_deref().expect("a checked layout has strides");
    let leaf = |i: usize| {
        let (e, d) = (
            Literal::i64_unsuffixed(c.extents[i]),
            Literal::i64_unsuffixed(strides[i]),
        );
        quote!(::strideweave::Mode<#e, #d>)
    };
    if c.int_root {
        let mode = leaf(0);
        return quote!(::strideweave::LayoutT<#mode>);
    }
    // A stack of open tuples, each the types of its modes so far.
    let mut stack: Vec<Vec<TokenStream>> = vec![Vec::new()];
    let mut next = 0;
    for t in &c.profile {
        match t {
            Profile::Leaf => {
                // unreachable from user input: the stack starts with the root level and a Pop never removes it (the profile is balanced).
                stack.last_mut().expect("root").push(leaf(next));
                next += 1;
            }
            Profile::Push => stack.push(Vec::new()),
            Profile::Pop => {
                // unreachable from user input: validate.rs checked the literal: every Pop closes a Push.
                let modes = stack.pop().expect("balanced");
                // unreachable from user input: a Pop closes an inner level, so the root level is still below it.
                stack.last_mut().expect("root").push(tuple(&modes));
            }
        }
    }
    // unreachable from user input: the root level pushed first is never popped by a balanced profile.
    let modes = tuple(&stack.pop().expect("root"));
    quote!(::strideweave::LayoutT<#modes>)
}

fn tuple(modes: &[TokenStream]) -> TokenStream {
    match modes {
        [one] => quote!((#one,)),
        _ => quote!((#(#modes),*)),
    }
}

/// The errors of `layout_t!` in type position, inside a placeholder static layout
/// (`LayoutT<(compile_error!(…),)>`, a tuple of empty layouts), so that the calls on it type
/// check and the user sees only our messages.
pub fn layout_type_error(e: &syn::Error) -> TokenStream {
    let errors: Vec<TokenStream> = e
        .clone()
        .into_iter()
        .map(|e| {
            let message = e.to_string();
            quote_spanned!(e.span()=> ::core::compile_error!(#message))
        })
        .collect();
    quote!(::strideweave::LayoutT<(#(#errors,)*)>)
}

/// The errors in type position (a tuple of `compile_error!` types, one per message).
pub fn shape_type_error(e: &syn::Error) -> TokenStream {
    let errors: Vec<TokenStream> = e
        .clone()
        .into_iter()
        .map(|e| {
            let message = e.to_string();
            quote_spanned!(e.span()=> ::core::compile_error!(#message))
        })
        .collect();
    match &errors[..] {
        [one] => one.clone(),
        _ => quote!((#(#errors),*)),
    }
}

/// A `rearrange!`/`repeat!` call whose pattern passed every pattern-only check: a block with
/// the pattern as constant data on a block-local type, its compile-time check, and the call
/// of the dispatch trait (see `strideweave::statics`).
pub fn pattern_call(
    call: &PatternCall,
    pattern: &strideweave_syntax::Pattern<std::ops::Range<usize>>,
) -> syn::Result<TokenStream> {
    // The tensor goes to the dispatch call as it is (and a call on something else is one
    // error, at the tensor): a helper that first checked it to be a tensor would be one more
    // generic instantiation, compiled once per call.
    let tensor = &call.tensor;
    pattern_block(call, pattern, TokenStream::new(), |witness| {
        if einops_groups(call, pattern) {
            quote_spanned!(tensor_span(call)=>
                ::strideweave::__private::GroupedView::<__StrideWeavePattern>::apply_grouped(#tensor, #witness)
            )
        } else {
            quote_spanned!(tensor_span(call)=>
                ::strideweave::__private::PatternView::<__StrideWeavePattern>::apply(#tensor, #witness)
            )
        }
    })
}

/// Whether an einops macro's pattern has a group on the right: its result's groups are then
/// made one mode at run time (`Result`, `strideweave::einops::Grouped`).
pub fn einops_groups(
    call: &PatternCall,
    pattern: &strideweave_syntax::Pattern<std::ops::Range<usize>>,
) -> bool {
    call.mac.is_einops()
        && (pattern.right.terms.iter()).any(|t| matches!(t, strideweave_syntax::Term::Group(..)))
}

/// The span of the tensor expression's first token.
pub fn tensor_span(call: &PatternCall) -> proc_macro2::Span {
    call.tensor
        .clone()
        .into_iter()
        .next()
        .map_or_else(proc_macro2::Span::call_site, |t| t.span())
}

/// The block of a pattern macro: the pattern type `__StrideWeavePattern` and its check,
/// `items` (more declarations of the caller), then `apply(witness)`, the dispatch call given
/// the check's witness.
pub fn pattern_block(
    call: &PatternCall,
    pattern: &strideweave_syntax::Pattern<std::ops::Range<usize>>,
    items: TokenStream,
    apply: impl FnOnce(&TokenStream) -> TokenStream,
) -> syn::Result<TokenStream> {
    let text = call.pattern.text();
    let col = |at: usize| text.get(..at).map_or(0, |s| s.chars().count()) as u32;
    let mut encoded = strideweave_syntax::encode_pattern(text, pattern).map_err(|m| {
        syn::Error::new(call.pattern.span_at(&(0..0)), format!("{}: {m}", call.mac))
    })?;
    if call.mac.is_einops() {
        encoded = encoded.mirror_groups();
    }
    // unreachable from user input: every name asked for was collected from the same checked pattern.
    let sym = |name: &str| encoded.symbol(name).expect("collected");
    let side = |s: &strideweave_syntax::EncodedSide| {
        let toks = Literal::byte_string(&s.toks);
        let strings = &s.strings;
        quote!(::strideweave::__private::Side { toks: #toks, strings: #strings })
    };
    let (left, right) = (side(&encoded.left), side(&encoded.right));
    let names = &encoded.names;
    let (l0, l1) = encoded.left_span;
    let p = quote!(::strideweave::__private);
    let keywords: Vec<TokenStream> = call
        .keywords
        .iter()
        .map(|k| {
            let id = sym(&k.name.to_string());
            let value = &k.value;
            let value = quote_spanned!(k.spans.last=> ::strideweave::__private::extent(#value));
            quote!(#p::Keyword { sym: #id, value: #value })
        })
        .collect();
    let op = match (call.kind, call.mac.is_einops()) {
        (strideweave_syntax::PatternKind::Repeat, false) => quote!(#p::Op::Repeat),
        (strideweave_syntax::PatternKind::Reduce, false) => quote!(#p::Op::Reduce),
        (_, false) => quote!(#p::Op::Rearrange),
        (strideweave_syntax::PatternKind::Repeat, true) => quote!(#p::Op::EinopsRepeat),
        (strideweave_syntax::PatternKind::Reduce, true) => quote!(#p::Op::EinopsReduce),
        (_, true) => quote!(#p::Op::EinopsRearrange),
    };
    let at = call.pattern.span_at(&pattern.left.span);
    // The token form checks term by term, each check spanned at its term, so that a shape
    // mistake is reported at the exact term; the last check catches the rest.
    // A keyword given as a constant is checked first, alone and spanned at the constant (a
    // literal was checked by the macro): `h = H` with `H = 0` is one error, at `H`.
    let mut term_checks: Vec<TokenStream> = call
        .keywords
        .iter()
        .enumerate()
        .filter(|(_, k)| k.literal.is_none())
        .map(|(i, k)| {
            quote_spanned!(k.spans.last=> ::strideweave::__private::check_keyword::<S, Self>(#i);)
        })
        .collect();
    let mut seen = Vec::new();
    for side in [&pattern.left, &pattern.right] {
        let mut ranges = Vec::new();
        term_ranges(&side.terms, &mut ranges);
        for r in ranges {
            let c = col(r.start);
            if let Some(span) = call.pattern.term_span(&r)
                && !seen.contains(&c)
            {
                seen.push(c);
                term_checks.push(
                    quote_spanned!(span=> ::strideweave::__private::check_at::<S, Self>(#c);),
                );
            }
        }
    }
    let last = quote_spanned!(at=> ::strideweave::__private::check::<S, Self>());
    let check = if term_checks.is_empty() {
        last
    } else {
        quote!({ #(#term_checks)* #last })
    };
    // With a shape written after the tensor, the check is also an item-level constant, which
    // `cargo check` (and so rust-analyzer) evaluates; the dispatch call then requires the
    // tensor to have that shape.
    let (witness, check_item) = match &call.shape {
        Some(shape) => (
            quote_spanned!(at=> <__StrideWeavePattern as ::strideweave::__private::Check<#shape>>::CHECK),
            quote_spanned!(at=> const _: ::strideweave::__private::Witness<#shape> =
                <__StrideWeavePattern as ::strideweave::__private::Check<#shape>>::CHECK;),
        ),
        None => (
            quote_spanned!(at=> <__StrideWeavePattern as ::strideweave::__private::Check<_>>::CHECK),
            TokenStream::new(),
        ),
    };
    let apply = apply(&witness);
    Ok(quote! {
        {
            {
                struct __StrideWeavePattern;
                impl<S: #p::ShapeInfo> #p::Check<S> for __StrideWeavePattern {
                    const PATTERN: #p::PatternCode = #p::PatternCode {
                        op: #op,
                        text: #text,
                        left: #left,
                        right: #right,
                        left_span: (#l0, #l1),
                        names: &[#(#names),*],
                        keywords: &[#(#keywords),*],
                    };
                    const CHECK: #p::Witness<S> = #check;
                }
                #check_item
                #items
                #apply
            }
        }
    })
}

fn term_ranges(terms: &[Term<std::ops::Range<usize>>], out: &mut Vec<std::ops::Range<usize>>) {
    for t in terms {
        out.push(t.span().clone());
        if let Term::Group(m, _) = t {
            term_ranges(m, out);
        }
    }
}

/// The errors, then a placeholder of the right type for the tensor given (its shape marked
/// as the result of an error, so that later checks stay silent).
pub fn pattern_error(e: &syn::Error, tensor: Option<&TokenStream>) -> TokenStream {
    let errors = e.to_compile_error();
    match tensor {
        Some(t) => quote! {
            { #errors ::strideweave::__private::poisoned(#t) }
        },
        None => quote! {
            { #errors ::strideweave::__private::poisoned(::strideweave::__private::RuntimeShape) }
        },
    }
}

/// `s!`: `::strideweave::__private::keys([Key…])`, an array with one `Key` per key; a literal
/// is written as an `i64` literal, any other expression goes through `key_bound`, whose
/// trait bound names the mistake when it is not an integer.
pub fn keys(ast: &crate::ast::KeysAst) -> TokenStream {
    use crate::ast::{Bound, KeyAst};
    let key = quote!(::strideweave::Key);
    let value = |b: &Bound| match (b.literal, b.suffixed) {
        (Some(v), false) => {
            let lit = numbers(&[v]);
            quote!(#(#lit)*)
        }
        _ => {
            let e = &b.expr;
            quote_spanned!(b.spans.first=> ::strideweave::__private::key_bound(#e))
        }
    };
    let option = |b: &Option<Bound>| match b {
        Some(b) => {
            let v = value(b);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let items: Vec<TokenStream> = ast
        .keys
        .iter()
        .map(|k| match k {
            KeyAst::Int(b) => {
                let v = value(b);
                quote!(#key::Int(#v))
            }
            KeyAst::Slice {
                start, stop, step, ..
            } => {
                let (start, stop, step) = (option(start), option(stop), option(step));
                quote!(#key::Slice { start: #start, stop: #stop, step: #step })
            }
        })
        .collect();
    quote!(::strideweave::__private::keys([#(#items),*]))
}

/// The errors, then `n` whole-mode keys (an array of the length written), so that the
/// caller's code still type-checks.
pub fn keys_error(e: &syn::Error, n: usize) -> TokenStream {
    let errors = e.to_compile_error();
    quote! {
        {
            #errors
            ::strideweave::__private::keys([::strideweave::Key::Slice {
                start: ::core::option::Option::None,
                stop: ::core::option::Option::None,
                step: ::core::option::Option::None,
            }; #n])
        }
    }
}

fn profile(p: &[Profile]) -> Vec<TokenStream> {
    p.iter()
        .map(|t| match t {
            Profile::Leaf => quote!(::strideweave::ProfileToken::Leaf),
            Profile::Push => quote!(::strideweave::ProfileToken::Push),
            Profile::Pop => quote!(::strideweave::ProfileToken::Pop),
        })
        .collect()
}

/// `i64`-suffixed literals; `i64::MIN` as a path, since its literal has no positive twin.
fn numbers(v: &[i64]) -> Vec<TokenStream> {
    v.iter()
        .map(|&n| {
            if n == i64::MIN {
                quote!(::core::primitive::i64::MIN)
            } else {
                let lit = Literal::i64_suffixed(n);
                quote!(#lit)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expansion_is_one_call_with_literals() {
        let c = Checked {
            profile: vec![Profile::Leaf, Profile::Push, Profile::Leaf, Profile::Pop],
            extents: vec![2, 3],
            strides: Some(vec![-1, i64::MIN]),
            int_root: false,
        };
        let s = layout(&c).to_string();
        assert!(
            s.starts_with(":: strideweave :: __private :: layout ("),
            "{s}"
        );
        assert!(s.contains("2i64 , 3i64"), "{s}");
        assert!(
            s.contains("- 1i64 , :: core :: primitive :: i64 :: MIN"),
            "{s}"
        );
        assert!(s.ends_with("false)"), "{s}");
    }
}
