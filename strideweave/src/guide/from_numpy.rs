//! # Coming from numpy or PyTorch
//!
//! **Coordinates are the same; the default order of elements in memory is not.** An
//! element `t[i, j]` in numpy is `t.get(&[i, j].into())` here, and `Display` prints mode 0
//! outermost, as numpy prints axis 0 outermost. But where numpy lays a new array out
//! row-major (C order: the *last* axis fastest), StrideWeave lays it out first mode fastest
//! (Fortran order, CuTe's and BLAS's "column-major"), and reads `to_vec` in that order.
//!
//! | numpy / PyTorch | StrideWeave, first mode fastest | StrideWeave, row-major |
//! | --- | --- | --- |
//! | `np.array(v).reshape(s, order="F")` | [`Tensor::from_vec(v, &s)`](crate::Tensor::from_vec) | — |
//! | `np.array(v).reshape(s)` | — | [`Tensor::from_vec_row_major(v, &s)`](crate::Tensor::from_vec_row_major) |
//! | `a.ravel(order="F")` | [`t.to_vec::<T>()`](crate::Tensor::to_vec) | — |
//! | `a.ravel()`, `a.tolist()` flattened | — | [`t.to_vec_row_major::<T>()`](crate::Tensor::to_vec_row_major) |
//! | `np.arange(n).reshape(s, order="F")` | [`Tensor::arange::<T>(&s)`](crate::Tensor::arange) | — |
//! | strides of a new array | [`Layout::compact(&s)`](crate::Layout::compact) | [`Layout::row_major(&s)`](crate::Layout::row_major) |
//! | `np.ascontiguousarray(a)` | [`t.materialize()`](crate::Tensor::materialize) | [`t.relayout(&Layout::row_major(t.shape()))`](crate::Tensor::relayout) |
//! | `a.transpose(p)`, `a.T` | [`t.permute(&p)`](crate::Tensor::permute) | same |
//! | `a[1:4, ::2]` | [`t.slice(&s![1..4, ..;2])`](crate::s) | same |
//! | `a[:, ::-1]` | [`t.reverse(1)`](crate::Tensor::reverse) | same |
//! | `a.reshape(s, order="F")` (a view or an error) | [`t.reshape(&s)`](crate::Tensor::reshape) | — |
//!
//! Strides count elements, not bytes. A shape may nest (`(2,(3,4))`): a nested mode is one
//! axis whose coordinate has parts, the first part fastest.
//!
//! ```
//! use strideweave::{Layout, Tensor, shape};
//! // numpy: a = np.arange(6).reshape(2, 3)  ->  [[0 1 2] [3 4 5]], strides (3, 1)
//! let a = Tensor::from_vec_row_major((0..6).collect::<Vec<i32>>(), &shape!(2, 3))?;
//! assert_eq!(a.layout(), &Layout::row_major(&shape!(2, 3)));
//! assert_eq!(a.layout().to_string(), "(2,3):(3,1)");
//! assert_eq!(a.get(&[1, 0].into())?.to_f64(), 3.0);              // a[1, 0]
//! assert_eq!(format!("{a:#}"), "[[0 1 2]\n [3 4 5]]");            // print(a)
//! assert_eq!(a.to_vec_row_major::<i32>()?, [0, 1, 2, 3, 4, 5]);  // a.ravel()
//! assert_eq!(a.to_vec::<i32>()?, [0, 3, 1, 4, 2, 5]);            // a.ravel(order="F")
//!
//! // The default constructors are first mode fastest: np.arange(6).reshape(2, 3, order="F").
//! let f = Tensor::arange::<i32>(&shape!(2, 3));
//! assert_eq!(f.layout().to_string(), "(2,3):(1,2)");
//! assert_eq!(format!("{f:#}"), "[[0 2 4]\n [1 3 5]]");
//!
//! // a.T is a view, as in numpy; a copy in the other order is explicit.
//! let t = a.permute(&[1, 0])?;
//! assert_eq!(t.layout().to_string(), "(3,2):(1,3)");
//! let c = t.relayout(&Layout::row_major(t.shape()))?; // np.ascontiguousarray(a.T)
//! assert_eq!(c.to_vec_row_major::<i32>()?, [0, 3, 1, 4, 2, 5]);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! A `reshape` reads coordinates first mode fastest (numpy's `order="F"`) and never copies:
//! a reshape that would need a copy is an error that says so. To reshape in numpy's C
//! order, reverse the modes, reshape, and reverse back — or write it as a rearrangement,
//! with groups reversed (see [`from_einops`](super::from_einops)).
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let a = Tensor::from_vec_row_major((0..6).collect::<Vec<i32>>(), &shape!(2, 3))?;
//! // numpy: a.reshape(6) = [0 1 2 3 4 5]; here "(i j)" must name j first:
//! let flat = a.rearrange("i j -> (j i)", &[])?;
//! assert_eq!(flat.to_vec::<i32>()?, [0, 1, 2, 3, 4, 5]);
//! # Ok::<(), strideweave::Error>(())
//! ```
