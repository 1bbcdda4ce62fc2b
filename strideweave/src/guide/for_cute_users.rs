//! # Layouts for CuTe users
//!
//! A tour for readers of CuTe: the notation, the names of the algebra, `print_layout`, then
//! two walk-throughs — a thread-value layout and a tiled GEMM — and static layouts.
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
//! ## A thread-value layout
//!
//! A TV layout maps `(thread, value)` to a position in a tile: CuTe's way of saying which
//! thread holds which element. Take an 8×4 tile, its elements numbered column-major by the
//! compact layout `(8,4):(1,8)`, held by 4 threads of 8 values each. The TV layout
//! `(4,8):(8,1)` sends thread `t`, value `v` to ordinal `8·t + v`: thread `t` holds column
//! `t`. [`to_text_grid_tv`](crate::Layout::to_text_grid_tv) prints the tile with the holder of
//! each cell, [`to_svg_tv`](crate::Layout::to_svg_tv) draws it (CuTe's `print_latex_tv`; the
//! README shows this very picture, `docs/tv_8x4.svg`):
//!
//! ```
//! use strideweave::Layout;
//! let tile: Layout = "(8,4):(1,8)".parse()?;  // tile coordinate (m, n) -> ordinal m + 8·n
//! let tv: Layout = "(4,8):(8,1)".parse()?;    // (thread, value)     -> ordinal 8·t + v
//! assert_eq!(tv.index(&[1, 3].into())?, 11);  // thread 1, value 3: ordinal 11 = (3, 1)
//! let grid = tile.to_text_grid_tv(&tv)?;
//! assert_eq!(grid.lines().nth(3), Some(" 0  | T0V0 | T1V0 | T2V0 | T3V0 |"));
//! assert_eq!(grid.lines().nth(5), Some(" 1  | T0V1 | T1V1 | T2V1 | T3V1 |"));
//! let svg = tile.to_svg_tv(&tv)?;
//! assert!(svg.contains(">T3</text>") && svg.contains(">V7</text>"));
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! CuTe builds TV layouts with `make_layout_tv(thr, val)`: a layout of threads and a layout
//! of one thread's values, raked together. [`Layout::tv`](crate::Layout::tv) is that
//! function; [`Tensor::partition_tv`](crate::Tensor::partition_tv) (CuTe's
//! `composition(tile, tv)(thread, _)`) is the view of the values one thread holds:
//!
//! ```
//! use strideweave::{Layout, Tensor, shape};
//! // 6 threads in a 2×3 row-major grid, each holding a 2×2 row-major block of a 4×6 tile.
//! let tv = Layout::tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
//! assert_eq!(tv.to_string(), "((3,2),(2,2)):((8,2),(4,1))");
//! let tile = Layout::compact(&shape!(4, 6));
//! assert_eq!(tile.to_text_grid_tv(&tv)?.lines().nth(3),
//!     Some(" 0  | T0V0 | T0V1 | T1V0 | T1V1 | T2V0 | T2V1 |"));
//!
//! // The elements of a 4×6 tensor that thread 1 holds: rows 0–1 of columns 2–3.
//! let t = Tensor::arange::<f32>(&shape!(4, 6));    // t[m, n] = m + 4·n
//! let mine = t.partition_tv(&tv, 1)?;
//! assert_eq!(mine.to_vec::<f32>()?, [8.0, 12.0, 9.0, 13.0]);
//! // The 8×4 tile of above, through the same call: thread 2 holds column 2.
//! let col = Tensor::arange::<f32>(&shape!(8, 4)).partition_tv(&"(4,8):(8,1)".parse()?, 2)?;
//! assert_eq!(col.to_vec::<f32>()?, (16..24).map(|v| v as f32).collect::<Vec<_>>());
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! ## A tiled GEMM
//!
//! CuTe's first GEMM tutorial (`sgemm_1`) computes `C = A·Bᵀ`, A `(M,K)`, B `(N,K)`, in
//! three steps of views: [`local_tile`](crate::Tensor::local_tile) takes a block's tiles
//! (`gA`, `gB`, `gC`), [`local_partition`](crate::Tensor::local_partition) gives each
//! thread its piece of them (`tAgA`, `tBgB`, `tCgC`), and each thread accumulates its piece
//! of C over the k-tiles. The tensor-level operations are views over the same carrier:
//! the index math is done once, by the layouts. Here is the whole algorithm at toy size —
//! 8×8 C in 4×4 blocks, 4 threads of 2×2 pieces, k-tiles of 2 — checked against `matmul`:
//!
//! ```
//! use strideweave::{IntTuple, Layout, Tensor, Tiler, shape};
//! let a = Tensor::from_vec((0..32).map(|v| (v % 7) as f32).collect(), &shape!(8, 4))?; // (M,K)
//! let b = Tensor::from_vec((0..32).map(|v| (v % 5) as f32).collect(), &shape!(8, 4))?; // (N,K)
//! let c = Tensor::zeros::<f32>(&shape!(8, 8));                                         // (M,N)
//!
//! let t_c: Layout = "(2,2):(1,2)".parse()?; // tC: 4 threads in a 2×2 grid, column-major
//! let t_rows: Layout = "(2,1):(1,2)".parse()?; // tC's row mode alone (CuTe's Step<_1, X>)
//! let (ab_tile, c_tile) = (Tiler::from(&shape!(4, 2)), Tiler::from(&shape!(4, 4)));
//! for bn in 0..2 {
//!     for bm in 0..2 {
//!         // gA = local_tile(mA, (BM, BK), (bm, _)): (BM, BK, k-tiles), likewise gB; gC (BM, BN).
//!         let g_a = a.local_tile(&ab_tile, &IntTuple::tuple([IntTuple::int(bm)]))?;
//!         let g_b = b.local_tile(&ab_tile, &IntTuple::tuple([IntTuple::int(bn)]))?;
//!         let g_c = c.local_tile(&c_tile, &IntTuple::from([bm, bn]))?;
//!         assert_eq!(g_a.shape().to_string(), "(4,2,2)");
//!         for thread in 0..t_c.size() {
//!             let (tr, tc) = (thread % 2, thread / 2);
//!             assert_eq!(t_c.flat_coordinate(thread as i64)?.to_string(), format!("({tr},{tc})"));
//!             // Thread (tr, tc) holds rows tr, tr+2 of gA, rows tc, tc+2 of gB, and the
//!             // 2×2 piece of gC where they meet.
//!             let t_a = g_a.local_partition(&t_rows, tr)?;   // (2, BK, k-tiles)
//!             let t_b = g_b.local_partition(&t_rows, tc)?;
//!             let t_cc = g_c.local_partition(&t_c, thread)?; // (2, 2)
//!             for i in 0..2 {
//!                 for j in 0..2 {
//!                     let mut acc = 0.0;
//!                     for kt in 0..2 {
//!                         for k in 0..2 {
//!                             let x = t_a.get(&[i, k, kt].into())?.to_f64();
//!                             let y = t_b.get(&[j, k, kt].into())?.to_f64();
//!                             acc += x * y;
//!                         }
//!                     }
//!                     t_cc.set(&[i, j].into(), acc as f32)?; // writes through to C
//!                 }
//!             }
//!         }
//!     }
//! }
//! let expected = a.matmul(&b.permute(&[1, 0])?)?;
//! assert_eq!(c.to_vec::<f32>()?, expected.to_vec::<f32>()?);
//! # Ok::<(), strideweave::Error>(())
//! ```
//!
//! `cargo run --release --example tiled_gemm` is the same algorithm at size, with 128×128
//! blocks, 16×16 threads of 8×8 pieces, each k-tile staged as CuTe stages it in shared
//! memory, and blocks on rayon.
//!
//! Where CuTe wraps a coordinate or leaves a residue tile to predication, these are errors:
//! a tile or thread coordinate out of range, a tile that does not divide its mode. A
//! coordinate in CuTe's `make_coord(m, _)` form, with `_` last, is the short tuple `(m)`: the
//! trailing modes are kept.
//!
//! ```
//! use strideweave::{IntTuple, Tensor, Tiler, shape};
//! let a = Tensor::arange::<f32>(&shape!(256, 64));
//! let err = a.local_tile(&Tiler::from(&shape!(128, 8)), &IntTuple::from([2, 0])).unwrap_err();
//! assert!(err.to_string().starts_with("local_tile: tile coordinate 2 is outside the 2 tiles"));
//! assert!(a.local_tile(&Tiler::from(&shape!(100, 8)), &IntTuple::from([0, 0])).is_err());
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
