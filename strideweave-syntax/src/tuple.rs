//! A parsed integer tuple that remembers where each part came from.

use std::fmt;

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
        match self {
            Tuple::Int(v, s) => f(*v, s),
            Tuple::Tuple(items, _) => items.iter().for_each(|t| t.for_each_leaf(f)),
        }
    }
}

impl<S> fmt::Display for Tuple<S> {
    /// CuTe notation: `(2,(3,4))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tuple::Int(v, _) => write!(f, "{v}"),
            Tuple::Tuple(items, _) => {
                f.write_str("(")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}
