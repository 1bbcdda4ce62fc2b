//! Messages written in const context into a caller's buffer, strings and numbers formatted
//! by hand. The static path passes a fixed buffer (a longer message ends in `…`); the
//! run-time path sizes its buffer until the message fits, so nothing is cut.

use super::shape::{LEAF, ShapeRef, leaves_in, node_end};

/// The capacity of a compile-time message in bytes; longer messages end in `…`.
pub const MSG_CAP: usize = 1024;

/// Where a message stands, without its buffer: what a failing check returns. Read the text
/// back from the buffer it was written into.
///
/// ```
/// use strideweave::__private::{Msg, MsgState};
/// let mut buf = [0u8; 64];
/// let mut m = Msg::new(&mut buf);
/// m.str("repeat!: ");
/// m.mark();
/// m.str("no mistake");
/// let st: MsgState = m.state();
/// assert_eq!(st.text(&buf), "repeat!: no mistake");
/// assert_eq!(st.detail(&buf), "no mistake");
/// assert!(!st.is_full());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MsgState {
    len: usize,
    /// Where the text after the front end's `rearrange!: ` starts (see [`Msg::mark`]).
    mark: usize,
    /// Whether the message was cut at the capacity.
    full: bool,
    /// The column of the caret line's first caret (which term the message is about).
    anchor: u32,
    /// Whether the message already names the source's shape.
    names_shape: bool,
}

impl MsgState {
    /// An empty message.
    pub const EMPTY: MsgState = MsgState {
        len: 0,
        mark: 0,
        full: false,
        anchor: 0,
        names_shape: false,
    };

    /// Whether the message was cut at its buffer's capacity.
    pub const fn is_full(&self) -> bool {
        self.full
    }

    /// The column of the first caret: which term the message is about.
    pub const fn anchor(&self) -> u32 {
        self.anchor
    }

    /// Whether the message names the source's shape.
    pub const fn names_shape(&self) -> bool {
        self.names_shape
    }

    /// The message in `buf`, the buffer it was written into.
    pub const fn text<'b>(&self, buf: &'b [u8]) -> &'b str {
        match core::str::from_utf8(buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "(message not UTF-8)",
        }
    }

    /// The message after the [`mark`](Msg::mark), in `buf`.
    pub fn detail<'b>(&self, buf: &'b [u8]) -> &'b str {
        &self.text(buf)[self.mark..]
    }
}

/// A message being written into a borrowed buffer (numbers formatted by hand).
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut m = strideweave::__private::Msg::new(&mut buf);
/// m.str("extent ");
/// m.int(-42);
/// assert_eq!(m.as_str(), "extent -42");
/// ```
pub struct Msg<'b> {
    buf: &'b mut [u8],
    st: MsgState,
}

const ELLIPSIS: &[u8] = "…".as_bytes();

impl<'b> Msg<'b> {
    /// An empty message in `buf`.
    pub const fn new(buf: &'b mut [u8]) -> Msg<'b> {
        Msg {
            buf,
            st: MsgState::EMPTY,
        }
    }

    /// Continues the message `st` in `buf`, the buffer it was written into.
    pub const fn resume(buf: &'b mut [u8], st: MsgState) -> Msg<'b> {
        Msg { buf, st }
    }

    /// Where the message stands.
    pub const fn state(&self) -> MsgState {
        self.st
    }

    /// Appends a string; past the capacity, the message ends in `…`.
    pub const fn str(&mut self, s: &str) {
        let b = s.as_bytes();
        let cap = self.buf.len();
        let room = cap.saturating_sub(ELLIPSIS.len());
        let mut i = 0;
        while i < b.len() {
            if self.st.full {
                return;
            }
            if self.st.len >= room {
                // Drop a character cut in two, then mark the cut.
                if (b[i] & 0xC0) == 0x80 {
                    while self.st.len > 0 && (self.buf[self.st.len - 1] & 0xC0) == 0x80 {
                        self.st.len -= 1;
                    }
                    self.st.len = self.st.len.saturating_sub(1);
                }
                self.st.full = true;
                let mut j = 0;
                while j < ELLIPSIS.len() && self.st.len < cap {
                    self.buf[self.st.len] = ELLIPSIS[j];
                    self.st.len += 1;
                    j += 1;
                }
                return;
            }
            self.buf[self.st.len] = b[i];
            self.st.len += 1;
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
        self.st.mark = self.st.len;
    }

    /// Records the column of the first caret.
    pub const fn set_anchor(&mut self, column: u32) {
        self.st.anchor = column;
    }

    /// Records that the message names the source's shape.
    pub const fn set_names_shape(&mut self) {
        self.st.names_shape = true;
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        self.st.text(self.buf)
    }

    /// Appends a shape in CuTe notation: `(2,(3,4))`, `8`.
    pub const fn shape(&mut self, c: ShapeRef<'_>) {
        if c.int_root {
            self.extent(c.extents[0]);
            return;
        }
        self.str("(");
        self.nodes(c, 0, c.ntoks, 0);
        self.str(")");
    }

    /// Appends an extent: the number, or `_` for one known only at run time (0).
    pub const fn extent(&mut self, e: i64) {
        if e == 0 {
            self.str("_");
        } else {
            self.int(e);
        }
    }

    /// Appends the node at profile token `t` (leaf number `leaf`): `5` or `(3,4)`.
    pub(crate) const fn node(&mut self, c: ShapeRef<'_>, t: usize, leaf: usize) {
        if c.toks[t] == LEAF {
            self.extent(c.extents[leaf]);
        } else {
            self.str("(");
            let end = node_end(c, t);
            self.nodes(c, t + 1, end - 1, leaf);
            self.str(")");
        }
    }

    /// Appends the sibling nodes of tokens `from..to`, separated by commas.
    const fn nodes(&mut self, c: ShapeRef<'_>, from: usize, to: usize, mut leaf: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_truncation() {
        let mut buf = [0; MSG_CAP];
        let mut m = Msg::new(&mut buf);
        m.int(i64::MIN);
        m.str(" ");
        m.int(0);
        m.str(" ");
        m.int(i64::MAX);
        assert_eq!(m.as_str(), "-9223372036854775808 0 9223372036854775807");
        let mut buf = [0; MSG_CAP];
        let mut m = Msg::new(&mut buf);
        m.repeat("é", 2000);
        assert!(m.as_str().ends_with("é…"), "{}", m.as_str());
        assert!(m.as_str().len() <= MSG_CAP);
    }

    #[test]
    fn shapes_print_in_cute_notation() {
        use crate::pattern::shape::{POP, PUSH};
        let mut buf = [0; MSG_CAP];
        let mut m = Msg::new(&mut buf);
        // (2,(3,(4)),())
        let toks = [LEAF, PUSH, LEAF, PUSH, LEAF, POP, POP, PUSH, POP];
        m.shape(ShapeRef {
            toks: &toks,
            ntoks: 9,
            extents: &[2, 3, 4],
            nleaves: 3,
            int_root: false,
        });
        m.str(" ");
        m.shape(ShapeRef {
            toks: &[LEAF],
            ntoks: 1,
            extents: &[8],
            nleaves: 1,
            int_root: true,
        });
        assert_eq!(m.as_str(), "(2,(3,(4)),()) 8");
    }
}
