//! `IntTuple`: an integer or a nested tuple of integers, stored flat so that small tuples
//! live inline and never touch the heap.
//!
//! The encoding is the *profile* (the leaf-and-nesting recipe) plus the leaf values: the root's
//! children as a token stream (`Leaf`, `Push`, `Pop`) and the leaves in depth-first order. An
//! integer root is the one-token stream `[Leaf]` with a flag, so `5` and `(5)` keep their distinct
//! printing while sharing one profile.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use crate::layout::inline_vec::InlineVec;

use crate::error::{Error, Result};

/// One step of a profile: the leaf-and-nesting recipe of a tuple without its values
/// (`(2,(3,4))` and `(7,(8,9))` share one profile).
///
/// ```
/// use strideweave::{IntTuple, ProfileToken::*};
/// let t: IntTuple = "(2,(3,4))".parse().unwrap();
/// assert_eq!(t.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProfileToken {
    /// A leaf.
    #[default]
    Leaf,
    /// The start of a nested tuple.
    Push,
    /// The end of a nested tuple.
    Pop,
}

use ProfileToken::{Leaf, Pop, Push};

pub(crate) type Toks = InlineVec<ProfileToken, 16>;
pub(crate) type Vals = InlineVec<i64, 8>;

/// An integer, or an ordered (possibly empty, possibly nested) tuple of `IntTuple`s.
///
/// ```
/// use strideweave::IntTuple;
/// let t = IntTuple::tuple([IntTuple::from(2), IntTuple::from([3, 4])]);
/// assert_eq!(t.to_string(), "(2,(3,4))");
/// assert_eq!(format!("{t:?}"), "[2, [3, 4]]");
/// assert_eq!(t, "(2,(3,4))".parse().unwrap());
/// assert_eq!((t.rank(), t.depth(), t.leaves()), (2, 2, &[2, 3, 4][..]));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IntTuple {
    pub(crate) toks: Toks,
    pub(crate) vals: Vals,
    pub(crate) int_root: bool,
}

impl IntTuple {
    /// The integer `value`.
    ///
    /// ```
    /// assert_eq!(strideweave::IntTuple::int(7).as_int(), Some(7));
    /// ```
    pub fn int(value: i64) -> IntTuple {
        let mut toks = Toks::new();
        toks.push(Leaf);
        let mut vals = Vals::new();
        vals.push(value);
        IntTuple {
            toks,
            vals,
            int_root: true,
        }
    }

    /// A tuple of the given children.
    ///
    /// ```
    /// use strideweave::IntTuple;
    /// assert_eq!(IntTuple::tuple([]).to_string(), "()");
    /// assert_eq!(IntTuple::tuple([IntTuple::int(3)]).to_string(), "(3)");
    /// ```
    pub fn tuple(children: impl IntoIterator<Item = IntTuple>) -> IntTuple {
        let mut b = Builder::default();
        for c in children {
            b.node(c.node());
        }
        b.tuple()
    }

    /// The integer, if this is one.
    ///
    /// ```
    /// assert_eq!(strideweave::IntTuple::from([1, 2]).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        self.int_root.then(|| self.vals[0])
    }

    /// Whether this is an integer rather than a tuple.
    ///
    /// ```
    /// assert!(strideweave::IntTuple::int(1).is_int());
    /// ```
    #[inline]
    pub fn is_int(&self) -> bool {
        self.int_root
    }

    /// The number of top-level elements; an integer has rank 1.
    ///
    /// ```
    /// assert_eq!(strideweave::IntTuple::int(4).rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        if self.toks.len() == self.vals.len() {
            // Flat (or an integer): every top-level element is one leaf.
            return self.toks.len();
        }
        let mut depth = 0usize;
        let mut rank = 0usize;
        for t in &self.toks {
            match t {
                Leaf => rank += usize::from(depth == 0),
                Push => {
                    rank += usize::from(depth == 0);
                    depth += 1;
                }
                Pop => depth -= 1,
            }
        }
        rank
    }

    /// Token and leaf ranges of each top-level element: `(toks, vals)` per element.
    pub(crate) fn top_spans(&self) -> SmallVec<[Span; 8]> {
        let mut out = SmallVec::new();
        let (mut depth, mut leaf) = (0usize, 0usize);
        let (mut tok_start, mut val_start) = (0usize, 0usize);
        for (i, t) in self.toks.iter().enumerate() {
            match t {
                Leaf => {
                    leaf += 1;
                    if depth == 0 {
                        out.push(Span {
                            toks: i..i + 1,
                            vals: leaf - 1..leaf,
                        });
                    }
                }
                Push => {
                    if depth == 0 {
                        tok_start = i;
                        val_start = leaf;
                    }
                    depth += 1;
                }
                Pop => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(Span {
                            toks: tok_start..i + 1,
                            vals: val_start..leaf,
                        });
                    }
                }
            }
        }
        out
    }

    /// 0 for an integer, otherwise 1 + the largest depth of the children.
    ///
    /// ```
    /// let t: strideweave::IntTuple = "((1),2)".parse().unwrap();
    /// assert_eq!(t.depth(), 2);
    /// ```
    pub fn depth(&self) -> usize {
        if self.int_root {
            return 0;
        }
        tuple_depth(&self.toks)
    }

    /// The leaf values in depth-first, left-to-right order.
    ///
    /// ```
    /// let t: strideweave::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.leaves(), &[2, 3, 4]);
    /// ```
    #[inline]
    pub fn leaves(&self) -> &[i64] {
        &self.vals
    }

    /// The leaf-and-nesting recipe of the root's contents (the profile).
    ///
    /// ```
    /// use strideweave::{IntTuple, ProfileToken::*};
    /// assert_eq!(IntTuple::int(5).profile(), &[Leaf]);
    /// ```
    #[inline]
    pub fn profile(&self) -> &[ProfileToken] {
        &self.toks
    }

    /// The top-level element `i` (an integer's element 0 is itself).
    ///
    /// ```
    /// let t: strideweave::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.get(1).unwrap().to_string(), "(3,4)");
    /// assert!(t.get(2).is_none());
    /// ```
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        if self.int_root {
            return (i == 0).then(|| self.clone());
        }
        self.seq().nth(i).map(Node::to_int_tuple)
    }

    /// The product of all leaves (1 for the empty tuple), checked for overflow.
    ///
    /// ```
    /// let t: strideweave::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.product().unwrap(), 24);
    /// ```
    pub fn product(&self) -> Result<i64> {
        self.vals.iter().try_fold(1i64, |acc, &v| {
            acc.checked_mul(v)
                .ok_or_else(|| Error::overflow("product", "the product of the leaves"))
        })
    }

    /// Whether `other` has the same leaf-and-nesting structure (at the root an integer and a
    /// one-element tuple agree).
    ///
    /// ```
    /// use strideweave::IntTuple;
    /// let a: IntTuple = "(2,(3,4))".parse().unwrap();
    /// let b: IntTuple = "(7,(8,9))".parse().unwrap();
    /// assert!(a.is_congruent(&b));
    /// assert!(!a.is_congruent(&IntTuple::from([1, 2, 3])));
    /// ```
    pub fn is_congruent(&self, other: &IntTuple) -> bool {
        self.toks == other.toks
    }

    pub(crate) fn from_parts(toks: Toks, vals: Vals, int_root: bool) -> IntTuple {
        debug_assert!(!int_root || (toks.len() == 1 && toks[0] == Leaf));
        IntTuple {
            toks,
            vals,
            int_root,
        }
    }

    /// The root's children as a sequence of nodes.
    pub(crate) fn seq(&self) -> Seq<'_> {
        Seq {
            toks: &self.toks,
            vals: &self.vals,
        }
    }

    /// The root as a node.
    pub(crate) fn node(&self) -> Node<'_> {
        if self.int_root {
            Node::Leaf(self.vals[0])
        } else {
            Node::Tuple(self.seq())
        }
    }

    /// A tuple with the same structure and new leaf values.
    pub(crate) fn with_leaves(&self, vals: Vals) -> IntTuple {
        debug_assert_eq!(vals.len(), self.vals.len());
        IntTuple {
            toks: self.toks.clone(),
            vals,
            int_root: self.int_root,
        }
    }
}

/// Where one top-level element of a flat tuple lies: its tokens and its leaves.
#[derive(Clone, Debug)]
pub(crate) struct Span {
    pub(crate) toks: std::ops::Range<usize>,
    pub(crate) vals: std::ops::Range<usize>,
}

/// A sequence of sibling nodes inside a flat tuple; iterating yields each node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seq<'a> {
    pub(crate) toks: &'a [ProfileToken],
    pub(crate) vals: &'a [i64],
}

/// One node of a flat tuple: a leaf value or a nested sequence.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Node<'a> {
    Leaf(i64),
    Tuple(Seq<'a>),
}

impl<'a> Iterator for Seq<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        match *self.toks.first()? {
            Leaf => {
                let v = self.vals[0];
                self.toks = &self.toks[1..];
                self.vals = &self.vals[1..];
                Some(Node::Leaf(v))
            }
            Push => {
                let (mut depth, mut leaves, mut end) = (0usize, 0usize, 0usize);
                for (j, t) in self.toks.iter().enumerate() {
                    match t {
                        Push => depth += 1,
                        Pop => {
                            depth -= 1;
                            if depth == 0 {
                                end = j;
                                break;
                            }
                        }
                        Leaf => leaves += 1,
                    }
                }
                let inner = Seq {
                    toks: &self.toks[1..end],
                    vals: &self.vals[..leaves],
                };
                self.toks = &self.toks[end + 1..];
                self.vals = &self.vals[leaves..];
                Some(Node::Tuple(inner))
            }
            Pop => None,
        }
    }
}

impl<'a> Node<'a> {
    /// The leaf values under this node.
    pub(crate) fn leaves(&self) -> &[i64] {
        match self {
            Node::Leaf(v) => std::slice::from_ref(v),
            Node::Tuple(s) => s.vals,
        }
    }

    pub(crate) fn to_int_tuple(self) -> IntTuple {
        match self {
            Node::Leaf(v) => IntTuple::int(v),
            Node::Tuple(s) => IntTuple::from_parts(s.toks.into(), s.vals.into(), false),
        }
    }
}

/// Builds a flat tuple node by node.
#[derive(Default, Clone, Debug)]
pub(crate) struct Builder {
    pub(crate) toks: Toks,
    pub(crate) vals: Vals,
}

impl Builder {
    pub(crate) fn leaf(&mut self, v: i64) {
        self.toks.push(Leaf);
        self.vals.push(v);
    }

    pub(crate) fn push(&mut self) {
        self.toks.push(Push);
    }

    pub(crate) fn pop(&mut self) {
        self.toks.push(Pop);
    }

    /// Appends a node (a nested tuple stays nested).
    pub(crate) fn node(&mut self, n: Node<'_>) {
        match n {
            Node::Leaf(v) => self.leaf(v),
            Node::Tuple(s) => {
                self.push();
                self.seq(s);
                self.pop();
            }
        }
    }

    /// Appends the nodes of a sequence as siblings.
    pub(crate) fn seq(&mut self, s: Seq<'_>) {
        self.toks.extend_from_slice(s.toks);
        self.vals.extend_from_slice(s.vals);
    }

    /// The built siblings as a tuple.
    pub(crate) fn tuple(self) -> IntTuple {
        IntTuple::from_parts(self.toks, self.vals, false)
    }

    /// The built siblings, which must form exactly one node, as that node.
    pub(crate) fn single(self) -> IntTuple {
        let t = self.tuple();
        let mut s = t.seq();
        match (s.next(), s.next()) {
            (Some(n), None) => n.to_int_tuple(),
            _ => t,
        }
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> IntTuple {
        IntTuple::int(v)
    }
}

impl<const N: usize> From<[i64; N]> for IntTuple {
    fn from(vs: [i64; N]) -> IntTuple {
        IntTuple::from(&vs[..])
    }
}

impl From<&[i64]> for IntTuple {
    fn from(vs: &[i64]) -> IntTuple {
        let mut b = Builder::default();
        vs.iter().for_each(|&v| b.leaf(v));
        b.tuple()
    }
}

impl From<Vec<i64>> for IntTuple {
    fn from(vs: Vec<i64>) -> IntTuple {
        IntTuple::from(&vs[..])
    }
}

impl From<Vec<IntTuple>> for IntTuple {
    fn from(vs: Vec<IntTuple>) -> IntTuple {
        IntTuple::tuple(vs)
    }
}

/// Writes a tuple from its tokens, without recursion: a tuple built by hand may nest
/// without limit.
fn write_tuple(f: &mut fmt::Formatter<'_>, t: &IntTuple, cute: bool) -> fmt::Result {
    if t.int_root {
        return write!(f, "{}", t.vals[0]);
    }
    let (open, sep, close) = if cute {
        ("(", ",", ")")
    } else {
        ("[", ", ", "]")
    };
    f.write_str(open)?;
    let (mut first, mut leaf) = (true, 0usize);
    for tok in &t.toks {
        if !first && *tok != Pop {
            f.write_str(sep)?;
        }
        first = *tok == Push;
        match tok {
            Leaf => {
                write!(f, "{}", t.vals[leaf])?;
                leaf += 1;
            }
            Push => f.write_str(open)?,
            Pop => f.write_str(close)?,
        }
    }
    f.write_str(close)
}

impl fmt::Display for IntTuple {
    /// CuTe notation: `(2,(3,4))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tuple(f, self, true)
    }
}

impl fmt::Debug for IntTuple {
    /// List notation: `[2, [3, 4]]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tuple(f, self, false)
    }
}

impl FromStr for IntTuple {
    type Err = Error;

    /// Reads `5`, `(2,(3,4))` or `[2, [3, 4]]`; a mistake is reported with the text quoted
    /// and carets under the offending part.
    ///
    /// ```
    /// use strideweave::IntTuple;
    /// assert_eq!("[2, [3, 4]]".parse::<IntTuple>().unwrap().to_string(), "(2,(3,4))");
    /// let err = "(1,99999999999999999999)".parse::<IntTuple>().unwrap_err();
    /// assert_eq!(err.to_string(), "cannot parse IntTuple: integer `99999999999999999999` does \
    ///     not fit in i64 (from -9223372036854775808 to 9223372036854775807)\n  \
    ///     (1,99999999999999999999)\n     ^^^^^^^^^^^^^^^^^^^^");
    /// ```
    fn from_str(s: &str) -> Result<IntTuple> {
        let t =
            strideweave_syntax::parse_int_tuple(s).map_err(|e| parse_error("IntTuple", s, &e))?;
        Ok(IntTuple::from_syntax(&t))
    }
}

impl IntTuple {
    /// Converts a parsed syntax tuple (spans dropped).
    pub(crate) fn from_syntax<S>(t: &strideweave_syntax::Tuple<S>) -> IntTuple {
        fn go<S>(b: &mut Builder, t: &strideweave_syntax::Tuple<S>) {
            match t {
                strideweave_syntax::Tuple::Int(v, _) => b.leaf(*v),
                strideweave_syntax::Tuple::Tuple(items, _) => {
                    b.push();
                    items.iter().for_each(|c| go(b, c));
                    b.pop();
                }
            }
        }
        match t {
            strideweave_syntax::Tuple::Int(v, _) => IntTuple::int(*v),
            strideweave_syntax::Tuple::Tuple(items, _) => {
                let mut b = Builder::default();
                items.iter().for_each(|c| go(&mut b, c));
                b.tuple()
            }
        }
    }
}

/// A literal's first mistake as `Error::Parse`: the sentence every front end prints, then the
/// text quoted with carets under the offending part.
pub(crate) fn parse_error(
    what: &'static str,
    text: &str,
    e: &strideweave_syntax::LayoutError<std::ops::Range<usize>>,
) -> Error {
    Error::Parse {
        what,
        position: e.position.start,
        message: e.render(text),
    }
}

/// [`parse_error`] of the first of a literal's mistakes.
pub(crate) fn first_parse_error(
    what: &'static str,
    text: &str,
    mistakes: strideweave_syntax::Mistakes<std::ops::Range<usize>>,
) -> Error {
    parse_error(what, text, &mistakes[0])
}

/// Builds the dotted path `i.j.k` of a leaf from its depth-first leaf number.
pub(crate) fn leaf_path(toks: &[ProfileToken], leaf: usize) -> String {
    let mut path: Vec<usize> = vec![0];
    let mut seen = 0usize;
    for t in toks {
        match t {
            Push => path.push(0),
            Pop => {
                path.pop();
                if let Some(last) = path.last_mut() {
                    *last += 1;
                }
            }
            Leaf => {
                if seen == leaf {
                    return path
                        .iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(".");
                }
                seen += 1;
                if let Some(last) = path.last_mut() {
                    *last += 1;
                }
            }
        }
    }
    leaf.to_string()
}

/// Refuses a hierarchy nested deeper than [`MAX_NESTING`](strideweave_syntax::MAX_NESTING)
/// levels: `what` (`the tuple nests`, `the result would nest`) and its depth name it in the
/// message.
pub(crate) fn check_nesting(op: &'static str, what: &str, depth: usize) -> Result<()> {
    match too_deep(what, depth) {
        None => Ok(()),
        Some(reason) => Err(Error::not_representable(op, reason)),
    }
}

/// The depth of a tuple whose children have the profile `toks`: 1 + the deepest nesting.
pub(crate) fn tuple_depth(toks: &[ProfileToken]) -> usize {
    let (mut d, mut max) = (0usize, 0usize);
    for t in toks {
        match t {
            Push => {
                d += 1;
                max = max.max(d);
            }
            Pop => d -= 1,
            Leaf => {}
        }
    }
    1 + max
}

/// [`check_nesting`]'s reason, without the operation.
pub(crate) fn too_deep(what: &str, depth: usize) -> Option<String> {
    let limit = strideweave_syntax::MAX_NESTING;
    (depth > limit).then(|| {
        format!("{what} {depth} levels, deeper than the limit of {limit} levels (MAX_NESTING)")
    })
}
