//! The one nesting limit every parser and every walk of a hierarchy obeys.

/// The deepest nesting any notation may have: a layout, shape, stride or integer tuple
/// nests at most this many brackets, a rearrangement pattern's groups at most this many
/// levels. Deeper input is refused with an error naming the limit (never a stack overflow):
/// the parsers read nesting with an explicit stack, and every recursive walk of a parsed
/// hierarchy is bounded by it.
///
/// ```
/// use strideweave_syntax::{MAX_NESTING, parse_int_tuple};
/// let ok = format!("{}1{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
/// assert!(parse_int_tuple(&ok).is_ok());
/// let deep = format!("{}1{}", "(".repeat(MAX_NESTING + 1), ")".repeat(MAX_NESTING + 1));
/// let err = parse_int_tuple(&deep).unwrap_err();
/// assert_eq!(err.to_string(), "nesting deeper than 256 levels: this bracket opens level 257");
/// assert_eq!(err.position, 256..257);
/// ```
pub const MAX_NESTING: usize = 256;
