//! The carriers' one lock discipline: every acquisition is recorded per thread, so taking a
//! carrier this thread already holds (from inside a [`Carrier::read`]/[`Carrier::write`]
//! closure, say) is a `Runtime` error instead of a deadlock; operations that use several
//! carriers at once lock them through [`Carrier::with_hosts`], in one global order (by
//! carrier address), so two threads can never wait on each other.

use std::cell::RefCell;
use std::sync::atomic::Ordering;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

use super::{Carrier, CarrierStorage};
use crate::dtype::{Element, HostSlice, HostSliceMut};
use crate::error::{Error, Result};

pub(super) type Slot = Option<Box<dyn CarrierStorage>>;

thread_local! {
    /// The addresses of the carriers this thread holds a lock on.
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// This thread's record that it holds a carrier; dropping it (after the lock) forgets it.
struct Hold(usize);

impl Hold {
    /// Records `c` as held, or refuses when this thread already holds it.
    fn take(c: &Carrier, op: &'static str) -> Result<Hold> {
        let addr = c.addr();
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            if held.contains(&addr) {
                return Err(Error::Runtime {
                    op,
                    detail: format!(
                        "re-entrant access to a carrier from inside Carrier::read/write (or an \
                         operation) that already holds it: the {} carrier of {} {} elements; \
                         copy the values out first",
                        c.class(),
                        c.len(),
                        c.dtype()
                    ),
                });
            }
            held.push(addr);
            Ok(Hold(addr))
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let _ = HELD.try_with(|held| {
            let mut held = held.borrow_mut();
            if let Some(i) = held.iter().rposition(|&a| a == self.0) {
                held.swap_remove(i);
            }
        });
    }
}

/// A read lock on one carrier (fields drop in order: the lock, then the record).
pub(crate) struct ReadLock<'a> {
    carrier: &'a Carrier,
    guard: RwLockReadGuard<'a, Slot>,
    _hold: Hold,
}

/// A write lock on one carrier.
pub(super) struct WriteLock<'a> {
    carrier: &'a Carrier,
    guard: RwLockWriteGuard<'a, Slot>,
    _hold: Hold,
}

impl Carrier {
    /// The carrier's identity as a number: the global lock order.
    fn addr(&self) -> usize {
        std::sync::Arc::as_ptr(&self.shared) as usize
    }

    pub(crate) fn read_lock(&self, op: &'static str) -> Result<ReadLock<'_>> {
        let hold = Hold::take(self, op)?;
        let guard = self
            .shared
            .storage
            .read()
            .unwrap_or_else(|p| p.into_inner());
        Ok(ReadLock {
            carrier: self,
            guard,
            _hold: hold,
        })
    }

    pub(super) fn write_lock(&self, op: &'static str) -> Result<WriteLock<'_>> {
        let hold = Hold::take(self, op)?;
        let guard = self
            .shared
            .storage
            .write()
            .unwrap_or_else(|p| p.into_inner());
        Ok(WriteLock {
            carrier: self,
            guard,
            _hold: hold,
        })
    }

    /// Runs `f` on the host elements of the distinct carriers `reads` and, when given, of
    /// `write` (mutably; its version is incremented if `f` succeeds), all locked at once in
    /// the global order. A carrier read twice is locked once; one both read and written is
    /// a `Runtime` error (callers stage such a source first).
    pub(crate) fn with_hosts<R>(
        op: &'static str,
        reads: &[&Carrier],
        write: Option<&Carrier>,
        f: impl FnOnce(&[HostSlice<'_>], Option<HostSliceMut<'_>>) -> Result<R>,
    ) -> Result<R> {
        let mut order: Vec<(&Carrier, bool)> = reads.iter().map(|&c| (c, false)).collect();
        order.extend(write.map(|c| (c, true)));
        order.sort_by_key(|(c, writes)| (c.addr(), *writes));
        order.dedup_by(|(c, w), (d, v)| Carrier::same(c, d) && !*w && !*v);
        let mut read_locks = Vec::with_capacity(reads.len());
        let mut write_lock = None;
        for (c, writes) in order {
            if writes {
                write_lock = Some(c.write_lock(op)?);
            } else {
                read_locks.push(c.read_lock(op)?);
            }
        }
        let slices = reads
            .iter()
            .map(|c| {
                // unreachable from user input: the loop above locked every carrier of `reads` before this lookup.
                let lock = read_locks
                    .iter()
                    .find(|l| Carrier::same(l.carrier, c))
                    .expect("every read carrier was locked");
                lock.host(op)
            })
            .collect::<Result<Vec<_>>>()?;
        let out = match write_lock.as_mut() {
            Some(w) => f(&slices, Some(w.host_mut(op)?))?,
            None => f(&slices, None)?,
        };
        if let Some(w) = write_lock {
            w.carrier.bump();
        }
        Ok(out)
    }

    /// [`with_hosts`](Self::with_hosts) on elements of type `T`.
    pub(crate) fn with_slices<T: Element, R>(
        op: &'static str,
        reads: &[&Carrier],
        write: Option<&Carrier>,
        f: impl FnOnce(&[&[T]], Option<&mut [T]>) -> R,
    ) -> Result<R> {
        Carrier::with_hosts(op, reads, write, |hosts, out| {
            let xs = hosts
                .iter()
                .zip(reads)
                .map(|(&b, c)| T::slice(b).ok_or_else(|| c.wrong_type(op, T::DTYPE)))
                .collect::<Result<Vec<&[T]>>>()?;
            let z = match (out, write) {
                (Some(b), Some(c)) => {
                    Some(T::slice_mut(b).ok_or_else(|| c.wrong_type(op, T::DTYPE))?)
                }
                _ => None,
            };
            Ok(f(&xs, z))
        })
    }

    fn bump(&self) {
        self.shared.version.fetch_add(1, Ordering::AcqRel);
    }
}

impl ReadLock<'_> {
    /// The lent elements (checked: not released, host-readable, as declared).
    pub(crate) fn host(&self, op: &'static str) -> Result<HostSlice<'_>> {
        let c = self.carrier;
        let storage = self.guard.as_ref().ok_or_else(|| c.released_error(op))?;
        let host = storage.host().ok_or_else(|| Error::NotImplemented {
            op,
            reason: format!(
                "the {} carrier class is not readable from the host",
                c.class()
            ),
        })?;
        c.check_lent(op, host.dtype(), host.len())?;
        Ok(host)
    }
}

impl WriteLock<'_> {
    /// The lent elements, mutably (checked: not released, host-writable, as declared).
    pub(super) fn host_mut(&mut self, op: &'static str) -> Result<HostSliceMut<'_>> {
        let c = self.carrier;
        let storage = self.guard.as_mut().ok_or_else(|| c.released_error(op))?;
        let host = storage.host_mut().ok_or_else(|| Error::NotImplemented {
            op,
            reason: format!(
                "the {} carrier class is not writable from the host",
                c.class()
            ),
        })?;
        c.check_lent(op, host.dtype(), host.len())?;
        Ok(host)
    }

    /// The storage slot itself: what `release` empties and `take_host_vec` takes from.
    pub(super) fn slot(&mut self) -> &mut Slot {
        &mut self.guard
    }

    /// Increments the version (after a successful write) and unlocks.
    pub(super) fn finish(self) {
        self.carrier.bump();
    }
}
