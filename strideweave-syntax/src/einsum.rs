//! Einsum patterns: one or two comma-separated inputs on the left of the rearrangement
//! grammar (`"i k, k j -> i j"`).
//!
//! Each input is parsed by [`parse_pattern`] on the text with the other inputs and the commas
//! blanked out (same length), so every span is a byte range of the caller's text, and
//! checked by [`check_pattern`] as a `repeat` of that input onto the output (which permits
//! output symbols the input lacks and reports the input's symbols the output lacks: the
//! summed ones). What is einsum's own: at most two inputs, every output symbol named by some
//! input, and `...` on every input when on the output (and on the output when on an input);
//! then, for a call, one tensor per input and keywords that name the inputs' symbols
//! ([`Einsum::check_call`]). Every front end (`Tensor::einsum`, `einsum!`) calls these.

use std::collections::HashMap;
use std::ops::Range;

use crate::check::NotationError;
use crate::keywords::{KeywordError, KeywordValue, check_each};
use crate::pattern::{
    Pattern, PatternKind, Side, SideName, Term, check_pattern, parse_pattern, path_of, symbols,
};

/// A parsed and checked einsum pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Einsum {
    /// Per input: the pattern `input -> output` over a text of the caller's length in which
    /// everything but that input and the output is blanked (spans are the caller's).
    pub inputs: Vec<Pattern<Range<usize>>>,
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
/// assert_eq!(*e.inputs[1].left.terms[0].span(), 7..8);
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
        e.symbols.push(symbols);
    }
    // Every output symbol is named by some input.
    for (s, span) in symbols(&e.inputs[0].right) {
        if !e.symbols.iter().any(|v| v.iter().any(|x| x == s)) {
            let at = path_of(&e.inputs[0].right, s)[0];
            return Err(fail(
                span.clone(),
                format!(
                    "unknown identifier `{s}` on the right, term {at}: it does not appear in any input"
                ),
            ));
        }
    }
    Ok(e)
}

impl Einsum {
    /// Checks a call against the pattern `text` (this one, parsed): one tensor per input, and
    /// keyword extents `(name, value, where)` (`where` locates the keyword: a macro's token,
    /// the whole pattern at run time) that are each given once, name a symbol of some input
    /// and are at least 1. The count's mistake is in the pattern (its left side); a keyword's
    /// is at the keyword.
    ///
    /// ```
    /// use strideweave_syntax::{EinsumCallError, parse_einsum};
    /// let text = "(h w) k, w k -> h";
    /// let e = parse_einsum(text).unwrap();
    /// assert!(e.check_call(text, 2, &[("h", 2i64, 0..17)]).is_ok());
    /// let Err(EinsumCallError::Tensors(err)) = e.check_call(text, 1, &[("h", 2i64, 0..17)]) else {
    ///     panic!()
    /// };
    /// assert_eq!(err.position, 0..12);
    /// assert_eq!(
    ///     err.message,
    ///     "the pattern names 2 inputs but 1 tensor is given: write one tensor per comma-separated input"
    /// );
    /// let Err(EinsumCallError::Keyword(err)) = e.check_call(text, 2, &[("z", 2i64, 0..17)]) else {
    ///     panic!()
    /// };
    /// assert_eq!(
    ///     err.mistake.to_string(),
    ///     "keyword `z = 2` names no symbol of the pattern; its symbols are `h`, `w`, `k`"
    /// );
    /// let Err(EinsumCallError::Keyword(err)) = e.check_call(text, 2, &[("w", 0i64, 0..17)]) else {
    ///     panic!()
    /// };
    /// assert_eq!(
    ///     err.mistake.to_string(),
    ///     "keyword `w = 0` for `w` on the left, term 0.1: an extent must be at least 1"
    /// );
    /// ```
    pub fn check_call<S: Clone, V: KeywordValue + Clone>(
        &self,
        text: &str,
        tensors: usize,
        keywords: &[(&str, V, S)],
    ) -> Result<(), EinsumCallError<S, V>> {
        let want = self.inputs.len();
        if want != tensors {
            let arrow = text.find("->").unwrap_or(text.len());
            let left = &text[..arrow];
            let start = left.len() - left.trim_start().len();
            let end = left.trim_end().len().max(start);
            let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
            return Err(EinsumCallError::Tensors(NotationError {
                position: start..end,
                message: format!(
                    "the pattern names {} but {} given: write one tensor per comma-separated input",
                    plural(want, "input"),
                    if tensors == 1 {
                        "1 tensor is".to_string()
                    } else {
                        format!("{tensors} tensors are")
                    }
                ),
            }));
        }
        // Looked up in constant time: a call may give any number of keywords.
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (k, syms) in self.symbols.iter().enumerate() {
            for s in syms {
                first.entry(s.as_str()).or_insert(k);
            }
        }
        check_each(
            keywords,
            |name| first.get(name).copied(),
            |name, k| (SideName::Left, None, path_of(&self.inputs[k].left, name)),
            || {
                let mut seen = std::collections::HashSet::new();
                (self.symbols.iter().flatten())
                    .filter(|s| seen.insert(s.as_str()))
                    .cloned()
                    .collect()
            },
        )
        .map_err(EinsumCallError::Keyword)?;
        Ok(())
    }

    /// The rearrangement that views input `k` as its symbols: `"<input k> -> ... <its
    /// symbols in order>"` (`...` when the pattern has it), spans in the caller's text (the
    /// right side's at the symbols on the left), ready to encode.
    ///
    /// ```
    /// use strideweave_syntax::parse_einsum;
    /// let e = parse_einsum("(h w) k, w k -> h").unwrap();
    /// assert_eq!(e.input_view(0).to_string(), "(h w) k -> h w k");
    /// assert_eq!(*e.input_view(1).right.terms[0].span(), 9..10);
    /// ```
    pub fn input_view(&self, k: usize) -> Pattern<Range<usize>> {
        let left = &self.inputs[k].left;
        let mut terms = Vec::with_capacity(self.symbols[k].len() + 1);
        terms.extend(
            left.terms
                .iter()
                .find(|t| matches!(t, Term::Ellipsis(_)))
                .cloned(),
        );
        for (s, span) in symbols(left) {
            terms.push(Term::Symbol(s.to_string(), span.clone()));
        }
        Pattern {
            left: left.clone(),
            right: Side {
                terms,
                span: left.span.clone(),
            },
        }
    }

    /// The rearrangement from the contraction's result (`...`, then the output symbols in
    /// order of appearance, one top-level mode each) to the output side: `"... <output
    /// symbols> -> <output side>"`, spans in the caller's text (the left side's at the
    /// symbols on the right).
    ///
    /// ```
    /// use strideweave_syntax::parse_einsum;
    /// let e = parse_einsum("i k, k j -> (j i) 1").unwrap();
    /// assert_eq!(e.output_view().to_string(), "j i -> (j i) 1");
    /// ```
    pub fn output_view(&self) -> Pattern<Range<usize>> {
        let right = &self.inputs[0].right;
        let mut terms = Vec::new();
        terms.extend(
            right
                .terms
                .iter()
                .find(|t| matches!(t, Term::Ellipsis(_)))
                .cloned(),
        );
        for (s, span) in symbols(right) {
            terms.push(Term::Symbol(s.to_string(), span.clone()));
        }
        Pattern {
            left: Side {
                terms,
                span: right.span.clone(),
            },
            right: right.clone(),
        }
    }
}

/// A mistake of an einsum call ([`Einsum::check_call`]).
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// use strideweave_syntax::{EinsumCallError, parse_einsum};
/// let e = parse_einsum("i j -> i").unwrap();
/// assert!(matches!(e.check_call::<(), i64>("i j -> i", 2, &[]), Err(EinsumCallError::Tensors(_))));
/// ```
pub enum EinsumCallError<S, V> {
    /// The number of tensors is not the number of inputs (in the pattern).
    Tensors(NotationError<Range<usize>>),
    /// A keyword's mistake (at the keyword).
    Keyword(KeywordError<S, V>),
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
