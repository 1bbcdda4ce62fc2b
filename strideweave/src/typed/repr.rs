//! Representation markers ([`Host`], [`Dynamic`]) and placement metadata ([`Placement`],
//! [`MemoryKind`]).

mod sealed {
    pub trait Sealed {}
}

/// Marks which representation produced a [`TypedTensorView`](crate::TypedTensorView):
/// [`Host`] (built only from host slices, so host access needs no check) or [`Dynamic`]
/// (checked at run time). Named `ViewRepresentation` because the crate root's
/// [`Representation`](crate::Representation) names a tensor's subtensors.
///
/// ```
/// use strideweave::typed::{Dynamic, Host, ViewRepresentation};
/// assert!(Host::HOST_ONLY && !Dynamic::HOST_ONLY);
/// ```
pub trait ViewRepresentation:
    Copy + std::fmt::Debug + Default + Eq + Send + Sync + 'static + sealed::Sealed
{
    /// Whether every view with this marker is host memory by construction.
    const HOST_ONLY: bool;
}

/// A view built from a host slice; [`as_host_slice`](crate::TypedTensorView::as_host_slice)
/// needs no run-time check.
///
/// ```
/// use strideweave::TypedTensorView;
/// use strideweave::typed::{DynRank, Host};
/// let data = [1_i32, 2];
/// let v: TypedTensorView<'_, i32, DynRank, Host> = TypedTensorView::from_host_slice(vec![2], vec![1], 0, &data).unwrap();
/// assert_eq!(v.as_host_slice(), &[1, 2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Host;

/// A view whose representation is checked at run time (the default marker).
///
/// ```
/// use strideweave::TypedTensorView;
/// use strideweave::typed::{DynRank, Dynamic};
/// let data = [1_i32, 2];
/// let v: TypedTensorView<'_, i32, DynRank, Dynamic> = TypedTensorView::from_col_major(&[2], &data).unwrap();
/// assert_eq!(v.host_storage().unwrap(), &[1, 2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dynamic;

impl sealed::Sealed for Host {}
impl sealed::Sealed for Dynamic {}
impl ViewRepresentation for Host {
    const HOST_ONLY: bool = true;
}
impl ViewRepresentation for Dynamic {
    const HOST_ONLY: bool = false;
}

/// The kind of memory a view's elements live in.
///
/// ```
/// use strideweave::typed::MemoryKind;
/// assert!(MemoryKind::UnpinnedHost.is_host());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MemoryKind {
    /// Ordinary (pageable) host memory: every borrowed slice.
    UnpinnedHost,
}

impl MemoryKind {
    /// Whether the CPU can read this memory directly.
    ///
    /// ```
    /// assert!(strideweave::typed::MemoryKind::UnpinnedHost.is_host());
    /// ```
    pub fn is_host(self) -> bool {
        matches!(self, MemoryKind::UnpinnedHost)
    }
}

/// Where a view's elements live.
///
/// ```
/// use strideweave::typed::{MemoryKind, Placement};
/// let p = Placement::host();
/// assert_eq!(p.memory_kind, MemoryKind::UnpinnedHost);
/// assert_eq!(p.device_ordinal, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Placement {
    /// The kind of memory.
    pub memory_kind: MemoryKind,
    /// The device that owns the memory; `None` for host memory.
    pub device_ordinal: Option<usize>,
}

impl Placement {
    /// Host memory, the placement of every borrowed slice.
    ///
    /// ```
    /// assert!(strideweave::typed::Placement::host().memory_kind.is_host());
    /// ```
    pub const fn host() -> Placement {
        Placement {
            memory_kind: MemoryKind::UnpinnedHost,
            device_ordinal: None,
        }
    }
}

impl Default for Placement {
    fn default() -> Placement {
        Placement::host()
    }
}
