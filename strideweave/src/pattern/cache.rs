//! Prepared rearrangements kept per thread, as einops keeps its recipes (a
//! `functools.lru_cache` keyed by the pattern and the shapes): a pattern compiled on a shape
//! once is applied again without parsing, checking or planning.
//!
//! A key is the operation, the pattern's text, the keyword extents as the call gave them and
//! the source's shape (profile tokens, extents and whether the root is an integer); it is
//! compared whole, so two keys with one hash never share a value. A thread keeps [`SLOTS`]
//! values per cache, one per slot of the key's hash (a new key replaces the one in its slot),
//! and keys longer than [`MAX_KEY`] bytes are never kept: the memory a thread holds stays
//! bounded whatever patterns and shapes it is given. A pattern string passed again from the
//! same address (a literal in a loop) is looked for first in the slot where it was last
//! found, without hashing its text; the whole key is still compared. Mistakes are never kept:
//! a failing call runs the whole rule again, so its message is the same every time.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::thread::LocalKey;

use smallvec::SmallVec;

use super::code::Op;
use crate::layout::{ProfileToken, Shape};

/// How many prepared rearrangements a thread keeps in each cache.
pub(crate) const SLOTS: usize = 256;

/// How many pattern strings a thread remembers by address (see [`Hint`]).
const HINTS: usize = 16;

/// Keys longer than this many bytes (a long pattern, a shape of many leaves) are compiled on
/// every call and never kept.
pub(crate) const MAX_KEY: usize = 1024;

/// What identifies one compilation: what the plan depends on, and nothing else. Borrowed:
/// a lookup copies nothing (only keyword extents are written out, as bytes).
pub(crate) struct Key<'a> {
    op: Op,
    /// The address of the pattern when it is a `'static` constant a macro wrote (its
    /// identity: the text and keywords are then not part of the key), 0 otherwise.
    site: usize,
    text: &'a str,
    /// The keyword extents as the call gave them (names and values), as bytes.
    extra: SmallVec<[u8; 32]>,
    shape: &'a Shape,
}

/// A kept key: [`Key`]'s parts, owned.
struct Kept {
    op: Op,
    site: usize,
    text: Box<str>,
    extra: Box<[u8]>,
    leaves: Box<[i64]>,
    profile: Box<[ProfileToken]>,
    is_int: bool,
}

/// Where a pattern string was last found: the text's address and length, and its slot. Only
/// a guess: the key found there is compared whole, so a string rewritten at the same address
/// (or a slot since taken by another key) just falls back to the hash.
#[derive(Clone, Copy)]
struct Hint {
    text: TextAt,
    slot: usize,
}

/// Where a text lies: its address and length.
type TextAt = (usize, usize);

impl<'a> Key<'a> {
    /// A key for operation `op` on the pattern `text` and the source's `shape` (its
    /// profile tokens, extents and whether the root is an integer: `n` and `(n)` are told
    /// apart), without keywords.
    pub(crate) fn new(op: Op, text: &'a str, shape: &'a Shape) -> Key<'a> {
        Key {
            op,
            site: 0,
            text,
            extra: SmallVec::new(),
            shape,
        }
    }

    /// A key for the constant pattern `code` a macro expansion wrote, on the source's
    /// `shape`: the pattern is known by its address, so neither its text nor its keywords
    /// are hashed or compared. Sound because `code` is `'static` and immutable (no interior
    /// mutability): no other value ever lives at its address, so one address is one
    /// pattern (one pattern at two addresses only takes two slots).
    pub(crate) fn site<T: 'static>(op: Op, code: &'static T, shape: &'a Shape) -> Key<'a> {
        Key {
            op,
            site: std::ptr::from_ref(code).addr(),
            text: "",
            extra: SmallVec::new(),
            shape,
        }
    }

    /// Appends a keyword's name, its length first (so `"ab","c"` and `"a","bc"` differ).
    pub(crate) fn name(&mut self, s: &str) {
        self.int(s.len() as i64);
        self.extra.extend_from_slice(s.as_bytes());
    }

    /// Appends an integer (a keyword's value or symbol).
    pub(crate) fn int(&mut self, v: i64) {
        self.extra.extend_from_slice(&v.to_le_bytes());
    }

    /// The key's size in bytes, as kept.
    fn len(&self) -> usize {
        key_bytes(self.text.as_bytes(), &self.extra, self.shape.leaves())
    }

    /// Whether `kept` is this key (a macro's key by its address alone: its text and
    /// keywords are empty). Compared inline, word by word: keys are short.
    fn is(&self, kept: &Kept) -> bool {
        let shape = self.shape.as_int_tuple();
        self.op == kept.op
            && self.site == kept.site
            && same_bytes(self.text.as_bytes(), kept.text.as_bytes())
            && same_bytes(&self.extra, &kept.extra)
            && same(shape.leaves(), &kept.leaves)
            && same(shape.profile(), &kept.profile)
            && shape.is_int() == kept.is_int
    }

    /// Where the key's text lies.
    fn text_at(&self) -> TextAt {
        (self.text.as_ptr().addr(), self.text.len())
    }

    /// Where a text key's hint is kept; `None` for a macro's key (found by address already).
    fn hint(&self) -> Option<usize> {
        let (addr, len) = self.text_at();
        (self.site == 0).then_some((addr >> 3 ^ addr >> 7 ^ len) % HINTS)
    }

    /// The key, owned.
    fn kept(&self) -> Kept {
        Kept {
            op: self.op,
            site: self.site,
            text: self.text.into(),
            extra: self.extra[..].into(),
            leaves: self.shape.leaves().into(),
            profile: self.shape.profile().into(),
            is_int: self.shape.as_int_tuple().is_int(),
        }
    }

    /// FxHash's mix over the text and keywords (eight bytes at a time, see [`last_word`])
    /// and the extents; the profile and the integer root are left to the comparison.
    fn hash(&self) -> u64 {
        let leaves = self.shape.leaves();
        let head = (self.op as u64) | (leaves.len() as u64) << 8;
        let mut h = match self.site {
            0 => mix_bytes(mix(head, self.text.len() as u64), self.text.as_bytes()),
            site => mix(head, site as u64),
        };
        if !self.extra.is_empty() {
            h = mix_bytes(h, &self.extra);
        }
        for &e in leaves {
            h = mix(h, e as u64);
        }
        h ^ (h >> 29)
    }
}

/// A key's size in bytes, as [`MAX_KEY`] counts it: its text and keywords, and nine bytes
/// per leaf (an extent and its profile token).
fn key_bytes(text: &[u8], extra: &[u8], leaves: &[i64]) -> usize {
    text.len() + extra.len() + 9 * leaves.len()
}

/// FxHash's step: the hash `h` with the word `w` mixed in.
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// `b` as little-endian words: the whole words before its last byte, then [`last_word`].
fn words(b: &[u8]) -> (&[[u8; 8]], u64) {
    let (whole, _) = b[..b.len().saturating_sub(1) / 8 * 8].as_chunks::<8>();
    (whole, last_word(b))
}

/// The last word of `b`'s: its last eight bytes, or all of them when shorter (a text's
/// words end with this one, overlapping the one before rather than padded).
fn last_word(b: &[u8]) -> u64 {
    match b.last_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => b.iter().rev().fold(0u64, |w, &x| w << 8 | u64::from(x)),
    }
}

/// FxHash of `b`'s [`words`] mixed into `h`.
fn mix_bytes(mut h: u64, b: &[u8]) -> u64 {
    let (whole, last) = words(b);
    for w in whole {
        h = mix(h, u64::from_le_bytes(*w));
    }
    mix(h, last)
}

/// Whether the byte strings `a` and `b` are equal, compared by [`words`] inline (keys are
/// short: a call to `memcmp` costs more than the loop).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let ((wa, la), (wb, lb)) = (words(a), words(b));
    (wa.iter().zip(wb)).all(|(x, y)| u64::from_le_bytes(*x) == u64::from_le_bytes(*y)) && la == lb
}

/// Whether `a` and `b` are equal, compared inline (see [`same_bytes`]).
fn same<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// One thread's prepared values: [`SLOTS`] slots, each the last key whose hash chose it, and
/// [`HINTS`] hints to the slots of the pattern strings last found.
pub(crate) struct Cache<V> {
    slots: Vec<Option<(Kept, Rc<V>)>>,
    hints: [Cell<Hint>; HINTS],
}

impl<V> Cache<V> {
    /// An empty cache (its slots are allocated on the first insertion).
    pub(crate) const fn new() -> Cache<V> {
        // No text lives at address 0.
        const NONE: Hint = Hint {
            text: (0, 0),
            slot: 0,
        };
        Cache {
            slots: Vec::new(),
            hints: [const { Cell::new(NONE) }; HINTS],
        }
    }

    /// The value kept for `key`, or the slot its hash chose. A text key is looked for
    /// first where its hint points, and a hit by the hash leaves a hint.
    fn find(&self, key: &Key<'_>) -> Result<Rc<V>, usize> {
        let hint = key.hint().map(|h| &self.hints[h]);
        if let Some(h) = hint
            && h.get().text == key.text_at()
            && let Some(Some((k, v))) = self.slots.get(h.get().slot)
            && key.is(k)
        {
            return Ok(v.clone());
        }
        let slot = (key.hash() % SLOTS as u64) as usize;
        match self.slots.get(slot) {
            Some(Some((k, v))) if key.is(k) => {
                self.leave_hint(key, slot);
                Ok(v.clone())
            }
            _ => Err(slot),
        }
    }

    /// Remembers that `key`'s text was found in `slot`.
    fn leave_hint(&self, key: &Key<'_>, slot: usize) {
        if let Some(h) = key.hint() {
            self.hints[h].set(Hint {
                text: key.text_at(),
                slot,
            });
        }
    }

    /// How many values the cache holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// The bytes of the kept keys (as [`MAX_KEY`] counts them).
    #[cfg(test)]
    pub(crate) fn key_bytes(&self) -> usize {
        (self.slots.iter().flatten())
            .map(|(k, _)| key_bytes(k.text.as_bytes(), &k.extra, &k.leaves))
            .sum()
    }
}

/// The value kept for `key` in `cache`, or `make`'s, kept when it succeeds and the key is
/// short enough. `make` runs with the cache released (it may use any cache itself); after
/// the thread's caches are destroyed (a thread-local destructor calling in), it just runs.
pub(crate) fn prepared<V, E>(
    cache: &'static LocalKey<RefCell<Cache<V>>>,
    key: &Key<'_>,
    make: impl FnOnce() -> Result<V, E>,
) -> Result<Rc<V>, E> {
    let slot = match cache.try_with(|c| c.borrow().find(key)) {
        Ok(Ok(v)) => return Ok(v),
        Ok(Err(slot)) => Some(slot),
        Err(_) => None,
    };
    let v = Rc::new(make()?);
    if let Some(slot) = slot
        && key.len() <= MAX_KEY
    {
        let _ = cache.try_with(|c| {
            let mut c = c.borrow_mut();
            if c.slots.is_empty() {
                c.slots.resize_with(SLOTS, || None);
            }
            c.slots[slot] = Some((key.kept(), v.clone()));
            c.leave_hint(key, slot);
        });
    }
    Ok(v)
}
