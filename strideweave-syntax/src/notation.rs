//! Text notation of integer tuples and layouts.
//!
//! Two notations are read, and may not be mixed inside one tuple:
//! * CuTe's: `(2,(3,4)):(1,(2,6))`, tuples in parentheses;
//! * StrideWeave's `Debug`: `Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))`, tuples in brackets.
//!
//! Spans are byte ranges of the text: a tuple from its opening to its closing bracket, an
//! integer from its sign to its last digit.

use std::ops::Range;

use crate::limit::MAX_NESTING;
use crate::mistake::{Expected, LayoutError, LayoutMistake};
use crate::tuple::Tuple;

/// A tuple read from text, each part with its byte range.
pub type TextTuple = Tuple<Range<usize>>;

type Error = LayoutError<Range<usize>>;

/// Parses one integer tuple: `5`, `(2,(3,4))` or `[2, [3, 4]]`.
///
/// ```
/// let t = strideweave_syntax::parse_int_tuple("[2, [3, 4]]").unwrap();
/// assert_eq!(t.to_string(), "(2,(3,4))");
/// let err = strideweave_syntax::parse_int_tuple("(2,(3,4)").unwrap_err();
/// assert_eq!(err.position, 8..8);
/// ```
pub fn parse_int_tuple(text: &str) -> Result<TextTuple, Error> {
    let mut p = Parser::new(text);
    let t = p.tuple()?;
    p.end()?;
    Ok(t)
}

/// Parses a shape: an integer tuple, optionally wrapped as `Shape(…)`.
///
/// ```
/// let t = strideweave_syntax::parse_shape("Shape([2, 3])").unwrap();
/// assert_eq!(t.to_string(), "(2,3)");
/// ```
pub fn parse_shape(text: &str) -> Result<TextTuple, Error> {
    parse_wrapped(text, "Shape")
}

/// Parses a stride: an integer tuple, optionally wrapped as `Stride(…)`.
///
/// ```
/// let t = strideweave_syntax::parse_stride("(1,-2)").unwrap();
/// assert_eq!(t.to_string(), "(1,-2)");
/// ```
pub fn parse_stride(text: &str) -> Result<TextTuple, Error> {
    parse_wrapped(text, "Stride")
}

fn parse_wrapped(text: &str, name: &str) -> Result<TextTuple, Error> {
    let mut p = Parser::new(text);
    let t = p.maybe_wrapped(name)?;
    p.end()?;
    Ok(t)
}

/// Parses a layout in either notation and returns its shape and stride, unchecked for
/// congruence or any other rule (see [`check_layout`](crate::check_layout)).
///
/// ```
/// use strideweave_syntax::parse_layout;
/// let (s, d) = parse_layout("Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))").unwrap();
/// assert_eq!(format!("{s}:{d}"), "(2,(3,4)):(1,(2,6))");
/// let err = parse_layout("(2,3);(1,2)").unwrap_err();
/// assert_eq!(err.position, 5..6);
/// ```
pub fn parse_layout(text: &str) -> Result<(TextTuple, TextTuple), Error> {
    let mut p = Parser::new(text);
    p.skip_ws();
    let pair = if p.rest().starts_with("Layout") {
        p.pos += "Layout".len();
        p.expect('(')?;
        let shape = p.maybe_wrapped("Shape")?;
        p.expect(',')?;
        let stride = p.maybe_wrapped("Stride")?;
        p.expect(')')?;
        (shape, stride)
    } else {
        let shape = p.tuple()?;
        p.expect(':')?;
        let stride = p.tuple()?;
        (shape, stride)
    };
    p.end()?;
    Ok(pair)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { text, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    /// A mistake at the current character (an empty range at the end of the text).
    fn error(&self, expected: Expected) -> Error {
        let found = self.peek();
        let len = found.map_or(0, char::len_utf8);
        LayoutError {
            position: self.pos..self.pos + len,
            mistake: LayoutMistake::Expected { expected, found },
        }
    }

    fn expect(&mut self, want: char) -> Result<(), Error> {
        self.skip_ws();
        if self.peek() == Some(want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(Expected::Char(want)))
        }
    }

    fn end(&mut self) -> Result<(), Error> {
        self.skip_ws();
        match self.peek() {
            None => Ok(()),
            Some(found) => Err(LayoutError {
                position: self.pos..self.text.len(),
                mistake: LayoutMistake::Trailing { found },
            }),
        }
    }

    fn maybe_wrapped(&mut self, name: &str) -> Result<TextTuple, Error> {
        self.skip_ws();
        if self.rest().starts_with(name) {
            self.pos += name.len();
            self.expect('(')?;
            let t = self.tuple()?;
            self.expect(')')?;
            Ok(t)
        } else {
            self.tuple()
        }
    }

    /// One value, read with an explicit stack of the tuples open around it (no recursion:
    /// nesting costs no call stack, and is refused beyond [`MAX_NESTING`] levels).
    fn tuple(&mut self) -> Result<TextTuple, Error> {
        // The open tuples: where each opens, its closing bracket, its items so far.
        let mut open: Vec<(usize, char, Vec<TextTuple>)> = Vec::new();
        loop {
            // A value is expected here.
            self.skip_ws();
            let start = self.pos;
            let mut value = match self.peek() {
                Some(bracket @ ('(' | '[')) => {
                    if open.len() == MAX_NESTING {
                        return Err(LayoutError {
                            position: start..start + 1,
                            mistake: LayoutMistake::TooDeep { limit: MAX_NESTING },
                        });
                    }
                    let close = if bracket == '(' { ')' } else { ']' };
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() != Some(close) {
                        open.push((start, close, Vec::new()));
                        continue;
                    }
                    self.pos += 1;
                    Tuple::Tuple(Vec::new(), start..self.pos)
                }
                Some(c) if c == '-' || c == '+' || c.is_ascii_digit() => self.integer()?,
                _ => return Err(self.error(Expected::Value)),
            };
            // A complete value: it joins the innermost open tuple, which then closes (and
            // completes a value of its own) or continues after a comma.
            loop {
                let Some((opened_at, close, items)) = open.last_mut() else {
                    return Ok(value);
                };
                let (opened_at, close) = (*opened_at, *close);
                items.push(value);
                self.skip_ws();
                if self.peek() == Some(',') {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() != Some(close) {
                        break; // the next item
                    }
                    // A trailing comma.
                } else if self.peek() != Some(close) {
                    return Err(self.error(Expected::CommaOrClose { close, opened_at }));
                }
                self.pos += 1;
                // unreachable from user input: a closing bracket is handled only while a tuple is open (depth checked above).
                let (_, _, items) = open.pop().expect("an open tuple");
                value = Tuple::Tuple(items, opened_at..self.pos);
            }
        }
    }

    fn integer(&mut self) -> Result<TextTuple, Error> {
        let start = self.pos;
        let negative = match self.peek() {
            Some('-') => {
                self.pos += 1;
                true
            }
            Some('+') => {
                self.pos += 1;
                false
            }
            _ => false,
        };
        let digits_start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || c == '_') {
            self.pos += 1;
        }
        if self.pos == digits_start {
            return Err(self.error(Expected::Digits));
        }
        let digits: String = self.text[digits_start..self.pos]
            .chars()
            .filter(|c| *c != '_')
            .collect();
        // Digits beyond i128 are out of range too.
        let value = digits
            .parse::<i128>()
            .ok()
            .map(|m| if negative { -m } else { m })
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(|| LayoutError {
                position: start..self.pos,
                mistake: LayoutMistake::IntegerOutOfRange {
                    text: self.text[start..self.pos].to_string(),
                },
            })?;
        Ok(Tuple::Int(value, start..self.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations_read_the_same_layout() {
        let a = parse_layout("(2,(3,4)):(1,(2,6))").unwrap();
        let b = parse_layout("Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))").unwrap();
        assert_eq!(a.0.to_string(), b.0.to_string());
        assert_eq!(a.1.to_string(), b.1.to_string());
    }

    #[test]
    fn integer_root_and_empty_tuple() {
        assert_eq!(parse_layout("20:2").unwrap().0.to_string(), "20");
        assert_eq!(parse_layout("():()").unwrap().0.to_string(), "()");
    }

    #[test]
    fn errors_point_at_the_character() {
        assert_eq!(parse_int_tuple("(2,x)").unwrap_err().position, 3..4);
        assert_eq!(parse_int_tuple("(2 3)").unwrap_err().position, 3..4);
        let e = parse_int_tuple("(1,-99999999999999999999)").unwrap_err();
        assert_eq!(e.position, 3..24);
        assert_eq!(
            e.to_string(),
            "integer `-99999999999999999999` does not fit in i64 (from -9223372036854775808 to 9223372036854775807)"
        );
        // Beyond i128 too.
        assert!(parse_int_tuple(&"9".repeat(60)).is_err());
        assert_eq!(parse_layout("(2,3)").unwrap_err().position, 5..5);
        let e = parse_layout("(2,3):(1,2) x").unwrap_err();
        assert_eq!(e.position, 12..13);
        assert_eq!(e.to_string(), "unexpected 'x' after a complete value");
    }
}
