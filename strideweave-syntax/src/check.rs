//! Checks that notation obeys the rules of shapes and layouts, reported at the offending part.

use std::fmt;

use crate::tuple::Tuple;

/// A mistake in notation: where it is (a byte offset for text, a token span for macros) and
/// what is wrong.
///
/// ```
/// let err = strideweave_syntax::parse_int_tuple("(2,").unwrap_err();
/// assert_eq!(err.position, 3);
/// assert!(err.message.contains("expected"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError<S> {
    /// Where the mistake is.
    pub position: S,
    /// What is wrong, as a sentence fragment without the location.
    pub message: String,
}

impl NotationError<usize> {
    /// Renders the message with the text quoted and a caret under the offending character.
    ///
    /// ```
    /// let err = strideweave_syntax::parse_int_tuple("(2,x)").unwrap_err();
    /// assert_eq!(err.render("(2,x)"), "expected an integer, '(' or '[', found 'x' at offset 3\n  (2,x)\n     ^");
    /// ```
    pub fn render(&self, text: &str) -> String {
        let col = text
            .get(..self.position)
            .map(|s| s.chars().count())
            .unwrap_or(0);
        format!(
            "{} at offset {}\n  {}\n  {}^",
            self.message,
            self.position,
            text,
            " ".repeat(col)
        )
    }
}

impl<S> fmt::Display for NotationError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks that every leaf of a shape is an extent ≥ 1, reporting the first one that is not.
///
/// ```
/// let t = strideweave_syntax::parse_int_tuple("(2,(0,4))").unwrap();
/// let err = strideweave_syntax::check_extents(&t).unwrap_err();
/// assert_eq!(err.position, 4);
/// ```
pub fn check_extents<S: Clone>(shape: &Tuple<S>) -> Result<(), NotationError<S>> {
    let mut first = None;
    shape.for_each_leaf(&mut |v, s| {
        if v < 1 && first.is_none() {
            first = Some(NotationError {
                position: s.clone(),
                message: format!("shape extent {v} must be at least 1"),
            });
        }
    });
    first.map_or(Ok(()), Err)
}

/// Checks that a stride has the shape's leaf-and-nesting structure. At the root, an integer
/// and a one-element tuple are the same (one top-level mode); inside, a one-element tuple is
/// a real level.
///
/// ```
/// use strideweave_syntax::{check_congruent, parse_layout};
/// let (s, d) = parse_layout("(2,(3,4)):(1,2)").unwrap();
/// let err = check_congruent(&s, &d).unwrap_err();
/// assert_eq!(err.position, 13);
/// assert!(err.message.contains("tuple of 2"));
/// ```
pub fn check_congruent<S: Clone>(
    shape: &Tuple<S>,
    stride: &Tuple<S>,
) -> Result<(), NotationError<S>> {
    match (shape, stride) {
        (Tuple::Int(..), Tuple::Tuple(items, _)) | (Tuple::Tuple(items, _), Tuple::Int(..))
            if items.len() == 1 =>
        {
            // Root rule: `n` and `(n)` denote one top-level mode.
            let (a, b) = match (shape, stride) {
                (Tuple::Tuple(items, _), b) => (&items[0], b),
                (a, Tuple::Tuple(items, _)) => (a, &items[0]),
                _ => unreachable!(),
            };
            congruent_at(a, b, "mode 0")
        }
        _ => congruent_at(shape, stride, "the root"),
    }
}

fn congruent_at<S: Clone>(
    shape: &Tuple<S>,
    stride: &Tuple<S>,
    at: &str,
) -> Result<(), NotationError<S>> {
    match (shape, stride) {
        (Tuple::Int(..), Tuple::Int(..)) => Ok(()),
        (Tuple::Tuple(a, _), Tuple::Tuple(b, sp)) => {
            if a.len() != b.len() {
                return Err(NotationError {
                    position: sp.clone(),
                    message: format!(
                        "stride is not congruent with the shape at {at}: the shape has a tuple of {} mode{}, the stride a tuple of {}",
                        a.len(),
                        plural(a.len()),
                        b.len()
                    ),
                });
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let here = if at == "the root" {
                    format!("mode {i}")
                } else {
                    format!("{at}.{i}")
                };
                congruent_at(x, y, &here)?;
            }
            Ok(())
        }
        (Tuple::Int(..), Tuple::Tuple(b, sp)) => Err(NotationError {
            position: sp.clone(),
            message: format!(
                "stride is not congruent with the shape at {at}: the shape has a leaf, the stride a tuple of {}",
                b.len()
            ),
        }),
        (Tuple::Tuple(a, _), Tuple::Int(_, sp)) => Err(NotationError {
            position: sp.clone(),
            message: format!(
                "stride is not congruent with the shape at {at}: the shape has a tuple of {} mode{}, the stride a leaf",
                a.len(),
                plural(a.len())
            ),
        }),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
