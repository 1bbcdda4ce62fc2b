//! The const-friendly encoding of a shape ([`ShapeCode`]), the [`StaticShape`] trait and
//! the marker types that name shapes in types ([`Leaf`] and tuples).

use std::fmt;

use super::dispatch::RunStatic;
use crate::layout::{IntTuple, LayoutCode, ProfileToken, Shape, StaticTiler, TilerCode};
pub use crate::layout::{MAX_LEAVES, MAX_TOKENS};
use crate::pattern::{LEAF, Msg, POP, PUSH, ShapeRef, byte, leaves_in, node_end, token};

/// How a [`ShapeCode`]'s [`leaves`](ShapeCode::leaves) hold an extent known only at run
/// time (`_` in [`shape_t!`](crate::shape_t), the marker [`Dyn`]): 0, never a real extent.
///
/// ```
/// use strideweave::{Dyn, Leaf, RUNTIME_EXTENT, StaticShape};
/// assert_eq!(<(Dyn, Leaf<512>)>::SHAPE.leaves(), &[RUNTIME_EXTENT, 512]);
/// ```
pub const RUNTIME_EXTENT: i64 = 0;

/// A shape in a fixed-capacity encoding that `const fn`s can read and build: the profile
/// of the root's contents (leaf, `(`, `)`) and the extents in depth-first order, for at most
/// [`MAX_LEAVES`] leaves and [`MAX_TOKENS`] profile tokens.
///
/// It is the value of [`StaticShape::SHAPE`], so the compiler can check rearrangements of
/// statically shaped tensors. Build one with the constructors below (which check every
/// extent), or convert from a runtime [`Shape`].
///
/// ```
/// use strideweave::{ShapeCode, shape};
/// const S: ShapeCode = ShapeCode::EMPTY.with_mode(ShapeCode::leaf(2)).with_mode(
///     ShapeCode::EMPTY.with_mode(ShapeCode::leaf(3)).with_mode(ShapeCode::leaf(4)),
/// );
/// assert_eq!(S.to_shape(), shape!(2, (3, 4)));
/// assert_eq!((S.rank(), S.size()), (2, 24));
/// assert_eq!(S.leaves(), &[2, 3, 4]);
/// assert_eq!(ShapeCode::from_shape(&shape!(2, (3, 4))), Some(S));
/// assert_eq!(S.to_string(), "(2,(3,4))");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShapeCode {
    // Read directly (not through accessors) by the compile-time fast path, where every
    // function call costs the interpreter a scan of the callee's body.
    pub(in crate::statics) toks: [u8; MAX_TOKENS],
    pub(in crate::statics) ntoks: u8,
    pub(in crate::statics) extents: [i64; MAX_LEAVES],
    pub(in crate::statics) nleaves: u8,
    pub(in crate::statics) int_root: bool,
    pub(in crate::statics) poisoned: bool,
}

impl ShapeCode {
    /// The empty shape `()` (rank 0, size 1); add modes with [`with_mode`](ShapeCode::with_mode).
    ///
    /// ```
    /// assert_eq!(strideweave::ShapeCode::EMPTY.to_string(), "()");
    /// ```
    pub const EMPTY: ShapeCode = ShapeCode {
        toks: [LEAF; MAX_TOKENS],
        ntoks: 0,
        extents: [0; MAX_LEAVES],
        nleaves: 0,
        int_root: false,
        poisoned: false,
    };

    /// The shape of a failed compile-time check: later checks accept it silently, so one
    /// mistake gives one error.
    pub(crate) const POISONED: ShapeCode = ShapeCode {
        poisoned: true,
        ..ShapeCode::EMPTY
    };

    /// The integer shape `extent`; panics (a compile error in const context) unless
    /// `extent ≥ 1` (an extent known only at run time is [`ShapeCode::RUNTIME`]).
    ///
    /// ```
    /// assert_eq!(strideweave::ShapeCode::leaf(8).to_string(), "8");
    /// ```
    pub const fn leaf(extent: i64) -> ShapeCode {
        assert!(extent >= 1, "a static shape's extents must be at least 1");
        let mut c = ShapeCode::EMPTY;
        c.ntoks = 1;
        c.extents[0] = extent;
        c.nleaves = 1;
        c.int_root = true;
        c
    }

    /// The integer shape `_`: an extent known only at run time (what [`Dyn`] denotes). In a
    /// code's [`leaves`](ShapeCode::leaves) it reads [`RUNTIME_EXTENT`] (0, never a real
    /// extent); checks that need its value wait for the run time.
    ///
    /// ```
    /// use strideweave::{ShapeCode, RUNTIME_EXTENT};
    /// let s = ShapeCode::RUNTIME.with_mode(ShapeCode::leaf(512));
    /// assert_eq!(s.to_string(), "(_,512)");
    /// assert_eq!(s.leaves(), &[RUNTIME_EXTENT, 512]);
    /// assert!(!s.is_static() && ShapeCode::leaf(512).is_static());
    /// ```
    pub const RUNTIME: ShapeCode = ShapeCode {
        ntoks: 1,
        nleaves: 1,
        int_root: true,
        ..ShapeCode::EMPTY
    };

    /// This shape with `child` appended as its last top-level mode (an integer shape as a
    /// leaf, a tuple as a nested mode). Panics (a compile error in const context) beyond the
    /// capacity or when the size overflows `i64`.
    ///
    /// ```
    /// use strideweave::ShapeCode;
    /// let s = ShapeCode::leaf(2).with_mode(ShapeCode::leaf(3));
    /// assert_eq!(s.to_string(), "(2,3)");
    /// ```
    pub const fn with_mode(self, child: ShapeCode) -> ShapeCode {
        let mut c = if self.int_root {
            // An integer root becomes the one-mode tuple `(n)` first.
            ShapeCode {
                int_root: false,
                ..self
            }
        } else {
            self
        };
        c.push_mode(&child);
        c.assert_size()
    }

    /// The tuple of `modes`, each an integer shape (a leaf) or a tuple (a nested mode): what
    /// a tuple of [`StaticShape`] types denotes. One call where a chain of
    /// [`with_mode`](ShapeCode::with_mode) would be one per mode (the compiler's interpreter
    /// pays per call). Panics (a compile error in const context) beyond the capacity or when
    /// the size overflows `i64`.
    pub(crate) const fn tuple(modes: &[ShapeCode]) -> ShapeCode {
        let mut c = ShapeCode::EMPTY;
        let mut m = 0;
        while m < modes.len() {
            c.push_mode(&modes[m]);
            m += 1;
        }
        c.assert_size()
    }

    /// This tuple-rooted code with `child` appended as its last top-level mode, or `None`
    /// when the result would exceed the capacity or its size would overflow `i64` (what a
    /// computed result shape, such as a product's, checks before it is built).
    pub(crate) const fn try_push(self, child: &ShapeCode) -> Option<ShapeCode> {
        let nest = if child.int_root { 0 } else { 2 };
        if self.ntoks as usize + child.ntoks as usize + nest > MAX_TOKENS
            || self.nleaves as usize + child.nleaves as usize > MAX_LEAVES
        {
            return None;
        }
        let mut c = self;
        c.push_mode(child);
        match c.checked_size() {
            Some(_) => Some(c),
            None => None,
        }
    }

    /// Appends `child` as the last top-level mode of this tuple-rooted code.
    const fn push_mode(&mut self, child: &ShapeCode) {
        self.poisoned |= child.poisoned;
        let nest = !child.int_root;
        assert!(
            self.ntoks as usize + child.ntoks as usize + if nest { 2 } else { 0 } <= MAX_TOKENS
                && self.nleaves as usize + child.nleaves as usize <= MAX_LEAVES,
            "a static shape holds at most 32 leaves and 64 profile tokens"
        );
        if nest {
            self.toks[self.ntoks as usize] = PUSH;
            self.ntoks += 1;
        }
        let mut i = 0;
        while i < child.ntoks as usize {
            self.toks[self.ntoks as usize] = child.toks[i];
            self.ntoks += 1;
            i += 1;
        }
        if nest {
            self.toks[self.ntoks as usize] = POP;
            self.ntoks += 1;
        }
        let mut i = 0;
        while i < child.nleaves as usize {
            self.extents[self.nleaves as usize] = child.extents[i];
            self.nleaves += 1;
            i += 1;
        }
    }

    /// `self`, after checking that its size fits in `i64`.
    const fn assert_size(self) -> ShapeCode {
        assert!(
            self.checked_size().is_some(),
            "a static shape's size must fit in i64"
        );
        self
    }

    /// The leaf values — the extents — depth-first (like [`Shape::leaves`](crate::Shape::leaves)).
    ///
    /// ```
    /// assert_eq!(strideweave::ShapeCode::leaf(5).leaves(), &[5]);
    /// ```
    pub const fn leaves(&self) -> &[i64] {
        self.extents.split_at(self.nleaves as usize).0
    }

    /// The product of the extents (1 for the empty shape; 0 when an extent is known only
    /// at run time).
    ///
    /// ```
    /// assert_eq!(strideweave::ShapeCode::EMPTY.size(), 1);
    /// ```
    pub const fn size(&self) -> usize {
        // A code is built with its size checked (`with_mode`), so it fits.
        match self.checked_size() {
            Some(s) => s as usize,
            None => i64::MAX as usize,
        }
    }

    pub(crate) const fn checked_size(&self) -> Option<i64> {
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.nleaves as usize {
            p = match p.checked_mul(self.extents[i]) {
                Some(p) => p,
                None => return None,
            };
            i += 1;
        }
        Some(p)
    }

    /// The number of top-level modes (an integer shape has rank 1).
    ///
    /// ```
    /// assert_eq!(strideweave::ShapeCode::leaf(5).rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        let mut depth = 0;
        let mut rank = 0;
        let mut i = 0;
        while i < self.ntoks as usize {
            match self.toks[i] {
                LEAF => {
                    if depth == 0 {
                        rank += 1
                    }
                }
                PUSH => {
                    if depth == 0 {
                        rank += 1
                    }
                    depth += 1;
                }
                _ => depth -= 1,
            }
            i += 1;
        }
        rank
    }

    /// Whether this is an integer shape (`8`) rather than a tuple (`(8)`).
    ///
    /// ```
    /// assert!(strideweave::ShapeCode::leaf(8).is_int());
    /// ```
    pub const fn is_int(&self) -> bool {
        self.int_root
    }

    /// Top-level mode `i` (`i < rank`) as a shape of its own: an integer shape for a leaf
    /// mode, a tuple for a nested one (like [`Shape::mode`]). An integer shape is its own
    /// mode 0.
    pub(crate) const fn mode(&self, i: usize) -> ShapeCode {
        if self.int_root {
            return *self;
        }
        let v = self.view();
        let (mut t, mut leaf, mut k) = (0, 0, 0);
        while k < i {
            let end = node_end(v, t);
            leaf += leaves_in(v, t, end);
            t = end;
            k += 1;
        }
        if self.toks[t] == LEAF {
            return match self.extents[leaf] {
                RUNTIME_EXTENT => ShapeCode::RUNTIME,
                e => ShapeCode::leaf(e),
            };
        }
        let end = node_end(v, t);
        let mut c = ShapeCode::EMPTY;
        let mut j = t + 1;
        while j + 1 < end {
            c.toks[c.ntoks as usize] = self.toks[j];
            c.ntoks += 1;
            j += 1;
        }
        let n = leaves_in(v, t, end);
        let mut j = 0;
        while j < n {
            c.extents[j] = self.extents[leaf + j];
            j += 1;
        }
        c.nleaves = n as u8;
        c
    }

    pub(crate) const fn is_poisoned(&self) -> bool {
        self.poisoned
    }

    /// The shape as the rearrangement engine reads it.
    pub(crate) const fn view(&self) -> ShapeRef<'_> {
        ShapeRef {
            toks: &self.toks,
            ntoks: self.ntoks as usize,
            extents: &self.extents,
            nleaves: self.nleaves as usize,
            int_root: self.int_root,
        }
    }

    /// A tuple-rooted code from raw parts (the output of a rearrangement).
    pub(crate) const fn from_raw(
        toks: [u8; MAX_TOKENS],
        ntoks: usize,
        extents: [i64; MAX_LEAVES],
        nleaves: usize,
    ) -> ShapeCode {
        ShapeCode {
            toks,
            ntoks: ntoks as u8,
            extents,
            nleaves: nleaves as u8,
            int_root: false,
            poisoned: false,
        }
    }

    /// The runtime shape of a code whose extents are all static.
    ///
    /// ```
    /// use strideweave::{ShapeCode, shape};
    /// assert_eq!(ShapeCode::leaf(4).to_shape(), shape!(4));
    /// ```
    ///
    /// # Panics
    ///
    /// When an extent is known only at run time (`_`):
    /// [`with_runtime`](ShapeCode::with_runtime) gives it its value.
    pub fn to_shape(&self) -> Shape {
        assert!(
            self.is_static(),
            "ShapeCode::to_shape: the shape {self} has an extent known only at run time; \
             give it with ShapeCode::with_runtime"
        );
        self.shape_unchecked()
    }

    /// The shape with its extents known only at run time (`_`, depth-first) set to `runtime`,
    /// one value each, at least 1; errors name `op`.
    ///
    /// ```
    /// use strideweave::{Dyn, Leaf, StaticShape, shape};
    /// let s = <(Dyn, (Leaf<4>, Dyn))>::SHAPE;
    /// assert_eq!(s.with_runtime(&[3, 5]).unwrap(), shape!(3, (4, 5)));
    /// let err = s.with_runtime(&[3]).unwrap_err();
    /// assert_eq!(err.to_string(), "ShapeCode::with_runtime: expected 2 run-time extents, found 1");
    /// let err = s.with_runtime(&[3, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "ShapeCode::with_runtime: extent 0 at mode 1.1 must be at least 1");
    /// ```
    pub fn with_runtime(&self, runtime: &[i64]) -> crate::Result<Shape> {
        self.with_runtime_as("ShapeCode::with_runtime", runtime)
    }

    /// The shape of `len` elements: a code with one `_` takes its extent from `len` (errors
    /// name `op`); with several, the length cannot tell them apart.
    pub(crate) fn inferred_from(&self, op: &'static str, len: usize) -> crate::Result<Shape> {
        let runtime = self
            .leaves()
            .iter()
            .filter(|&&e| e == RUNTIME_EXTENT)
            .count();
        let fixed: i64 = self
            .leaves()
            .iter()
            .filter(|&&e| e != RUNTIME_EXTENT)
            .product();
        let len = len as i64;
        if runtime != 1 || len == 0 || len % fixed != 0 {
            let detail = match runtime {
                1 => format!("their number must be a multiple of {fixed}"),
                _ => format!(
                    "the shape has {runtime} run-time extents; give them with from_vec_with"
                ),
            };
            return Err(crate::Error::DimensionMismatch {
                op,
                detail: format!("{len} elements do not fill the shape {self}: {detail}"),
            });
        }
        self.with_runtime_as(op, &[len / fixed])
    }

    /// [`with_runtime`](ShapeCode::with_runtime) with errors naming `op`.
    pub(crate) fn with_runtime_as(
        &self,
        op: &'static str,
        runtime: &[i64],
    ) -> crate::Result<Shape> {
        let wanted = self
            .leaves()
            .iter()
            .filter(|&&e| e == RUNTIME_EXTENT)
            .count();
        if runtime.len() != wanted {
            return Err(crate::Error::RankMismatch {
                op,
                what: "run-time extents",
                expected: wanted,
                found: runtime.len(),
            });
        }
        let mut given = runtime.iter().copied();
        let leaves: Vec<i64> = (self.leaves().iter())
            .map(|&e| match e {
                RUNTIME_EXTENT => given.next().unwrap_or(RUNTIME_EXTENT),
                e => e,
            })
            .collect();
        let profile = self.profile();
        if let Some(i) = leaves.iter().position(|&e| e < 1) {
            return Err(crate::Error::InvalidExtent {
                op,
                mode: crate::layout::int_tuple::leaf_path(&profile, i),
                extent: leaves[i],
            });
        }
        if leaves
            .iter()
            .try_fold(1i64, |p, &e| p.checked_mul(e))
            .is_none()
        {
            return Err(crate::Error::overflow(op, "the size of the shape"));
        }
        Ok(Shape::from_valid(&profile[..], &leaves[..], self.int_root))
    }

    /// The shape of a static code.
    fn shape_unchecked(&self) -> Shape {
        Shape::from_valid(&self.profile()[..], self.leaves(), self.int_root)
    }

    /// The profile tokens of the root's contents.
    pub(crate) fn profile(&self) -> Vec<ProfileToken> {
        self.toks[..self.ntoks as usize]
            .iter()
            .map(|&t| token(t))
            .collect()
    }

    /// The code of a runtime shape, or `None` when it exceeds the capacity.
    ///
    /// ```
    /// use strideweave::{ShapeCode, Shape};
    /// let big = Shape::new(vec![1i64; 40].into()).unwrap();
    /// assert_eq!(ShapeCode::from_shape(&big), None);
    /// ```
    pub fn from_shape(shape: &Shape) -> Option<ShapeCode> {
        let profile = shape.profile();
        let extents = shape.leaves();
        if profile.len() > MAX_TOKENS || extents.len() > MAX_LEAVES {
            return None;
        }
        let mut c = ShapeCode::EMPTY;
        for (i, &t) in profile.iter().enumerate() {
            c.toks[i] = byte(t);
        }
        c.extents[..extents.len()].copy_from_slice(extents);
        c.ntoks = profile.len() as u8;
        c.nleaves = extents.len() as u8;
        c.int_root = shape.as_int_tuple().is_int();
        Some(c)
    }

    /// Whether two codes denote the same shape; at the root (only there) an integer `n` and
    /// the one-mode tuple `(n)` denote the same shape.
    ///
    /// ```
    /// use strideweave::ShapeCode;
    /// assert!(ShapeCode::leaf(3).same_shape(&ShapeCode::EMPTY.with_mode(ShapeCode::leaf(3))));
    /// assert!(!ShapeCode::leaf(3).same_shape(&ShapeCode::leaf(4)));
    /// ```
    pub const fn same_shape(&self, other: &ShapeCode) -> bool {
        self.agrees_where(other, false)
    }

    /// Whether two codes can denote the same shape at run time:
    /// [`same_shape`](ShapeCode::same_shape) but an extent known only at run time (`_`) agrees with any
    /// extent. The static checks of partly static shapes ask this; the run time checks the
    /// rest.
    ///
    /// ```
    /// use strideweave::ShapeCode;
    /// let batch = ShapeCode::RUNTIME.with_mode(ShapeCode::leaf(512));
    /// let fixed = ShapeCode::leaf(4).with_mode(ShapeCode::leaf(512));
    /// assert!(batch.agrees(&fixed) && !batch.same_shape(&fixed));
    /// assert!(!batch.agrees(&ShapeCode::leaf(4).with_mode(ShapeCode::leaf(256))));
    /// ```
    pub const fn agrees(&self, other: &ShapeCode) -> bool {
        self.agrees_where(other, true)
    }

    /// Whether every extent is known at compile time (no `_`).
    ///
    /// ```
    /// use strideweave::ShapeCode;
    /// assert!(ShapeCode::leaf(3).is_static() && !ShapeCode::RUNTIME.is_static());
    /// ```
    pub const fn is_static(&self) -> bool {
        let mut i = 0;
        while i < self.nleaves as usize {
            if self.extents[i] == RUNTIME_EXTENT {
                return false;
            }
            i += 1;
        }
        true
    }

    /// [`same_shape`](ShapeCode::same_shape), with `_` agreeing with any extent when
    /// `runtime_agrees`.
    const fn agrees_where(&self, other: &ShapeCode, runtime_agrees: bool) -> bool {
        if self.ntoks != other.ntoks || self.nleaves != other.nleaves {
            return false;
        }
        let mut i = 0;
        while i < self.ntoks as usize {
            if self.toks[i] != other.toks[i] {
                return false;
            }
            i += 1;
        }
        let mut i = 0;
        while i < self.nleaves as usize {
            let (a, b) = (self.extents[i], other.extents[i]);
            if a != b && !(runtime_agrees && (a == RUNTIME_EXTENT || b == RUNTIME_EXTENT)) {
                return false;
            }
            i += 1;
        }
        true
    }
}

impl fmt::Display for ShapeCode {
    /// CuTe notation: `(2,(3,4))`, an extent known only at run time as `_` (`(_,512)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 4 * (MAX_TOKENS + 20 * MAX_LEAVES)];
        let mut m = Msg::new(&mut buf);
        m.shape(self.view());
        f.write_str(m.as_str())
    }
}

impl fmt::Debug for ShapeCode {
    /// `ShapeCode((2,(3,4)))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.poisoned {
            return f.write_str("ShapeCode(<after an error>)");
        }
        write!(f, "ShapeCode({self})")
    }
}

impl From<ShapeCode> for IntTuple {
    /// The shape as an integer tuple.
    fn from(c: ShapeCode) -> IntTuple {
        c.to_shape().as_int_tuple().clone()
    }
}

/// A shape known to the compiler: a type whose [`SHAPE`](StaticShape::SHAPE) constant holds
/// it. Name one with [`shape_t!`](crate::shape_t), e.g. `shape_t!(2, (3, 4))`, which is
/// `(Leaf<2>, (Leaf<3>, Leaf<4>))`: [`Leaf<N>`] is an extent, a tuple of `StaticShape`
/// types is a tuple of modes, `()` the empty shape. The result of a compile-time checked
/// rearrangement ([`rearrange!`](crate::rearrange)) is a `StaticShape` too.
///
/// ```
/// use strideweave::{Leaf, StaticShape, shape, shape_t};
/// type Image = shape_t!(2, (3, 4));
/// assert_eq!(Image::SHAPE.to_shape(), shape!(2, (3, 4)));
/// assert_eq!(<(Leaf<2>, (Leaf<3>, Leaf<4>)) as StaticShape>::SHAPE, Image::SHAPE);
/// assert_eq!(<Leaf<8>>::SHAPE.to_shape(), shape!(8));
/// assert_eq!(<()>::SHAPE.to_shape(), shape!());
/// ```
pub trait StaticShape: 'static {
    /// The shape.
    const SHAPE: ShapeCode;
    /// [`Known`] when the compiler knows every extent, [`Partly`] when one is `_` (known only
    /// at run time): it decides whether the checked macros return their result or a
    /// `Result` of it. A result is `Partly` when an operand is.
    type Extents: Extents;
}

/// Whether a static shape's extents are all known to the compiler ([`Known`]) or some only at
/// run time ([`Partly`]); it decides what a checked operation on the shape returns.
///
/// The rule, for `rearrange!`, `repeat!`, `reduce!` and `einsum!`: **a macro returns
/// `Result` exactly when a check waits for the run time** — an operand is a `Tensor`, or an
/// operand's static shape holds a `_`. Every check the pattern and the static extents decide
/// runs at compile time either way; a failed run-time check is an `Err`, never a panic.
/// (`reduce!` and `einsum!` compute new values and return `Result` on any shape.)
///
/// A function that returns a result shape opaquely and wants its callers to chain infallible
/// calls says so: `-> StaticTensor<f32, impl StaticShape<Extents = Known>>`.
///
/// ```
/// use strideweave::{Extents, StaticShape, shape_t};
/// assert!(!<<shape_t!(2, 3) as StaticShape>::Extents as Extents>::RUNTIME);
/// assert!(<<shape_t!(_, 3) as StaticShape>::Extents as Extents>::RUNTIME);
/// ```
pub trait Extents: RunStatic + 'static {
    /// [`Partly`] when `Self` or `E` is.
    type Or<E: Extents>: Extents;
    /// Whether some extent is known only at run time.
    const RUNTIME: bool;
}

/// Every extent known to the compiler: checked operations return their result itself.
///
/// ```
/// use strideweave::{Known, StaticShape, shape_t};
/// fn fully_static<S: StaticShape<Extents = Known>>() {}
/// fully_static::<shape_t!(2, (3, 4))>();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Known;

/// Some extent known only at run time (`_`): checked operations return a `Result`.
///
/// ```
/// use strideweave::{Partly, StaticShape, shape_t};
/// fn partly_static<S: StaticShape<Extents = Partly>>() {}
/// partly_static::<shape_t!(_, 512)>();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Partly;

impl Extents for Known {
    type Or<E: Extents> = E;
    const RUNTIME: bool = false;
}

impl Extents for Partly {
    type Or<E: Extents> = Partly;
    const RUNTIME: bool = true;
}

/// An extent known only at run time: what `_` in [`shape_t!`](crate::shape_t) names
/// (`shape_t!(_, 512)` is `(Dyn, Leaf<512>)`). Every check that does not need its value still
/// runs at compile time; the rest run at run time (see [`Extents`]).
///
/// ```
/// use strideweave::{Dyn, Leaf, StaticShape, StaticTensor, shape, shape_t};
/// type Tokens = shape_t!(_, 512);
/// let _: (Dyn, Leaf<512>) = Default::default();
/// assert_eq!(Tokens::SHAPE.to_string(), "(_,512)");
/// let t = StaticTensor::<f32, Tokens>::zeros_with(&[3]).unwrap();
/// assert_eq!(t.shape(), &shape!(3, 512));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dyn;

impl StaticShape for Dyn {
    const SHAPE: ShapeCode = ShapeCode::RUNTIME;
    type Extents = Partly;
}

/// The integer shape `N` (at the root) or a leaf of extent `N` (inside a tuple).
/// `N` is an `i64`, like every extent; `Leaf<0>` and `Leaf<-2>` are rejected when the shape
/// is evaluated.
///
/// ```
/// use strideweave::{Leaf, StaticShape};
/// assert_eq!(<Leaf<5>>::SHAPE.leaves(), &[5]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leaf<const N: i64>;

impl<const N: i64> StaticShape for Leaf<N> {
    const SHAPE: ShapeCode = ShapeCode::leaf(N);
    type Extents = Known;
}

/// `Leaf<N>` as a tiler is the layout `N:1`, so a static shape is CuTe's shape tiler
/// (`shape_t!(4, 8)` divides mode 0 by `4:1` and mode 1 by `8:1`).
impl<const N: i64> StaticTiler for Leaf<N> {
    const TILER: TilerCode = TilerCode::layout(LayoutCode::leaf(N, 1));
}

impl StaticShape for () {
    const SHAPE: ShapeCode = ShapeCode::EMPTY;
    type Extents = Known;
}

/// The [`Extents`] of a tuple of shapes: `Partly` when one member is.
macro_rules! extents_of {
    ($t:ident) => { $t::Extents };
    ($t:ident, $($rest:ident),+) => {
        <$t::Extents as Extents>::Or<extents_of!($($rest),+)>
    };
}

macro_rules! tuple_shapes {
    ($(($($t:ident),+))+) => {$(
        impl<$($t: StaticShape),+> StaticShape for ($($t,)+) {
            const SHAPE: ShapeCode = ShapeCode::tuple(&[$($t::SHAPE),+]);
            type Extents = extents_of!($($t),+);
        }
    )+};
}

tuple_shapes! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
    (A, B, C, D, E, F, G, H, I)
    (A, B, C, D, E, F, G, H, I, J)
    (A, B, C, D, E, F, G, H, I, J, K)
    (A, B, C, D, E, F, G, H, I, J, K, L)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_tuples_encode_their_hierarchy() {
        type S = (Leaf<2>, (Leaf<3>, (Leaf<4>,)), ());
        assert_eq!(S::SHAPE.to_string(), "(2,(3,(4)),())");
        assert_eq!(S::SHAPE.rank(), 3);
        assert_eq!(S::SHAPE.size(), 24);
        assert_eq!(
            ShapeCode::from_shape(&S::SHAPE.to_shape()).unwrap(),
            S::SHAPE
        );
        assert_eq!(<(Leaf<7>,)>::SHAPE.to_string(), "(7)");
        assert!(!<(Leaf<7>,)>::SHAPE.is_int());
    }

    #[test]
    fn modes_are_the_runtime_shapes_modes() {
        type S = (Leaf<2>, (Leaf<3>, (Leaf<4>,)), (), (Leaf<5>,), Leaf<6>);
        let shape = S::SHAPE.to_shape();
        for i in 0..S::SHAPE.rank() {
            let mode = S::SHAPE.mode(i);
            let expected = shape.mode(i).unwrap();
            assert_eq!(mode.to_shape(), expected, "mode {i}");
            assert_eq!(mode.is_int(), expected.as_int_tuple().is_int(), "mode {i}");
            assert_eq!(mode.to_string(), expected.to_string(), "mode {i}");
        }
        assert_eq!(<Leaf<8>>::SHAPE.mode(0), <Leaf<8>>::SHAPE);
    }
}
