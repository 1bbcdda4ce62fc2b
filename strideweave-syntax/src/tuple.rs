//! A parsed integer tuple that remembers where each part came from.

use std::fmt;

use crate::limit::MAX_NESTING;
use crate::mistake::{LayoutError, LayoutMistake};

/// An integer or a (possibly empty, possibly nested) tuple of such, with the span `S` of
/// each part in the source it was read from.
///
/// ```
/// use strideweave_syntax::Tuple;
/// let t = Tuple::Tuple(vec![Tuple::Int(2, ()), Tuple::Tuple(vec![Tuple::Int(3, ())], ())], ());
/// assert_eq!(t.to_string(), "(2,(3))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tuple<S> {
    /// A leaf value and its span.
    Int(i64, S),
    /// A tuple of children and the span of the whole tuple.
    Tuple(Vec<Tuple<S>>, S),
}

impl<S> Tuple<S> {
    /// The span of this part.
    ///
    /// ```
    /// let t = strideweave_syntax::parse_int_tuple("(1, 2)").unwrap();
    /// assert_eq!(*t.span(), 0..6);
    /// ```
    pub fn span(&self) -> &S {
        match self {
            Tuple::Int(_, s) | Tuple::Tuple(_, s) => s,
        }
    }

    /// Visits every leaf in depth-first, left-to-right order.
    ///
    /// ```
    /// let t = strideweave_syntax::parse_int_tuple("(1,(2,3))").unwrap();
    /// let mut leaves = vec![];
    /// t.for_each_leaf(&mut |v, _| leaves.push(v));
    /// assert_eq!(leaves, [1, 2, 3]);
    /// ```
    pub fn for_each_leaf(&self, f: &mut impl FnMut(i64, &S)) {
        walk(self, &mut |event| {
            if let Event::Leaf(v, s) = event {
                f(v, s);
            }
        });
    }

    /// The first tuple nested deeper than [`MAX_NESTING`] levels (the root tuple is level
    /// 1), as the mistake to report at it. Iterative: any depth is measured.
    pub(crate) fn too_deep(&self) -> Option<LayoutError<S>>
    where
        S: Clone,
    {
        let mut stack: Vec<std::slice::Iter<'_, Tuple<S>>> = Vec::new();
        let mut at = match self {
            Tuple::Int(..) => return None,
            Tuple::Tuple(items, _) => items.iter(),
        };
        loop {
            match at.next() {
                Some(Tuple::Tuple(items, span)) => {
                    if stack.len() + 1 == MAX_NESTING {
                        return Some(LayoutError {
                            position: span.clone(),
                            mistake: LayoutMistake::TooDeep { limit: MAX_NESTING },
                        });
                    }
                    stack.push(std::mem::replace(&mut at, items.iter()));
                }
                Some(Tuple::Int(..)) => {}
                None => at = stack.pop()?,
            }
        }
    }
}

/// One step of a depth-first walk.
enum Event<'t, S> {
    Leaf(i64, &'t S),
    Open,
    Close,
}

/// Visits a tuple depth-first with an explicit stack (no recursion, any depth).
fn walk<'t, S>(t: &'t Tuple<S>, f: &mut impl FnMut(Event<'t, S>)) {
    let mut stack: Vec<std::slice::Iter<'t, Tuple<S>>> = Vec::new();
    let mut at = std::slice::from_ref(t).iter();
    loop {
        match at.next() {
            Some(Tuple::Int(v, s)) => f(Event::Leaf(*v, s)),
            Some(Tuple::Tuple(items, _)) => {
                f(Event::Open);
                stack.push(std::mem::replace(&mut at, items.iter()));
            }
            None => match stack.pop() {
                Some(outer) => {
                    f(Event::Close);
                    at = outer;
                }
                None => return,
            },
        }
    }
}

impl<S> fmt::Display for Tuple<S> {
    /// CuTe notation: `(2,(3,4))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A comma goes before every part that follows another in the same tuple.
        let (mut result, mut first) = (Ok(()), true);
        walk(self, &mut |event| {
            if result.is_err() {
                return;
            }
            if !first && !matches!(event, Event::Close) {
                result = f.write_str(",");
            }
            first = matches!(event, Event::Open);
            result = result.and_then(|()| match event {
                Event::Leaf(v, _) => write!(f, "{v}"),
                Event::Open => f.write_str("("),
                Event::Close => f.write_str(")"),
            });
        });
        result
    }
}
