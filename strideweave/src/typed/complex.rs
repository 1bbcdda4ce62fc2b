//! Reinterpreting complex views as interleaved real views and back, without copying.
//!
//! `num_complex::Complex<F>` is `#[repr(C)]` with the fields `re` then `im`, so a slice of
//! `n` complex values is laid out exactly as a slice of `2n` values of `F` (same alignment,
//! no padding). The two casts below are `unsafe` (listed in docs/unsafe.md).

use super::layout::overflow;
use super::rank::{DynRank, TensorRank};
use super::repr::ViewRepresentation;
use super::view::TypedTensorView;
use crate::error::{Error, Result};
use crate::validation::ValidationError;
use num_complex::Complex;

/// The real component type of `Complex<F>` that may be reinterpreted (sealed to `f32`/`f64`).
trait Component: Copy {}
impl Component for f32 {}
impl Component for f64 {}

/// The `2n` components of `n` complex values.
#[allow(unsafe_code)]
fn components<F: Component>(data: &[Complex<F>]) -> &[F] {
    // SAFETY: `Complex<F>` is `#[repr(C)] { re: F, im: F }` (num-complex's documented
    // layout guarantee), so it has the size of two `F`, the alignment of `F` and no padding;
    // `data.len() * 2` components therefore cover exactly the memory of `data`, which stays
    // borrowed for the returned lifetime. `F` is `f32`/`f64`: every bit pattern is valid.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<F>(), data.len() * 2) }
}

/// The `⌊len/2⌋` complex values made of consecutive pairs of `data` (a trailing odd
/// component is left out).
#[allow(unsafe_code)]
fn pairs<F: Component>(data: &[F]) -> &[Complex<F>] {
    // SAFETY: as in `components`: `Complex<F>` is two `F` without padding and with the
    // alignment of `F`, so the first `2·⌊len/2⌋` elements of `data` are `⌊len/2⌋` valid,
    // aligned complex values borrowed for the returned lifetime.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<Complex<F>>(), data.len() / 2) }
}

fn doubled(op: &'static str, v: isize) -> Result<isize> {
    v.checked_mul(2)
        .ok_or_else(|| overflow(op, "the interleaved real layout"))
}

fn not_sealed(op: &'static str, message: String) -> Error {
    Error::validation(
        op,
        ValidationError::InvalidArgument {
            argument: "layout",
            message,
        },
    )
}

fn real_view<'a, F: Component, R: TensorRank, D: ViewRepresentation>(
    op: &'static str,
    v: &TypedTensorView<'a, Complex<F>, R, D>,
) -> Result<TypedTensorView<'a, F, DynRank, D>> {
    v.require_host(op)?;
    let mut shape = Vec::with_capacity(v.rank() + 1);
    shape.push(2);
    shape.extend_from_slice(v.shape());
    let mut strides = Vec::with_capacity(v.rank() + 1);
    strides.push(1);
    for &s in v.strides() {
        strides.push(doubled(op, s)?);
    }
    TypedTensorView::build(
        op,
        shape,
        strides,
        doubled(op, v.offset())?,
        components(v.data),
    )
}

fn complex_view<'a, F: Component, R: TensorRank, D: ViewRepresentation>(
    op: &'static str,
    v: &TypedTensorView<'a, F, R, D>,
) -> Result<TypedTensorView<'a, Complex<F>, DynRank, D>> {
    v.require_host(op)?;
    if v.shape().first() != Some(&2) || v.strides().first() != Some(&1) {
        return Err(not_sealed(
            op,
            format!(
                "an interleaved real view needs a leading axis of extent 2 and stride 1, found shape {:?} and strides {:?}",
                v.shape(),
                v.strides()
            ),
        ));
    }
    let odd = |x: isize| x % 2 != 0;
    if let Some(axis) = v.strides()[1..].iter().position(|&s| odd(s)) {
        return Err(not_sealed(
            op,
            format!(
                "stride {} of axis {} is odd, so it does not step over whole complex values",
                v.strides()[axis + 1],
                axis + 1
            ),
        ));
    }
    if odd(v.offset()) {
        return Err(not_sealed(
            op,
            format!(
                "offset {} is odd, so it does not start at a whole complex value",
                v.offset()
            ),
        ));
    }
    let strides: Vec<isize> = v.strides()[1..].iter().map(|s| s / 2).collect();
    TypedTensorView::build(
        op,
        v.shape()[1..].to_vec(),
        strides,
        v.offset() / 2,
        pairs(v.data),
    )
}

macro_rules! complex_width {
    ($f:ty, $c:ident) => {
        impl<'a, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, crate::$c, R, D> {
            #[doc = concat!("Borrow this complex view as an interleaved real view without copying: the result has\n\
            dynamic rank with the component axis `[2, ...]` first (stride 1, real part then\n\
            imaginary), the other strides and the offset doubled. Only `", stringify!($c), "` <-> `", stringify!($f), "` is\n\
            sealed here; this is representation reinterpretation, not numeric conversion.\n\n\
            ```\n\
            use strideweave::{", stringify!($c), ", TypedTensorView};\n\n\
            let data = [", stringify!($c), "::new(1.0, 2.0)];\n\
            let view = TypedTensorView::from_col_major(&[1], &data)?;\n\
            let real = view.as_real_view()?;\n\
            assert_eq!(real.shape(), &[2, 1]);\n\
            assert_eq!(real.as_slice()?, &[1.0_", stringify!($f), ", 2.0]);\n\
            # Ok::<(), strideweave::Error>(())\n\
            ```\n\n\
            # Errors\n\n\
            [`Error::Validation`] with [`ValidationError::IntegerOverflow`] when the doubled\n\
            strides or offset do not fit in `isize`; [`Error::Runtime`] for storage that is not\n\
            host memory (none today).")]
            pub fn as_real_view(&self) -> Result<TypedTensorView<'a, $f, DynRank, D>> {
                real_view("TypedTensorView::as_real_view", self)
            }
        }

        impl<'a, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, $f, R, D> {
            #[doc = concat!("Borrow this interleaved real view as a complex view without copying. The source\n\
            must have a leading extent and stride of 2 and 1, and every remaining stride plus the\n\
            offset must be divisible by 2; the result drops the leading axis and halves the rest.\n\n\
            ```\n\
            use strideweave::{", stringify!($c), ", TypedTensorView};\n\n\
            let data = [1.0_", stringify!($f), ", 2.0];\n\
            let view = TypedTensorView::from_col_major(&[2, 1], &data)?;\n\
            let complex = view.as_complex_view()?;\n\
            assert_eq!(complex.shape(), &[1]);\n\
            assert_eq!(complex.as_slice()?, &[", stringify!($c), "::new(1.0, 2.0)]);\n\
            # Ok::<(), strideweave::Error>(())\n\
            ```\n\n\
            # Errors\n\n\
            [`Error::Validation`] with [`ValidationError::InvalidArgument`] (argument `layout`)\n\
            when the leading axis is not extent 2 with stride 1, a remaining stride or the offset\n\
            is odd; [`Error::Runtime`] for storage that is not host memory (none today).")]
            pub fn as_complex_view(&self) -> Result<TypedTensorView<'a, crate::$c, DynRank, D>> {
                complex_view("TypedTensorView::as_complex_view", self)
            }
        }
    };
}

complex_width!(f32, Complex32);
complex_width!(f64, Complex64);
