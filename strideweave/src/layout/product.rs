//! Products: logical, blocked, raked, zipped and tiled (`layout-algebra.md` §10).

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::Tiler;

impl Layout {
    /// `A ⊗ B = (A, complement(A, size(A)·cosize(B)) ∘ B)`: mode 0 is A, mode 1 repeats A
    /// in B's pattern.
    ///
    /// ```
    /// let a: strideweave::Layout = "(2,2):(4,1)".parse().unwrap();
    /// let r = a.logical_product(&"6:1".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    pub fn logical_product(&self, b: &Layout) -> Result<Layout> {
        const OP: &str = "logical_product";
        b.require_non_negative(OP)?;
        let cotarget = self
            .size()
            .checked_mul(b.cosize())
            .ok_or_else(|| Error::overflow(OP, "size(A)·cosize(B)"))?;
        let repeat = self.complement(cotarget)?.compose(b)?;
        Layout::make(&[self.clone(), repeat])
    }

    /// The product by a tiler: a layout multiplies the whole; a by-mode tiler multiplies
    /// each leading top-level mode and keeps the trailing ones.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "(2,5):(5,1)".parse().unwrap();
    /// let t = Tiler::by_mode(["3:5", "4:6"].map(|s| Tiler::from(s.parse::<Layout>().unwrap())));
    /// assert_eq!(a.logical_product_tiler(&t).unwrap().to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    pub fn logical_product_tiler(&self, tiler: &Tiler) -> Result<Layout> {
        match tiler {
            Tiler::Keep => Ok(self.clone()),
            Tiler::Layout(b) => self.logical_product(b),
            Tiler::ByMode(ts) => {
                self.by_mode("logical_product", ts, |a, t| a.logical_product_tiler(t))
            }
        }
    }

    /// `((A modes…), (products…, trailing modes…))`.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "(3):(1)".parse().unwrap();
    /// let t = Tiler::by_mode([Tiler::from("6:1".parse::<Layout>().unwrap())]);
    /// assert_eq!(a.zipped_product(&t).unwrap().to_string(), "((3),(6)):((1),(3))");
    /// ```
    pub fn zipped_product(&self, tiler: &Tiler) -> Result<Layout> {
        let (firsts, seconds) = self.split_product(tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&firsts);
        b.layout(&seconds);
        b.tuple("zipped_product")
    }

    /// `((A modes…), products…, trailing modes…)`.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "((7,3)):((1,7))".parse().unwrap();
    /// let t = Tiler::by_mode([Tiler::from("(5):(1)".parse::<Layout>().unwrap())]);
    /// assert_eq!(a.tiled_product(&t).unwrap().to_string(), "(((7,3)),(5)):(((1,7)),(21))");
    /// ```
    pub fn tiled_product(&self, tiler: &Tiler) -> Result<Layout> {
        let (firsts, seconds) = self.split_product(tiler)?;
        let mut b = LayoutBuilder::default();
        b.layout(&firsts);
        b.modes_of(&seconds);
        b.tuple("tiled_product")
    }

    fn split_product(&self, tiler: &Tiler) -> Result<(Layout, Layout)> {
        match tiler {
            Tiler::ByMode(ts) => {
                let parts = self.logical_product_tiler(tiler)?.top_layouts();
                let (mut firsts, mut seconds) =
                    (LayoutBuilder::default(), LayoutBuilder::default());
                for (i, part) in parts.iter().enumerate() {
                    match ts.get(i) {
                        // A kept mode is not multiplied: like a trailing mode it goes whole to
                        // the second side, `(1:0, A_i)` (as pycute's `hier_unzip` and the
                        // divides do).
                        Some(Tiler::Keep) => {
                            firsts.leaf(1, 0);
                            seconds.layout(part);
                        }
                        Some(_) => {
                            firsts.layout(&part.mode(0)?);
                            seconds.layout(&part.mode(1)?);
                        }
                        None => seconds.layout(part),
                    }
                }
                Ok((
                    firsts.tuple("zipped_product")?,
                    seconds.tuple("zipped_product")?,
                ))
            }
            Tiler::Keep => Ok((
                Layout::flat("zipped_product", &[(1, 0)], true)?,
                self.clone(),
            )),
            Tiler::Layout(b) => {
                let p = self.logical_product(b)?;
                // `(A, repeats)` itself: the zipped form is that pair and the tiled form
                // splits the repeats' modes, as in CuTe and pycute.
                Ok((p.mode(0)?, p.mode(1)?))
            }
        }
    }

    /// Blocked product: with both padded to a common rank R by `1:0` modes and
    /// `P = A ⊗ B`, mode i is `(A_i, P1_i)` — each block of A repeated in B's pattern.
    ///
    /// ```
    /// let a: strideweave::Layout = "(2,5):(5,1)".parse().unwrap();
    /// let r = a.blocked_product(&"(3,4):(1,3)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    pub fn blocked_product(&self, b: &Layout) -> Result<Layout> {
        self.zip_product(b, "blocked_product", false)
    }

    /// Raked product: like [`blocked_product`](Self::blocked_product) with each mode
    /// `(P1_i, A_i)` — A's elements interleaved across B's pattern.
    ///
    /// ```
    /// let a: strideweave::Layout = "(2,5):(5,1)".parse().unwrap();
    /// let r = a.raked_product(&"(3,4):(1,3)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// ```
    pub fn raked_product(&self, b: &Layout) -> Result<Layout> {
        self.zip_product(b, "raked_product", true)
    }

    fn zip_product(&self, b: &Layout, op: &'static str, raked: bool) -> Result<Layout> {
        let rank = self.rank().max(b.rank());
        let a = self.pad_to_rank(rank, op)?;
        let b = b.pad_to_rank(rank, op)?;
        let p = a.logical_product(&b)?;
        let (firsts, seconds) = (p.mode(0)?.top_layouts(), p.mode(1)?.top_layouts());
        let mut out = LayoutBuilder::default();
        for (x, y) in firsts.iter().zip(&seconds) {
            let (x, y) = if raked { (y, x) } else { (x, y) };
            out.push();
            out.layout(x);
            out.layout(y);
            out.pop();
        }
        out.tuple(op)
    }

    /// The top-level modes followed by `1:0` modes up to `rank` (`append<R>` of CuTe).
    pub(crate) fn pad_to_rank(&self, rank: usize, op: &'static str) -> Result<Layout> {
        let mut b = LayoutBuilder::default();
        b.modes_of(self);
        for _ in self.rank()..rank {
            b.leaf(1, 0);
        }
        b.tuple(op)
    }
}
