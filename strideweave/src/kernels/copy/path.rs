//! Which kernels a copy may use: the vector unit found at run time (detected once, cached)
//! and whether the destination is written with streaming stores.
//!
//! The portable path is always compiled and is what every other machine runs; the vector
//! kernels ([`super::x86`]) move the bits of element types whose every byte is initialised
//! ([`plain`]), so every path writes the same bits.

use std::any::TypeId;
use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU8, Ordering};

use num_complex::Complex;

/// The instruction set a copy runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Isa {
    /// Safe Rust only, whatever the machine.
    Portable,
    /// x86-64 with AVX2 (checked by `is_x86_feature_detected!`).
    Avx2,
}

impl Isa {
    /// The best instruction set of this machine, detected on the first call and cached.
    pub(crate) fn detected() -> Isa {
        static FOUND: AtomicU8 = AtomicU8::new(0);
        match FOUND.load(Ordering::Relaxed) {
            1 => Isa::Portable,
            2 => Isa::Avx2,
            _ => {
                let isa = Self::detect();
                FOUND.store(isa as u8 + 1, Ordering::Relaxed);
                isa
            }
        }
    }

    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
        Isa::Portable
    }
}

/// The kernels of one copy of `T`s: the instruction set and whether stores stream past the
/// caches. Made only by [`Path::new`], so a path on [`Isa::Avx2`] proves that AVX2 was
/// detected and that `T` is [`plain`]: the vector kernels rely on both.
pub(crate) struct Path<T> {
    isa: Isa,
    stream: bool,
    of: PhantomData<fn() -> T>,
}

impl<T> Clone for Path<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Path<T> {}

impl<T> fmt::Debug for Path<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({:?}, stream: {})", self.isa, self.stream)
    }
}

impl<T: 'static> Path<T> {
    /// The path of a copy that writes `bytes` bytes: `want` if this machine has it (else
    /// the best it has) for [`plain`] types, the portable one for others; streaming stores
    /// from [`STREAM_MIN_BYTES`] on, on a vector path.
    pub(crate) fn new(want: Isa, bytes: usize) -> Path<T> {
        let isa = if plain::<T>() {
            want.min(Isa::detected())
        } else {
            Isa::Portable
        };
        Path {
            isa,
            stream: isa != Isa::Portable && bytes >= STREAM_MIN_BYTES,
            of: PhantomData,
        }
    }
}

impl<T> Path<T> {
    /// The portable path with regular stores, for any `T`.
    pub(crate) fn portable() -> Path<T> {
        Path {
            isa: Isa::Portable,
            stream: false,
            of: PhantomData,
        }
    }

    /// The instruction set.
    pub(crate) fn isa(self) -> Isa {
        self.isa
    }

    /// Whether stores stream (only on a vector path).
    pub(crate) fn stream(self) -> bool {
        self.stream
    }

    /// The same path with regular stores.
    pub(crate) fn cached(self) -> Path<T> {
        Path {
            stream: false,
            ..self
        }
    }
}

/// The smallest destination (bytes) written with streaming stores: 4 MiB.
///
/// Streaming (non-temporal) stores write whole lines to memory without first reading them
/// into the caches, which saves a third of the traffic of a copy and keeps the caches for
/// the source; but a destination that fits in a core's cache is read back faster from it.
/// This machine has 2 MiB of L2 per core and an L3 that reports 260 MiB shared by the whole
/// host (a VM's share is unknown), so the threshold is measured, not read from the reported
/// sizes (`benches/copy.rs`, groups `threshold` and `two_cores`, one thread): at 1 MiB
/// streaming lost (compact copy 45 → 51–57 µs); at 4 MiB it won (compact 316–321 →
/// 257–264 µs, transpose 531–637 → 471–520 µs), as at 16 and 64 MiB.
pub(crate) const STREAM_MIN_BYTES: usize = 4 << 20;

/// Whether every byte of every value of `T` is initialised (no padding): the crate's
/// element types, as themselves or as `MaybeUninit` (the view `budget::as_uninit` gives of
/// an initialised source, or a destination the engine only writes). Vector kernels load
/// and store such values as lanes of bits, which a type with padding bytes would make
/// undefined behaviour.
pub(crate) fn plain<T: 'static>() -> bool {
    macro_rules! any_of {
        ($($t:ty),*) => {
            [$(TypeId::of::<$t>(), TypeId::of::<MaybeUninit<$t>>()),*]
        };
    }
    let id = TypeId::of::<T>();
    let known = any_of!(
        f32,
        f64,
        i8,
        u8,
        i16,
        u16,
        i32,
        u32,
        i64,
        u64,
        bool,
        Complex<f32>,
        Complex<f64>
    );
    #[cfg(feature = "half")]
    if [
        TypeId::of::<half::f16>(),
        TypeId::of::<MaybeUninit<half::f16>>(),
        TypeId::of::<half::bf16>(),
        TypeId::of::<MaybeUninit<half::bf16>>(),
    ]
    .contains(&id)
    {
        return true;
    }
    known.contains(&id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_types_without_padding_take_the_vector_path() {
        assert!(plain::<f32>() && plain::<MaybeUninit<Complex<f64>>>() && plain::<bool>());
        #[derive(Clone, Copy)]
        #[allow(dead_code)]
        struct Padded(u8, u16);
        assert!(!plain::<Padded>());
        let padded = Path::<Padded>::new(Isa::Avx2, 1 << 30);
        assert_eq!((padded.isa(), padded.stream()), (Isa::Portable, false));
        let big = Path::<f32>::new(Isa::Avx2, STREAM_MIN_BYTES);
        assert_eq!(
            (big.isa(), big.stream()),
            (Isa::detected(), Isa::detected() == Isa::Avx2)
        );
        assert!(!Path::<f32>::new(Isa::Avx2, STREAM_MIN_BYTES - 1).stream());
        let portable = Path::<f32>::new(Isa::Portable, 1 << 30);
        assert_eq!((portable.isa(), portable.stream()), (Isa::Portable, false));
    }

    #[test]
    fn the_detected_isa_is_cached_and_matches_the_machine() {
        let first = Isa::detected();
        assert_eq!(Isa::detected(), first);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            first == Isa::Avx2,
            std::arch::is_x86_feature_detected!("avx2")
        );
    }
}
