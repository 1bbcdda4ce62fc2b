//! `Display` (CuTe), `Debug` and `FromStr` (both notations) of layouts: each parses back.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::int_tuple::{IntTuple, first_parse_error, parse_error};
use crate::layout::shape::{Shape, Stride};

impl fmt::Display for Layout {
    /// CuTe notation: `(2,(3,4)):(1,(2,6))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

impl fmt::Debug for Layout {
    /// `Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({:?}, {:?})", self.shape, self.stride)
    }
}

impl FromStr for Layout {
    type Err = Error;

    /// Reads either notation. A mistake is reported in the words `layout!` uses for it, with
    /// the text quoted and carets under the offending part: a character the grammar does not
    /// allow, an extent below 1, a stride not congruent with the shape, a size or a reach (the
    /// smallest and the largest index) that overflows `i64`.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// let b: Layout = "Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))".parse().unwrap();
    /// assert_eq!(a, b);
    /// let err = "(2,(0,4)):(1,(2,6))".parse::<Layout>().unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "cannot parse layout: extent 0 at mode 1.0 must be at least 1\n  (2,(0,4)):(1,(2,6))\n      ^");
    /// let err = "(2,2):(9223372036854775807,1)".parse::<Layout>().unwrap_err();
    /// assert!(err.to_string().ends_with("(2,2):(9223372036854775807,1)\n                             ^"));
    /// ```
    fn from_str(s: &str) -> Result<Layout> {
        let (shape, stride) =
            strideweave_syntax::parse_layout(s).map_err(|e| parse_error("layout", s, &e))?;
        strideweave_syntax::check_layout(&shape, Some(&stride))
            .map_err(|e| first_parse_error("layout", s, e))?;
        Layout::new(
            Shape::new(IntTuple::from_syntax(&shape))?,
            Stride::new(IntTuple::from_syntax(&stride))?,
        )
    }
}
