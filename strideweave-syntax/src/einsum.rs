//! Einsum patterns: one or two comma-separated inputs on the left of the rearrangement
//! grammar (`"i k, k j -> i j"`).
//!
//! Each input is parsed by [`parse_pattern`] on the text with the other inputs and the commas
//! blanked out (same length), so every span is a byte range of the caller's text, and
//! checked by [`check_pattern`] as a `repeat` of that input onto the output (which permits
//! output symbols the input lacks and reports the input's symbols the output lacks: the
//! summed ones). What is einsum's own: at most two inputs, every output symbol named by some
//! input, and `...` on every input when on the output (and on the output when on an input).

use std::ops::Range;

use crate::check::NotationError;
use crate::pattern::{Pattern, PatternKind, Term, check_pattern, parse_pattern};

/// A parsed and checked einsum pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Einsum {
    /// Per input: the pattern `input -> output` over a text of the caller's length in which
    /// everything but that input and the output is blanked (spans are the caller's).
    pub inputs: Vec<Pattern<Range<usize>>>,
    /// Per input, the blanked text its pattern was parsed from.
    pub texts: Vec<String>,
    /// Per input, its symbols in order of appearance (inside groups too).
    pub symbols: Vec<Vec<String>>,
    /// Whether the output (and then every input) holds `...`.
    pub ellipsis: bool,
}

/// Parses and checks an einsum pattern of one or two inputs.
///
/// ```
/// use strideweave_syntax::parse_einsum;
/// let e = parse_einsum("b i k, b k j -> b i j").unwrap();
/// assert_eq!(e.symbols, [["b", "i", "k"], ["b", "k", "j"]]);
/// assert_eq!(e.texts[1], "       b k j -> b i j");
/// let err = parse_einsum("i k, k j -> i x").unwrap_err();
/// assert_eq!(err.position, 14..15);
/// assert!(err.message.contains("unknown identifier `x`"));
/// ```
pub fn parse_einsum(text: &str) -> Result<Einsum, NotationError<Range<usize>>> {
    let fail = |position: Range<usize>, message: String| NotationError { position, message };
    let arrow = text.find("->").unwrap_or(text.len());
    let commas: Vec<usize> = text[..arrow].match_indices(',').map(|(i, _)| i).collect();
    if commas.len() > 1 {
        return Err(fail(
            commas[1]..commas[1] + 1,
            "einsum takes one or two inputs: a second `,` on the left".into(),
        ));
    }
    let mut bounds = vec![0];
    bounds.extend(commas.iter().flat_map(|&c| [c, c + 1]));
    bounds.push(arrow);
    let mut e = Einsum {
        inputs: Vec::new(),
        texts: Vec::new(),
        symbols: Vec::new(),
        ellipsis: false,
    };
    for part in bounds.chunks(2) {
        let (lo, hi) = (part[0], part[1]);
        let mut blanked = String::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            if i < arrow && !(lo..hi).contains(&i) {
                blanked.extend(std::iter::repeat_n(' ', c.len_utf8()));
            } else {
                blanked.push(c);
            }
        }
        let p = parse_pattern(&blanked)?;
        check_pattern(&p, PatternKind::Repeat)?;
        let mut symbols = Vec::new();
        let mut has_ellipsis = false;
        let mut stack = vec![p.left.terms.iter()];
        while let Some(top) = stack.last_mut() {
            match top.next() {
                None => {
                    stack.pop();
                }
                Some(Term::Symbol(s, _)) => symbols.push(s.clone()),
                Some(Term::Group(inner, _)) => stack.push(inner.iter()),
                Some(Term::Ellipsis(_)) => has_ellipsis = true,
                Some(Term::Unit(_)) => {}
            }
        }
        let out_ellipsis = p.right.terms.iter().any(|t| matches!(t, Term::Ellipsis(_)));
        if has_ellipsis != out_ellipsis {
            return Err(fail(
                p.left.span.clone(),
                format!(
                    "`...` on {} only: write it on every input and the output, or nowhere",
                    if has_ellipsis {
                        "an input"
                    } else {
                        "the output"
                    }
                ),
            ));
        }
        e.ellipsis = out_ellipsis;
        e.inputs.push(p);
        e.texts.push(blanked);
        e.symbols.push(symbols);
    }
    // Every output symbol is named by some input.
    let right = &e.inputs[0].right;
    let mut stack = vec![right.terms.iter()];
    let mut at = 0usize;
    while let Some(top) = stack.last_mut() {
        match top.next() {
            None => {
                stack.pop();
            }
            Some(Term::Group(inner, _)) => stack.push(inner.iter()),
            Some(Term::Symbol(s, span)) => {
                if !e.symbols.iter().any(|v| v.contains(s)) {
                    return Err(fail(
                        span.clone(),
                        format!(
                            "unknown identifier `{s}` on the right, term {at}: it does not appear in any input"
                        ),
                    ));
                }
            }
            Some(_) => {}
        }
        if stack.len() == 1 {
            at += 1;
        }
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn einsum_patterns_keep_the_callers_spans() {
        let e = parse_einsum("b h q d, b h k d -> b h q k").unwrap();
        assert_eq!(e.inputs.len(), 2);
        assert_eq!(*e.inputs[1].left.terms[0].span(), 9..10);
        let one = parse_einsum("i j -> j i").unwrap();
        assert_eq!(one.inputs.len(), 1);
        assert_eq!(one.symbols, [["i", "j"]]);
    }

    #[test]
    fn einsum_rejects_three_inputs_duplicates_and_lone_ellipses() {
        let err = parse_einsum("a, b, c -> a").unwrap_err();
        assert_eq!(err.position, 4..5);
        let err = parse_einsum("a a, b -> a").unwrap_err();
        assert!(err.message.contains("duplicate"), "{}", err.message);
        let err = parse_einsum("... a, a -> ...").unwrap_err();
        assert!(
            err.message.contains("`...` on the right only"),
            "{}",
            err.message
        );
        let err = parse_einsum("i k, k j -> i (j").unwrap_err();
        assert!(err.message.contains("never closed"), "{}", err.message);
    }
}
