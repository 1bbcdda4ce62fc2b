//! # Coming from einops
//!
//! StrideWeave's patterns use einops' grammar — `"b (h w) c -> b h w c"`, with `...`, `1`,
//! nested groups and keyword extents — and two readings of it:
//!
//! 1. **einops' reading**, in [`strideweave::einops`](crate::einops): inside a group the
//!    *last* member varies fastest, as in numpy's row-major order, and a group on the right
//!    is one flat mode. Paste an einops pattern as it is, onto data held in numpy's order.
//! 2. **The first-mode-fastest reading**, [`Tensor::rearrange`](crate::Tensor::rearrange)
//!    and the crate-root macros: inside a group the *first* member varies fastest, as in
//!    every layout of this crate (CuTe's and Fortran's order), and a group on the right
//!    builds one nested mode.
//!
//! This guide walks through both with the same patterns. Start with the first if you are
//! porting einops code; the second is what the rest of the crate speaks.
//!
//! ## 1. einops' reading: paste the pattern
//!
//! A numpy array is row-major: [`Tensor::from_vec_row_major`](crate::Tensor::from_vec_row_major)
//! (or [`Tensor::read_npy`](crate::Tensor::read_npy) of a C-order file) gives a tensor with
//! numpy's shape and numpy's values at the same coordinates.
//! [`einops::rearrange`](fn@crate::einops::rearrange) then gives einops' numbers at einops'
//! coordinates, as a view:
//!
//! ```
//! use strideweave::{Tensor, einops, shape};
//! // x = np.arange(24).reshape(2, 6, 2): x[b, n, c] = 12·b + 2·n + c
//! let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(2, 6, 2))?;
//! let at = |t: &Tensor, c: &[i64]| t.get(&c.into()).map(|v| v.to_f64() as i64);
//!
//! // y = rearrange(x, "b (h w) c -> b h w c", h=2): the group splits with w fastest.
//! let y = einops::rearrange(&x, "b (h w) c -> b h w c", &[("h", 2)])?;
//! assert_eq!(y.shape(), &shape!(2, 2, 3, 2));
//! assert_eq!(at(&y, &[0, 1, 0, 0])?, at(&x, &[0, 3, 0])?);   // n = h·3 + w = 3
//! assert_eq!(at(&y, &[1, 1, 2, 1])?, 12 + 2 * 5 + 1);
//! assert_eq!(y.to_vec_row_major::<i64>()?, (0..24).collect::<Vec<_>>()); // as numpy's ravel
//!
//! // z = rearrange(x, "b n c -> b (n c)"): one flat mode, still a view.
//! let z = einops::rearrange(&x, "b n c -> b (n c)", &[])?;
//! assert_eq!(z.layout().to_string(), "(2,12):(12,1)");
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! Where einops copies — a group whose members' strides do not merge into one mode, such
//! as a transposed pair — StrideWeave does not copy silently: it is an error that names the
//! group and says to materialize first. Ask for the copy by name, in numpy's order
//! ([`relayout`](crate::Tensor::relayout) to row-major strides), and the group is a view:
//!
//! ```
//! use strideweave::{Layout, Tensor, einops, shape};
//! let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(2, 6, 2))?;
//! let err = einops::rearrange(&x, "b n c -> b (c n)", &[]).unwrap_err();
//! assert!(err.to_string().starts_with("einops::rearrange: the group `(c n)`"), "{err}");
//!
//! let t = einops::rearrange(&x, "b n c -> b c n", &[])?;     // a view: strides only
//! let t = t.relayout(&Layout::row_major(t.shape()))?;           // np.ascontiguousarray
//! let g = einops::rearrange(&t, "b c n -> b (c n)", &[])?;
//! assert_eq!(g.shape(), &shape!(2, 12));
//! assert_eq!(g.get(&[0, 7].into())?.to_f64(), 2.0 * 1.0 + 1.0); // c = 1, n = 1: x[0, 1, 1]
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! `repeat`, `reduce` and `einsum` read groups the same way; `reduce` and `einsum` make
//! fresh tensors, so a right-side group is always possible there:
//!
//! ```
//! use strideweave::{Reduction, Tensor, einops, shape};
//! let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(2, 6, 2))?;
//!
//! // repeat(v, "w -> h w", h=2): a new stride-0 mode, no copy.
//! let v = Tensor::from_vec_row_major(vec![1i64, 2, 3], &shape!(3))?;
//! let r = einops::repeat(&v, "w -> h w", &[("h", 2)])?;
//! assert_eq!(r.to_vec_row_major::<i64>()?, [1, 2, 3, 1, 2, 3]);
//!
//! // reduce(x, "b (h w) c -> b c", "sum", h=2): Σ_n 12·b + 2·n + c = 72·b + 6·c + 30
//! let s = einops::reduce(&x, "b (h w) c -> b c", Reduction::Sum, &[("h", 2)])?;
//! assert_eq!(s.to_vec_row_major::<i64>()?, [30, 36, 102, 108]);
//!
//! // einsum(x, x, "b n c, b n d -> (c d)"): each batch's 2×2 Gram matrix, summed, flattened.
//! let g = einops::einsum("b n c, b n d -> (c d)", &[&x, &x])?;
//! assert_eq!(g.shape(), &shape!(4));
//! let gram = |c: i64, d: i64| (0..2).flat_map(|b| (0..6).map(move |n| (b, n)))
//!     .map(|(b, n)| (12 * b + 2 * n + c) * (12 * b + 2 * n + d)).sum::<i64>();
//! assert_eq!(g.to_vec::<i64>()?, [gram(0, 0), gram(0, 1), gram(1, 0), gram(1, 1)]);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! The macros [`einops::rearrange!`](macro@crate::einops::rearrange),
//! [`einops::repeat!`](macro@crate::einops::repeat), [`einops::reduce!`](macro@crate::einops::reduce)
//! and [`einops::einsum!`](macro@crate::einops::einsum) check the pattern while the program is
//! built; on a [`StaticTensor`](crate::StaticTensor), whose shape is in its type, they check
//! it against the shape too. A `_` in the static shape is an extent known at run time: what
//! depends on it is checked then, and the macro returns a `Result`.
//!
//! ```
//! use strideweave::{StaticTensor, einops, shape, shape_t};
//! let x = StaticTensor::<f32, shape_t!(2, 6, 2)>::arange();
//! let y = einops::rearrange!(&x, "b (h w) c -> b h w c", h = 2); // checked when built
//! assert_eq!(y.shape(), &shape!(2, 2, 3, 2));
//! let batch = 5;
//! let x = StaticTensor::<f32, shape_t!(_, 6, 2)>::zeros_with(&[batch])?;
//! let y = einops::rearrange!(&x, "b (h w) c -> b h w c", h = 2)?;  // `h = 4` would not build
//! assert_eq!(y.shape(), &shape!(5, 2, 3, 2));
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## 2. The first-mode-fastest reading: the same pattern
//!
//! [`Tensor::rearrange`](crate::Tensor::rearrange), `repeat`, `reduce`, `einsum` and the
//! macros at the crate root ([`rearrange!`](crate::rearrange), …) read a group **first
//! member fastest**. On the same `x`, the same text splits `n` as `h + 2·w` instead of
//! `h·3 + w`:
//!
//! ```
//! use strideweave::{Tensor, einops, shape};
//! let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(2, 6, 2))?;
//! let at = |t: &Tensor, c: &[i64]| t.get(&c.into()).map(|v| v.to_f64() as i64);
//! let e = einops::rearrange(&x, "b (h w) c -> b h w c", &[("h", 2)])?;
//! let d = x.rearrange("b (h w) c -> b h w c", &[("h", 2)])?;
//! assert_eq!(at(&e, &[0, 1, 0, 0])?, at(&x, &[0, 3, 0])?);      // einops: n = h·3 + w
//! assert_eq!(at(&d, &[0, 1, 0, 0])?, at(&x, &[0, 1, 0])?);      // here:   n = h + 2·w
//! assert_eq!(at(&d, &[0, 0, 1, 0])?, at(&x, &[0, 2, 0])?);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! A group on the right builds one **nested** mode, `(c,n)`, rather than a flat one. A nested
//! mode has a stride per member, so the transposed group einops must copy is a view here:
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(2, 6, 2))?;
//! let g = x.rearrange("b n c -> b (c n)", &[])?;
//! assert_eq!(g.layout().to_string(), "(2,(2,6)):(12,(1,2))");   // no copy
//! // Its flat coordinate 7 is (c, n) = (1, 3), c fastest.
//! assert_eq!(g.get(&[0, 7].into())?.to_f64(), (2 * 3 + 1) as f64);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! This reading is the natural one for data laid out first mode fastest — what
//! [`Tensor::arange`](crate::Tensor::arange), [`Tensor::from_vec`](crate::Tensor::from_vec)
//! and CuTe-style code make. The two readings meet through one rule: *an einops pattern on
//! row-major data is the first-mode-fastest pattern with the terms reversed at every level
//! (the top level and inside each group), applied to the first-mode-fastest view of the same
//! buffer*, whose shape is numpy's reversed:
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let data: Vec<i64> = (0..24).collect();          // numpy's x, shape [2, 6, 2]
//! let f = Tensor::from_vec(data, &shape!(2, 6, 2))?; // the same buffer as (c, n, b)
//! // einops "b (h w) c -> b h w c"  →  every level reversed: "c (w h) b -> c w h b"
//! let y = f.rearrange("c (w h) b -> c w h b", &[("h", 2)])?;
//! assert_eq!(y.shape(), &shape!(2, 3, 2, 2));
//! // Read first mode fastest, it holds einops' result in numpy's order.
//! assert_eq!(y.to_vec::<i64>()?, (0..24).collect::<Vec<_>>());
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Which to use
//!
//! | you have | use |
//! | --- | --- |
//! | einops code and numpy-ordered data (`.npy`, safetensors, `from_vec_row_major`) | [`strideweave::einops`](crate::einops): paste the patterns |
//! | data made here (`arange`, `from_vec`, `zeros`), layouts, CuTe-style tiles | the default reading; groups name the fastest member first |
//! | a right-side group whose members do not merge | the default reading (a nested mode, a view), or materialize first |
//!
//! Both readings share the grammar, the checks and their messages, which start with the
//! name you called (`einops::rearrange: …`, `rearrange: …`) and quote your pattern.
