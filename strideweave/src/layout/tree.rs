//! `Tree` and tree rearrangement: select sub-layouts and regroup them.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::hier::{self, Hierarchy};
use crate::layout::int_tuple::{Node, ProfileToken, check_nesting};
use crate::layout::structure::LayoutBuilder;

/// A hierarchy of leaves used to select and to build layouts.
///
/// A leaf is a plain [`Tree::Leaf`] or an identified leaf [`Tree::Id`]; both count as one
/// leaf of the tree's recipe.
///
/// ```
/// use strideweave::{Tree, ProfileToken::*};
/// let t = Tree::node([Tree::id(1), Tree::Leaf, Tree::node([Tree::id(0)])]);
/// assert_eq!(t.size(), 3);
/// assert_eq!(t.recipe(), [Leaf, Leaf, Push, Leaf, Pop]);
/// assert_eq!(t.to_string(), "(#1,_,(#0))");
/// ```
///
/// A tree may nest without limit: clone, equality, hashing, formatting and drop walk it
/// with an explicit stack, never by recursion; the operations that take a tree refuse one
/// deeper than [`MAX_NESTING`](crate::MAX_NESTING).
#[derive(Eq)]
pub enum Tree {
    /// A plain leaf: in a selection, extract the subtree here; in an output, insert an
    /// extent-one, stride-zero mode.
    Leaf,
    /// An identified leaf: in an output, place extracted sublayout `n` here, unchanged.
    Id(usize),
    /// A nested tree.
    Node(Vec<Tree>),
}

impl Tree {
    /// A nested tree of the given children.
    ///
    /// ```
    /// assert_eq!(strideweave::Tree::node([]).size(), 0);
    /// ```
    pub fn node(children: impl IntoIterator<Item = Tree>) -> Tree {
        Tree::Node(children.into_iter().collect())
    }

    /// The identified leaf `id(n)`.
    ///
    /// ```
    /// assert_eq!(strideweave::Tree::id(2), strideweave::Tree::Id(2));
    /// ```
    pub fn id(n: usize) -> Tree {
        Tree::Id(n)
    }

    /// The number of leaves (plain and identified).
    ///
    /// ```
    /// use strideweave::Tree;
    /// assert_eq!(Tree::node([Tree::id(2)]).size(), 1);
    /// ```
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |e| n += usize::from(matches!(e, Step::Leaf | Step::Id(_))));
        n
    }

    /// The nesting depth: 0 for a leaf, otherwise 1 + the largest depth of the children.
    ///
    /// ```
    /// use strideweave::Tree;
    /// assert_eq!(Tree::node([Tree::Leaf, Tree::node([Tree::id(0)])]).depth(), 2);
    /// assert_eq!(Tree::id(0).depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        let (mut d, mut max) = (0usize, 0usize);
        self.walk(&mut |e| match e {
            Step::Open => {
                d += 1;
                max = max.max(d);
            }
            Step::Close => d -= 1,
            _ => {}
        });
        max
    }

    /// Visits the tree depth-first with an explicit stack: a tree built by hand may nest
    /// without limit (the stack is inline up to 8 levels, so the usual trees allocate
    /// nothing).
    fn walk(&self, f: &mut impl FnMut(Step)) {
        let mut stack: SmallVec<[std::slice::Iter<'_, Tree>; 8]> = SmallVec::new();
        let mut at = std::slice::from_ref(self).iter();
        loop {
            match at.next() {
                Some(Tree::Leaf) => f(Step::Leaf),
                Some(Tree::Id(n)) => f(Step::Id(*n)),
                Some(Tree::Node(c)) => {
                    f(Step::Open);
                    stack.push(std::mem::replace(&mut at, c.iter()));
                }
                None => match stack.pop() {
                    Some(outer) => {
                        f(Step::Close);
                        at = outer;
                    }
                    None => return,
                },
            }
        }
    }

    /// Writes the tree: `leaf`, `id(n)`, and each node's children between `open` and
    /// `close`, separated by `sep`.
    fn write(
        &self,
        f: &mut std::fmt::Formatter<'_>,
        leaf: &str,
        id: (&str, &str),
        node: (&str, &str, &str),
    ) -> std::fmt::Result {
        hier::write_flat(self, f, node, |t, f| match t {
            Tree::Id(n) => write!(f, "{}{n}{}", id.0, id.1),
            _ => f.write_str(leaf),
        })
    }

    /// The leaf-and-nesting recipe of the children (identifiers read as plain leaves).
    ///
    /// ```
    /// use strideweave::{Tree, ProfileToken::*};
    /// assert_eq!(Tree::node([Tree::id(2)]).recipe(), [Leaf]);
    /// ```
    pub fn recipe(&self) -> Vec<ProfileToken> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            out.push(match e {
                Step::Leaf | Step::Id(_) => ProfileToken::Leaf,
                Step::Open => ProfileToken::Push,
                Step::Close => ProfileToken::Pop,
            })
        });
        // The root node's own brackets are not part of its recipe.
        if matches!(self, Tree::Node(_)) {
            out.pop();
            out.remove(0);
        }
        out
    }
}

/// One step of [`Tree::walk`].
#[derive(Clone, Copy, Hash)]
enum Step {
    Leaf,
    Id(usize),
    Open,
    Close,
}

impl Hierarchy for Tree {
    fn children(&self) -> Option<&[Tree]> {
        match self {
            Tree::Node(c) => Some(c),
            _ => None,
        }
    }

    fn children_mut(&mut self) -> Option<&mut Vec<Tree>> {
        match self {
            Tree::Node(c) => Some(c),
            _ => None,
        }
    }

    fn node(children: Vec<Tree>) -> Tree {
        Tree::Node(children)
    }

    fn clone_leaf(&self) -> Tree {
        match self {
            Tree::Id(n) => Tree::Id(*n),
            _ => Tree::Leaf,
        }
    }
}

impl Drop for Tree {
    /// Drops the children with an explicit stack: a tree built by hand may nest without
    /// limit.
    fn drop(&mut self) {
        hier::drop_flat(self);
    }
}

impl Clone for Tree {
    /// A deep copy, rebuilt with an explicit stack (no recursion at any depth).
    fn clone(&self) -> Tree {
        hier::clone_flat(self)
    }
}

impl PartialEq for Tree {
    /// Same nesting and the same leaves in order, compared with an explicit stack.
    fn eq(&self, other: &Tree) -> bool {
        hier::eq_flat(self, other, |a, b| match (a, b) {
            (Tree::Id(m), Tree::Id(n)) => m == n,
            (Tree::Leaf, Tree::Leaf) => true,
            _ => false,
        })
    }
}

impl std::hash::Hash for Tree {
    /// Hashes the depth-first walk (equal trees walk alike), with an explicit stack.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.walk(&mut |s| s.hash(state));
    }
}

impl std::fmt::Debug for Tree {
    /// As a derived `Debug` writes it: `Node([Id(1), Leaf])`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write(f, "Leaf", ("Id(", ")"), ("Node([", ", ", "])"))
    }
}

impl std::fmt::Display for Tree {
    /// `_` for a plain leaf, `#n` for `id(n)`, parentheses for nesting.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write(f, "_", ("#", ""), ("(", ",", ")"))
    }
}

const OP: &str = "rearrange_tree";

fn invalid(detail: String) -> Error {
    Error::InvalidRearrange { op: OP, detail }
}

type Extracted<'a> = SmallVec<[(Node<'a>, Node<'a>); 8]>;

impl Layout {
    /// Rebuilds the layout from extracted sublayouts.
    ///
    /// `selection` mirrors the top of the hierarchy and extracts, at each of its leaves, the
    /// whole subtree there; by default every leaf is extracted in depth-first order. In
    /// `output`, `id(n)` places sublayout `n` unchanged and a plain leaf inserts `1:0`. An
    /// omitted sublayout of size > 1 is an error; omitted size-1 ones are dropped.
    ///
    /// ```
    /// use strideweave::{Layout, Tree};
    /// let l: Layout = "(2,3):(1,2)".parse().unwrap();
    /// let out = Tree::node([Tree::id(1), Tree::Leaf, Tree::id(0)]);
    /// assert_eq!(l.rearrange_tree(&out, None).unwrap().to_string(), "(3,1,2):(2,0,1)");
    ///
    /// let l: Layout = "(1,(2,3)):(5,(7,14))".parse().unwrap();
    /// let sel = Tree::node([Tree::Leaf, Tree::Leaf]);
    /// let out = Tree::node([Tree::id(1), Tree::id(0)]);
    /// assert_eq!(l.rearrange_tree(&out, Some(&sel)).unwrap().to_string(), "((2,3),1):((7,14),5)");
    /// ```
    pub fn rearrange_tree(&self, output: &Tree, selection: Option<&Tree>) -> Result<Layout> {
        let mut out = Layout::unit();
        self.rearrange_tree_into(output, selection, &mut out)?;
        Ok(out)
    }

    /// [`rearrange_tree`](Self::rearrange_tree) writing the result over `out` in place
    /// (`out` is left unchanged on error).
    pub(crate) fn rearrange_tree_into(
        &self,
        output: &Tree,
        selection: Option<&Tree>,
        out: &mut Layout,
    ) -> Result<()> {
        if selection.is_none()
            && (self.rearrange_leaves_flat(output, out)
                || self.rearrange_leaves_nested(output, out))
        {
            return Ok(());
        }
        *out = self.rearrange_tree_general(output, selection)?;
        Ok(())
    }

    /// [`rearrange_tree`](Self::rearrange_tree) through extraction and placement.
    fn rearrange_tree_general(&self, output: &Tree, selection: Option<&Tree>) -> Result<Layout> {
        // The walks below recurse once per level of the trees.
        check_nesting(OP, "the output tree nests", output.depth())?;
        if let Some(sel) = selection {
            check_nesting(OP, "the selection tree nests", sel.depth())?;
        }
        let mut parts = Extracted::new();
        match selection {
            None => {
                for (&s, &d) in self.leaves() {
                    parts.push((Node::Leaf(s), Node::Leaf(d)));
                }
            }
            Some(Tree::Leaf | Tree::Id(_)) => {
                parts.push((self.shape.0.node(), self.stride.0.node()))
            }
            Some(Tree::Node(children)) => {
                let top: SmallVec<[(Node<'_>, Node<'_>); 8]> = self.top().collect();
                select(children, &top, &mut Vec::new(), &mut parts)?;
            }
        }
        let mut used: SmallVec<[bool; 8]> = SmallVec::from_elem(false, parts.len());
        let mut b = LayoutBuilder::default();
        let single = match output {
            Tree::Node(children) => {
                for c in children {
                    place(c, &parts, &mut used, &mut b)?;
                }
                false
            }
            leaf => {
                place(leaf, &parts, &mut used, &mut b)?;
                true
            }
        };
        for (i, (s, _)) in parts.iter().enumerate() {
            let size: i64 = s.leaves().iter().product();
            if !used[i] && size > 1 {
                return Err(invalid(format!(
                    "the output omits extracted sublayout #{i} (shape {}) of size {size}; only size-1 sublayouts may be dropped",
                    s.to_int_tuple()
                )));
            }
        }
        // The result holds the source's leaves (or fewer, of extent 1) and 1:0 modes: its size
        // and reach are the source's, so it needs no overflow check.
        if single {
            b.single(OP)
        } else {
            let l = b.tuple_valid();
            check_nesting(OP, "the result would nest", l.shape.depth())?;
            Ok(l)
        }
    }
}

impl Layout {
    /// The fast path of [`rearrange_tree`](Layout::rearrange_tree) with the default
    /// selection (every leaf extracted) and a flat output of identifiers and plain leaves
    /// (a permutation of the leaves, with `1:0` modes inserted): written over `out` in one
    /// pass. `false` (and `out` unchanged) when the output is of another form or is a
    /// mistake (the general path reports it).
    fn rearrange_leaves_flat(&self, output: &Tree, out: &mut Layout) -> bool {
        let Tree::Node(children) = output else {
            return false;
        };
        let (sv, dv): (&[i64], &[i64]) = (&self.shape.0.vals, &self.stride.0.vals);
        if sv.len() > 64 {
            return false;
        }
        let mut used = 0u64;
        for c in children {
            match *c {
                Tree::Leaf => {}
                Tree::Id(n) if n < sv.len() && used & (1 << n) == 0 => used |= 1 << n,
                _ => return false,
            }
        }
        // An omitted leaf must have extent 1 (the general path explains the error).
        if (0..sv.len()).any(|i| used & (1 << i) == 0 && sv[i] != 1) {
            return false;
        }
        let pick = |j: usize, leaf: i64, vals: &[i64]| match children[j] {
            Tree::Id(n) => vals[n],
            _ => leaf,
        };
        // The leaves of the source (or fewer, of extent 1) and 1:0 modes: size and reach
        // are the source's.
        out.set_flat_valid(
            children.len(),
            false,
            |j| pick(j, 1, sv),
            |j| pick(j, 0, dv),
        );
        true
    }
}

impl Layout {
    /// The fast path of [`rearrange_tree`](Layout::rearrange_tree) with the default
    /// selection and an output of identifiers and plain leaves grouped in nested tuples of
    /// two or more (`a b c d -> a (b c) d`), up to [`NESTED_FAST`] levels: the result's
    /// profile and leaves written over `out` in one walk of the output tree, with no
    /// extraction. `false` (and `out` unchanged) when the output is of another form or is
    /// a mistake (the general path reports it).
    fn rearrange_leaves_nested(&self, output: &Tree, out: &mut Layout) -> bool {
        let Tree::Node(children) = output else {
            return false;
        };
        let (sv, dv): (&[i64], &[i64]) = (&self.shape.0.vals, &self.stride.0.vals);
        if sv.len() > 64 {
            return false;
        }
        let mut acc = Nested::default();
        if !acc.walk(children, sv, dv, 1) {
            return false;
        }
        // An omitted leaf must have extent 1 (the general path explains the error).
        if (0..sv.len()).any(|i| acc.used & (1 << i) == 0 && sv[i] != 1) {
            return false;
        }
        let n = acc.ext.len();
        out.set_valid(&acc.toks, false, n, |i| acc.ext[i], |i| acc.st[i]);
        true
    }
}

/// The deepest output tree [`Layout::rearrange_leaves_nested`] takes (well under
/// `MAX_NESTING`, so neither nesting check of the general path can fail there).
const NESTED_FAST: usize = 4;

/// The result of [`Layout::rearrange_leaves_nested`] as it is walked.
#[derive(Default)]
struct Nested {
    toks: crate::layout::int_tuple::Toks,
    ext: crate::layout::int_tuple::Vals,
    st: crate::layout::int_tuple::Vals,
    used: u64,
}

impl Nested {
    /// Appends the children of one output node at nesting `depth`; `false` on anything the
    /// fast path does not take.
    fn walk(&mut self, children: &[Tree], sv: &[i64], dv: &[i64], depth: usize) -> bool {
        for c in children {
            match c {
                Tree::Leaf => self.leaf(1, 0),
                &Tree::Id(n) if n < sv.len() && self.used & (1 << n) == 0 => {
                    self.used |= 1 << n;
                    self.leaf(sv[n], dv[n]);
                }
                Tree::Node(kids) if kids.len() >= 2 && depth < NESTED_FAST => {
                    self.toks.push(ProfileToken::Push);
                    if !self.walk(kids, sv, dv, depth + 1) {
                        return false;
                    }
                    self.toks.push(ProfileToken::Pop);
                }
                _ => return false,
            }
        }
        true
    }

    fn leaf(&mut self, s: i64, d: i64) {
        self.toks.push(ProfileToken::Leaf);
        self.ext.push(s);
        self.st.push(d);
    }
}

fn select<'a>(
    children: &[Tree],
    modes: &[(Node<'a>, Node<'a>)],
    path: &mut Vec<usize>,
    parts: &mut Extracted<'a>,
) -> Result<()> {
    if children.len() != modes.len() {
        let at = if path.is_empty() {
            "the top level".to_string()
        } else {
            format!(
                "mode {}",
                path.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            )
        };
        return Err(invalid(format!(
            "the selection does not mirror the source hierarchy: at {at} it has {} entries, the source {} modes",
            children.len(),
            modes.len()
        )));
    }
    for (i, (c, &(s, d))) in children.iter().zip(modes).enumerate() {
        path.push(i);
        match (c, s, d) {
            (Tree::Leaf | Tree::Id(_), s, d) => parts.push((s, d)),
            (Tree::Node(kids), Node::Tuple(ss), Node::Tuple(ds)) => {
                let sub: SmallVec<[(Node<'a>, Node<'a>); 8]> = ss.zip(ds).collect();
                select(kids, &sub, path, parts)?;
            }
            (Tree::Node(_), _, _) => {
                return Err(invalid(format!(
                    "the selection does not mirror the source hierarchy: it nests at mode {}, where the source has a leaf",
                    path.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(".")
                )));
            }
        }
        path.pop();
    }
    Ok(())
}

fn place(t: &Tree, parts: &Extracted<'_>, used: &mut [bool], b: &mut LayoutBuilder) -> Result<()> {
    match t {
        Tree::Leaf => b.leaf(1, 0),
        Tree::Id(n) => {
            let Some(&(s, d)) = parts.get(*n) else {
                return Err(invalid(format!(
                    "output identifier #{n} is out of range: the selection extracted {} sublayouts (#0..#{})",
                    parts.len(),
                    parts.len().saturating_sub(1)
                )));
            };
            if std::mem::replace(&mut used[*n], true) {
                return Err(invalid(format!(
                    "output identifier #{n} appears more than once"
                )));
            }
            b.node(s, d);
        }
        Tree::Node(children) => {
            b.push();
            for c in children {
                place(c, parts, used, b)?;
            }
            b.pop();
        }
    }
    Ok(())
}

#[cfg(test)]
mod nested_tests {
    use super::*;

    #[test]
    fn the_nested_fast_path_equals_the_general_path() {
        let l: Layout = "((2,3),4,5,1):((1,2),30,6,0)".parse().unwrap();
        let (i, f) = (Tree::id, || Tree::Leaf);
        let outputs = [
            Tree::node([i(0), Tree::node([i(1), i(2)]), i(3), i(4)]),
            Tree::node([Tree::node([i(3), Tree::node([i(0), f()]), i(2)]), i(1)]),
            Tree::node([
                Tree::node([i(4), i(1)]),
                f(),
                Tree::node([i(2), i(0), i(3)]),
            ]),
        ];
        for o in &outputs {
            let mut fast = Layout::unit();
            assert!(l.rearrange_leaves_nested(o, &mut fast), "{o}");
            let general = l.rearrange_tree_general(o, None).unwrap();
            assert_eq!(fast, general, "{o}");
            assert_eq!(fast.to_string(), general.to_string(), "{o}");
        }
        // Repeated or missing identifiers and one-child groups go the general way.
        for o in [
            Tree::node([i(0), Tree::node([i(1), i(1)]), i(2), i(3), i(4)]),
            Tree::node([i(0), Tree::node([i(1)]), i(2), i(3), i(4)]),
            Tree::node([Tree::node([i(0), i(1)]), i(2)]),
        ] {
            let mut fast = Layout::unit();
            assert!(!l.rearrange_leaves_nested(&o, &mut fast), "{o}");
        }
    }
}
