//! [`TypedTensorView::to_col_major`] through the crate's copy engine for the element types
//! of the dtype set, chosen at run time by [`TypeId`] (no specialization); any other `T`
//! takes the generic odometer walk that clones element by element.

use super::layout::col_major_strides;
use super::owned::TypedTensor;
use super::rank::TensorRank;
use super::repr::ViewRepresentation;
use super::view::TypedTensorView;
use crate::budget::{as_uninit, reserved_vec, written_vec};
use crate::dtype::Element;
use crate::error::Result;
use crate::{Complex32, Complex64};
use std::any::{Any, TypeId};

/// `data` as a slice of `E` when `T` is `E`, else `None`.
#[allow(unsafe_code)]
pub(crate) fn same_slice<T: 'static, E: 'static>(data: &[T]) -> Option<&[E]> {
    if TypeId::of::<T>() != TypeId::of::<E>() {
        return None;
    }
    // SAFETY: `T` and `E` are both `'static` and have the same `TypeId`, so they are the
    // same type (lifetimes cannot differ for `'static` types); the cast is the identity:
    // same pointer, same length, same element size, alignment and validity. The returned
    // borrow has the lifetime of `data`.
    Some(unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<E>(), data.len()) })
}

/// `value` as a `U` when it is one (the identity; `None` for another type).
fn same_value<V: 'static, U: 'static>(value: V) -> Option<U> {
    let boxed: Box<dyn Any> = Box::new(value);
    boxed.downcast::<U>().ok().map(|b| *b)
}

impl<'a, T: Clone + 'static, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, T, R, D> {
    /// The compact copy through the copy engine when `T` is an [`Element`], else the
    /// element-by-element clone; reported as `op`.
    pub(crate) fn to_col_major_dispatch(&self, op: &'static str) -> Result<TypedTensor<T, R>> {
        macro_rules! engine_for {
            ($($e:ty),* $(,)?) => {$(
                if let Some(data) = same_slice::<T, $e>(self.data) {
                    let view = TypedTensorView::<'_, $e, R, D> {
                        data,
                        layout: self.layout.clone(),
                        placement: self.placement,
                        repr: std::marker::PhantomData,
                    };
                    let owned = view.to_col_major_engine(op)?;
                    // unreachable from user input: `T` is `$e` (their `TypeId`s matched), so
                    // the owned tensor of `$e` is a `TypedTensor<T, R>`.
                    return Ok(same_value(owned).expect("T is the element type just matched"));
                }
            )*};
        }
        engine_for!(f32, f64, i32, i64, u8, i8, bool, Complex32, Complex64);
        #[cfg(feature = "half")]
        engine_for!(half::f16, half::bf16);
        self.to_col_major_generic(op)
    }

    /// The generic path: clones each element in column-major order.
    fn to_col_major_generic(&self, op: &'static str) -> Result<TypedTensor<T, R>> {
        self.require_host(op)?;
        let mut data = reserved_vec(op, self.n_elements())?;
        self.layout
            .for_each_index(|i| data.push(self.data[i].clone()));
        self.owned(op, data)
    }
}

impl<T: Element, R: TensorRank, D: ViewRepresentation> TypedTensorView<'_, T, R, D> {
    /// [`to_col_major`](TypedTensorView::to_col_major) through the crate's copy engine
    /// (blocked, parallel for large copies), for the crate's element types; reported as `op`.
    pub(crate) fn to_col_major_engine(&self, op: &'static str) -> Result<TypedTensor<T, R>> {
        self.require_host(op)?;
        let n = self.n_elements();
        if n == 0 {
            return self.owned(op, Vec::new());
        }
        let extents: Vec<i64> = self.shape().iter().map(|&e| e as i64).collect();
        let src: Vec<i64> = self.strides().iter().map(|&s| s as i64).collect();
        let dst: Vec<i64> = col_major_strides(op, self.shape())?
            .iter()
            .map(|&s| s as i64)
            .collect();
        // SAFETY (`written_vec`'s contract): `copy` writes `data[D(i)]` for every index `i`
        // of the shape, and the column-major strides `D` of that shape are a bijection onto
        // `0..n`: every element is written.
        #[allow(unsafe_code)]
        let data = unsafe {
            written_vec(op, n, |data| {
                crate::kernels::copy::copy(
                    &extents,
                    (as_uninit(self.data), self.offset() as i64, &src),
                    (data, 0, &dst),
                );
                Ok(())
            })?
        };
        self.owned(op, data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_slice_is_the_identity_for_one_type_and_none_for_another() {
        let data = [1.5_f32, -2.0, 3.25];
        let same = same_slice::<f32, f32>(&data).expect("f32 is f32");
        assert_eq!(same, &data);
        assert!(std::ptr::eq(same, &data[..]));
        assert!(same_slice::<f32, i32>(&data).is_none());
        assert!(same_slice::<f32, f64>(&data).is_none());
        let empty: [u8; 0] = [];
        assert_eq!(same_slice::<u8, u8>(&empty), Some(&[][..]));
        assert_eq!(same_value::<i64, i64>(7), Some(7));
        assert_eq!(same_value::<i64, u64>(7), None);
    }
}
