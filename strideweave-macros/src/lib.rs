//! Compile-time checked macros of StrideWeave: [`layout!`](macro@layout) and
//! [`shape!`](macro@shape). Use them through the `strideweave` crate, which re-exports them.
//!
//! Each macro is a pipeline: `parse` the tokens into a span-carrying tree (`ast`),
//! `validate` it (every mistake reported once, at the offending token), then `expand` it
//! into a call of `::strideweave::__private` whose arguments are literals — nothing is parsed
//! or checked at run time. A mistake expands to `compile_error!` plus a placeholder value of
//! the right type, so one mistake gives one message and no type errors after it.
//!
//! The string form is read by `strideweave_syntax`, the same parser as the runtime's
//! `FromStr`; its messages quote the string with a caret under the offending character,
//! because a span cannot point inside a string literal on stable Rust.
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod ast;
mod expand;
mod parse;
mod validate;

/// A `strideweave::Layout` checked at compile time.
///
/// Forms:
/// * `layout!(shape : stride)` with integer tuples in parentheses, e.g.
///   `layout!((2, (3, 4)) : (1, (2, 6)))`, `layout!(8 : 1)`, `layout!(() : ())`; strides may
///   be negative, `layout!((4, 3) : (-1, 4))`;
/// * `layout!(shape)`: the shape with compact, first-mode-fastest strides;
/// * `layout!("…")`: a string in CuTe notation, `"(2,(3,4)):(1,(2,6))"`, or in the `Debug`
///   notation, `"Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))"` — exactly what
///   `str::parse::<Layout>` reads.
///
/// Compile errors: a stride that is not congruent with the shape, an extent below 1, a size
/// or reach (the smallest and largest index) that overflows `i64`, anything but integers
/// and parentheses, a missing `:`, trailing tokens, an empty input.
///
/// ```rust
/// use strideweave::{layout, Layout};
///
/// let l: Layout = layout!((2, (3, 4)) : (1, (2, 6)));
/// assert_eq!(l.to_string(), "(2,(3,4)):(1,(2,6))");
/// assert_eq!(layout!((2, (3, 4))), l); // compact strides
/// assert_eq!(layout!("Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))"), l);
/// assert_eq!(layout!(8 : 1).to_string(), "8:1");
/// assert_eq!(layout!((4, 3) : (-1, 4)).index_of(1).unwrap(), -1);
/// ```
///
/// ```compile_fail
/// // error: layout!: extent 0 at mode 1.0 must be at least 1
/// let l = strideweave::layout!((2, (0, 4)) : (1, (2, 6)));
/// ```
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    let result = parse::layout(input.into()).and_then(|ast| match &ast {
        ast::LayoutInput::Tokens(ast) => validate::layout(ast).map_err(|problems| {
            combine(
                problems
                    .iter()
                    .map(|p| p.position.error(format!("layout!: {p}"))),
            )
        }),
        ast::LayoutInput::Text(text, ast) => validate::layout(ast)
            .map_err(|problems| combine(problems.iter().map(|p| text.error("layout!", p)))),
    });
    match result {
        Ok(checked) => expand::layout(&checked),
        Err(e) => expand::layout_error(&e),
    }
    .into()
}

/// A `strideweave::Shape` checked at compile time.
///
/// Forms:
/// * `shape!(m0, m1, …)`: the comma-separated modes of the root tuple, each an integer or a
///   parenthesized tuple, e.g. `shape!(2, (3, 4))`; `shape!()` is the empty shape `()` and
///   `shape!(8,)` the one-mode tuple `(8)`;
/// * `shape!(n)`: the integer shape `n`;
/// * `shape!("…")`: a string, `"(2,(3,4))"` or `"Shape([2, [3, 4]])"`.
///
/// Compile errors: an extent below 1, a size that overflows `i64`, anything but integers and
/// parentheses.
///
/// ```rust
/// use strideweave::{shape, Shape};
///
/// let s: Shape = shape!(2, (3, 4));
/// assert_eq!(s.to_string(), "(2,(3,4))");
/// assert_eq!(shape!("Shape([2, [3, 4]])"), s);
/// assert_eq!(shape!(8).to_string(), "8");
/// assert_eq!(shape!().to_string(), "()");
/// ```
///
/// ```compile_fail
/// // error: shape!: extent 0 at mode 1 must be at least 1
/// let s = strideweave::shape!(2, 0);
/// ```
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    let result = parse::shape(input.into()).and_then(|ast| match &ast {
        ast::ShapeInput::Tokens(t) => validate::shape(t).map_err(|problems| {
            combine(
                problems
                    .iter()
                    .map(|p| p.position.error(format!("shape!: {p}"))),
            )
        }),
        ast::ShapeInput::Text(text, t) => validate::shape(t)
            .map_err(|problems| combine(problems.iter().map(|p| text.error("shape!", p)))),
    });
    match result {
        Ok(checked) => expand::shape(&checked),
        Err(e) => expand::shape_error(&e),
    }
    .into()
}

/// One error holding every message.
fn combine(errors: impl Iterator<Item = syn::Error>) -> syn::Error {
    errors
        .reduce(|mut all, e| {
            all.combine(e);
            all
        })
        .expect("validation reports at least one problem")
}
