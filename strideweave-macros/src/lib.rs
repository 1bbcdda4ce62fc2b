//! Compile-time checked macros of StrideWeave: [`layout!`](macro@layout),
//! [`layout_t!`](macro@layout_t),
//! [`shape!`](macro@shape), [`shape_t!`](macro@shape_t), [`rearrange!`](macro@rearrange),
//! [`repeat!`](macro@repeat), [`reduce!`](macro@reduce), [`einsum!`](macro@einsum) and
//! [`s!`](macro@s). Use them through the `strideweave` crate, which re-exports them.
//!
//! Each macro is a pipeline: `parse` the tokens into a span-carrying tree (`ast`),
//! `validate` it (every mistake reported once, at the offending token), then `expand` it
//! into a call of `::strideweave::__private` whose arguments are literals — nothing is parsed
//! or checked at run time. A mistake expands to `compile_error!` plus a placeholder value of
//! the right type, so one mistake gives one message and no type errors after it.
//!
//! The string form is read by `strideweave_syntax`, the same parser as the runtime's
//! `FromStr`, and both forms are checked by its rules, so a mistake reads the same from
//! `layout!(…)`, `layout!("…")` and `"…".parse::<Layout>()`. String-form messages quote the
//! string with carets under the offending part, because a span cannot point inside a string
//! literal on stable Rust.
#![deny(missing_docs)]

use proc_macro::TokenStream;

use ast::{MacroKind, Spans};

mod ast;
mod einsum;
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
    let mac = MacroKind::Layout;
    let result = parse::layout(input.into(), mac).and_then(|ast| match &ast {
        ast::LayoutInput::Tokens(ast) => {
            validate::layout(ast).map_err(|mistakes| Spans::errors(mac, &mistakes))
        }
        ast::LayoutInput::Text(text, ast) => {
            validate::layout(ast).map_err(|mistakes| text.errors(mac, &mistakes))
        }
    });
    match result {
        Ok(checked) => expand::layout(&checked),
        Err(e) => expand::layout_error(&e),
    }
    .into()
}

/// The type of a static layout, a layout the compiler knows: the same input as
/// [`layout!`](macro@layout), in type position, with the same compile errors (each starting
/// `layout_t!: `).
///
/// `layout_t!((4, 8) : (1, 4))` is `strideweave::LayoutT<(Mode<4, 1>, Mode<8, 4>)>`: a
/// `Mode<EXTENT, STRIDE>` per leaf, tuples as written, `layout_t!(8 : 1)` the integral
/// `LayoutT<Mode<8, 1>>`; `layout_t!((4, 8))` gets compact strides and so names the same
/// type as `layout_t!((4, 8) : (1, 4))`; `layout_t!("(4,8):(1,4)")` reads the string form.
/// The same literal written twice names the same type. Its index math and CuTe's algebra
/// on it are `const fn`s (see `strideweave::LayoutT`, `strideweave::Compose`, …).
///
/// ```rust
/// use strideweave::{LayoutT, Mode, layout, layout_t};
///
/// type A = layout_t!((4, 8) : (1, 4));
/// const X: i64 = A::index_of(9);
/// assert_eq!(X, 9);
/// let _: LayoutT<(Mode<4, 1>, Mode<8, 4>)> = <layout_t!((4, 8))>::default();
/// let _: A = <layout_t!("(4,8):(1,4)")>::default();
/// assert_eq!(<layout_t!((2, (3, 4)) : (-1, (2, 6)))>::to_layout(), layout!((2, (3, 4)) : (-1, (2, 6))));
/// ```
///
/// ```compile_fail
/// // error: layout_t!: extent 0 at mode 1.0 must be at least 1
/// type L = strideweave::layout_t!((2, (0, 4)) : (1, (2, 6)));
/// ```
#[proc_macro]
pub fn layout_t(input: TokenStream) -> TokenStream {
    let mac = MacroKind::LayoutT;
    let result = parse::layout(input.into(), mac).and_then(|ast| match &ast {
        ast::LayoutInput::Tokens(ast) => {
            validate::layout(ast).map_err(|mistakes| Spans::errors(mac, &mistakes))
        }
        ast::LayoutInput::Text(text, ast) => {
            validate::layout(ast).map_err(|mistakes| text.errors(mac, &mistakes))
        }
    });
    match result {
        Ok(checked) => expand::layout_type(&checked),
        Err(e) => expand::layout_type_error(&e),
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
    match checked_shape(input, MacroKind::Shape) {
        Ok(checked) => expand::shape(&checked),
        Err(e) => expand::shape_error(&e),
    }
    .into()
}

/// The type of a static shape, for `StaticTensor<T, S>`: the same input as
/// [`shape!`](macro@shape), in type position.
///
/// `shape_t!(2, (3, 4))` is `(Leaf<2>, (Leaf<3>, Leaf<4>))`, `shape_t!(8)` is `Leaf<8>` (the
/// integer shape), `shape_t!(8,)` the one-mode tuple `(Leaf<8>,)`, `shape_t!()` is `()`;
/// `shape_t!("(2,(3,4))")` reads the string form. Compile errors: as `shape!`.
///
/// In the token form, `_` is an extent known only at run time (`Dyn`): `shape_t!(_, 512)`
/// is `(Dyn, Leaf<512>)`, nested too (`shape_t!((_, 4), 8)`). Every check that needs only
/// the static extents still runs at compile time; the macros then return a `Result` (see
/// `strideweave::Extents`), and the constructors take the run-time extents (`zeros_with`).
///
/// ```rust
/// use strideweave::{Dyn, Leaf, StaticShape, StaticTensor, shape, shape_t};
///
/// type Image = shape_t!(2, (3, 4));
/// assert_eq!(Image::SHAPE.to_shape(), shape!(2, (3, 4)));
/// let _: (Leaf<2>, (Leaf<3>, Leaf<4>)) = <Image as Default>::default();
/// let t = StaticTensor::<f32, shape_t!("(2,3)")>::zeros();
/// assert_eq!(t.shape(), &shape!(2, 3));
///
/// type Batch = shape_t!(_, (3, 4));
/// let _: (Dyn, (Leaf<3>, Leaf<4>)) = <Batch as Default>::default();
/// assert_eq!(Batch::SHAPE.to_string(), "(_,(3,4))");
/// let b = StaticTensor::<f32, Batch>::zeros_with(&[5]).unwrap();
/// assert_eq!(b.shape(), &shape!(5, (3, 4)));
/// ```
///
/// ```compile_fail
/// // error: shape_t!: extent 0 at mode 1 must be at least 1
/// type S = strideweave::shape_t!(2, 0);
/// ```
#[proc_macro]
pub fn shape_t(input: TokenStream) -> TokenStream {
    let (input, runtime) = parse::runtime_extents(input.into());
    match checked_shape(input.into(), MacroKind::ShapeT) {
        Ok(checked) => expand::shape_type(&checked, &runtime),
        Err(e) => expand::shape_type_error(&e),
    }
    .into()
}

/// Rearranges a tensor by a pattern, checked at compile time:
/// `rearrange!(t, "pattern", name = extent, …)`.
///
/// **The reading.** Groups are read first member fastest (StrideWeave's first-mode-fastest
/// order): `(h w)` splits a mode with `h` fastest, and a group on the right builds one
/// *nested* mode (`"b h w -> b (h w)"` gives the shape `(b, (h, w))`). einops reads groups
/// the other way (the last member fastest, a right-side group one flat mode): for einops'
/// reading, pasting einops patterns as they are, use `strideweave::einops::rearrange!`
/// (and `strideweave::einops`).
///
/// `t` is a `Tensor`, a `StaticTensor`, or a reference to one. The pattern is parsed and
/// checked at compile time by the grammar the runtime's `Tensor::rearrange` uses: every
/// mistake that needs no shape (an unknown character, a number other than `1`, unbalanced
/// parentheses, an unknown identifier, a duplicate symbol, a misplaced `...`, a keyword that
/// names no symbol or is not at least 1, …) is a compile error for any tensor, quoting the
/// pattern with a caret under the offending term. Keyword extents are integer literals or
/// `i64` constants (`h = 4`, `h = H` with `const H: i64 = 4`), `i64` as in
/// `Tensor::rearrange`'s sizes; a constant below 1 is a compile error at the constant, and a
/// `let` variable is not a constant.
///
/// * For a `StaticTensor<T, S>` the compiler also checks the rank, each group's arity, each
///   split (divisibility, at most one unknown extent), each keyword assertion, `1` on the
///   left and omitted symbols against `S`, and reports a mistake at this line. The call
///   returns `StaticTensor<T, Rearranged<S, _>>`, infallibly, when every extent of `S` is
///   static; when `S` has a `_` (an extent known only at run time, `shape_t!(_, 512)`), every
///   check that needs only the pattern and the static extents still runs at compile time, the
///   rest (a static keyword splitting a `_`) at run time, and the call returns
///   `Result<StaticTensor<T, Rearranged<S, _>>>` whose result type keeps every extent that
///   stays static. **The rule for every macro: it returns `Result` exactly when some check or
///   some work can fail at run time** — a `Tensor` operand, a `_` in an operand's static
///   shape, and the macros that compute new values (`reduce!`, `einsum!`), always.
///   These checks run when the code is built (`cargo build`, `cargo test`), not under
///   `cargo check` — unless the tensor's static shape is written after it,
///   `rearrange!(t: shape_t!(12, 5), …)`: the check is then also an item-level constant,
///   which `cargo check` (and rust-analyzer) evaluate. The shape must be the tensor's shape
///   type (a result of `rearrange!` is a `Rearranged<…>`: `cast` it first).
/// * For a `Tensor` it returns `Result<Tensor>` and checks the same rules at run time,
///   with the same message text; nothing is parsed at run time.
///
/// The result is a zero-copy view. The pattern may also be written as tokens,
/// `rearrange!(t, (h w) c -> h w c, h = 4)`.
///
/// ```rust
/// use strideweave::{StaticTensor, Tensor, rearrange, shape, shape_t};
///
/// let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
/// let v = rearrange!(&t, "(h w) c -> c h w", h = 4);
/// assert_eq!(v.layout().to_string(), "(5,4,3):(12,1,4)");
/// let back = rearrange!(v, "c h w -> (h w) c"); // chained: still checked
/// assert_eq!(back.shape(), &shape!((4, 3), 5));
/// let w = rearrange!(&t: shape_t!(12, 5), "(h w) c -> w h c", h = 4); // seen by `cargo check`
/// assert_eq!(w.shape(), &shape!(3, 4, 5));
///
/// let d = Tensor::arange::<f32>(&shape!(10, 4));
/// let err = rearrange!(&d, "(h w) c -> h w c", h = 3).unwrap_err();
/// assert!(err.to_string().starts_with("rearrange!: h = 3 does not divide extent 10 of mode 0"));
/// ```
///
/// ```compile_fail
/// // error: rearrange!: unknown identifier `x` on the right, term 2: …
/// let t = strideweave::Tensor::arange::<f32>(&strideweave::shape!(2, 3));
/// let _ = strideweave::rearrange!(&t, "a b -> b a x");
/// ```
#[proc_macro]
pub fn rearrange(input: TokenStream) -> TokenStream {
    pattern_macro(
        input,
        MacroKind::Rearrange,
        strideweave_syntax::PatternKind::Rearrange,
    )
}

/// einops' `repeat` as a zero-copy view, checked at compile time like
/// [`rearrange!`](macro@rearrange): a right symbol absent on the left is a new mode of the
/// keyword extent with stride 0, at top level or inside a group (`h -> (h r)`).
///
/// ```rust
/// use strideweave::{StaticTensor, repeat, shape_t};
///
/// let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
/// let r = repeat!(&t, "h w -> h (w r) c", r = 2, c = 4);
/// assert_eq!(r.layout().to_string(), "(2,(3,2),4):(1,(2,0),0)");
/// assert_eq!(r.to_vec().unwrap()[..8], [0, 1, 2, 3, 4, 5, 0, 1]);
/// ```
///
/// ```compile_fail
/// // error: repeat!: new symbol `c` on the right, term 2 needs an extent: …
/// let t = strideweave::Tensor::arange::<f32>(&strideweave::shape!(2, 3));
/// let _ = strideweave::repeat!(&t, "h w -> h w c");
/// ```
#[proc_macro]
pub fn repeat(input: TokenStream) -> TokenStream {
    pattern_macro(
        input,
        MacroKind::Repeat,
        strideweave_syntax::PatternKind::Repeat,
    )
}

/// Einstein summation over one or two tensors, checked at compile time:
/// `einsum!(a, b, "i k, k j -> i j")`, `einsum!(a, "i j -> j i")`, each with optional
/// keyword extents `name = extent` (as in [`rearrange!`](macro@rearrange): integer literals
/// or `i64` constants).
///
/// The operands are `Tensor`s, `StaticTensor`s or references to them; the pattern is a string
/// in the grammar of `Tensor::einsum` (the rearrangement grammar, inputs separated by a
/// comma): symbols absent from the output are summed, a symbol of both inputs must have one
/// shape in both, groups split and build modes, `1` inserts an extent-one mode.
///
/// * Every mistake that needs no shape — the grammar's (an unknown identifier, a duplicate
///   symbol, three inputs, `...` on one side only, …), a pattern naming more or fewer inputs
///   than tensors are given, a keyword naming no symbol, given twice or below 1 — is a
///   compile error at the pattern (or the keyword), quoting the pattern with a caret.
/// * When every operand is a `StaticTensor<T, _>`, the compiler also checks each input's
///   shape against its side (rank, group splits, keywords) and that every symbol the inputs
///   share has one shape in both (one message naming both shapes and the symbol), at this
///   line; the result is `Result<StaticTensor<T, Einsummed<A, B, _>>>` (`B` is `()` for one
///   input) — `Result` because run-time failures (released storage, several subtensors)
///   remain. These checks run under `cargo build`, not `cargo check`. `...` is refused for
///   static operands (a compile error pointing to the dynamic form).
/// * With any dynamic operand the result is `Result<Tensor>`, and the shape checks happen at
///   run time with the same rules; errors start `einsum!: `.
///
/// Either way the run-time work is `Tensor::einsum_with`'s (the same values, dtype rules and
/// gradients): the checked pattern text is parsed once more at run time, as
/// `Tensor::einsum` does; only the static check is free at run time.
///
/// ```rust
/// use strideweave::{StaticTensor, Tensor, einsum, shape, shape_t};
///
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
/// let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
/// let c = einsum!(&a, &b, "i k, k j -> i j").unwrap(); // StaticTensor<f32, Einsummed<…>>
/// assert_eq!(c.shape(), &shape!(2, 4));
/// let c: StaticTensor<f32, shape_t!(2, 4)> = c.cast();
/// assert_eq!(c.to_vec().unwrap(), a.matmul(&b).unwrap().to_vec().unwrap());
/// let t = einsum!(&a, "i j -> j i").unwrap();
/// assert_eq!(t.shape(), &shape!(3, 2));
/// // A split by keyword: (h w) with h = 2 on a mode of extent 6 (h runs fastest).
/// let x = StaticTensor::<f32, shape_t!(6, 3)>::arange();
/// let s = einsum!(&x, "(h w) k -> h", h = 2).unwrap();
/// assert_eq!(s.to_vec().unwrap(), [72.0, 81.0]);
///
/// // Dynamic operands: checked at run time, errors start `einsum!: `.
/// let d = Tensor::arange::<f32>(&shape!(4, 4));
/// let err = einsum!(&d, &a, "i k, k j -> i j").unwrap_err();
/// assert_eq!(err.to_string(), "einsum!: symbol `k` has extent 4 in input 0 and 2 in input 1");
/// ```
///
/// ```compile_fail
/// // error: einsum!: the pattern names 2 inputs but 1 tensor is given: …
/// let t = strideweave::Tensor::arange::<f32>(&strideweave::shape!(2, 3));
/// let _ = strideweave::einsum!(&t, "i k, k j -> i j");
/// ```
#[proc_macro]
pub fn einsum(input: TokenStream) -> TokenStream {
    einsum::einsum(input.into(), MacroKind::Einsum).into()
}

/// einops' `reduce`, checked at compile time like [`rearrange!`](macro@rearrange):
/// `reduce!(t, "pattern", reduction, name = extent, …)`.
///
/// The left-side symbols the right side omits are folded by `reduction`, one of einops'
/// names `sum`, `mean`, `max`, `min`, `prod`, `logsumexp` (or a path to a variant,
/// `Reduction::Mean`); the kept ones are arranged as the right side says (groups, `1`, `...`,
/// split leaves with keyword extents), and an empty right side (`"a b ->"`) folds everything
/// into a rank-0 tensor. Values, dtype rules, NaN and gradients are those of
/// `Tensor::reduce` (see `strideweave::Reduction`); the result is a fresh compact tensor.
///
/// * Every pattern-only mistake is a compile error quoting the pattern with a caret, a
///   missing or unknown reduction one at the reduction listing the five names, exactly
///   as `rearrange!`'s rules (keyword extents are literals or `i64` constants).
/// * For a `StaticTensor<T, S>` the compiler also checks the rank, splits, keyword
///   assertions and `1`s against `S` at this line, and the result is
///   `Result<StaticTensor<T, Reduced<S, _>>>`, whose static shape is the kept symbols'.
///   A reduction that `T` does not have (`mean` of integers, `sum` of bools, `max`/`min` of
///   complex numbers) is a compile error at the reduction. What remains an `Error` at run
///   time is what no type says (a released storage, a result too large to allocate).
///   `reduce!(t: shape_t!(…), …)` also makes the shape check visible to `cargo check`.
/// * For a `Tensor` it returns `Result<Tensor>` and checks the same rules at run time, with
///   the same message text (starting `reduce!: `, ending with the tensor's shape); nothing
///   is parsed at run time.
///
/// ```rust
/// use strideweave::{StaticTensor, Tensor, reduce, shape, shape_t};
///
/// // b c h w (first mode fastest): the mean over h and w.
/// let t = StaticTensor::<f32, shape_t!(2, 3, 2, 2)>::arange();
/// let m = reduce!(&t, "b c h w -> b c", mean).unwrap();
/// assert_eq!(m.shape(), &shape!(2, 3));
/// assert_eq!(m.to_vec().unwrap(), [9.0, 10.0, 11.0, 12.0, 13.0, 14.0]);
///
/// // Pooling by two along the first mode, on a dynamic tensor; the token form.
/// let d = Tensor::arange::<i32>(&shape!(4, 2));
/// let p = reduce!(&d, (h2 h) w -> h w, max, h2 = 2).unwrap();
/// assert_eq!(p.to_vec::<i32>().unwrap(), [1, 3, 5, 7]);
/// assert_eq!(reduce!(&d, "h w ->", sum).unwrap().item::<i32>().unwrap(), 28);
///
/// // A shape mistake on a dynamic tensor is an error naming its shape.
/// let err = reduce!(&d, "(h h2) w -> h w", sum, h2 = 3).unwrap_err();
/// assert!(err.to_string().starts_with("reduce!: h2 = 3 does not divide extent 4 of mode 0"), "{err}");
/// ```
///
/// ```compile_fail
/// // error: reduce!: unknown reduction identifier `avg`; write one of `sum`, `mean`, …
/// let t = strideweave::Tensor::arange::<f32>(&strideweave::shape!(2, 3));
/// let _ = strideweave::reduce!(&t, "a b -> a", avg);
/// ```
///
/// ```compile_fail
/// // error: reduce!: i32 tensors have no `mean`: the mean of integers is not an integer, …
/// let t = strideweave::StaticTensor::<i32, strideweave::shape_t!(2, 3)>::arange();
/// let _ = strideweave::reduce!(&t, "a b -> a", mean);
/// ```
#[proc_macro]
pub fn reduce(input: TokenStream) -> TokenStream {
    reduce_macro(input, MacroKind::Reduce)
}

/// `reduce!` and `einops::reduce!`.
fn reduce_macro(input: TokenStream, mac: MacroKind) -> TokenStream {
    let r = match parse::reduce_call(input.into(), mac) {
        Ok(r) => r,
        Err((e, tensor)) => return expand::reduce_error(&e, tensor.as_ref()).into(),
    };
    match validate::pattern(&r.call).and_then(|pattern| expand::reduce_call(&r, &pattern)) {
        Ok(expansion) => expansion,
        Err(e) => expand::reduce_error(&e, Some(&r.call.tensor)),
    }
    .into()
}

/// einops' `rearrange`, checked at compile time: `strideweave::einops::rearrange!`, with
/// [`rearrange!`](macro@rearrange)'s arguments (`t`, the pattern as a string or tokens,
/// keyword extents, `t: shape_t!(..)`), checks and messages (starting
/// `einops::rearrange!: `), reading each group as einops does: the last member fastest, a
/// right-side group one flat mode (see `strideweave::einops`).
///
/// It returns `Result` when its tensor is a `Tensor` or its pattern has a group on the
/// right; on a `StaticTensor` without a group on the right it returns what `rearrange!`
/// returns for the mirrored pattern.
///
/// ```rust
/// use strideweave::{StaticTensor, Tensor, einops, shape, shape_t};
///
/// // numpy's x = np.arange(24).reshape(2, 12), row-major.
/// let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i32>>(), &shape!(2, 12)).unwrap();
/// let y = einops::rearrange!(&x, "b (h w) -> b h w", h = 3).unwrap();
/// assert_eq!(y.get(&[1, 2, 1].into()).unwrap().to_f64(), 21.0);
///
/// let s = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
/// let v = einops::rearrange!(&s, "a b c -> c b a"); // no group on the right: a StaticTensor
/// assert_eq!(v.shape(), &shape!(4, 3, 2));
/// let g = einops::rearrange!(&s, "a b c -> (b a) c").unwrap(); // a group: Result
/// assert_eq!(g.shape(), &shape!(6, 4));
/// ```
///
/// ```compile_fail
/// // error: einops::rearrange!: unknown identifier `x` on the right, term 2: …
/// let t = strideweave::Tensor::arange::<f32>(&strideweave::shape!(2, 3));
/// let _ = strideweave::einops::rearrange!(&t, "a b -> b a x");
/// ```
#[proc_macro]
pub fn einops_rearrange(input: TokenStream) -> TokenStream {
    pattern_macro(
        input,
        MacroKind::EinopsRearrange,
        strideweave_syntax::PatternKind::Rearrange,
    )
}

/// einops' `repeat`, checked at compile time: `strideweave::einops::repeat!`, with
/// [`repeat!`](macro@repeat)'s arguments and checks, groups read as einops reads them (see
/// [`einops_rearrange!`](macro@einops_rearrange) and `strideweave::einops`).
///
/// ```rust
/// use strideweave::{Tensor, einops, shape};
/// let x = Tensor::from_vec_row_major(vec![1i32, 2, 3], &shape!(3)).unwrap();
/// let y = einops::repeat!(&x, "w -> h w", h = 2).unwrap();
/// assert_eq!(y.to_vec_row_major::<i32>().unwrap(), [1, 2, 3, 1, 2, 3]);
/// ```
#[proc_macro]
pub fn einops_repeat(input: TokenStream) -> TokenStream {
    pattern_macro(
        input,
        MacroKind::EinopsRepeat,
        strideweave_syntax::PatternKind::Repeat,
    )
}

/// einops' `reduce`, checked at compile time: `strideweave::einops::reduce!`, with
/// [`reduce!`](macro@reduce)'s arguments and checks (the reduction's too), groups read as
/// einops reads them; a right-side group is one flat mode of the fresh result.
///
/// ```rust
/// use strideweave::{StaticTensor, einops, shape, shape_t};
/// let t = StaticTensor::<f32, shape_t!(8)>::arange();
/// // (h h2): h2 fastest, as einops reads it.
/// let m = einops::reduce!(&t, "(h h2) -> h", mean, h2 = 2).unwrap();
/// assert_eq!(m.to_vec().unwrap(), [0.5, 2.5, 4.5, 6.5]);
/// ```
#[proc_macro]
pub fn einops_reduce(input: TokenStream) -> TokenStream {
    reduce_macro(input, MacroKind::EinopsReduce)
}

/// einops' reading of [`einsum!`](macro@einsum): `strideweave::einops::einsum!`, with its
/// arguments (the annotated form too) and all its compile-time checks, static shapes
/// included (messages starting `einops::einsum!: `); groups are read as einops reads them
/// and an output group is one flat mode of the fresh result. It returns a `Result` like
/// `einsum!`: `Result<StaticTensor<…>>` for static operands, `Result<Tensor>` otherwise.
///
/// ```rust
/// use strideweave::{StaticTensor, Tensor, einops, shape, shape_t};
/// let a = Tensor::from_vec_row_major((0..6).map(|v| v as f32).collect(), &shape!(2, 3)).unwrap();
/// let c = einops::einsum!(&a, &a, "i k, j k -> (i j)").unwrap();
/// assert_eq!(c.shape(), &shape!(4));
/// let x = StaticTensor::<f32, shape_t!(_, 8)>::arange_with(&[3]).unwrap();
/// let w = StaticTensor::<f32, shape_t!(8, 5)>::arange();
/// // `(h d)`: h slowest, as einops reads it; h = 3 would not build (3 does not divide 8).
/// let y = einops::einsum!(&x, &w, "b (h d), (h d) e -> b h e", h = 2).unwrap();
/// assert_eq!(y.shape(), &shape!(3, 2, 5));
/// ```
#[proc_macro]
pub fn einops_einsum(input: TokenStream) -> TokenStream {
    einsum::einsum(input.into(), MacroKind::EinopsEinsum).into()
}

/// Slice keys for `Tensor::slice` (and `Tensor::index`), Python-style, checked at compile
/// time:
/// `s![2, 1..9;2, .., ..5, 3.., ..;2, -3..]` is a `[Key; 7]` (an array, no allocation).
///
/// One key per top-level mode, separated by commas:
/// * an integer expression, `2`, `i`, `n - 1`: one coordinate (`Key::Int`); it removes the
///   mode. Integer keys are coordinates counted from 0 and are not wrapped, so a negative
///   literal is a compile error (a negative value at run time is `Tensor::slice`'s error);
/// * a range `start..stop`, either bound optional (`..`, `3..`, `..5`), with an optional
///   step after a semicolon, `1..9;2`, `..;2` (`Key::Slice`). As in Python the stop is
///   exclusive and a negative bound counts from the end of the mode (`-3..` keeps the last
///   three coordinates); the step must be at least 1 (reverse a mode with
///   `Tensor::reverse`). Inclusive ranges (`..=`) are a compile error that names the
///   exclusive stop to write instead.
///
/// Bounds and steps may be integer literals or any integer expressions (of any integer
/// type; a value beyond `i64` saturates and is then out of range); expressions are checked
/// by `Tensor::slice` at run time. Literals are checked here, so these are compile errors,
/// each at its key: a step below 1 (`1..9;0`, `..;-2`), a range that is empty on every mode
/// (`5..5`, `7..2`, `..0`, `-1..-3`: both bounds literal and of the same sign, an omitted
/// start counting as 0), and a width that is not a multiple of the step (`1..8;3`: a view's
/// extent is width / step, so `Tensor::slice` requires whole steps). The checks read
/// literal bounds as written: `0..8;3` is rejected although on a mode of extent 6 it would
/// clamp to `0..6;3`.
///
/// ```rust
/// use strideweave::{Key, Tensor, s, shape};
///
/// let t = Tensor::arange::<f32>(&shape!(5, 10));
/// let keys = s![2, 1..9;2];
/// assert_eq!(keys, [Key::Int(2), Key::slice(Some(1), Some(9), Some(2))]);
/// let v = t.slice(&keys).unwrap();
/// assert_eq!(v.to_vec::<f32>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
///
/// // Negative bounds count from the end; bounds may be expressions, checked at run time.
/// let last = 4;
/// let v = t.slice(&s![-2.., ..last]).unwrap();
/// assert_eq!(v.shape(), &shape!(2, 4));
/// assert_eq!(t.slice(&s![.., 0..last;3]).unwrap_err().to_string(),
///     "slice: slice 0:4:3 on mode 1 (extent 10): the interval width 4 is not a multiple of the step 3");
/// // Integers only: a rank-0 view of one element.
/// assert_eq!(t.slice(&s![4, 9]).unwrap().item::<f32>().unwrap(), 49.0);
/// ```
///
/// ```compile_fail
/// // error: s!: the slice `1..8;3` does not end on a step: its width 7 (from 1 to 8) is not a
/// //        multiple of the step 3; write `1..7;3`
/// let keys = strideweave::s![.., 1..8;3];
/// ```
#[proc_macro]
pub fn s(input: TokenStream) -> TokenStream {
    let result = parse::keys(input.into()).and_then(|ast| match validate::keys(&ast) {
        Ok(()) => Ok(ast),
        Err(problems) => Err((combine(problems.into_iter()), ast.keys.len())),
    });
    match result {
        Ok(ast) => expand::keys(&ast),
        Err((e, n)) => expand::keys_error(&e, n),
    }
    .into()
}

/// The input of `shape!` or `shape_t!`, parsed and checked.
fn checked_shape(input: TokenStream, mac: MacroKind) -> syn::Result<ast::Checked> {
    parse::shape(input.into(), mac).and_then(|ast| match &ast {
        ast::ShapeInput::Tokens(t) => {
            validate::shape(t).map_err(|mistakes| Spans::errors(mac, &mistakes))
        }
        ast::ShapeInput::Text(text, t) => {
            validate::shape(t).map_err(|mistakes| text.errors(mac, &mistakes))
        }
    })
}

fn pattern_macro(
    input: TokenStream,
    mac: MacroKind,
    kind: strideweave_syntax::PatternKind,
) -> TokenStream {
    let call = match parse::pattern_call(input.into(), mac, kind) {
        Ok(call) => call,
        Err((e, tensor)) => return expand::pattern_error(&e, tensor.as_ref()).into(),
    };
    match validate::pattern(&call).and_then(|pattern| expand::pattern_call(&call, &pattern)) {
        Ok(expansion) => expansion,
        Err(e) => expand::pattern_error(&e, Some(&call.tensor)),
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
        // unreachable from user input: validation returns Err only with at least one problem.
        .expect("validation reports at least one problem")
}
