//! Division: logical, zipped and tiled divide (`layout-algebra.md` §9).

use crate::error::Result;
use crate::layout::core::Layout;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::Tiler;

impl Layout {
    /// `A / B = A ∘ (B, complement(B, size(A)))`: mode 0 is the tile `A ∘ B`, mode 1 walks
    /// the tiles. If B does not divide A evenly the rest rounds up.
    ///
    /// A tile larger than A is allowed (CuTe and pycute accept it): the complement's cotarget
    /// is `max(size(A), size(B))`, which gives CuTe's `complement(B, size(A))` exactly, since
    /// an injective B already spans at least `size(B)`, while `complement` itself requires a
    /// cotarget of at least the size of its operand (contracts L13).
    ///
    /// ```
    /// let a: strideweave::Layout = "(4,2,3):(2,1,8)".parse().unwrap();
    /// let r = a.logical_divide(&"4:2".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// let small: strideweave::Layout = "4:1".parse().unwrap();
    /// let r = small.logical_divide(&"8:2".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(8,2):(2,1)");
    /// ```
    pub fn logical_divide(&self, b: &Layout) -> Result<Layout> {
        let rest = b.complement(self.size().max(b.size()))?;
        self.compose(&Layout::make(&[b.clone(), rest])?)
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
        match tiler {
            Tiler::Keep => Ok(self.clone()),
            Tiler::Layout(b) => self.logical_divide(b),
            Tiler::ByMode(ts) => {
                self.by_mode("logical_divide", ts, |a, t| a.logical_divide_tiler(t))
            }
        }
    }

    /// `((tiles…), (rests…, trailing modes…))`.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(12,32):(1,12)".parse().unwrap();
    /// let r = a.zipped_divide(&(&"(4,8)".parse::<strideweave::Shape>().unwrap()).into()).unwrap();
    /// assert_eq!(r.shape().to_string(), "((4,8),(3,4))");
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = self.split_divided(tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&tiles);
        b.layout(&rests);
        b.tuple("zipped_divide")
    }

    /// `((tiles…), rests…, trailing modes…)`.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(12,32):(1,12)".parse().unwrap();
    /// let r = a.tiled_divide(&(&"(4,8)".parse::<strideweave::Shape>().unwrap()).into()).unwrap();
    /// assert_eq!(r.shape().to_string(), "((4,8),3,4)");
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = self.split_divided(tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&tiles);
        b.modes_of(&rests);
        b.tuple("tiled_divide")
    }

    /// The tile modes and the rest modes of a division, each as a tuple layout.
    fn split_divided(&self, tiler: &Tiler) -> Result<(Layout, Layout)> {
        match tiler {
            Tiler::ByMode(ts) => {
                let modes = self.top_layouts();
                let divided = self.logical_divide_tiler(tiler)?;
                let parts = divided.top_layouts();
                let (mut tiles, mut rests) = (LayoutBuilder::default(), LayoutBuilder::default());
                for (i, part) in parts.iter().enumerate() {
                    match ts.get(i) {
                        // A kept mode goes whole to the rest side.
                        Some(Tiler::Keep) => {
                            tiles.leaf(1, 0);
                            rests.layout(&modes[i]);
                        }
                        Some(_) => {
                            tiles.layout(&part.mode(0)?);
                            rests.layout(&part.mode(1)?);
                        }
                        None => rests.layout(part),
                    }
                }
                Ok((tiles.tuple("zipped_divide")?, rests.tuple("zipped_divide")?))
            }
            _ => {
                let divided = self.logical_divide_tiler(tiler)?;
                match tiler {
                    Tiler::Keep => Ok((Layout::flat("zipped_divide", &[(1, 0)], true)?, divided)),
                    // A layout tiler: the division is `(tile, rest)` itself, so the zipped
                    // form is that pair and the tiled form splits the rest's modes, as in
                    // CuTe and pycute (not a rest wrapped in one more tuple level).
                    _ => Ok((divided.mode(0)?, divided.mode(1)?)),
                }
            }
        }
    }
}
