//! The rules a shape or layout literal obeys (every extent at least 1, a stride congruent with
//! its shape, a size and a reach that fit in `i64`) and the compact strides of a shape,
//! generic over where each part came from.
//!
//! Every independent mistake is reported once, at its part; a check whose outcome would only
//! repeat an earlier mistake (the size of a shape with a zero extent, the reach of an
//! incongruent layout) is skipped.

use crate::mistake::{LayoutError, LayoutMistake, Part};
use crate::tuple::Tuple;

/// The mistakes found, in the order of the text. Never empty when returned as an error.
pub type Mistakes<S> = Vec<LayoutError<S>>;

/// The leaf values of a literal that obeys the rules, in depth-first order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedLayout {
    /// The extents.
    pub extents: Vec<i64>,
    /// The strides: as written, or the compact ones when none were written.
    pub strides: Vec<i64>,
}

/// Checks a shape: at most [`MAX_NESTING`](crate::MAX_NESTING) levels deep, every extent
/// at least 1, then the size fits in `i64`. Returns the
/// extents.
///
/// ```
/// use strideweave_syntax::{check_shape, parse_shape};
/// assert_eq!(check_shape(&parse_shape("(2,(3,4))").unwrap()).unwrap(), [2, 3, 4]);
/// let errs = check_shape(&parse_shape("(2,(0,-4))").unwrap()).unwrap_err();
/// assert_eq!(errs[0].to_string(), "extent 0 at mode 1.0 must be at least 1");
/// assert_eq!(errs[1].position, 6..8);
/// ```
pub fn check_shape<S: Clone>(shape: &Tuple<S>) -> Result<Vec<i64>, Mistakes<S>> {
    if let Some(e) = shape.too_deep() {
        return Err(vec![e]);
    }
    let leaves = leaves(shape);
    let mistakes = extents(&leaves);
    if !mistakes.is_empty() {
        return Err(mistakes);
    }
    size(&leaves).map_err(|e| vec![e])?;
    Ok(leaves.iter().map(|l| l.value).collect())
}

/// Checks a layout: at most [`MAX_NESTING`](crate::MAX_NESTING) levels deep, every extent
/// at least 1, the stride congruent with the shape, the size
/// and the reach (the smallest and the largest index) fit in `i64`. Without a stride, gives
/// the compact strides of the shape.
///
/// ```
/// use strideweave_syntax::{check_layout, parse_layout, parse_shape};
/// let (shape, stride) = parse_layout("(2,(3,4)):(1,(2,6))").unwrap();
/// assert_eq!(check_layout(&shape, Some(&stride)).unwrap().strides, [1, 2, 6]);
/// let shape = parse_shape("(2,(3,4))").unwrap();
/// assert_eq!(check_layout(&shape, None).unwrap().strides, [1, 2, 6]);
/// let (shape, stride) = parse_layout("(2,(3,4)):(1,2)").unwrap();
/// let errs = check_layout(&shape, Some(&stride)).unwrap_err();
/// assert_eq!(errs[0].to_string(), "stride (1,2) is not congruent with shape (2,(3,4)): \
///     at mode 1 the shape has a tuple of 2 modes, the stride a leaf");
/// ```
pub fn check_layout<S: Clone>(
    shape: &Tuple<S>,
    stride: Option<&Tuple<S>>,
) -> Result<CheckedLayout, Mistakes<S>> {
    // A tuple built by hand may nest without limit; the walks below recurse.
    if let Some(e) = [Some(shape), stride]
        .into_iter()
        .flatten()
        .find_map(Tuple::too_deep)
    {
        return Err(vec![e]);
    }
    let shape_leaves = leaves(shape);
    let mut mistakes = extents(&shape_leaves);
    if let Some(stride) = stride {
        mistakes.extend(congruent(shape, stride).err());
    }
    if mistakes.is_empty() {
        mistakes.extend(size(&shape_leaves).err());
    }
    if !mistakes.is_empty() {
        return Err(mistakes);
    }
    let extents: Vec<i64> = shape_leaves.iter().map(|l| l.value).collect();
    let strides = match stride {
        None => compact_strides(extents.iter().copied()).collect(),
        Some(stride) => {
            let stride = leaves(stride);
            reach(&shape_leaves, &stride).map_err(|e| vec![e])?;
            stride.iter().map(|l| l.value).collect()
        }
    };
    Ok(CheckedLayout { extents, strides })
}

/// The compact, first-mode-fastest strides of the extents: each is the product of the
/// extents before it. Exact when the size fits in `i64` (as [`check_shape`] ensures);
/// saturates otherwise.
///
/// ```
/// let d: Vec<i64> = strideweave_syntax::compact_strides([2, 3, 4]).collect();
/// assert_eq!(d, [1, 2, 6]);
/// ```
pub fn compact_strides(extents: impl IntoIterator<Item = i64>) -> impl Iterator<Item = i64> {
    extents.into_iter().scan(1i64, |acc, e| {
        let d = *acc;
        *acc = acc.saturating_mul(e);
        Some(d)
    })
}

/// A leaf with its position and its mode path (`1.0`: child 0 of top-level mode 1).
struct Leaf<'a, S> {
    value: i64,
    at: &'a S,
    path: String,
}

/// The leaves in depth-first order. An integer root is mode `0`, as in the runtime's messages.
fn leaves<S>(t: &Tuple<S>) -> Vec<Leaf<'_, S>> {
    fn go<'a, S>(t: &'a Tuple<S>, path: &mut Vec<usize>, out: &mut Vec<Leaf<'a, S>>) {
        match t {
            Tuple::Int(value, at) => out.push(Leaf {
                value: *value,
                at,
                path: mode_path(path),
            }),
            Tuple::Tuple(items, _) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(i);
                    go(item, path, out);
                    path.pop();
                }
            }
        }
    }
    let mut out = Vec::new();
    let root = match t {
        Tuple::Int(..) => vec![0],
        Tuple::Tuple(..) => Vec::new(),
    };
    go(t, &mut { root }, &mut out);
    out
}

fn mode_path(path: &[usize]) -> String {
    path.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// Every extent below 1, each at its leaf.
fn extents<S: Clone>(shape: &[Leaf<'_, S>]) -> Mistakes<S> {
    shape
        .iter()
        .filter(|l| l.value < 1)
        .map(|l| LayoutError {
            position: l.at.clone(),
            mistake: LayoutMistake::ExtentBelowOne {
                extent: l.value,
                mode: l.path.clone(),
            },
        })
        .collect()
}

/// The size (product of the extents) fits in `i64`; blames the extent that overflows it.
fn size<S: Clone>(shape: &[Leaf<'_, S>]) -> Result<i64, LayoutError<S>> {
    let mut acc = 1i64;
    for l in shape {
        acc = acc.checked_mul(l.value).ok_or_else(|| LayoutError {
            position: l.at.clone(),
            mistake: LayoutMistake::SizeOverflow {
                size: acc,
                extent: l.value,
                mode: l.path.clone(),
            },
        })?;
    }
    Ok(acc)
}

/// The reach `[Σ negative spans, Σ positive spans]`, span = (extent − 1) × stride, fits in
/// `i64`; blames the stride that overflows it.
fn reach<S: Clone>(
    shape: &[Leaf<'_, S>],
    stride: &[Leaf<'_, S>],
) -> Result<(i64, i64), LayoutError<S>> {
    let (mut lo, mut hi) = (0i64, 0i64);
    for (s, d) in shape.iter().zip(stride) {
        let fail = |mistake| LayoutError {
            position: d.at.clone(),
            mistake,
        };
        let span = (s.value - 1).checked_mul(d.value).ok_or_else(|| {
            fail(LayoutMistake::SpanOverflow {
                extent: s.value,
                stride: d.value,
                mode: s.path.clone(),
            })
        })?;
        let end = if span < 0 { &mut lo } else { &mut hi };
        *end = end.checked_add(span).ok_or_else(|| {
            fail(LayoutMistake::ReachOverflow {
                reach: *end,
                extent: s.value,
                stride: d.value,
                mode: s.path.clone(),
            })
        })?;
    }
    Ok((lo, hi))
}

/// Checks that a stride has the shape's leaf-and-nesting structure, at the stride's part
/// where they first differ. At the root an integer and a one-element tuple are the same (one
/// top-level mode); inside, a one-element tuple is a real level.
fn congruent<S: Clone>(shape: &Tuple<S>, stride: &Tuple<S>) -> Result<(), LayoutError<S>> {
    let differ = |d: &Tuple<S>, mode: &[usize], a: &Tuple<S>| LayoutError {
        position: d.span().clone(),
        mistake: LayoutMistake::NotCongruent {
            shape: shape.to_string(),
            stride: stride.to_string(),
            mode: (!mode.is_empty()).then(|| mode_path(mode)),
            shape_has: part(a),
            stride_has: part(d),
        },
    };
    fn go<'a, S>(
        a: &'a Tuple<S>,
        d: &'a Tuple<S>,
        mode: &mut Vec<usize>,
    ) -> Result<(), Difference<'a, S>> {
        match (a, d) {
            (Tuple::Int(..), Tuple::Int(..)) => Ok(()),
            (Tuple::Tuple(x, _), Tuple::Tuple(y, _)) if x.len() == y.len() => {
                for (i, (x, y)) in x.iter().zip(y).enumerate() {
                    mode.push(i);
                    go(x, y, mode)?;
                    mode.pop();
                }
                Ok(())
            }
            _ => Err((d, mode.clone(), a)),
        }
    }
    let result = match (shape, stride) {
        // Root rule: `n` and `(n)` denote one top-level mode.
        (Tuple::Int(..), Tuple::Tuple(items, _)) if items.len() == 1 => {
            go(shape, &items[0], &mut vec![0])
        }
        (Tuple::Tuple(items, _), Tuple::Int(..)) if items.len() == 1 => {
            go(&items[0], stride, &mut vec![0])
        }
        _ => go(shape, stride, &mut Vec::new()),
    };
    result.map_err(|(d, mode, a)| differ(d, &mode, a))
}

/// Where a stride first differs from its shape: its part there, the mode path, the shape's
/// part there.
type Difference<'a, S> = (&'a Tuple<S>, Vec<usize>, &'a Tuple<S>);

fn part<S>(t: &Tuple<S>) -> Part {
    match t {
        Tuple::Int(..) => Part::Leaf,
        Tuple::Tuple(items, _) => Part::Tuple(items.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_layout, parse_shape};

    fn check(text: &str) -> Result<CheckedLayout, Vec<String>> {
        let (shape, stride) = parse_layout(text).unwrap();
        check_layout(&shape, Some(&stride))
            .map_err(|es| es.iter().map(|e| e.render(text)).collect())
    }

    #[test]
    fn a_valid_layout_gives_its_leaves() {
        let c = check("(2,(3,4)):(1,(2,6))").unwrap();
        assert_eq!((c.extents, c.strides), (vec![2, 3, 4], vec![1, 2, 6]));
        assert_eq!(check("8:1").unwrap().extents, [8]);
        assert!(check("():()").unwrap().extents.is_empty());
        // The root rule: `8` and `(8)` are one mode.
        check("8:(1)").unwrap();
        check("(8):1").unwrap();
    }

    #[test]
    fn every_bad_extent_is_reported_with_its_mode() {
        let es = check("(2,(0,-4)):(1,(2,6))").unwrap_err();
        assert_eq!(
            es,
            [
                "extent 0 at mode 1.0 must be at least 1\n  (2,(0,-4)):(1,(2,6))\n      ^",
                "extent -4 at mode 1.1 must be at least 1\n  (2,(0,-4)):(1,(2,6))\n        ^^"
            ]
        );
        let es = check("0:1").unwrap_err();
        assert!(es[0].starts_with("extent 0 at mode 0 must"), "{}", es[0]);
    }

    #[test]
    fn incongruence_names_both_structures_at_the_stride_part() {
        let es = check("(2,(3,4)):(1,2)").unwrap_err();
        assert_eq!(
            es,
            [
                "stride (1,2) is not congruent with shape (2,(3,4)): at mode 1 the shape has a \
              tuple of 2 modes, the stride a leaf\n  (2,(3,4)):(1,2)\n               ^"
            ]
        );
        let es = check("(2,3,4):(1,2)").unwrap_err();
        assert!(
            es[0].contains(
                "at the root the shape has a tuple of 3 modes, the stride a tuple of 2 modes"
            ),
            "{}",
            es[0]
        );
        let es = check("8:(1,2)").unwrap_err();
        assert!(
            es[0].contains("shape 8: at the root the shape has a leaf"),
            "{}",
            es[0]
        );
        let es = check("(8):((1))").unwrap_err();
        assert!(es[0].contains("at mode 0 the shape has a leaf, the stride a tuple of 1 mode"));
    }

    #[test]
    fn overflow_of_size_and_reach_is_caught() {
        let es = check("(4294967296,4294967296):(1,1)").unwrap_err();
        assert!(es[0].starts_with("the size of the shape, the product of its extents, overflows i64 at mode 1: 4294967296 × 4294967296 > 9223372036854775807\n"), "{}", es[0]);
        let es = check("(2,2):(9223372036854775807,1)").unwrap_err();
        assert!(es[0].contains("largest index"), "{}", es[0]);
        let es = check("(2,2):(-9223372036854775807,-2)").unwrap_err();
        assert!(es[0].contains("smallest index"), "{}", es[0]);
        assert!(es[0].contains("-9223372036854775807 + (2 - 1) × -2 < -9223372036854775808"));
        let es = check("(3):(9223372036854775807)").unwrap_err();
        assert!(
            es[0].contains("(extent 3 - 1) × stride 9223372036854775807"),
            "{}",
            es[0]
        );
        // The extremes themselves are fine.
        check("(2,2):(9223372036854775806,1)").unwrap();
        check("(2,2):(-9223372036854775807,-1)").unwrap();
    }

    #[test]
    fn compact_strides_are_first_mode_fastest() {
        let shape = parse_shape("(2,(3,4))").unwrap();
        assert_eq!(check_layout(&shape, None).unwrap().strides, [1, 2, 6]);
        let shape = parse_shape("(4294967296,4294967296)").unwrap();
        assert!(check_layout(&shape, None).is_err());
    }

    #[test]
    fn shapes_check_extents_then_size() {
        let t = parse_shape("(2,0)").unwrap();
        assert_eq!(
            check_shape(&t).unwrap_err()[0].to_string(),
            "extent 0 at mode 1 must be at least 1"
        );
        assert_eq!(check_shape(&parse_shape("8").unwrap()).unwrap(), [8]);
    }
}
