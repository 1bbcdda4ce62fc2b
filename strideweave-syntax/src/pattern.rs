//! Rearrangement patterns: `"a (b c) -> c b a"`.
//!
//! ```text
//! pattern := ref "->" ref
//! ref     := term+                       (terms separated by whitespace)
//! term    := symbol | "1" | "(" term+ ")" | "..."
//! symbol  := [A-Za-z][A-Za-z0-9_]*
//! ```
//!
//! Three stages, each usable on its own so that the runtime (text, byte ranges) and the
//! macros (tokens, `proc_macro2::Span`) share them:
//!
//! 1. [`parse_pattern`] reads text into a [`Pattern`] whose terms carry byte ranges and
//!    rejects what is not in the grammar (unknown characters, numbers other than `1`,
//!    unbalanced parentheses, zero or several `->`);
//! 2. [`check_pattern`] applies the rules that need only the pattern (empty sides and groups,
//!    duplicates, unknown identifiers, the placement of `...`) and reports the symbols whose
//!    validity depends on the source's shape ([`PatternSymbols`]);
//! 3. [`check_keywords`](crate::check_keywords) checks the keyword extents (`h = 4`) against
//!    the pattern.
//!
//! Shape-dependent rules (term count against rank, group arity, splits, keyword agreement,
//! omitted sources of extent 1) belong to the layout stage.
//!
//! ```
//! use strideweave_syntax::{PatternKind, check_pattern, parse_pattern};
//! let p = parse_pattern("a (b c) -> c b a").unwrap();
//! assert_eq!(p.to_string(), "a (b c) -> c b a");
//! assert!(check_pattern(&p, PatternKind::Rearrange).unwrap().omitted.is_empty());
//!
//! let err = check_pattern(&parse_pattern("a b -> b a x").unwrap(), PatternKind::Rearrange)
//!     .unwrap_err();
//! assert_eq!(
//!     err.render("a b -> b a x"),
//!     "unknown identifier `x` on the right, term 2: it does not appear on the left\n  a b -> b a x\n             ^"
//! );
//! ```

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;

use crate::check::NotationError;
use crate::limit::MAX_NESTING;

/// One term of a pattern side, with the span `S` of its text (for a group: from `(` to `)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term<S> {
    /// A named sublayout: `a`, `h1`, `batch_size`.
    Symbol(String, S),
    /// `1`: on the left an extent-one mode that is dropped, on the right an inserted `1:0`.
    Unit(S),
    /// `( … )`: on the left a nested mode (or a split leaf), on the right a built nested mode.
    Group(Vec<Term<S>>, S),
    /// `...`: zero or more whole top-level modes.
    Ellipsis(S),
}

impl<S> Term<S> {
    /// The span of the term.
    ///
    /// ```
    /// let p = strideweave_syntax::parse_pattern("a (b c) -> a b c").unwrap();
    /// assert_eq!(*p.left.terms[1].span(), 2..7);
    /// ```
    pub fn span(&self) -> &S {
        match self {
            Term::Symbol(_, s) | Term::Unit(s) | Term::Group(_, s) | Term::Ellipsis(s) => s,
        }
    }
}

/// One side of a pattern: its top-level terms and the span of the side (for an empty side, an
/// empty span where the terms would be).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side<S> {
    /// The top-level terms, in order.
    pub terms: Vec<Term<S>>,
    /// Where the side is.
    pub span: S,
}

/// A parsed pattern `left -> right`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern<S> {
    /// The source reference.
    pub left: Side<S>,
    /// The result reference.
    pub right: Side<S>,
}

impl<S> Pattern<S> {
    /// A side by name.
    ///
    /// ```
    /// use strideweave_syntax::{parse_pattern, SideName};
    /// let p = parse_pattern("a b -> b a").unwrap();
    /// assert_eq!(p.side(SideName::Right).terms.len(), 2);
    /// ```
    pub fn side(&self, which: SideName) -> &Side<S> {
        match which {
            SideName::Left => &self.left,
            SideName::Right => &self.right,
        }
    }
}

/// Which side of `->`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideName {
    /// The source reference.
    Left,
    /// The result reference.
    Right,
}

impl fmt::Display for SideName {
    /// `left` or `right`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SideName::Left => "left",
            SideName::Right => "right",
        })
    }
}

/// Which operation a pattern is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternKind {
    /// Every right symbol must appear on the left.
    Rearrange,
    /// Right symbols absent on the left are new, broadcast (stride-0) modes whose extents
    /// come from keywords.
    Repeat,
    /// As [`Rearrange`](PatternKind::Rearrange), and left symbols absent on the right are
    /// reduced (at any extent, a layout-stage matter); the right side may be empty (a full
    /// reduction to rank 0: `"a b ->"`).
    Reduce,
}

/// What [`check_pattern`] leaves to the layout stage, each symbol with the span of its term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSymbols<S> {
    /// Left symbols absent on the right: valid only where the source's extent there is 1.
    pub omitted: Vec<(String, S)>,
    /// Right symbols absent on the left ([`PatternKind::Repeat`] only), in order of
    /// appearance: new modes whose extents must be given as keywords.
    pub new: Vec<(String, S)>,
}

impl<S> fmt::Display for Term<S> {
    /// The term's text with single spaces: `(b c)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_terms(f, std::slice::from_ref(self))
    }
}

/// The terms separated by single spaces, groups in parentheses; with an explicit stack (a
/// pattern built by hand may nest without limit).
fn write_terms<S>(f: &mut fmt::Formatter<'_>, terms: &[Term<S>]) -> fmt::Result {
    let mut stack: Vec<std::slice::Iter<'_, Term<S>>> = Vec::new();
    let mut at = terms.iter();
    let mut first = true;
    loop {
        let Some(t) = at.next() else {
            match stack.pop() {
                Some(outer) => {
                    f.write_str(")")?;
                    at = outer;
                    first = false;
                    continue;
                }
                None => return Ok(()),
            }
        };
        if !first {
            f.write_str(" ")?;
        }
        first = false;
        match t {
            Term::Symbol(name, _) => f.write_str(name)?,
            Term::Unit(_) => f.write_str("1")?,
            Term::Ellipsis(_) => f.write_str("...")?,
            Term::Group(members, _) => {
                f.write_str("(")?;
                first = true;
                stack.push(std::mem::replace(&mut at, members.iter()));
            }
        }
    }
}

impl<S> fmt::Display for Pattern<S> {
    /// The pattern with single spaces: `a (b c) -> c b a`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_terms(f, &self.left.terms)?;
        f.write_str(" -> ")?;
        write_terms(f, &self.right.terms)
    }
}

/// The dotted path of a term inside its side: `2` for the third top-level term, `1.0` for the
/// first member of the group that is the second term.
///
/// ```
/// assert_eq!(strideweave_syntax::term_path(&[1, 0]), "1.0");
/// ```
pub fn term_path(path: &[usize]) -> String {
    path.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

impl NotationError<Range<usize>> {
    /// Renders the message with the text quoted and carets under the whole offending range
    /// (one caret for an empty range).
    ///
    /// ```
    /// let err = strideweave_syntax::parse_pattern("a (b c -> a b c").unwrap_err();
    /// assert_eq!(
    ///     err.render("a (b c -> a b c"),
    ///     "unbalanced parentheses on the left: this `(` is never closed\n  a (b c -> a b c\n    ^"
    /// );
    /// ```
    pub fn render(&self, text: &str) -> String {
        let col = |at: usize| text.get(..at).map_or(0, |s| s.chars().count());
        let start = col(self.position.start.min(text.len()));
        let end = col(self.position.end.min(text.len())).max(start + 1);
        format!(
            "{}\n  {}\n  {}{}",
            self.message,
            text,
            " ".repeat(start),
            "^".repeat(end - start)
        )
    }
}

type Error = NotationError<Range<usize>>;

fn error(span: Range<usize>, message: String) -> Error {
    NotationError {
        position: span,
        message,
    }
}

#[derive(Clone, Debug)]
enum Tok {
    Word(Range<usize>),
    Ellipsis(Range<usize>),
    Open(usize),
    Close(usize),
}

/// Parses a pattern into terms that carry byte ranges of `text`; rejects unknown characters,
/// malformed words, numbers other than `1`, unbalanced parentheses and zero or several `->`.
/// Empty sides and groups parse (as empty lists) and are left to [`check_pattern`].
///
/// ```
/// use strideweave_syntax::{parse_pattern, Term};
/// let p = parse_pattern("(h w) c -> h w c").unwrap();
/// assert!(matches!(&p.left.terms[0], Term::Group(m, r) if m.len() == 2 && *r == (0..5)));
/// assert_eq!(p.right.span, 11..16);
/// let err = parse_pattern("a b -> b a 2").unwrap_err();
/// assert_eq!(err.position, 11..12);
/// ```
pub fn parse_pattern(text: &str) -> Result<Pattern<Range<usize>>, Error> {
    let first_arrow = text.find("->");
    let side_at = |at: usize| match first_arrow {
        Some(a) if at >= a + 2 => "on the right",
        Some(_) => "on the left",
        None => "in the pattern",
    };
    // Lex, splitting at the arrows.
    let mut sides: Vec<(Vec<Tok>, Range<usize>)> = vec![(Vec::new(), 0..0)];
    let mut arrows: Vec<Range<usize>> = Vec::new();
    let mut last_word: Option<Range<usize>> = None;
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let len = c.len_utf8();
        if c.is_whitespace() {
            i += len;
            continue;
        }
        let tok = match c {
            '(' => Tok::Open(i),
            ')' => Tok::Close(i),
            '-' if text[i + 1..].starts_with('>') => {
                arrows.push(i..i + 2);
                sides.push((Vec::new(), i + 2..i + 2));
                last_word = None;
                i += 2;
                continue;
            }
            '.' => {
                let run = text[i..].bytes().take_while(|&b| b == b'.').count();
                if run != 3 {
                    return Err(error(
                        i..i + run,
                        format!(
                            "`{}` {} is not an ellipsis: write exactly three dots `...`",
                            &text[i..i + run],
                            side_at(i)
                        ),
                    ));
                }
                Tok::Ellipsis(i..i + 3)
            }
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let run = text[i..]
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                Tok::Word(i..i + run)
            }
            c => {
                return Err(error(
                    i..i + len,
                    format!(
                        "unknown character {c:?} {}: a pattern holds symbols, `1`, `...`, parentheses and one `->`",
                        side_at(i)
                    ),
                ));
            }
        };
        let span = match &tok {
            Tok::Word(r) | Tok::Ellipsis(r) => r.clone(),
            Tok::Open(p) | Tok::Close(p) => *p..*p + 1,
        };
        if let Tok::Word(r) | Tok::Ellipsis(r) = &tok {
            if let Some(prev) = &last_word
                && prev.end == r.start
            {
                return Err(error(
                    prev.start..r.end,
                    format!(
                        "`{}` and `{}` {} need whitespace between them",
                        &text[prev.clone()],
                        &text[r.clone()],
                        side_at(r.start)
                    ),
                ));
            }
            last_word = Some(r.clone());
        } else {
            last_word = None;
        }
        // unreachable from user input: `sides` starts with one side and only grows.
        let side = sides.last_mut().expect("one side at least");
        if side.0.is_empty() {
            side.1 = span.clone();
        }
        side.1.end = span.end;
        side.0.push(tok);
        i = span.end;
    }
    match arrows.len() {
        0 => {
            return Err(error(
                0..text.len(),
                "the pattern has no `->` between its left and right sides".to_string(),
            ));
        }
        1 => {}
        _ => {
            return Err(error(
                arrows[1].clone(),
                "the pattern has more than one `->`".to_string(),
            ));
        }
    }
    // unreachable from user input: the parser pushed the second side before reaching here (checked above).
    let right = sides.pop().expect("two sides");
    let left = sides.pop().expect("two sides");
    let left_span = if left.0.is_empty() {
        arrows[0].start..arrows[0].start
    } else {
        left.1
    };
    let right_span = if right.0.is_empty() {
        text.len()..text.len()
    } else {
        right.1
    };
    Ok(Pattern {
        left: Side {
            terms: parse_side(text, &left.0, SideName::Left)?,
            span: left_span,
        },
        right: Side {
            terms: parse_side(text, &right.0, SideName::Right)?,
            span: right_span,
        },
    })
}

fn parse_side(text: &str, toks: &[Tok], side: SideName) -> Result<Vec<Term<Range<usize>>>, Error> {
    // Each open group: its `(` offset and its members so far.
    let mut stack: Vec<(usize, Vec<Term<Range<usize>>>)> = vec![(0, Vec::new())];
    for tok in toks {
        match tok {
            Tok::Open(p) => {
                // The stack holds the side's root and one entry per open group.
                if stack.len() > MAX_NESTING {
                    return Err(error(
                        *p..*p + 1,
                        format!(
                            "nesting deeper than {MAX_NESTING} levels on the {side}: this `(` opens level {}",
                            MAX_NESTING + 1
                        ),
                    ));
                }
                stack.push((*p, Vec::new()))
            }
            Tok::Close(p) => {
                if stack.len() == 1 {
                    return Err(error(
                        *p..*p + 1,
                        format!("unbalanced parentheses on the {side}: this `)` closes nothing"),
                    ));
                }
                // unreachable from user input: the check just above returned an error for a `)` with no open group.
                let (open, members) = stack.pop().expect("checked");
                stack
                    .last_mut()
                    // unreachable from user input: the stack keeps the top-level side below every open group.
                    .expect("checked")
                    .1
                    .push(Term::Group(members, open..*p + 1));
            }
            // unreachable from user input: the root frame is pushed first and popped only at the end.
            Tok::Ellipsis(r) => stack
                .last_mut()
                .expect("root")
                .1
                .push(Term::Ellipsis(r.clone())),
            Tok::Word(r) => {
                let word = &text[r.clone()];
                // An open group's index is its parent's next member index, so the path is
                // the member count at every level of the stack (built for messages only).
                let path = || -> Vec<usize> { stack.iter().map(|(_, m)| m.len()).collect() };
                let term = if word.as_bytes()[0].is_ascii_alphabetic() {
                    Term::Symbol(word.to_string(), r.clone())
                } else if word.bytes().all(|b| b.is_ascii_digit()) {
                    if word != "1" {
                        return Err(error(
                            r.clone(),
                            format!(
                                "number `{word}` on the {side}, term {}: the only number allowed is `1` (an extent-one mode)",
                                term_path(&path())
                            ),
                        ));
                    }
                    Term::Unit(r.clone())
                } else {
                    return Err(error(
                        r.clone(),
                        format!(
                            "`{word}` on the {side}, term {} is not a symbol: a symbol starts with a letter and continues with letters, digits or `_`",
                            term_path(&path())
                        ),
                    ));
                };
                // unreachable from user input: the root frame is pushed first and popped only at the end.
                stack.last_mut().expect("root").1.push(term);
            }
        }
    }
    if stack.len() > 1 {
        let open = stack[1].0;
        return Err(error(
            open..open + 1,
            format!("unbalanced parentheses on the {side}: this `(` is never closed"),
        ));
    }
    // unreachable from user input: the root frame is pushed first and popped only here.
    Ok(stack.pop().expect("root").1)
}

/// Visits every term of a side in depth-first order with its path, with an explicit stack
/// (a pattern built by hand may nest without limit).
fn walk<'t, S>(
    terms: &'t [Term<S>],
    path: &mut Vec<usize>,
    f: &mut impl FnMut(&'t Term<S>, &[usize]) -> Result<(), NotationError<S>>,
) -> Result<(), NotationError<S>> {
    let base = path.len();
    let mut stack: Vec<std::iter::Enumerate<std::slice::Iter<'t, Term<S>>>> = Vec::new();
    let mut at = terms.iter().enumerate();
    loop {
        let Some((i, t)) = at.next() else {
            match stack.pop() {
                Some(outer) => {
                    at = outer;
                    path.pop();
                    continue;
                }
                None => {
                    path.truncate(base);
                    return Ok(());
                }
            }
        };
        path.push(i);
        f(t, path)?;
        match t {
            Term::Group(members, _) => {
                stack.push(std::mem::replace(&mut at, members.iter().enumerate()))
            }
            _ => {
                path.pop();
            }
        }
    }
}

/// Every symbol of a side with its span, in depth-first order (paths, which only messages
/// need, come from [`path_of`]: a pattern read at run time is checked on every call).
pub(crate) fn symbols<S>(side: &Side<S>) -> Vec<(&str, &S)> {
    let mut out = Vec::new();
    let _ = walk(&side.terms, &mut Vec::new(), &mut |t, _| {
        if let Term::Symbol(name, s) = t {
            out.push((name.as_str(), s));
        }
        Ok::<(), NotationError<S>>(())
    });
    out
}

/// The path of the first term of a side that names `name` (empty if none does).
pub(crate) fn path_of<S>(side: &Side<S>, name: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let _ = walk(&side.terms, &mut Vec::new(), &mut |t, path| {
        if found.is_empty()
            && let Term::Symbol(n, _) = t
            && n == name
        {
            found = path.to_vec();
        }
        Ok::<(), NotationError<S>>(())
    });
    found
}

/// Applies the rules that need only the pattern, for `kind`, and returns what the layout
/// stage must decide. Rejected: an empty side or group, `...` twice on a side, inside a
/// group on the left, or on one side only, a duplicate symbol on one side, and (for
/// [`PatternKind::Rearrange`]) a right symbol absent on the left.
///
/// ```
/// use strideweave_syntax::{PatternKind, check_pattern, parse_pattern};
/// let p = parse_pattern("a b c -> c a").unwrap();
/// let found = check_pattern(&p, PatternKind::Rearrange).unwrap();
/// assert_eq!(found.omitted, [("b".to_string(), 2..3)]);
/// let p = parse_pattern("h -> (h r)").unwrap();
/// let found = check_pattern(&p, PatternKind::Repeat).unwrap();
/// assert_eq!(found.new, [("r".to_string(), 8..9)]);
/// ```
pub fn check_pattern<S: Clone>(
    pattern: &Pattern<S>,
    kind: PatternKind,
) -> Result<PatternSymbols<S>, NotationError<S>> {
    let err = |span: &S, message: String| NotationError {
        position: span.clone(),
        message,
    };
    let mut ellipses: [Option<(S, Vec<usize>)>; 2] = [None, None];
    for (k, which) in [SideName::Left, SideName::Right].into_iter().enumerate() {
        let side = pattern.side(which);
        if side.terms.is_empty() && !(kind == PatternKind::Reduce && k == 1) {
            return Err(err(
                &side.span,
                format!(
                    "the {which} side is empty: it needs at least one term (`...` for a source without modes)"
                ),
            ));
        }
        let mut seen: HashSet<&str> = HashSet::new();
        walk(&side.terms, &mut Vec::new(), &mut |t, path| match t {
            // A pattern built by hand (the parser refuses deeper ones).
            Term::Group(_, s) if path.len() > MAX_NESTING => Err(err(
                s,
                format!(
                    "nesting deeper than {MAX_NESTING} levels on the {which}: this group opens level {}",
                    path.len()
                ),
            )),
            Term::Group(members, s) if members.is_empty() => Err(err(
                s,
                format!(
                    "empty group `()` on the {which}, term {}: a group needs at least one member",
                    term_path(path)
                ),
            )),
            Term::Ellipsis(s) => {
                if let Some((_, first)) = &ellipses[k] {
                    return Err(err(
                        s,
                        format!(
                            "`...` appears twice on the {which} (terms {} and {}): at most one per side",
                            term_path(first),
                            term_path(path)
                        ),
                    ));
                }
                if which == SideName::Left && path.len() > 1 {
                    return Err(err(
                        s,
                        format!(
                            "`...` inside a group on the left, term {}: on the left, `...` stands for whole top-level modes and must be a top-level term",
                            term_path(path)
                        ),
                    ));
                }
                ellipses[k] = Some((s.clone(), path.to_vec()));
                Ok(())
            }
            Term::Symbol(name, s) => {
                if !seen.insert(name.as_str()) {
                    return Err(err(
                        s,
                        format!(
                            "duplicate symbol `{name}` on the {which}: terms {} and {} both name it",
                            term_path(&path_of(side, name)),
                            term_path(path)
                        ),
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        })?;
    }
    match &ellipses {
        [Some((s, path)), None] | [None, Some((s, path))] => {
            let which = if ellipses[0].is_some() {
                SideName::Left
            } else {
                SideName::Right
            };
            let other = if which == SideName::Left {
                SideName::Right
            } else {
                SideName::Left
            };
            return Err(err(
                s,
                format!(
                    "`...` on the {which} only (term {}): it must appear on both sides, and is missing on the {other}",
                    term_path(path)
                ),
            ));
        }
        _ => {}
    }
    let left = symbols(&pattern.left);
    let right = symbols(&pattern.right);
    let left_names: HashSet<&str> = left.iter().map(|(n, _)| *n).collect();
    let right_names: HashSet<&str> = right.iter().map(|(n, _)| *n).collect();
    let mut new = Vec::new();
    for (name, s) in &right {
        if !left_names.contains(name) {
            match kind {
                PatternKind::Rearrange | PatternKind::Reduce => {
                    return Err(err(
                        s,
                        format!(
                            "unknown identifier `{name}` on the right, term {}: it does not appear on the left",
                            term_path(&path_of(&pattern.right, name))
                        ),
                    ));
                }
                PatternKind::Repeat => new.push((name.to_string(), (*s).clone())),
            }
        }
    }
    let omitted = left
        .iter()
        .filter(|(name, _)| !right_names.contains(name))
        .map(|(name, s)| (name.to_string(), (*s).clone()))
        .collect();
    Ok(PatternSymbols { omitted, new })
}

/// Where a symbol first appears: its side, path and span (left side first).
///
/// ```
/// use strideweave_syntax::{find_symbol, parse_pattern, SideName};
/// let p = parse_pattern("a (b c) -> c b a").unwrap();
/// assert_eq!(find_symbol(&p, "c"), Some((SideName::Left, vec![1, 1], &(5..6))));
/// assert_eq!(find_symbol(&p, "x"), None);
/// ```
pub fn find_symbol<'p, S>(
    pattern: &'p Pattern<S>,
    name: &str,
) -> Option<(SideName, Vec<usize>, &'p S)> {
    [SideName::Left, SideName::Right]
        .into_iter()
        .find_map(|which| {
            let side = pattern.side(which);
            symbols(side)
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| (which, path_of(side, name), s))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> Error {
        parse_pattern(text).expect_err(text)
    }

    fn check_err(text: &str, kind: PatternKind) -> Error {
        let p = parse_pattern(text).unwrap_or_else(|e| panic!("{}", e.render(text)));
        check_pattern(&p, kind).expect_err(text)
    }

    fn spans(text: &str, span: Range<usize>) -> &str {
        &text[span]
    }

    #[test]
    fn parses_nested_groups_units_and_ellipsis() {
        let text = "... (a (b 1)) c -> c 1 (... a b)";
        let p = parse_pattern(text).unwrap();
        assert_eq!(p.to_string(), text);
        assert_eq!(p.left.terms.len(), 3);
        assert_eq!(p.left.span, 0..15);
        assert_eq!(p.right.span, 19..32);
        let Term::Group(members, span) = &p.left.terms[1] else {
            panic!()
        };
        assert_eq!(spans(text, span.clone()), "(a (b 1))");
        assert!(matches!(&members[1], Term::Group(m, _) if matches!(m[1], Term::Unit(_))));
        let found = check_pattern(&p, PatternKind::Rearrange).unwrap();
        assert!(found.omitted.is_empty() && found.new.is_empty());
    }

    #[test]
    fn arrows_need_no_spaces_and_parentheses_separate() {
        let p = parse_pattern("a(b c)->(c b)a").unwrap();
        assert_eq!(p.to_string(), "a (b c) -> (c b) a");
        let p = parse_pattern("\ta  b\n->\tb a ").unwrap();
        assert_eq!(p.to_string(), "a b -> b a");
    }

    #[test]
    fn rejects_unbalanced_parentheses() {
        let e = parse_err("a (b c -> a b c");
        assert_eq!(e.position, 2..3);
        assert_eq!(
            e.message,
            "unbalanced parentheses on the left: this `(` is never closed"
        );
        let e = parse_err("a b -> (a b))");
        assert_eq!(e.position, 12..13);
        assert_eq!(
            e.message,
            "unbalanced parentheses on the right: this `)` closes nothing"
        );
        // A group cannot span the arrow.
        let e = parse_err("(a -> a)");
        assert_eq!(e.position, 0..1);
    }

    #[test]
    fn rejects_unknown_characters() {
        let e = parse_err("a b -> b, a");
        assert_eq!(e.position, 8..9);
        assert!(
            e.message.starts_with("unknown character ',' on the right"),
            "{}",
            e.message
        );
        let e = parse_err("a é -> a");
        assert_eq!(e.position, 2..4);
        assert!(e.message.contains("on the left"), "{}", e.message);
        assert_eq!(
            e.render("a é -> a"),
            format!("{}\n  a é -> a\n    ^", e.message)
        );
        assert!(parse_err("a => a").message.contains("'='"));
        assert!(parse_err("a - > a").message.contains("'-'"));
    }

    #[test]
    fn rejects_malformed_words_and_dots() {
        let e = parse_err("_a -> _a");
        assert_eq!(e.position, 0..2);
        assert!(e.message.contains("is not a symbol"), "{}", e.message);
        let e = parse_err("2a -> a");
        assert_eq!(e.position, 0..2);
        let e = parse_err("a .. -> a");
        assert_eq!(e.position, 2..4);
        assert!(e.message.contains("exactly three dots"), "{}", e.message);
        let e = parse_err("a .... -> a");
        assert_eq!(e.position, 2..6);
        let e = parse_err("...a -> a ...");
        assert_eq!(e.position, 0..4);
        assert_eq!(
            e.message,
            "`...` and `a` on the left need whitespace between them"
        );
    }

    #[test]
    fn rejects_numbers_other_than_one() {
        let e = parse_err("a b -> b (a 2)");
        assert_eq!(e.position, 12..13);
        assert_eq!(
            e.message,
            "number `2` on the right, term 1.1: the only number allowed is `1` (an extent-one mode)"
        );
        assert_eq!(parse_err("01 a -> a").position, 0..2);
        assert_eq!(parse_err("0 a -> a").position, 0..1);
        assert!(parse_pattern("1 a -> a 1 (1 a)").is_ok());
    }

    #[test]
    fn rejects_zero_or_several_arrows() {
        let e = parse_err("a b c");
        assert_eq!(e.position, 0..5);
        assert_eq!(
            e.message,
            "the pattern has no `->` between its left and right sides"
        );
        let e = parse_err("a -> b -> c");
        assert_eq!(e.position, 7..9);
        assert_eq!(e.message, "the pattern has more than one `->`");
        assert_eq!(parse_err("").position, 0..0);
    }

    #[test]
    fn rejects_empty_references() {
        let e = check_err(" -> a", PatternKind::Rearrange);
        assert_eq!(e.position, 1..1);
        assert!(
            e.message.starts_with("the left side is empty"),
            "{}",
            e.message
        );
        let e = check_err("a ->  ", PatternKind::Rearrange);
        assert_eq!(e.position, 6..6);
        assert!(
            e.message.starts_with("the right side is empty"),
            "{}",
            e.message
        );
        assert_eq!(
            e.render("a ->  "),
            format!("{}\n  a ->  \n        ^", e.message)
        );
    }

    #[test]
    fn rejects_empty_groups() {
        let e = check_err("a (b ()) -> a b", PatternKind::Rearrange);
        assert_eq!(e.position, 5..7);
        assert_eq!(
            e.message,
            "empty group `()` on the left, term 1.1: a group needs at least one member"
        );
        let e = check_err("a -> a ()", PatternKind::Rearrange);
        assert_eq!(e.position, 7..9);
        assert!(e.message.contains("on the right, term 1"), "{}", e.message);
    }

    #[test]
    fn rejects_duplicate_symbols_on_one_side() {
        let e = check_err("a (b a) -> a b", PatternKind::Rearrange);
        assert_eq!(e.position, 5..6);
        assert_eq!(
            e.message,
            "duplicate symbol `a` on the left: terms 0 and 1.1 both name it"
        );
        let e = check_err("a b -> a b b", PatternKind::Rearrange);
        assert_eq!(e.position, 11..12);
        assert!(e.message.contains("on the right"), "{}", e.message);
        let e = check_err("h -> h (r r)", PatternKind::Repeat);
        assert_eq!(e.position, 10..11);
    }

    #[test]
    fn rejects_unknown_identifiers_in_rearrange_only() {
        let e = check_err("a b -> (b x) a", PatternKind::Rearrange);
        assert_eq!(e.position, 10..11);
        assert_eq!(
            e.message,
            "unknown identifier `x` on the right, term 0.1: it does not appear on the left"
        );
        let p = parse_pattern("a b -> (b x) a").unwrap();
        let found = check_pattern(&p, PatternKind::Repeat).unwrap();
        assert_eq!(found.new, [("x".to_string(), 10..11)]);
    }

    #[test]
    fn reports_omitted_sources_as_candidates() {
        let p = parse_pattern("a (b c) d -> d a").unwrap();
        let found = check_pattern(&p, PatternKind::Rearrange).unwrap();
        let names: Vec<_> = found.omitted.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b", "c"]);
        assert_eq!(found.omitted[1].1, 5..6);
    }

    #[test]
    fn rejects_ellipsis_twice_on_a_side() {
        let e = check_err("... a ... -> a ...", PatternKind::Rearrange);
        assert_eq!(e.position, 6..9);
        assert_eq!(
            e.message,
            "`...` appears twice on the left (terms 0 and 2): at most one per side"
        );
        let e = check_err("... a -> (... a) ...", PatternKind::Rearrange);
        assert_eq!(e.position, 17..20);
    }

    #[test]
    fn rejects_ellipsis_on_one_side_only() {
        let e = check_err("... a -> a", PatternKind::Rearrange);
        assert_eq!(e.position, 0..3);
        assert_eq!(
            e.message,
            "`...` on the left only (term 0): it must appear on both sides, and is missing on the right"
        );
        let e = check_err("a -> (a ...)", PatternKind::Repeat);
        assert_eq!(e.position, 8..11);
        assert!(
            e.message.contains("on the right only (term 0.1)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn rejects_ellipsis_inside_a_left_group() {
        let e = check_err("(a ...) -> a ...", PatternKind::Rearrange);
        assert_eq!(e.position, 3..6);
        assert!(
            e.message
                .starts_with("`...` inside a group on the left, term 0.1"),
            "{}",
            e.message
        );
        // On the right, a group may hold the ellipsis.
        let p = parse_pattern("a ... -> (... a)").unwrap();
        assert!(check_pattern(&p, PatternKind::Rearrange).is_ok());
    }

    #[test]
    fn generic_over_the_span_type() {
        // The checker runs on any span type, e.g. one a macro would build from tokens.
        let p: Pattern<()> = Pattern {
            left: Side {
                terms: vec![Term::Symbol("a".into(), ()), Term::Symbol("a".into(), ())],
                span: (),
            },
            right: Side {
                terms: vec![Term::Symbol("a".into(), ())],
                span: (),
            },
        };
        let e = check_pattern(&p, PatternKind::Rearrange).unwrap_err();
        assert!(e.message.starts_with("duplicate symbol `a`"));
    }
}
