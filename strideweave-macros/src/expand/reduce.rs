//! `reduce!`: `rearrange!`'s block (the pattern type and its check, spanned at the pattern)
//! plus a reduction type whose check is spanned at the reduction's name, and the call of
//! `ReduceView::reduce_by`.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::parse::ReduceCall;

/// The expansion of a `reduce!` call whose pattern passed every pattern-only check.
pub fn reduce_call(
    r: &ReduceCall,
    pattern: &strideweave_syntax::Pattern<std::ops::Range<usize>>,
) -> syn::Result<TokenStream> {
    let p = quote!(::strideweave::__private);
    // A path is named as written (its import is then used; it must be `strideweave`'s
    // `Reduction`), an einops name as `strideweave::Reduction`'s variant.
    let value = r.path.clone().unwrap_or_else(|| {
        let variant = Ident::new(r.variant, Span::call_site());
        quote!(::strideweave::Reduction::#variant)
    });
    let check = if r.call.mac.is_einops() {
        let name = r.call.mac.name();
        quote_spanned!(r.spans.first=>
            ::strideweave::__private::check_reduction_as::<T>(#name, #value)
        )
    } else {
        quote_spanned!(r.spans.first=>
            ::strideweave::__private::check_reduction::<T>(#value)
        )
    };
    let items = quote! {
        struct __StrideWeaveReduction;
        impl<T: #p::ElemInfo> #p::ReductionCheck<T> for __StrideWeaveReduction {
            const CHECK: #p::Chosen<T> = #check;
        }
    };
    let tensor = &r.call.tensor;
    let grouped = super::einops_groups(&r.call, pattern);
    super::pattern_block(&r.call, pattern, items, |witness| {
        if grouped {
            return quote_spanned!(super::tensor_span(&r.call)=>
                ::strideweave::__private::GroupedReduceView::<__StrideWeavePattern>::reduce_grouped(
                    #tensor,
                    #witness,
                    <__StrideWeaveReduction as ::strideweave::__private::ReductionCheck<_>>::CHECK,
                )
            );
        }
        quote_spanned!(super::tensor_span(&r.call)=>
            ::strideweave::__private::ReduceView::<__StrideWeavePattern>::reduce_by(
                #tensor,
                #witness,
                <__StrideWeaveReduction as ::strideweave::__private::ReductionCheck<_>>::CHECK,
            )
        )
    })
}

/// The errors, then a placeholder `Result` of the right type for the tensor given.
pub fn reduce_error(e: &syn::Error, tensor: Option<&TokenStream>) -> TokenStream {
    let errors = e.to_compile_error();
    match tensor {
        Some(t) => quote! {
            { #errors ::strideweave::__private::poisoned_reduce(#t) }
        },
        None => quote! {
            { #errors ::strideweave::__private::poisoned_reduce(::strideweave::__private::RuntimeShape) }
        },
    }
}
