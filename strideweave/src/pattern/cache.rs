//! Prepared rearrangements kept per thread, as einops keeps its recipes (a
//! `functools.lru_cache` keyed by the pattern and the shapes): a pattern compiled on a shape
//! once is applied again without parsing, checking or planning.
//!
//! A key is the operation, the pattern's text, the keyword extents as the call gave them and
//! the source's shape (profile tokens, extents and whether the root is an integer); it is
//! compared whole, so two keys with one hash never share a value. A thread
//! keeps [`SLOTS`] values per cache, one per slot of the key's hash (a new key replaces the
//! one in its slot), and keys longer than [`MAX_KEY`] bytes are never kept: the memory a
//! thread holds stays bounded whatever patterns and shapes it is given. Mistakes are never
//! kept: a failing call runs the whole rule again, so its message is the same every time.

use std::cell::RefCell;
use std::rc::Rc;
use std::thread::LocalKey;

use smallvec::SmallVec;

use super::code::Op;
use crate::layout::Shape;

/// How many prepared rearrangements a thread keeps in each cache.
pub(crate) const SLOTS: usize = 256;

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
    shape: Shape,
}

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
        self.text.len() + self.extra.len() + 9 * self.shape.leaves().len()
    }

    /// Whether `kept` is this key (a macro's key by its address alone: its text and
    /// keywords are empty).
    fn is(&self, kept: &Kept) -> bool {
        let (a, b) = (self.shape.as_int_tuple(), kept.shape.as_int_tuple());
        self.op == kept.op
            && self.site == kept.site
            && (self.site != 0 || (*self.text == *kept.text && self.extra[..] == kept.extra[..]))
            && a.leaves() == b.leaves()
            && a.profile() == b.profile()
            && a.is_int() == b.is_int()
    }

    /// The key, owned.
    fn kept(&self) -> Kept {
        Kept {
            op: self.op,
            site: self.site,
            text: self.text.into(),
            extra: self.extra[..].into(),
            shape: self.shape.clone(),
        }
    }

    /// FxHash's mix over the text and keywords (eight bytes at a time, the last word
    /// overlapping the one before it rather than padded) and the extents; the profile
    /// enters by its length (a full comparison settles the rest).
    fn hash(&self) -> u64 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let word = |b: &[u8], at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let bytes = |mut h: u64, b: &[u8]| {
            let n = b.len();
            if n < 8 {
                let w = b.iter().rev().fold(0u64, |w, &x| w << 8 | u64::from(x));
                return mix(h, w);
            }
            let mut at = 0;
            while at + 8 < n {
                h = mix(h, word(b, at));
                at += 8;
            }
            mix(h, word(b, n - 8))
        };
        let shape = self.shape;
        let head = (self.op as u64)
            | (shape.profile().len() as u64) << 8
            | u64::from(shape.as_int_tuple().is_int()) << 40;
        let mut h = match self.site {
            0 => bytes(mix(head, self.text.len() as u64), self.text.as_bytes()),
            site => mix(head, site as u64),
        };
        if !self.extra.is_empty() {
            h = bytes(h, &self.extra);
        }
        for &e in shape.leaves() {
            h = mix(h, e as u64);
        }
        h ^ (h >> 29)
    }
}

/// One thread's prepared values: [`SLOTS`] slots, each the last key whose hash chose it.
pub(crate) struct Cache<V> {
    slots: Vec<Option<(Kept, Rc<V>)>>,
}

impl<V> Cache<V> {
    /// An empty cache (its slots are allocated on the first insertion).
    pub(crate) const fn new() -> Cache<V> {
        Cache { slots: Vec::new() }
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
            .map(|(k, _)| k.text.len() + k.extra.len() + 9 * k.shape.leaves().len())
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
    let slot = (key.hash() % SLOTS as u64) as usize;
    let found = cache.try_with(|c| {
        let c = c.borrow();
        match c.slots.get(slot) {
            Some(Some((k, v))) if key.is(k) => Some(v.clone()),
            _ => None,
        }
    });
    if let Ok(Some(v)) = found {
        return Ok(v);
    }
    let v = Rc::new(make()?);
    if key.len() <= MAX_KEY {
        let _ = cache.try_with(|c| {
            let mut c = c.borrow_mut();
            if c.slots.is_empty() {
                c.slots.resize_with(SLOTS, || None);
            }
            c.slots[slot] = Some((key.kept(), v.clone()));
        });
    }
    Ok(v)
}
