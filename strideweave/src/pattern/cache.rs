//! Prepared rearrangements kept per thread, as einops keeps its recipes (a
//! `functools.lru_cache` keyed by the pattern and the shapes): a pattern compiled on a shape
//! once is applied again without parsing, checking or planning.
//!
//! A key is the operation, the pattern's text, the keyword extents as the call gave them and
//! the source's shape (profile tokens, extents and whether the root is an integer), written
//! as bytes; it is compared whole, so two keys with one hash never share a value. A thread
//! keeps [`SLOTS`] values per cache, one per slot of the key's hash (a new key replaces the
//! one in its slot), and keys longer than [`MAX_KEY`] bytes are never kept: the memory a
//! thread holds stays bounded whatever patterns and shapes it is given. Mistakes are never
//! kept: a failing call runs the whole rule again, so its message is the same every time.

use std::cell::RefCell;
use std::rc::Rc;
use std::thread::LocalKey;

use smallvec::SmallVec;

use super::code::Op;
use super::shape::byte;
use crate::layout::Shape;

/// How many prepared rearrangements a thread keeps in each cache.
pub(crate) const SLOTS: usize = 256;

/// Keys longer than this many bytes (a long pattern, a shape of many leaves) are compiled on
/// every call and never kept.
pub(crate) const MAX_KEY: usize = 1024;

/// The bytes that identify one compilation: what the plan depends on, and nothing else.
pub(crate) struct Key {
    bytes: SmallVec<[u8; 192]>,
}

impl Key {
    /// A key for operation `op` on the pattern `text`.
    pub(crate) fn new(op: Op, text: &str) -> Key {
        let mut k = Key {
            bytes: SmallVec::new(),
        };
        k.bytes.push(op as u8);
        k.text(text);
        k
    }

    /// Appends a string, its length first (so `"ab","c"` and `"a","bc"` differ).
    pub(crate) fn text(&mut self, s: &str) {
        self.int(s.len() as i64);
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// Appends an integer.
    pub(crate) fn int(&mut self, v: i64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends the source's shape: its profile tokens, extents and whether the root is an
    /// integer (`n` and `(n)` compile to different results).
    pub(crate) fn shape(&mut self, shape: &Shape) {
        let profile = shape.profile();
        self.int(profile.len() as i64);
        self.bytes.extend(profile.iter().map(|&t| byte(t)));
        for &e in shape.leaves() {
            self.int(e);
        }
        self.bytes.push(u8::from(shape.as_int_tuple().is_int()));
    }

    /// FxHash's mix over the key's bytes, eight at a time.
    fn hash(&self) -> u64 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.bytes.len() as u64;
        let mut chunks = self.bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        let mut w = [0u8; 8];
        w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        h ^ (h >> 29)
    }
}

/// One thread's prepared values: [`SLOTS`] slots, each the last key whose hash chose it.
pub(crate) struct Cache<V> {
    slots: Vec<Option<(Box<[u8]>, Rc<V>)>>,
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

    /// The cache's heap bytes, keys included (values counted by their inline size).
    #[cfg(test)]
    pub(crate) fn key_bytes(&self) -> usize {
        (self.slots.iter().flatten()).map(|(k, _)| k.len()).sum()
    }
}

/// The value kept for `key` in `cache`, or `make`'s, kept when it succeeds and the key is
/// short enough. `make` runs with the cache released (it may use any cache itself); after
/// the thread's caches are destroyed (a thread-local destructor calling in), it just runs.
pub(crate) fn prepared<V, E>(
    cache: &'static LocalKey<RefCell<Cache<V>>>,
    key: &Key,
    make: impl FnOnce() -> Result<V, E>,
) -> Result<Rc<V>, E> {
    let slot = (key.hash() % SLOTS as u64) as usize;
    let found = cache.try_with(|c| {
        let c = c.borrow();
        match c.slots.get(slot) {
            Some(Some((k, v))) if **k == key.bytes[..] => Some(v.clone()),
            _ => None,
        }
    });
    if let Ok(Some(v)) = found {
        return Ok(v);
    }
    let v = Rc::new(make()?);
    if key.bytes.len() <= MAX_KEY {
        let _ = cache.try_with(|c| {
            let mut c = c.borrow_mut();
            if c.slots.is_empty() {
                c.slots.resize_with(SLOTS, || None);
            }
            c.slots[slot] = Some((key.bytes[..].into(), v.clone()));
        });
    }
    Ok(v)
}
