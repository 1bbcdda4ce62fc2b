//! einops' right-side groups, each one flat mode (`strideweave::einops`).
//!
//! The engine builds a right-side group as one nested mode (`(a b)` → `(2,3)`); einops
//! gives one flat axis (`6`). After the engine has run on the mirrored pattern
//! (`EncodedPattern::mirror_groups`), each group's mode holds its members fastest first,
//! except the modes a `...` captures inside a group, which keep the top-level order and so
//! run slowest first. Two views finish the job:
//!
//! 1. [`Tensor::einops_nested`]: each group's mode as one tuple of its leaves, fastest
//!    first (a reordering of leaves: any layout of the shape takes it);
//! 2. [`Tensor::einops_flat`]: each such tuple as one leaf, possible exactly when its leaves
//!    coalesce (`layout/coalesce.rs::coalesce_modes`: each stride is the previous leaf's
//!    stride times its extent, extent-1 leaves ignored). Otherwise the call is an error that
//!    names the group and its strides and says to materialize first: never a silent copy.
//!
//! A compact layout of the nested shape always coalesces, so `materialize` of the nested
//! view, then the flat view, is einops' copy.

use std::ops::Range;

use crate::error::{Error, Result};
use crate::layout::{Layout, ProfileToken, Shape};
use crate::pattern::{MSG_CAP, Msg, PatternRef, Side, TokKind, finish};
use crate::tensor::Tensor;

/// One top-level mode of a shape: its leaves (depth-first indices) and its children (none
/// for a leaf).
struct Node {
    leaves: Range<usize>,
    children: Vec<Node>,
    leaf: bool,
}

/// The top-level modes of a shape as a tree (bounded by the nesting limit of shapes).
fn tree(shape: &Shape) -> Vec<Node> {
    let mut stack: Vec<(usize, Vec<Node>)> = vec![(0, Vec::new())];
    let mut leaf = 0;
    for t in shape.profile() {
        match t {
            ProfileToken::Leaf => {
                if let Some((_, nodes)) = stack.last_mut() {
                    nodes.push(Node {
                        leaves: leaf..leaf + 1,
                        children: Vec::new(),
                        leaf: true,
                    });
                }
                leaf += 1;
            }
            ProfileToken::Push => stack.push((leaf, Vec::new())),
            ProfileToken::Pop => {
                if stack.len() > 1
                    && let Some((first, children)) = stack.pop()
                    && let Some((_, nodes)) = stack.last_mut()
                {
                    nodes.push(Node {
                        leaves: first..leaf,
                        children,
                        leaf: false,
                    });
                }
            }
        }
    }
    stack.pop().map(|(_, nodes)| nodes).unwrap_or_default()
}

/// The group of one top-level result mode: its `(` on the right side, and its leaves (the
/// result's depth-first indices) fastest first, each with the member it comes from.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    open: usize,
    order: Vec<(usize, usize)>,
}

/// Per top-level mode of an engine result, its group (`None`: not a group).
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    modes: Vec<Option<Group>>,
}

impl Groups {
    /// The groups of `right` (a mirrored right side) in `shape`, the shape the engine made
    /// from it; `None` when the side has no group (the result is the engine's as it is).
    pub(crate) fn of(shape: &Shape, right: &Side<'_>) -> Result<Option<Groups>> {
        if !(0..right.len()).any(|i| matches!(right.kind(i), TokKind::Open)) {
            return Ok(None);
        }
        let nodes = tree(shape);
        let mut groups = Groups::default();
        let terms = level(right, 0, right.len());
        let k = captured(&terms, nodes.len())?;
        let mut n = 0;
        for &i in &terms {
            match right.kind(i) {
                TokKind::Ellipsis => {
                    groups.modes.extend((0..k).map(|_| None));
                    n += k;
                }
                TokKind::Open => {
                    let node = nodes.get(n).ok_or_else(mismatch)?;
                    let mut order = Vec::new();
                    members(right, i, node, &mut order)?;
                    groups.modes.push(Some(Group { open: i, order }));
                    n += 1;
                }
                _ => {
                    groups.modes.push(None);
                    n += 1;
                }
            }
        }
        if n != nodes.len() {
            return Err(mismatch());
        }
        Ok(Some(groups))
    }

    /// Whether some group's leaves are not in depth-first order (a `...` of two or more
    /// modes inside a group).
    fn reordered(&self) -> bool {
        self.modes
            .iter()
            .flatten()
            .any(|g| g.order.windows(2).any(|w| w[1].0 != w[0].0 + 1))
    }
}

/// An engine result whose modes do not match its own pattern: a defect, never user input.
fn mismatch() -> Error {
    Error::Runtime {
        op: "einops",
        detail: "the engine's result does not match the pattern's right side".into(),
    }
}

/// The indices of the terms of a level (`lo..hi` of a side's tokens), a group as its `(`.
fn level(side: &Side<'_>, lo: usize, hi: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = lo;
    while i < hi {
        out.push(i);
        i = side.close(i).max(i) + 1;
    }
    out
}

/// How many modes the `...` among `terms` stands for, given the level's `modes`.
fn captured(terms: &[usize], modes: usize) -> Result<usize> {
    // The `...` is one of the terms when present; the others are one mode each.
    modes
        .checked_sub(terms.len().saturating_sub(1))
        .ok_or_else(mismatch)
}

/// The leaves of the group whose `(` is token `open`, made as `node`, fastest first, each
/// with its member's token: members in order (the side is mirrored: fastest first), the modes
/// of a `...` in reverse (they arrive in top-level order, slowest first in einops' reading).
fn members(side: &Side<'_>, open: usize, node: &Node, out: &mut Vec<(usize, usize)>) -> Result<()> {
    let one = [Node {
        leaves: node.leaves.clone(),
        children: Vec::new(),
        leaf: true,
    }];
    let children: &[Node] = if node.leaf { &one } else { &node.children };
    let terms = level(side, open + 1, side.close(open));
    let has_ellipsis = terms
        .iter()
        .any(|&i| matches!(side.kind(i), TokKind::Ellipsis));
    let k = if has_ellipsis {
        captured(&terms, children.len())?
    } else {
        0
    };
    let mut n = 0;
    for &i in &terms {
        match side.kind(i) {
            TokKind::Ellipsis => {
                let modes = children.get(n..n + k).ok_or_else(mismatch)?;
                for c in modes.iter().rev() {
                    out.extend(c.leaves.clone().map(|l| (l, i)));
                }
                n += k;
            }
            TokKind::Open => {
                members(side, i, children.get(n).ok_or_else(mismatch)?, out)?;
                n += 1;
            }
            _ => {
                let c = children.get(n).ok_or_else(mismatch)?;
                out.extend(c.leaves.clone().map(|l| (l, i)));
                n += 1;
            }
        }
    }
    if n != children.len() {
        return Err(mismatch());
    }
    Ok(())
}

/// Each group's mode of `l` as one tuple of its leaves, fastest first.
fn nested(l: &Layout, groups: &Groups) -> Layout {
    let (shape, stride) = (l.shape().leaves(), l.stride().leaves());
    let tops = tree(l.shape());
    let (mut toks, mut ext, mut str_) = (Vec::new(), Vec::new(), Vec::new());
    for (node, group) in tops.iter().zip(&groups.modes) {
        match group {
            Some(g) => {
                toks.push(ProfileToken::Push);
                for &(leaf, _) in &g.order {
                    toks.push(ProfileToken::Leaf);
                    ext.push(shape[leaf]);
                    str_.push(stride[leaf]);
                }
                toks.push(ProfileToken::Pop);
            }
            None => {
                copy_node(node, &mut toks);
                ext.extend_from_slice(&shape[node.leaves.clone()]);
                str_.extend_from_slice(&stride[node.leaves.clone()]);
            }
        }
    }
    // A reordering of the leaves into tuples: the reach is the source's.
    Layout::from_valid(&toks[..], &ext[..], &str_[..], false)
}

/// The profile tokens of a top-level mode, as they are.
fn copy_node(node: &Node, toks: &mut Vec<ProfileToken>) {
    if node.leaf {
        toks.push(ProfileToken::Leaf);
        return;
    }
    toks.push(ProfileToken::Push);
    for c in &node.children {
        copy_node(c, toks);
    }
    toks.push(ProfileToken::Pop);
}

/// Each group's mode of `l` (its leaves fastest first in depth-first order) as one leaf,
/// or the first group whose leaves do not coalesce: its index among the modes.
fn flat(l: &Layout, groups: &Groups) -> std::result::Result<Layout, usize> {
    let (shape, stride) = (l.shape().leaves(), l.stride().leaves());
    let tops = tree(l.shape());
    let (mut toks, mut ext, mut str_) = (Vec::new(), Vec::new(), Vec::new());
    for (m, (node, group)) in tops.iter().zip(&groups.modes).enumerate() {
        let leaves = node.leaves.clone();
        if group.is_some() {
            let modes = crate::layout::coalesce_modes(leaves.map(|j| (shape[j], stride[j])), false);
            let (e, d) = match modes[..] {
                [] => (1, 0),
                [one] => one,
                _ => return Err(m),
            };
            toks.push(ProfileToken::Leaf);
            ext.push(e);
            str_.push(d);
        } else {
            copy_node(node, &mut toks);
            ext.extend_from_slice(&shape[leaves.clone()]);
            str_.extend_from_slice(&stride[leaves]);
        }
    }
    // Coalescing keeps the reach.
    Ok(Layout::from_valid(&toks[..], &ext[..], &str_[..], false))
}

impl Tensor {
    /// The view with each group's mode as one tuple of its leaves, fastest first (only when
    /// some group's leaves are not already depth-first in that order).
    pub(crate) fn einops_nested(&self, name: &'static str, groups: &Groups) -> Result<Tensor> {
        if !groups.reordered() {
            return Ok(self.clone());
        }
        self.reach_keeping_view(name, |l| Ok(nested(l, groups)))
    }

    /// The view with each group's mode (as [`einops_nested`](Self::einops_nested) leaves
    /// it) as one leaf; when a group's strides do not merge, an error naming `p`'s group and
    /// the strides, quoting `p` with carets under the group (and ending with the tensor's
    /// shape when `shape_line`, as the macros say it).
    pub(crate) fn einops_flat(
        &self,
        name: &'static str,
        groups: &Groups,
        p: &PatternRef<'_>,
        shape_line: Option<&Shape>,
    ) -> Result<Tensor> {
        let s = self.require_single(name)?;
        if let Err(m) = flat(&s.layout, groups) {
            return Err(refusal(name, &s.layout, groups, m, p, shape_line));
        }
        self.reach_keeping_view(name, |l| {
            flat(l, groups).map_err(|m| refusal(name, l, groups, m, p, shape_line))
        })
    }

    /// The engine's result of an einops operation (`p`, mirrored) with its right-side
    /// groups made one mode each: [`einops_nested`](Self::einops_nested), then
    /// [`einops_flat`](Self::einops_flat). For a `fresh` result (a reduction's, an einsum's:
    /// no one else sees it) a group whose strides do not merge (a `...` of two or more modes
    /// inside it) is laid out by one more copy instead of refused.
    pub(crate) fn einops_groups(
        &self,
        name: &'static str,
        p: &PatternRef<'_>,
        shape_line: Option<&Shape>,
        fresh: bool,
    ) -> Result<Tensor> {
        let Some(g) = Groups::of(self.shape(), &p.right)? else {
            return Ok(self.clone());
        };
        let n = self.einops_nested(name, &g)?;
        match n.einops_flat(name, &g, p, shape_line) {
            Err(Error::NotRepresentable { .. }) if fresh => {
                n.materialize()?.einops_flat(name, &g, p, shape_line)
            }
            other => other,
        }
    }
}

/// The materialize-first refusal of group mode `m` of `l`.
fn refusal(
    name: &'static str,
    l: &Layout,
    groups: &Groups,
    m: usize,
    p: &PatternRef<'_>,
    shape_line: Option<&Shape>,
) -> Error {
    let Some(Some(g)) = groups.modes.get(m) else {
        return mismatch();
    };
    let (shape, stride) = (l.shape().leaves(), l.stride().leaves());
    let tops = tree(l.shape());
    let first = tops.get(m).map_or(0, |n| n.leaves.start);
    // The leaves as they lie (fastest first), each named by its member.
    let leaves: Vec<(i64, i64, &str)> = (g.order.iter().enumerate())
        .map(|(k, &(_, tok))| (shape[first + k], stride[first + k], p.right.get(tok).text))
        .collect();
    let listed: Vec<String> = leaves
        .iter()
        .map(|(e, d, t)| format!("{t} {e}:{d}"))
        .collect();
    // The first leaf (extent > 1) that does not continue the one before it.
    let mut why = String::new();
    let mut prev: Option<(i64, i64, &str)> = None;
    for &(e, d, t) in leaves.iter().filter(|x| x.0 != 1) {
        if let Some((pe, pd, pt)) = prev
            && pe.checked_mul(pd) != Some(d)
        {
            why = format!(
                ", and {t}'s stride {d} would have to be {} ({pt}'s stride {pd} times its extent {pe})",
                pd.saturating_mul(pe)
            );
            break;
        }
        prev = Some((e, d, t));
    }
    let open = p.right.get(g.open);
    let detail = format!(
        "the group `{}` on the right, term {} cannot be one mode of this tensor without a copy: read as einops reads it (last member fastest), its leaves as extent:stride are {}{why}. einops copies here; StrideWeave never copies silently: materialize first, e.g. the same call without the group, then `Tensor::relayout` with `Layout::row_major` (`Tensor::materialize` in the row-major order einops' groups read), then the group",
        open.text,
        open.path,
        listed.join(", ")
    );
    let mut buf = vec![0u8; MSG_CAP.max(detail.len() + 3 * p.text.len() + 64)];
    let mut msg = Msg::new(&mut buf);
    msg.str(&detail);
    let st = finish(msg, p, open.start, open.end);
    let mut text = st.text(&buf).to_string();
    if let Some(s) = shape_line {
        text.push_str(&format!("\n  the tensor's shape is {s}"));
    }
    Error::NotRepresentable {
        op: name,
        reason: text,
    }
}
