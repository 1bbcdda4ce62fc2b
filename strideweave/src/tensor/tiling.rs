//! CuTe's tensor algebra as views: composition, the four divides, and the partitions
//! (`local_tile`, `local_partition`, `inner_partition`, `outer_partition`, `partition_tv`).
//! Each is the layout function of the same name applied to the tensor's layout — `L_0` and
//! `S_0` for a multi-subtensor tensor, as every view does — over the same carriers, and
//! differentiable like every view.
//!
//! Where CuTe wraps or predicates, these refuse: a tile or thread coordinate out of range,
//! and a tile that would reach past the tensor's elements (a residue).

use crate::error::{Error, Result};
use crate::layout::partition::{Half, check_tiles, thread_out_of_range, tv_halves};
use crate::layout::{IntTuple, Layout, Shape, Tiler};
use crate::tensor::Tensor;
use crate::tensor::index::offset_plus;

impl Tensor {
    /// The view whose coordinate `c` reads the element at the tensor's ordinal `b(c)`
    /// (CuTe's `composition(tensor, b)`): its layout is the tensor's layout composed with
    /// `b`. `b` must reach only the tensor's ordinals `[0, size)`.
    ///
    /// ```
    /// use strideweave::{Layout, Tensor};
    /// let t = Tensor::arange::<f32>(&"(4,6)".parse()?);
    /// // Every other column, as a 4×3 view.
    /// let v = t.compose(&"(4,3):(1,8)".parse()?)?;
    /// assert_eq!(v.to_vec::<f32>()?, [0., 1., 2., 3., 8., 9., 10., 11., 16., 17., 18., 19.]);
    /// let err = t.compose(&"(4,4):(1,8)".parse()?).unwrap_err();
    /// assert!(err.to_string().starts_with("compose: the layout (4,4):(1,8) reaches ordinal 27"));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn compose(&self, b: &Layout) -> Result<Tensor> {
        const OP: &str = "compose";
        self.check_reach(OP, &format!("the layout {b}"), b)?;
        self.partition_view(OP, |l| Ok((l.compose_in(OP, b)?, 0)))
    }

    /// The tensor divided by `tiler` (CuTe's `logical_divide`): with a layout tiler, the
    /// 1-D function divided into `(tile, rest)`; with a by-mode tiler (a [`Shape`] converts
    /// to one), each leading mode `i` becomes `(tile_i, rest_i)` and the trailing modes stay.
    /// Every tile must fit inside the tensor's elements (mode by mode for a by-mode tiler).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(8,6)".parse()?);
    /// let tiler = Tiler::from(&"(4,3)".parse::<Shape>()?);
    /// assert_eq!(t.logical_divide(&tiler)?.shape().to_string(), "((4,2),(3,2))");
    /// let err = t.logical_divide(&Tiler::from(&"(3,3)".parse::<Shape>()?)).unwrap_err();
    /// assert!(err.to_string().starts_with("logical_divide: the tile 3:1 of 3 elements does not divide mode 0 of extent 8"));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<Tensor> {
        self.divided("logical_divide", tiler, Layout::logical_divide_tiler_as)
    }

    /// The tensor divided by `tiler` with the tiles gathered into mode 0 and the rests (and
    /// the trailing modes) into mode 1: `((tiles…), (rests…))` (CuTe's `zipped_divide`).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(8,6,2)".parse()?);
    /// let z = t.zipped_divide(&Tiler::from(&"(4,3)".parse::<Shape>()?))?;
    /// assert_eq!(z.shape().to_string(), "((4,3),(2,2,2))");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Tensor> {
        self.divided("zipped_divide", tiler, Layout::zipped_divide_as)
    }

    /// [`zipped_divide`](Self::zipped_divide) with the rests as top-level modes:
    /// `((tiles…), rests…)` (CuTe's `tiled_divide`).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(8,6)".parse()?);
    /// let v = t.tiled_divide(&Tiler::from(&"(4,3)".parse::<Shape>()?))?;
    /// assert_eq!(v.shape().to_string(), "((4,3),2,2)");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Tensor> {
        self.divided("tiled_divide", tiler, Layout::tiled_divide_as)
    }

    /// [`zipped_divide`](Self::zipped_divide) with both halves' modes as top-level modes:
    /// `(tiles…, rests…)` (CuTe's `flat_divide`).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(8,6)".parse()?);
    /// let v = t.flat_divide(&Tiler::from(&"(4,3)".parse::<Shape>()?))?;
    /// assert_eq!(v.shape().to_string(), "(4,3,2,2)");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Tensor> {
        self.divided("flat_divide", tiler, Layout::flat_divide_as)
    }

    /// The tile at `coord` of the tensor divided by `tiler`, the tile's modes kept (CuTe's
    /// `local_tile`, which is [`inner_partition`](Self::inner_partition)): what one block of
    /// a tiled kernel works on. `coord` indexes the grid of tiles: an integer flat (first
    /// mode fastest), a tuple mode by mode; a tuple shorter than the grid keeps the trailing
    /// modes (CuTe's `append<R>(coord, _)`), so a `(m, k)` matrix tiled by `(bm, bk)` at `(i)`
    /// gives the `(bm, bk, k / bk)` stack of row-block `i`'s tiles.
    ///
    /// ```
    /// use strideweave::{IntTuple, Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(4,6)".parse()?);
    /// let tiler = Tiler::from(&"(2,3)".parse::<Shape>()?);
    /// let tile = t.local_tile(&tiler, &IntTuple::from([1, 1]))?;
    /// assert_eq!(tile.shape().to_string(), "(2,3)");
    /// assert_eq!(tile.to_vec::<f32>()?, [14., 15., 18., 19., 22., 23.]);
    /// // A short coordinate keeps the rest of the grid: row-block 1's two tiles.
    /// let row = t.local_tile(&tiler, &IntTuple::tuple([IntTuple::int(1)]))?;
    /// assert_eq!(row.shape().to_string(), "(2,3,2)");
    /// let err = t.local_tile(&tiler, &IntTuple::from([2, 0])).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "local_tile: tile coordinate 2 is outside the 2 tiles along mode 0 (valid: 0..2)");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn local_tile(&self, tiler: &Tiler, coord: &IntTuple) -> Result<Tensor> {
        self.partition_as("local_tile", tiler, Half::Rest, coord)
    }

    /// The tile at `coord` of the [`zipped_divide`](Self::zipped_divide) by `tiler`, as CuTe's
    /// `inner_partition` slices it (the same view as [`local_tile`](Self::local_tile)).
    ///
    /// ```
    /// use strideweave::{IntTuple, Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(4,6)".parse()?);
    /// let tiler = Tiler::from(&"(2,3)".parse::<Shape>()?);
    /// let tile = t.inner_partition(&tiler, &IntTuple::int(3))?; // tile (1,1), flat
    /// assert_eq!(tile.to_vec::<f32>()?, [14., 15., 18., 19., 22., 23.]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn inner_partition(&self, tiler: &Tiler, coord: &IntTuple) -> Result<Tensor> {
        self.partition_as("inner_partition", tiler, Half::Rest, coord)
    }

    /// The element at `coord` of every tile of the [`zipped_divide`](Self::zipped_divide) by
    /// `tiler`, the grid of tiles kept (CuTe's `outer_partition`): `coord` indexes the tile,
    /// an integer flat, a tuple mode by mode (a short tuple keeps the trailing tile modes).
    ///
    /// ```
    /// use strideweave::{IntTuple, Shape, Tensor, Tiler};
    /// let t = Tensor::arange::<f32>(&"(4,6)".parse()?);
    /// let tiler = Tiler::from(&"(2,3)".parse::<Shape>()?);
    /// let v = t.outer_partition(&tiler, &IntTuple::from([1, 2]))?;
    /// assert_eq!(v.shape().to_string(), "(2,2)");
    /// assert_eq!(v.to_vec::<f32>()?, [9., 11., 21., 23.]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn outer_partition(&self, tiler: &Tiler, coord: &IntTuple) -> Result<Tensor> {
        self.partition_as("outer_partition", tiler, Half::Tile, coord)
    }

    /// The elements thread `thread` owns when the threads of `thr` tile the tensor (CuTe's
    /// `local_partition`): the tensor is divided into tiles of `thr`'s shape (each top-level
    /// mode's size), and the thread takes the element at its coordinate in `thr` (see
    /// [`Layout::flat_coordinate`]) from every tile.
    ///
    /// ```
    /// use strideweave::{Layout, Tensor};
    /// let t = Tensor::arange::<f32>(&"(16,64)".parse()?);
    /// let thr: Layout = "(2,16):(1,2)".parse()?; // 32 threads, column-major
    /// let mine = t.local_partition(&thr, 3)?; // thread 3 is at (1, 1)
    /// assert_eq!(mine.shape().to_string(), "(8,4)");
    /// assert_eq!(mine.to_vec::<f32>()?[..3], [17., 19., 21.]);
    /// let err = t.local_partition(&thr, 32).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "local_partition: thread 32 is outside the 32 threads of (2,16):(1,2) (valid: 0..32)");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn local_partition(&self, thr: &Layout, thread: usize) -> Result<Tensor> {
        const OP: &str = "local_partition";
        let threads = thr.size();
        if thread >= threads {
            return Err(thread_out_of_range(OP, thread, threads, thr));
        }
        let coord = thr.flat_coordinate_as(OP, thread as i64)?;
        let tile = product_each(thr);
        self.partition_as(OP, &Tiler::from(&tile), Half::Tile, &coord)
    }

    /// The values thread `thread` holds under the thread-value layout `tv` — `(thread, value)
    /// → ` the tensor's ordinal, such as [`Layout::tv`] builds — as a rank-1 view of `tv`'s
    /// value mode (CuTe's `composition(tensor, tv)(thread, _)`).
    ///
    /// ```
    /// use strideweave::{Layout, Tensor};
    /// let tile = Tensor::arange::<f32>(&"(4,6)".parse()?);
    /// let tv = Layout::tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
    /// let mine = tile.partition_tv(&tv, 1)?;
    /// assert_eq!(mine.to_vec::<f32>()?, [8., 12., 9., 13.]);
    /// assert!(tile.partition_tv(&tv, 6).is_err());
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn partition_tv(&self, tv: &Layout, thread: usize) -> Result<Tensor> {
        const OP: &str = "partition_tv";
        tv_halves(OP, tv)?;
        self.check_reach(OP, &format!("the thread-value layout {tv}"), tv)?;
        self.partition_view(OP, |l| l.thread_values_as(OP, tv, thread))
    }

    /// The view by the divide `divide` (a layout function reporting as `op`) by `tiler`,
    /// whose tiles must stay inside the tensor.
    fn divided(
        &self,
        op: &'static str,
        tiler: &Tiler,
        divide: fn(&Layout, &'static str, &Tiler) -> Result<Layout>,
    ) -> Result<Tensor> {
        check_tiles(op, self.shape(), tiler)?;
        self.partition_view(op, |l| Ok((divide(l, op, tiler)?, 0)))
    }

    /// [`partition_view`](Self::partition_view) of the zipped divide by `tiler` sliced at
    /// `coord` in `half`.
    fn partition_as(
        &self,
        op: &'static str,
        tiler: &Tiler,
        half: Half,
        coord: &IntTuple,
    ) -> Result<Tensor> {
        check_tiles(op, self.shape(), tiler)?;
        let like = self.layout().zipped_divide_as(op, tiler)?.shape().clone();
        self.partition_view(op, |l| l.partition_as(op, tiler, half, coord, &like))
    }

    /// Refuses a layout `b`, described as `what`, that reaches outside the tensor's ordinals.
    fn check_reach(&self, op: &'static str, what: &str, b: &Layout) -> Result<()> {
        let (lo, hi) = b.reach();
        let size = self.size() as i64;
        if b.size() > 0 && (lo < 0 || hi >= size) {
            let at = if lo < 0 { lo } else { hi };
            return Err(Error::ViewOutOfBounds {
                op,
                detail: format!(
                    "{what} reaches ordinal {at}, outside the tensor's {size} elements (valid: 0..{size})"
                ),
            });
        }
        Ok(())
    }

    /// The view by a layout function `f` that also moves the offset: `f` applied to the
    /// leading layout (and, for a multi-subtensor tensor, to `S_0`, where the view must then
    /// start at the origin), recorded for autograd with `f`. The view must read only the
    /// tensor's own elements, checked on the tensor's ordinals first.
    fn partition_view(
        &self,
        op: &'static str,
        f: impl Fn(&Layout) -> Result<(Layout, i64)>,
    ) -> Result<Tensor> {
        let (map, at) = f(&Layout::compact(self.shape()))?;
        let size = self.size() as i64;
        let (lo, hi) = map.reach();
        if map.size() > 0 && (at + lo < 0 || at + hi >= size) {
            return Err(Error::ViewOutOfBounds {
                op,
                detail: format!(
                    "the view reaches the tensor's ordinals {}..={}, outside its {size} elements",
                    at + lo,
                    at + hi
                ),
            });
        }
        let r = self.representation();
        let (layout, delta) = f(&r.subtensors[0].layout)?;
        let mut out = r.clone();
        out.subtensors[0].offset = offset_plus(op, r.subtensors[0].offset, delta)?;
        out.subtensors[0].layout = layout;
        if !r.is_single() || !r.adjacent.is_empty() {
            if at != 0 {
                return Err(Error::NotImplemented {
                    op,
                    reason: format!(
                        "a multi-subtensor ({}) view must start at the origin; this one starts at ordinal {at}",
                        r.dtype
                    ),
                });
            }
            if let Some(s0) = out.adjacent.first_mut() {
                let (s, _) = f(s0)?;
                let lead = &mut out.subtensors[0].layout;
                // The algebra may simplify `L_0` further than `S_0` (a mode whose strides
                // merge in one and not the other): both take the finer shape.
                *s0 = if s.shape() == lead.shape() {
                    s
                } else if let Ok(finer) = lead.compose_affine(&Layout::compact(s.shape())) {
                    *lead = finer;
                    s
                } else {
                    s.compose_affine(&Layout::compact(lead.shape()))?
                };
            }
        }
        out.validate(op)?;
        crate::autograd::view::record(self, Tensor::from_repr(out), op, f)
    }
}

/// The shape of each top-level mode's size (CuTe's `product_each`, which wraps an integer:
/// a layout of integer shape `n` gives `(n)`, a tiler of mode 0).
fn product_each(l: &Layout) -> Shape {
    let s = l.shape();
    let sizes = (0..s.rank())
        .filter_map(|i| s.mode(i))
        .map(|m| IntTuple::int(m.size() as i64));
    Shape(IntTuple::tuple(sizes))
}
