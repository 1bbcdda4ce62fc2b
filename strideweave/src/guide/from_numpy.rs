//! # Coming from numpy or PyTorch
//!
//! A tour in the order a numpy user meets an array: loading it, printing it, slicing it,
//! reducing it, and the names of the elementwise functions. One difference runs through
//! all of it: **coordinates are numpy's, the default memory order is not.** An element
//! `a[i, j]` is `a.get(&[i, j].into())` here and prints where numpy prints it, but where
//! numpy lays a new array out row-major (C order, the *last* axis fastest), StrideWeave's
//! constructors lay it out first mode fastest (Fortran order, CuTe's and BLAS's
//! "column-major"), and `to_vec` reads in that order. Strides count elements, not bytes.
//!
//! ## Loading
//!
//! Data in numpy's order comes in through
//! [`Tensor::from_vec_row_major`](crate::Tensor::from_vec_row_major) (`np.array(v).reshape(s)`)
//! or from a file: [`Tensor::read_npy`](crate::Tensor::read_npy) is `np.load`, and
//! [`io::load_safetensors`](crate::io::load_safetensors) loads a model's tensors by name.
//! Both map the file: the tensor views its bytes in place, nothing is copied.
//!
//! ```
//! use strideweave::{Tensor, shape};
//! // np.save("a.npy", np.arange(6, dtype=np.int32).reshape(2, 3))
//! let path = std::env::temp_dir().join("strideweave-guide-numpy-a.npy");
//! Tensor::from_vec_row_major((0..6).collect::<Vec<i32>>(), &shape!(2, 3))?.write_npy(&path)?;
//!
//! let a = Tensor::read_npy(&path)?;                       // a = np.load("a.npy")
//! assert_eq!(a.layout().to_string(), "(2,3):(3,1)");      // numpy's strides, in elements
//! assert_eq!(a.get(&[1, 0].into())?.to_f64(), 3.0);       // a[1, 0]
//! assert_eq!(a.to_vec_row_major::<i32>()?, [0, 1, 2, 3, 4, 5]); // a.ravel()
//! assert_eq!(a.to_vec::<i32>()?, [0, 3, 1, 4, 2, 5]);     // a.ravel(order="F")
//!
//! // The default constructors are first mode fastest: np.arange(6).reshape(2, 3, order="F").
//! let f = Tensor::arange::<i32>(&shape!(2, 3));
//! assert_eq!(f.layout().to_string(), "(2,3):(1,2)");
//! assert_eq!(f.get(&[1, 0].into())?.to_f64(), 1.0);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! | numpy / PyTorch | StrideWeave |
//! | --- | --- |
//! | `np.array(v).reshape(s)` | [`Tensor::from_vec_row_major(v, &s)`](crate::Tensor::from_vec_row_major) |
//! | `np.array(v).reshape(s, order="F")` | [`Tensor::from_vec(v, &s)`](crate::Tensor::from_vec) |
//! | `np.arange(n).reshape(s, order="F")`, `np.zeros(s)` | [`Tensor::arange::<T>(&s)`](crate::Tensor::arange), [`Tensor::zeros::<T>(&s)`](crate::Tensor::zeros) |
//! | `np.load`, `np.save` | [`Tensor::read_npy`](crate::Tensor::read_npy), [`write_npy`](crate::Tensor::write_npy) |
//! | `a.ravel()`, `a.ravel(order="F")` | [`to_vec_row_major::<T>()`](crate::Tensor::to_vec_row_major), [`to_vec::<T>()`](crate::Tensor::to_vec) |
//! | `a[i, j]`, `a[i, j] = x`, `a.item()` | [`get`](crate::Tensor::get), [`set`](crate::Tensor::set), [`item::<T>()`](crate::Tensor::item) |
//! | `a.astype(np.float64)` | [`to_dtype(DType::F64)`](crate::Tensor::to_dtype) |
//! | `np.ascontiguousarray(a)` | [`relayout(&Layout::row_major(a.shape()))`](crate::Tensor::relayout) ([`materialize`](crate::Tensor::materialize): first mode fastest) |
//!
//! ## Printing
//!
//! `Display` prints as numpy prints, axis (mode) 0 outermost, under a header naming the
//! dtype, the shape and the layout; `{:#}` prints the values alone, `{:.N}` with `N`
//! decimals. Large tensors print summarised, as numpy does, reading only what is shown.
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let a = Tensor::from_vec_row_major(vec![0.0f32, 0.5, 1.0, 1.5, 2.0, 2.5], &shape!(2, 3))?;
//! assert_eq!(a.to_string(), "\
//! Tensor of f32, shape (2,3), layout (2,3):(3,1)
//! [[0.0 0.5 1.0]
//!  [1.5 2.0 2.5]]");
//! assert_eq!(format!("{:#.2}", a.permute(&[1, 0])?), "\
//! [[0.00 1.50]
//!  [0.50 2.00]
//!  [1.00 2.50]]");
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Slicing
//!
//! [`slice`](crate::Tensor::slice) with the [`s!`](crate::s) macro is numpy's basic
//! indexing, and like numpy's it is a view. `s!` writes Python's keys: `1..4` is `1:4`,
//! `..;2` is `::2`, `-2..` counts from the end, an integer removes its mode. Two
//! differences: steps are positive (`a[:, ::-1]` is [`reverse(1)`](crate::Tensor::reverse),
//! also a view), and a stepped range must hold whole steps (numpy's `0:5:2` takes three
//! elements; here it is an error: write `0:6:2` on a mode of extent 5 or more, or `0:4:2`).
//!
//! ```
//! use strideweave::{Carrier, Tensor, s, shape};
//! let a = Tensor::from_vec_row_major((0..24).collect::<Vec<i64>>(), &shape!(4, 6))?;
//! let v = a.slice(&s![1..4, ..;2])?;                      // a[1:4, ::2]
//! assert_eq!(v.to_vec_row_major::<i64>()?, [6, 8, 10, 12, 14, 16, 18, 20, 22]);
//! assert!(Carrier::same(v.carrier(), a.carrier()));      // a view, no copy
//! let row = a.slice(&s![3, ..])?;                         // a[3, :]: integer keys are
//! assert_eq!(row.to_vec::<i64>()?, [18, 19, 20, 21, 22, 23]); // coordinates, not wrapped
//! let tail = a.slice(&s![-2.., 3..])?;                    // a[-2:, 3:]: ranges count back
//! assert_eq!(tail.to_vec_row_major::<i64>()?, [15, 16, 17, 21, 22, 23]);
//! assert_eq!(a.reverse(1)?.slice(&s![0, ..])?.to_vec::<i64>()?, [5, 4, 3, 2, 1, 0]);
//! assert_eq!(a.permute(&[1, 0])?.layout().to_string(), "(6,4):(1,6)"); // a.T
//!
//! // Out of range, or not whole steps: an error naming the key and the mode, never a panic.
//! let err = a.slice(&s![4, ..]).unwrap_err();
//! assert!(err.to_string().starts_with("slice: integer key 4"), "{err}");
//! let stop = 5; // a run-time bound (a literal `0..5;2` is already a compile error)
//! let err = a.slice(&s![.., 0..stop;2]).unwrap_err();
//! assert!(err.to_string().contains("not a multiple of the step 2"), "{err}");
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! A `reshape` reads coordinates first mode fastest (numpy's `order="F"`) and never copies:
//! a reshape that would need a copy is an error that says so. numpy's C-order reshape is a
//! pattern in einops' reading ([`einops::rearrange`](fn@crate::einops::rearrange), see
//! [`from_einops`](super::from_einops)):
//!
//! ```
//! use strideweave::{Tensor, einops, shape};
//! let a = Tensor::from_vec_row_major((0..6).collect::<Vec<i32>>(), &shape!(2, 3))?;
//! let flat = einops::rearrange(&a, "i j -> (i j)", &[])?;  // a.reshape(6)
//! assert_eq!(flat.to_vec::<i32>()?, [0, 1, 2, 3, 4, 5]);
//! let err = a.reshape(&shape!(6)).unwrap_err();            // row-major: not first mode fastest
//! assert!(err.to_string().contains("would need a copy"), "{err}");
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Reductions
//!
//! A full reduction is a rank-0 tensor (shape `()`; read it with `item`). numpy's `axis=`
//! is [`sum_modes`](crate::Tensor::sum_modes) for sums, the mode argument of
//! `argmax`/`softmax`/`logsumexp` (negative counts from the end, as numpy's), and, for any
//! reduction over any modes, [`reduce`](crate::Tensor::reduce) with a pattern that names
//! the modes kept:
//!
//! ```
//! use strideweave::{Reduction, Tensor, shape};
//! let a = Tensor::from_vec_row_major(vec![1.0f64, 5.0, 2.0, 4.0, 3.0, 0.0], &shape!(2, 3))?;
//! assert_eq!(a.sum()?.item::<f64>()?, 15.0);                           // a.sum()
//! assert_eq!(a.mean()?.item::<f64>()?, 2.5);                           // a.mean()
//! assert_eq!(a.sum_modes(&[0])?.to_vec::<f64>()?, [5.0, 8.0, 2.0]);   // a.sum(axis=0)
//! let m = a.reduce("i j -> i", Reduction::Max, &[])?;                  // a.max(axis=1)
//! assert_eq!(m.to_vec::<f64>()?, [5.0, 4.0]);
//! assert_eq!(a.argmax(-1)?.to_vec::<i64>()?, [1, 0]);                  // a.argmax(axis=-1)
//! let p = a.reduce("i j ->", Reduction::Prod, &[])?;                   // a.prod()
//! assert_eq!(p.item::<f64>()?, 0.0);
//! let s = a.softmax(1)?.sum_modes(&[1])?;                              // rows sum to 1
//! assert!(s.to_vec::<f64>()?.iter().all(|x| (x - 1.0).abs() < 1e-12));
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Elementwise functions
//!
//! Every function returns `Result<Tensor>`: nothing broadcasts implicitly (shapes must be
//! equal; broadcast explicitly with [`broadcast_to`](crate::Tensor::broadcast_to), a view),
//! and dtypes must agree (convert with `to_dtype`). The operators `+ - * /` and unary `-` on
//! `&Tensor` are the named methods, so `(&a + &b)?`. Each arithmetic method has an `_into`
//! form writing into an existing tensor, numpy's `out=`, and a `_scalar` form.
//!
//! | numpy | StrideWeave |
//! | --- | --- |
//! | `a + b`, `a - b`, `a * b`, `a / b`, `-a` | `&a + &b` ([`add`](crate::Tensor::add)), [`sub`](crate::Tensor::sub), [`mul`](crate::Tensor::mul), [`div`](crate::Tensor::div), [`neg`](crate::Tensor::neg) |
//! | `a + 2`, `a * 2.0` | [`add_scalar`](crate::Tensor::add_scalar), `&a * 2.0` ([`mul_scalar`](crate::Tensor::mul_scalar)), `sub_scalar`, `div_scalar` |
//! | `np.add(a, b, out=c)` | [`a.add_into(&b, &c)`](crate::Tensor::add_into) (`sub_into`, `mul_into`, …) |
//! | `np.exp`, `np.log`, `np.sqrt`, `np.abs` | [`exp`](crate::Tensor::exp), [`log`](crate::Tensor::log), [`sqrt`](crate::Tensor::sqrt), [`abs`](crate::Tensor::abs) |
//! | `np.sin`, `np.cos`, `np.tanh` | [`sin`](crate::Tensor::sin), [`cos`](crate::Tensor::cos), [`tanh`](crate::Tensor::tanh) |
//! | `a ** 2.5`, `a ** b` | [`powf(2.5)`](crate::Tensor::powf), [`pow(&b)`](crate::Tensor::pow) |
//! | `np.clip(a, lo, hi)` | [`clamp(lo, hi)`](crate::Tensor::clamp) |
//! | `np.maximum`, `np.minimum` | [`maximum`](crate::Tensor::maximum), [`minimum`](crate::Tensor::minimum) |
//! | `a == b`, `!=`, `<`, `<=`, `>`, `>=` | [`eq`](crate::Tensor::eq), [`ne`](crate::Tensor::ne), [`lt`](crate::Tensor::lt), [`le`](crate::Tensor::le), [`gt`](crate::Tensor::gt), [`ge`](crate::Tensor::ge); against a number `eq_scalar`, `gt_scalar`, … |
//! | `np.where(c, a, b)` | [`c.where_cond(&a, &b)`](crate::Tensor::where_cond) |
//! | `np.count_nonzero(a)` | [`count_nonzero`](crate::Tensor::count_nonzero) |
//! | `a.real`, `a.imag` | [`real`](crate::Tensor::real), [`imag`](crate::Tensor::imag) |
//! | `np.vectorize(f)(a)` | [`map::<T, U>(f)`](crate::Tensor::map) |
//! | `torch.sigmoid`, `relu`, `silu`, `gelu` | [`sigmoid`](crate::Tensor::sigmoid), [`relu`](crate::Tensor::relu), [`silu`](crate::Tensor::silu), [`gelu`](crate::Tensor::gelu) |
//! | `a @ b`, `np.dot`, `np.outer`, `np.einsum` | [`matmul`](crate::Tensor::matmul), [`dot`](crate::Tensor::dot), [`outer`](crate::Tensor::outer), [`Tensor::einsum`](crate::Tensor::einsum) |
//! | `np.take(a, i, axis)`, `np.take_along_axis` | [`index_select`](crate::Tensor::index_select), [`gather`](crate::Tensor::gather) |
//!
//! ```
//! use strideweave::{Tensor, shape};
//! let a = Tensor::from_vec(vec![-1.0f64, 0.0, 4.0], &shape!(3))?;
//! let b = Tensor::from_vec(vec![2.0f64, 2.0, 2.0], &shape!(3))?;
//! let c = (&(&a * &b)? + 1.0)?;                                // a * b + 1
//! assert_eq!(c.to_vec::<f64>()?, [-1.0, 1.0, 9.0]);
//! assert_eq!(a.clamp(0.0, 1.0)?.to_vec::<f64>()?, [0.0, 0.0, 1.0]); // np.clip(a, 0, 1)
//! assert_eq!(a.maximum(&b)?.to_vec::<f64>()?, [2.0, 2.0, 4.0]);
//! let pos = a.gt_scalar(0.0)?;                                  // a > 0
//! let zero = Tensor::zeros::<f64>(&shape!(3));
//! assert_eq!(pos.where_cond(&a.sqrt()?, &zero)?.to_vec::<f64>()?, [0.0, 0.0, 2.0]);
//! let out = Tensor::zeros::<f64>(&shape!(3));
//! a.add_into(&b, &out)?;                                        // np.add(a, b, out=out)
//! assert_eq!(out.to_vec::<f64>()?, [1.0, 2.0, 6.0]);
//! // Shapes must match: a (3) and a (2) are an error, not a broadcast.
//! assert!(a.add(&Tensor::zeros::<f64>(&shape!(2))).is_err());
//! # Ok::<(), strideweave::Error>(())
//! ```
