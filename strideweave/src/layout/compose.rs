//! Composition `R = A ∘ B`, `R(c) = A(B(c))`, as in CuTe's layout algebra.
//!
//! Semantics: a single-leaf right operand that lies wholly inside one mode of A is exact;
//! otherwise pycute's stride-divisibility condition, plus a shape-divisibility check on every
//! mode of A but the last (a result is rejected, never truncated), plus CuTe's `coalesce_x`
//! so that B may reach beyond A's domain through A's last mode, as in CuTe.

use crate::budget::{EXACT_STEPS, too_large};
use crate::error::{Error, Result};
use crate::layout::coalesce::{Modes, coalesce_in_place, coalesce_modes};
use crate::layout::core::Layout;
use crate::layout::int_tuple::Node;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::Tiler;

impl Layout {
    /// `self ∘ b`: the layout `R` with `R(c) = self(b(c))` for every coordinate `c` of `b`,
    /// with `b`'s hierarchy (composition distributes over `b`'s modes).
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "20:2".parse().unwrap();
    /// let b: Layout = "(5,4):(4,1)".parse().unwrap();
    /// assert_eq!(a.compose(&b).unwrap().to_string(), "(5,4):(8,2)");
    /// let a: Layout = "(6,2):(8,2)".parse().unwrap();
    /// let b: Layout = "(4,3):(3,1)".parse().unwrap();
    /// assert_eq!(a.compose(&b).unwrap().to_string(), "((2,2),3):((24,2),8)");
    /// // Truncation is refused: 6 elements do not tile A's first mode of 4.
    /// let a: Layout = "(4,6):(1,10)".parse().unwrap();
    /// assert!(a.compose(&"6:1".parse().unwrap()).is_err());
    /// ```
    pub fn compose(&self, b: &Layout) -> Result<Layout> {
        self.compose_in("compose", b)
    }

    /// [`compose`](Self::compose) reporting its errors as `op`, the operation the user
    /// called (a divide or a product composes too).
    pub(crate) fn compose_in(&self, op: &'static str, b: &Layout) -> Result<Layout> {
        let a = coalesce_modes(self.leaves().map(|(&s, &d)| (s, d)), true);
        let mut out = LayoutBuilder::default();
        match b.shape.0.node() {
            Node::Leaf(s) => {
                let d = b.stride.0.vals[0];
                let modes = compose_leaf(op, &a, s, d, true)?;
                return Layout::flat(op, &modes, true);
            }
            Node::Tuple(_) => {
                for (s, d) in b.top() {
                    compose_node(op, &a, s, d, &mut out)?;
                }
            }
        }
        let r = out.tuple(op)?;
        // Composition distributes over B's modes only when their images add without carrying
        // across A's modes. An injective B guarantees that under the divisibility conditions
        // above, and so does a B that is injective once its stride-0 modes are ignored (they
        // add 0 on both sides: a stride-0 leaf composes to a stride-0 leaf), and so does an A
        // that is linear (one coalesced mode). Otherwise the result is verified over B's
        // domain, within the work budget.
        let linear = a.len() <= 1;
        if !linear && !b.injective_ignoring_broadcast_in(op).unwrap_or(false) {
            let size = b.size() as u128;
            if size > EXACT_STEPS {
                return Err(too_large(
                    op,
                    format_args!(
                        "whether {self} ∘ {b} distributes over the modes of the non-injective right operand"
                    ),
                    size,
                ));
            }
            for i in 0..b.size() as i64 {
                if r.eval(i) != self.eval_extended(b.eval(i)) {
                    return Err(Error::not_representable(
                        op,
                        format!(
                            "{self} ∘ {b} does not distribute over the modes of the non-injective right operand (at ordinal {i})"
                        ),
                    ));
                }
            }
        }
        Ok(r)
    }

    /// Composition with a tiler: a layout composes as a 1-D function; a by-mode tiler
    /// composes each leading top-level mode with its entry and keeps the trailing modes.
    ///
    /// ```
    /// use strideweave::{Layout, Tiler};
    /// let a: Layout = "(4,3,2):(3,1,12)".parse().unwrap();
    /// let t = Tiler::by_mode([Tiler::from("2:1".parse::<Layout>().unwrap())]);
    /// assert_eq!(a.compose_tiler(&t).unwrap().to_string(), "(2,3,2):(3,1,12)");
    /// ```
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<Layout> {
        const OP: &str = "compose_tiler";
        self.apply_tiler(OP, tiler, &|a, b| a.compose_in(OP, b))
    }
}

fn compose_node(
    op: &'static str,
    a: &Modes,
    s: Node<'_>,
    d: Node<'_>,
    out: &mut LayoutBuilder,
) -> Result<()> {
    match (s, d) {
        (Node::Leaf(s), Node::Leaf(d)) => match compose_leaf(op, a, s, d, false)?.as_slice() {
            [(s, d)] => out.leaf(*s, *d),
            modes => {
                out.push();
                modes.iter().for_each(|&(s, d)| out.leaf(s, d));
                out.pop();
            }
        },
        (Node::Tuple(ss), Node::Tuple(ds)) => {
            out.push();
            for (s, d) in ss.zip(ds) {
                compose_node(op, a, s, d, out)?;
            }
            out.pop();
        }
        _ => unreachable!("a layout's shape and stride are congruent"),
    }
    Ok(())
}

/// `A ∘ s:d` for the coalesced (`coalesce_x`) modes of A, with errors as `op` (see
/// [`compose_leaf_rule`]).
fn compose_leaf(op: &'static str, a: &Modes, s: i64, d: i64, alone: bool) -> Result<Modes> {
    let mut out = Modes::from_fn(a.len().max(1), |_| (0, 0));
    let n = compose_leaf_rule(a, s, d, alone, &mut out).map_err(|f| f.error(op, s, d))?;
    out.truncate(n);
    Ok(out)
}

/// Why `A ∘ s:d` has no layout: the data of each message, worded by the front end (the
/// run-time words are [`ComposeFault::error`]'s; the static layouts word them alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ComposeFault {
    /// The right operand's stride is negative.
    NegativeStride,
    /// A stride of the result overflows `i64`.
    Overflow,
    /// `stride` neither divides nor is a multiple of the left operand's extent `extent`.
    StrideDivisibility { stride: i64, extent: i64 },
    /// `remaining` elements do not split evenly over `split` elements of the left operand's
    /// mode `extent:stride`.
    ShapeDivisibility {
        remaining: i64,
        split: i64,
        extent: i64,
        stride: i64,
    },
}

impl ComposeFault {
    /// The run-time error of composing with `s:d`, named `op`.
    pub(crate) fn error(self, op: &'static str, s: i64, d: i64) -> Error {
        match self {
            ComposeFault::NegativeStride => Error::NegativeStride {
                op,
                mode: "of the right operand".into(),
                stride: d,
            },
            ComposeFault::Overflow => Error::overflow(op, "a stride of the composition"),
            ComposeFault::StrideDivisibility { stride, extent } => Error::not_representable(
                op,
                format!(
                    "stride divisibility fails: the right operand's stride {stride} neither divides nor is a multiple of the left operand's extent {extent} (composing with {s}:{d})"
                ),
            ),
            ComposeFault::ShapeDivisibility {
                remaining,
                split,
                extent,
                stride,
            } => Error::not_representable(
                op,
                format!(
                    "shape divisibility fails: {remaining} remaining elements of {s}:{d} do not split evenly over {split} elements of the left operand's mode {extent}:{stride}"
                ),
            ),
        }
    }
}

/// The rule of composition with one leaf: `A ∘ s:d` for the coalesced (`coalesce_x`) modes
/// `a` of A — divide `d` out of A's shape from the left, then keep the first `s` elements.
/// Writes the coalesced flat modes of the result (`(s, 0)` alone for a stride-0 leaf) at the
/// start of `out` (room for `max(a.len(), 1)` modes) and returns their number. A `const fn`
/// over slices: the run-time algebra and the static layouts (`layout/fixed`) both call it.
///
/// With `alone` (B is this one leaf), a leaf lying wholly inside one mode of A is exact
/// whatever divides what. Inside a larger B that shortcut is unsound: the images of B's
/// leaves are added, and only the divisibility conditions keep those sums from carrying
/// across A's modes.
pub(crate) const fn compose_leaf_rule(
    a: &[(i64, i64)],
    s: i64,
    d: i64,
    alone: bool,
    out: &mut [(i64, i64)],
) -> std::result::Result<usize, ComposeFault> {
    if d == 0 || s == 1 {
        out[0] = (s, 0);
        return Ok(1);
    }
    if d < 0 {
        return Err(ComposeFault::NegativeStride);
    }
    let Some(&(_, last_d)) = a.last() else {
        // A is 1:0 (all unit modes).
        out[0] = (s, 0);
        return Ok(1);
    };
    let mut n = 0;
    let (mut rest_shape, mut rest_stride) = (s, d);
    let mut k = 0;
    while k + 1 < a.len() {
        let (cs, cd) = a[k];
        k += 1;
        if rest_shape == 1 {
            break;
        }
        if alone && matches!((rest_shape - 1).checked_mul(rest_stride), Some(last) if last < cs) {
            // Every remaining element lies inside this mode: exact, whatever divides what.
            let Some(stride) = rest_stride.checked_mul(cd) else {
                return Err(ComposeFault::Overflow);
            };
            out[n] = (rest_shape, stride);
            n += 1;
            rest_shape = 1;
            break;
        }
        if cs % rest_stride != 0 && rest_stride % cs != 0 {
            return Err(ComposeFault::StrideDivisibility {
                stride: rest_stride,
                extent: cs,
            });
        }
        let quotient = if cs / rest_stride > 1 {
            cs / rest_stride
        } else {
            1
        };
        let new_shape = if quotient < rest_shape {
            quotient
        } else {
            rest_shape
        };
        if new_shape != 1 {
            if rest_shape % new_shape != 0 {
                return Err(ComposeFault::ShapeDivisibility {
                    remaining: rest_shape,
                    split: new_shape,
                    extent: cs,
                    stride: cd,
                });
            }
            let Some(stride) = rest_stride.checked_mul(cd) else {
                return Err(ComposeFault::Overflow);
            };
            out[n] = (new_shape, stride);
            n += 1;
        }
        rest_shape /= new_shape;
        rest_stride = (rest_stride - 1) / cs + 1; // ⌈rest_stride / cs⌉ without overflow
    }
    if rest_shape != 1 || n == 0 {
        let Some(stride) = rest_stride.checked_mul(last_d) else {
            return Err(ComposeFault::Overflow);
        };
        out[n] = (rest_shape, stride);
        n += 1;
    }
    let (modes, _) = out.split_at_mut(n);
    let kept = coalesce_in_place(modes, false);
    if kept == 0 {
        out[0] = (1, 0);
        return Ok(1);
    }
    Ok(kept)
}
