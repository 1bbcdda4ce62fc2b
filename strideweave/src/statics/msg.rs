//! Messages written in const context: a fixed buffer, strings and numbers formatted by hand.

use super::code::{LEAF, POP, PUSH, ShapeCode};

/// The capacity of a message in bytes; longer messages end in `…`.
pub const MSG_CAP: usize = 1024;

/// A message built by `const fn`s (numbers formatted by hand).
///
/// ```
/// let mut m = strideweave::__private::Msg::new();
/// m.str("extent ");
/// m.int(-42);
/// assert_eq!(m.as_str(), "extent -42");
/// ```
#[derive(Clone, Copy)]
pub struct Msg {
    buf: [u8; MSG_CAP],
    len: usize,
    /// Where the text after the macro name's `: ` starts (see [`Msg::mark`]).
    mark: usize,
    /// Whether the message was cut at the capacity.
    full: bool,
    /// The column of the caret line's first caret (which term the message is about).
    anchor: u32,
    /// Whether the message already names the source's shape.
    names_shape: bool,
}

impl Default for Msg {
    fn default() -> Msg {
        Msg::new()
    }
}

const ELLIPSIS: &[u8] = "…".as_bytes();

impl Msg {
    /// An empty message.
    pub const fn new() -> Msg {
        Msg {
            buf: [0; MSG_CAP],
            len: 0,
            mark: 0,
            full: false,
            anchor: 0,
            names_shape: false,
        }
    }

    /// Appends a string; past the capacity, the message ends in `…`.
    pub const fn str(&mut self, s: &str) {
        let b = s.as_bytes();
        let room = MSG_CAP - ELLIPSIS.len();
        let mut i = 0;
        while i < b.len() {
            if self.full {
                return;
            }
            if self.len >= room {
                // Drop a character cut in two, then mark the cut.
                if (b[i] & 0xC0) == 0x80 {
                    while self.len > 0 && (self.buf[self.len - 1] & 0xC0) == 0x80 {
                        self.len -= 1;
                    }
                    self.len -= 1;
                }
                self.full = true;
                let mut j = 0;
                while j < ELLIPSIS.len() {
                    self.buf[self.len] = ELLIPSIS[j];
                    self.len += 1;
                    j += 1;
                }
                return;
            }
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
    }

    /// Appends `s` `n` times.
    pub const fn repeat(&mut self, s: &str, n: usize) {
        let mut i = 0;
        while i < n {
            self.str(s);
            i += 1;
        }
    }

    /// Appends a number in decimal.
    pub const fn int(&mut self, v: i64) {
        if v < 0 {
            self.str("-");
        }
        self.uint(v.unsigned_abs());
    }

    /// Appends an unsigned number in decimal.
    pub const fn uint(&mut self, mut u: u64) {
        let mut digits = [0u8; 20];
        let mut n = digits.len();
        loop {
            n -= 1;
            digits[n] = b'0' + (u % 10) as u8;
            u /= 10;
            if u == 0 {
                break;
            }
        }
        match core::str::from_utf8(digits.split_at(n).1) {
            Ok(s) => self.str(s),
            Err(_) => panic!("digits are ASCII"),
        }
    }

    /// Appends `n word` or `n words`.
    pub const fn plural(&mut self, n: usize, word: &str) {
        self.int(n as i64);
        self.str(" ");
        self.str(word);
        if n != 1 {
            self.str("s");
        }
    }

    /// Records the current end as the start of the detail (the text after `rearrange!: `).
    pub const fn mark(&mut self) {
        self.mark = self.len;
    }

    /// Records the column of the first caret.
    pub const fn set_anchor(&mut self, column: u32) {
        self.anchor = column;
    }

    /// The column of the first caret: which term the message is about.
    pub const fn anchor(&self) -> u32 {
        self.anchor
    }

    /// Records that the message names the source's shape.
    pub const fn set_names_shape(&mut self) {
        self.names_shape = true;
    }

    /// Whether the message names the source's shape.
    pub const fn names_shape(&self) -> bool {
        self.names_shape
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "(message not UTF-8)",
        }
    }

    /// The message after the [`mark`](Msg::mark).
    pub fn detail(&self) -> &str {
        &self.as_str()[self.mark..]
    }

    /// Appends a shape in CuTe notation: `(2,(3,4))`, `8`.
    pub const fn shape(&mut self, c: &ShapeCode) {
        if c.is_int() {
            self.int(c.extent(0));
            return;
        }
        self.str("(");
        self.nodes(c, 0, c.ntoks(), 0);
        self.str(")");
    }

    /// Appends the node at profile token `t` (leaf number `leaf`): `5` or `(3,4)`.
    pub(crate) const fn node(&mut self, c: &ShapeCode, t: usize, leaf: usize) {
        if c.tok(t) == LEAF {
            self.int(c.extent(leaf));
        } else {
            self.str("(");
            let end = node_end(c, t);
            self.nodes(c, t + 1, end - 1, leaf);
            self.str(")");
        }
    }

    /// Appends the sibling nodes of tokens `from..to`, separated by commas.
    const fn nodes(&mut self, c: &ShapeCode, from: usize, to: usize, mut leaf: usize) {
        let mut t = from;
        let mut first = true;
        while t < to {
            if !first {
                self.str(",");
            }
            first = false;
            self.node(c, t, leaf);
            let end = node_end(c, t);
            leaf += leaves_in(c, t, end);
            t = end;
        }
    }
}

/// The token after the node that starts at token `t`.
pub(crate) const fn node_end(c: &ShapeCode, t: usize) -> usize {
    if c.tok(t) != PUSH {
        return t + 1;
    }
    let mut depth = 0;
    let mut i = t;
    loop {
        match c.tok(i) {
            PUSH => depth += 1,
            POP => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The number of leaves among tokens `from..to`.
pub(crate) const fn leaves_in(c: &ShapeCode, from: usize, to: usize) -> usize {
    let mut n = 0;
    let mut i = from;
    while i < to {
        if c.tok(i) == LEAF {
            n += 1;
        }
        i += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_truncation() {
        let mut m = Msg::new();
        m.int(i64::MIN);
        m.str(" ");
        m.int(0);
        m.str(" ");
        m.int(i64::MAX);
        assert_eq!(m.as_str(), "-9223372036854775808 0 9223372036854775807");
        let mut m = Msg::new();
        m.repeat("é", 2000);
        assert!(m.as_str().ends_with("é…"), "{}", m.as_str());
        assert!(m.as_str().len() <= MSG_CAP);
    }

    #[test]
    fn shapes_print_in_cute_notation() {
        use crate::statics::{Leaf, StaticShape};
        let mut m = Msg::new();
        m.shape(&<(Leaf<2>, (Leaf<3>, (Leaf<4>,)), ())>::SHAPE);
        m.str(" ");
        m.shape(&<Leaf<8>>::SHAPE);
        assert_eq!(m.as_str(), "(2,(3,(4)),()) 8");
    }
}
