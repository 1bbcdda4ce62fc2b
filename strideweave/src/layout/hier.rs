//! Hand-built hierarchies ([`Tree`](crate::Tree), [`Tiler`](crate::Tiler)) without
//! recursion: their variants are public, so a caller may nest them without limit, and every
//! walk over one — clone, equality, hashing, formatting, drop — uses an explicit stack.

/// A hierarchy whose nodes hold a `Vec` of children and whose other variants are leaves.
pub(crate) trait Hierarchy: Sized {
    /// The children of a node; `None` for a leaf.
    fn children(&self) -> Option<&[Self]>;
    /// The children of a node, to be taken; `None` for a leaf.
    fn children_mut(&mut self) -> Option<&mut Vec<Self>>;
    /// A node holding `children`.
    fn node(children: Vec<Self>) -> Self;
    /// A copy of a leaf (never called on a node).
    fn clone_leaf(&self) -> Self;
}

/// One step of a depth-first walk.
pub(crate) enum Visit<'a, T> {
    /// A leaf.
    Leaf(&'a T),
    /// A node opens (its children follow, then its [`Visit::Close`]).
    Open,
    /// The innermost open node closes.
    Close,
}

/// The depth-first walk of `root` (a node's children between its `Open` and `Close`).
pub(crate) fn visits<T: Hierarchy>(root: &T) -> Visits<'_, T> {
    Visits {
        stack: Vec::new(),
        at: std::slice::from_ref(root).iter(),
    }
}

/// The iterator of [`visits`]: the siblings still to visit at each open level.
pub(crate) struct Visits<'a, T> {
    stack: Vec<std::slice::Iter<'a, T>>,
    at: std::slice::Iter<'a, T>,
}

impl<'a, T: Hierarchy> Iterator for Visits<'a, T> {
    type Item = Visit<'a, T>;

    fn next(&mut self) -> Option<Visit<'a, T>> {
        match self.at.next() {
            Some(t) => Some(match t.children() {
                Some(c) => {
                    self.stack.push(std::mem::replace(&mut self.at, c.iter()));
                    Visit::Open
                }
                None => Visit::Leaf(t),
            }),
            None => {
                self.at = self.stack.pop()?;
                Some(Visit::Close)
            }
        }
    }
}

/// A deep copy of `root`, rebuilt from its walk.
pub(crate) fn clone_flat<T: Hierarchy>(root: &T) -> T {
    let mut open: Vec<Vec<T>> = vec![Vec::new()];
    for v in visits(root) {
        match v {
            Visit::Leaf(t) => push(&mut open, t.clone_leaf()),
            Visit::Open => open.push(Vec::new()),
            Visit::Close => {
                let children = open.pop().unwrap_or_default();
                push(&mut open, T::node(children));
            }
        }
    }
    // unreachable from user input: the walk closes every node it opens, so exactly the
    // root is left at the bottom level.
    open.pop()
        .and_then(|mut v| v.pop())
        // unreachable from user input: the walk starts from the root, so it yields it.
        .expect("a walk yields its root")
}

fn push<T>(open: &mut [Vec<T>], t: T) {
    if let Some(level) = open.last_mut() {
        level.push(t);
    }
}

/// Whether `a` and `b` have the same nesting and equal leaves (`leaf_eq`) in order.
pub(crate) fn eq_flat<T: Hierarchy>(a: &T, b: &T, leaf_eq: impl Fn(&T, &T) -> bool) -> bool {
    let (mut x, mut y) = (visits(a), visits(b));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(Visit::Leaf(p)), Some(Visit::Leaf(q))) if leaf_eq(p, q) => {}
            (Some(Visit::Open), Some(Visit::Open)) | (Some(Visit::Close), Some(Visit::Close)) => {}
            _ => return false,
        }
    }
}

/// Writes `root` as a derived `Debug` would: each leaf by `leaf`, each node's children
/// between `open` and `close` separated by `", "`.
pub(crate) fn write_flat<T: Hierarchy>(
    root: &T,
    f: &mut std::fmt::Formatter<'_>,
    (open, sep, close): (&str, &str, &str),
    leaf: impl Fn(&T, &mut std::fmt::Formatter<'_>) -> std::fmt::Result,
) -> std::fmt::Result {
    let mut first = true;
    for v in visits(root) {
        if !first && !matches!(v, Visit::Close) {
            f.write_str(sep)?;
        }
        first = matches!(v, Visit::Open);
        match v {
            Visit::Leaf(t) => leaf(t, f)?,
            Visit::Open => f.write_str(open)?,
            Visit::Close => f.write_str(close)?,
        }
    }
    Ok(())
}

/// Drops the children of `root` with an explicit stack: each is emptied of its own
/// children before it drops, so no drop recurses.
pub(crate) fn drop_flat<T: Hierarchy>(root: &mut T) {
    let Some(children) = root.children_mut() else {
        return;
    };
    let mut stack = std::mem::take(children);
    while let Some(mut t) = stack.pop() {
        if let Some(c) = t.children_mut() {
            stack.append(c);
        }
    }
}
