//! # Layouts for CuTe users
//!
//! A [`Layout`](crate::Layout) is CuTe's `Layout`: a hierarchical shape and a congruent
//! stride, mapping coordinates to integers, first mode fastest. The text notation is CuTe's
//! own, `shape:stride`, and parses back; [`layout!`](macro@crate::layout) checks a literal at
//! compile time. A `Layout`'s extents and strides are run-time `i64`s; a layout the compiler
//! knows, CuTe's `Layout<Shape<_4,_8>>`, is a type (see *Static layouts* below). A stride
//! may be negative (a reversed view); the operations CuTe defines only for non-negative
//! strides refuse a negative one with an error.
//!
//! ```
//! use strideweave::{Layout, layout};
//! // CuTe: auto l = make_layout(make_shape(2, make_shape(3, 4)), make_stride(12, make_stride(1, 3)));
//! let l: Layout = layout!((2, (3, 4)) : (12, (1, 3)));
//! assert_eq!(l.to_string(), "(2,(3,4)):(12,(1,3))"); // print(l)
//! assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (24, 24, 2, 2));
//! assert_eq!(l.index(&"(1,(2,3))".parse()?)?, 23);  // l(1, make_coord(2, 3))
//! assert_eq!(l.index(&"(1,11)".parse()?)?, 23);     // l(1, 11)
//! assert_eq!(l.index_of(5)?, 14);                   // l(5)
//! assert_eq!(l.mode(1)?.to_string(), "(3,4):(1,3)"); // layout<1>(l)
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## The algebra's names
//!
//! | CuTe | StrideWeave |
//! | --- | --- |
//! | `make_layout(shape, stride)`, `make_layout(shape)` | [`Layout::new`](crate::Layout::new), [`Layout::compact`](crate::Layout::compact) (`LayoutLeft`), [`Layout::row_major`](crate::Layout::row_major) (`LayoutRight`) |
//! | `make_layout(a, b)`, `append`, `select`, `get<I>` | [`Layout::make`](crate::Layout::make), [`append`](crate::Layout::append), [`select`](crate::Layout::select), [`mode`](crate::Layout::mode) |
//! | `size`, `cosize`, `rank`, `depth` | [`size`](crate::Layout::size), [`cosize`](crate::Layout::cosize), [`rank`](crate::Layout::rank), [`depth`](crate::Layout::depth) |
//! | `layout(coord)`, `layout(i)` | [`index`](crate::Layout::index), [`index_of`](crate::Layout::index_of) |
//! | `coalesce`, `filter`, `flatten` | [`coalesce`](crate::Layout::coalesce), [`filter`](crate::Layout::filter), [`flatten`](crate::Layout::flatten) |
//! | `composition(a, b)` | [`compose`](crate::Layout::compose), [`compose_tiler`](crate::Layout::compose_tiler) |
//! | `complement(a, n)` | [`complement`](crate::Layout::complement) |
//! | `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide` | [`logical_divide`](crate::Layout::logical_divide), [`zipped_divide`](crate::Layout::zipped_divide), [`tiled_divide`](crate::Layout::tiled_divide), [`flat_divide`](crate::Layout::flat_divide) |
//! | `logical_product`, `blocked_product`, `raked_product`, `zipped_product`, `tiled_product` | [`logical_product`](crate::Layout::logical_product), [`blocked_product`](crate::Layout::blocked_product), [`raked_product`](crate::Layout::raked_product), [`zipped_product`](crate::Layout::zipped_product), [`tiled_product`](crate::Layout::tiled_product) |
//! | `right_inverse`, `left_inverse` | [`right_inverse`](crate::Layout::right_inverse), [`left_inverse`](crate::Layout::left_inverse) |
//! | `make_layout_tv(thr, val)`, `l.with_shape(s)`, `l.get_flat_coord(i)` | [`Layout::tv`](crate::Layout::tv) (the thread-value layout), [`with_shape`](crate::Layout::with_shape), [`flat_coordinate`](crate::Layout::flat_coordinate) |
//! | `print_layout(l)` | [`to_text_grid`](crate::Layout::to_text_grid) |
//! | `print_latex(l)`, `print_svg(l)` | [`to_svg`](crate::Layout::to_svg) |
//! | `print_latex_tv(tv, tile)` | [`tile.to_svg_tv(&tv)`](crate::Layout::to_svg_tv), as text [`tile.to_text_grid_tv(&tv)`](crate::Layout::to_text_grid_tv) |
//! | a `Tensor` over a pointer | [`Tensor`](crate::Tensor) over a [`Carrier`](crate::Carrier) |
//! | `composition(tensor, l)`, the divides of a tensor | [`Tensor::compose`](crate::Tensor::compose), [`Tensor::logical_divide`](crate::Tensor::logical_divide), [`zipped_divide`](crate::Tensor::zipped_divide), [`tiled_divide`](crate::Tensor::tiled_divide), [`flat_divide`](crate::Tensor::flat_divide) |
//! | `local_tile(t, tiler, coord)`, `local_partition(t, thr, i)` | [`Tensor::local_tile`](crate::Tensor::local_tile), [`Tensor::local_partition`](crate::Tensor::local_partition) (no projection argument: project the tiler and coordinate yourself) |
//! | `inner_partition`, `outer_partition`, `composition(t, tv)(thr, _)` | [`Tensor::inner_partition`](crate::Tensor::inner_partition), [`outer_partition`](crate::Tensor::outer_partition), [`partition_tv`](crate::Tensor::partition_tv) |
//!
//! ```
//! use strideweave::{Layout, Tiler, shape};
//! let a: Layout = "(6,2):(8,2)".parse()?;
//! assert_eq!(a.compose(&"(4,3):(3,1)".parse()?)?.to_string(), "((2,2),3):((24,2),8)");
//! assert_eq!("4:2".parse::<Layout>()?.complement(24)?.to_string(), "(2,3):(1,8)");
//! let tiles = Layout::compact(&shape!(12, 32)).zipped_divide(&Tiler::from(&shape!(4, 8)))?;
//! assert_eq!(tiles.shape().to_string(), "((4,8),(3,4))");
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## `print_layout` is `to_text_grid`
//!
//! For a rank-2 layout with flat modes, [`to_text_grid`](crate::Layout::to_text_grid)
//! prints what `print_layout` prints, character for character; it also takes other ranks
//! and hierarchical modes (flattened, with `‖` and `=` between their groups):
//!
//! ```
//! use strideweave::Layout;
//! let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
//! print!("{}", l.to_text_grid());
//! assert_eq!(l.to_text_grid().lines().nth(3), Some(" 0  | 0 | 2 ‖ 1 | 3 |"));
//! // The SVG pictures: cells greyed by index, or coloured by thread.
//! assert!(l.to_svg().contains("<title>(2,(2,2)):(4,(2,1))</title>"));
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Partitioning tensors
//!
//! The tensor-level operations are views over the same carrier (differentiable like every
//! view). Where CuTe wraps a coordinate or leaves a residue tile to predication, these are
//! errors: a tile or thread coordinate out of range, a tile that does not divide its mode.
//! A coordinate in CuTe's `make_coord(m, _)` form, with `_` last, is the short tuple `(m)`:
//! the trailing modes are kept.
//!
//! ```
//! use strideweave::{IntTuple, Layout, Tensor, Tiler, shape};
//! let a = Tensor::arange::<f32>(&shape!(256, 64));
//! // gA = local_tile(mA, make_shape(128, 8), make_coord(1, _)): (128, 8, k-tiles)
//! let g_a = a.local_tile(&Tiler::from(&shape!(128, 8)), &IntTuple::tuple([IntTuple::int(1)]))?;
//! assert_eq!(g_a.shape().to_string(), "(128,8,8)");
//! // tAgA = local_partition(gA, make_layout(make_shape(32, 8)), threadIdx.x)
//! let t_a = g_a.local_partition(&"(32,8):(1,32)".parse()?, 5)?;
//! assert_eq!(t_a.shape().to_string(), "(4,1,8)");
//! // composition(tile, tv)(5, _): the values thread 5 holds under a thread-value layout
//! let tv = Layout::tv(&"(8,4):(4,1)".parse()?, &"(2,4):(1,2)".parse()?)?;
//! let tile = Tensor::arange::<f32>(&shape!(16, 16));
//! assert_eq!(tile.partition_tv(&tv, 5)?.size(), 8);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## Static layouts
//!
//! [`layout_t!`](macro@crate::layout_t) names a layout type whose shape and stride the
//! compiler knows (`Layout<Shape<_4,_8>, Stride<_1,_4>>` is `layout_t!((4, 8) : (1, 4))`).
//! Its index math and the algebra are `const fn`s, computed while the program is built, and a
//! mistake is a compile error in the run-time algebra's words. The result types take CuTe's
//! names ([`Compose`](crate::Compose), [`Complement`](crate::Complement),
//! [`ZippedDivide`](crate::ZippedDivide), [`LocalTile`](crate::LocalTile),
//! [`LocalPartition`](crate::LocalPartition), …); a static shape `shape_t!(32, 64)` is a
//! shape tiler, a tuple of layouts a `Tile<…>`, [`Keep`](crate::Keep) is `_`.
//! [`StaticLayoutView`](crate::StaticLayoutView) reads a slice through one.
//!
//! ```
//! use strideweave::{LocalPartition, LocalTile, StaticLayoutView, layout_t, shape_t};
//! type A = layout_t!((256, 64));                  // make_layout(make_shape(_256{}, _64{}))
//! type Cta = LocalTile<A, shape_t!(128, 8)>;       // local_tile(gA, Shape<_128,_8>{}, (1, 3))
//! type Thr = LocalPartition<Cta, layout_t!((32, 8))>; // local_partition(ctaA, Layout<Shape<_32,_8>>{}, tid)
//! const TILE_AT: i64 = Cta::offset(&[1, 3]);
//! assert_eq!(Thr::to_layout().to_string(), "(4,1):(32,0)");
//! let data: Vec<f32> = (0..256 * 64).map(|x| x as f32).collect();
//! let mine = StaticLayoutView::<_, Thr>::with_offset(&data, (TILE_AT + Thr::offset(37)) as isize)?;
//! assert_eq!(mine[[1, 0]], A::index(&[128 + 5 + 32, 24 + 1]) as f32);
//! # Ok::<(), strideweave::Error>(())
//! ```
