//! The compile-time checked macros against the runtime API: `rearrange!`/`repeat!` on static
//! and dynamic tensors give the layouts and values of `Tensor::rearrange`/`Tensor::repeat`,
//! and the dynamic path's messages are the compile-time messages recorded in `ui-tests/`;
//! `s!` builds the keys `Tensor::index` takes; arithmetic on static shapes wraps the `Tensor`
//! operations; static layouts (`layout_t!` and the algebra on them) are `const` and equal
//! the run-time `Layout`'s.

mod agreement;
mod arith;
mod contract;
mod einops_macro;
mod einsum;
mod keys;
mod layouts;
mod messages;
mod partly;
mod reduce;
mod static_tensor;
mod support;
