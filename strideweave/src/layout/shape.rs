//! `Shape` and `Stride`: the two congruent halves of a layout.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::layout::int_tuple::{
    IntTuple, ProfileToken, Toks, Vals, check_nesting, first_parse_error, leaf_path, parse_error,
};

/// An [`IntTuple`] whose leaves are extents ≥ 1 and whose size fits in `i64`.
///
/// At the root an integer and a one-element tuple denote the same shape:
///
/// ```
/// use strideweave::{IntTuple, Shape};
/// let s = Shape::new(IntTuple::from([2, 3])).unwrap();
/// assert_eq!((s.size(), s.rank()), (6, 2));
/// assert_eq!(Shape::new(IntTuple::int(4)).unwrap(), "(4)".parse::<Shape>().unwrap());
/// assert_eq!(format!("{s:?}"), "Shape([2, 3])");
/// assert!(Shape::new(IntTuple::from([2, 0])).is_err());
/// ```
#[derive(Clone)]
pub struct Shape(pub(crate) IntTuple);

/// An [`IntTuple`] of signed strides: any integers, negative ones included
/// (reversed views need them), although complement, the divides, the products and the
/// inverses accept only non-negative strides.
///
/// ```
/// use strideweave::{IntTuple, Stride};
/// let d = Stride::new(IntTuple::from([1, -4])).unwrap();
/// assert_eq!(d.to_string(), "(1,-4)");
/// assert_eq!(format!("{d:?}"), "Stride([1, -4])");
/// ```
#[derive(Clone)]
pub struct Stride(pub(crate) IntTuple);

impl Shape {
    /// The crate's unchecked constructor: a shape of profile `toks` (an integer when
    /// `int_root`) whose extents are known to be ≥ 1 with a size within `i64`.
    pub(crate) fn from_valid(
        toks: impl Into<Toks>,
        extents: impl Into<Vals>,
        int_root: bool,
    ) -> Shape {
        let shape = Shape(IntTuple::from_parts(toks.into(), extents.into(), int_root));
        debug_assert!(shape.0.vals.iter().all(|&e| e >= 1));
        shape
    }

    /// Checks the nesting (at most [`MAX_NESTING`](crate::MAX_NESTING) levels), that every
    /// leaf is at least 1 and that the size fits in `i64`.
    ///
    /// ```
    /// let err = strideweave::Shape::new("(2,(3,-1))".parse().unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "Shape::new: extent -1 at mode 1.1 must be at least 1");
    /// ```
    pub fn new(t: IntTuple) -> Result<Shape> {
        check_nesting("Shape::new", "the tuple nests", t.depth())?;
        if let Some(i) = t.vals.iter().position(|&v| v < 1) {
            return Err(Error::InvalidExtent {
                op: "Shape::new",
                mode: leaf_path(&t.toks, i),
                extent: t.vals[i],
            });
        }
        t.product()
            .map_err(|_| Error::overflow("Shape::new", "the size of the shape"))?;
        Ok(Shape(t))
    }

    /// The empty shape `()`: no top-level modes, size 1 (a scalar's shape).
    ///
    /// ```
    /// let e = strideweave::Shape::empty();
    /// assert_eq!((e.rank(), e.size(), e.to_string()), (0, 1, "()".to_string()));
    /// ```
    pub fn empty() -> Shape {
        Shape(IntTuple::tuple([]))
    }

    /// The product of the extents.
    ///
    /// ```
    /// assert_eq!("(2,(3,4))".parse::<strideweave::Shape>().unwrap().size(), 24);
    /// ```
    pub fn size(&self) -> usize {
        self.0.vals.iter().product::<i64>() as usize
    }

    /// The number of top-level modes.
    ///
    /// ```
    /// assert_eq!("(2,(3,4))".parse::<strideweave::Shape>().unwrap().rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.0.rank()
    }

    /// The nesting depth (0 for an integer shape).
    ///
    /// ```
    /// assert_eq!("(2,(3,4))".parse::<strideweave::Shape>().unwrap().depth(), 2);
    /// ```
    pub fn depth(&self) -> usize {
        self.0.depth()
    }

    /// The leaf-and-nesting recipe, without the extents (the profile).
    ///
    /// ```
    /// use strideweave::{Shape, ProfileToken::*};
    /// let s: Shape = "(7,(8,9))".parse().unwrap();
    /// assert_eq!(s.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
    /// ```
    #[inline]
    pub fn profile(&self) -> &[ProfileToken] {
        self.0.profile()
    }

    /// The leaf values — the extents — in depth-first order (as [`IntTuple::leaves`] and
    /// [`Stride::leaves`] give theirs).
    ///
    /// ```
    /// assert_eq!("(2,(3,4))".parse::<strideweave::Shape>().unwrap().leaves(), &[2, 3, 4]);
    /// ```
    #[inline]
    pub fn leaves(&self) -> &[i64] {
        &self.0.vals
    }

    /// The underlying tuple.
    ///
    /// ```
    /// let s: strideweave::Shape = "(2,3)".parse().unwrap();
    /// assert_eq!(s.as_int_tuple().to_string(), "(2,3)");
    /// ```
    #[inline]
    pub fn as_int_tuple(&self) -> &IntTuple {
        &self.0
    }

    /// Top-level mode `i` as a shape.
    ///
    /// ```
    /// let s: strideweave::Shape = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(s.mode(1).unwrap().to_string(), "(3,4)");
    /// ```
    pub fn mode(&self, i: usize) -> Option<Shape> {
        self.0.get(i).map(Shape)
    }

    /// The natural (shape-congruent) coordinate of a first-mode-fastest ordinal in
    /// `[0, size)` (CuTe's `idx2crd`).
    ///
    /// ```
    /// let s: strideweave::Shape = "(3,(2,3))".parse().unwrap();
    /// assert_eq!(s.coordinate(16).unwrap().to_string(), "(1,(1,2))");
    /// assert!(s.coordinate(18).is_err());
    /// ```
    pub fn coordinate(&self, ordinal: usize) -> Result<IntTuple> {
        let size = self.size();
        if ordinal >= size {
            return Err(Error::OutOfDomain {
                op: "coordinate",
                what: "ordinal",
                value: i64::try_from(ordinal).unwrap_or(i64::MAX),
                place: format!("shape {self} of size {size}"),
                bound: size as i64,
            });
        }
        let mut rest = ordinal as i64;
        let digits = self
            .0
            .vals
            .iter()
            .map(|&e| {
                let c = rest % e;
                rest /= e;
                c
            })
            .collect();
        Ok(self.0.with_leaves(digits))
    }

    /// Builds a shape from parts already known to be valid (used by macro expansions).
    #[doc(hidden)]
    pub fn __from_checked(t: IntTuple) -> Shape {
        Shape(t)
    }
}

impl Stride {
    /// Wraps a tuple of signed strides nested at most [`MAX_NESTING`](crate::MAX_NESTING)
    /// levels.
    ///
    /// ```
    /// let d = strideweave::Stride::new(strideweave::IntTuple::from([1, 0, -3])).unwrap();
    /// assert_eq!(d.leaves(), &[1, 0, -3]);
    /// ```
    pub fn new(t: IntTuple) -> Result<Stride> {
        check_nesting("Stride::new", "the tuple nests", t.depth())?;
        Ok(Stride(t))
    }

    /// The leaf values — the strides — in depth-first order (as [`IntTuple::leaves`] and
    /// [`Shape::leaves`] give theirs).
    ///
    /// ```
    /// assert_eq!("(1,(2,6))".parse::<strideweave::Stride>().unwrap().leaves(), &[1, 2, 6]);
    /// ```
    #[inline]
    pub fn leaves(&self) -> &[i64] {
        &self.0.vals
    }

    /// The underlying tuple.
    ///
    /// ```
    /// let d: strideweave::Stride = "(1,2)".parse().unwrap();
    /// assert_eq!(d.as_int_tuple().rank(), 2);
    /// ```
    #[inline]
    pub fn as_int_tuple(&self) -> &IntTuple {
        &self.0
    }

    /// The nesting depth (0 for an integer stride).
    ///
    /// ```
    /// assert_eq!("(1,(2,6))".parse::<strideweave::Stride>().unwrap().depth(), 2);
    /// ```
    pub fn depth(&self) -> usize {
        self.0.depth()
    }

    /// The number of top-level modes.
    ///
    /// ```
    /// assert_eq!("(1,(2,6))".parse::<strideweave::Stride>().unwrap().rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.0.rank()
    }
}

macro_rules! tuple_newtype_impls {
    ($ty:ident, $name:literal, $parse:path, $check:expr) => {
        impl PartialEq for $ty {
            /// Equal when the profiles and leaves agree; at the root `n` equals `(n)`.
            fn eq(&self, other: &$ty) -> bool {
                self.0.toks == other.0.toks && self.0.vals == other.0.vals
            }
        }

        impl Eq for $ty {}

        impl Hash for $ty {
            fn hash<H: Hasher>(&self, h: &mut H) {
                self.0.toks.hash(h);
                self.0.vals.hash(h);
            }
        }

        impl fmt::Display for $ty {
            /// CuTe notation.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl fmt::Debug for $ty {
            /// `Shape([2, [3, 4]])` / `Stride([1, [2, 6]])`.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($name, "({:?})"), self.0)
            }
        }

        impl FromStr for $ty {
            type Err = Error;

            /// Reads `(2,(3,4))`, `[2, [3, 4]]` or the `Debug` form; a mistake is reported as
            /// the macros report it, with the text quoted and carets under the offending part.
            fn from_str(s: &str) -> Result<$ty> {
                let t = $parse(s).map_err(|e| parse_error($name, s, &e))?;
                $check(&t).map_err(|e| first_parse_error($name, s, e))?;
                $ty::new(IntTuple::from_syntax(&t))
            }
        }

        impl TryFrom<IntTuple> for $ty {
            type Error = Error;

            fn try_from(t: IntTuple) -> Result<$ty> {
                $ty::new(t)
            }
        }

        impl AsRef<IntTuple> for $ty {
            fn as_ref(&self) -> &IntTuple {
                &self.0
            }
        }
    };
}

tuple_newtype_impls!(
    Shape,
    "Shape",
    strideweave_syntax::parse_shape,
    strideweave_syntax::check_shape
);
// A stride's leaves may be any integers: no rule beyond the grammar.
tuple_newtype_impls!(Stride, "Stride", strideweave_syntax::parse_stride, |_| {
    Ok::<(), strideweave_syntax::Mistakes<std::ops::Range<usize>>>(())
});
