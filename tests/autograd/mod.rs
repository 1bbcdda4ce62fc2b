//! Reverse-mode gradients: seed 000's view backward and no-grad requirements, contracts §6
//! (the autograd surface) and RT017, one test per requirement and scenario, named after it;
//! the adjoint identity of random view chains (proptest); finite differences for the
//! arithmetic; reference gradients from PyTorch (`tests/data/autograd_torch.json`); the
//! one-pass gradients of view chains against a naive reference, bit for bit (`one_pass`);
//! user-defined operations (`autograd::Function`) against the built-in ones (`function`).

mod accumulate;
pub(crate) mod adjoint;
pub(crate) mod finite_diff;
mod function;
mod into;
mod one_pass;
mod reference;
mod rt017;
mod seed000;
mod sum_backward;
mod support;
mod surface;
