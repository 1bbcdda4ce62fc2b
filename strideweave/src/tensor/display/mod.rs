//! `Display` for tensors: the values in nested brackets, mode 0 outermost, as numpy and
//! PyTorch print the same logical array, under a header with the dtype, shape and layout.
//! Only the printed elements are read (`values`); `text` lays them out.

mod text;
mod values;

use std::fmt;

use crate::layout::Layout;
use crate::layout::picture::Axis;
use crate::tensor::Tensor;

/// Beyond this many elements a tensor prints summarised (numpy's `threshold`).
pub(crate) const THRESHOLD: usize = 1000;
/// A summarised mode longer than `2 × EDGE` shows its first and last `EDGE` positions
/// (numpy's `edgeitems`).
pub(crate) const EDGE: usize = 3;
/// The most elements one print reads: a summarised tensor of many long-enough modes
/// (rank 40 of extent 2: 2^40 elements, none summarised) prints a note instead.
pub(crate) const MAX_PRINTED: usize = 1 << 16;

impl fmt::Display for Tensor {
    /// The tensor as numpy prints an array, under a header line:
    ///
    /// - the header names the dtype, the shape and the layout (and the offset when it is not
    ///   0); the alternate form `{:#}` prints the values alone;
    /// - brackets nest by top-level mode, **mode 0 outermost** (a `(2,3)` tensor prints as 2
    ///   rows of 3, the element `[i][j]` being coordinate `(i,j)`); a rank-0 tensor prints
    ///   its one value bare;
    /// - a **hierarchical mode** prints as one axis through its flat coordinate (its first
    ///   child fastest, the integer coordinate [`Tensor::get`] accepts at that mode), with
    ///   its groups — the runs of its first child — separated by ` | ` inside a row and by a
    ///   line of `-` between rows or blocks;
    /// - `{:.N}` prints floating and complex values with `N` decimals (otherwise in their
    ///   shortest round-trip form, `1.0`, `0.1`, `1e20`); integers and bools ignore it;
    ///   complex values print as `1.0+2.0i`, f16/bf16 through `f32`;
    /// - a tensor of more than 1000 elements prints **summarised** (numpy's `threshold` and
    ///   `edgeitems`): a mode longer than 6 shows its first and last 3 positions with `…`
    ///   between; only the printed elements are read, so a broadcast of 2^40 elements prints
    ///   at once;
    /// - a block-scaled tensor prints its dequantized values, `code × scale`, computed for
    ///   the printed elements only;
    /// - values that cannot be read (a carrier released, or held by a write on this thread)
    ///   print as a note with the reason: `Display` never fails or panics.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<f32>(&"(2,3)".parse()?);
    /// assert_eq!(t.to_string(), "\
    /// Tensor of f32, shape (2,3), layout (2,3):(1,2)
    /// [[0.0 2.0 4.0]
    ///  [1.0 3.0 5.0]]");
    /// assert_eq!(format!("{:#.2}", t.permute(&[1, 0])?), "\
    /// [[0.00 1.00]
    ///  [2.00 3.00]
    ///  [4.00 5.00]]");
    /// let h = Tensor::arange::<i32>(&"(2,(2,3))".parse()?);
    /// assert_eq!(format!("{h:#}"), "\
    /// [[ 0  2 |  4  6 |  8 10]
    ///  [ 1  3 |  5  7 |  9 11]]");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_display("Tensor", f)
    }
}

impl Tensor {
    /// [`Display`](fmt::Display) under a header naming `kind` (`Tensor`, `StaticTensor`).
    pub(crate) fn write_display(&self, kind: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            write!(
                f,
                "{kind} of {}, shape {}, layout {}",
                self.dtype(),
                self.shape(),
                self.layout()
            )?;
            if self.offset() != 0 {
                write!(f, ", offset {}", self.offset())?;
            }
            if !self.dtype().is_plain() {
                f.write_str(", values dequantized")?;
            }
            f.write_str("\n")?;
        }
        let axes = axes_of(self.layout(), self.size());
        let count = axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.shown.len()))
            .filter(|&n| n <= MAX_PRINTED);
        let Some(count) = count else {
            return write!(
                f,
                "[… {} elements in {} modes: too many to show, even summarised]",
                self.size(),
                self.rank()
            );
        };
        match values::read(self, &axes, count) {
            Ok(values) => text::write(f, &axes, &values, f.precision()),
            Err(e) => write!(f, "[… the values cannot be read: {e}]"),
        }
    }
}

/// The printed axes of `layout` (one per top-level mode), summarised when the tensor has
/// more than [`THRESHOLD`] elements.
pub(crate) fn axes_of(layout: &Layout, size: usize) -> Vec<Axis> {
    let edge = (size > THRESHOLD).then_some(EDGE);
    layout
        .top_layouts()
        .iter()
        .map(|m| Axis::of(m, edge))
        .collect()
}

#[cfg(all(test, feature = "half"))]
mod half_tests {
    use crate::Tensor;
    use half::{bf16, f16};

    #[test]
    fn display_f16_and_bf16_print_through_f32() {
        let v: Vec<f16> = [0.5, -2.0, 1.0 / 3.0]
            .iter()
            .map(|&x| f16::from_f64(x))
            .collect();
        let t = Tensor::from_vec(v, &"3".parse().unwrap()).unwrap();
        assert_eq!(
            t.to_string(),
            "Tensor of f16, shape 3, layout 3:1\n[       0.5       -2.0 0.33325195]"
        );
        assert_eq!(format!("{t:#.3}"), "[ 0.500 -2.000  0.333]");
        let b: Vec<bf16> = [1.5, 256.0].iter().map(|&x| bf16::from_f64(x)).collect();
        let b = Tensor::from_vec(b, &"(1,2)".parse().unwrap()).unwrap();
        assert_eq!(
            b.to_string(),
            "Tensor of bf16, shape (1,2), layout (1,2):(1,1)\n[[  1.5 256.0]]"
        );
    }
}
