//! The keyword extents of a pattern (`h = 4`), checked against it: a mistake is a
//! [`KeywordError`], a [`KeywordMistake`] with its values whose `Display` is the one sentence
//! the run-time front end (`Layout::rearrange`) and the macros (`rearrange!`, `repeat!`) print.

use std::fmt;

use crate::check::NotationError;
use std::collections::{HashMap, HashSet};

use crate::pattern::{Pattern, PatternKind, SideName, path_of, symbols, term_path};

/// A keyword's value as [`check_keywords`] sees it: shown in messages, and possibly known to
/// be below 1. The runtime passes `i64`; a macro may pass a value it cannot compute (a
/// constant's name), which is never below 1 here and is checked where it is known.
///
/// ```
/// use strideweave_syntax::KeywordValue;
/// assert!(0i64.below_one() && !4i64.below_one());
/// ```
pub trait KeywordValue: fmt::Display {
    /// Whether the value is known to be ≤ 0.
    fn below_one(&self) -> bool;
}

impl KeywordValue for i64 {
    fn below_one(&self) -> bool {
        *self < 1
    }
}

/// A mistake in the keyword extents of a pattern, with its values (`V`: the keyword's value
/// as [`KeywordValue`]). Its `Display` is the sentence every front end prints after its name.
///
/// ```
/// use strideweave_syntax::{KeywordMistake, SideName};
/// let m: KeywordMistake<i64> = KeywordMistake::BelowOne {
///     name: "w".into(),
///     value: 0,
///     side: SideName::Left,
///     path: vec![0, 1],
/// };
/// assert_eq!(m.to_string(), "keyword `w = 0` for `w` on the left, term 0.1: an extent must be at least 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeywordMistake<V> {
    /// The keyword names no symbol of the pattern; `symbols` are the pattern's, in order.
    NoSymbol {
        /// The keyword's name.
        name: String,
        /// Its value.
        value: V,
        /// Every symbol of the pattern once, left side first.
        symbols: Vec<String>,
    },
    /// The keyword is given twice.
    Twice {
        /// The keyword's name.
        name: String,
        /// The first value given.
        first: V,
        /// The second value given.
        second: V,
    },
    /// The value is 0 or negative; an extent is at least 1.
    BelowOne {
        /// The keyword's name.
        name: String,
        /// Its value.
        value: V,
        /// The side where the symbol first appears.
        side: SideName,
        /// The symbol's term path on that side (`[0, 1]` is term `0.1`).
        path: Vec<usize>,
    },
    /// `repeat`: a symbol new on the right has no keyword to give its extent.
    MissingExtent {
        /// The symbol.
        name: String,
        /// Its term path on the right.
        path: Vec<usize>,
    },
}

impl<V: fmt::Display> fmt::Display for KeywordMistake<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeywordMistake::NoSymbol {
                name,
                value,
                symbols,
            } => {
                write!(
                    f,
                    "keyword `{name} = {value}` names no symbol of the pattern"
                )?;
                if symbols.is_empty() {
                    return write!(f, ", which has none");
                }
                write!(f, "; its symbols are ")?;
                for (i, s) in symbols.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(f, "{sep}`{s}`")?;
                }
                Ok(())
            }
            KeywordMistake::Twice {
                name,
                first,
                second,
            } => write!(
                f,
                "keyword `{name}` is given twice ({name} = {first} and {name} = {second})"
            ),
            KeywordMistake::BelowOne {
                name,
                value,
                side,
                path,
            } => write!(
                f,
                "keyword `{name} = {value}` for `{name}` on the {side}, term {}: an extent must be at least 1",
                term_path(path)
            ),
            KeywordMistake::MissingExtent { name, path } => write!(
                f,
                "new symbol `{name}` on the right, term {} needs an extent: give it as a keyword ({name} = …)",
                term_path(path)
            ),
        }
    }
}

/// A keyword mistake and where it is: at the keyword for [`KeywordMistake::NoSymbol`] and
/// [`KeywordMistake::Twice`] (its second occurrence), at the symbol in the pattern for the
/// others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordError<S, V> {
    /// Where the mistake is.
    pub position: S,
    /// What it is.
    pub mistake: KeywordMistake<V>,
}

impl<S, V: fmt::Display> From<KeywordError<S, V>> for NotationError<S> {
    /// The mistake's sentence at its position (to be rendered with the pattern's text).
    ///
    /// ```
    /// use strideweave_syntax::{NotationError, PatternKind, check_keywords, parse_pattern};
    /// let text = "(h w) c -> h w c";
    /// let p = parse_pattern(text).unwrap();
    /// let e: NotationError<_> =
    ///     check_keywords(&p, PatternKind::Rearrange, &[("w", 0, 0..16)]).unwrap_err().into();
    /// assert!(e.render(text).ends_with("\n  (h w) c -> h w c\n     ^"));
    /// ```
    fn from(e: KeywordError<S, V>) -> NotationError<S> {
        NotationError {
            position: e.position,
            message: e.mistake.to_string(),
        }
    }
}

/// Checks keyword extents (`h = 4`) against a checked pattern. Each keyword is
/// `(name, value, span)`, where `span` locates the keyword itself (a macro's token; at run
/// time, where the keyword has no text, the whole pattern). Rejected (see
/// [`KeywordMistake`]): a keyword that names no symbol of the pattern (at the keyword), a
/// keyword given twice (at the second), a value ≤ 0 (at the symbol it names), and for
/// [`PatternKind::Repeat`] a new symbol without a keyword (at the symbol).
///
/// ```
/// use strideweave_syntax::{KeywordMistake, PatternKind, check_keywords, check_pattern, parse_pattern};
/// let p = parse_pattern("(h w) c -> h w c").unwrap();
/// check_pattern(&p, PatternKind::Rearrange).unwrap();
/// assert!(check_keywords(&p, PatternKind::Rearrange, &[("h", 4, 0..16)]).is_ok());
/// let err = check_keywords(&p, PatternKind::Rearrange, &[("x", 4, 0..16)]).unwrap_err();
/// assert!(matches!(&err.mistake, KeywordMistake::NoSymbol { name, value: 4, .. } if name == "x"));
/// assert_eq!(
///     err.mistake.to_string(),
///     "keyword `x = 4` names no symbol of the pattern; its symbols are `h`, `w`, `c`"
/// );
/// let err = check_keywords(&p, PatternKind::Rearrange, &[("w", 0, 0..16)]).unwrap_err();
/// assert_eq!(err.position, 3..4);
/// ```
pub fn check_keywords<S: Clone, V: KeywordValue + Clone>(
    pattern: &Pattern<S>,
    kind: PatternKind,
    keywords: &[(&str, V, S)],
) -> Result<(), KeywordError<S, V>> {
    let err = |span: &S, mistake| {
        Err(KeywordError {
            position: span.clone(),
            mistake,
        })
    };
    if keywords.is_empty() && kind == PatternKind::Rearrange {
        return Ok(());
    }
    // Each symbol's first appearance (left side first), looked up in constant time: a
    // pattern read at run time is checked on every call, with any number of keywords.
    let mut first: HashMap<&str, (SideName, &S)> = HashMap::new();
    for which in [SideName::Left, SideName::Right] {
        for (n, at) in symbols(pattern.side(which)) {
            first.entry(n).or_insert((which, at));
        }
    }
    let given = check_each(
        keywords,
        |name| first.get(name).copied(),
        |name, (side, at)| (side, Some(at.clone()), path_of(pattern.side(side), name)),
        || {
            let mut seen = HashSet::new();
            symbols(&pattern.left)
                .into_iter()
                .chain(symbols(&pattern.right))
                .filter(|(n, _)| seen.insert(*n))
                .map(|(n, _)| n.to_string())
                .collect()
        },
    )?;
    if kind == PatternKind::Repeat {
        for (name, s) in symbols(&pattern.right) {
            if first
                .get(name)
                .is_some_and(|(side, _)| *side == SideName::Right)
                && !given.contains_key(name)
            {
                return err(
                    s,
                    KeywordMistake::MissingExtent {
                        name: name.to_string(),
                        path: path_of(&pattern.right, name),
                    },
                );
            }
        }
    }
    Ok(())
}

/// The checks every list of keywords gets, in order, at the first mistake: each name given
/// once, naming a symbol (`locate` finds it, in constant time), and a value of at least 1
/// (`place` then gives the symbol's side, the position to report at — the keyword's own when
/// `None` — and its path: a walk of the pattern, made only for the mistake). `names` lists
/// the symbols for a keyword that names none. Returns the names given.
pub(crate) fn check_each<'k, S: Clone, V: KeywordValue + Clone, L>(
    keywords: &'k [(&'k str, V, S)],
    locate: impl Fn(&str) -> Option<L>,
    place: impl Fn(&str, L) -> (SideName, Option<S>, Vec<usize>),
    names: impl Fn() -> Vec<String>,
) -> Result<HashMap<&'k str, &'k V>, KeywordError<S, V>> {
    let err = |position: &S, mistake| {
        Err(KeywordError {
            position: position.clone(),
            mistake,
        })
    };
    let mut given: HashMap<&str, &V> = HashMap::new();
    for (name, value, span) in keywords {
        if let Some(&first) = given.get(name) {
            return err(
                span,
                KeywordMistake::Twice {
                    name: name.to_string(),
                    first: first.clone(),
                    second: value.clone(),
                },
            );
        }
        given.insert(name, value);
        let Some(found) = locate(name) else {
            return err(
                span,
                KeywordMistake::NoSymbol {
                    name: name.to_string(),
                    value: value.clone(),
                    symbols: names(),
                },
            );
        };
        if value.below_one() {
            let (side, at, path) = place(name, found);
            return err(
                at.as_ref().unwrap_or(span),
                KeywordMistake::BelowOne {
                    name: name.to_string(),
                    value: value.clone(),
                    side,
                    path,
                },
            );
        }
    }
    Ok(given)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_pattern, parse_pattern};
    use std::ops::Range;

    #[test]
    fn keyword_checks() {
        let text = "(h w) c -> h w (c r)";
        let p = parse_pattern(text).unwrap();
        check_pattern(&p, PatternKind::Repeat).unwrap();
        let whole = 0..text.len();
        let kw = |k: &[(&'static str, i64)]| -> Vec<(&'static str, i64, Range<usize>)> {
            k.iter().map(|&(n, v)| (n, v, whole.clone())).collect()
        };
        let fails = |k: &[(&'static str, i64)]| {
            check_keywords(&p, PatternKind::Repeat, &kw(k)).unwrap_err()
        };
        assert!(check_keywords(&p, PatternKind::Repeat, &kw(&[("h", 2), ("r", 3)])).is_ok());
        let e = fails(&[("h", 2)]);
        assert_eq!(e.position, 18..19);
        assert_eq!(
            e.mistake.to_string(),
            "new symbol `r` on the right, term 2.1 needs an extent: give it as a keyword (r = …)"
        );
        let e = fails(&[("r", 2), ("q", 1)]);
        assert_eq!(e.position, whole);
        assert_eq!(
            e.mistake.to_string(),
            "keyword `q = 1` names no symbol of the pattern; its symbols are `h`, `w`, `c`, `r`"
        );
        let e = fails(&[("r", 0)]);
        assert_eq!(e.position, 18..19);
        assert_eq!(
            e.mistake,
            KeywordMistake::BelowOne {
                name: "r".into(),
                value: 0,
                side: SideName::Right,
                path: vec![2, 1]
            }
        );
        assert_eq!(
            e.mistake.to_string(),
            "keyword `r = 0` for `r` on the right, term 2.1: an extent must be at least 1"
        );
        let e = fails(&[("h", -2)]);
        assert_eq!(e.position, 1..2);
        let e = fails(&[("r", 2), ("r", 3)]);
        assert_eq!(
            e.mistake.to_string(),
            "keyword `r` is given twice (r = 2 and r = 3)"
        );
    }

    #[test]
    fn a_pattern_without_symbols_says_so() {
        let p = parse_pattern("1 -> 1").unwrap();
        let e = check_keywords(&p, PatternKind::Rearrange, &[("h", 2, 0..6)]).unwrap_err();
        assert_eq!(
            e.mistake.to_string(),
            "keyword `h = 2` names no symbol of the pattern, which has none"
        );
    }
}
