//! Products: logical, blocked, raked, zipped and tiled, as in CuTe's layout algebra.

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::{Tiler, halves, hier_unzip};

impl Layout {
    /// `A ⊗ B = (A, complement(A, size(A)·cosize(B)) ∘ B)`: mode 0 is A, mode 1 repeats A
    /// in B's pattern.
    ///
    /// A broadcast A (stride 0) works as in CuTe: its stride-0 modes are ignored by the
    /// complement, so `3:0 ⊗ 4:1` is `(3,4):(0,1)`.
    ///
    /// Errors name `logical_product`: a negative stride in A or B, an A that is not
    /// injective once its stride-0 modes are ignored, a complement or a composition no
    /// layout represents.
    ///
    /// ```
    /// let a: strideweave::Layout = "(2,2):(4,1)".parse().unwrap();
    /// let r = a.logical_product(&"6:1".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// let broadcast: strideweave::Layout = "3:0".parse().unwrap();
    /// let r = broadcast.logical_product(&"4:1".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(3,4):(0,1)");
    /// ```
    pub fn logical_product(&self, b: &Layout) -> Result<Layout> {
        self.logical_product_in("logical_product", b)
    }

    /// [`logical_product`](Self::logical_product) reporting its errors as `op`.
    fn logical_product_in(&self, op: &'static str, b: &Layout) -> Result<Layout> {
        b.require_non_negative(op)?;
        let cotarget = self
            .size()
            .checked_mul(b.cosize())
            .ok_or_else(|| Error::overflow(op, "size(A)·cosize(B)"))?;
        let repeat = self.complement_in(op, cotarget)?.compose_in(op, b)?;
        let mut pair = LayoutBuilder::default();
        pair.layout(self);
        pair.layout(&repeat);
        pair.tuple(op)
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
        const OP: &str = "logical_product_tiler";
        self.apply_tiler(OP, tiler, &|a, b| a.logical_product_in(OP, b))
    }

    /// `((A modes…), (products…, trailing modes…))`: the product by each tiler entry, its
    /// A halves gathered into mode 0 and its repeats, with the modes the tiler does not
    /// reach, into mode 1. A kept mode (`Tiler::Keep`) goes whole to mode 1, with `1:0` in
    /// mode 0.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "(3):(1)".parse().unwrap();
    /// let t = Tiler::by_mode([Tiler::from("6:1".parse::<Layout>().unwrap())]);
    /// assert_eq!(a.zipped_product(&t).unwrap().to_string(), "((3),(6)):((1),(3))");
    /// ```
    pub fn zipped_product(&self, tiler: &Tiler) -> Result<Layout> {
        const OP: &str = "zipped_product";
        let (firsts, seconds) = hier_unzip(OP, self, tiler, &|a, b| a.logical_product_in(OP, b))?;
        let mut b = LayoutBuilder::default();
        b.layout(&firsts);
        b.layout(&seconds);
        b.tuple(OP)
    }

    /// `((A modes…), products…, trailing modes…)`: the
    /// [`zipped_product`](Self::zipped_product) with the products as top-level modes.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "((7,3)):((1,7))".parse().unwrap();
    /// let t = Tiler::by_mode([Tiler::from("(5):(1)".parse::<Layout>().unwrap())]);
    /// assert_eq!(a.tiled_product(&t).unwrap().to_string(), "(((7,3)),(5)):(((1,7)),(21))");
    /// ```
    pub fn tiled_product(&self, tiler: &Tiler) -> Result<Layout> {
        const OP: &str = "tiled_product";
        let (firsts, seconds) = hier_unzip(OP, self, tiler, &|a, b| a.logical_product_in(OP, b))?;
        let mut b = LayoutBuilder::default();
        b.layout(&firsts);
        b.modes_of(&seconds);
        b.tuple(OP)
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

    /// [`raked_product`](Self::raked_product) reporting its errors as `op`.
    pub(crate) fn raked_product_as(&self, op: &'static str, b: &Layout) -> Result<Layout> {
        self.zip_product(b, op, true)
    }

    fn zip_product(&self, b: &Layout, op: &'static str, raked: bool) -> Result<Layout> {
        let rank = self.rank().max(b.rank());
        let a = self.pad_to_rank(rank, op)?;
        let b = b.pad_to_rank(rank, op)?;
        let (first, second) = halves(&a.logical_product_in(op, &b)?);
        let (firsts, seconds) = (first.top_layouts(), second.top_layouts());
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
