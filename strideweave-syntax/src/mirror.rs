//! einops' reading of groups: the slowest member first, the last member fastest. The engine
//! reads a group first member fastest, so a pattern read as einops reads it is encoded as
//! written ([`encode_pattern`](crate::encode_pattern)) and then mirrored: the members of every
//! group, nested groups too, in reverse order, on both sides; top-level terms keep their
//! order. Each record keeps what it says about the term as written (its columns, dotted path
//! and text), so the engine's messages quote the pattern as the user wrote it.

use crate::encode::{EncodedPattern, EncodedSide, F_CLOSE, F_KIND, FIELDS, K_OPEN, RECORD};

impl EncodedPattern {
    /// The same pattern with every group's members in reverse order (nested groups too, on
    /// both sides), each record keeping the columns, path and text of the term as written:
    /// einops' reading (`strideweave::einops`) of the pattern, for the engine.
    ///
    /// ```
    /// use strideweave_syntax::{F_START, K_OPEN, RECORD, encode_pattern, parse_pattern};
    /// let text = "(h w) c -> c (h w)";
    /// let e = encode_pattern(text, &parse_pattern(text).unwrap()).unwrap().mirror_groups();
    /// // The left side's records: `(`, then `w` (column 3) before `h` (column 1), `)`, `c`.
    /// let column = |i: usize| u32::from_le_bytes(e.left.toks[i * RECORD + 4 * F_START..][..4].try_into().unwrap());
    /// assert_eq!([column(1), column(2)], [3, 1]);
    /// assert_eq!(e.left.toks[..4], K_OPEN.to_le_bytes());
    /// ```
    pub fn mirror_groups(mut self) -> EncodedPattern {
        self.left = mirror_side(&self.left);
        self.right = mirror_side(&self.right);
        self
    }
}

/// Blocks still to emit (first, last record), popped from the end, and the `)` after them.
type Pending = (Vec<(usize, usize)>, Option<usize>);

/// A side's records with every group's member blocks reversed, `F_CLOSE` renumbered.
fn mirror_side(side: &EncodedSide) -> EncodedSide {
    let n = side.toks.len() / RECORD;
    let field = |i: usize, f: usize| {
        let at = i * RECORD + 4 * f;
        u32::from_le_bytes([
            side.toks[at],
            side.toks[at + 1],
            side.toks[at + 2],
            side.toks[at + 3],
        ]) as usize
    };
    // The blocks (one record, or a group from `(` to `)`) of records `lo..hi`.
    let blocks = |lo: usize, hi: usize| {
        let mut out = Vec::new();
        let mut i = lo;
        while i < hi {
            let end = if field(i, F_KIND) == K_OPEN as usize {
                field(i, F_CLOSE).clamp(i, hi - 1)
            } else {
                i
            };
            out.push((i, end));
            i = end + 1;
        }
        out
    };
    // The order of the records, with an explicit stack: each entry is a list of blocks still
    // to emit (in emission order, reversed for a pop from the end) and the `)` to emit after.
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut top = blocks(0, n);
    top.reverse();
    let mut stack: Vec<Pending> = vec![(top, None)];
    while let Some((pending, close)) = stack.last_mut() {
        let Some((start, end)) = pending.pop() else {
            if let Some(c) = *close {
                order.push(c);
            }
            stack.pop();
            continue;
        };
        order.push(start);
        if end > start {
            // A group: its members in reverse order, so popped from the end first-to-last.
            let members = blocks(start + 1, end);
            stack.push((members, Some(end)));
        }
    }
    let mut toks = Vec::with_capacity(side.toks.len());
    let mut new_index = vec![0usize; n];
    for (k, &i) in order.iter().enumerate() {
        new_index[i] = k;
    }
    for &i in &order {
        for f in 0..FIELDS {
            let v = if f == F_CLOSE {
                // For `(` the new index of its `)`, else the record's own new index.
                if field(i, F_KIND) == K_OPEN as usize {
                    new_index[field(i, F_CLOSE).min(n - 1)]
                } else {
                    new_index[i]
                }
            } else {
                field(i, f)
            };
            toks.extend_from_slice(&(v as u32).to_le_bytes());
        }
    }
    EncodedSide {
        toks,
        strings: side.strings.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::encode::{F_CLOSE, F_KIND, F_PATH, F_PATH_LEN, F_SYM, K_SYMBOL, RECORD};
    use crate::{encode_pattern, parse_pattern};

    fn field(toks: &[u8], i: usize, f: usize) -> usize {
        let at = i * RECORD + 4 * f;
        u32::from_le_bytes(toks[at..at + 4].try_into().unwrap()) as usize
    }

    /// The side's terms as the engine reads them: names, `(`, `)`, with each `(`'s `)`
    /// checked, and each symbol's path as written.
    fn read(text: &str, right: bool) -> String {
        let e = encode_pattern(text, &parse_pattern(text).unwrap())
            .unwrap()
            .mirror_groups();
        let side = if right { &e.right } else { &e.left };
        let n = side.toks.len() / RECORD;
        let mut out = Vec::new();
        for i in 0..n {
            match field(&side.toks, i, F_KIND) as u32 {
                K_SYMBOL => {
                    let at = field(&side.toks, i, F_PATH);
                    let path = &side.strings[at..at + field(&side.toks, i, F_PATH_LEN)];
                    out.push(format!("{}@{path}", e.names[field(&side.toks, i, F_SYM)]));
                }
                crate::K_OPEN => {
                    let close = field(&side.toks, i, F_CLOSE);
                    assert_eq!(field(&side.toks, close, F_KIND) as u32, crate::K_CLOSE);
                    out.push("(".into());
                }
                crate::K_CLOSE => {
                    assert_eq!(field(&side.toks, i, F_CLOSE), i);
                    out.push(")".into());
                }
                crate::K_UNIT => out.push("1".into()),
                _ => out.push("...".into()),
            }
        }
        out.join(" ")
    }

    #[test]
    fn every_group_is_reversed_top_level_order_kept_paths_as_written() {
        assert_eq!(
            read("b n (t h k) -> t b h n k", false),
            "b@0 n@1 ( k@2.2 h@2.1 t@2.0 )"
        );
        assert_eq!(
            read("a b c -> (a (b 1 c)) ...", true),
            "( ( c@0.1.2 1 b@0.1.0 ) a@0.0 ) ..."
        );
        assert_eq!(read("a ... -> (... a)", true), "( a@0.1 ... )");
        assert_eq!(read("a b -> a b", true), "a@0 b@1");
    }
}
