//! The elementwise engine ([`kernels::zip`](crate::kernels::zip)) run on tensors: operands
//! read in place through their layouts, the result written straight into a fresh compact
//! vector or into the caller's destination — one pass, no intermediate buffer.
//!
//! A destination that is one of the operands itself (`a.add_into(&b, &a)`: same carrier,
//! offset and layout) is updated in place, each element read just before it is written. Any
//! other destination sharing a carrier with an operand cannot be written while the operand
//! is read: the result goes into a fresh vector first and is then copied into the
//! destination by the copy engine, so overlapping reads never see new values.

use std::mem::MaybeUninit;

use crate::budget::written_vec;
use crate::carrier::Carrier;
use crate::dtype::Element;
use crate::error::Result;
use crate::kernels::copy::copy;
use crate::kernels::fold::fold;
use crate::kernels::zip::{Dst, Src, map, zip};
// The engine's forms for fresh destinations (never streamed), named apart from this
// module's tensor-level `zip_fresh`/`map_fresh`.
use crate::kernels::zip::{
    map_fresh as map_new, map_fresh_serial as map_new_serial, zip_fresh as zip_new,
};
use crate::layout::Layout;
use crate::ops::Dest;
use crate::tensor::Tensor;
use crate::tensor::read::{read, read_write, read2, read2_write};

/// `f(a, b)` elementwise (checked: one subtensor each, dtype `T`, equal shapes, a checked
/// destination): `Some` compact first-mode-fastest values for [`Dest::Fresh`], `None` once
/// written into the destination.
pub(crate) fn zip2<T: Element>(
    op: &'static str,
    a: &Tensor,
    b: &Tensor,
    dest: Dest<'_>,
    f: impl Fn(T, T) -> T + Sync,
) -> Result<Option<Vec<T>>> {
    let extents = a.shape().leaves();
    match dest {
        Dest::Fresh => zip_fresh(op, a, b, f).map(Some),
        Dest::Into(out) if same_place(out, a) && !shares(out, b) => update(op, out, b, &f),
        Dest::Into(out) if same_place(out, b) && !shares(out, a) => {
            update(op, out, a, |z, x| f(x, z))
        }
        Dest::Into(out) if shares(out, a) || shares(out, b) => {
            staged(op, out, zip2(op, a, b, Dest::Fresh, f)?)
        }
        Dest::Into(out) => {
            let (o, l) = (out.offset() as i64, out.layout());
            read2_write(
                a,
                b,
                out,
                op,
                |(x, xo, xl): (&[T], _, _), (y, yo, yl), z| {
                    let to = (z, o, l.stride().leaves());
                    zip(extents, side(x, xo, xl), side(y, yo, yl), to, f);
                },
            )?;
            Ok(None)
        }
    }
}

/// `f(t)` elementwise (see [`zip2`]).
pub(crate) fn map1<T: Element>(
    op: &'static str,
    t: &Tensor,
    dest: Dest<'_>,
    f: impl Fn(T) -> T + Sync,
) -> Result<Option<Vec<T>>> {
    let extents = t.shape().leaves();
    match dest {
        Dest::Fresh => map_fresh(op, t, f).map(Some),
        Dest::Into(out) if shares(out, t) => staged(op, out, map1(op, t, Dest::Fresh, f)?),
        Dest::Into(out) => {
            let (o, l) = (out.offset() as i64, out.layout());
            read_write(t, out, op, |(x, xo, xl): (&[T], _, _), z| {
                map(extents, side(x, xo, xl), (z, o, l.stride().leaves()), f);
            })?;
            Ok(None)
        }
    }
}

/// `f(a, b)` elementwise into a fresh compact first-mode-fastest vector, whose element type
/// may differ from the operands' (checked: one subtensor each, dtype `T`, equal shapes).
pub(crate) fn zip_fresh<T: Element, U: Element>(
    op: &'static str,
    a: &Tensor,
    b: &Tensor,
    f: impl Fn(T, T) -> U + Sync,
) -> Result<Vec<U>> {
    let extents = a.shape().leaves();
    // Reserved before any lock is taken: an impossible size is an error.
    // SAFETY (`written_vec`'s contract): `read2` returns `Ok` only after running the
    // closure, and `zip_new` writes `dst[D(i)]` for every index `i` of the shape; `D` is
    // the compact layout of that shape, a bijection onto `0..a.size()`, so every
    // element of `out` is written (tested over random layouts against a naive walk by
    // `tests/zip`: `binary_operations_match_the_naive_reference`, whose values are never 0).
    #[allow(unsafe_code)]
    unsafe {
        written_vec(op, a.size(), |out| {
            read2(a, b, op, |(x, xo, xl), (y, yo, yl)| {
                let order = Layout::compact(xl.shape());
                let to = (out, 0, order.stride().leaves());
                let f = |p, q| MaybeUninit::new(f(p, q));
                zip_new(extents, side(x, xo, xl), side(y, yo, yl), to, f);
            })
        })
    }
}

/// `f(t)` elementwise into a fresh compact vector (see [`zip_fresh`]).
pub(crate) fn map_fresh<T: Element, U: Element>(
    op: &'static str,
    t: &Tensor,
    f: impl Fn(T) -> U + Sync,
) -> Result<Vec<U>> {
    map_fresh_by(op, t, |extents, x, to| {
        map_new(extents, x, to, |p| MaybeUninit::new(f(p)))
    })
}

/// [`map_fresh`] on the calling thread only, for a function that cannot be shared with
/// other threads (a user's closure).
pub(crate) fn map_fresh_serial<T: Element, U: Element>(
    op: &'static str,
    t: &Tensor,
    f: impl Fn(T) -> U,
) -> Result<Vec<U>> {
    map_fresh_by(op, t, |extents, x, to| {
        map_new_serial(extents, x, to, |p| MaybeUninit::new(f(p)))
    })
}

/// The frame of [`map_fresh`] and [`map_fresh_serial`]: `t` read in place and `run` — the
/// engine's `map_fresh` or `map_fresh_serial`, each of which writes every element of its
/// destination —
/// given `t`'s extents, `t` as a source and the compact layout of `t`'s shape over a fresh
/// vector as the destination.
fn map_fresh_by<T: Element, U: Element>(
    op: &'static str,
    t: &Tensor,
    run: impl FnOnce(&[i64], Src<'_, T>, Dst<'_, '_, MaybeUninit<U>>),
) -> Result<Vec<U>> {
    let extents = t.shape().leaves();
    // SAFETY (`written_vec`'s contract): `run` is the engine's `map_fresh` or
    // `map_fresh_serial` (the only callers are the two functions above), which writes every
    // element of the compact layout of `t`'s shape once `read` has run the closure.
    #[allow(unsafe_code)]
    unsafe {
        written_vec(op, t.size(), |out| {
            read(t, op, |x: &[T], xo, xl| {
                let order = Layout::compact(xl.shape());
                run(extents, side(x, xo, xl), (out, 0, order.stride().leaves()));
            })
        })
    }
}

/// `out[i] = f(out[i], t[i])` in place, where `out` is one of the operands (same carrier,
/// offset and layout) and `t` the other, on another carrier: each element of `out` is read
/// once, just before it is written, so no staging is needed.
fn update<T: Element, R>(
    op: &'static str,
    out: &Tensor,
    t: &Tensor,
    f: impl Fn(T, T) -> T + Sync,
) -> Result<Option<R>> {
    let (o, l) = (out.offset() as i64, out.layout());
    read_write(t, out, op, |(x, xo, xl): (&[T], _, _), z| {
        let to = (z, o, l.stride().leaves());
        fold(l.shape().leaves(), side(x, xo, xl), to, &f);
    })?;
    Ok(None)
}

/// Whether `out` is `t` itself: the same carrier, offset and layout.
fn same_place(out: &Tensor, t: &Tensor) -> bool {
    shares(out, t) && out.offset() == t.offset() && out.layout() == t.layout()
}

/// Writes `values` (first-mode-fastest over `out`'s shape) into the checked destination
/// `out` with the copy engine (one version increment).
pub(crate) fn write_values<T: Element>(op: &'static str, out: &Tensor, values: &[T]) -> Result<()> {
    let (o, l) = (out.offset() as i64, out.layout());
    let order = Layout::compact(l.shape());
    out.carrier().write_as(op, |z: &mut [T]| {
        copy(
            l.shape().leaves(),
            (values, 0, order.stride().leaves()),
            (z, o, l.stride().leaves()),
        );
    })
}

/// The result computed into a fresh vector, then copied into `out`.
fn staged<T: Element>(
    op: &'static str,
    out: &Tensor,
    values: Option<Vec<T>>,
) -> Result<Option<Vec<T>>> {
    // unreachable from user input: zip2/map1 with Dest::Fresh always return Some.
    let values = values.expect("the fresh form returns its values");
    write_values(op, out, &values)?;
    Ok(None)
}

/// Whether `out` and `t` share a carrier (checked: one subtensor each).
fn shares(out: &Tensor, t: &Tensor) -> bool {
    Carrier::same(out.carrier(), t.carrier())
}

/// A source of the engines: elements, offset and leaf strides.
fn side<'a, T>(x: &'a [T], o: i64, l: &'a Layout) -> (&'a [T], i64, &'a [i64]) {
    (x, o, l.stride().leaves())
}
