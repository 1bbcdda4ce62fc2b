//! [`StaticLayoutView`]: a borrowed slice read through a static layout, whose element
//! access is constant arithmetic.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Index;

use crate::error::{Error, Result};
use crate::layout::{Layout, MAX_TOKENS, StaticLayout};
use crate::validation::ValidationError;

/// A read-only view of a borrowed slice `&'a [T]` through a static layout `L` (a
/// [`StaticLayout`], e.g. [`layout_t!`](crate::layout_t)`((4, 8) : (1, 4))` or a
/// [`LocalTile`](crate::LocalTile)) and an offset: the element at coordinate `(i, j, …)`,
/// one integer per top-level mode of `L`, is `data[offset + L(i, j, …)]`.
///
/// The constructor checks every index `L` reaches against the slice once; element access
/// then compares each coordinate with its mode's extent and adds the strides, all constants
/// of `L`, so a release build compiles `view[[i, j]]` to the arithmetic written by hand. A
/// coordinate of the wrong length does not compile; one outside its mode is `None` from
/// [`get`](StaticLayoutView::get) and a panic from indexing (as a slice's).
///
/// ```
/// use strideweave::{StaticLayoutView, layout_t};
/// // A 3×4 matrix stored row-major: (3,4):(4,1).
/// let data: Vec<i32> = (0..12).collect();
/// let m = StaticLayoutView::<_, layout_t!((3, 4) : (4, 1))>::new(&data)?;
/// assert_eq!(m[[1, 2]], 6);
/// assert_eq!(m.get([2, 3]), Some(&11));
/// assert_eq!(m.get([3, 0]), None);
/// # Ok::<(), strideweave::Error>(())
/// ```
pub struct StaticLayoutView<'a, T, L> {
    data: &'a [T],
    offset: usize,
    /// `offset` + the lowest index `L` reaches: where the window of the elements `L`
    /// reaches starts.
    start: usize,
    layout: PhantomData<fn() -> L>,
}

/// `(first leaf, leaves, extent)` of every top-level mode of `L`, computed once per layout.
struct Spans<L>(PhantomData<L>);

impl<L: StaticLayout> Spans<L> {
    const TOP: [(usize, usize, i64); MAX_TOKENS] = L::LAYOUT.top_spans();
    const RANK: usize = L::LAYOUT.rank();
    const SIZE: usize = L::LAYOUT.size();
    /// The lowest index `L` reaches (at most 0).
    const LOW: i64 = L::LAYOUT.reach().0;
    /// How many elements lie between the lowest and the highest index `L` reaches.
    const WINDOW: usize = (L::LAYOUT.reach().1 - L::LAYOUT.reach().0) as usize + 1;
}

impl<'a, T, L: StaticLayout> StaticLayoutView<'a, T, L> {
    /// A view of `data` through `L` from index 0.
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let data = [1.0f32; 32];
    /// assert!(StaticLayoutView::<_, layout_t!((4, 8))>::new(&data).is_ok());
    /// assert!(StaticLayoutView::<_, layout_t!((4, 8))>::new(&data[..31]).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::ViewOutOfBounds`] when `L` reaches
    /// outside `data` (a negative index, or one at or past its end).
    pub fn new(data: &'a [T]) -> Result<Self> {
        Self::checked("StaticLayoutView::new", data, 0)
    }

    /// A view of `data` through `L` from index `offset`: the element at coordinate `c` is
    /// `data[offset + L(c)]` (a tile of a larger layout starts at its
    /// [`LocalTile`](crate::LocalTile) offset).
    ///
    /// ```
    /// use strideweave::{LocalTile, StaticLayoutView, layout_t, shape_t};
    /// type Matrix = layout_t!((8, 8));
    /// type Block = LocalTile<Matrix, shape_t!(4, 4)>;
    /// let data: Vec<u32> = (0..64).collect();
    /// let block = StaticLayoutView::<_, Block>::with_offset(&data, Block::offset(&[1, 0]) as isize)?;
    /// assert_eq!(block[[0, 0]], 4);
    /// assert_eq!(block[[3, 1]], 15);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`new`](StaticLayoutView::new).
    pub fn with_offset(data: &'a [T], offset: isize) -> Result<Self> {
        Self::checked("StaticLayoutView::with_offset", data, offset)
    }

    fn checked(op: &'static str, data: &'a [T], offset: isize) -> Result<Self> {
        let (lo, hi) = L::LAYOUT.reach();
        let (min, max) = (offset as i128 + lo as i128, offset as i128 + hi as i128);
        if min < 0 || max >= data.len() as i128 {
            return Err(Error::validation(
                op,
                ValidationError::ViewOutOfBounds {
                    min,
                    max,
                    len: data.len(),
                },
            ));
        }
        // The lowest index the layout reaches is at most 0, so `offset >= -lo >= 0`.
        Ok(StaticLayoutView {
            data,
            offset: offset as usize,
            start: min as usize,
            layout: PhantomData,
        })
    }

    /// The element at `coord`, one integer per top-level mode of `L` (each counted
    /// first-mode-fastest inside its mode); `None` when an integer is outside its mode. A
    /// coordinate whose length is not `L`'s rank does not compile.
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let data: Vec<i32> = (0..24).collect();
    /// // Mode 1 is (3, 4): its coordinate 5 is (2, 1).
    /// let v = StaticLayoutView::<_, layout_t!((2, (3, 4)))>::new(&data)?;
    /// assert_eq!(v.get([1, 5]), Some(&11));
    /// assert_eq!(v.get([1, 12]), None);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    #[inline(always)]
    pub fn get<const N: usize>(&self, coord: [usize; N]) -> Option<&'a T> {
        match Self::locate(coord) {
            Ok(index) => self.window().get(index),
            Err(_) => None,
        }
    }

    /// The position of `coord` in the [`window`](Self::window), or the first mode it lies
    /// outside of and its integer there. Constant arithmetic: `L`'s extents and strides
    /// are constants, and the position is bounded by the window's constant length.
    #[inline(always)]
    fn locate<const N: usize>(coord: [usize; N]) -> std::result::Result<usize, (usize, usize)> {
        const {
            assert!(
                N == Spans::<L>::RANK,
                "StaticLayoutView: a coordinate needs one integer per top-level mode of the layout"
            )
        };
        let mut index = -Spans::<L>::LOW;
        for (k, &c) in coord.iter().enumerate() {
            let (leaf, leaves, extent) = Spans::<L>::TOP[k];
            if c >= extent as usize {
                return Err((k, c));
            }
            index += L::LAYOUT.eval_within(leaf, leaves, c);
        }
        // In the domain the index lies in [0, WINDOW).
        Ok(index as usize)
    }

    /// The elements between the lowest and the highest index `L` reaches: the constructor
    /// checked that they lie in the slice, and the window's length is a constant, so an
    /// index the layout's constants bound needs no bound check.
    #[inline(always)]
    fn window(&self) -> &'a [T] {
        &self.data[self.start..self.start + Spans::<L>::WINDOW]
    }

    /// The element at the first-mode-fastest ordinal `ordinal`; `None` beyond the size.
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let data: Vec<i32> = (0..12).collect();
    /// let v = StaticLayoutView::<_, layout_t!((3, 4) : (4, 1))>::new(&data)?;
    /// assert_eq!(v.get_ordinal(1), Some(&4));
    /// assert_eq!(v.get_ordinal(12), None);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    #[inline(always)]
    pub fn get_ordinal(&self, ordinal: usize) -> Option<&'a T> {
        if ordinal >= Spans::<L>::SIZE {
            return None;
        }
        self.window()
            .get((L::LAYOUT.eval(ordinal) - Spans::<L>::LOW) as usize)
    }

    /// The index of element `(0, …, 0)` in the slice.
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let v = StaticLayoutView::<_, layout_t!(4 : -1)>::with_offset(&[0u8; 4], 3)?;
    /// assert_eq!((v.offset(), v[[3]]), (3, 0));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The borrowed slice (all of it, not only what the layout reaches).
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let data = [1, 2, 3];
    /// let v = StaticLayoutView::<_, layout_t!(2 : 1)>::new(&data)?;
    /// assert_eq!(v.data(), &[1, 2, 3]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn data(&self) -> &'a [T] {
        self.data
    }

    /// The run-time [`Layout`] of the view (`L`'s).
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let v = StaticLayoutView::<_, layout_t!((2, 3))>::new(&[0u8; 6])?;
    /// assert_eq!(v.layout().to_string(), "(2,3):(1,2)");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn layout(&self) -> Layout {
        L::LAYOUT.to_layout()
    }
}

/// `view[[i, j]]`: the element at the coordinate, as [`get`](StaticLayoutView::get); a
/// coordinate outside its mode panics, naming the mode, the value, the extent and the
/// layout.
///
/// ```should_panic
/// use strideweave::{StaticLayoutView, layout_t};
/// let data = [0u8; 6];
/// let v = StaticLayoutView::<_, layout_t!((2, 3))>::new(&data).unwrap();
/// let _ = v[[2, 0]]; // StaticLayoutView: coordinate 2 is outside mode 0 of extent 2 …
/// ```
impl<'a, T, L: StaticLayout, const N: usize> Index<[usize; N]> for StaticLayoutView<'a, T, L> {
    type Output = T;

    #[inline(always)]
    #[track_caller]
    fn index(&self, coord: [usize; N]) -> &T {
        match Self::locate(coord) {
            // The window holds every index of the domain: no bound check remains.
            Ok(index) => &self.window()[index],
            Err((mode, value)) => outside::<L>(mode, value),
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn outside<L: StaticLayout>(mode: usize, value: usize) -> ! {
    let extent = L::LAYOUT.top_spans()[mode].2;
    panic!(
        "StaticLayoutView: coordinate {value} is outside mode {mode} of extent {extent} \
         (valid: 0..{extent}) of the layout {}",
        L::LAYOUT
    )
}

impl<T, L> Clone for StaticLayoutView<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L> Copy for StaticLayoutView<'_, T, L> {}

impl<T, L: StaticLayout> fmt::Debug for StaticLayoutView<'_, T, L> {
    /// The layout, the offset and the slice's length (not the elements).
    ///
    /// ```
    /// use strideweave::{StaticLayoutView, layout_t};
    /// let v = StaticLayoutView::<_, layout_t!((2, 3))>::new(&[0u8; 7])?;
    /// assert_eq!(format!("{v:?}"),
    ///     "StaticLayoutView { layout: (2,3):(1,2), offset: 0, storage_len: 7 }");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticLayoutView")
            .field("layout", &format_args!("{}", L::LAYOUT))
            .field("offset", &self.offset)
            .field("storage_len", &self.data.len())
            .finish()
    }
}
