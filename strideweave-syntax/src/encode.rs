//! A checked pattern as the compact data that `rearrange!` and `repeat!` emit: each side's
//! tokens as fixed-width records in one byte string, and the texts that messages quote in one
//! string. One literal per side instead of a constructor call per token keeps the expansion
//! small, which is most of what a macro call costs the compiler.
//!
//! Record `i` of a side is [`RECORD`] bytes from `i * RECORD`: [`FIELDS`] little-endian `u32`
//! fields, in the order of the `F_*` constants. The runtime (`strideweave::__private::Side`)
//! decodes with the same constants. Fields are `u32` so that a pattern read at run time has no
//! practical limit (a pattern of 70,000 terms encodes like one of 3).

use std::collections::HashMap;
use std::fmt::Write;
use std::ops::Range;

use crate::limit::MAX_NESTING;
use crate::pattern::{Pattern, Term, symbols};

/// The fields of a record, in order: the token's kind (`K_*`), its symbol's index among the
/// pattern's names, for `(` the index of its `)` (else the token's own index), the first and
/// end columns (in characters) of the term in the pattern, and the byte offset and length in
/// the side's string of the term's dotted path (`1.0`) and of its text with single spaces.
pub const F_KIND: usize = 0;
/// See [`F_KIND`].
pub const F_SYM: usize = 1;
/// See [`F_KIND`].
pub const F_CLOSE: usize = 2;
/// See [`F_KIND`].
pub const F_START: usize = 3;
/// See [`F_KIND`].
pub const F_END: usize = 4;
/// See [`F_KIND`].
pub const F_PATH: usize = 5;
/// See [`F_KIND`].
pub const F_PATH_LEN: usize = 6;
/// See [`F_KIND`].
pub const F_TEXT: usize = 7;
/// See [`F_KIND`].
pub const F_TEXT_LEN: usize = 8;
/// The number of `u32` fields in a record.
pub const FIELDS: usize = 9;
/// The bytes of a record.
pub const RECORD: usize = 4 * FIELDS;

/// Token kind: a symbol.
pub const K_SYMBOL: u32 = 0;
/// Token kind: `1`.
pub const K_UNIT: u32 = 1;
/// Token kind: `(`.
pub const K_OPEN: u32 = 2;
/// Token kind: `)`.
pub const K_CLOSE: u32 = 3;
/// Token kind: `...`.
pub const K_ELLIPSIS: u32 = 4;

/// One side, encoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodedSide {
    /// The records.
    pub toks: Vec<u8>,
    /// The paths and texts the records point into.
    pub strings: String,
}

/// A pattern, encoded (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedPattern {
    /// Every symbol once, left first, in order of appearance; records refer to them by index.
    pub names: Vec<String>,
    /// The left side.
    pub left: EncodedSide,
    /// The right side.
    pub right: EncodedSide,
    /// The columns (in characters) of the left side's text.
    pub left_span: (u32, u32),
}

impl EncodedPattern {
    /// The index of a symbol among [`names`](EncodedPattern::names).
    ///
    /// ```
    /// let p = strideweave_syntax::parse_pattern("(h w) c -> c h w").unwrap();
    /// let e = strideweave_syntax::encode_pattern("(h w) c -> c h w", &p).unwrap();
    /// assert_eq!(e.symbol("c"), Some(2));
    /// ```
    pub fn symbol(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

/// Encodes a parsed pattern (byte spans into `text`). Fails only beyond the `u32` fields
/// (when a side's paths and texts, each term's, a group's text holding its members', exceed
/// 4 GiB) and for groups nested deeper than [`MAX_NESTING`](crate::MAX_NESTING) levels,
/// which the parser refuses.
///
/// ```
/// use strideweave_syntax::{RECORD, encode_pattern, parse_pattern};
/// let text = "(h w) c -> h w c";
/// let e = encode_pattern(text, &parse_pattern(text).unwrap()).unwrap();
/// assert_eq!(e.names, ["h", "w", "c"]);
/// assert_eq!(e.left.toks.len(), 5 * RECORD); // ( h w ) c
/// assert_eq!(e.left.strings, "00.00.11(h w) c");
/// assert_eq!(e.left_span, (0, 7));
/// ```
pub fn encode_pattern(text: &str, p: &Pattern<Range<usize>>) -> Result<EncodedPattern, String> {
    // Columns in characters, looked up in constant time (counting from the start for each
    // term would make a long pattern's encoding quadratic): a byte offset for ASCII text, else
    // a table of the characters before each byte.
    let table: Vec<usize> = if text.is_ascii() {
        Vec::new()
    } else {
        let mut seen = 0;
        let mut table: Vec<usize> = text
            .bytes()
            .map(|b| {
                let before = seen;
                seen += usize::from(b & 0xC0 != 0x80);
                before
            })
            .collect();
        table.push(seen);
        table
    };
    let col = |at: usize| {
        if table.is_empty() {
            at.min(text.len())
        } else {
            table[at.min(text.len())]
        }
    };
    // Every symbol once, in order of appearance, with its index (looked up per term).
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut names = Vec::new();
    for side in [&p.left, &p.right] {
        for (n, _) in symbols(side) {
            index.entry(n).or_insert_with(|| {
                names.push(n.to_string());
                names.len() - 1
            });
        }
    }
    let narrow = |v: usize| {
        u32::try_from(v).map_err(|_| {
            "the pattern's encoding (the paths and texts of its terms) exceeds 4 GiB".to_string()
        })
    };
    let mut sides = [EncodedSide::default(), EncodedSide::default()];
    for (side, out) in [&p.left, &p.right].into_iter().zip(&mut sides) {
        // A side has fewer tokens than characters; its strings (a path and a text per term)
        // rarely exceed a few times its text. Sized once: a pattern read at run time is
        // encoded on every call.
        let chars = side.span.end.saturating_sub(side.span.start) + 1;
        let mut records: Vec<[usize; FIELDS]> = Vec::with_capacity(chars);
        out.strings.reserve(4 * chars);
        flatten(&side.terms, &index, &col, &mut records, &mut out.strings)?;
        out.toks.reserve_exact(records.len() * RECORD);
        for r in records {
            for v in r {
                out.toks.extend_from_slice(&narrow(v)?.to_le_bytes());
            }
        }
    }
    let [left, right] = sides;
    Ok(EncodedPattern {
        names,
        left,
        right,
        left_span: (
            narrow(col(p.left.span.start))?,
            narrow(col(p.left.span.end))?,
        ),
    })
}

/// The terms after an open group's, with their indices.
type Terms<'t> = std::iter::Enumerate<std::slice::Iter<'t, Term<Range<usize>>>>;

/// A side's terms as records, a group as `(`, its members, `)`. Each term's path is written
/// into `strings` (a copy of its group's path and its index); the texts all point into one
/// copy of the side's text with single spaces, written after the paths, so that the
/// encoding grows with the number of terms times their depth in path digits only. Iterative,
/// one stack entry per open group: a pattern nested deeper than [`MAX_NESTING`] levels
/// (which only one built by hand can be) is refused.
fn flatten(
    terms: &[Term<Range<usize>>],
    names: &HashMap<&str, usize>,
    col: &dyn Fn(usize) -> usize,
    out: &mut Vec<[usize; FIELDS]>,
    strings: &mut String,
) -> Result<(), String> {
    let first_record = out.len();
    // The side's text, and the path of the group whose members are being written.
    let (mut text, mut path) = (String::new(), String::new());
    // The open groups: the terms after each, its `(` record, its parent's path length.
    let mut open: Vec<(Terms<'_>, usize, usize)> = Vec::new();
    let mut at = terms.iter().enumerate();
    let mut first = true;
    loop {
        let Some((i, t)) = at.next() else {
            let Some((outer, at_open, parent)) = open.pop() else {
                break;
            };
            text.push(')');
            out[at_open][F_TEXT_LEN] = text.len() - out[at_open][F_TEXT];
            out[at_open][F_CLOSE] = out.len();
            let mut close = [0; FIELDS];
            close[F_KIND] = K_CLOSE as usize;
            close[F_CLOSE] = out.len();
            out.push(close);
            path.truncate(parent);
            at = outer;
            first = false;
            continue;
        };
        if !first {
            text.push(' ');
        }
        first = false;
        let mut r = [0; FIELDS];
        r[F_START] = col(t.span().start);
        r[F_END] = col(t.span().end);
        // The path as `term_path` spells it: the group's path, then the index.
        r[F_PATH] = strings.len();
        strings.push_str(&path);
        let dot = if path.is_empty() { "" } else { "." };
        // Infallible: fmt::Write for String never fails.
        // unreachable from user input: writing to a String cannot fail.
        write!(strings, "{dot}{i}").expect("writing to a String");
        r[F_PATH_LEN] = strings.len() - r[F_PATH];
        r[F_TEXT] = text.len();
        r[F_CLOSE] = out.len();
        let (kind, word) = match t {
            Term::Symbol(name, _) => {
                r[F_SYM] = names.get(name.as_str()).copied().unwrap_or(0);
                (K_SYMBOL, name.as_str())
            }
            Term::Unit(_) => (K_UNIT, "1"),
            Term::Ellipsis(_) => (K_ELLIPSIS, "..."),
            Term::Group(members, _) => {
                if open.len() == MAX_NESTING {
                    return Err(format!(
                        "the pattern nests deeper than {MAX_NESTING} levels"
                    ));
                }
                r[F_KIND] = K_OPEN as usize;
                text.push('(');
                // The group's path (just written) extends its parent's.
                let parent = path.len();
                path.clear();
                path.push_str(&strings[r[F_PATH]..]);
                open.push((
                    std::mem::replace(&mut at, members.iter().enumerate()),
                    out.len(),
                    parent,
                ));
                out.push(r);
                first = true;
                continue;
            }
        };
        r[F_KIND] = kind as usize;
        text.push_str(word);
        r[F_TEXT_LEN] = word.len();
        out.push(r);
    }
    // The texts follow the paths.
    let base = strings.len();
    strings.push_str(&text);
    for r in &mut out[first_record..] {
        if r[F_KIND] != K_CLOSE as usize {
            r[F_TEXT] += base;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_pattern;

    fn field(side: &EncodedSide, i: usize, f: usize) -> u32 {
        let at = i * RECORD + 4 * f;
        u32::from_le_bytes(side.toks[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn records_hold_kinds_symbols_groups_columns_and_texts() {
        let text = "b ... (h x2) -> 1 (x2 h) b ...";
        let e = encode_pattern(text, &parse_pattern(text).unwrap()).unwrap();
        assert_eq!(e.names, ["b", "h", "x2"]);
        let l = &e.left;
        let kinds: Vec<u32> = (0..l.toks.len() / RECORD)
            .map(|i| field(l, i, F_KIND))
            .collect();
        assert_eq!(
            kinds,
            [K_SYMBOL, K_ELLIPSIS, K_OPEN, K_SYMBOL, K_SYMBOL, K_CLOSE]
        );
        assert_eq!(field(l, 2, F_CLOSE), 5);
        assert_eq!(field(l, 4, F_SYM), 2);
        assert_eq!((field(l, 4, F_START), field(l, 4, F_END)), (9, 11));
        let s = |i: usize, off: usize, len: usize| {
            let a = field(l, i, off) as usize;
            l.strings[a..a + field(l, i, len) as usize].to_string()
        };
        assert_eq!(s(2, F_PATH, F_PATH_LEN), "2");
        assert_eq!(s(2, F_TEXT, F_TEXT_LEN), "(h x2)");
        assert_eq!(s(4, F_PATH, F_PATH_LEN), "2.1");
        assert_eq!(field(&e.right, 0, F_KIND), K_UNIT);
        assert_eq!(e.left_span, (0, 12));
    }
}
