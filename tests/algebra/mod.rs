//! The algebra of shaped tensors (issue 13), the reduce part: `Tensor::reduce` against
//! einops (`reference.rs`), its rules one test each (`rules.rs`), random inputs against a
//! naive reference (`props.rs`), finite differences of every new gradient (`finite_diff.rs`)
//! and the vector operations `magnitude`, `normalize`, `cross` (`vector.rs`); the gradients
//! of every new operation against PyTorch's reference programs (`torch_reference.rs`).

mod finite_diff;
mod promotion;
mod props;
mod reference;
mod rules;
use crate::torch_programs;
mod torch_reference;
mod vector;
