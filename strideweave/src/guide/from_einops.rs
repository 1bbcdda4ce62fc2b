//! # Coming from einops
//!
//! StrideWeave's patterns use einops' grammar — `"b (h w) c -> b h w c"` — with one
//! difference of convention: a StrideWeave mode list is **first mode fastest**, an einops
//! (numpy, PyTorch) axis list is **last axis fastest**. The rule:
//!
//! > An einops pattern on row-major data is the StrideWeave pattern obtained by **reversing
//! > the order of terms at every level** (the top level and inside every group), applied to
//! > the first-mode-fastest view of the same memory.
//!
//! The first-mode-fastest view of a row-major `[B, N, C]` buffer is the shape `(C, N, B)`
//! over the same elements: [`Tensor::from_vec`](crate::Tensor::from_vec) with the reversed
//! shape, no copy.
//!
//! ## A split: `b (h w) c -> b h w c`
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let (b, h, w, c) = (2, 2, 3, 2);
//! // A row-major [B, H·W, C] array as numpy holds it: element [i, j, k] at (i·H·W + j)·C + k.
//! let data: Vec<i64> = (0..b * h * w * c).collect();
//! // The same buffer, first mode fastest: shape (C, H·W, B).
//! let x = Tensor::from_vec(data, &shape!(2, 6, 2))?;
//! // einops: "b (h w) c -> b h w c", h=2  →  StrideWeave: every level reversed.
//! let y = x.rearrange("c (w h) b -> c w h b", &[("h", 2)])?;
//! assert_eq!(y.shape(), &shape!(2, 3, 2, 2));
//! // einops' result y_e[i, p, q, k] is y[k, q, p, i]:
//! let e = |i: i64, p: i64, q: i64, k: i64| ((i * h + p) * w + q) * c + k;
//! for (i, p, q, k) in [(0, 0, 0, 0), (1, 0, 2, 1), (0, 1, 1, 0), (1, 1, 2, 1)] {
//!     let at = y.get(&[k, q, p, i].into())?.to_f64() as i64;
//!     assert_eq!(at, e(i, p, q, k));
//! }
//! // And read first mode fastest, y holds einops' result in its row-major order.
//! assert_eq!(y.to_vec::<i64>()?, (0..24).collect::<Vec<i64>>());
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## A transposition: `b h w c -> b c h w`
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let x = Tensor::from_vec((0..24).collect::<Vec<i64>>(), &shape!(2, 3, 2, 2))?; // (c w h b)
//! // einops "b h w c -> b c h w"  →  "c w h b -> w h c b"
//! let y = x.rearrange("c w h b -> w h c b", &[])?;
//! assert_eq!(y.layout().to_string(), "(3,2,2,2):(2,6,1,12)"); // a view: strides only
//! // einops' y_e[b, c, h, w] = x_e[b, h, w, c] = ((b·2 + h)·3 + w)·2 + c
//! assert_eq!(y.get(&[2, 1, 1, 0].into())?.to_f64(), (((0 * 2 + 1) * 3 + 2) * 2 + 1) as f64);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Keeping numpy's axis order instead
//!
//! A tensor built with [`Tensor::from_vec_row_major`](crate::Tensor::from_vec_row_major)
//! keeps numpy's coordinates — its top-level modes are numpy's axes, in numpy's order — so
//! the top level of an einops pattern stays as it is. Inside a group, though, the first
//! name still varies fastest in StrideWeave, so **groups are still reversed**:
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let x = Tensor::from_vec_row_major((0..12).collect::<Vec<i64>>(), &shape!(2, 6))?; // [B, H·W]
//! // einops "b (h w) -> b h w" with h=2, w=3: the group reversed, the top level kept.
//! let y = x.rearrange("b (w h) -> b h w", &[("h", 2)])?;
//! assert_eq!(y.to_vec_row_major::<i64>()?, (0..12).collect::<Vec<i64>>()); // numpy's order
//! assert_eq!(y.get(&[1, 1, 2].into())?.to_f64(), 11.0); // y_e[1, 1, 2] = 1·6 + 1·3 + 2
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! `repeat` follows the same rule, and patterns written in source with
//! [`rearrange!`](crate::rearrange) are checked at compile time.
