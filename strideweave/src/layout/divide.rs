//! Division: logical, zipped, tiled and flat divide, as in CuTe's layout algebra.

use crate::error::Result;
use crate::layout::core::Layout;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::{Tiler, hier_unzip};

impl Layout {
    /// `A / B = A ∘ (B, complement(B, size(A)))`: mode 0 is the tile `A ∘ B`, mode 1 walks
    /// the tiles. If B does not divide A evenly the rest rounds up.
    ///
    /// A tile larger than A is allowed (CuTe and pycute accept it): the rest is then `1:0`.
    /// A broadcast tile (stride 0) repeats one element of A; the rest walks all of A.
    ///
    /// Errors name `logical_divide`: a negative stride in B, a B that is not injective once
    /// its stride-0 modes are ignored, a complement or a composition no layout represents.
    ///
    /// ```
    /// let a: strideweave::Layout = "(4,2,3):(2,1,8)".parse().unwrap();
    /// let r = a.logical_divide(&"4:2".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// let small: strideweave::Layout = "4:1".parse().unwrap();
    /// let r = small.logical_divide(&"8:2".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(8,2):(2,1)");
    /// let r = small.logical_divide(&"3:0".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(3,4):(0,1)");
    /// ```
    pub fn logical_divide(&self, b: &Layout) -> Result<Layout> {
        self.logical_divide_in("logical_divide", b)
    }

    /// [`logical_divide`](Self::logical_divide) reporting its errors as `op`.
    pub(crate) fn logical_divide_in(&self, op: &'static str, b: &Layout) -> Result<Layout> {
        let rest = b.complement_in(op, self.size())?;
        let mut pair = LayoutBuilder::default();
        pair.layout(b);
        pair.layout(&rest);
        self.compose_in(op, &pair.tuple(op)?)
    }

    /// Division by a tiler: a layout divides the 1-D function; a by-mode tiler divides each
    /// leading top-level mode and keeps the trailing ones.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
    /// let t = Tiler::by_mode([
    ///     Tiler::from("3:3".parse::<Layout>().unwrap()),
    ///     Tiler::from("(2,4):(1,8)".parse::<Layout>().unwrap()),
    /// ]);
    /// assert_eq!(a.logical_divide_tiler(&t).unwrap().to_string(),
    ///     "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    /// ```
    pub fn logical_divide_tiler(&self, tiler: &Tiler) -> Result<Layout> {
        self.logical_divide_tiler_as("logical_divide_tiler", tiler)
    }

    /// [`logical_divide_tiler`](Self::logical_divide_tiler) reporting its errors as `op`.
    pub(crate) fn logical_divide_tiler_as(
        &self,
        op: &'static str,
        tiler: &Tiler,
    ) -> Result<Layout> {
        self.apply_tiler(op, tiler, &|a, b| a.logical_divide_in(op, b))
    }

    /// `((tiles…), (rests…, trailing modes…))`: the divide by each tiler entry, its tiles
    /// gathered into mode 0 and its rests, with the modes the tiler does not reach, into
    /// mode 1. A kept mode (`Tiler::Keep`) goes whole to mode 1, with a `1:0` tile.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(12,32):(1,12)".parse().unwrap();
    /// let r = a.zipped_divide(&(&"(4,8)".parse::<strideweave::Shape>().unwrap()).into()).unwrap();
    /// assert_eq!(r.shape().to_string(), "((4,8),(3,4))");
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout> {
        self.zipped_divide_as("zipped_divide", tiler)
    }

    /// [`zipped_divide`](Self::zipped_divide) reporting its errors as `op`.
    pub(crate) fn zipped_divide_as(&self, op: &'static str, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = self.divide_halves(op, tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&tiles);
        b.layout(&rests);
        b.tuple(op)
    }

    /// The tiles and the rests of the divide by `tiler` (CuTe's `hier_unzip`).
    fn divide_halves(&self, op: &'static str, tiler: &Tiler) -> Result<(Layout, Layout)> {
        hier_unzip(op, self, tiler, &|a, b| a.logical_divide_in(op, b))
    }

    /// `((tiles…), rests…, trailing modes…)`: the [`zipped_divide`](Self::zipped_divide)
    /// with the rests as top-level modes.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(12,32):(1,12)".parse().unwrap();
    /// let r = a.tiled_divide(&(&"(4,8)".parse::<strideweave::Shape>().unwrap()).into()).unwrap();
    /// assert_eq!(r.shape().to_string(), "((4,8),3,4)");
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Layout> {
        self.tiled_divide_as("tiled_divide", tiler)
    }

    /// [`tiled_divide`](Self::tiled_divide) reporting its errors as `op`.
    pub(crate) fn tiled_divide_as(&self, op: &'static str, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = self.divide_halves(op, tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&tiles);
        b.modes_of(&rests);
        b.tuple(op)
    }

    /// `(tiles…, rests…, trailing modes…)`: the [`zipped_divide`](Self::zipped_divide) with
    /// both halves' modes as top-level modes (CuTe's `flat_divide`); a half of one mode stays
    /// one (nested) mode, as CuTe's slice by `_` leaves it.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(12,32):(1,12)".parse().unwrap();
    /// let r = a.flat_divide(&(&"(4,8)".parse::<strideweave::Shape>().unwrap()).into()).unwrap();
    /// assert_eq!(r.to_string(), "(4,8,3,4):(1,12,4,96)");
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Layout> {
        self.flat_divide_as("flat_divide", tiler)
    }

    /// [`flat_divide`](Self::flat_divide) reporting its errors as `op`.
    pub(crate) fn flat_divide_as(&self, op: &'static str, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = self.divide_halves(op, tiler)?;
        let mut b = LayoutBuilder::default();
        for half in [&tiles, &rests] {
            // A half of one mode stays as it is (CuTe slices it with `_`, not `(_)`).
            match half.rank() {
                1 => b.layout(half),
                _ => b.modes_of(half),
            }
        }
        b.tuple(op)
    }
}
