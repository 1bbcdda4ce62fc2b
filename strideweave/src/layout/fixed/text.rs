//! Messages of the static layouts written in `const fn`s into a fixed buffer (numbers and
//! layouts formatted by hand), so that a failed check panics with the run-time algebra's
//! words in const evaluation (a compile error) and at run time alike.
//!
//! `pattern::Msg` does the same for patterns, but `pattern` sits above `layout` in the
//! layers, so the layout algebra keeps this small writer of its own.

use super::code::LayoutCode;
use crate::layout::int_tuple::ProfileToken;

/// The capacity of a message in bytes (two printed layouts of full capacity fit); a longer
/// one ends in `…`.
pub(crate) const TEXT_CAP: usize = 4096;

const ELLIPSIS: &str = "…";

/// A message being written.
pub(crate) struct Text {
    buf: [u8; TEXT_CAP],
    len: usize,
    full: bool,
}

impl Text {
    /// An empty message.
    pub(crate) const fn new() -> Text {
        Text {
            buf: [0; TEXT_CAP],
            len: 0,
            full: false,
        }
    }

    /// Appends `s` whole, or `…` and nothing more once the capacity is reached (never half
    /// a character).
    pub(crate) const fn str(&mut self, s: &str) {
        if self.full {
            return;
        }
        let b = s.as_bytes();
        if self.len + b.len() + ELLIPSIS.len() > TEXT_CAP {
            self.full = true;
            self.copy(ELLIPSIS.as_bytes());
            return;
        }
        self.copy(b);
    }

    const fn copy(&mut self, b: &[u8]) {
        let mut i = 0;
        while i < b.len() && self.len < TEXT_CAP {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
    }

    /// Appends a signed integer in decimal.
    pub(crate) const fn int(&mut self, v: i64) {
        if v < 0 {
            self.str("-");
        }
        self.uint(v.unsigned_abs() as u128);
    }

    /// Appends an unsigned integer in decimal.
    pub(crate) const fn uint(&mut self, mut v: u128) {
        let mut digits = [0u8; 40];
        let mut n = 0;
        loop {
            digits[digits.len() - 1 - n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        let (_, tail) = digits.split_at(digits.len() - n);
        match core::str::from_utf8(tail) {
            Ok(s) => self.str(s),
            Err(_) => self.str("?"),
        }
    }

    /// Appends a layout in CuTe notation, `(2,(3,4)):(1,(2,6))`, as `Layout`'s `Display`
    /// writes it.
    pub(crate) const fn layout(&mut self, c: &LayoutCode) {
        self.tuple(c, false);
        self.str(":");
        self.tuple(c, true);
    }

    /// The shape (or, with `strides`, the stride) of `c` in CuTe notation.
    const fn tuple(&mut self, c: &LayoutCode, strides: bool) {
        let values = if strides { &c.strides } else { &c.extents };
        if c.int_root {
            self.int(values[0]);
            return;
        }
        self.str("(");
        let (mut t, mut leaf, mut first) = (0, 0, true);
        while t < c.ntoks as usize {
            let tok = c.toks[t];
            t += 1;
            if !matches!(tok, ProfileToken::Pop) && !first {
                self.str(",");
            }
            match tok {
                ProfileToken::Leaf => {
                    self.int(values[leaf]);
                    leaf += 1;
                    first = false;
                }
                ProfileToken::Push => {
                    self.str("(");
                    first = true;
                }
                ProfileToken::Pop => {
                    self.str(")");
                    first = false;
                }
            }
        }
        self.str(")");
    }

    /// Appends the dotted path `i.j.k` of leaf `leaf` of `c` (the run-time `leaf_path`).
    pub(crate) const fn leaf_path(&mut self, c: &LayoutCode, leaf: usize) {
        let mut path = [0usize; super::code::MAX_TOKENS + 1];
        let (mut depth, mut seen, mut t) = (0, 0, 0);
        while t < c.ntoks as usize {
            match c.toks[t] {
                ProfileToken::Push => {
                    depth += 1;
                    path[depth] = 0;
                }
                ProfileToken::Pop => {
                    depth -= 1;
                    path[depth] += 1;
                }
                ProfileToken::Leaf => {
                    if seen == leaf {
                        let mut k = 0;
                        while k <= depth {
                            if k > 0 {
                                self.str(".");
                            }
                            self.uint(path[k] as u128);
                            k += 1;
                        }
                        return;
                    }
                    seen += 1;
                    path[depth] += 1;
                }
            }
            t += 1;
        }
        self.uint(leaf as u128);
    }

    /// The message written so far.
    pub(crate) const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "(message not UTF-8)",
        }
    }
}
