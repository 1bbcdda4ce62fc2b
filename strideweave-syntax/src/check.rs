//! The error of the pattern grammar: a message and where it applies.

use std::fmt;

/// A mistake in a rearrangement pattern: where it is (a byte range of the text, a token span
/// for macros) and what is wrong. Layout literals report a structured
/// [`LayoutError`](crate::LayoutError) instead.
///
/// ```
/// let err = strideweave_syntax::parse_pattern("a (b -> a b").unwrap_err();
/// assert_eq!(err.position, 2..3);
/// assert!(err.message.contains("never closed"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError<S> {
    /// Where the mistake is.
    pub position: S,
    /// What is wrong, as a sentence fragment without the location.
    pub message: String,
}

impl<S> fmt::Display for NotationError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
