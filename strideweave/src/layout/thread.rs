//! Layouts for threads: CuTe's `make_layout_tv`, `Layout::with_shape` and
//! `Layout::get_flat_coord`.

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::int_tuple::{IntTuple, Node};
use crate::layout::shape::Shape;

impl Layout {
    /// The thread-value layout of `thr` threads each holding `val` values (CuTe's
    /// `make_layout_tv`): `(thread, value) → ` the column-major ordinal of the element in the
    /// tile that [`raked_product`](Self::raked_product)`(thr, val)` covers. The tile's shape is
    /// that product's shape mode by mode (`thr`'s extent times `val`'s in each mode); its
    /// elements are reached by [`Tensor::partition_tv`](crate::Tensor::partition_tv).
    ///
    /// The layout is `right_inverse(raked_product(thr, val))` reshaped to
    /// `(size(thr), size(val))`; a `thr` or `val` whose raked product does not cover a
    /// contiguous tile (its right inverse is shorter than the tile) is an error.
    ///
    /// ```
    /// use strideweave::Layout;
    /// // 6 threads in a 2×3 row-major grid, each holding a 2×2 row-major block.
    /// let thr: Layout = "(2,3):(3,1)".parse()?;
    /// let val: Layout = "(2,2):(2,1)".parse()?;
    /// let tv = Layout::tv(&thr, &val)?;
    /// assert_eq!(tv.to_string(), "((3,2),(2,2)):((8,2),(4,1))");
    /// // Thread 1's values sit in rows 0–1 of columns 2–3 of the 4×6 tile.
    /// let held: Vec<i64> = (0..4).map(|v| tv.index(&[1, v].into())).collect::<Result<_, _>>()?;
    /// assert_eq!(held, [8, 12, 9, 13]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn tv(thr: &Layout, val: &Layout) -> Result<Layout> {
        const OP: &str = "Layout::tv";
        let mn = thr.raked_product_as(OP, val)?;
        let inverse = mn.right_inverse_as(OP)?;
        let (threads, values) = (thr.size(), val.size());
        if inverse.size() != mn.size() {
            return Err(Error::NotRepresentable {
                op: OP,
                reason: format!(
                    "the raked product {mn} of threads {thr} and values {val} does not cover a contiguous tile: its right inverse {inverse} reaches {} of its {} elements",
                    inverse.size(),
                    mn.size()
                ),
            });
        }
        let pairs = Shape::new(IntTuple::tuple([
            IntTuple::int(threads as i64),
            IntTuple::int(values as i64),
        ]))?;
        inverse.compose_in(OP, &Layout::compact(&pairs))
    }

    /// This layout read through the compact (first-mode-fastest) layout of `shape`, whose
    /// size must not exceed this one's (CuTe's `Layout::with_shape`: `composition(self,
    /// make_layout(shape))`).
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "24:2".parse()?;
    /// assert_eq!(l.with_shape(&"(4,6)".parse()?)?.to_string(), "(4,6):(2,8)");
    /// let err = l.with_shape(&"(5,6)".parse()?).unwrap_err();
    /// assert!(err.to_string().starts_with("with_shape: the shape (5,6) has 30 elements"));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn with_shape(&self, shape: &Shape) -> Result<Layout> {
        const OP: &str = "with_shape";
        if shape.size() > self.size() {
            return Err(Error::InvalidAxes {
                op: OP,
                detail: format!(
                    "the shape {shape} has {} elements, more than the {} of the layout {self}",
                    shape.size(),
                    self.size()
                ),
            });
        }
        self.compose_in(OP, &Layout::compact(shape))
    }

    /// The coordinate whose index is `index`, one integer per top-level mode (CuTe's
    /// `get_flat_coord`): each leaf's coordinate is `(index / stride) % extent`, and each
    /// top-level mode's leaves fold into its first-mode-fastest ordinal. A layout of rank 1
    /// gives an integer.
    ///
    /// `index` must lie in `[0, size)` and be an index the layout reaches (for a compact
    /// layout, every index in that range); a leaf of stride 0 and extent above 1 leaves the
    /// coordinate undetermined, an error too.
    ///
    /// ```
    /// use strideweave::Layout;
    /// // 32 threads in a 4×8 row-major grid: thread 13 is at row 1, column 5.
    /// let thr: Layout = "(4,8):(8,1)".parse()?;
    /// assert_eq!(thr.flat_coordinate(13)?.to_string(), "(1,5)");
    /// let nested: Layout = "((2,2),8):((1,16),2)".parse()?;
    /// assert_eq!(nested.flat_coordinate(19)?.to_string(), "(3,1)");
    /// assert!(thr.flat_coordinate(32).is_err());
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn flat_coordinate(&self, index: i64) -> Result<IntTuple> {
        self.flat_coordinate_as("flat_coordinate", index)
    }

    /// [`flat_coordinate`](Self::flat_coordinate) reporting errors as `op`.
    pub(crate) fn flat_coordinate_as(&self, op: &'static str, index: i64) -> Result<IntTuple> {
        let size = self.size() as i64;
        if !(0..size).contains(&index) {
            return Err(Error::OutOfDomain {
                op,
                what: "index",
                value: index,
                place: format!("the layout {self} of size {size}"),
                bound: size,
            });
        }
        // Each leaf's coordinate, then each top-level mode's ordinal.
        let mut leaf_coords = Vec::with_capacity(self.shape.leaves().len());
        for (&e, &d) in self.leaves() {
            let c = match d {
                0 if e > 1 => {
                    return Err(Error::NotRepresentable {
                        op,
                        reason: format!(
                            "the layout {self} has a leaf of extent {e} and stride 0: index {index} does not determine its coordinate"
                        ),
                    });
                }
                0 => 0,
                d => (index / d).rem_euclid(e),
            };
            leaf_coords.push(c);
        }
        let mut reached = 0i64;
        for (&c, (_, &d)) in leaf_coords.iter().zip(self.leaves()) {
            reached += c * d;
        }
        if reached != index {
            return Err(Error::InvalidRange {
                op,
                detail: format!(
                    "index {index} is not reached by the layout {self}: the coordinate of its leaves' quotients reaches {reached}"
                ),
            });
        }
        let mut leaves = leaf_coords.iter().copied();
        let ordinal = |n: Node<'_>, leaves: &mut dyn Iterator<Item = i64>| {
            let (mut ordinal, mut scale) = (0i64, 1i64);
            for &e in n.leaves() {
                ordinal += leaves.next().unwrap_or(0) * scale;
                scale *= e;
            }
            ordinal
        };
        if self.rank() == 1 {
            // One mode, an integer layout or a 1-tuple: an integer, as CuTe gives it.
            return Ok(IntTuple::int(ordinal(self.shape.0.node(), &mut leaves)));
        }
        let modes: Vec<IntTuple> = self
            .shape
            .0
            .seq()
            .map(|n| IntTuple::int(ordinal(n, &mut leaves)))
            .collect();
        Ok(IntTuple::tuple(modes))
    }
}
