//! One axis of a printed tensor or a drawn layout: a top-level mode read as one flat
//! coordinate, the positions shown (all, or the edges of a summarised mode), where a
//! hierarchical mode's groups begin, and the layout index each shown position adds.

use crate::layout::Layout;

/// A top-level mode as one printed axis.
///
/// A hierarchical mode `(s0, s1, …)` is read through its flat coordinate `j` (as indexing
/// reads an integer at any level of a coordinate, `s0` fastest); its *groups* are the runs
/// of `size(s0)` consecutive positions, and a printer separates adjacent groups.
#[derive(Clone, Debug)]
pub(crate) struct Axis {
    /// The positions shown, increasing: every position, or the first and last `edge` ones.
    pub(crate) shown: Vec<usize>,
    /// The run length of a group (`size(s0)` of a hierarchical mode), 0 when the mode has
    /// no groups to separate.
    pub(crate) group: usize,
    /// The layout index of each shown position (the mode's own layout at that position).
    pub(crate) offsets: Vec<i64>,
}

impl Axis {
    /// Mode `mode` shown whole, or — when `edge` is given and the mode is longer than
    /// `2 × edge` — its first and last `edge` positions.
    pub(crate) fn of(mode: &Layout, edge: Option<usize>) -> Axis {
        let extent = mode.size();
        let shown: Vec<usize> = match edge {
            Some(e) if extent > 2 * e => (0..e).chain(extent - e..extent).collect(),
            _ => (0..extent).collect(),
        };
        let offsets = shown.iter().map(|&j| mode.eval(j as i64)).collect();
        Axis {
            shown,
            group: group_of(mode),
            offsets,
        }
    }

    /// The one position of a rank-0 layout (an axis of extent 1 at index 0).
    pub(crate) fn unit() -> Axis {
        Axis {
            shown: vec![0],
            group: 0,
            offsets: vec![0],
        }
    }

    /// What separates shown position `k` from the one before it (`k ≥ 1`).
    pub(crate) fn gap_before(&self, k: usize) -> Gap {
        let (prev, here) = (self.shown[k - 1], self.shown[k]);
        if here != prev + 1 {
            Gap::Skipped
        } else if self.group > 0 && here % self.group == 0 {
            Gap::Group
        } else {
            Gap::None
        }
    }

    /// The shown positions in order with a [`Slot::Skipped`] where positions are left out,
    /// each marked when it starts a new group of a hierarchical mode.
    pub(crate) fn slots(&self) -> Vec<Slot> {
        let mut out = Vec::with_capacity(self.shown.len() + 1);
        for (k, &j) in self.shown.iter().enumerate() {
            let gap = if k == 0 {
                Gap::None
            } else {
                self.gap_before(k)
            };
            if gap == Gap::Skipped {
                out.push(Slot::Skipped);
            }
            out.push(Slot::Shown {
                k,
                position: j,
                group_start: gap == Gap::Group,
            });
        }
        out
    }
}

/// What lies between two adjacent shown positions of an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gap {
    /// Nothing: they are neighbours in the same group.
    None,
    /// A group boundary of a hierarchical mode.
    Group,
    /// Positions left out by summarising (`…`).
    Skipped,
}

/// One row or column of a picture: a shown position, or the mark of left-out ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Shown position `position`, the `k`-th shown one (its index is `offsets[k]`).
    Shown {
        /// Which shown position this is.
        k: usize,
        /// The flat coordinate along the mode.
        position: usize,
        /// Whether a new group of a hierarchical mode starts here.
        group_start: bool,
    },
    /// Positions left out by summarising.
    Skipped,
}

/// The group length of a mode: the size of its first child when the mode is a tuple of at
/// least two children and that size is neither 1 nor the whole mode.
fn group_of(mode: &Layout) -> usize {
    let shape = mode.shape();
    if shape.as_int_tuple().is_int() || shape.rank() < 2 {
        return 0;
    }
    let first = shape.mode(0).map_or(0, |s| s.size());
    if first > 1 && first < shape.size() {
        first
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hierarchical_mode_groups_by_its_first_child_and_summarises_by_edges() {
        let l: Layout = "(3,4):(2,6)".parse().unwrap();
        let a = Axis::of(&l, None);
        assert_eq!((a.group, a.shown.len()), (3, 12));
        assert_eq!(a.offsets[..5], [0, 2, 4, 6, 8]);
        assert_eq!(a.gap_before(3), Gap::Group);
        assert_eq!(a.gap_before(4), Gap::None);
        let s = Axis::of(&l, Some(3));
        assert_eq!(s.shown, [0, 1, 2, 9, 10, 11]);
        assert_eq!(s.gap_before(3), Gap::Skipped);
        assert_eq!(Axis::of(&"(1,4):(0,1)".parse().unwrap(), None).group, 0);
        assert_eq!(Axis::of(&"8:1".parse().unwrap(), None).group, 0);
    }
}
