//! Compile-time checked macros of StrideWeave. Use them through the `strideweave` crate.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Placeholder; replaced below.
#[proc_macro]
pub fn layout(_t: TokenStream) -> TokenStream {
    TokenStream::new()
}

/// Placeholder; replaced below.
#[proc_macro]
pub fn shape(_t: TokenStream) -> TokenStream {
    TokenStream::new()
}
