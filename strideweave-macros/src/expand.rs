//! Checked values → a call of `::strideweave::__private`, with every number a literal, so the
//! expansion parses and checks nothing at run time.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::ast::{Checked, Profile};

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
